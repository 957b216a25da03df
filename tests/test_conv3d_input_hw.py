"""The input gradient (dX) on the simulator (``runtime/input_grad.py``, the hardware lowering of
``lowering/lower_api_to_hw/conv3d_bp_input_walk.py``): against a plain numpy statement of the
formula written here (every dy element sent back, through each kernel tap, to the input
position the forward read it from), against ``torch.nn.grad.conv3d_input`` in float64, exactly
on integer data, and with the sanitizer, the cost model (full and cost-only) and both
executors."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.lowering.build import INPUT_GRAD_FUNC_NAME
from ascend_xdsl.runtime.api import model_cost
from ascend_xdsl.runtime.input_grad import conv3d_input, run_conv3d_input
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer

HW = "atlas-a2-910b2"


def numpy_dx(
    size: tuple[int, ...],
    w: np.ndarray,
    dy: np.ndarray,
    stride: tuple[int, int, int],
    pads6: tuple[int, ...],
    dilation: tuple[int, int, int],
    groups: int,
) -> np.ndarray:
    """dX[n, g·Cin_g + ci, o·s − p + k·d] += Σ_co w[co, ci, k] · dy[n, co, o], float64, on a
    zero-padded dX that is cropped at the end."""
    n, cin, *ins = size
    cout, cin_g, *ks = w.shape
    outs = dy.shape[2:]
    cout_g = cout // groups
    padded = [ins[a] + pads6[2 * a] + pads6[2 * a + 1] for a in range(3)]
    dxp = np.zeros((n, cin, *padded), np.float64)
    for g in range(groups):
        dyg = dy[:, g * cout_g : (g + 1) * cout_g].astype(np.float64)
        wg = w[g * cout_g : (g + 1) * cout_g].astype(np.float64)
        for a, b, c in itertools.product(*map(range, ks)):
            d0, h0, w0 = a * dilation[0], b * dilation[1], c * dilation[2]
            # (n, co, od, oh, ow) x (co, ci) -> (n, od, oh, ow, ci)
            part = np.moveaxis(np.tensordot(dyg, wg[:, :, a, b, c], axes=([1], [0])), -1, 1)
            dxp[
                :,
                g * cin_g : (g + 1) * cin_g,
                d0 : d0 + stride[0] * (outs[0] - 1) + 1 : stride[0],
                h0 : h0 + stride[1] * (outs[1] - 1) + 1 : stride[1],
                w0 : w0 + stride[2] * (outs[2] - 1) + 1 : stride[2],
            ] += part
    return dxp[
        :,
        :,
        pads6[0] : pads6[0] + ins[0],
        pads6[2] : pads6[2] + ins[1],
        pads6[4] : pads6[4] + ins[2],
    ]


def _out(size: int, k: int, s: int, lo: int, hi: int, d: int) -> int:
    return (size + lo + hi - d * (k - 1) - 1) // s + 1


def _dy_shape(case: tuple) -> tuple[int, ...]:
    size, ws, stride, pads6, dilation, _ = case
    outs = [
        _out(size[2 + a], ws[2 + a], stride[a], pads6[2 * a], pads6[2 * a + 1], dilation[a])
        for a in range(3)
    ]
    return (size[0], ws[0], *outs)


def _tolerance(case: tuple, w: np.ndarray, dy: np.ndarray, ref: np.ndarray, dtype: type) -> float:
    """Two units in the last place of the output type at the result's size, plus float32
    reordering error of a K-term sum (|w|·|dy| bounds each term)."""
    mant = 10 if dtype == np.float16 else 7
    size, _, stride, pads6, dilation, groups = case
    bound = numpy_dx(size, np.abs(w), np.abs(dy), stride, pads6, dilation, groups)
    return 2.0 * 2.0**-mant * np.abs(ref) + 1e-5 * bound + 1e-6


CASES = [
    # input size, weight shape, stride, pads6, dilation, groups
    ((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1),
    # Odd sizes, channel tails, asymmetric padding, stride 2 in D, dilation 2 in W.
    ((2, 20, 5, 7, 9), (24, 20, 3, 3, 2), (2, 1, 1), (1, 0, 1, 1, 0, 1), (1, 1, 2), 1),
    # Stride 3 and dilation 2 in D (the kd of one residue class), dilation 2 in H.
    ((1, 8, 6, 9, 6), (6, 8, 2, 3, 3), (3, 1, 1), (2, 1, 2, 0, 1, 2), (2, 2, 1), 1),
    # Groups.
    ((2, 8, 5, 6, 7), (12, 4, 2, 3, 3), (2, 1, 1), (0, 1, 1, 0, 2, 1), (1, 2, 1), 2),
    # Depthwise.
    ((1, 3, 3, 6, 6), (3, 1, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 3),
    # Strides 2 in H and W (dy dilated in a zeroed A1), with odd sizes and a 1x1 kernel whose
    # stride leaves dX rows and columns no dy element reaches.
    ((1, 16, 4, 9, 8), (16, 16, 3, 3, 3), (1, 2, 2), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1),
    ((2, 20, 5, 11, 10), (24, 20, 3, 3, 3), (2, 2, 3), (1, 1, 1, 2, 0, 0), (1, 2, 1), 1),
    ((1, 16, 3, 7, 8), (8, 16, 1, 1, 1), (1, 2, 2), (0,) * 6, (1, 1, 1), 1),
    # A pad after beyond the kernel's reach: the last dy columns reach no dX column (one copy
    # per Cout1 block of the columns that do), the last dy rows none either.
    ((1, 4, 3, 5, 5), (5, 4, 1, 3, 3), (1, 1, 1), (2, 2, 1, 3, 1, 3), (1, 1, 1), 1),
]


def _data(case: tuple, dtype: type, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (
        rng.standard_normal(case[1]).astype(dtype),
        rng.standard_normal(_dy_shape(case)).astype(dtype),
    )


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("case", CASES)
def test_matches_numpy_formula(case: tuple, dtype: type) -> None:
    w, dy = _data(case, dtype)
    size, _, stride, pads6, dilation, groups = case
    dx = conv3d_input(size, w, dy, stride, pads6, dilation, groups)
    ref = numpy_dx(size, w, dy, stride, pads6, dilation, groups)
    assert dx.dtype == np.dtype(dtype) and dx.shape == ref.shape == size
    err = np.abs(dx.astype(np.float64) - ref)
    assert (err <= _tolerance(case, w, dy, ref, dtype)).all(), float(err.max())


@pytest.mark.parametrize("case", [*CASES[:4], CASES[5], CASES[6]])
def test_exact_on_integers(case: tuple) -> None:
    """Small integers: every product and sum is exact in float32 and the result in float16,
    so the kernel must give the formula's bits whatever its order."""
    rng = np.random.default_rng(1)
    w = rng.integers(-2, 3, case[1]).astype(np.float16)
    dy = rng.integers(-3, 4, _dy_shape(case)).astype(np.float16)
    size, _, stride, pads6, dilation, groups = case
    dx = conv3d_input(size, w, dy, stride, pads6, dilation, groups)
    ref = numpy_dx(size, w, dy, stride, pads6, dilation, groups).astype(np.float16)
    np.testing.assert_array_equal(dx, ref)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_matches_torch_float64(dtype: str) -> None:
    """torch tensors in, a torch tensor of their type out; against torch's own dX in float64
    (torch takes symmetric padding only)."""
    torch = pytest.importorskip("torch")
    size, ws, stride, dilation, padding = (2, 24, 5, 9, 7), (16, 24, 3, 3, 3), (2, 1, 1), 2, 2
    rng = np.random.default_rng(3)
    wt = torch.from_numpy(rng.standard_normal(ws)).to(getattr(torch, dtype))
    dy_shape = (2, 16, *(_out(s, 3, st, 2, 2, 2) for s, st in zip(size[2:], stride, strict=True)))
    dyt = torch.from_numpy(rng.standard_normal(dy_shape)).to(getattr(torch, dtype))
    dx = conv3d_input(size, wt, dyt, stride, padding, dilation)
    assert isinstance(dx, torch.Tensor) and dx.dtype == wt.dtype and tuple(dx.shape) == size
    want = torch.nn.grad.conv3d_input(
        size, wt.double(), dyt.double(), stride, padding, dilation
    ).numpy()
    case = (size, ws, stride, (padding,) * 6, (dilation,) * 3, 1)
    np_dtype = np.float16 if dtype == "float16" else ml_dtypes.bfloat16
    tol = _tolerance(case, wt.double().numpy(), dyt.double().numpy(), want, np_dtype)
    assert (np.abs(dx.double().numpy() - want) <= tol).all()


