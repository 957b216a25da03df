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

With ``--cann DIR`` (or ``$ASCEND_HOME_PATH``), the API and AscendCL headers come from that
installed tree (:func:`cann_root`); only the basic API's entry headers stay the shipped stub,
and a header the tree lacks falls back to the shipped one (docs/ascendc.md, "check-ascendc
--cann").
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
    r'(?:extern\s+"C"\s+)?__global__\s+(?:__aicore__|__cube__)\s+void\s+(\w+)\s*\(([^)]*)\)',
    re.MULTILINE,
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

CANN_HEADERS = (
    "acl/acl.h",
    "kernel_tiling/kernel_tiling.h",
    "lib/conv_backprop/conv3d_bp_filter_api.h",
    "lib/conv_backprop/conv3d_bp_filter_tiling.h",
    "tiling/platform/platform_ascendc.h",
)
"""The headers an emitted project includes that ``--cann`` takes from the installed tree.
``kernel_operator.h``, the basic API, is always the shipped declaration stub: the real one is
the device compiler's and does not compile with g++."""

_TREE_PROBES = ("include/adv_api/conv/common/conv_common.h", "utils/base/sys_constants.h")
"""Paths the real headers include each other by (from the asc-devkit root): their folder is
an include folder too when the tree has them."""

BASIC_API_HEADERS = ("kernel_operator.h", "kernel_basic_intf.h")
"""The basic API's entry headers (asc-devkit ``include/kernel_operator.h``,
``include/basic_api/kernel_basic_intf.h``): with ``--cann`` both are the shipped declaration
stub, the one part of the tree the check never reads."""

# Where the asc-devkit source tree keeps what an installed CANN exposes as lib/ (its
# include/adv_api, linked as highlevel_api/lib and tikcpp/tikcfw/lib at install).
_ALIASES = {"lib/": "adv_api/"}


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


def _cann_include_dirs(root: Path, aliases: Path) -> tuple[list[Path], tuple[str, ...]]:
    """The include folders of ``root`` that hold the :data:`CANN_HEADERS`, and the headers it
    has none of. A header of the asc-devkit source layout (``include/adv_api/...`` for
    ``lib/...``) is reached through a link in ``aliases``."""
    found: list[Path] = []
    missing: list[str] = []
    files = [p for p in root.rglob("*.h") if p.is_file()]
    for header in CANN_HEADERS:
        folder = _folder_holding(files, header)
        if folder is None:
            for name, alias in _ALIASES.items():
                if header.startswith(name):
                    target = _folder_holding(files, alias + header.removeprefix(name))
                    if target is not None:
                        link = aliases / name.rstrip("/")
                        if not link.exists():
                            link.symlink_to(target / alias.rstrip("/"), target_is_directory=True)
                        folder = aliases
        if folder is None:
            missing.append(header)
        elif folder not in found:
            found.append(folder)
    if len(missing) == len(CANN_HEADERS):
        raise CheckError(f"{root}: none of {', '.join(CANN_HEADERS)} is in it: not a CANN tree")
    for probe in _TREE_PROBES:
        folder = _folder_holding(files, probe)
        if folder is not None and folder not in found:
            found.append(folder)
    return found, tuple(missing)


def _folder_holding(files: list[Path], header: str) -> Path | None:
    """The include folder from which ``header`` resolves to one of ``files`` (shortest path)."""
    parts = Path(header).parts
    hits = [f for f in files if f.parts[-len(parts) :] == parts]
    if not hits:
        return None
    best = min(hits, key=lambda f: len(f.parts))
    return Path(*best.parts[: -len(parts)])


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


def check_project(folder: str | Path, cann: Path | None = None) -> CheckResult:
    """Compile every source of the emitted project in ``folder``; raise :class:`CheckError`
    with the first compiler error (``file:line:col: error: ...``). With ``cann``, against the
    headers of that CANN tree (:func:`cann_root`) with the basic API stubbed."""
    root = Path(folder)
    if not root.is_dir():
        raise CheckError(f"'{folder}' is not a folder")
    host = root / HOST_FILE
    kernels = sorted(p for p in [*root.glob("*.cpp"), *root.glob("*.asc")] if p.name != HOST_FILE)
    if not host.is_file() or not kernels:
        raise CheckError(f"'{folder}' has no emitted project ({HOST_FILE} and a kernel source)")
    declared = [m for k in kernels for m in _KERNEL.finditer(k.read_text(encoding="utf-8"))]
    if len(declared) != 1:
        raise CheckError(
            f"'{folder}': expected one __global__ kernel (extern \"C\" __aicore__ or __cube__), "
            f"found {len(declared)}"
        )
    compiler = find_compiler()
    ((kernel_name, params),) = (m.groups() for m in declared)
    with tempfile.TemporaryDirectory(prefix="ascendc-check-") as generated:
        gen = Path(generated)
        header = gen / f"aclrtlaunch_{kernel_name}.h"
        header.write_text(_launch_header(kernel_name, params), encoding="utf-8")
        standin = gen / "ascend_xdsl_launch.h"
        standin.write_text(_LAUNCH_STANDIN, encoding="utf-8")
        includes, shipped = _include_flags(cann, gen)
        sources = [*kernels, host]
        for source in sources:
            command = [compiler, *FLAGS, *includes, "-I", generated, *_source_args(source, gen)]
            done = subprocess.run(
                command, capture_output=True, text=True, check=False, env=_C_LOCALE
            )
            if done.returncode != 0:
                raise CheckError(_first_error(done.stderr + done.stdout, source))
    return CheckResult(
        files=tuple(s.name for s in sources), compiler=compiler, cann=cann, shipped=shipped
    )


def _include_flags(cann: Path | None, generated: Path) -> tuple[list[str], tuple[str, ...]]:
    """``-I`` flags: the shipped headers, or the stub of the basic API, the CANN tree's
    folders, and the shipped headers for what the tree lacks."""
    if cann is None:
        return ["-I", str(include_dir())], ()
    stub = generated / "basic-api-stub"
    stub.mkdir()
    for name in BASIC_API_HEADERS:
        (stub / name).symlink_to(include_dir() / "kernel_operator.h")
    aliases = generated / "cann-aliases"
    aliases.mkdir()
    folders, missing = _cann_include_dirs(cann, aliases)
    flags = ["-I", str(stub)]
    for folder in folders:
        flags += ["-I", str(folder)]
    return [*flags, "-I", str(include_dir())], missing


def _source_args(source: Path, generated: Path) -> list[str]:
    """How g++ reads ``source``: an ``.asc`` file as C++, its ``<<<>>>`` launches rewritten as
    calls (same lines, so the error positions hold)."""
    if source.suffix != ".asc":
        return [str(source)]
    text = _LAUNCH.sub(r"AscendXdslCheckLaunch(\2), \1(", source.read_text(encoding="utf-8"))
    copy = generated / source.name
    copy.write_text(text, encoding="utf-8")
    standin = ["-include", "ascend_xdsl_launch.h"]
    return ["-iquote", str(source.parent), *standin, "-x", "c++", str(copy)]
