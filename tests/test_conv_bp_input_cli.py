"""tools/conv_bp_input.py: ``ascend-conv bp-input`` — a small dX layer run and checked, each level
it prints, cost only, its JSON report against the schema, what it refuses (one line, exit 2 for
what dX does not support yet), bad flags, a failed check, and -o written whole."""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import torch
from cli_helpers import (
    COST_LINES,
    GROUPED_BF16,
    assert_cost_lines,
    assert_one_line_error,
    cost_lines,
    reported_cycles,
)
from cli_helpers import ascend_conv as run

from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.runtime.reports import output
from ascend_xdsl.runtime.reports import trace as trace_module
from ascend_xdsl.tools import conv_bp_input
from ascend_xdsl.tools import run as run_tool

ROOT = Path(__file__).parent.parent
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text())
SCRIPT = os.path.join(os.path.dirname(sys.executable), "ascend-conv")
SMALL = ["--input", "1,16,4,8,8", "--weight", "32,16,3,3,3", "--padding", "1"]


def test_small_layer_runs_and_checks(capsys):
    code, out, err = run(capsys, "bp-input", *SMALL)
    assert code == 0, err
    assert "dy 1x32x4x8x8 f16" in out and "-> dX 1x16x4x8x8" in out
    assert "within the tolerance" in out
    assert reported_cycles(out) > 0


def test_grouped_bf16_strided_layer(capsys):
    code, out, err = run(capsys, "bp-input", *GROUPED_BF16)
    assert code == 0, err
    assert "-> dX 2x8x5x6x7" in out
    assert "(2 launches, one per group)" in out and "within the tolerance" in out


@pytest.mark.parametrize(
    ("level", "present", "absent"),
    [
        ("op", ["ascend.conv3d_backprop_input"], ["ascend.trans_data"]),
        ("format", ["ascend.trans_data", "NDC1HWC0", "FRACTAL_Z_3D"], ["bp_input_init"]),
        ("api", ["ascend.conv3d_bp_input_init", "#ascend.conv3d_bp_input_tiling<"], ["load3d"]),
        ("hw", ["ascend.load3d", "ascend.load2d", "ascend.mmad", "ascend.wait_flag"], []),
    ],
)
def test_each_emit_level(capsys, level, present, absent):
    code, out, err = run(capsys, "bp-input", *SMALL, "--emit", level)
    assert code == 0, err
    for text in present:
        assert text in out, (level, text)
    for text in absent:
        assert text not in out, (level, text)


def test_emit_hw_writes_dx_in_ndc1hwc0(capsys):
    code, out, _ = run(capsys, "bp-input", *SMALL, "--emit", "hw")
    assert code == 0
    assert "-> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>" in out


def test_cost_only_is_the_cycles_of_the_run(capsys):
    code, out, err = run(capsys, "bp-input", *SMALL, "--cost-only")
    assert code == 0, err
    assert "cost-only: " in out and "cycles on atlas-a2-910b2" in out and "check" not in out
    modelled = int(out.split("cost-only: ")[1].split()[0].replace(",", ""))
    _, full, _ = run(capsys, "bp-input", *SMALL)
    assert modelled == int(full.split("cycles: ")[1].split()[0].replace(",", ""))


def test_the_summary_has_the_cost_lines_of_bp_filter(capsys):
    """The cost model's lines of bp-filter's summary (modelled time, TFLOP/s, bound, pipes,
    critical path, cores, end to end), in a run and in cost only; a grouped layer's are its last
    launch's, under a line saying so."""
    code, dw, err = run(capsys, "bp-filter", *SMALL, "--cost-only")
    assert code == 0, err
    assert_cost_lines(dw)
    for flags in ([], ["--cost-only"]):
        code, out, err = run(capsys, "bp-input", *SMALL, *flags)
        assert code == 0, err
        assert_cost_lines(out)
        assert "conv3d_input_kernel " in cost_lines(out)[-1] and "MemSet" not in out
    code, out, err = run(capsys, "bp-input", *GROUPED_BF16, "--cost-only")
    assert code == 0, err
    assert_cost_lines(out)
    assert "each of the 2 launches (one per group, the same kernel), the last:" in out
    assert all(
        line.startswith("  ") for line in out.splitlines() if line.strip().startswith(COST_LINES)
    )


def test_the_whole_operator_zeroes_nothing(capsys):
    """dX is allocated uninitialised (ascend.empty_gm: each element is written once, no atomic
    add), so the whole operator runs no MemSet."""
    code, out, err = run(capsys, "bp-input", *SMALL, "--cost-only", "--report", "json")
    assert code == 0, err
    kernels = [k["name"] for k in json.loads(out)["cost"]["kernels"]]
    assert kernels == ["TransData dy", "TransData w", "conv3d_input_kernel", "TransData dx"]


