"""tests/inprocess.py and tests/lit_inprocess.py: a tool run in the test process exits, prints
and interleaves as its process does, leaves nothing of its run behind, and lit's pipelines,
redirections and ``not`` mix in-process commands with real ones."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import warnings
from pathlib import Path

import inprocess
import lit.builtin_commands.diff
import lit.Test
import pytest
from lit_inprocess import run_test

ROOT = Path(__file__).parent.parent
BIN = Path(sys.executable).parent
SUITE = ROOT / "tests" / "filecheck"

in_process_only = pytest.mark.skipif(
    inprocess.subprocesses_only(), reason=f"{inprocess.SUBPROCESS_ENV} starts every command"
)


@pytest.fixture
def split_input(tmp_path: Path) -> Path:
    """A module that prints, then one that does not parse: output on both streams, exit 1."""
    path = tmp_path / "two.mlir"
    path.write_text('"test.op"() : () -> ()\n// -----\n"test.op"() : ( -> ()\n')
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["ascend-opt", "SPLIT", "--split-input-file"],
        ["ascend-conv", "bp-filter", "--input", "2,64,8", "--weight", "64,64,3,3,3"],
        ["filecheck", "SPLIT", "--check-prefix", "NOPE"],
    ],
    ids=["ascend-opt", "ascend-conv", "filecheck"],
)
def test_in_process_exits_and_prints_as_its_process(argv, split_input: Path, tmp_path: Path):
    args = [str(BIN / argv[0]), *(str(split_input) if a == "SPLIT" else a for a in argv[1:])]
    real = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, input="")
    here = inprocess.run(args, cwd=tmp_path, input="")
    assert real.returncode != 0, real
    assert (here.returncode, here.stdout, here.stderr) == (
        real.returncode,
        real.stdout,
        real.stderr,
    )


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
def test_stderr_interleaves_with_stdout_as_on_a_pipe(unbuffered: str):
    """A new Python buffers stdout on a pipe and writes stderr by lines: with ``2>&1`` a line
    printed to stderr comes before earlier stdout that was not flushed, unless
    $PYTHONUNBUFFERED is set (lit does not pass it on)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env |= {"PYTHONUNBUFFERED": unbuffered} if unbuffered else {}
    code = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    real = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, env=env)  # fmt: skip

    def main() -> int:
        print("out")
        print("err", file=sys.stderr)
        return 3

    done = inprocess.start(inprocess.Program(main, ["prog"]), env=env, merge_stderr=True)
    assert (done.returncode, bytes(done.stdout)) == (real.returncode, real.stdout)
    assert real.stdout == (b"out\nerr\n" if unbuffered else b"err\nout\n")


@pytest.mark.parametrize(
    ("body", "code", "stderr"),
    [
        (lambda: 256 + 7, 7, ""),
        (lambda: sys.exit("bad thing"), 1, "bad thing\n"),
        (lambda: {}["missing"], 1, "KeyError: 'missing'\n"),
    ],
    ids=["status-byte", "exit-message", "uncaught"],
)
def test_exit_status_is_the_interpreters(body, code: int, stderr: str):
    done = inprocess.start(inprocess.Program(body, ["prog"]))
    assert done.returncode == code
    assert bytes(done.stderr).decode().endswith(stderr)
    if "Error" in stderr:
        assert bytes(done.stderr).startswith(b"Traceback (most recent call last):")


def test_a_run_leaves_the_process_as_it_found_it(tmp_path: Path):
    from threadpoolctl import threadpool_info, threadpool_limits
    from xdsl.ir import Attribute
    from xdsl.utils.diagnostic import Diagnostic

    def limits() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info()]

    before = (
        dict(os.environ), os.getcwd(), list(sys.argv), sys.stdout, sys.stderr, sys.stdin,
        sys.getrecursionlimit(), signal.getsignal(signal.SIGTERM), list(warnings.filters),
        Attribute.__dict__.get("__post_init__"), Diagnostic.colored, limits(),
    )  # fmt: skip
    seen = {}

    def leaky() -> int:
        seen["env"] = os.environ.get("ONLY_IN_THE_RUN")
        seen["debug"] = os.environ.get("ASCEND_XDSL_DEBUG")
        seen["cwd"] = os.getcwd()
        seen["argv"] = list(sys.argv)
        os.environ["LEFT_BEHIND"] = "1"
        os.chdir("/")
        sys.argv.append("more")
        sys.setrecursionlimit(50_000)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        warnings.simplefilter("error")
        threadpool_limits(limits=1)  # not as a context: never put back
        Diagnostic.colored = not Diagnostic.colored
        Attribute.__post_init__ = lambda self: None  # what xdsl-opt --disable-verify does
        return 0

    env = {"ONLY_IN_THE_RUN": "yes", "PATH": os.environ.get("PATH", "")}
    done = inprocess.start(inprocess.Program(leaky, ["tool", "x"]), cwd=tmp_path, env=env)
    assert done.returncode == 0
    assert seen == {"env": "yes", "debug": None, "cwd": str(tmp_path), "argv": ["tool", "x"]}
    after = (
        dict(os.environ), os.getcwd(), list(sys.argv), sys.stdout, sys.stderr, sys.stdin,
        sys.getrecursionlimit(), signal.getsignal(signal.SIGTERM), list(warnings.filters),
        Attribute.__dict__.get("__post_init__"), Diagnostic.colored, limits(),
    )  # fmt: skip
    assert after == before


