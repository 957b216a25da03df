"""Runs the project's command-line tools inside the test process, as if each were a new process.

Starting a Python that imports xDSL costs 0.5-1 s, and the FileCheck suite and the documented
commands start hundreds of them. The tools are console scripts (``ascend-opt = ascend_xdsl.
tools.opt:main`` and so on) whose ``main`` reads ``sys.argv`` and the standard streams and
exits, so they can run in this process instead, once it has given each run what a new process
would have had and taken back afterwards what the run changed:

* ``sys.argv`` as the console script sees it, the working directory, the whole environment
  (lit strips it to a short list; a tool reads ``ASCEND_XDSL_DEBUG``, ``XDG_CACHE_HOME`` or
  ``COLUMNS`` at run time);
* standard streams over byte buffers, buffered as a new Python buffers them for a pipe (stdout
  by blocks, stderr by lines; neither under ``$PYTHONUNBUFFERED`` in the run's environment), so
  that ``2>&1`` interleaves the two as a real process does; no file descriptor and no terminal
  behind them (``isatty()`` is false, as for a pipe);
* the exit status of ``sys.exit(main())``: ``SystemExit`` is caught, and an exception that
  escapes ``main`` prints its traceback on stderr and exits 1, as the interpreter does;
* a fresh interpreter's warning filters, printing on the run's stderr (pytest's own capture of
  warnings would otherwise swallow what a user sees);
* the recursion headroom of a new process (this one is already some frames deep);
* afterwards, whatever the run changed of the signal handlers, the BLAS thread limits, and the
  two class attributes xdsl-opt's flags set (``--disable-verify``, ``--syntax-highlight``) is
  put back, so that no run influences the next test.

One thing a new process would compute is computed once per test process instead: xdsl-opt's
front end (``xDSLOptMain``, which ``ascend-opt`` and ``xdsl-opt`` build on) looks its dialects,
passes and targets up three times per run in the ``xdsl.universe`` entry points, each a read of
every installed distribution's metadata (a third of a small ``ascend-opt`` run's CPU, some
thousand runs in the suite). The installed distributions do not change while the tests run, so
the answer is the same each time (:func:`_one_multiverse`).

Two kinds of Python scripts run here too, as ``python SCRIPT`` runs one (:func:`_script`:
``runpy`` as ``__main__``, the script's folder first on ``sys.path``, and the modules of that
folder imported afresh for the run and forgotten after it): the data script of an emitted
Ascend C project (``python3 data.py make|check ...``), and the benchmark scripts of
:data:`IN_PROCESS_BENCHMARKS`, which compute, print and exit without starting processes. What
a fresh process would change in their output is their timings, which the tests that run them
mask (a warm import or compile cache makes a "first call" faster, not different); each
start of a Python that imports the compiler costs 1.5 to 2 s of CPU.

What is not run here, but started as a process as before: any other Python script (the
benchmarks that start a process pool, a new one until it is listed) and any program that is
not one of :data:`IN_PROCESS` of this environment, ``ascend-tune`` when it starts processes of
its own (a pool, Ray), and any run whose environment sets a variable that is read
when a library is imported (``OPENBLAS_NUM_THREADS=1 python ...``): those libraries are
imported once here. Setting ``ASCEND_XDSL_TEST_SUBPROCESS=1`` starts every command as a
process, the way to check that a difference is not this module's.

:func:`run` is ``subprocess.run(argv, capture_output=True, text=True)`` for the tests;
:func:`start` is the lower level that tests/lit_inprocess.py builds lit's processes on.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import io
import os
import runpy
import shutil
import signal
import subprocess
import sys
import threading
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

BIN = Path(os.path.abspath(sys.executable)).parent
"""Where this environment's console scripts are: a command is run here only if it is one."""

IN_PROCESS = ("ascend-opt", "ascend-run", "ascend-conv", "ascend-tune", "xdsl-opt", "filecheck")
"""The console scripts run in this process. Each reads its arguments and streams, computes and
exits, and leaves no process or thread behind; ``ascend-tune`` only without the flags of
:func:`_starts_processes`."""


def _starts_processes(argv: Sequence[str]) -> bool:
    """``ascend-tune --ray`` (Ray is process-wide: a local instance started here would outlive
    the run, and one a test started would be found) or ``--workers N`` above 1 (a process pool,
    forked from this process), as the tool's own parser reads its flags."""
    if Path(argv[0]).name != "ascend-tune":
        return False
    from ascend_xdsl.tools.tune import make_parser

    quiet = io.StringIO()  # --help prints: that is the run's business, not this check's
    try:
        with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
            args = make_parser().parse_args(list(argv[1:]))
    except (Exception, SystemExit):  # refused flags (or --help): the tool says so and stops
        return False
    return args.ray is not None or args.workers > 1