def test_json_reports_validate_against_the_schema(capsys):
    grouped = ["--input", "1,16,3,6,6", "--weight", "16,8,2,3,3", "--padding", "1"]
    code, out, err = run(capsys, "bp-input", *grouped, "--groups", "2", "--report", "json")
    assert code == 0, err
    full = json.loads(out)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    validator.validate(full)
    assert full["tool"] == "ascend-conv" and full["tiling_strategy"] == "heuristic"
    assert full["problem"]["op"] == "bp-input" and full["problem"]["groups"] == 2
    assert full["problem"]["input"] == [1, 16, 3, 6, 6]
    tiling = Conv3DBpInputTiling(**full["tiling"])  # every field, and nothing else
    assert tiling.cin == 8 and tiling.cout == 8  # one group's
    assert len(full["launches"]) == 2 and full["cost"] == full["launches"][-1]
    assert full["check"]["ok"] and full["check"]["max_abs_error"] <= full["check"]["tolerance"]
    code, out, err = run(
        capsys, "bp-input", *grouped, "--groups", "2", "--cost-only", "--report", "json"
    )
    assert code == 0, err
    cost_only = json.loads(out)
    validator.validate(cost_only)
    assert cost_only["cost_only"] and cost_only["check"] is None
    assert cost_only["launches"] == full["launches"] or len(cost_only["launches"]) == 2
    # a dX tiling is neither a dW nor a forward tiling: the schema tells them apart
    broken = {**cost_only, "tiling": {**cost_only["tiling"], "base_m": None}}
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(broken)


def test_ascend_run_checks_the_emitted_program(capsys, tmp_path):
    """The hw program ``--emit hw -o`` writes runs under ``ascend-run`` with the sanitizer,
    gives torch's dX of the same dy and weight, and its JSON report says op bp-input."""
    program = tmp_path / "dx.mlir"
    code, _, err = run(capsys, "bp-input", *SMALL, "--emit", "hw", "-o", program)
    assert code == 0, err
    dy = np.random.default_rng(7).standard_normal((1, 32, 4, 8, 8)).astype(np.float16)
    w = np.random.default_rng(8).standard_normal((32, 16, 3, 3, 3)).astype(np.float16)
    np.save(tmp_path / "dy.npy", dy)
    np.save(tmp_path / "w.npy", w)
    argv = [program, "--entry", "conv3d_input", "--sanitize", "--output-dir", tmp_path]
    argv += ["--input", f"dy={tmp_path / 'dy.npy'}", "--input", f"w={tmp_path / 'w.npy'}"]
    assert run_tool.main([str(a) for a in argv]) == 0
    out, err = capsys.readouterr()
    assert "sanitizer: no hazards" in out, err
    dx = np.load(tmp_path / "conv3d_input.npy")
    ref = torch.nn.grad.conv3d_input(
        (1, 16, 4, 8, 8),
        torch.from_numpy(w.astype(np.float64)),
        torch.from_numpy(dy.astype(np.float64)),
        padding=1,
    ).numpy()
    assert dx.dtype == np.float16 and dx.shape == ref.shape
    assert np.abs(dx.astype(np.float64) - ref).max() <= 2 * 2**-10 * np.abs(ref).max()
    argv = [program, "--random-inputs", "--check", "--report", "json", "--output-dir", tmp_path]
    assert run_tool.main([str(a) for a in argv]) == 0
    document = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert document["problem"]["op"] == "bp-input" and document["check"]["ok"]