def _blocks(module: ModuleOp) -> int:
    (launch,) = [op for op in module.walk() if isinstance(op, LaunchOp)]
    return launch.blocks.value.data


def test_multicore_split_matches_one_core() -> None:
    """The tiler's core split (batch, D, M, N) against one core: each dX element's sum runs on
    one core either way; differently shaped GEMMs may round one ulp apart."""
    case = CASES[1]
    w, dy = _data(case, np.float16, seed=5)
    size, _, stride, pads6, dilation, groups = case
    many = run_conv3d_input(size, w, dy, stride, pads6, dilation, groups, cost=False)
    one = run_conv3d_input(size, w, dy, stride, pads6, dilation, groups, cores=1, cost=False)
    assert (_blocks(many.modules["api"]), _blocks(one.modules["api"])) == (10, 1)
    ulps = np.abs(many.output.view(np.int16).astype(np.int32) - one.output.view(np.int16))
    assert ulps.max() <= 1 and (ulps == 0).mean() > 0.99


@pytest.mark.parametrize("case", [CASES[1], CASES[6]], ids=["stride_d", "stride_dhw"])
def test_sanitizer_cost_and_executors_agree(case: tuple) -> None:
    w, dy = _data(case, np.float16, seed=2)
    size, _, stride, pads6, dilation, groups = case
    sanitizer = Sanitizer.for_hw(HW)
    compiled = run_conv3d_input(
        size, w, dy, stride, pads6, dilation, groups, hw=HW, sanitizer=sanitizer
    )
    assert sanitizer.hazards == []
    assert compiled.cycles is not None and compiled.cycles > 0
    busy = compiled.costs[0].cores[0].busy
    assert busy["mte1"] > 0 and busy["fixpipe"] > 0
    interp = run_conv3d_input(
        size, w, dy, stride, pads6, dilation, groups, hw=HW, executor="interp"
    )
    np.testing.assert_array_equal(compiled.output, interp.output)
    assert interp.cycles == compiled.cycles


