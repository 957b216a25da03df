"""``check-ascendc``: compile an emitted project's sources with ``g++ -fsyntax-only``.

There is no CANN toolchain here, so this checks what can be checked without one: the emitted
kernel and host sources are compiled with ``g++ -std=c++17 -fsyntax-only`` against the
declaration headers in ``emit/include/`` (written from the documented API signatures, see its
README.md). A misspelt member, a wrong argument count or type, a tensor of the wrong element
type handed to an API call, an illegal ``ConvType`` combination (the headers' static_asserts
carry the documented rules) or a tiling field that does not exist fails the check. It says
nothing about how the CANN compiler or an NPU treats the code.

The legacy build's host includes ``aclrtlaunch_<kernel>.h``, which CANN's ``ascendc_library``
generates from the kernel's signature; the check writes its stand-in the same way, from the
kernel declaration in the kernel source, so a launch whose arguments do not match the kernel's
parameters fails too. An ``.asc`` source is compiled as C++ with its ``<<<blocks, l2ctrl,
stream>>>`` launches rewritten, on the same line, as a call of a stand-in taking the three
launch operands followed by the kernel's own call.

With ``--cann DIR`` (or ``$ASCEND_HOME_PATH``), the headers come from that installed tree
(:func:`cann_root`): the kernel is compiled as CANN's CPU run mode compiles one, against the
tree's real high-level and basic API, and only what the tree lacks comes from elsewhere (the
device compiler's builtins from ``emit/prelude/``, ``kernel_tiling.h`` generated from the
tree, the rest from the shipped headers): :mod:`ascend_xdsl.emit.cann`, and docs/ascendc.md,
"check-ascendc --cann", for what that settles against the real asc-devkit tree.

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

from ascend_xdsl.emit.cann import TreeError, TreeFlags, tree_flags
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
_KERNEL_HEAD = re.compile(
    r'(?:extern\s+"C"\s+)?__global__\s+(?:__aicore__|__cube__)\s+void\s+(\w+)\s*\('
)

# A <<<blocks, l2ctrl, stream>>> launch of an .asc source, which g++ cannot parse: the check
# compiles it as a call of the stand-in below (the three launch operands) and of the kernel.
_LAUNCH = re.compile(r"\b(\w+)<<<([^>]*)>>>\(")
_LAUNCH_STANDIN = (
    "// Stand-in for the <<<>>> launch syntax, written by ascend-conv check-ascendc.\n"
    "#pragma once\n"
    '#include "acl/acl.h"\n'
    "inline int AscendXdslCheckLaunch(uint32_t blockDim, void* l2ctrl, aclrtStream stream)\n"
    "{\n"
    "    return static_cast<int>(blockDim) + (l2ctrl == nullptr) + (stream == nullptr);\n"
    "}\n"
)

ASCEND_HOME = "ASCEND_HOME_PATH"
"""The environment variable CANN's set_env.sh sets to the installed toolkit."""


class CheckError(Exception):
    """The project cannot be checked (no compiler, no sources) or does not compile."""


@dataclass(frozen=True)
class CheckResult:
    files: tuple[str, ...]
    compiler: str
    cann: Path | None = None
    """The CANN tree checked against, or None for the shipped headers."""
    shipped: tuple[str, ...] = ()
    """With ``cann``: the headers it lacked, taken from the shipped ones."""
    prelude: tuple[str, ...] = ()
    """With ``cann``: the headers it lacked, taken from the prelude (``emit/prelude/``)."""
    generated: tuple[str, ...] = ()
    """With ``cann``: the headers it lacked, generated from it as its build does."""


def cann_root(explicit: str | None) -> Path | None:
    """The CANN tree to check against: ``--cann DIR``, else ``$ASCEND_HOME_PATH`` when it is
    set, else None (the shipped headers)."""
    given = explicit if explicit is not None else os.environ.get(ASCEND_HOME) or None
    if given is None:
        return None
    where = "--cann" if explicit is not None else f"${ASCEND_HOME}"
    root = Path(given)
    if not root.is_dir():
        raise CheckError(f"{where} {given}: no such folder")
    return root


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
    # An .asc source is compiled from its copy in the temporary folder.
    line = re.sub(r"\S*/ascendc-check-[^/\s]*/", "", line)
    return line if line.startswith(source.name) else f"{source.name}: {line}"


