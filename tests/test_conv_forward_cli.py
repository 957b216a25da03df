"""tools/conv_forward.py: ``ascend-conv forward`` — a small layer run and checked, the levels it
prints, cost only, and what it refuses (one line, exit 2 for what is not supported yet)."""

import os
import subprocess
import sys

import numpy as np

from ascend_xdsl.runtime.reference import conv3d_reference
from ascend_xdsl.tools import conv
from ascend_xdsl.tools import run as run_tool

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


def test_ascend_run_runs_the_emitted_program_without_hazards(capsys, tmp_path):
    """The hw program ``--emit hw`` prints runs under ``ascend-run`` with the sanitizer, and
    gives the y that ``ascend-conv forward`` computes from the same seeded inputs' reference."""
    program = tmp_path / "fwd.mlir"
    code, _, err = run(capsys, "forward", *SMALL, "--emit", "hw", "-o", str(program))
    assert code == 0, err
    x = np.random.default_rng(7).standard_normal((1, 16, 4, 8, 8)).astype(np.float16)
    w = np.random.default_rng(8).standard_normal((32, 16, 3, 3, 3)).astype(np.float16)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    argv = [str(program), "--entry", "conv3d", "--sanitize", "--output-dir", str(tmp_path)]
    argv += ["--input", f"x={tmp_path / 'x.npy'}", "--input", f"w={tmp_path / 'w.npy'}"]
    code = run_tool.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "sanitizer: no hazards" in out
    y = np.load(tmp_path / "conv3d.npy")
    ref = conv3d_reference(x, w, None, (1, 1, 1), (1,) * 6)
    assert y.dtype == np.float16
    assert np.abs(y.astype(np.float32) - ref).max() <= 2 * 2**-10 * np.abs(ref).max()


def test_unknown_hardware_and_too_many_cores_are_the_users_errors(capsys):
    code, _, err = run(capsys, "forward", *SMALL, "--hw", "nope", "--cost-only")
    assert code == 1
    assert_one_line_error(err, "unknown hardware 'nope'")
    code, _, err = run(capsys, "forward", *SMALL, "--cores", "100", "--cost-only")
    assert code == 1
    assert_one_line_error(err, "cores must be in [1, 24]")
