"""runtime/reports/trace.py and runtime/reports/plot.py, and ``--trace`` / ``--plot`` on ascend-conv
and ascend-run.

The trace is checked against the report it comes from (one X event per slice, on its core's
process and its pipe's track, at the report's clock); the plot is checked to be a PNG; the flags
are checked on both tools, with their one-line errors and no file left behind.
"""

import dataclasses
import json
import re
import shlex
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.runtime.api import run_compiled
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.cost.timing import TIMED_PIPES
from ascend_xdsl.runtime.reports import plot, trace
from ascend_xdsl.tools import conv, run

ROOT = Path(__file__).parent.parent
HW = "atlas-a2-910b2"
SMALL = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1", "--cores", "2"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report() -> CostReport:
    """The cost report of the small problem on two cores."""
    problem = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=1)
    modules = compile_levels(build_module(problem), CompileOptions.create(hw=HW, cores=2))
    cost = run_compiled(modules, problem, hw=HW).cost
    assert cost is not None and len(cost.cores) == 2
    return cost


def _load(path: Path) -> list[dict]:
    document = json.loads(path.read_text())
    assert set(document) >= {"traceEvents", "displayTimeUnit", "otherData"}
    return document["traceEvents"]


def _one_line_error(err: str, prog: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith(f"{prog}: error: "), err
    assert "Traceback" not in err
    assert not any(line.startswith(f"{prog}: error") for line in lines[:-1]), err
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]


