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
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ascend_xdsl.emit.common import HOST_FILE

COMPILER = "g++"
# Plain ASCII quotes in the messages, whatever the locale.
_C_LOCALE = {**os.environ, "LC_ALL": "C"}
FLAGS = ("-std=c++17", "-fsyntax-only")

_KERNEL = re.compile(
    r'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+(\w+)\s*\(([^)]*)\)', re.MULTILINE
)


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


def check_project(folder: str | Path) -> CheckResult:
    """Compile every source of the emitted project in ``folder``; raise :class:`CheckError`
    with the first compiler error (``file:line:col: error: ...``)."""
    root = Path(folder)
    if not root.is_dir():
        raise CheckError(f"'{folder}' is not a folder")
    host = root / HOST_FILE
    kernels = sorted(p for p in root.glob("*.cpp") if p.name != HOST_FILE)
    if not host.is_file() or not kernels:
        raise CheckError(f"'{folder}' has no emitted project ({HOST_FILE} and a kernel .cpp)")
    declared = [m for k in kernels for m in _KERNEL.finditer(k.read_text(encoding="utf-8"))]
    if len(declared) != 1:
        raise CheckError(
            f"'{folder}': expected one extern \"C\" __global__ __aicore__ kernel, found "
            f"{len(declared)}"
        )
    compiler = find_compiler()
    ((kernel_name, params),) = (m.groups() for m in declared)
    with tempfile.TemporaryDirectory(prefix="ascendc-check-") as generated:
        header = Path(generated) / f"aclrtlaunch_{kernel_name}.h"
        header.write_text(_launch_header(kernel_name, params), encoding="utf-8")
        sources = [*kernels, host]
        for source in sources:
            command = [compiler, *FLAGS, "-I", str(include_dir()), "-I", generated, str(source)]
            done = subprocess.run(
                command, capture_output=True, text=True, check=False, env=_C_LOCALE
            )
            if done.returncode != 0:
                raise CheckError(_first_error(done.stderr + done.stdout, source))
    return CheckResult(files=tuple(s.name for s in sources), compiler=compiler)