def test_a_dx_outside_the_tolerance_exits_1_with_the_summary(capsys, monkeypatch):
    real = conv_bp_input.run_conv3d_input

    def off_by_one(*args, **kwargs):
        result = real(*args, **kwargs)
        return dataclasses.replace(result, output=result.output + np.float16(1))

    monkeypatch.setattr(conv_bp_input, "run_conv3d_input", off_by_one)
    code, out, err = run(capsys, "bp-input", *SMALL)
    assert code == 1
    assert "OUTSIDE the tolerance" in out
    assert_one_line_error(err, "dX is outside the tolerance of the reference")


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [
        (["--bias"], "bp-input: --bias is not supported"),
        (["--no-cache"], "bp-input: --no-cache goes with --tiling tuned"),
        (["--tiling", "best"], "bp-input: --tiling: unknown tiling 'best'"),
        (["--tiling", "fixed"], "tiling 'fixed' needs a file: fixed:FILE"),
    ],
)
def test_what_dx_does_not_support_is_refused_with_exit_2(capsys, tmp_path, flags, fragment):
    code, _, err = run(capsys, "bp-input", *SMALL, *flags)
    assert code == 2
    assert_one_line_error(err, fragment)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [
        (["--input", "1,16,4,8", "--weight", "32,16,3,3,3"], "--input"),
        (["--input", "1,16,4,8,8", "--weight", "32,8,3,3,3"], "illegal problem"),
        (["--input", "1,16,4,8,8"], "--input and --weight go together"),
        ([*SMALL, "--cores", "0"], "--cores"),
        ([*SMALL, "--seed", "x"], "--seed"),
        ([*SMALL, "--hw", "nope"], "unknown hardware 'nope'"),
        ([*SMALL, "--cores", "100"], "cores must be in [1, 24]"),
        ([*SMALL, "--dtype", "f32"], "--dtype"),
    ],
)
def test_bad_flags_are_one_line_errors(capsys, flags, fragment):
    code, out, err = run(capsys, "bp-input", *flags)
    assert code in (1, 2) and out == ""  # never the internal error's 70
    assert_one_line_error(err, fragment)


