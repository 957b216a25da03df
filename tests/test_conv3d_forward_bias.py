"""The forward conv's bias on the simulator (the bias table: ``load_bias`` and the mmad's
bias-init mode, ``lowering/lower_api_to_hw/conv3d_walk.py``): against a float64 statement of
``torch.nn.functional.conv3d(x, w, b)`` written here (a loop over kernel offsets, the bias added
per output channel), against torch, exactly on integers, with groups, with the sanitizer, both
executors and the cost-only model, and through ``ascend-run --check``."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.hw import load
from ascend_xdsl.runtime.forward import conv3d, run_conv3d
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, run


def reference(x, w, b, stride, pads6, dilation, groups) -> np.ndarray:
    """y[n, co, o] = b[co] + Σ_{ci, k} w[co, ci, k] · xpad[n, g·Cin_g + ci, o·s + k·d], float64."""
    x, w, b = (np.asarray(a, np.float64) for a in (x, w, b))
    xp = np.pad(x, ((0, 0), (0, 0), pads6[0:2], pads6[2:4], pads6[4:6]))
    cout, cin_g, *ks = w.shape
    outs = [(xp.shape[2 + a] - dilation[a] * (ks[a] - 1) - 1) // stride[a] + 1 for a in range(3)]
    cout_g = cout // groups
    y = np.zeros((x.shape[0], cout, *outs)) + b.reshape(1, cout, 1, 1, 1)
    for g in range(groups):
        xg = xp[:, g * cin_g : (g + 1) * cin_g]
        for kd, kh, kw in itertools.product(*map(range, ks)):
            starts = (kd * dilation[0], kh * dilation[1], kw * dilation[2])
            win = xg[
                :,
                :,
                starts[0] : starts[0] + stride[0] * (outs[0] - 1) + 1 : stride[0],
                starts[1] : starts[1] + stride[1] * (outs[1] - 1) + 1 : stride[1],
                starts[2] : starts[2] + stride[2] * (outs[2] - 1) + 1 : stride[2],
            ]
            wk = w[g * cout_g : (g + 1) * cout_g, :, kd, kh, kw]
            y[:, g * cout_g : (g + 1) * cout_g] += np.einsum("ncdhw,oc->nodhw", win, wk)
    return y


CASES = [
    # x shape, weight shape, stride, pads6, dilation, groups
    ((1, 16, 4, 8, 8), (20, 16, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1),
    ((2, 20, 4, 9, 7), (33, 20, 3, 3, 2), (1, 2, 1), (1, 1, 1, 1, 0, 0), (1, 1, 2), 1),
    ((2, 8, 5, 6, 7), (12, 4, 2, 3, 3), (2, 1, 1), (0, 1, 1, 0, 2, 1), (1, 2, 1), 2),
    # Depthwise; depth padding beyond the kernel (some output depths read only padding, their
    # y is the bias alone).
    ((1, 3, 3, 6, 6), (3, 1, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 3),
    ((1, 4, 2, 5, 5), (5, 4, 1, 3, 3), (1, 1, 1), (2, 2, 1, 1, 1, 1), (1, 1, 1), 1),
]


def _data(case: tuple, dtype: type, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(case[0]).astype(dtype)
    w = rng.standard_normal(case[1]).astype(dtype)
    b = (4 * rng.standard_normal(case[1][0])).astype(dtype)
    return x, w, b


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("case", CASES)
def test_matches_the_float64_formula(case: tuple, dtype: type) -> None:
    x, w, b = _data(case, dtype)
    args = case[2:]
    y = conv3d(x, w, b, *args)
    want = reference(x, w, b, *args)
    assert y.dtype == np.dtype(dtype) and y.shape == want.shape
    # The float32 sum's reordering error over K + 1 terms, then the output type's rounding.
    bound = reference(np.abs(x), np.abs(w), np.abs(b), *args)
    eps = 2.0**-11 if dtype == np.float16 else 2.0**-8
    tol = eps * np.abs(want) + 1e-5 * bound + 1e-6
    err = np.abs(y.astype(np.float64) - want)
    assert (err <= tol).all(), float((err / tol).max())
    # The bias counts: without it the result is off by it (where it is not small).
    plain = conv3d(x, w, None, *args).astype(np.float64)
    moved = np.abs(y.astype(np.float64) - plain).max(axis=(0, 2, 3, 4))
    big = np.abs(b.astype(np.float64)) > 1
    assert (moved[big] > 0.5).all()


@pytest.mark.parametrize("case", CASES)
def test_exact_on_integers(case: tuple) -> None:
    """Small integers, bias included: every product and sum is exact in float32 and the
    result in float16, so the kernel must give the formula's bits."""
    rng = np.random.default_rng(1)
    x = rng.integers(-3, 4, case[0]).astype(np.float16)
    w = rng.integers(-2, 3, case[1]).astype(np.float16)
    b = rng.integers(-50, 51, case[1][0]).astype(np.float16)
    y = conv3d(x, w, b, *case[2:])
    np.testing.assert_array_equal(y, reference(x, w, b, *case[2:]).astype(np.float16))


