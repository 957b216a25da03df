"""The flags of ``ascend-conv``, and the dW problem its shape flags describe.

``make_parser`` is the command line of the three commands (``bp-filter``, ``compare``,
``check-ascendc``);
``problem_from_args`` turns the torch-style shape flags into the checked problem
(``lowering/build.shape_from_torch_args``), or announces and takes the embedded default layer
when none is given. ``tools/conv.py`` runs what they describe.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ascend_xdsl.dialects.conv_shape import DTYPES, ConvBpFilterShape
from ascend_xdsl.emit.check import DEFAULT_TIMEOUT as CHECK_TIMEOUT
from ascend_xdsl.emit.common import BUILD_ASC, BUILDS, HOST_TILING_API, HOST_TILINGS
from ascend_xdsl.lowering.build import ConvProblemError, shape_from_torch_args
from ascend_xdsl.lowering.pipeline import LEVELS
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.machine.budget import DEFAULT_MAX_ITERATIONS
from ascend_xdsl.tools.errors import CliError, OneLineParser, add_debug_flag
from ascend_xdsl.tools.flags import (
    TILING_WORDS,
    add_hw_flag,
    add_limit_flags,
    int_at_least,
    ints,
    positive_seconds,
)

PROG = "ascend-conv"
ASCENDC = "ascendc"
"""``--emit ascendc``: not an IR level but the Ascend C project written from the API level."""
TILING = "tiling"
"""``--emit tiling``: the tiling the strategy chose, as ``--tiling fixed:FILE`` reads it."""

DEFAULT_LAYER: dict[str, tuple[int, ...]] = {
    "input": (2, 64, 8, 28, 28),
    "weight": (64, 64, 3, 3, 3),
    "padding": (1,),
}
"""The embedded default layer: N=2, C=64, D=8, H=W=28, Cout=64, 3x3x3 kernel, padding 1."""


def _one_or_three(values: tuple[int, ...]) -> int | tuple[int, ...]:
    return values[0] if len(values) == 1 else values


def make_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Compile a 3-D convolution's kernel (the weight gradient dW, the forward "
        "conv or the input gradient dX) for the Ascend AI Core, run it on the simulator and cost "
        "it.",
        help_for=f"{PROG} bp-filter",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    bp = commands.add_parser(
        "bp-filter",
        help="the weight gradient of a 3-D convolution",
        description="Build and compile one Conv3DBackpropFilter problem (torch conventions).\n"
        "Without --input/--weight, the embedded default layer is used.",
        epilog=TILING_WORDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_problem_flags(bp)
    add_compile_flags(bp)
    add_run_flags(bp)
    from ascend_xdsl.tools.conv_forward import add_forward_parser  # it uses this module's flags

    add_forward_parser(commands)
    from ascend_xdsl.tools.conv_bp_input import add_bp_input_parser

    add_bp_input_parser(commands)
    compare = commands.add_parser(
        "compare",
        help="two tilings of one problem side by side (cost only)",
        description="Compile one Conv3DBackpropFilter problem with two tilings, model both "
        "without data (cost only) and print them side by side: cycles, efficiency, each "
        "pipe's busy ratio and critical-path share, what each waits on most, and the tiling "
        "fields that differ. Without --input/--weight, the embedded default layer is used.",
    )
    add_problem_flags(compare)
    for side, default in (("a", "heuristic"), ("b", "tuned")):
        compare.add_argument(
            side,
            nargs="?",
            default=default,
            metavar=f"{side.upper()}",
            help=f"tiling {side.upper()}: heuristic, tuned or fixed:FILE (default {default})",
        )
    for side in ("a", "b"):
        compare.add_argument(
            f"--override-{side}",
            metavar='"FIELD=N ..."',
            default="",
            help=f'replace fields of tiling {side.upper()}, e.g. "base_k=64 step_n=2"',
        )
    add_target_flags(compare)
    add_debug_flag(compare)
    add_limit_flags(compare)
    compare.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")
    check = commands.add_parser(
        "check-ascendc",
        help="syntax-check an --emit ascendc project with g++",
        description="Compile the sources of an --emit ascendc project with g++ -std=c++17 "
        "-fsyntax-only against the declaration headers ascend-xdsl ships, or with --cann (or "
        "$ASCEND_HOME_PATH set) a CANN or asc-devkit tree's headers, the kernel as CANN's CPU "
        "mode compiles it (names, types and call shapes; not a CANN build).",
    )
    check.add_argument("folder", metavar="DIR", help="the folder --emit ascendc -o wrote")
    check.add_argument(
        "--cann",
        metavar="DIR",
        help="check against the headers of the CANN (or asc-devkit) installed in DIR instead "
        "of the shipped ones (default: $ASCEND_HOME_PATH when it is set)",
    )
    check.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=positive_seconds,
        default=CHECK_TIMEOUT,
        help=f"how long one g++ run may take (default {CHECK_TIMEOUT:g})",
    )
    return parser


def add_problem_flags(bp: argparse.ArgumentParser) -> None:
    """The torch-style shape flags of the problem."""
    bp.add_argument("--input", metavar="N,C,D,H,W", help="input (x) shape, NCDHW")
    bp.add_argument("--weight", metavar="Co,Ci/g,kD,kH,kW", help="weight (dW) shape")
    bp.add_argument(
        "--stride", metavar="s|sd,sh,sw", default="1",
        help="stride of the convolution: one value for D, H and W, or three (default 1)",
    )  # fmt: skip
    bp.add_argument(
        "--padding", metavar="p|pd,ph,pw|f,b,u,d,l,r",
        help="zero padding: one value, one per axis (D, H, W), or front, back, up, down, left, "
        "right (default 0; 1 for the default layer)",
    )  # fmt: skip
    bp.add_argument(
        "--dilation", metavar="d|dd,dh,dw", default="1",
        help="dilation of the kernel: one value for D, H and W, or three (default 1)",
    )  # fmt: skip
    bp.add_argument(
        "--groups", metavar="G", default="1",
        help="groups of the convolution: Cin and Cout split into G independent parts (default 1)",
    )  # fmt: skip
    bp.add_argument(
        "--dtype", choices=DTYPES, default="f16",
        help="element type of x and dy (the Cube's input; dW is always f32; default f16)",
    )  # fmt: skip


def add_target_flags(parser: argparse.ArgumentParser) -> None:
    """The compile options both commands take besides the tiling: target, cores, kD, cache."""
    add_hw_flag(parser)
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="for a tuned tiling: search again instead of reading the tuning cache",
    )
    parser.add_argument(
        "--dk",
        choices=("separate", "fused"),
        default="separate",
        help="kD as a driver loop (separate, default) or fused into N (groups 1, dilation D 1)",
    )
    parser.add_argument("--cores", metavar="N", help="AI cores to use (default: all of --hw)")
    parser.add_argument(
        "--tune-workers",
        metavar="N",
        type=int_at_least(1),
        help="for a tuned tiling: processes the search scores candidates in (default 1: this one "
        "only; more pay off on idle CPUs; the tiling found is the same)",
    )


def add_compile_flags(bp: argparse.ArgumentParser) -> None:
    """The flags of the compile options (``lowering/options.CompileOptions``) and ``--emit``."""
    bp.add_argument(
        "--tiling",
        metavar="heuristic|tuned|fixed:FILE",
        default="heuristic",
        help="tiling strategy (default heuristic; tuned searches for the fastest tiling by the "
        "cost model, cached; fixed:FILE reads one #ascend.dw_tiling<...> from FILE, or JSON: "
        "the tiling object of --report json or ascend-tune --format json, or that report)",
    )
    bp.add_argument(
        "--override",
        metavar='"FIELD=N ..."',
        default="",
        help='replace tiling fields, e.g. "iterate_order=1 base_k=64"',
    )
    add_target_flags(bp)
    bp.add_argument(
        "--emit",
        choices=(*LEVELS, TILING, ASCENDC),
        help="print the IR at this level and stop; tiling: print the tiling of --tiling as one "
        "#ascend.dw_tiling<...> that --tiling fixed:FILE reads back; ascendc: write the Ascend "
        "C project to -o DIR",
    )


def add_run_flags(bp: argparse.ArgumentParser) -> None:
    """The flags of the run (``runtime/runner.RunOptions``), its report and its outputs."""
    bp.add_argument(
        "--cost-only",
        action="store_true",
        help="model the kernel's cost without running its data (no inputs, no check; "
        "loops extrapolated where their iterations repeat): for layers too big to simulate",
    )
    bp.add_argument(
        "--report",
        choices=("text", "json"),
        default="text",
        help="the summary (text, default), or one JSON document: the cost model's report with "
        "the problem and the reference check (docs/cost-model.md)",
    )
    bp.add_argument("--seed", metavar="N", default="0", help="seed of the random inputs (0)")
    bp.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="compiled",
        help="run the kernel translated to Python once (compiled, default) or op by op by "
        "xDSL's interpreter (interp); both give the same bits",
    )
    add_picture_flags(bp)
    bp.add_argument(
        "--host-tiling",
        choices=HOST_TILINGS,
        default=HOST_TILING_API,
        help="with --emit ascendc: the host gets its tiling from the tiling API's GetTiling "
        "(api, the documented way) or fills in the compiler's own (fixed, which the docs do "
        "not support)",
    )
    bp.add_argument(
        "--build",
        choices=BUILDS,
        default=BUILD_ASC,
        help="with --emit ascendc: the build flow, .asc sources with find_package(ASC) (asc) "
        "or ascendc_library (legacy, no longer developed)",
    )
    add_debug_flag(bp)
    add_limit_flags(bp)
    bp.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")


def add_picture_flags(parser: argparse.ArgumentParser) -> None:
    """``--trace`` and ``--plot`` (``tools/pictures.py``), for bp-filter and forward alike."""
    parser.add_argument(
        "--trace",
        metavar="FILE.json",
        help="write the modelled timeline of every core (a process per core, a track per pipe) "
        "as a Chrome trace for ui.perfetto.dev or chrome://tracing",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="write a PNG of the slowest core's timeline and each pipe's busy ratio and "
        "critical-path share (needs matplotlib: pip install 'ascend-xdsl[plot]')",
    )


RUN_FLAGS: tuple[tuple[str, Callable[[argparse.Namespace], bool]], ...] = (
    ("--trace", lambda a: bool(a.trace)),
    ("--plot", lambda a: bool(a.plot)),
    ("--report json", lambda a: a.report == "json"),
    ("--cost-only", lambda a: a.cost_only),
    ("--seed", lambda a: a.seed != "0"),
    ("--executor", lambda a: a.executor != "compiled"),
    ("--max-iterations", lambda a: a.max_iterations != DEFAULT_MAX_ITERATIONS),
    ("--max-seconds", lambda a: a.max_seconds is not None),
)
"""The flags of the run, each with whether it was given: --emit runs nothing, so with it they
would be ignored."""


def check_no_run_flags(
    args: argparse.Namespace,
    flags: tuple[tuple[str, Callable[[argparse.Namespace], bool]], ...] = RUN_FLAGS,
) -> None:
    """One rule for flags that cannot take effect: refused (exit 2), never ignored."""
    for flag, given in flags:
        if given(args):
            raise CliError(f"{flag} needs a run: it cannot go with --emit", exit_code=2)


def problem_from_args(args: argparse.Namespace) -> ConvBpFilterShape:
    """The checked problem the flags describe (the default layer without shape flags)."""
    if (args.input is None) != (args.weight is None):
        raise CliError("--input and --weight go together (give both, or neither for the default)")
    padding_text = args.padding
    if args.input is None:
        layer = DEFAULT_LAYER
        x, w = layer["input"], layer["weight"]
        if padding_text is None:
            padding_text = ",".join(str(p) for p in layer["padding"])
        print(
            f"{PROG}: no shape flags given; using the embedded default layer: "
            f"--input {','.join(map(str, x))} --weight {','.join(map(str, w))} "
            f"--padding {padding_text}",
            file=sys.stderr,
        )
    else:
        x = ints("--input", args.input, (5,), 1)
        w = ints("--weight", args.weight, (5,), 1)
    stride = ints("--stride", args.stride, (1, 3), 1)
    padding = ints("--padding", "0" if padding_text is None else padding_text, (1, 3, 6), 0)
    dilation = ints("--dilation", args.dilation, (1, 3), 1)
    (groups,) = ints("--groups", args.groups, (1,), 1)
    try:
        return shape_from_torch_args(
            x,
            w,
            stride=_one_or_three(stride),
            padding=_one_or_three(padding),
            dilation=_one_or_three(dilation),
            groups=groups,
            dtype=args.dtype,
        )
    except ConvProblemError as e:
        raise CliError(f"illegal problem: {e}") from None