def test_console_script_exit_code_and_no_traceback():
    proc = subprocess.run(
        [SCRIPT, "bp-input", *SMALL, "--bias"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().startswith("ascend-conv: error: bp-input: --bias")


def test_output_file_is_written_whole_through_a_rename(capsys, tmp_path, monkeypatch):
    target = tmp_path / "summary.txt"
    renames = []
    real_replace = output.os.replace

    def recording_replace(src, dst):
        renames.append((Path(src).parent, Path(dst)))
        real_replace(src, dst)

    monkeypatch.setattr(output.os, "replace", recording_replace)
    code, out, err = run(capsys, "bp-input", *SMALL, "--cost-only", "-o", target)
    assert code == 0 and out == "", err
    assert renames == [(tmp_path, target)]  # a temporary file next to it, renamed over it
    assert target.read_text().startswith("problem: dy 1x32x4x8x8 f16")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.txt"], "no temp file left"


def test_output_file_untouched_on_error(capsys, tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    code, _, _ = run(capsys, "bp-input", *SMALL, "--hw", "nope", "-o", target)
    assert code == 1
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_executors_agree_and_the_seed_picks_the_inputs(capsys):
    def report(*flags):
        code, out, err = run(capsys, "bp-input", *SMALL, "--report", "json", *flags)
        assert code == 0, err
        document = json.loads(out)
        return document["check"]["max_abs_error"], document["cost"]["cycles"]

    compiled = report()
    assert report("--executor", "interp") == compiled  # the same bits and the same timeline
    assert report("--seed", "0") == compiled
    other = report("--seed", "5")
    assert other[0] != compiled[0] and other[1] == compiled[1]  # other data, the same kernel


# -- --trace and --plot (forward's pictures, tools/pictures.py) --------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TINY = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1", "--cores", "2"]


def test_trace_and_plot_of_a_run(capsys, tmp_path):
    """forward's pictures of the dX run: a process per core and the host's track in the
    trace, the slowest core's PNG."""
    pytest.importorskip("matplotlib")
    trace, plot = tmp_path / "t.json", tmp_path / "p.png"
    code, out, err = run(capsys, "bp-input", *TINY, "--trace", str(trace), "--plot", str(plot))
    assert code == 0, err
    assert "within the tolerance" in out
    events = json.loads(trace.read_text())["traceEvents"]
    processes = [e["args"]["name"] for e in events if e["name"] == "process_name"]
    assert len(processes) == 2 + 1 and processes[-1] == "host"
    assert any(e["ph"] == "X" and e["pid"] != trace_module.HOST_PID for e in events)
    assert plot.read_bytes().startswith(PNG_MAGIC)


def test_trace_of_cost_only_has_every_group_launch(capsys, tmp_path):
    """--cost-only of a grouped layer: one launch per group, each its own processes."""
    trace = tmp_path / "t.json"
    argv = ["--input", "1,32,2,6,6", "--weight", "32,16,1,3,3", "--groups", "2", "--cores", "1"]
    code, out, err = run(
        capsys, "bp-input", *argv, "--cost-only", "--report", "json", "--trace", str(trace)
    )
    assert code == 0, err
    events = json.loads(trace.read_text())["traceEvents"]
    names = sorted(e["args"]["name"] for e in events if e["name"] == "process_name")
    assert names == ["host", "launch 1 core 0", "launch 2 core 0"]
    assert json.loads(out)["problem"]["op"] == "bp-input"


def test_pictures_are_written_when_the_check_fails(capsys, tmp_path, monkeypatch):
    real = conv_bp_input.run_conv3d_input

    def off_by_one(*args, **kwargs):
        result = real(*args, **kwargs)
        return dataclasses.replace(result, output=result.output + np.float16(1))

    monkeypatch.setattr(conv_bp_input, "run_conv3d_input", off_by_one)
    trace = tmp_path / "t.json"
    code, _, _ = run(capsys, "bp-input", *TINY, "--trace", str(trace))
    assert code == 1
    assert json.loads(trace.read_text())["traceEvents"]


def test_picture_errors_are_one_line_and_write_nothing(capsys, tmp_path):
    code, out, err = run(capsys, "bp-input", *TINY, "--trace", str(tmp_path / "no" / "t.json"))
    assert (code, out) == (1, "")
    assert_one_line_error(err, "--trace", "cannot write")
    code, _, err = run(capsys, "bp-input", *TINY, "--plot", str(tmp_path / "p.svg"))
    assert code == 2
    assert_one_line_error(err, "the plot is written as PNG only")
    code, _, err = run(
        capsys, "bp-input", *TINY, "--trace", str(tmp_path / "a"), "-o", str(tmp_path / "a")
    )
    assert code == 2
    assert_one_line_error(err, "--trace and -o both name")
    assert list(tmp_path.iterdir()) == []


def test_emit_refuses_the_flags_of_a_run(capsys, tmp_path):
    for flags in (["--cost-only"], ["--report", "json"], ["--trace", str(tmp_path / "t")],
                  ["--seed", "3"], ["--executor", "interp"]):  # fmt: skip
        code, out, err = run(capsys, "bp-input", *TINY, "--emit", "api", *flags)
        assert (code, out) == (2, ""), flags
        assert_one_line_error(err, f"{flags[0]}", "needs a run: it cannot go with --emit")
    assert list(tmp_path.iterdir()) == []


# -- --emit ascendc (emit/input_grad.py; its content in tests/test_emit_ascendc.py) -----------


def test_emit_ascendc_writes_the_project(capsys, tmp_path):
    folder = tmp_path / "dx"
    code, out, err = run(capsys, "bp-input", *TINY, "--emit", "ascendc", "-o", str(folder))
    assert code == 0, err
    files = ["CMakeLists.txt", "README.md", "conv3d_input_kernel.asc", "data.py", "main.cpp"]
    assert out == f"wrote {folder}: {', '.join(files)}\n"
    kernel = (folder / "conv3d_input_kernel.asc").read_text()
    assert "gradInput.GetTensorC(dxGm[" in kernel and "Conv3DBackpropInput<" in kernel
    assert "--emit ascendc -o" in (folder / "README.md").read_text()


TUBELET = ["--input", "1,3,16,224,224", "--weight", "768,3,2,16,16", "--stride", "2,16,16"]
"""videomae-tubelet (benchmarks/layers.json): the heuristic tiling takes dX's row walk."""


def test_emit_ascendc_warns_when_the_row_walk_was_taken(capsys, tmp_path):
    """The vendor's Iterate the project calls walks every kernel row: one warning line on
    stderr and a README note say the NPU takes longer than modelled; a layer without the row
    walk has neither."""
    folder = tmp_path / "tubelet"
    code, _, err = run(capsys, "bp-input", *TUBELET, "--emit", "ascendc", "-o", str(folder))
    assert code == 0, err
    (warning,) = [line for line in err.splitlines() if "row walk" in line]
    assert warning.startswith("ascend-conv: warning: the simulator's dX walk skipped kernel rows")
    assert "walks every one of the 16 kernel rows" in warning
    assert "longer than the modelled cycles" in warning
    assert "stride-aware" in (folder / "README.md").read_text()
    code, _, err = run(capsys, "bp-input", *TINY, "--emit", "ascendc", "-o", str(tmp_path / "t"))
    assert code == 0 and "row walk" not in err
    assert "stride-aware" not in (tmp_path / "t" / "README.md").read_text()


def test_emit_ascendc_of_a_grouped_layer_is_one_launch_per_group(capsys, tmp_path):
    """Issue 17: a grouped layer's project is no longer refused; its host launches the one
    group's kernel once per group, on the groups' tensors laid out back to back."""
    grouped = ["--input", "1,40,2,6,6", "--weight", "32,20,1,3,3", "--groups", "2"]
    folder = tmp_path / "p"
    code, out, _ = run(capsys, "bp-input", *grouped, "--emit", "ascendc", "-o", str(folder))
    assert code == 0 and out.startswith(f"wrote {folder}: "), out
    host = (folder / "main.cpp").read_text()
    assert "constexpr size_t kGroups = 2;" in host
    assert "for (size_t g = 0; g < kGroups; ++g) {" in host
    # The public tiling API takes groups 1 only (asc-devkit CheckInputAttr): each launch is
    # an ungrouped convolution, and the README says why.
    assert "t.conv3DDxTiling.group = 1;" in host
    assert "t.conv3DDxTiling.singleCoreGroup = 1;" in host
    readme = (folder / "README.md").read_text()
    assert "## Groups" in readme
    assert "public tiling APIs take `groups` 1 only" in readme


def test_emit_ascendc_errors_are_one_line(capsys, tmp_path):
    code, out, err = run(capsys, "bp-input", *TINY, "--emit", "ascendc")
    assert (code, out) == (2, "")
    assert_one_line_error(err, "--emit ascendc writes a project folder: give it with -o DIR")
    (tmp_path / "mine.txt").write_text("keep")
    code, _, err = run(capsys, "bp-input", *TINY, "--emit", "ascendc", "-o", str(tmp_path))
    assert code == 1
    assert_one_line_error(err, "is not empty and is not a previous --emit ascendc project")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


# -- --tiling tuned and fixed:FILE ---------------------------------------------------------------
STRIDED = ["--input", "1,16,6,6,6", "--weight", "16,16,3,3,3", "--stride", "2", "--padding", "1"]


@pytest.fixture
def small_budget(monkeypatch, tmp_path):
    """The dX search with a budget of 3 candidates (the CLI has no --budget) in a cache of
    its own; the problems it searched, in order."""
    from ascend_xdsl.tuning import conv3d_bp_input_search as dx

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    searches = []
    search = dx.BP_INPUT.search

    def counted(problem, *args, **kwargs):
        searches.append(problem)
        return search(problem, *args, **kwargs)

    monkeypatch.setattr(dx, "BP_INPUT", dataclasses.replace(dx.BP_INPUT, budget=3, search=counted))
    return searches


def test_tiling_tuned_prints_its_gain_runs_the_tuned_kernel_and_caches(capsys, small_budget):
    from ascend_xdsl.tuning.conv3d_bp_input_search import cached_input_grad

    code, out, err = run(capsys, "bp-input", *STRIDED, "--tiling", "tuned", "--cost-only")
    assert code == 0, err
    assert len(small_budget) == 1  # searched once
    (gain,) = [line for line in out.splitlines() if line.startswith("tuned: ")]
    problem = small_budget[0]
    hit = cached_input_grad(problem, "atlas-a2-910b2")
    assert hit is not None and f"{hit.speedup:.2f}x over the heuristic" in gain
    cost_only = int(out.split("cost-only: ")[1].split()[0].replace(",", ""))
    assert cost_only == round(hit.tuned_score.cycles)
    # The full run reads the cache (no second search), runs the tuned tiling and checks dX.
    code, out, err = run(capsys, "bp-input", *STRIDED, "--tiling", "tuned", "--report", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["tiling_strategy"] == "tuned" and report["check"]["ok"]
    assert Conv3DBpInputTiling(**report["tiling"]) == hit.tuned
    assert len(small_budget) == 1
    # --no-cache searches again.
    code, out, err = run(capsys, "bp-input", *STRIDED, "--tiling", "tuned", "--no-cache",
                         "--cost-only")  # fmt: skip
    assert code == 0, err
    assert len(small_budget) == 2


def test_tiling_fixed_file_runs_the_tiling_of_a_report(capsys, tmp_path):
    """A --report json's tiling, edited, read back by --tiling fixed:FILE; another layer's
    file is refused in one line naming it."""
    code, out, err = run(capsys, "bp-input", *STRIDED, "--cost-only", "--report", "json")
    assert code == 0, err
    tiling = json.loads(out)["tiling"]
    tiling.update(base_m=32, cl0_pbuffer=2)
    path = tmp_path / "dx tiling.json"
    path.write_text(json.dumps({"tiling": tiling}))
    code, out, err = run(capsys, "bp-input", *STRIDED, "--tiling", f"fixed:{path}")
    assert code == 0, err
    assert "L0 M/K/N 32/" in out and "within the tolerance" in out
    code, out, err = run(capsys, "bp-input", *SMALL, "--tiling", f"fixed:{path}")
    assert code == 1 and out == ""
    assert_one_line_error(err, "dx tiling.json", "does not match the problem")
