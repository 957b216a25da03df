"""``check-ascendc``: compile an emitted project's sources with ``g++ -fsyntax-only``.

There is no CANN toolchain here, so this checks what can be checked without one: the emitted
kernel and host sources are compiled with ``g++ -std=c++17 -fsyntax-only`` against the
declaration headers in ``emit/include/`` (written from the documented API signatures, see its
README.md). A misspelt member, a wrong argument count or type, a tensor of the wrong element
type handed to an API call, an illegal ``ConvType`` combination (the headers' static_asserts
carry the documented rules) or a tiling field that does not exist fails the check. It says
nothing about how the CANN compiler or an NPU treats the code.

The host includes ``aclrtlaunch_<kernel>.h``, which CANN's ``ascendc_library`` generates from
the kernel's signature; the check writes its stand-in the same way, from the ``extern "C"``
kernel declaration in the kernel source, so a launch whose arguments do not match the kernel's
parameters fails too.

Checking a project someone sent must never run their code, so the folder adds nothing to the
compiler's command line but its sources, by absolute path: names that begin with ``-`` or
``@`` are refused (``@FILE`` is a response file of options to g++, ``-o.cpp`` an option), a
source must be a regular UTF-8 file of at most :data:`MAX_SOURCE_BYTES`, and g++ runs in a
temporary folder of ours with a time limit (``timeout``; its whole process group is killed when
the limit passes). The kernel declaration is found in one linear scan.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ascend_xdsl.emit.common import HOST_FILE
from ascend_xdsl.ir.files import InputFileError, read_text

COMPILER = "g++"
# Plain ASCII quotes in the messages, whatever the locale.
_C_LOCALE = {**os.environ, "LC_ALL": "C"}
FLAGS = ("-std=c++17", "-fsyntax-only")

DEFAULT_TIMEOUT = 60.0
"""Seconds one g++ run may take (``check-ascendc --timeout``): an emitted source compiles in a
few seconds; a compiler that never returns must not hang the check."""

MAX_SOURCE_BYTES = 1 << 20
"""The largest source the check reads: an emitted kernel is a few kB."""

# The head of the kernel declaration; its parameter list is found with str.find, so that a
# file of many unclosed heads is still scanned once (a regex with ``[^)]*`` after each head
# rescans the rest of the file from every one of them).
_KERNEL_HEAD = re.compile(r'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+(\w+)\s*\(')


class CheckError(Exception):
    """The project cannot be checked (no compiler, no sources) or does not compile."""


@dataclass(frozen=True)
class CheckResult:
    files: tuple[str, ...]
    compiler: str


def include_dir() -> Path:
    """The shipped declaration headers."""
    path = resources.files("ascend_xdsl.emit") / "include"
    return Path(str(path))


def find_compiler() -> str:
    path = shutil.which(COMPILER)
    if path is None:
        raise CheckError(f"{COMPILER} not found on PATH: install it to check emitted Ascend C")
    return path


def _launch_header(kernel_name: str, params: str) -> str:
    """The stand-in for CANN's generated ``aclrtlaunch_<kernel>.h``: one ``void*`` per kernel
    parameter after the block count and the stream."""
    count = len([p for p in params.split(",") if p.strip()])
    args = "".join(f", void* arg{i}" for i in range(count))
    return (
        f"// Stand-in for aclrtlaunch_{kernel_name}.h, written by ascend-conv check-ascendc.\n"
        "#pragma once\n"
        '#include "acl/acl.h"\n'
        f'extern "C" uint32_t aclrtlaunch_{kernel_name}(uint32_t blockDim, aclrtStream stream'
        f"{args});\n"
        "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n"
    )


def _first_error(output: str, source: Path) -> str:
    """The compiler's first error, paths relative to the project or the shipped headers; one
    raised inside a header says which source was being compiled."""
    lines = [line for line in output.splitlines() if line.strip()]
    line = next((x for x in lines if ": error: " in x or ": fatal error: " in x), None)
    if line is None:
        return lines[0] if lines else f"{source.name}: the compiler failed without a message"
    for prefix in (str(source.resolve().parent), str(source.parent), str(include_dir())):
        line = line.replace(prefix + "/", "")
    return line if line.startswith(source.name) else f"{source.name}: {line}"


def kernel_declarations(text: str) -> list[tuple[str, str]]:
    """The ``extern "C" __global__ __aicore__`` kernels declared in ``text``: (name, parameter
    list) each, in one pass over the text."""
    found: list[tuple[str, str]] = []
    for m in _KERNEL_HEAD.finditer(text):
        close = text.find(")", m.end())
        if close < 0:
            break  # no later head can be closed either
        found.append((m.group(1), text[m.end() : close]))
    return found


def project_sources(root: Path) -> tuple[list[Path], Path]:
    """The kernel sources and the host source of the project in ``root``, as absolute paths:
    every ``*.cpp`` of the folder, each a regular file with a name that g++ cannot take for an
    option or a response file."""
    host = root / HOST_FILE
    names = sorted(p.name for p in root.glob("*.cpp"))
    for name in names:
        if name.startswith(("-", "@")):
            raise CheckError(
                f"'{root / name}': a source name may not begin with '-' or '@' (g++ would "
                "read it as an option or a file of options)"
            )
    kernels = [root / n for n in names if n != HOST_FILE]
    if HOST_FILE not in names or not kernels:
        raise CheckError(f"'{root}' has no emitted project ({HOST_FILE} and a kernel .cpp)")
    return kernels, host


def check_project(folder: str | Path, timeout: float = DEFAULT_TIMEOUT) -> CheckResult:
    """Compile every source of the emitted project in ``folder``, each within ``timeout``
    seconds; raise :class:`CheckError` with the first compiler error (``file:line:col: error:
    ...``)."""
    if not Path(folder).is_dir():
        raise CheckError(f"'{folder}' is not a folder")
    root = Path(os.path.abspath(folder))
    kernels, host = project_sources(root)
    try:
        texts = {
            s: read_text(s, MAX_SOURCE_BYTES, regular_only=True, what="source")
            for s in [*kernels, host]
        }
    except InputFileError as e:
        raise CheckError(str(e)) from None
    declared = [d for k in kernels for d in kernel_declarations(texts[k])]
    if len(declared) != 1:
        raise CheckError(
            f"'{folder}': expected one extern \"C\" __global__ __aicore__ kernel, found "
            f"{len(declared)}"
        )
    compiler = find_compiler()
    ((kernel_name, params),) = declared
    with tempfile.TemporaryDirectory(prefix="ascendc-check-") as generated:
        header = Path(generated) / f"aclrtlaunch_{kernel_name}.h"
        header.write_text(_launch_header(kernel_name, params), encoding="utf-8")
        sources = [*kernels, host]
        for source in sources:
            # An absolute path (g++ has no "--"): nothing of the folder's becomes an option.
            command = [compiler, *FLAGS, "-I", str(include_dir()), "-I", generated]
            returncode, output = _compile([*command, str(source)], generated, timeout, source)
            if returncode != 0:
                raise CheckError(_first_error(output, source))
    return CheckResult(files=tuple(s.name for s in sources), compiler=compiler)


def _compile(command: list[str], cwd: str, timeout: float, source: Path) -> tuple[int, str]:
    """Run ``command`` in ``cwd`` in a process group of its own, killed whole when ``timeout``
    passes (g++ runs cc1plus, which would otherwise hold the output pipes open)."""
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        env=_C_LOCALE,
        cwd=cwd,
        start_new_session=True,
    ) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise CheckError(
                f"{source.name}: {COMPILER} did not finish within {timeout:g} s (the --timeout "
                "of check-ascendc): is it a working compiler?"
            ) from None
        except BaseException:
            _kill_group(proc)
            raise
    return proc.returncode, err + out


def _kill_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