def kernel_declarations(text: str) -> list[tuple[str, str]]:
    """The ``__global__`` kernels (``extern "C" __aicore__`` or ``__cube__``) declared in
    ``text``: (name, parameter list) each, in one pass over the text."""
    found: list[tuple[str, str]] = []
    for m in _KERNEL_HEAD.finditer(text):
        close = text.find(")", m.end())
        if close < 0:
            break  # no later head can be closed either
        found.append((m.group(1), text[m.end() : close]))
    return found


def project_sources(root: Path) -> tuple[list[Path], Path]:
    """The kernel sources and the host source of the project in ``root``, as absolute paths:
    every ``*.cpp`` and ``*.asc`` of the folder, each a regular file with a name that g++ cannot
    take for an option or a response file."""
    host = root / HOST_FILE
    names = sorted(p.name for p in [*root.glob("*.cpp"), *root.glob("*.asc")])
    for name in names:
        if name.startswith(("-", "@")):
            raise CheckError(
                f"'{root / name}': a source name may not begin with '-' or '@' (g++ would "
                "read it as an option or a file of options)"
            )
    kernels = [root / n for n in names if n != HOST_FILE]
    if HOST_FILE not in names or not kernels:
        raise CheckError(f"'{root}' has no emitted project ({HOST_FILE} and a kernel source)")
    return kernels, host


def check_project(
    folder: str | Path, cann: Path | None = None, timeout: float = DEFAULT_TIMEOUT
) -> CheckResult:
    """Compile every source of the emitted project in ``folder``, each within ``timeout``
    seconds; raise :class:`CheckError` with the first compiler error (``file:line:col: error:
    ...``). With ``cann``, against the headers of that CANN tree (:func:`cann_root`), the
    kernel in CANN's CPU mode (:func:`ascend_xdsl.emit.cann.tree_flags`)."""
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
            f"'{folder}': expected one __global__ kernel (extern \"C\" __aicore__ or __cube__), "
            f"found {len(declared)}"
        )
    compiler = find_compiler()
    ((kernel_name, params),) = declared
    with tempfile.TemporaryDirectory(prefix="ascendc-check-") as generated:
        gen = Path(generated)
        header = gen / f"aclrtlaunch_{kernel_name}.h"
        header.write_text(_launch_header(kernel_name, params), encoding="utf-8")
        standin = gen / "ascend_xdsl_launch.h"
        standin.write_text(_LAUNCH_STANDIN, encoding="utf-8")
        kernel_flags, host_flags, tree = _include_flags(cann, root, gen)
        sources = [*kernels, host]
        for source in sources:
            # Absolute paths (g++ has no "--"): nothing of the folder's becomes an option.
            args = _source_args(source, texts[source], gen)
            includes = host_flags if source == host else kernel_flags
            command = [compiler, *FLAGS, *includes, "-I", generated, *args]
            returncode, output = _compile(command, generated, timeout, source)
            if returncode != 0:
                raise CheckError(_first_error(output, source))
    return CheckResult(
        files=tuple(s.name for s in sources),
        compiler=compiler,
        cann=cann,
        shipped=() if tree is None else tree.shipped,
        prelude=() if tree is None else tree.prelude,
        generated=() if tree is None else tree.generated,
    )


def _include_flags(
    cann: Path | None, folder: Path, generated: Path
) -> tuple[list[str], list[str], TreeFlags | None]:
    """The flags of the kernel sources and of the host source: the shipped headers, or the
    CANN tree's (:func:`ascend_xdsl.emit.cann.tree_flags`)."""
    if cann is None:
        shipped = ["-I", str(include_dir())]
        return shipped, shipped, None
    try:
        tree = tree_flags(cann, folder, generated, include_dir())
    except TreeError as e:
        raise CheckError(str(e)) from None
    return list(tree.kernel), list(tree.host), tree


def _source_args(source: Path, text: str, generated: Path) -> list[str]:
    """How g++ reads ``source``: an ``.asc`` file as C++, its ``<<<>>>`` launches rewritten as
    calls (same lines, so the error positions hold)."""
    if source.suffix != ".asc":
        return [str(source)]
    text = _LAUNCH.sub(r"AscendXdslCheckLaunch(\2), \1(", text)
    copy = generated / source.name
    copy.write_text(text, encoding="utf-8")
    standin = ["-include", "ascend_xdsl_launch.h"]
    return ["-iquote", str(source.parent), *standin, "-x", "c++", str(copy)]


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
