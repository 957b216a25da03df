"""``python -m ascend_xdsl TOOL ARGS``: the command-line tools without their scripts on PATH.

``package/`` is the folder of the ``ascend_xdsl`` package itself (pyproject.toml maps it), holding
what belongs to no layer: the package's ``__init__``, this dispatcher and the version.

``TOOL`` is ``conv``, ``run``, ``tune`` or ``opt`` (or the script's name, ``ascend-conv``, ...);
the rest of the command line is the tool's. Without a tool, or with ``--help``, it lists them;
``--version`` prints the version, as each tool's own ``--version`` does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from importlib import import_module

from ascend_xdsl.version import __version__

TOOLS: dict[str, tuple[str, str]] = {
    "conv": ("ascend_xdsl.tools.conv", "build, compile, run and check one dW problem"),
    "run": ("ascend_xdsl.tools.run", "run an ascend IR program of any level on the simulator"),
    "tune": ("ascend_xdsl.tools.tune", "tune the tiling of every layer in a file"),
    "opt": ("ascend_xdsl.tools.opt", "xdsl-opt with the ascend dialect and passes"),
}
"""Tool → (module with ``main(argv)``, what it does); imported only when it runs."""

USAGE = "usage: python -m ascend_xdsl {conv,run,tune,opt} [ARGS ...] | --version | --help"


def _help() -> str:
    lines = [USAGE, "", "tools (each has --help):"]
    lines += [f"  {name:<5} ascend-{name}: {what}" for name, (_, what) in TOOLS.items()]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(_help())
        return 0 if args else 2
    if args[0] == "--version":
        print(f"ascend-xdsl {__version__}")
        return 0
    name = args[0].removeprefix("ascend-")
    if name not in TOOLS:
        print(
            f"python -m ascend_xdsl: error: unknown tool '{args[0]}' (expected one of "
            f"{', '.join(TOOLS)}; see 'python -m ascend_xdsl --help')",
            file=sys.stderr,
        )
        return 2
    tool: Callable[[list[str]], int] = import_module(TOOLS[name][0]).main
    return tool(args[1:])


if __name__ == "__main__":
    sys.exit(main())
