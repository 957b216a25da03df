"""tools/conv_forward.py: ``ascend-conv forward`` — a small layer run and checked, the levels it
prints, cost only, and what it refuses (one line, exit 2 for what is not supported yet)."""

import os
import subprocess
import sys

from ascend_xdsl.tools import conv

SCRIPT = os.path.join(os.path.dirname(sys.executable), "ascend-conv")
SMALL = ["--input", "1,16,4,8,8", "--weight", "32,16,3,3,3", "--padding", "1"]


def run(capsys, *argv):
    code = conv.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascend-conv: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], err


def test_small_layer_runs_and_checks(capsys):
    code, out, err = run(capsys, "forward", *SMALL)
    assert code == 0, err
    assert "y 1x32x4x8x8" in out
    assert "within the tolerance" in out
    cycles = [line for line in out.splitlines() if line.startswith("cycles: ")]
    assert cycles and int(cycles[0].split()[1].replace(",", "")) > 0


def test_grouped_bf16_strided_layer(capsys):
    code, out, err = run(
        capsys,
        "forward",
        "--input", "2,8,5,6,7",
        "--weight", "12,4,2,3,3",
        "--stride", "2,1,1",
        "--padding", "0,1,1,0,2,1",
        "--dilation", "1,2,1",
        "--groups", "2",
        "--dtype", "bf16",
        "--cores", "3",
    )  # fmt: skip
    assert code == 0, err
    assert "(2 launches, one per group)" in out and "within the tolerance" in out


def test_emit_hw_prints_the_walk(capsys):
    code, out, _ = run(capsys, "forward", *SMALL, "--emit", "hw")
    assert code == 0
    assert "ascend.load3d" in out and "ascend.load2d" in out and "ascend.wait_flag" in out
    assert "-> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>" in out


def test_cost_only(capsys):
    code, out, err = run(capsys, "forward", *SMALL, "--cost-only")
    assert code == 0, err
    assert "cost-only: " in out and "cycles on atlas-a2-910b2" in out


def test_bias_is_refused_with_exit_2(capsys):
    code, _, err = run(capsys, "forward", *SMALL, "--bias")
    assert code == 2
    assert_one_line_error(err, "--bias is not supported yet")


def test_tuned_tiling_is_refused_with_exit_2(capsys):
    code, _, err = run(capsys, "forward", *SMALL, "--tiling", "tuned")
    assert code == 2
    assert_one_line_error(err, "--tiling tuned is not supported yet")


def test_illegal_problem(capsys):
    code, _, err = run(capsys, "forward", "--input", "1,16,4,8,8", "--weight", "32,8,3,3,3")
    assert code == 1
    assert_one_line_error(err, "illegal problem")


def test_console_script_exit_code_and_no_traceback():
    proc = subprocess.run(
        [SCRIPT, "forward", *SMALL, "--bias"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("ascend-conv: error: forward: --bias")