LIT_BUILTINS = ("diff", "cat")
"""lit's internal shell runs these as ``python .../lit/builtin_commands/NAME.py``; their
``main(argv)`` is as self-contained as the tools'."""

SUBPROCESS_ENV = "ASCEND_XDSL_TEST_SUBPROCESS"
"""Set (to anything but empty or 0) to start every command as a real process."""

IMPORT_TIME_PREFIXES = ("PYTHON", "OPENBLAS_", "OMP_", "MKL_", "GOTO", "BLIS_", "LD_", "MPL")
"""Environment variables that take effect when an interpreter or a library starts: a run that
sets one of them differently from this process needs a process of its own."""


def subprocesses_only() -> bool:
    return os.environ.get(SUBPROCESS_ENV, "") not in ("", "0")


@dataclass(frozen=True)
class Program:
    """What a command line runs in-process: ``main`` with ``argv`` as ``sys.argv``."""

    main: Callable[[], object]
    argv: list[str]


@cache
def _console_script(name: str) -> Callable[[], object] | None:
    """The function the console script ``name`` of this environment calls, or None."""
    if not (BIN / name).is_file():
        return None
    found = importlib.metadata.entry_points(group="console_scripts", name=name)
    return next(iter(found)).load() if found else None


def _lit_builtin(script: str) -> Callable[[], object] | None:
    path = Path(script)
    if path.suffix != ".py" or path.stem not in LIT_BUILTINS:
        return None
    try:
        module = importlib.import_module(f"lit.builtin_commands.{path.stem}")
    except ImportError:
        return None
    if Path(module.__file__ or "").resolve() != path.resolve():
        return None
    return lambda: module.main(sys.argv)


def program(argv: Sequence[str], executable: str | None = None) -> Program | None:
    """The in-process form of the command ``argv`` (run as ``executable`` if given, as lit
    does once it has found the program on its PATH), or None to start it as a process."""
    if subprocesses_only() or not argv:
        return None
    path = Path(executable or argv[0])
    if str(path) == path.name:  # found on $PATH, as a shell would
        path = Path(shutil.which(path.name) or path.name)
    path = Path(os.path.abspath(path))
    if path.name in IN_PROCESS and path.parent == BIN and not _starts_processes(argv):
        main = _console_script(path.name)
        # As the kernel starts a script: the interpreter gets the script's path as argv[0].
        return Program(main, [str(BIN / path.name), *argv[1:]]) if main else None
    if len(argv) > 1 and path.resolve() == Path(sys.executable).resolve():
        main = _lit_builtin(argv[1]) or _script(argv[1])
        return Program(main, list(argv[1:])) if main else None
    return None


EMIT_MARKER = ".ascend-xdsl-emit"
"""The file ``ascend-conv emit-ascendc`` writes into a project folder (``emit.project.MARKER``;
a test checks the two agree)."""

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

IN_PROCESS_BENCHMARKS = (
    "bench_budget.py",
    "bench_compile.py",
    "bench_conv3d_weight.py",
    "bench_cost_only.py",
    "bench_measured.py",
    "bench_ops.py",
    "bench_scaling.py",
    "bench_small_layers.py",
)
"""The scripts of benchmarks/ that run in this process: none starts a process (a pool), sets a
signal handler or changes state that :class:`_Restored` does not put back (the BLAS thread
limits it does)."""


def _script(script: str) -> Callable[[], object] | None:
    """``python SCRIPT ARGS`` in this process, for an emitted project's data.py (the emitter's
    marker beside it) or a benchmark of :data:`IN_PROCESS_BENCHMARKS`; None otherwise."""
    path = Path(os.path.abspath(script))
    if not path.is_file():
        return None
    emitted = path.name == "data.py" and (path.parent / EMIT_MARKER).is_file()
    benchmark = path.parent == BENCHMARKS and path.name in IN_PROCESS_BENCHMARKS
    if not (emitted or benchmark):
        return None

    def ours(module: object) -> bool:
        file = getattr(module, "__file__", None)
        return file is not None and Path(file).parent == path.parent

    def main() -> object:
        saved_path = list(sys.path)
        # The folder's modules (bench_scaling imports bench_conv3d_weight) as a new process
        # imports them: afresh, and afterwards the ones this process had before.
        saved = {name: m for name, m in sys.modules.items() if ours(m)}
        for name in saved:
            del sys.modules[name]
        sys.path.insert(0, str(path.parent))  # as ``python SCRIPT`` starts
        try:
            runpy.run_path(str(path), run_name="__main__")
        finally:
            sys.path[:] = saved_path
            for name in [n for n, m in sys.modules.items() if ours(m)]:
                del sys.modules[name]
            sys.modules.update(saved)
        return 0

    return main


