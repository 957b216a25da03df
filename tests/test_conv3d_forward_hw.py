"""The forward conv on the simulator (``runtime/forward.py``, the hardware lowering of
``lowering/lower_api_to_hw/conv3d_walk.py``): against a plain numpy statement of the conv
formula written here (zero-padded input, one float32 tensordot per kernel offset, then rounded
to the output type), against ``torch.nn.functional.conv3d``, exactly on integer data, and with
the sanitizer, the cost model and both executors."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.passes.conv3d_tiling_heuristic import conv3d_tiling
from ascend_xdsl.runtime.forward import conv3d, run_conv3d
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer


def numpy_conv3d(
    x: np.ndarray,
    w: np.ndarray,
    stride: tuple[int, int, int],
    pads6: tuple[int, ...],
    dilation: tuple[int, int, int],
    groups: int,
) -> np.ndarray:
    """y[n, co, o] = Σ_{ci, k} w[co, ci, k] · xpad[n, g·Cin_g + ci, o·s + k·d] in float32."""
    n = x.shape[0]
    cout, cin_g, *ks = w.shape
    xp = np.pad(
        x.astype(np.float32),
        ((0, 0), (0, 0), pads6[0:2], pads6[2:4], pads6[4:6]),
    )
    outs = [(xp.shape[2 + a] - dilation[a] * (ks[a] - 1) - 1) // stride[a] + 1 for a in range(3)]
    cout_g = cout // groups
    y = np.zeros((n, cout, *outs), np.float32)
    for g in range(groups):
        xg = xp[:, g * cin_g : (g + 1) * cin_g]
        wg = w[g * cout_g : (g + 1) * cout_g].astype(np.float32)
        for a, b, c in itertools.product(*map(range, ks)):
            d0, h0, w0 = a * dilation[0], b * dilation[1], c * dilation[2]
            win = xg[
                :,
                :,
                d0 : d0 + stride[0] * (outs[0] - 1) + 1 : stride[0],
                h0 : h0 + stride[1] * (outs[1] - 1) + 1 : stride[1],
                w0 : w0 + stride[2] * (outs[2] - 1) + 1 : stride[2],
            ]
            # (n, ci, od, oh, ow) x (co, ci) -> (n, od, oh, ow, co)
            part = np.tensordot(win, wg[:, :, a, b, c], axes=([1], [1]))
            y[:, g * cout_g : (g + 1) * cout_g] += np.moveaxis(part, -1, 1)
    return y


def _tolerance(x: np.ndarray, w: np.ndarray, args: tuple, ref: np.ndarray, dtype: type) -> float:
    """Two units in the last place of the output type at the result's size, plus float32
    reordering error of a K-term sum (|x|·|w| bounds each term)."""
    mant = 10 if dtype == np.float16 else 7
    bound = numpy_conv3d(np.abs(x.astype(np.float32)), np.abs(w.astype(np.float32)), *args)
    return 2.0 * 2.0**-mant * np.abs(ref) + 1e-5 * bound + 1e-6


CASES = [
    # x shape, weight shape, stride, pads6, dilation, groups
    ((1, 16, 4, 8, 8), (32, 16, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1),
    ((2, 20, 4, 9, 7), (33, 20, 3, 3, 2), (1, 2, 1), (1, 1, 1, 1, 0, 0), (1, 1, 2), 1),
    ((1, 8, 5, 11, 6), (6, 8, 2, 3, 3), (2, 2, 2), (0, 1, 2, 0, 1, 2), (2, 1, 1), 1),
    ((2, 8, 5, 6, 7), (12, 4, 2, 3, 3), (2, 1, 1), (0, 1, 1, 0, 2, 1), (1, 2, 1), 2),
    # Depth padding beyond the kernel: some output depths read only padding.
    ((1, 4, 2, 5, 5), (5, 4, 1, 3, 3), (1, 1, 1), (2, 2, 1, 1, 1, 1), (1, 1, 1), 1),
    # Depthwise.
    ((1, 3, 3, 6, 6), (3, 1, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 3),
]


def _data(case: tuple, dtype: type, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    xs, ws = case[0], case[1]
    return rng.standard_normal(xs).astype(dtype), rng.standard_normal(ws).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("case", CASES)
def test_matches_numpy_formula(case: tuple, dtype: type) -> None:
    x, w = _data(case, dtype)
    _, _, stride, pads6, dilation, groups = case
    y = conv3d(x, w, None, stride, pads6, dilation, groups)
    args = (stride, pads6, dilation, groups)
    ref = numpy_conv3d(x, w, *args)
    assert y.dtype == np.dtype(dtype) and y.shape == ref.shape
    err = np.abs(y.astype(np.float32) - ref)
    assert (err <= _tolerance(x, w, args, ref, dtype)).all(), float(err.max())


@pytest.mark.parametrize("case", CASES[:4])
def test_exact_on_integers(case: tuple) -> None:
    """Small integers: every product and sum is exact in float32 and the result in float16,
    so the kernel must give the formula's bits whatever its order."""
    rng = np.random.default_rng(1)
    x = rng.integers(-3, 4, case[0]).astype(np.float16)
    w = rng.integers(-2, 3, case[1]).astype(np.float16)
    _, _, stride, pads6, dilation, groups = case
    y = conv3d(x, w, None, stride, pads6, dilation, groups)
    ref = numpy_conv3d(x, w, stride, pads6, dilation, groups).astype(np.float16)
    np.testing.assert_array_equal(y, ref)


