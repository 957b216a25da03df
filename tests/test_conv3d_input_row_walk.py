"""dX's stride-aware row walk (``lowering/lower_api_to_hw/conv3d_bp_input_walk.py``,
``row_walk_taps``): at stride_h > 1 one dX row a tile and only the kernel rows of its residue.

Each case is given a tiling (the heuristic's, with the L0 M tile and the core split set here,
read back through ``--tiling fixed:FILE``) on which the walk is taken, asserted from the
hardware-level IR (every Load3D runs ceil(kH / sH) kernel rows, not kH). On integer data dX
must equal a float64 reference exactly: ``torch.nn.grad.conv3d_input`` where torch takes the
padding, else the plain formula of tests/test_conv3d_input_hw.py; with both executors, on one
core and on several, and the cost-only model must give the full run's cycles."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from test_conv3d_input_hw import numpy_dx
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.hw_level import Load3dOp
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.hw.intmath import ceil_div
from ascend_xdsl.lowering.build import INPUT_GRAD_FUNC_NAME, shape_from_torch_args
from ascend_xdsl.lowering.lower_api_to_hw.conv3d_bp_input_walk import row_walk_taps
from ascend_xdsl.runtime.api import model_cost
from ascend_xdsl.runtime.input_grad import run_conv3d_input
from ascend_xdsl.tuning.conv3d_bp_input_search import fit_errors, heuristic_tiling

HW = "atlas-a2-910b2"

# input size, weight shape, stride, pads6 (f, b, u, d, l, r), dilation, rows of a core's share
# on several cores (None: the heuristic's split).
CASES = {
    # A shrunk videomae tubelet: stride = kernel in H and W, one tap a row.
    "tubelet": ((1, 3, 4, 32, 32), (16, 3, 2, 4, 4), (2, 4, 4), (0,) * 6, (1, 1, 1), None),
    # Stride 3 over a 5-row kernel with asymmetric padding: residues of 2, 2 and 1 taps.
    "stride3_pad": (
        (1, 16, 3, 13, 16),
        (16, 16, 1, 5, 3),
        (1, 3, 2),
        (0, 0, 2, 1, 1, 1),
        (1, 1, 1),
        None,
    ),
    # Dilation 3 with stride 2 (coprime): real dy rows 3 apart in A1.
    "dilation3": (
        (1, 8, 2, 17, 16),
        (20, 8, 1, 3, 3),
        (1, 2, 1),
        (0, 0, 1, 2, 0, 1),
        (1, 3, 1),
        None,
    ),
    # Stride 4 over a 2-row kernel: half the dX rows receive no dy row (zeros).
    "no_tap_rows": (
        (1, 8, 2, 16, 16),
        (16, 8, 1, 2, 3),
        (1, 4, 1),
        (0, 0, 0, 1, 1, 1),
        (1, 1, 2),
        None,
    ),
    # Two batches (one iterate loop each), Cout of two Cout1 blocks, stride 2 in D too.
    "batch2": ((2, 8, 4, 9, 16), (24, 8, 2, 3, 3), (2, 2, 1), (1,) * 6, (1, 1, 1), None),
    # Rows of 40 positions in L0C tiles of 16 (three pieces a row), stride 2 in W (A1 zeroed),
    # and the rows split over cores in shares of 3 (a tail of 1): ho_start per core.
    "pieces_msplit": (
        (1, 16, 2, 10, 40),
        (16, 16, 1, 3, 3),
        (1, 2, 2),
        (1,) * 6,
        (1, 1, 1),
        3,
    ),
}


def _problem(case: tuple):
    size, ws, stride, pads6, dilation, _ = case
    return shape_from_torch_args(size, ws, stride=stride, padding=pads6, dilation=dilation)


def _tiling_file(case: tuple, cores: int | None, tmp_path: Path) -> str:
    hw = load_hw(HW)
    count = cores or hw.aic_count
    t = heuristic_tiling(_problem(case), hw, count)
    t = dataclasses.replace(t, base_m=16)
    if case[5] is not None and cores is None:
        t = dataclasses.replace(t, single_core_m=case[5] * case[0][4])
    assert fit_errors(t, hw, count) == []
    assert row_walk_taps(t) > 0
    path = tmp_path / "tiling.json"
    path.write_text(json.dumps({"tiling": t.as_dict()}))
    return f"fixed:{path}"


def _data(case: tuple) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    w = rng.integers(-2, 3, case[1]).astype(np.float16)
    dy = rng.integers(-3, 4, _problem(case).grad_output_shape).astype(np.float16)
    return w, dy


def _reference(case: tuple, w: np.ndarray, dy: np.ndarray) -> np.ndarray:
    size, _, stride, pads6, dilation, _ = case
    if pads6[0::2] == pads6[1::2]:
        torch = pytest.importorskip("torch")
        return torch.nn.grad.conv3d_input(
            size,
            torch.from_numpy(w.astype(np.float64)),
            torch.from_numpy(dy.astype(np.float64)),
            stride,
            pads6[0::2],
            dilation,
        ).numpy()
    return numpy_dx(size, w, dy, stride, pads6, dilation, 1)


def _assert_row_walk(module: ModuleOp, case: tuple) -> None:
    """Every img2col runs the row walk's ceil(kH / sH) kernel rows, at Load3D H stride 1 and
    the conv's H dilation, not the vendor walk's kH."""
    _, ws, stride, _, dilation, _ = case
    loads = [op for op in module.walk() if isinstance(op, Load3dOp)]
    assert loads
    taps = ceil_div(ws[3], stride[1])
    assert taps < ws[3]
    for op in loads:
        assert op.kernel_hw == (taps, ws[4])
        assert op.stride_hw == (1, 1)
        assert op.dilation.get_values()[0] == dilation[1]


@pytest.mark.parametrize("cores", [1, None], ids=["1core", "all"])
@pytest.mark.parametrize("name", list(CASES))
def test_row_walk_exact_on_integers(name: str, cores: int | None, tmp_path: Path) -> None:
    case = CASES[name]
    size, _, stride, pads6, dilation, _ = case
    w, dy = _data(case)
    tiling = _tiling_file(case, cores, tmp_path)
    run = run_conv3d_input(size, w, dy, stride, pads6, dilation, hw=HW, cores=cores, tiling=tiling)
    _assert_row_walk(run.modules["hw"], case)
    ref = _reference(case, w, dy)
    np.testing.assert_array_equal(run.output, ref.astype(np.float16))
    # Integers: the reference is exact in f16 too.
    assert np.array_equal(run.output.astype(np.float64), ref)


@pytest.mark.parametrize("name", ["stride3_pad", "pieces_msplit"])
def test_row_walk_executors_and_cost_only_agree(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    size, _, stride, pads6, dilation, _ = case
    w, dy = _data(case)
    tiling = _tiling_file(case, None, tmp_path)
    compiled = run_conv3d_input(size, w, dy, stride, pads6, dilation, hw=HW, tiling=tiling)
    interp = run_conv3d_input(
        size, w, dy, stride, pads6, dilation, hw=HW, tiling=tiling, executor="interp"
    )
    np.testing.assert_array_equal(compiled.output, interp.output)
    np.testing.assert_array_equal(compiled.output, _reference(case, w, dy).astype(np.float16))
    assert interp.cycles == compiled.cycles
    (cost,) = model_cost(
        compiled.modules["hw"], HW, entry=INPUT_GRAD_FUNC_NAME, problem=compiled.problem
    )
    (exact,) = compiled.costs
    assert cost.cycles == pytest.approx(exact.cycles, rel=1e-9)
    for mine, theirs in zip(cost.cores, exact.cores, strict=True):
        assert mine.instructions == theirs.instructions


def _tiling(**fields: int):
    """The videomae-tubelet heuristic tiling (910b2), with ``fields`` replaced."""
    problem = shape_from_torch_args(
        (1, 3, 16, 224, 224), (768, 3, 2, 16, 16), stride=(2, 16, 16), padding=0
    )
    hw = load_hw(HW)
    return dataclasses.replace(heuristic_tiling(problem, hw, hw.aic_count), **fields)


def test_rule_counts_tile_tap_pairs() -> None:
    """videomae-tubelet: 196 tiles of 256 positions x 16 kernel rows against 224 rows x 1."""
    t = _tiling()
    assert (t.base_m, t.single_core_m, t.wi, t.hk, t.stride_h) == (256, 50176, 224, 16, 16)
    assert row_walk_taps(t) == 196 * 16 - 224 * 1
    # Rows of two pieces (base_m 112): 448 tiles x 16 against 224 x 2 x 1.
    assert row_walk_taps(_tiling(base_m=112)) == 448 * 16 - 224 * 2


def test_rule_refuses() -> None:
    # stride_h 1: nothing to skip.
    assert row_walk_taps(_tiling(stride_h=1)) == 0
    # gcd(dil_h, stride_h) > 1: rows no tap reaches would interleave with the residues'.
    assert row_walk_taps(_tiling(dilation_h=2)) == 0
    # A single shape that is not whole rows.
    assert row_walk_taps(_tiling(single_core_m=50176 - 16)) == 0
    # Large tiles over a kernel of few rows a residue: more (tile, tap) pairs than the plain
    # walk (i3d-conv1-like: 7 rows, stride 2, 4.6 rows a tile).
    assert row_walk_taps(_tiling(hk=7, stride_h=2, base_m=1024)) == 0


def test_refused_layers_keep_the_vendor_walk(tmp_path: Path) -> None:
    """A stride-2 layer the rule refuses (the heuristic's large tile) lowers to the vendor's
    walk: Load3D runs all kH kernel rows."""
    size, ws = (1, 16, 2, 12, 12), (16, 16, 1, 3, 3)
    w = np.ones(ws, np.float16)
    problem = shape_from_torch_args(size, ws, stride=(1, 2, 2), padding=1)
    hw = load_hw(HW)
    assert row_walk_taps(heuristic_tiling(problem, hw, hw.aic_count)) == 0
    dy = np.ones(problem.grad_output_shape, np.float16)
    run = run_conv3d_input(size, w, dy, (1, 2, 2), 1, hw=HW, cost=False)
    loads = [op for op in run.modules["hw"].walk() if isinstance(op, Load3dOp)]
    assert loads and all(op.kernel_hw == (3, 3) for op in loads)