def _no_stray_files(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


# ---------------------------------------------------------------------------------------------
# the trace


def test_trace_has_a_process_per_core_and_a_track_per_pipe(report, tmp_path):
    path = tmp_path / "t.json"
    trace.write_trace(report, path)
    events = _load(path)
    meta = [e for e in events if e["ph"] == "M"]
    processes = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
    # the cores, and the host's kernel sequence (the report costs the whole operator)
    assert report.operator is not None
    assert processes == {
        **{c.block: f"core {c.block}" for c in report.cores},
        trace.HOST_PID: "host",
    }
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    assert threads.pop((trace.HOST_PID, 1)) == "stream"
    assert threads == {
        **{(c.block, trace.PIPE_TRACKS[p]): str(p) for c in report.cores for p in TIMED_PIPES},
        **{(c.block, trace.SCALAR_TRACK): "S" for c in report.cores},
    }
    assert set(threads.values()) == {"S", "MTE2", "MTE1", "M", "FIX"}
    order = {
        (e["pid"], e["tid"]): e["args"]["sort_index"]
        for e in meta
        if e["name"] == "thread_sort_index"
    }
    assert [threads[k] for k in sorted(threads, key=order.get) if k[0] == 0] == [
        "S",
        "MTE2",
        "MTE1",
        "M",
        "FIX",
    ]
    assert {e["ph"] for e in events} == {"M", "X", "i", "s", "f", "C"}


def _pipe_slices(events: list[dict]) -> list[dict]:
    """The complete events of the cores' pipe tracks (not the scalar unit's, nor the host's
    kernel sequence, which is in the operator's time and has its own test)."""
    return [
        e
        for e in events
        if e["ph"] == "X" and e["tid"] != trace.SCALAR_TRACK and e["pid"] != trace.HOST_PID
    ]


def test_the_host_track_is_the_operators_kernels_in_order(report, tmp_path):
    path = tmp_path / "t.json"
    trace.write_trace(report, path)
    host = [e for e in _load(path) if e["ph"] == "X" and e["pid"] == trace.HOST_PID]
    assert report.operator is not None
    kernels = report.operator.kernels
    assert [e["name"] for e in host] == [k.name for k in kernels]
    assert [e["name"].split()[0] for e in host] == [
        "TransData", "TransData", "MemSet", "conv3d_bp_filter_kernel", "TransData"
    ]  # fmt: skip
    for before, after in pairwise(host):
        assert after["ts"] == pytest.approx(before["ts"] + before["dur"])
    assert host[-1]["ts"] + host[-1]["dur"] == pytest.approx(
        report.operator.end_to_end_seconds * 1e6
    )


def test_one_event_per_slice_on_its_core_and_pipe(report, tmp_path):
    path = tmp_path / "t.json"
    trace.write_trace(report, path)
    events = _pipe_slices(_load(path))
    assert len(events) == sum(len(c.timeline.slices) for c in report.cores)
    got = Counter((e["pid"], e["tid"]) for e in events)
    want = Counter(
        (c.block, trace.PIPE_TRACKS[s.pipe]) for c in report.cores for s in c.timeline.slices
    )
    assert got == want
    names = {e["name"] for e in events}
    assert names == {"ascend.data_copy", "ascend.load3d", "ascend.mmad", "ascend.fixpipe"}
    for e in events:
        assert e["cat"] in {str(p) for p in TIMED_PIPES}
        assert e["args"]["location"].startswith(e["name"])
        if e["name"] == "ascend.mmad":  # the Cube's work is its shape, not bytes
            assert set(e["args"]["shape"]) == {"m", "n", "k"}
        else:
            assert e["args"]["bytes"] > 0


def test_times_are_microseconds_at_the_reports_clock(report, tmp_path):
    path = tmp_path / "t.json"
    trace.write_trace(report, path)
    events = _pipe_slices(_load(path))
    us = 1e6 / report.figures.clock_hz
    for core in report.cores:
        mine = [e for e in events if e["pid"] == core.block]
        for e, s in zip(mine, core.timeline.slices, strict=True):  # in timeline order
            assert e["ts"] == pytest.approx(s.start * us)
            assert e["dur"] == pytest.approx((s.end - s.start) * us)
            assert e["args"]["start_cycles"] == pytest.approx(s.start)
            assert e["dur"] >= 0
        end = max(e["ts"] + e["dur"] for e in mine)
        assert end <= core.cycles * us * (1 + 1e-9)
        assert end == pytest.approx(max(s.end for s in core.timeline.slices) * us)
    # a slice ends when its pipe is free; the core's cycles end at its last completion, at most
    # the longest fixed latency (MTE2's) later
    last = max(e["ts"] + e["dur"] for e in events)
    assert last <= report.core_cycles * us * (1 + 1e-9)
    latency = report.figures.mte2_latency_cycles * us
    assert last >= report.core_cycles * us - latency


def test_labelled_slice_is_named_by_its_label(report):
    core = report.cores[0]
    timeline = dataclasses.replace(core.timeline)
    first = timeline.slices[0]
    timeline.slices = [first._replace(label="loop x 12 (extrapolated)")]
    one = CostReport(report.hw, report.figures, report.dtype, report.flops)
    one.cores = [dataclasses.replace(core, timeline=timeline)]
    (event,) = _pipe_slices(trace.trace_events(one))
    assert event["name"] == "loop x 12 (extrapolated)"
    assert event["args"]["aggregated"] is True
    assert event["args"]["op"] == first.op.name


def test_several_launches_are_separate_processes_one_after_the_other(report):
    # the cores' processes; the host's (the last report's operator) is tested above
    events = [e for e in trace.trace_events([report, report]) if e["pid"] != trace.HOST_PID]
    names = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    assert len(names) == 2 * len(report.cores)
    assert sorted(names.values())[0] == "launch 1 core 0"
    assert "launch 2 core 1" in names.values()
    x = _pipe_slices(events)
    second = [e for e in x if e["pid"] >= trace.LAUNCH_PID_STRIDE]
    assert len(second) == len(x) // 2
    us = 1e6 / report.figures.clock_hz
    assert min(e["ts"] for e in second) >= report.cycles * us * (1 - 1e-9)


def test_failed_trace_write_leaves_no_file(report, tmp_path, monkeypatch):
    with pytest.raises(OSError):
        trace.write_trace(report, tmp_path)  # a folder: the rename fails
    _no_stray_files(tmp_path)

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    from ascend_xdsl.runtime.reports import output

    monkeypatch.setattr(output.os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        trace.write_trace(report, tmp_path / "t.json")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# the plot


def test_plot_is_a_png(report, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "p.png"
    plot.write_plot(report, path, title="the small layer")
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC)
    assert 20_000 < len(data) < 2_000_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 1000 and height > 700
    _no_stray_files(tmp_path)


def _legend_inside_the_figure(fig) -> list[str]:
    """The timeline's legend entries, after checking that none is cut by the figure's edge."""
    fig.canvas.draw()
    legend = fig.axes[0].get_legend()
    renderer = fig.canvas.get_renderer()
    assert legend.get_window_extent(renderer).x1 <= fig.bbox.x1
    for text in legend.get_texts():
        assert text.get_window_extent(renderer).x1 <= fig.bbox.x1, text.get_text()
    return [t.get_text() for t in legend.get_texts()]


def test_plot_draws_the_critical_path_over_the_timeline(report):
    pytest.importorskip("matplotlib")
    fig = plot.plot_figure(report)
    try:
        timeline = fig.axes[0]
        (line,) = [ln for ln in timeline.get_lines() if ln.get_color() == plot.CRITICAL_COLOUR]
        chain = list(reversed(report.slowest.timeline.critical_chain()))
        us = 1e6 / report.figures.clock_hz
        xs = list(line.get_xdata())
        assert len(xs) == 2 * len(chain)
        assert xs[0] == pytest.approx(chain[0].slice.start * us)
        assert xs[-1] == pytest.approx((chain[-1].slice.start + chain[-1].cycles) * us)
        assert xs == sorted(xs)  # the path only moves forward in time
        labels = _legend_inside_the_figure(fig)
        assert "critical path" in labels and "mmad" in labels
        assert timeline.get_title().endswith("one bar per instruction")
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_cost_only_plot_says_what_its_hatched_spans_are(cost_only_report):
    pytest.importorskip("matplotlib")
    fig = plot.plot_figure(cost_only_report)
    try:
        labels = _legend_inside_the_figure(fig)
        assert {"replayed iteration", "extrapolated iterations", "critical path"} <= set(labels)
        title = fig.axes[0].get_title()
        assert "hatched: loop iterations cost-only" in title
        assert "replayed" in title and "extrapolated" in title
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def test_plot_without_matplotlib_says_how_to_install_it(report, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    with pytest.raises(plot.PlotUnavailable, match=re.escape("pip install 'ascend-xdsl[plot]'")):
        plot.write_plot(report, tmp_path / "p.png")
    assert list(tmp_path.iterdir()) == []


def test_problem_title():
    problem = shape_from_torch_args((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), padding=1)
    assert plot.problem_title(problem) == "dW of x 2x64x8x28x28, w 64x64x3x3x3, f16, padding 1"
    forward = "forward of x 2x64x8x28x28, w 64x64x3x3x3, f16, padding 1"
    assert plot.problem_title(problem, "forward") == forward  # ascend-conv forward --plot


# ---------------------------------------------------------------------------------------------
# the flags


def _conv(capsys, *argv):
    code = conv.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _run(capsys, *argv):
    code = run.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _check_trace(path: Path, cores: int) -> None:
    events = _load(path)
    processes = [e for e in events if e["name"] == "process_name"]
    # one per core, and the host's kernel sequence
    assert len(processes) == cores + 1
    assert processes[-1]["args"]["name"] == "host"
    assert any(e["ph"] == "X" for e in events)


def test_conv_trace_and_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    t, p = tmp_path / "t.json", tmp_path / "p.png"
    code, out, _ = _conv(capsys, "bp-filter", *SMALL, "--trace", t, "--plot", p)
    assert code == 0, out
    assert "modelled on" in out
    _check_trace(t, cores=2)
    assert p.read_bytes().startswith(PNG_MAGIC)


def test_conv_trace_with_json_report(capsys, tmp_path):
    t = tmp_path / "t.json"
    code, out, _ = _conv(capsys, "bp-filter", *SMALL, "--report", "json", "--trace", t)
    assert code == 0
    document = json.loads(out)
    events = _load(t)
    us = 1e6 / 1.8e9
    end = max(e["ts"] + e["dur"] for e in events if e["ph"] == "X" and e["pid"] != trace.HOST_PID)
    assert end <= document["cost"]["cycles"] * us * (1 + 1e-9)
    host = [e for e in events if e["ph"] == "X" and e["pid"] == trace.HOST_PID]
    cost = document["cost"]
    assert host[-1]["ts"] + host[-1]["dur"] == pytest.approx(cost["end_to_end_seconds"] * 1e6)


@pytest.mark.parametrize("flag", ["--trace", "--plot"])
def test_conv_bad_path_is_one_line_before_the_run(capsys, tmp_path, flag):
    target = tmp_path / "no such folder" / "out"
    code, out, err = _conv(capsys, "bp-filter", *SMALL, flag, target)
    assert code == 1 and out == ""
    _one_line_error(err, "ascend-conv", flag, "cannot write", str(target))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("flag", ["--trace", "--plot"])
def test_conv_unwritable_file_leaves_nothing(capsys, tmp_path, flag):
    pytest.importorskip("matplotlib")
    target = tmp_path / "a folder"
    target.mkdir()
    code, out, err = _conv(capsys, "bp-filter", *SMALL, flag, target)
    assert code == 1 and out == ""
    _one_line_error(err, "ascend-conv", flag, "cannot write")
    assert [p.name for p in tmp_path.iterdir()] == ["a folder"]
    assert list(target.iterdir()) == []


def test_conv_plot_without_matplotlib(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, err = _conv(capsys, "bp-filter", *SMALL, "--plot", tmp_path / "p.png")
    assert code == 1
    _one_line_error(err, "ascend-conv", "--plot", "ascend-xdsl[plot]")
    assert list(tmp_path.iterdir()) == []


def test_conv_pictures_need_a_run(capsys, tmp_path):
    code, _, err = _conv(capsys, "bp-filter", *SMALL, "--emit", "hw", "--trace", tmp_path / "t")
    assert code == 2
    _one_line_error(err, "ascend-conv", "--trace", "--emit")


@pytest.fixture(scope="module")
def hw_kernel(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("kernel") / "hw.mlir"
    assert conv.main(["bp-filter", *SMALL, "--emit", "hw", "-o", str(path)]) == 0
    return path


def test_run_trace_and_plot(capsys, hw_kernel, tmp_path):
    pytest.importorskip("matplotlib")
    t, p, out_dir = tmp_path / "t.json", tmp_path / "p.png", tmp_path / "out"
    code, out, _ = _run(
        capsys, hw_kernel, "--random-inputs", "--check", "--output-dir", out_dir,
        "--trace", t, "--plot", p,
    )  # fmt: skip
    assert code == 0, out
    assert f"wrote {t} (trace of the launch)" in out
    assert f"wrote {p} (plot of the launch)" in out
    assert "check:" in out and (out_dir / "conv3d_bp_filter.npy").exists()
    _check_trace(t, cores=2)
    assert p.read_bytes().startswith(PNG_MAGIC)


def test_run_trace_with_json_report(capsys, hw_kernel, tmp_path):
    t = tmp_path / "t.json"
    code, out, _ = _run(
        capsys, hw_kernel, "--random-inputs", "--output-dir", tmp_path, "--report", "json",
        "--trace", t,
    )  # fmt: skip
    assert code == 0
    assert len(json.loads(out)["launches"]) == 1
    _check_trace(t, cores=2)


def test_run_without_a_launch_has_nothing_to_trace(capsys, tmp_path):
    code, _, err = _run(
        capsys, ROOT / "examples" / "op_level.mlir", "--random-inputs", "--output-dir", tmp_path,
        "--trace", tmp_path / "t.json",
    )  # fmt: skip
    assert code == 1
    _one_line_error(err, "ascend-run", "--trace", "launched no kernel")
    assert list(tmp_path.iterdir()) == []


def test_run_bad_paths_write_nothing(capsys, hw_kernel, tmp_path):
    out_dir = tmp_path / "out"
    code, _, err = _run(
        capsys, hw_kernel, "--random-inputs", "--output-dir", out_dir,
        "--trace", tmp_path / "missing" / "t.json",
    )  # fmt: skip
    assert code == 1
    _one_line_error(err, "ascend-run", "--trace", "cannot write")
    folder = tmp_path / "a folder"
    folder.mkdir()
    code, _, err = _run(
        capsys, hw_kernel, "--random-inputs", "--output-dir", out_dir, "--trace", folder
    )
    assert code == 1
    _one_line_error(err, "ascend-run", "--trace", "cannot write")
    assert [p.name for p in tmp_path.iterdir()] == ["a folder"]  # no results either
    assert list(folder.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# the documentation


def test_docs_plot_command_runs(capsys, tmp_path):
    """The command docs/cost-model.md shows for its picture writes that picture."""
    pytest.importorskip("matplotlib")
    page = (ROOT / "docs" / "cost-model.md").read_text()
    (line,) = re.findall(r"^\$ \.venv/bin/(ascend-conv bp-filter --plot \S+)$", page, re.M)
    argv = shlex.split(line)[1:]
    shown = argv[argv.index("--plot") + 1]
    assert shown == "docs/cost-default-layer.png"
    assert f"]({Path(shown).name})" in page  # the page shows the picture it makes
    assert (ROOT / shown).read_bytes().startswith(PNG_MAGIC)
    argv[argv.index("--plot") + 1] = str(tmp_path / "p.png")
    code, _, err = _conv(capsys, *argv)
    assert code == 0, err
    assert "embedded default layer" in err
    assert (tmp_path / "p.png").read_bytes().startswith(PNG_MAGIC)