def _lit_folder() -> str | None:
    spec = importlib.util.find_spec("lit")
    return os.path.dirname(spec.origin) if spec and spec.origin else None


def runs_in_process(env: Mapping[str, str] | None) -> bool:
    """Whether a run with environment ``env`` can share this process (see the module doc).

    lit's shell sets $PYTHONPATH to its own folder to start its ``diff``, and keeps it for the
    commands after it in the test: that folder holds lit's modules, none of which a tool
    imports, so it needs no process of its own."""
    return env is None or all(
        os.environ.get(key) == value or (key == "PYTHONPATH" and value == _lit_folder())
        for key, value in env.items()
        if key.startswith(IMPORT_TIME_PREFIXES)
    )


class _End(io.RawIOBase):
    """One file descriptor's worth of a stream: writes go to ``data``, which may be shared
    with another end (``2>&1``); closing one end does not close the other."""

    def __init__(self, data: bytearray):
        self.data = data

    def writable(self) -> bool:
        return True

    def write(self, b: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        self.data += b
        return len(b)


def _writer(
    data: bytearray, line_buffering: bool, errors: str, unbuffered: bool
) -> io.TextIOWrapper:
    """A standard output stream as a new interpreter opens it on a pipe: block-buffered
    (io.DEFAULT_BUFFER_SIZE) or by lines, or writing through under $PYTHONUNBUFFERED."""
    if unbuffered:
        return io.TextIOWrapper(_End(data), "utf-8", errors, write_through=True)  # type: ignore[arg-type]
    buffered = io.BufferedWriter(_End(data))
    return io.TextIOWrapper(buffered, "utf-8", errors, line_buffering=line_buffering)


@dataclass
class Finished:
    """A run's exit status and what it wrote; ``stdout is stderr`` after ``2>&1``."""

    returncode: int
    stdout: bytearray
    stderr: bytearray


class Timeout(BaseException):
    """Raised into a run that outlived its time limit (a BaseException, so that the tools'
    handlers of internal errors do not report it as one)."""


def _exit_status(code: object) -> int:
    """What the interpreter makes of ``SystemExit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def _fresh_warning_filters() -> None:
    """Those of ``python`` without -W or $PYTHONWARNINGS, printing on the run's stderr."""
    warnings.resetwarnings()
    for category in (ResourceWarning, ImportWarning, PendingDeprecationWarning):
        warnings.simplefilter("ignore", category)
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")

    def show(message, category, filename, lineno, file=None, line=None):
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))

    warnings.showwarning = show


class _Restored(contextlib.ExitStack):
    """Puts back, on exit, the process-wide state a tool's run may change."""

    def __enter__(self) -> _Restored:
        super().__enter__()
        saved_sys = {
            name: getattr(sys, name)
            for name in (
                "argv", "stdin", "stdout", "stderr", "__stdin__", "__stdout__", "__stderr__",
            )
        }  # fmt: skip
        self.callback(_restore_sys, saved_sys)
        environ = dict(os.environ)
        self.callback(_restore_environ, environ)
        self.callback(os.chdir, os.getcwd())
        self.callback(sys.setrecursionlimit, sys.getrecursionlimit())
        handlers = {s: signal.getsignal(s) for s in signal.valid_signals()}
        self.callback(_restore_signals, handlers)
        self.enter_context(warnings.catch_warnings())
        self.callback(_restore_blas_threads, _blas_threads())
        self.callback(_restore_xdsl_globals, _xdsl_globals())
        self.enter_context(_one_multiverse())
        return self


def _restore_sys(saved: dict[str, object]) -> None:
    for name, value in saved.items():
        setattr(sys, name, value)


def _restore_environ(saved: dict[str, str]) -> None:
    if dict(os.environ) != saved:
        os.environ.clear()
        os.environ.update(saved)


def _restore_signals(saved: dict[signal.Signals, object]) -> None:
    for sig, handler in saved.items():
        if handler is not None and signal.getsignal(sig) is not handler:
            signal.signal(sig, handler)  # type: ignore[arg-type]


def _blas_threads() -> dict[str, int]:
    if "threadpoolctl" not in sys.modules:
        return {}
    from threadpoolctl import threadpool_info

    return {lib["filepath"]: lib["num_threads"] for lib in threadpool_info()}


def _restore_blas_threads(saved: dict[str, int]) -> None:
    if "threadpoolctl" not in sys.modules:
        return
    from threadpoolctl import ThreadpoolController

    for lib in ThreadpoolController().lib_controllers:
        if lib.filepath in saved and lib.num_threads != saved[lib.filepath]:
            lib.set_num_threads(saved[lib.filepath])


