"""tools/conv_forward.py: ``ascend-conv forward`` — a small layer run and checked, the levels it
prints, cost only, and what it refuses (one line, exit 2 for what is not supported yet); its
``--trace``/``--plot`` (as bp-filter's) and ``--emit ascendc`` (the project written; the g++
check of it is in tests/test_emit_ascendc.py)."""

import json
import os
import subprocess
import sys

import numpy as np
from cli_helpers import (
    COST_LINES,
    GROUPED_BF16,
    assert_cost_lines,
    assert_one_line_error,
    cost_lines,
    reported_cycles,
)
from cli_helpers import ascend_conv as run

from ascend_xdsl.runtime.reference import conv3d_reference
from ascend_xdsl.runtime.reports import trace as trace_module
from ascend_xdsl.tools import run as run_tool

SCRIPT = os.path.join(os.path.dirname(sys.executable), "ascend-conv")
SMALL = ["--input", "1,16,4,8,8", "--weight", "32,16,3,3,3", "--padding", "1"]


def test_small_layer_runs_and_checks(capsys):
    code, out, err = run(capsys, "forward", *SMALL)
    assert code == 0, err
    assert "y 1x32x4x8x8" in out
    assert "within the tolerance" in out
    assert reported_cycles(out) > 0


def test_grouped_bf16_strided_layer(capsys):
    code, out, err = run(capsys, "forward", *GROUPED_BF16)
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


def test_the_summary_has_the_cost_lines_of_bp_filter(capsys):
    """The cost model's lines of bp-filter's summary (modelled time, TFLOP/s, bound, pipes,
    critical path, cores, end to end), in a run and in cost only; a grouped layer's are its last
    launch's, under a line saying so."""
    code, dw, err = run(capsys, "bp-filter", *SMALL, "--cost-only")
    assert code == 0, err
    assert_cost_lines(dw)
    for flags in ([], ["--cost-only"]):
        code, out, err = run(capsys, "forward", *SMALL, *flags)
        assert code == 0, err
        assert_cost_lines(out)
        assert "conv3d_kernel " in cost_lines(out)[-1] and "MemSet" not in out
    code, out, err = run(capsys, "forward", *GROUPED_BF16, "--cost-only")
    assert code == 0, err
    assert_cost_lines(out)
    assert "each of the 2 launches (one per group, the same kernel), the last:" in out
    assert all(
        line.startswith("  ") for line in out.splitlines() if line.strip().startswith(COST_LINES)
    )


def test_the_whole_operator_zeroes_nothing(capsys):
    """y is allocated uninitialised (ascend.empty_gm: the kernel writes every element), so the
    whole operator is the TransData in, the kernel and the TransData out: no MemSet."""
    code, out, err = run(capsys, "forward", *SMALL, "--cost-only", "--report", "json")
    assert code == 0, err
    kernels = [k["name"] for k in json.loads(out)["cost"]["kernels"]]
    assert kernels == ["TransData x", "TransData w", "conv3d_kernel", "TransData y"]


def test_bias_runs_through_the_bias_table_and_is_checked(capsys):
    code, out, err = run(capsys, "forward", *SMALL, "--bias")
    assert code == 0, err
    assert "(within the tolerance)" in out
    code, out, _ = run(capsys, "forward", *SMALL, "--bias", "--emit", "hw")
    assert code == 0 and "ascend.load_bias" in out and "bias !ascend.local_tensor<C2," in out