def test_exact_when_l1_holds_one_cin_block() -> None:
    """A 1200-wide plane: one Cin1 block of the tile's rows fills an A1 slot, so Cin walks in
    chunks of one block (the last one a channel tail) and K in many small k steps."""
    rng = np.random.default_rng(4)
    x = rng.integers(-2, 3, (1, 40, 2, 4, 1200)).astype(np.float16)
    w = rng.integers(-2, 3, (20, 40, 2, 3, 3)).astype(np.float16)
    result = run_conv3d(x, w, None, 1, 1, cost=False, cores=2)
    a1 = next(op for op in result.modules["hw"].walk() if op.name == "ascend.alloc_buffer")
    assert "A1, 76800xf16" in str(a1.results[0].type)  # 1 block x 16 x 4 rows x 1200
    ref = numpy_conv3d(x, w, (1, 1, 1), (1,) * 6, (1, 1, 1), 1).astype(np.float16)
    np.testing.assert_array_equal(result.output, ref)


def test_matches_torch() -> None:
    torch = pytest.importorskip("torch")
    case = CASES[2]
    x, w = _data(case, np.float16, seed=3)
    _, _, stride, pads6, dilation, groups = case
    xt, wt = torch.from_numpy(x), torch.from_numpy(w)
    y = conv3d(xt, wt, None, stride, pads6, dilation, groups)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float16
    padded = torch.nn.functional.pad(xt.double(), (pads6[4], pads6[5], *pads6[2:4], *pads6[0:2]))
    want = torch.nn.functional.conv3d(padded, wt.double(), None, stride, 0, dilation, groups)
    args = (stride, pads6, dilation, groups)
    tol = _tolerance(x, w, args, want.numpy().astype(np.float32), np.float16)
    assert (np.abs(y.double().numpy() - want.numpy()) <= tol).all()


def test_multicore_split_matches_one_core() -> None:
    """The tiler's core split (batch, Dout, Cout, M) gives one core's result to the last bit of
    f16: each output element's sum runs on one core either way, but the tiles' GEMM shapes
    differ, and OpenBLAS's float32 kernels may sum a differently shaped GEMM in another order
    (with the Haswell kernel the suite pins, 2 of 6600 elements here round one ulp apart)."""
    x, w = _data(CASES[1], np.float16, seed=5)
    _, _, stride, pads6, dilation, groups = CASES[1]
    many = run_conv3d(x, w, None, stride, pads6, dilation, groups, cost=False)
    one = run_conv3d(x, w, None, stride, pads6, dilation, groups, cores=1, cost=False)
    ulps = np.abs(many.output.view(np.int16).astype(np.int32) - one.output.view(np.int16))
    assert ulps.max() <= 1 and (ulps == 0).mean() > 0.99


def test_sanitizer_cost_and_executors_agree() -> None:
    x, w = _data(CASES[0], np.float16, seed=2)
    _, _, stride, pads6, dilation, groups = CASES[0]
    sanitizer = Sanitizer.for_hw("atlas-a2-910b2")
    compiled = run_conv3d(x, w, None, stride, pads6, dilation, groups, sanitizer=sanitizer)
    assert sanitizer.hazards == []
    assert compiled.cycles is not None and compiled.cycles > 0
    busy = compiled.costs[0].cores[0].busy
    assert busy["mte1"] > 0 and busy["fixpipe"] > 0
    interp = run_conv3d(x, w, None, stride, pads6, dilation, groups, executor="interp")
    np.testing.assert_array_equal(compiled.output, interp.output)
    assert interp.cycles == compiled.cycles