def _xdsl_globals() -> tuple[object, object] | None:
    if "xdsl.ir" not in sys.modules:
        return None
    from xdsl.ir import Attribute
    from xdsl.utils.diagnostic import Diagnostic

    return Attribute.__dict__.get("__post_init__"), Diagnostic.colored


def _restore_xdsl_globals(saved: tuple[object, object] | None) -> None:
    if saved is None:
        return
    from xdsl.ir import Attribute
    from xdsl.utils.diagnostic import Diagnostic

    if Attribute.__dict__.get("__post_init__") is not saved[0]:
        Attribute.__post_init__ = saved[0]  # type: ignore[method-assign]
    Diagnostic.colored = saved[1]  # type: ignore[assignment]


_SCAN: list = []
"""xDSL's own ``Universe.get_multiverse``, kept at the first run (before it is replaced)."""


@cache
def _multiverse_once() -> object:
    return _SCAN[0]()


@contextlib.contextmanager
def _one_multiverse():
    """``Universe.get_multiverse`` (the entry-point scan) done once per test process, for the
    run; xDSL's own put back afterwards."""
    from xdsl.universe import Universe

    saved = Universe.__dict__["get_multiverse"]
    if not _SCAN:
        _SCAN.append(saved.__func__)
    Universe.get_multiverse = staticmethod(_multiverse_once)  # type: ignore[method-assign]
    try:
        yield
    finally:
        Universe.get_multiverse = saved  # type: ignore[method-assign]


def start(
    prog: Program,
    stdin: bytes = b"",
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    merge_stderr: bool = False,
    timeout: float | None = None,
) -> Finished:
    """Run ``prog`` to its end as a new process would, with ``stdin`` as its standard input;
    ``merge_stderr`` is ``2>&1``."""
    out = bytearray()
    err = out if merge_stderr else bytearray()
    unbuffered = (os.environ if env is None else env).get("PYTHONUNBUFFERED", "") != ""
    stdout = _writer(out, line_buffering=False, errors="strict", unbuffered=unbuffered)
    stderr = _writer(err, line_buffering=True, errors="backslashreplace", unbuffered=unbuffered)
    reader = io.TextIOWrapper(io.BufferedReader(io.BytesIO(stdin)), "utf-8", "strict")
    interrupted = False

    def on_sigint(signum: int, frame: object) -> None:
        nonlocal interrupted
        interrupted = True
        raise KeyboardInterrupt

    def on_alarm(signum: int, frame: object) -> None:
        raise Timeout

    with _Restored():
        sys.argv = list(prog.argv)
        sys.stdin = sys.__stdin__ = reader
        sys.stdout = sys.__stdout__ = stdout
        sys.stderr = sys.__stderr__ = stderr
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        sys.setrecursionlimit(sys.getrecursionlimit() + _depth())
        # Only the main thread takes signals; elsewhere a run has neither Ctrl-C nor a timeout.
        main_thread = threading.current_thread() is threading.main_thread()
        if main_thread:
            signal.signal(signal.SIGINT, on_sigint)
            if timeout:
                signal.signal(signal.SIGALRM, on_alarm)
                signal.setitimer(signal.ITIMER_REAL, timeout)
        _fresh_warning_filters()
        try:
            try:
                raise SystemExit(prog.main())  # what a console script does
            except SystemExit as e:
                code = _exit_status(e.code)
            except KeyboardInterrupt:
                if interrupted:
                    raise
                traceback.print_exc()
                code = -signal.SIGINT  # the interpreter ends itself with the signal
            except Timeout:
                raise
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                if timeout and main_thread:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            # The interpreter's last act: flush stdout, then stderr.
            for stream in (stdout, stderr):
                with contextlib.suppress(ValueError, OSError):
                    stream.flush()
        finally:
            with contextlib.suppress(ValueError, OSError):
                reader.close()
    if interrupted:  # Ctrl-C was meant for the test run, not only for the tool
        raise KeyboardInterrupt
    return Finished(code, out, err)


def decode(data: bytes | bytearray) -> str:
    """Bytes a process wrote as ``subprocess.run(text=True)`` returns them."""
    text = bytes(data).decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(argv, capture_output=True, text=True, ...)``, in this process when
    ``argv`` is a program of :data:`IN_PROCESS` (or a lit builtin) and ``env`` allows it."""
    args = [os.fspath(a) for a in argv]
    prog = program(args)
    if prog is None or not runs_in_process(env):
        return subprocess.run(
            args, cwd=cwd, env=env, input=input, capture_output=True, text=True, timeout=timeout
        )
    try:
        done = start(prog, (input or "").encode(), cwd=cwd, env=env, timeout=timeout)
    except Timeout:
        raise subprocess.TimeoutExpired(args, timeout or 0) from None
    return subprocess.CompletedProcess(args, done.returncode, decode(done.stdout),
                                       decode(done.stderr))  # fmt: skip
