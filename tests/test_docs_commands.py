"""Every command shown in README.md and docs/*.md is run, and the lines shown are what it prints.

A command is a line starting with ``$ `` in a fenced block (its output is the rest of the block,
up to the next ``$ `` line), or a block of bare command lines (``.venv/bin/ascend-conv ...``),
whose output is the next fenced block of the same section that holds no command. The comparison
is that of tests/test_docs_excerpts.py (``...`` lines and ``...`` inside a line leave text out,
``!obj`` shortens the API object type), on stdout and stderr, after masking what changes from
run to run:

* timings (``0.14 s``) everywhere;
* every number in a benchmark's output (the script and the shape of its table are checked, the
  measurements are not); the slow benchmarks (bench_conv3d_weight.py, bench_scaling.py,
  about a minute together, and bench_tuning.py, minutes) run with their own quick flags, and
  only the header line shown (the first) must appear; the ones whose timings are a best of
  several runs (bench_compile.py, bench_cost_only.py, bench_budget.py) time one run, and their
  every line is checked as shown.

The commands run in order, per page, with a tuning cache of the page's own (empty at its start),
in a scratch folder that sees the repository's examples/,
tests/ and benchmarks/ (so relative paths in the output stay as shown) and an empty docs/
(``--plot docs/...`` writes there, not into the repository). What the prose says to edit is
done: "Deleting the `TEXT` from `FILE` (line N)" writes the next command's missing .mlir file as
FILE without line N, which must hold TEXT. The ``ascend-`` tools run in this process, as a new
process would run them, but ``ascend-tune`` with a process pool; the benchmark scripts are
started as processes (tests/inprocess.py). The commands of :data:`SHARED`, which another test
runs the same way, run once per session for both (tests/shared_runs.py: from the same tuning
cache, which afterwards holds what the run left in it).

Not run: ``python3 -m venv``, ``pip install`` and ``pytest`` (they are the environment and this
suite; ``.ci/run`` runs them), and docs/passes.md, whose commands tests/test_docs_excerpts.py
runs with that page's own conventions (``IN``, the files it defines); that every one of its
commands is covered there is checked below.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import inprocess
import pytest
import shared_runs
from test_docs_excerpts import COMMANDS as PASSES_COMMANDS
from test_docs_excerpts import check_excerpt, fenced_blocks

ROOT = Path(__file__).parent.parent
BIN = Path(sys.executable).parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ELSEWHERE = {"passes.md"}  # tests/test_docs_excerpts.py
NOT_RUN = ("python3 -m venv", "pip install", "pytest")
QUICK = {
    "bench_conv3d_weight.py": ["--tiny", "--repeat", "1", "--no-memory"],
    "bench_scaling.py": ["--tiny", "--quick"],
    "bench_measured.py": ["--quick"],
    # eight layers, five runs each of the simulator and the reference: one small layer, once
    "bench_small_layers.py": ["--only", "slowfast-lateral", "--repeat", "1"],
    "bench_ops.py": ["--repeat", "1"],
    # six layers' dX searches take minutes: one layer, two candidates
    "bench_bp_input_tuning.py": ["--layers", "c3d-conv5b", "--budget", "2"],
    # the whole suite takes minutes: two layers of examples/ with a small budget instead
    # (tests/test_benchmarks.py checks the page and the plot it writes), written into the
    # scratch folder's docs/, not over the repository's recorded page
    "bench_tuning.py": [
        "--layers",
        "examples/layers.json",
        "--budget",
        "4",
        "--output",
        "docs/benchmarks.md",
        "--plot",
        "docs/tuning-efficiency.png",
    ],
}
ONCE = ("bench_compile.py", "bench_cost_only.py", "bench_budget.py")
"""Benchmarks whose ``--repeat`` (best of N) changes only the numbers, which are masked: run
once, and every line shown is still checked."""
SHARED = {
    # README's tuning sweep, and the one command of README before it that writes the tuning
    # cache: tests/test_tune_cli.py runs both, so that the sweep starts from the same cache
    ".venv/bin/ascend-conv bp-input --input 1,16,4,8,8 --weight 32,16,3,3,3 --padding 1 "
    "--tiling tuned --cost-only",
    ".venv/bin/ascend-tune examples/layers.json --workers 2",
    ".venv/bin/python benchmarks/bench_cost_only.py",  # tests/test_benchmarks.py
    ".venv/bin/python benchmarks/bench_conv3d_weight.py",  # tests/test_benchmarks.py
}
"""Commands that another test runs the same way: run once per session for both."""
TIMING = re.compile(r"\b\d+(?:\.\d+)? s\b")
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?")
DELETE = re.compile(r"Deleting the `([^`]+)` from `([\w.-]+)` \(line (\d+)\)")


@dataclass
class Shown:
    page: str
    line: str  # the command as shown (without `$ `)
    prose: str  # the paragraph before its block
    output: list[list[str]] = field(default_factory=list)


BARE_COMMAND = re.compile(r"([A-Z_]+=\S* )*(\.venv/bin/|python3? |ascend-(conv|run|opt)( |$))")


def _is_bare_command(line: str) -> bool:
    return BARE_COMMAND.match(line) is not None


def shown_commands(page: Path) -> list[Shown]:
    commands: list[Shown] = []
    waiting: Shown | None = None  # a bare command whose output block comes next
    waiting_heading = None
    for heading, prose, lines in fenced_blocks(page.read_text()):
        if lines and lines[0].startswith("$ "):
            waiting = None
            for line in lines:
                if line.startswith("$ "):
                    commands.append(Shown(page.name, line[2:], prose))
                    commands[-1].output.append([])
                    prose = ""
                else:
                    commands[-1].output[-1].append(line)
        elif lines and all(_is_bare_command(line) for line in lines if line.strip()):
            new = [Shown(page.name, line, prose) for line in lines if line.strip()]
            commands += new
            waiting, waiting_heading = new[0], heading
        elif waiting is not None and heading == waiting_heading:
            waiting.output.append(lines)
    return commands


def _runnable(line: str) -> list[str]:
    """The parts of a shown command line this test runs (``a && b``: each part)."""
    return [
        part.strip()
        for part in line.split("&&")
        if part.strip() and not any(skip in part for skip in NOT_RUN)
    ]


def _argv(part: str) -> tuple[dict[str, str], list[str], bool]:
    """(environment additions, argv, quick) of one shown command."""
    words = shlex.split(part)
    env = {}
    while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    tool = words[0].removeprefix(".venv/bin/")
    if tool in ("python", "python3"):
        script = Path(words[1]).name
        quick = script in QUICK
        once = ["--repeat", "1"] if script in ONCE else []
        return env, [sys.executable, *words[1:], *QUICK.get(script, []), *once], quick
    assert tool.startswith("ascend-"), part
    return env, [str(BIN / tool), *words[1:]], False


def _scratch(tmp_path: Path) -> Path:
    for name in ("examples", "tests", "benchmarks"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "docs").mkdir()
    return tmp_path


def _prepare(command: Shown, cwd: Path) -> None:
    """Write the file the prose says to derive by deleting a line (see the module docstring)."""
    edit = DELETE.search(command.prose)
    if edit is None:
        return
    text, source, line = edit.group(1), cwd / edit.group(2), int(edit.group(3))
    target = next(w for w in shlex.split(command.line) if w.endswith(".mlir"))
    lines = source.read_text().splitlines(keepends=True)
    assert text in lines[line - 1], f"line {line} of {source.name} is {lines[line - 1]!r}"
    (cwd / target).write_text("".join(lines[: line - 1] + lines[line:]))


def _mask(lines: list[str], numbers: bool) -> list[str]:
    masked = [TIMING.sub("T s", line) for line in lines]
    if numbers:  # and the column alignment, which follows the numbers' widths
        masked = [re.sub(r"\s+", " ", NUMBER.sub("N", line)) for line in masked]
    return masked


def _check(command: Shown, stdout: str, stderr: str, benchmark: bool, quick: bool) -> str | None:
    """None if every excerpt of ``command`` is in its output, else why not."""
    for excerpt in command.output:
        shown = _mask(excerpt, benchmark)
        if quick:
            shown = shown[:1]
        if not any(s.strip() for s in shown):
            continue
        outputs = [stdout + stderr, stderr + stdout]  # either order of the two streams
        failures = []
        for output in outputs:
            try:
                check_excerpt(shown, "\n".join(_mask(output.splitlines(), benchmark)))
                break
            except pytest.fail.Exception as e:
                failures.append(str(e))
        else:
            return f"`{command.line}`: {failures[0]}\n--- it printed:\n{stdout}{stderr}"
    return None


RUN_PAGES = [p for p in PAGES if p.name not in ELSEWHERE and shown_commands(p)]


@pytest.mark.parametrize("page", RUN_PAGES, ids=[p.name for p in RUN_PAGES])
def test_every_command_shown_prints_what_is_shown(page: Path, tmp_path: Path):
    cwd = _scratch(tmp_path)
    wrong = []
    for command in shown_commands(page):
        _prepare(command, cwd)
        for part in _runnable(command.line):
            env, argv, quick = _argv(part)
            # the ascend- tools in this process, the rest as processes (tests/inprocess.py)
            # The page's own tuning cache, empty at its start: a summary prints "--tiling tuned
            # gives" when the cache holds its layer, and which tests ran before on this
            # pytest-xdist worker depends on the schedule.
            cache = {"XDG_CACHE_HOME": str(cwd / ".cache")}
            if part in SHARED and not env:  # also run by another test (tests/shared_runs.py)
                result = shared_runs.run(argv, cache=cwd / ".cache", timeout=300)
            else:
                result = inprocess.run(argv, cwd=cwd, env={**os.environ, **cache, **env},
                                       timeout=300)  # fmt: skip
            assert "Traceback" not in result.stderr, f"{part}:\n{result.stderr}"
            benchmark = argv[0] == sys.executable
            if benchmark:
                assert result.returncode == 0, f"{part}:\n{result.stderr}"
            why = _check(command, result.stdout, result.stderr, benchmark, quick)
            if why is not None:
                wrong.append(why)
    if wrong:
        pytest.fail(f"{page.name}: {len(wrong)} command(s) print other lines than shown:\n\n"
                    + "\n\n".join(wrong))  # fmt: skip


def test_the_pages_show_commands_and_all_are_covered():
    """README and every page with commands are run here or by tests/test_docs_excerpts.py."""
    names = {p.name for p in RUN_PAGES}
    assert {"README.md", "cost-model.md", "performance.md"} <= names
    passes = [c.line for c in shown_commands(ROOT / "docs" / "passes.md")]
    assert passes and passes == [c.line for c in PASSES_COMMANDS]
    shown = [c for p in RUN_PAGES for c in shown_commands(p)]
    assert sum(1 for c in shown if _runnable(c.line)) >= 15
    assert all(c.output for c in shown if "ascend-" in c.line and "-o " not in c.line)


def _hw_ops(x: tuple[int, ...], w: tuple[int, ...], cores: int | None) -> int:
    """Ops of the hw module, itself not counted, as the summary's ``compiled`` line counts them."""
    from ascend_xdsl.ir.program import op_count
    from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
    from ascend_xdsl.lowering.options import CompileOptions
    from ascend_xdsl.lowering.pipeline import compile_levels

    problem = shape_from_torch_args(x, w, padding=1)
    return op_count(compile_levels(build_module(problem), CompileOptions.create(cores=cores))["hw"])


