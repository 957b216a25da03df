"""Runs a FileCheck test (tests/filecheck/**/*.mlir) with lit, inside the test process.

lit itself does everything as it does for ``lit -v FILE``: it finds the test and its lit.cfg,
reads the RUN lines, applies the substitutions (``%s``, ``%t``, ``ASCEND_ROUNDTRIP``, ...),
parses each line with its internal shell (``not``, pipes, ``&&``, redirections, ``rm``,
``mkdir``) and writes the report a failure shows. Only the last step changes: where its shell
would start a process (``subprocess.Popen`` in ``lit.TestRunner``), a command that
tests/inprocess.py can run in this process (``ascend-opt``, ``ascend-run``, ``ascend-conv``,
``xdsl-opt``, ``filecheck`` and lit's own ``diff``) runs to its end there, and lit gets a
finished process whose output it reads as from a pipe. The stages of a pipeline thus run one
after the other, each reading all the output of the one before; that is a pipe's outcome for
commands that read their whole input before they write (every tool here does). Any other
command is still started as a process, and a pipeline may mix the two.

``lit tests/filecheck`` is unchanged for developers: nothing here is used by lit itself.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import tempfile
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any

import inprocess
import lit.discovery
import lit.LitConfig
import lit.Test
import lit.TestRunner
import lit.worker


class FinishedPopen:
    """A command lit's shell asked to start, already run to its end in this process, with the
    parts of ``subprocess.Popen`` lit uses (``stdin``, ``stdout``, ``stderr``,
    ``communicate``, ``wait``)."""

    def __init__(
        self,
        prog: inprocess.Program,
        args: Sequence[str],
        *,
        stdin: Any,
        stdout: Any,
        stderr: Any,
        cwd: str | None,
        env: dict[str, str] | None,
        text: bool,
        opened: contextlib.ExitStack,
    ):
        self.args = list(args)
        self.pid = None  # no process to kill: lit asks only when a test has a timeout
        self.text = text
        data = b"" if stdin in (None, subprocess.PIPE) else _read_all(stdin)
        # 2>&1: onto the pipe lit reads stdout from, or the file stdout goes to (`> f 2>&1`).
        merged = stderr == subprocess.STDOUT or (hasattr(stdout, "fileno") and stderr is stdout)
        done = inprocess.start(prog, data, cwd=cwd, env=env, merge_stderr=merged)
        self.returncode = done.returncode
        # lit closes the stdin it gave (PIPE): there is nothing to write to a finished process.
        self.stdin = io.BytesIO() if stdin == subprocess.PIPE else None
        self.stdout = _deliver(done.stdout, stdout, opened)
        self.stderr = None if merged else _deliver(done.stderr, stderr, opened)

    def communicate(self, input: Any = None) -> tuple[Any, Any]:
        return self._read(self.stdout), self._read(self.stderr)

    def _read(self, stream: IO[bytes] | None) -> Any:
        if stream is None:
            return None
        data = stream.read()
        return inprocess.decode(data) if self.text else data

    def wait(self, timeout: float | None = None) -> int:
        return self.returncode

    def poll(self) -> int:
        return self.returncode

    def kill(self) -> None:
        pass

    terminate = kill


def _read_all(source: Any) -> bytes:
    """Everything left to read in ``source``: a file lit opened for ``<``, the pipe of a
    process it started, or the output of a :class:`FinishedPopen`."""
    chunks, fd = [], source.fileno()
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _temporary(data: bytes | bytearray, opened: contextlib.ExitStack) -> IO[bytes]:
    # A real file, so that a process started next can take it as its standard input; closed
    # when the test is done (lit reads it after the command ends).
    f = opened.enter_context(tempfile.TemporaryFile())  # noqa: SIM115
    f.write(data)
    f.seek(0)
    return f


def _deliver(data: bytearray, target: Any, opened: contextlib.ExitStack) -> IO[bytes] | None:
    """Put what a run wrote where lit pointed the stream; the readable end for a pipe."""
    if target == subprocess.PIPE:
        return _temporary(data, opened)
    if target is not None and hasattr(target, "fileno"):  # a redirection to a file
        view, fd = memoryview(bytes(data)), target.fileno()
        while view:
            view = view[os.write(fd, view) :]
    return None


@contextlib.contextmanager
def commands_in_process() -> Iterator[None]:
    """While active, lit's internal shell runs what it can in this process (see above)."""
    real = lit.TestRunner.subprocess
    if getattr(real, "Popen", None) is not subprocess.Popen:
        raise RuntimeError("lit.TestRunner no longer starts commands with subprocess.Popen")
    opened = contextlib.ExitStack()

    def popen(args: Sequence[str], executable: str | None = None, **kwargs: Any) -> Any:
        prog = inprocess.program(args, executable)
        if prog is None or not inprocess.runs_in_process(kwargs.get("env")):
            return subprocess.Popen(args, executable=executable, **kwargs)
        return FinishedPopen(
            prog,
            args,
            stdin=kwargs.get("stdin"),
            stdout=kwargs.get("stdout"),
            stderr=kwargs.get("stderr"),
            cwd=kwargs.get("cwd"),
            env=kwargs.get("env"),
            text=bool(kwargs.get("universal_newlines") or kwargs.get("text")),
            opened=opened,
        )

    shim = types.ModuleType("subprocess")
    shim.__dict__.update(subprocess.__dict__)
    shim.Popen = popen  # type: ignore[attr-defined]
    lit.TestRunner.subprocess = shim  # type: ignore[attr-defined]
    try:
        with opened:
            yield
    finally:
        lit.TestRunner.subprocess = real  # type: ignore[attr-defined]


@cache
def _lit_config() -> lit.LitConfig.LitConfig:
    # lit's defaults, as lit.main and lit.LitTestCase make them.
    return lit.LitConfig.LitConfig(
        progname="lit",
        path=[],
        diagnostic_level="note",
        useValgrind=False,
        valgrindLeakCheck=False,
        valgrindArgs=[],
        noExecute=False,
        debug=False,
        isWindows=False,
        order="smart",
        params={},
    )


@dataclass(frozen=True)
class Outcome:
    """A lit test's result and the report ``lit -v`` prints for it."""

    name: str
    code: lit.Test.ResultCode
    output: str

    @property
    def passed(self) -> bool:
        return self.code == lit.Test.PASS

    def report(self) -> str:
        stars = "*" * 20
        return f"{stars} TEST '{self.name}' {self.code.name} {stars}\n{self.output}\n{stars}\n"


def run_test(path: Path) -> Outcome:
    """Discover and run the lit test ``path`` (in-process unless
    ``ASCEND_XDSL_TEST_SUBPROCESS`` is set)."""
    config = _lit_config()
    tests = lit.discovery.find_tests_for_inputs(config, [str(path)])
    if len(tests) != 1:
        return Outcome(str(path), lit.Test.UNRESOLVED, f"lit found {len(tests)} tests in {path}")
    (test,) = tests
    with commands_in_process():
        result = lit.worker._execute(test, config)
    return Outcome(test.getFullName(), result.code, result.output)
