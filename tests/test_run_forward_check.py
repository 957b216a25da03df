"""tools/run.py on forward programs: ``ascend-run --check`` finds the forward conv a program
computes (``ir/program.forward_problem``: ``ascend.conv3d`` above the API level, the launch's
``ascend.conv3d`` record below) and checks y against the forward reference with the derived
tolerance (``runtime/reports/check.check_forward``), in the line dW's check prints."""

import re
from pathlib import Path

import numpy as np
import pytest
import torch
from cli_helpers import CHECK_OK, ascend_run, checked_run

from ascend_xdsl.tools import conv

FWD = ["--input", "1,16,3,6,6", "--weight", "16,16,2,3,3", "--padding", "1", "--cores", "2"]
BF16 = [
    "--input", "2,16,5,6,7", "--weight", "16,16,2,3,3", "--stride", "2,1,1",
    "--padding", "0,1,1,0,2,1", "--dilation", "1,2,1", "--dtype", "bf16", "--cores", "3",
]  # fmt: skip


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("forward")
    paths = {}
    for name, flags, level in (("hw", FWD, "hw"), ("op", FWD, "op"), ("bf16", BF16, "hw")):
        paths[name] = folder / f"{name}.mlir"
        assert conv.main(["forward", *flags, "--emit", level, "-o", str(paths[name])]) == 0
    return paths


def _torch_y(x: np.ndarray, w: np.ndarray, **conv_args) -> np.ndarray:
    """torch's y in float64, the independent reference."""
    xt = torch.from_numpy(x.astype(np.float64))
    wt = torch.from_numpy(w.astype(np.float64))
    return torch.nn.functional.conv3d(xt, wt, **conv_args).numpy()


@pytest.mark.parametrize("name", ["hw", "op"])
def test_a_forward_program_checks_like_dw(capsys, programs, tmp_path, name):
    x = np.random.default_rng(1).standard_normal((1, 16, 3, 6, 6)).astype(np.float16)
    w = np.random.default_rng(2).standard_normal((16, 16, 2, 3, 3)).astype(np.float16)
    lines, y = checked_run(capsys, programs[name], tmp_path, {"x": x, "w": w}, "conv3d*.npy")
    assert lines[1].startswith("wrote ") and lines[1].endswith("(1x16x4x6x6 f16)"), lines
    # y agrees with torch within rounding to f16 (half an ulp) plus the float32 sums
    expected = _torch_y(x, w, padding=1)
    assert np.all(np.abs(y - expected) <= 2.0**-11 * np.abs(expected) + 1e-2)


def test_a_strided_dilated_bf16_program_checks(capsys, programs, tmp_path):
    code, out, err = ascend_run(
        capsys, programs["bf16"], "--random-inputs", "--seed", "3", "--check",
        "--output-dir", tmp_path,
    )  # fmt: skip
    assert code == 0, err
    assert re.fullmatch(CHECK_OK, out.splitlines()[0]), out


def test_a_wrong_record_fails_the_check(capsys, programs, tmp_path):
    """The launch's record says what y should be: a padding moved from front to back (same y
    shape, other values) makes the check fail, exit 1, results still written."""
    text = programs["hw"].read_text()
    record = "pads = array<i64: 1, 1, 1, 1, 1, 1>"
    assert record in text
    wrong = tmp_path / "wrong.mlir"
    wrong.write_text(text.replace(record, "pads = array<i64: 2, 0, 1, 1, 1, 1>"))
    code, out, _ = ascend_run(
        capsys, wrong, "--random-inputs", "--check", "--output-dir", tmp_path / "out"
    )
    assert code == 1
    assert re.fullmatch(r"check: max abs error .*: FAILED", out.splitlines()[0]), out
    assert (tmp_path / "out").is_dir()


def test_a_program_without_a_record_is_refused(capsys, programs, tmp_path):
    text = programs["hw"].read_text()
    bare = tmp_path / "bare.mlir"
    bare.write_text(re.sub(r" \{ascend\.conv3d = \{[^}]*\}\}", "", text))
    assert "ascend.conv3d =" not in bare.read_text()
    code, out, err = ascend_run(capsys, bare, "--random-inputs", "--check")
    assert code == 1 and out == ""
    assert "computes no recognisable dW or forward problem" in err and len(err.splitlines()) == 1


def test_the_forward_report_names_its_op(capsys, programs, tmp_path):
    import json

    code, out, err = ascend_run(
        capsys, programs["hw"], "--random-inputs", "--check", "--report", "json",
        "--output-dir", tmp_path,
    )  # fmt: skip
    assert code == 0, err
    document = json.loads(out)
    assert document["problem"]["op"] == "forward"
    assert document["problem"]["weight"] == [16, 16, 2, 3, 3]
    assert document["check"]["ok"] and len(document["launches"]) == 1
    # the FLOPs are the forward conv's: 2 x N·Cout·Do·Ho·Wo·Cin·kD·kH·kW
    assert document["cost"]["flops"] == 2 * 16 * 4 * 6 * 6 * 16 * 2 * 3 * 3


def test_the_forward_check_catches_one_wrong_product():
    """check_forward on y computed here by torch (float64, rounded to f16): OK; one element
    missing one product x·w fails it, however many products the element sums."""
    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.runtime.reports.check import check_forward

    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 32, 4, 6, 6)).astype(np.float16)
    w = rng.standard_normal((16, 32, 3, 3, 3)).astype(np.float16)
    problem = shape_from_torch_args(x.shape, w.shape, padding=1)
    y = _torch_y(x, w, padding=1)
    assert check_forward(problem, x, w, y.astype(np.float16)).ok
    wrong = y.copy()
    # element (0, 3, 2, 2, 2) loses the product of its centre tap and channel 5
    wrong[0, 3, 2, 2, 2] -= float(x[0, 5, 2, 2, 2]) * float(w[3, 5, 1, 1, 1])
    assert not check_forward(problem, x, w, wrong.astype(np.float16)).ok