def test_tuned_tiling_runs_checks_and_reports_its_strategy(capsys, tmp_path, monkeypatch):
    """--tiling tuned: the forward search's tiling, checked against the reference; its
    --report json names the strategy, and that report is a fixed:FILE giving the same cost."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    code, out, err = run(capsys, "forward", *SMALL, "--tiling", "tuned", "--report", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["tiling_strategy"] == "tuned" and report["check"]["ok"]
    saved = tmp_path / "tiling.json"
    saved.write_text(out)
    code, fixed, err = run(capsys, "forward", *SMALL, "--tiling", f"fixed:{saved}", "--cost-only")
    assert code == 0, err
    code, tuned, err = run(capsys, "forward", *SMALL, "--tiling", "tuned", "--cost-only")
    assert code == 0, err
    assert fixed.splitlines()[1:3] == tuned.splitlines()[1:3]  # the tiling and the cycles


def test_bad_tiling_flags_are_one_line_errors(capsys, tmp_path):
    for flags, fragment, status in (
        (["--tiling", "bogus"], "unknown tiling 'bogus'", 2),
        (["--tiling", "fixed"], "tiling 'fixed' needs a file", 2),
        (["--no-cache"], "--no-cache goes with --tiling tuned", 2),
        (["--tiling", f"fixed:{tmp_path / 'nope'}"], "cannot read tiling file", 1),
    ):
        code, _, err = run(capsys, "forward", *SMALL, *flags, "--cost-only")
        assert code == status, (flags, err)
        assert_one_line_error(err, fragment)
    other = tmp_path / "other.json"
    code, out, _ = run(capsys, "forward", "--input", "1,16,4,6,6", "--weight", "16,16,1,1,1",
                       "--report", "json", "--cost-only")  # fmt: skip
    assert code == 0
    other.write_text(out)
    code, _, err = run(capsys, "forward", *SMALL, "--tiling", f"fixed:{other}", "--cost-only")
    assert code == 1
    assert_one_line_error(err, "does not match the problem's")


def test_illegal_problem(capsys):
    code, _, err = run(capsys, "forward", "--input", "1,16,4,8,8", "--weight", "32,8,3,3,3")
    assert code == 1
    assert_one_line_error(err, "illegal problem")


def test_console_script_exit_code_and_no_traceback():
    proc = subprocess.run(
        [SCRIPT, "forward", *SMALL, "--no-cache"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("ascend-conv: error: forward: --no-cache")


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


def test_ascend_run_checks_a_program_with_a_bias(capsys, tmp_path):
    """``--emit hw --bias`` gives a program of x, weight and bias that ``ascend-run --check``
    recognises and checks against the reference with the bias, with no hazards."""
    program = tmp_path / "fwd_bias.mlir"
    shapes = ["--input", "1,16,4,8,8", "--weight", "20,16,3,3,3", "--padding", "1"]
    code, _, err = run(capsys, "forward", *shapes, "--bias", "--emit", "hw", "-o", str(program))
    assert code == 0, err
    argv = [str(program), "--entry", "conv3d", "--random-inputs", "--check", "--sanitize"]
    argv += ["--output-dir", str(tmp_path)]
    code = run_tool.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "sanitizer: no hazards" in out and ": OK" in out


# -- --trace, --plot and --emit ascendc (the flags bp-filter has) ------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TINY = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1", "--cores", "2"]


def test_trace_and_plot_of_a_run(capsys, tmp_path):
    """bp-filter's pictures of the forward run: a process per core and the host's track in
    the trace, the slowest core's PNG titled with the forward problem."""
    import pytest

    pytest.importorskip("matplotlib")
    trace, plot = tmp_path / "t.json", tmp_path / "p.png"
    code, out, err = run(capsys, "forward", *TINY, "--trace", str(trace), "--plot", str(plot))
    assert code == 0, err
    assert "within the tolerance" in out
    events = json.loads(trace.read_text())["traceEvents"]
    processes = [e["args"]["name"] for e in events if e["name"] == "process_name"]
    assert len(processes) == 2 + 1 and processes[-1] == "host"
    assert any(e["ph"] == "X" and e["pid"] != trace_module.HOST_PID for e in events)
    assert plot.read_bytes().startswith(PNG_MAGIC)


def test_trace_of_cost_only_has_every_group_launch(capsys, tmp_path):
    """--cost-only of a grouped layer: one launch per group, each its own processes in the
    trace, laid out one after the other (as bp-filter traces several launches)."""
    trace = tmp_path / "t.json"
    argv = ["--input", "1,32,2,6,6", "--weight", "32,16,1,3,3", "--groups", "2", "--cores", "1"]
    code, out, err = run(
        capsys, "forward", *argv, "--cost-only", "--report", "json", "--trace", str(trace)
    )
    assert code == 0, err
    events = json.loads(trace.read_text())["traceEvents"]
    names = sorted(e["args"]["name"] for e in events if e["name"] == "process_name")
    assert names == ["host", "launch 1 core 0", "launch 2 core 0"]
    assert json.loads(out)["problem"]["op"] == "forward"


def test_picture_errors_are_one_line_and_write_nothing(capsys, tmp_path):
    code, out, err = run(capsys, "forward", *TINY, "--trace", str(tmp_path / "no" / "t.json"))
    assert (code, out) == (1, "")
    assert_one_line_error(err, "--trace", "cannot write")
    code, _, err = run(capsys, "forward", *TINY, "--plot", str(tmp_path / "p.svg"))
    assert code == 2
    assert_one_line_error(err, "the plot is written as PNG only")
    code, _, err = run(
        capsys, "forward", *TINY, "--trace", str(tmp_path / "a"), "-o", str(tmp_path / "a")
    )
    assert code == 2
    assert_one_line_error(err, "--trace and -o both name")
    assert list(tmp_path.iterdir()) == []