def test_matches_torch_in_bf16_with_groups() -> None:
    torch = pytest.importorskip("torch")
    case = CASES[2]
    x, w, b = (torch.from_numpy(a.astype(np.float32)).bfloat16() for a in _data(case, np.float32))
    stride, pads6, dilation, groups = case[2:]
    y = conv3d(x, w, b, stride, pads6, dilation, groups)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.bfloat16
    padded = torch.nn.functional.pad(x.double(), (pads6[4], pads6[5], *pads6[2:4], *pads6[0:2]))
    want = torch.nn.functional.conv3d(padded, w.double(), b.double(), stride, 0, dilation, groups)
    bound = torch.nn.functional.conv3d(
        padded.abs(), w.double().abs(), b.double().abs(), stride, 0, dilation, groups
    )
    tol = 2.0**-8 * want.abs() + 1e-5 * bound + 1e-6
    assert ((y.double() - want).abs() <= tol).all()


def test_sanitizer_executors_and_cost_only_agree() -> None:
    x, w, b = _data(CASES[1], np.float16, seed=2)
    args = CASES[1][2:]
    sanitizer = Sanitizer.for_hw("atlas-a2-910b2")
    compiled = run_conv3d(x, w, b, *args, sanitizer=sanitizer)
    assert sanitizer.hazards == []
    interp = run_conv3d(x, w, b, *args, executor="interp")
    np.testing.assert_array_equal(compiled.output, interp.output)
    assert interp.cycles == compiled.cycles
    cost_only = run(
        ModuleJob(
            compiled.modules["hw"], load("atlas-a2-910b2"), "conv3d", problem=compiled.problem
        ),
        RunOptions(cost="cost-only", progress=False),
    )
    assert sum(c.cycles for c in cost_only.costs) == compiled.cycles
    # The bias costs its copies (a GM -> C1 and a C1 -> BT copy per L0C tile) and nothing on
    # the Cube: a little more than without it (7% on this small layer of ~2,200 cycles).
    plain = run_conv3d(x, w, None, *args)
    assert plain.cycles < compiled.cycles < 1.15 * plain.cycles


def test_bias_type_and_shape_are_checked() -> None:
    x, w, b = _data(CASES[0], np.float16)
    with pytest.raises(TypeError, match="bias must have the input's type float16, got bfloat16"):
        conv3d(x, w, b.astype(ml_dtypes.bfloat16))
    with pytest.raises(ValueError, match=r"bias shape \(19,\) must be \(20,\)"):
        conv3d(x, w, b[:19])


def test_many_n_tiles_with_a_channel_tail_exactly_and_without_hazards() -> None:
    """Cout 300 on one core: five L0C tiles along N (n_l0 64), each reloading the one bias
    buffer in C1 and in the bias table, the last a 44-channel tail whose whole-block copies
    read past Cout into the ND tensor's padding."""
    rng = np.random.default_rng(3)
    x = rng.integers(-2, 3, (1, 32, 2, 6, 6)).astype(np.float16)
    w = rng.integers(-2, 3, (300, 32, 1, 3, 3)).astype(np.float16)
    b = rng.integers(-20, 21, 300).astype(np.float16)
    sanitizer = Sanitizer.for_hw("atlas-a2-910b2")
    result = run_conv3d(x, w, b, 1, 1, cores=1, sanitizer=sanitizer)
    init = next(op for op in result.modules["api"].walk() if op.name == "ascend.conv3d_init")
    assert init.tiling.tiling.n_l0 == 64
    assert sanitizer.hazards == []
    want = reference(x, w, b, (1, 1, 1), (1,) * 6, (1, 1, 1), 1).astype(np.float16)
    np.testing.assert_array_equal(result.output, want)