@pytest.mark.parametrize("cores", [1, None])
def test_cost_only_agrees_with_the_full_run(cores: int | None) -> None:
    size, ws = (2, 64, 6, 16, 16), (64, 64, 3, 3, 3)
    rng = np.random.default_rng(0)
    w = rng.standard_normal(ws).astype(np.float16)
    dy = rng.standard_normal((2, 64, 6, 16, 16)).astype(np.float16)
    full = run_conv3d_input(size, w, dy, 1, 1, hw=HW, cores=cores)
    (cost,) = model_cost(full.modules["hw"], HW, entry=INPUT_GRAD_FUNC_NAME, problem=full.problem)
    (exact,) = full.costs
    assert cost.cycles == pytest.approx(exact.cycles, rel=0.01)
    for mine, theirs in zip(cost.cores, exact.cores, strict=True):
        assert mine.busy == pytest.approx(theirs.busy, rel=0.01)
        assert mine.instructions == theirs.instructions


def test_bad_arguments_are_one_line() -> None:
    w = np.zeros((16, 16, 3, 3, 3), np.float16)
    dy = np.zeros((1, 16, 4, 8, 8), np.float16)
    with pytest.raises(ValueError, match=r"grad_output shape \[1, 16, 4, 8, 8\] does not match"):
        conv3d_input((1, 16, 4, 8, 8), w, dy, 1, 0)
    with pytest.raises(ValueError, match="input_size must be 5 integers"):
        conv3d_input((16, 4, 8, 8), w, dy, 1, 1)
    with pytest.raises(TypeError, match=r"grad_output is a float32 array.*astype"):
        conv3d_input((1, 16, 4, 8, 8), w, dy.astype(np.float32), 1, 1)
