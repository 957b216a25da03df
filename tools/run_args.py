"""The flags of ``ascend-run`` (``tools/run.py`` runs what they ask)."""

from __future__ import annotations

import argparse

from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.tools.errors import OneLineParser, add_debug_flag
from ascend_xdsl.tools.flags import add_hw_flag, add_limit_flags, int_at_least

PROG = "ascend-run"


def make_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Interpret an ascend IR program (any level) on the numpy simulator.",
    )
    parser.add_argument("file", metavar="FILE.mlir", help="the program")
    parser.add_argument("--entry", metavar="NAME", help="function to call (default: the only one)")
    parser.add_argument(
        "--input",
        metavar="NAME=FILE.npy",
        action="append",
        default=[],
        help="data of argument %%NAME (or argN); repeatable",
    )
    parser.add_argument(
        "--random-inputs",
        action="store_true",
        help="fill every argument without --input with seeded standard-normal data",
    )
    parser.add_argument("--seed", metavar="N", type=int_at_least(0), default=0, help="default 0")
    parser.add_argument(
        "--output-dir", metavar="DIR", default=".", help="where results go (default: .)"
    )
    parser.add_argument(
        "--check", action="store_true", help="compare the result with the dW reference"
    )
    parser.add_argument("--sanitize", action="store_true", help="report synchronisation hazards")
    add_hw_flag(parser, "the hardware description the core memories are sized from")
    parser.add_argument(
        "--cost-only",
        action="store_true",
        help="model the launches' cost without running any data (no inputs, no results; "
        "loops extrapolated where their iterations repeat)",
    )
    parser.add_argument(
        "--report",
        choices=("text", "json"),
        default="text",
        help="the report (text, default), or one JSON document on stdout: the cost model's "
        "report of the launch (docs/cost-model.md) with the hazards, the check and the files "
        "written",
    )
    parser.add_argument(
        "--trace",
        metavar="FILE.json",
        help="write the modelled timeline as a Chrome trace for ui.perfetto.dev: a process per "
        "core, a track per pipe; several launches are all traced, one after the other",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="write a PNG of the last launch: its slowest core's timeline and each pipe's busy "
        "ratio and critical-path share (needs matplotlib: pip install 'ascend-xdsl[plot]')",
    )
    add_debug_flag(parser)
    add_limit_flags(parser)
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="compiled",
        help="how kernels run: translated to Python once (compiled, default) or op by op by "
        "xDSL's interpreter (interp); both give the same bits",
    )
    return parser