def test_the_xdsl_universe_is_scanned_once_and_put_back(tmp_path: Path, monkeypatch):
    """xdsl-opt's front end asks for the ``xdsl.universe`` entry points three times a run: in
    the test process the metadata is read at most once for all runs (the same answer), and
    xDSL's own lookup is in place again after each run."""
    import importlib.metadata

    from xdsl.universe import Universe

    own = Universe.__dict__["get_multiverse"]
    inprocess.run([str(BIN / "ascend-opt"), "--help"])  # the one scan, if none was done yet
    scans = []
    entry_points = importlib.metadata.entry_points

    def counted(**kw):
        scans.append(kw.get("group"))
        return entry_points(**kw)

    monkeypatch.setattr(importlib.metadata, "entry_points", counted)
    source = tmp_path / "m.mlir"
    source.write_text('"test.op"() : () -> ()\n')
    for _ in range(2):
        done = inprocess.run([str(BIN / "ascend-opt"), str(source)])
        assert done.returncode == 0 and "test.op" in done.stdout, done.stderr
    assert "xdsl.universe" not in scans
    assert Universe.__dict__["get_multiverse"] is own


def test_a_warning_is_printed_on_the_runs_stderr():
    def warns() -> int:
        warnings.warn("careful", UserWarning, stacklevel=1)
        return 0

    done = inprocess.start(inprocess.Program(warns, ["prog"]))
    assert b"UserWarning: careful" in done.stderr


@in_process_only
def test_which_commands_run_in_process():
    assert inprocess.program([str(BIN / "ascend-opt"), "x.mlir"]) is not None
    # as lit asks, with the program it found on its PATH: this environment's, or another one
    assert inprocess.program(["filecheck", "x"], str(BIN / "filecheck")) is not None
    assert inprocess.program(["filecheck", "x"], "/elsewhere/bin/filecheck") is None
    assert inprocess.program([str(BIN / "ascend-tune"), "layers.json", "--workers", "1"])
    # a process pool or Ray: processes
    for flags in (["--workers", "2"], ["--workers=3"], ["--work", "2"], ["--ray"], ["--ray=a"]):
        assert inprocess.program([str(BIN / "ascend-tune"), "layers.json", *flags]) is None
    # the benchmarks that start no process, as the suite runs them from the repository's root
    bench = ROOT / "benchmarks"
    assert inprocess.program([sys.executable, str(bench / "bench_compile.py")]) is not None
    for script in ("bench_tuning.py", "bench_search_gap.py", "no_such_bench.py"):
        assert inprocess.program([sys.executable, str(bench / script)]) is None
    diff = Path(lit.builtin_commands.diff.__file__)
    assert inprocess.program([sys.executable, str(diff), "-", "x"]) is not None
    assert inprocess.runs_in_process({**os.environ, "ASCEND_XDSL_DEBUG": "1"})
    assert not inprocess.runs_in_process({**os.environ, "OPENBLAS_NUM_THREADS": "7"})
    # what lit's shell leaves behind after its diff; any other search path needs a process
    assert inprocess.runs_in_process({**os.environ, "PYTHONPATH": str(diff.parent.parent)})
    assert not inprocess.runs_in_process({**os.environ, "PYTHONPATH": "/elsewhere"})


def _process(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True)