def test_emit_refuses_the_flags_of_a_run(capsys, tmp_path):
    for flags in (["--cost-only"], ["--report", "json"], ["--trace", str(tmp_path / "t")],
                  ["--seed", "3"], ["--executor", "interp"]):  # fmt: skip
        code, out, err = run(capsys, "forward", *TINY, "--emit", "api", *flags)
        assert (code, out) == (2, ""), flags
        assert_one_line_error(err, f"{flags[0]}", "needs a run: it cannot go with --emit")
    assert list(tmp_path.iterdir()) == []


def test_emit_ascendc_writes_the_project(capsys, tmp_path):
    folder = tmp_path / "fwd"
    code, out, err = run(capsys, "forward", *TINY, "--emit", "ascendc", "-o", str(folder))
    assert code == 0
    files = ["CMakeLists.txt", "README.md", "conv3d_kernel.asc", "data.py", "main.cpp"]
    assert out == f"wrote {folder}: {', '.join(files)}\n"
    # No warning: the heuristic's tiling, L1 included, is the one the vendor's GetTiling
    # returns for the kernel's single-core shape.
    assert err == ""
    kernel = (folder / "conv3d_kernel.asc").read_text()
    assert "conv.IterateAll(yGm[" in kernel and "Conv3dApi::Conv3D<" in kernel
    assert "--emit ascendc -o" in (folder / "README.md").read_text()


def test_emit_ascendc_of_a_grouped_layer_is_one_launch_per_group(capsys, tmp_path):
    """Issue 17: a grouped layer's project is no longer refused; its host launches the one
    group's kernel once per group, on the groups' tensors laid out back to back."""
    grouped = ["--input", "1,40,2,6,6", "--weight", "32,20,1,3,3", "--groups", "2"]
    folder = tmp_path / "p"
    code, out, _ = run(capsys, "forward", *grouped, "--emit", "ascendc", "-o", str(folder))
    assert code == 0 and out.startswith(f"wrote {folder}: "), out
    host = (folder / "main.cpp").read_text()
    assert "constexpr size_t kGroups = 2;" in host
    assert "for (size_t g = 0; g < kGroups; ++g) {" in host
    # The public tiling API takes groups 1 only (asc-devkit CheckInputAttr): each launch is
    # an ungrouped convolution, and the README says why.
    assert "t.groups = 1;" in host
    assert "t.groupOpt = 1;" in host
    readme = (folder / "README.md").read_text()
    assert "## Groups" in readme
    assert "public tiling APIs take `groups` 1 only" in readme


def test_emit_ascendc_with_a_bias_calls_set_bias_and_data_py_makes_it(capsys, tmp_path):
    """``--bias`` with ``--emit ascendc`` (refused before): the kernel takes the bias and calls
    SetBias, the host reads bias.bin in ND, and data.py draws the bias the run draws."""
    folder = tmp_path / "fwd"
    code, _, err = run(capsys, "forward", *TINY, "--bias", "--emit", "ascendc", "-o", str(folder))
    assert (code, err) == (0, ""), err
    kernel = (folder / "conv3d_kernel.asc").read_text()
    assert "conv.SetBias(biasGm[" in kernel
    assert "Conv3dApi::Conv3D<InputType, WeightType, OutputType, BiasType>" in kernel
    host = (folder / "main.cpp").read_text()
    assert 'ReadFile(dataDir + "/bias.bin"' in host and "t.biasFullLoadFlag = 1;" in host
    data = (folder / "data.py").read_text()
    assert "BIAS = True" in data and "--bias" in data


def test_emit_ascendc_errors_are_one_line(capsys, tmp_path):
    code, out, err = run(capsys, "forward", *TINY, "--emit", "ascendc")
    assert (code, out) == (2, "")
    assert_one_line_error(err, "--emit ascendc writes a project folder: give it with -o DIR")
    (tmp_path / "mine.txt").write_text("keep")
    code, _, err = run(capsys, "forward", *TINY, "--emit", "ascendc", "-o", str(tmp_path))
    assert code == 1
    assert_one_line_error(err, "is not empty and is not a previous --emit ascendc project")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_cores_beyond_the_hardware_and_an_unknown_hw_are_one_line(capsys):
    """Found by the fuzz cases of forward's flags: these were internal errors (exit 70)."""
    code, _, err = run(capsys, "forward", *SMALL, "--cores", "25", "--emit", "api")
    assert code == 1
    assert_one_line_error(err, "cores must be in [1, 24] for atlas-a2-910b2, got 25")
    code, _, err = run(capsys, "forward", *SMALL, "--hw", "nosuch", "--cost-only")
    assert code == 1
    assert_one_line_error(err, "unknown hardware 'nosuch'")
