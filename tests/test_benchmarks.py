"""The benchmarks' numpy baselines compute dW correctly, and both benchmark scripts run.

Correctness only: the two float32 references of ``benchmarks/bench_conv3d_weight.py`` against the
project's float64 formula (``runtime/reference.py``) on small layers with padding, stride,
dilation and groups; then each script once on its tiny layer. No timing is asserted.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import shared_runs

from ascend_xdsl.runtime.reference import conv3d_weight_reference

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from bench_conv3d_weight import (  # noqa: E402
    dw_einsum,
    dw_tap_matmul,
    grad_output_shape,
    triple,
)

# (x shape, weight shape, stride, padding, dilation, groups)
LAYERS = [
    ((2, 8, 5, 7, 6), (6, 8, 3, 3, 3), 1, 1, 1, 1),
    ((1, 4, 9, 8, 7), (5, 4, 3, 2, 3), 2, (1, 0, 2), 1, 1),
    ((2, 6, 7, 9, 8), (4, 6, 2, 3, 2), 1, (0, 1, 1), (2, 2, 1), 1),
    ((2, 8, 6, 7, 7), (6, 4, 3, 3, 1), (1, 2, 1), 1, (1, 1, 2), 2),
]


@pytest.mark.parametrize("reference", [dw_einsum, dw_tap_matmul])
@pytest.mark.parametrize(("x_shape", "w_shape", "stride", "padding", "dilation", "groups"), LAYERS)
def test_reference_matches_project_formula(
    reference, x_shape, w_shape, stride, padding, dilation, groups
):
    rng = np.random.default_rng(3)
    dy_shape = grad_output_shape(x_shape, w_shape, stride, padding, dilation)
    x = rng.standard_normal(x_shape).astype(np.float16)
    dy = rng.standard_normal(dy_shape).astype(np.float16)
    p = triple(padding)
    expect = conv3d_weight_reference(
        x,
        dy,
        w_shape,
        triple(stride),
        (p[0], p[0], p[1], p[1], p[2], p[2]),
        triple(dilation),
        groups,
        accumulate=np.float64,
    )
    got = reference(x, w_shape, dy, stride, padding, dilation, groups)
    assert got.dtype == np.float32
    assert got.shape == tuple(w_shape)
    np.testing.assert_allclose(got, expect, rtol=0, atol=1e-4 * max(1.0, np.abs(expect).max()))


@pytest.mark.parametrize(
    ("script", "flags"),
    [
        ("bench_conv3d_weight.py", ["--tiny", "--repeat", "1", "--no-memory"]),
        ("bench_scaling.py", ["--tiny", "--quick", "--executor", "interp"]),
    ],
)
def test_script_runs(script, flags, tmp_path):
    # as docs/performance.md's test runs it: one run for both (tests/shared_runs.py)
    argv = [sys.executable, f"benchmarks/{script}", *flags]
    done = shared_runs.run(argv, cache=tmp_path / ".cache", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "ratio" in done.stdout


def test_executor_keyword_passed_only_when_accepted():
    from bench_conv3d_weight import executor_kwargs

    def with_executor(x, *, executor="compiled"):
        return x

    def without_executor(x):
        return x

    assert executor_kwargs(with_executor, "interp") == {"executor": "interp"}
    assert executor_kwargs(with_executor, None) == {}
    assert executor_kwargs(without_executor, "compiled") == {}


def test_bench_cost_only_runs_and_agrees(tmp_path):
    """benchmarks/bench_cost_only.py, as docs/cost-model.md shows it (one repeat; one run for
    both tests, tests/shared_runs.py)."""
    argv = [sys.executable, "benchmarks/bench_cost_only.py", "--repeat", "1"]
    done = shared_runs.run(argv, cache=tmp_path / ".cache")
    done.check_returncode()
    out = done.stdout
    assert out.count("same as the full run") == 2, out
    assert "large 8x512x16x112x112" in out


def test_bench_tuning_writes_the_page_and_the_plot(tmp_path):
    """benchmarks/bench_tuning.py as docs/benchmarks.md shows it (``--workers 1``), on two small
    layers with a small budget, into a temporary page and plot."""
    import json

    layers = tmp_path / "layers.json"
    layers.write_text(
        json.dumps(
            [
                {
                    "name": "tiny",
                    "input": [1, 16, 4, 8, 8],
                    "weight": [16, 16, 3, 3, 3],
                    "padding": 1,
                },
                {"name": "dw", "input": [1, 32, 4, 6, 6], "weight": [32, 1, 3, 3, 3], "groups": 32},
            ]
        )
    )
    page, png = tmp_path / "benchmarks.md", tmp_path / "plot.png"
    # bench_search_gap.py's section, recorded before, is kept (and only it: not the rest).
    page.write_text("old table\n\n## The search against a larger search\n\nthe gap table\n")
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_tuning.py"), "--workers", "1", "--layers",
         str(layers), "--budget", "4", "--output", str(page), "--plot", str(png)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "geomean speedup ratio" in done.stdout
    text = page.read_text()
    assert "| tiny |" in text and "| dw |" in text and "## Targets" in text
    assert text.count("| OK |") == 2  # both simulated in full, dW checked
    assert "old table" not in text
    assert text.endswith("## The search against a larger search\n\nthe gap table\n")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the plot is drawn again from the page alone (--replot): its table reads back
    from bench_tuning import plot, rows_from_page

    rows = rows_from_page(text)
    assert [r["layer"] for r in rows] == ["tiny", "dw"]
    plot(rows, tmp_path / "again.png")
    assert (tmp_path / "again.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tuning_plot_is_redrawn_from_the_recorded_page(tmp_path, monkeypatch):
    """docs/tuning-efficiency.png comes from the table of docs/benchmarks.md: every layer of
    the suite, with each layer's roofline as the ceiling of its efficiency; ``--replot`` (as
    the page says) draws it without measuring anything."""
    import json

    import bench_tuning
    from bench_tuning import ceiling, rows_from_page

    root = BENCHMARKS.parent
    rows = rows_from_page((root / "docs" / "benchmarks.md").read_text())
    suite = json.loads((BENCHMARKS / "layers.json").read_text())
    assert [r["layer"] for r in rows] == [layer["name"] for layer in suite]
    for r in rows:
        assert 0 < r["tuned_eff"] <= ceiling(r) + 0.001 <= 1.001
        if r["roofline_bound"] == "compute":
            assert ceiling(r) == 1.0  # the ceiling of a compute-bound layer is the peak
        elif r["tuned_roofline"] == 1.0:
            assert ceiling(r) == r["tuned_eff"] < 0.5  # at its roofline, far below the peak
    png = tmp_path / "efficiency.png"
    page = root / "docs" / "benchmarks.md"
    assert "bench_tuning.py --replot" in page.read_text()

    def no_search(*args, **kwargs):
        raise AssertionError("--replot must not measure")

    monkeypatch.setattr(bench_tuning, "search", no_search)
    monkeypatch.setattr(
        sys, "argv", ["bench_tuning.py", "--replot", "--output", str(page), "--plot", str(png)]
    )
    bench_tuning.main()
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") > 1000  # two panels side by side
    with pytest.raises(ValueError, match="no table of layers"):
        rows_from_page("# a page\n\nno table here\n")


def test_page_sections_replace_their_own_and_keep_the_others():
    """benchmarks/page_sections.py: a script's section replaces the one of its heading (or is
    appended), and bench_tuning.py writing the page again keeps the sections it does not own."""
    from page_sections import keeping_others, with_section

    page = "# T\n\nintro\n\n## A\n\na1\n\n## B\n\nb1\n"
    assert with_section(page, "## A\n\na2\n") == "# T\n\nintro\n\n## A\n\na2\n\n## B\n\nb1\n"
    assert with_section(page, "## C\n\nc\n") == page + "\n## C\n\nc\n"
    rewritten = "# T\n\nnew intro\n\n## A\n\na3\n"
    assert keeping_others(rewritten, with_section(page, "## C\n\nc\n")) == (
        "# T\n\nnew intro\n\n## A\n\na3\n\n## B\n\nb1\n\n## C\n\nc\n"
    )
    assert keeping_others(rewritten, "") == rewritten


def test_bench_transfer_records_its_section(tmp_path, monkeypatch, capsys):
    """benchmarks/bench_transfer.py on one family of two small layers (the second at batch 2
    through --batch-layers) with a tiny budget, recorded into a copy of a page."""
    import json

    import bench_transfer

    layers = tmp_path / "layers.json"
    layers.write_text(json.dumps([
        {"name": "t", "input": [1, 16, 2, 4, 4], "weight": [16, 16, 1, 3, 3], "padding": 1},
    ]))  # fmt: skip
    page = tmp_path / "benchmarks.md"
    page.write_text("# B\n\n## Targets\n\nkept\n")
    argv = ["bench_transfer.py", "--layers", str(layers), "--budget", "3", "--batch-layers", "t",
            "--output", str(page)]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    bench_transfer.main()
    text = page.read_text()
    assert text.startswith("# B\n\n## Targets\n\nkept\n\n## Transfer between layers\n")
    # 3 candidates of the budget and 2 of the late descent's share (tuning/search.py).
    assert re.search(r"\| t \| t@b2 \| (yes|no) \| 5 \| 5 \| 0 \|", text)
    assert re.search(r"\| t@b2 \| t \| (yes|no) \| 5 \| 5 \| 0 \|", text)
    assert "worse on 0." in text.splitlines()[-1] and capsys.readouterr().out in text


def test_bench_search_gap_compares_and_records(tmp_path):
    """benchmarks/bench_search_gap.py on one small layer with a small budget: the tuner against
    twice its budget of independent candidates, the tuner timed alone, and the section written
    into a page in place of its old one."""
    import json

    layers = tmp_path / "layers.json"
    layer = {"name": "tiny", "input": [1, 16, 4, 8, 8], "weight": [16, 16, 3, 3, 3], "padding": 1}
    layers.write_text(json.dumps([layer]))
    page = tmp_path / "benchmarks.md"
    page.write_text("# Benchmarks\n\n## The search against a larger search\n\nstale\n")
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_search_gap.py"), "--layers-file", str(layers),
         "--layers", "tiny", "--budget", "4", "--factor", "2", "--time-layer", "tiny",
         "--record", str(page)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("| tiny |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    tuned, best, gap = float(cells[2].replace(",", "")), float(cells[6].replace(",", "")), cells[9]
    assert best <= tuned and gap.endswith("%")
    assert abs(float(gap[:-1]) - 100 * (tuned / best - 1)) < 0.1  # the cycles are rounded
    assert int(cells[8]) >= 8  # twice the budget of independent candidates
    assert "tiny: tuned in" in done.stdout and "load average" in done.stdout
    text = page.read_text()
    assert text.startswith("# Benchmarks\n") and "stale" not in text
    assert text.count("## The search against a larger search") == 1 and row in text
    bad = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_search_gap.py"), "--layers", "nope"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode != 0 and bad.stderr.count("\n") == 1 and "no layer 'nope'" in bad.stderr


def test_bench_tune_time_huge_cases_cost_their_own_op():
    """benchmarks/bench_tune_time.py's three huge-layer cases each cost their own op (dW, the
    forward conv, dX), and their cycles are those docs/performance.md records for them."""
    import re

    from bench_tune_time import HUGE_CASES, measure_huge

    cycles = {case: float(measure_huge(1, case)["cycles"]) for case in HUGE_CASES}  # type: ignore[arg-type]
    assert len(set(cycles.values())) == len(HUGE_CASES), cycles
    page = (BENCHMARKS.parent / "docs" / "performance.md").read_text()
    for case, got in cycles.items():
        row = re.search(rf"\(`{case}`\) \| [0-9.]+ \| ([0-9,]+) \|", page)
        assert row is not None, f"docs/performance.md has no row for {case}"
        assert round(got) == int(row.group(1).replace(",", "")), (case, got)


def test_bench_tuning_search_workers_give_the_same_row():
    """``bench_tuning.py --search-workers 2`` measures a layer's search in two processes: the
    row is the one-process row but for the times; with ``--workers`` above 1 too it refuses."""
    from bench_tuning import measure

    from ascend_xdsl.lowering.build import shape_from_torch_args

    problem = shape_from_torch_args((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), padding=1)
    one, two = (measure("tiny", problem, 6, search_workers=w) for w in (1, 2))
    timed = {"compile_s", "tune_s", "sim_s", "ref_s"}
    assert {k: v for k, v in one.items() if k not in timed} == {
        k: v for k, v in two.items() if k not in timed
    }
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_tuning.py"), "--workers", "2",
         "--search-workers", "2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "give the cores to layers or to searches" in done.stderr