def test_an_emitted_data_script_runs_in_process_as_in_its_process(tmp_path: Path):
    """``python data.py`` of an emitted project (its marker beside it) runs in this process,
    and prints, exits and writes what its process does; another script named data.py does not
    run here."""
    from ascend_xdsl.emit.ascendc import emit_project
    from ascend_xdsl.emit.project import MARKER, write_project
    from ascend_xdsl.hw import DEFAULT_HW
    from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
    from ascend_xdsl.lowering.options import CompileOptions
    from ascend_xdsl.lowering.pipeline import compile_levels

    assert inprocess.EMIT_MARKER == MARKER
    problem = shape_from_torch_args((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), padding=1)
    api = compile_levels(build_module(problem), CompileOptions.create(cores=1), stop_after="api")
    folder = write_project(tmp_path / "p", emit_project(api["api"], DEFAULT_HW, ""))
    script = str(folder / "data.py")
    if not inprocess.subprocesses_only():
        assert inprocess.program([sys.executable, script, "make", "d"]) is not None
        (tmp_path / "data.py").write_text((folder / "data.py").read_text())  # no marker
        assert inprocess.program([sys.executable, str(tmp_path / "data.py"), "make"]) is None
    runs = {}
    for how, run in (("here", inprocess.run), ("process", _process)):
        made = run([sys.executable, script, "make", str(tmp_path / how), "5"])
        missing = run([sys.executable, script, "check", str(tmp_path / "none")])
        data = {f.name: f.read_bytes() for f in sorted((tmp_path / how).iterdir())}
        runs[how] = (made.returncode, made.stdout, made.stderr, data,
                     missing.returncode, missing.stdout, missing.stderr)  # fmt: skip
    assert runs["here"][0] == 0 and runs["here"][3]
    assert runs["here"][4] == 1 and "no such file" in runs["here"][6]
    assert runs["here"] == runs["process"]


def test_a_benchmark_script_imports_its_folder_afresh_and_leaves_it(tmp_path: Path, monkeypatch):
    """A listed benchmark runs as ``__main__`` with its folder first on ``sys.path``; the
    modules of its folder are imported afresh for the run (as by a new process) and this
    process's own copies are back afterwards."""
    (tmp_path / "helper.py").write_text("RUNS = []\n")
    (tmp_path / "bench.py").write_text(
        "import sys\nimport helper\nhelper.RUNS.append(1)\n"
        "print(__name__, len(helper.RUNS), sys.argv[1:])\nsys.exit(3)\n"
    )
    monkeypatch.setattr(inprocess, "BENCHMARKS", tmp_path)
    monkeypatch.setattr(inprocess, "IN_PROCESS_BENCHMARKS", ("bench.py",))
    monkeypatch.syspath_prepend(str(tmp_path))
    import helper  # this process's copy, imported before the runs

    path = list(sys.path)
    for _ in range(2):
        done = inprocess.run([sys.executable, str(tmp_path / "bench.py"), "a"])
        assert (done.returncode, done.stdout) == (3, "__main__ 1 ['a']\n")
    assert sys.modules["helper"] is helper and helper.RUNS == []
    assert sys.path == path
    monkeypatch.delitem(sys.modules, "helper")


def _lit_test(tmp_path: Path, text: str) -> Path:
    (tmp_path / "lit.cfg").write_text((SUITE / "lit.cfg").read_text())
    path = tmp_path / "case.mlir"
    path.write_text(text)
    return path


def test_lit_pipelines_redirections_and_not(tmp_path: Path, monkeypatch):
    """In-process stages on both sides of a real process (``tr``), files written with ``>``
    and read with ``<``, ``2>&1`` and ``2>/dev/null`` under ``not``, and lit's ``diff``; only
    ``tr`` is started as a process."""
    started = []
    real_popen = subprocess.Popen

    def popen(args, *rest, **kwargs):
        started.append(Path(args[0]).name)
        return real_popen(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", popen)
    path = _lit_test(
        tmp_path,
        "// RUN: ascend-opt %s | tr a-z A-Z | filecheck %s --check-prefix=UPPER\n"
        "// RUN: ascend-opt %s > %t && filecheck %s < %t\n"
        "// RUN: ascend-opt %s | diff - %t\n"
        "// RUN: not ascend-opt %S/missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING\n"
        "// RUN: not ascend-opt %S/missing.mlir 2>/dev/null | filecheck %s --check-prefix=NONE"
        " --allow-empty\n"
        '"test.op"() : () -> ()\n'
        "// UPPER: BUILTIN.MODULE\n"
        '// CHECK: "test.op"() : () -> ()\n'
        "// MISSING: ascend-opt: error: cannot read '{{.*}}missing.mlir'\n"
        "// NONE-NOT: {{.}}\n",
    )
    outcome = run_test(path)
    assert outcome.passed, outcome.report()
    if not inprocess.subprocesses_only():
        assert started == ["tr"]


@pytest.mark.parametrize(
    "run_line",
    [
        "not ascend-opt %s",  # it succeeds
        "ascend-opt %S/missing.mlir | filecheck %s",  # pipefail: the first stage failed
        "ascend-opt %s | diff - %s",  # the output is not the input
    ],
)
def test_lit_fails_what_lit_fails(tmp_path: Path, run_line: str):
    path = _lit_test(tmp_path, f"// RUN: {run_line}\n" + '"test.op"() : () -> ()\n// CHECK: test\n')
    outcome = run_test(path)
    assert outcome.code == lit.Test.FAIL, outcome.report()