def test_float32_is_refused_with_the_conversion() -> None:
    x, w = _data(CASES[0], np.float32)
    with pytest.raises(TypeError, match=r"input is a float32 array.*astype\(numpy.float16\)"):
        conv3d(x, w)


def _l1_tiling(base: Conv3DTiling, k_total: int, window: int, **fields: int) -> Conv3DTiling:
    """``base`` with the L1 tiling ``fields`` and the tails and ratios they imply."""
    t = replace(base, **fields)
    t = replace(t, k_al1_tail=k_total % t.k_al1 or t.k_al1, cin1_in_al1=t.k_al1 // window)
    t = replace(t, cin1_in_al1_tail=t.k_al1_tail // window, m_al1_div_m_l0=-(-t.m_al1 // t.m_l0))
    if t.bl1_bypass_flag:
        return replace(t, k_bl1=0, n_bl1=0, k_bl1_div_k0=0, n_bl1_div_n_l0=0)
    t = replace(t, k_bl1_tail=k_total % t.k_bl1 or t.k_bl1, k_bl1_div_k0=t.k_bl1 // 16)
    return replace(t, k_bl1_tail_div_k0=t.k_bl1_tail // 16, n_bl1_div_n_l0=-(-t.n_bl1 // t.n_l0))


# x 1x32x4x6x7, w 48x32x3x3x3, padding 1: Cin1 2, kD 3, so K = 6 planes of 144 columns.
L1_TILINGS = {
    # N first; A1 one plane, B1 two planes per chunk (reloaded in the K loop); a B1 block of
    # three L0 tiles (one load2d per row); an A1 block of two M tiles, the last one short.
    "n-first, K in chunks": dict(
        m_l0=16, n_l0=16, k_l0=144, k_al1=144, k_bl1=288, m_al1=32, n_bl1=48,
        iterate_mn_order=1, al1_full_load=0, bl1_full_load=0, bl1_bypass_flag=0,
        pbuffer_flag=0b11011,
    ),
    # M first; A1 two whole kernel depths (the last chunk one depth: a tail), kL0 two planes.
    "m-first, A1 of whole depths": dict(
        m_l0=16, n_l0=32, k_l0=288, k_al1=576, k_bl1=288, m_al1=32, n_bl1=32,
        iterate_mn_order=0, al1_full_load=0, bl1_full_load=0, bl1_bypass_flag=0,
        pbuffer_flag=0b01011,
    ),
    # x whole in A1, the weight bypassed (copied per k step), N first.
    "bypass": dict(
        m_l0=32, n_l0=16, k_l0=96, k_al1=864, k_bl1=288, k_bl1_tail=288, k_bl1_tail_div_k0=18,
        m_al1=48, n_bl1=0, iterate_mn_order=1, al1_full_load=1, bl1_full_load=0,
        bl1_bypass_flag=1, pbuffer_flag=0b00111,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(L1_TILINGS))
def test_exact_under_l1_tilings(name: str, tmp_path: Path) -> None:
    """The walk follows the tiling's L1 tiles (conv3d_walk.py): in either M/N order, with A1
    and B1 reloaded per K chunk or kept for the block, A1 planes spanning kernel depths (the
    padding depths zero-filled) and a bypassed weight, the kernel gives the formula's bits,
    with no hazard."""
    rng = np.random.default_rng(7)
    x = rng.integers(-2, 3, (1, 32, 4, 6, 7)).astype(np.float16)
    w = rng.integers(-2, 3, (48, 32, 3, 3, 3)).astype(np.float16)
    hw = load_hw("atlas-a2-910b2")
    base = conv3d_tiling(shape_from_torch_args(x.shape, w.shape, padding=1), hw, 1)
    t = _l1_tiling(base, 2 * 27 * 16, 144, **L1_TILINGS[name])
    assert t.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size) == []
    path = tmp_path / "tiling.mlir"
    path.write_text(str(Conv3DTilingAttr(t)))
    sanitizer = Sanitizer.for_hw("atlas-a2-910b2")
    result = run_conv3d(x, w, None, 1, 1, cores=1, tiling=f"fixed:{path}", sanitizer=sanitizer)
    assert sanitizer.hazards == []
    ref = numpy_conv3d(x, w, (1, 1, 1), (1,) * 6, (1, 1, 1), 1).astype(np.float16)
    np.testing.assert_array_equal(result.output, ref)
