"""tools/run.py on input-gradient (dX) programs: ``ascend-run --check`` finds the dX a program
computes (``ir/program.input_grad_problem``: ``ascend.conv3d_backprop_input`` above the API
level, the launch's ``ascend.conv3d_backprop_input`` record below) and checks dX against the dX
reference with the derived tolerance (``runtime/reports/check.check_input_grad``), in the line
dW's check prints."""

from pathlib import Path

import numpy as np
import pytest
import torch
from cli_helpers import ascend_run, checked_run

from ascend_xdsl.lowering.build import build_conv3d_input
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels

SIZE, WEIGHT, DY = (1, 16, 3, 6, 6), (16, 16, 2, 3, 3), (1, 16, 4, 3, 3)
CONV = {"stride": (1, 2, 2), "padding": 1}


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("input_grad")
    module = build_conv3d_input(SIZE, WEIGHT, DY, **CONV)
    levels = compile_levels(module.clone(), CompileOptions.create(cores=2))
    paths = {}
    for name, text in (("op", str(module)), ("hw", str(levels["hw"]))):
        paths[name] = folder / f"{name}.mlir"
        paths[name].write_text(text)
    return paths


@pytest.mark.parametrize("name", ["hw", "op"])
def test_a_dx_program_checks_like_dw(capsys, programs, tmp_path, name):
    w = np.random.default_rng(1).standard_normal(WEIGHT).astype(np.float16)
    dy = np.random.default_rng(2).standard_normal(DY).astype(np.float16)
    lines, dx = checked_run(
        capsys, programs[name], tmp_path, {"dy": dy, "w": w}, "conv3d_input*.npy"
    )
    assert lines[1].startswith("wrote ") and lines[1].endswith("(1x16x3x6x6 f16)"), lines
    # dX agrees with torch within rounding to f16 (half an ulp) plus the float32 sums
    expected = torch.nn.grad.conv3d_input(
        SIZE, torch.from_numpy(w.astype(np.float64)), torch.from_numpy(dy.astype(np.float64)),
        **CONV,
    ).numpy()  # fmt: skip
    assert np.all(np.abs(dx - expected) <= 2.0**-11 * np.abs(expected) + 1e-2)


def test_a_wrong_record_fails_the_check(capsys, programs, tmp_path):
    """The launch's record says what dX should be: a padding moved from front to back (same
    shapes, other values) makes the check fail, exit 1, results still written."""
    text = programs["hw"].read_text()
    record = "pads = array<i64: 1, 1, 1, 1, 1, 1>"
    assert text.count(record) == 1
    wrong = tmp_path / "wrong.mlir"
    wrong.write_text(text.replace(record, "pads = array<i64: 0, 2, 1, 1, 1, 1>"))
    code, out, err = ascend_run(
        capsys, wrong, "--random-inputs", "--check", "--output-dir", tmp_path
    )
    assert code == 1, (out, err)
    assert "FAILED" in out.splitlines()[0], out
    assert list(tmp_path.glob("conv3d_input*.npy"))