DEFAULT = ((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), None)
DEFAULT_16X = ((2, 64, 32, 56, 56), (64, 64, 3, 3, 3), None)


def _flat(page: str) -> str:
    return " ".join((ROOT / page).read_text().split())


def test_the_hw_op_counts_of_the_docs_are_the_compilers():
    """The op counts the pages give are what the tools print:

    * README, end of the worked example: "this layer compiles to N hw ops, the default layer to
      M, and the default layer with D=32, H=W=56 ... to K";
    * docs/architecture.md, "Index operands": "the default layer compiles to M hw ops, the same
      layer with 16 times the data to K";
    * docs/performance.md, bench_compile.py's output (numbers masked where the docs test runs
      it): "hw-level IR N ops" for its small and large layer."""
    readme = re.search(
        r"this layer compiles to (\d+) hw ops, the default layer to (\d+), and the default "
        r"layer with D=32, H=W=56 \(16 times the data\) to (\d+)",
        _flat("README.md"),
    )
    architecture = re.search(
        r"the default layer compiles to (\d+) hw ops, the same layer with 16 times the data to "
        r"(\d+)",
        _flat("docs/architecture.md"),
    )
    performance = re.search(
        r"small 1x16x4x8x8 compile \S+ s hw-level IR (\d+) ops large 8x512x16x112x112 compile "
        r"\S+ s hw-level IR (\d+) ops",
        _flat("docs/performance.md"),
    )
    assert readme and architecture and performance
    default, default_16x = _hw_ops(*DEFAULT), _hw_ops(*DEFAULT_16X)
    small = ((1, 16, 4, 8, 8), (16, 16, 3, 3, 3))
    worked = _hw_ops(*small, 1)
    assert [int(n) for n in readme.groups()] == [worked, default, default_16x]
    assert [int(n) for n in architecture.groups()] == [default, default_16x]
    large = _hw_ops((8, 512, 16, 112, 112), (512, 512, 3, 3, 3), None)
    assert [int(n) for n in performance.groups()] == [_hw_ops(*small, None), large]
