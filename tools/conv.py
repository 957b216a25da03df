"""``ascend-conv``: the main job — build, compile, run and check one dW problem.

``ascend-conv bp-filter [shape flags]`` describes a Conv3DBackpropFilter problem in torch's
conventions, builds its op-level module (``lowering/build.py``) and compiles it with the front
door (``lowering/pipeline.compile``), i.e. through the one pipeline description every tool
shares. Without shape flags it uses an embedded default layer and says so on standard error.

* ``--emit LEVEL`` (op, format, api, hw) prints the IR at that level and stops; nothing runs.
* ``--emit ascendc -o DIR`` writes the API-level kernel as an Ascend C project for CANN
  (``emit/ascendc.py``); ``ascend-conv check-ascendc DIR`` compiles its sources with
  ``g++ -fsyntax-only`` against the shipped declaration headers (``emit/check.py``).
* ``--tiling tuned`` compiles the tiling the search of ``tuning/`` finds (cached on disk;
  ``--no-cache`` searches again), with a progress bar on standard error when it is a terminal.
* ``--report json`` prints one JSON document instead of the summary: the cost model's report
  (``runtime/cost/report.py``), the problem and the reference check.
* Without ``--emit`` it compiles to the hardware level, runs that program on the simulator with
  seeded random inputs (``--seed``), checks dW against the reference (``runtime/reports/check.py``)
  and prints a short summary: problem, tiling, IR sizes, error, time. A failed check exits with 1.
* ``--trace FILE.json`` writes the cost model's timeline of every core as a Chrome trace
  (``runtime/reports/trace.py``: open it in ui.perfetto.dev), ``--plot FILE.png`` a picture of the
  slowest core's timeline and its pipes' utilisation (``runtime/reports/plot.py``, the ``plot``
  extra); both are written atomically, also when the check fails.
* ``-o FILE`` writes what would go to standard output into FILE, through a temporary file in the
  same folder that is renamed over FILE, so FILE is either the old or the complete new content
  (``runtime/output.write_atomically``, shared with ``ascend-run``).

Errors are one line on standard error (``ascend-conv: error: ...``), never a traceback: exit code
2 for flags that cannot be parsed, 1 for a well-formed request that is rejected (illegal problem,
unknown hardware, unreadable tiling file, a pass that is not available yet, a failed compile,
an unwritable --trace or --plot file, matplotlib missing for --plot, an --emit ascendc folder
that cannot be written or is not empty and not a previous emission, a check-ascendc that does
not compile or has no g++, a run beyond the iteration budget or the host memory); Ctrl-C is 130,
a closed standard output 141, and a failure that is a bug of ours (the simulator failing on a
kernel this compiler built) an internal error, 70 (``tools/errors.run_tool``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from io import StringIO
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, PassFailedException, VerifyException

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects.api_level import InitOp
from ascend_xdsl.dialects.conv_shape import DTYPES, ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import ITERATE_ORDER_M, DwTiling
from ascend_xdsl.emit.ascendc import EmitError, emit_project
from ascend_xdsl.emit.check import CheckError, check_project
from ascend_xdsl.emit.project import ProjectWriteError, write_project
from ascend_xdsl.lowering.build import ConvProblemError, build_module, shape_from_torch_args
from ascend_xdsl.lowering.pipeline import LEVELS, PipelineError, compile
from ascend_xdsl.runtime.api import KernelRun, model_cost, run_compiled
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.machine.budget import DEFAULT_MAX_ITERATIONS, BudgetExceeded
from ascend_xdsl.runtime.machine.host_memory import HostMemoryError
from ascend_xdsl.runtime.reports.plot import (
    PlotUnavailable,
    problem_title,
    require_matplotlib,
    write_plot,
)
from ascend_xdsl.runtime.reports.trace import write_trace
from ascend_xdsl.tools.errors import (
    CliError,
    OneLineParser,
    add_debug_flag,
    first_line,
    run_tool,
    write_output,
)
from ascend_xdsl.tuning import tune

PROG = "ascend-conv"
ASCENDC = "ascendc"
"""``--emit ascendc``: not an IR level but the Ascend C project written from the API level."""

DEFAULT_LAYER: dict[str, tuple[int, ...]] = {
    "input": (2, 64, 8, 28, 28),
    "weight": (64, 64, 3, 3, 3),
    "padding": (1,),
}
"""The embedded default layer: N=2, C=64, D=8, H=W=28, Cout=64, 3x3x3 kernel, padding 1."""


class CheckFailed(Exception):
    """The kernel ran but its dW is outside the tolerance: the summary, printed, and exit 1."""


def check_no_empty_values(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """An option given an empty value (``--padding ''``, ``-o ''``) means nothing, so it is an
    error rather than a default in disguise; options whose default is empty may be emptied."""
    actions = list(parser._actions)
    while actions:
        action = actions.pop()
        if isinstance(action, argparse._SubParsersAction):
            actions += [a for sub in action.choices.values() for a in sub._actions]
            continue
        if not action.option_strings or action.default == "":
            continue
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            flag = max(action.option_strings, key=len)
            raise CliError(f"{flag}: empty value", exit_code=2)


def _ints(flag: str, text: str, counts: Sequence[int], minimum: int) -> tuple[int, ...]:
    kind = "positive" if minimum > 0 else "non-negative"
    if counts == (1,):
        expected = f"a {kind} integer"
    else:
        numbers = ", ".join(str(c) for c in counts[:-1]) + f" or {counts[-1]}"
        if len(counts) == 1:
            numbers = str(counts[0])
        expected = f"{numbers} comma-separated {kind} integers"
    parts = text.split(",")
    try:
        values = tuple(int(p.strip()) for p in parts)
    except ValueError:
        values = ()
    if len(values) not in counts or any(v < minimum for v in values):
        raise CliError(
            f"{flag}: expected {expected}, got '{text}'",
            exit_code=2,
        )
    return values


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse ``type`` for an integer option of at least ``minimum`` (argparse names the
    option in the error)."""
    kind = "positive" if minimum > 0 else "non-negative"

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a {kind} integer, got '{text}'")
        return value

    parse.__name__ = f"a {kind} integer"
    return parse


def add_max_iterations_flag(parser: argparse.ArgumentParser) -> None:
    """``--max-iterations``: the simulator's loop budget (``runtime/machine/budget.py``)."""
    parser.add_argument(
        "--max-iterations",
        metavar="N",
        type=int_at_least(1),
        default=DEFAULT_MAX_ITERATIONS,
        help="loop iterations the run may take before it stops with an error naming the loop "
        f"(default {DEFAULT_MAX_ITERATIONS:,}; runtime/machine/budget.py)",
    )


def _one_or_three(values: tuple[int, ...]) -> int | tuple[int, ...]:
    return values[0] if len(values) == 1 else values


def make_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Compile a Conv3DBackpropFilter (dW) kernel.",
        help_for=f"{PROG} bp-filter",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    bp = commands.add_parser(
        "bp-filter",
        help="the weight gradient of a 3-D convolution",
        description="Build and compile one Conv3DBackpropFilter problem (torch conventions). "
        "Without --input/--weight, the embedded default layer is used.",
    )
    bp.add_argument("--input", metavar="N,C,D,H,W", help="input (x) shape, NCDHW")
    bp.add_argument("--weight", metavar="Co,Ci/g,kD,kH,kW", help="weight (dW) shape")
    bp.add_argument("--stride", metavar="s|sd,sh,sw", default="1")
    bp.add_argument(
        "--padding", metavar="p|pd,ph,pw|f,b,u,d,l,r", help="default 0 (1 for the default layer)"
    )
    bp.add_argument("--dilation", metavar="d|dd,dh,dw", default="1")
    bp.add_argument("--groups", metavar="G", default="1")
    bp.add_argument("--dtype", choices=DTYPES, default="f16")
    bp.add_argument("--hw", metavar="NAME", default=hw_data.DEFAULT_HW, help="hardware description")
    bp.add_argument(
        "--tiling",
        metavar="heuristic|tuned|fixed:FILE",
        default="heuristic",
        help="tiling strategy (tuned searches for the fastest tiling by the cost model, cached; "
        "fixed:FILE reads one #ascend.dw_tiling<...> from FILE)",
    )
    bp.add_argument(
        "--no-cache",
        action="store_true",
        help="with --tiling tuned: search again instead of reading the tuning cache",
    )
    bp.add_argument(
        "--override",
        metavar='"FIELD=N ..."',
        default="",
        help='replace tiling fields, e.g. "iterate_order=1 base_k=64"',
    )
    bp.add_argument(
        "--dk",
        choices=("separate", "fused"),
        default="separate",
        help="kD as a driver loop (separate, default) or fused into N (groups 1, dilation D 1)",
    )
    bp.add_argument("--cores", metavar="N", help="AI cores to use (default: all of --hw)")
    bp.add_argument(
        "--emit",
        choices=(*LEVELS, ASCENDC),
        help="print the IR at this level and stop; ascendc: write the Ascend C project to -o DIR",
    )
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
    bp.add_argument(
        "--trace",
        metavar="FILE.json",
        help="write the modelled timeline of every core (a process per core, a track per pipe) "
        "as a Chrome trace for ui.perfetto.dev or chrome://tracing",
    )
    bp.add_argument(
        "--plot",
        metavar="FILE.png",
        help="write a PNG of the slowest core's timeline and each pipe's busy ratio and "
        "critical-path share (needs matplotlib: pip install 'ascend-xdsl[plot]')",
    )
    add_debug_flag(bp)
    add_max_iterations_flag(bp)
    bp.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")
    check = commands.add_parser(
        "check-ascendc",
        help="syntax-check an --emit ascendc project with g++",
        description="Compile the sources of an --emit ascendc project with g++ -std=c++17 "
        "-fsyntax-only against the declaration headers ascend-xdsl ships (names, types and "
        "call shapes as documented; not a CANN build).",
    )
    check.add_argument("folder", metavar="DIR", help="the folder --emit ascendc -o wrote")
    return parser


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
        x = _ints("--input", args.input, (5,), 1)
        w = _ints("--weight", args.weight, (5,), 1)
    stride = _ints("--stride", args.stride, (1, 3), 1)
    padding = _ints("--padding", "0" if padding_text is None else padding_text, (1, 3, 6), 0)
    dilation = _ints("--dilation", args.dilation, (1, 3), 1)
    (groups,) = _ints("--groups", args.groups, (1,), 1)
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


def ir_text(module: ModuleOp) -> str:
    """The module in the custom syntax, exactly as ``ascend-opt`` prints it."""
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue().rstrip("\n") + "\n"


def _op_count(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk()) - 1


def _tiling_of(modules: dict[str, ModuleOp]) -> DwTiling:
    """The tiling the compiler chose (the ``ascend.init`` of the API-level kernel)."""
    return next(op for op in modules["api"].walk() if isinstance(op, InitOp)).tiling.tiling


def summary(
    problem: ConvBpFilterShape,
    modules: dict[str, ModuleOp],
    hw: str,
    tiling_strategy: str,
    compile_seconds: float,
    run: KernelRun | None,
    cost: CostReport | None = None,
    cost_seconds: float = 0.0,
) -> str:
    """A short account of what was compiled, how it ran and how right it is, and what the cost
    model makes of it (``cost``, ``cost_seconds`` for a ``--cost-only`` run without ``run``)."""

    def dims(shape: Sequence[int]) -> str:
        return "x".join(map(str, shape))

    t = _tiling_of(modules)
    aic = hw_data.load(hw).aic_count
    split = [f"{axis} {dim}" for axis, dim in t.core_split()]
    order = "M (A1 resident)" if t.iterate_order == ITERATE_ORDER_M else "N (B1 resident)"
    levels = " -> ".join(f"{level} ({_op_count(m)} ops)" for level, m in modules.items())
    return "\n".join(
        [
            f"Conv3DBackpropFilter (dW), {problem.dtype}",
            f"  x {dims(problem.input_shape)}  dy {dims(problem.grad_output_shape)}  "
            f"dW {dims(problem.weight_shape)} f32",
            f"  strides {list(problem.strides)}  pads {list(problem.pads)}  "
            f"dilations {list(problem.dilations)}  groups {problem.groups}",
            f"  target {hw} ({aic} AI cores, using {t.core_num}: "
            f"{' x '.join(split) or 'no split'})  tiling {tiling_strategy}",
            f"  tiles base M/K/N {t.base_m}/{t.base_k}/{t.base_n}, step M/N/Ka/Kb "
            f"{t.step_m}/{t.step_n}/{t.step_ka}/{t.step_kb}, order {order}, "
            f"L0C buffers {t.cl0_pbuffer}",
            f"  compiled in {compile_seconds:.2f} s: {levels}",
            *(
                [
                    f"  ran the hw program on seeded random inputs (seed {run.seed}) in "
                    f"{run.seconds:.2f} s",
                    f"  check against the reference: {run.check.describe()}",
                ]
                if run is not None
                else [f"  cost only: modelled without running the data in {cost_seconds:.2f} s"]
            ),
            *(f"  {line}" for line in (cost.summary_lines() if cost else [])),
            "",
        ]
    )


def bp_filter(args: argparse.Namespace) -> str:
    """Run the ``bp-filter`` command; return what goes to standard output."""
    if args.emit and (args.trace or args.plot):
        flag = "--trace" if args.trace else "--plot"
        raise CliError(f"{flag} needs a run: it cannot go with --emit", exit_code=2)
    check_picture_paths(args.trace, args.plot)
    if args.emit == ASCENDC and not args.output:
        raise CliError("--emit ascendc writes a project folder: give it with -o DIR", exit_code=2)
    problem = problem_from_args(args)
    cores = None if args.cores is None else _ints("--cores", args.cores, (1,), 1)[0]
    start = time.perf_counter()
    tiling: str | DwTiling = args.tiling
    if args.tiling == "tuned":
        tiling = tuned(problem, args.hw, cores, not args.no_cache)
    try:
        modules = compile(
            build_module(problem),
            hw=args.hw,
            tiling=tiling,
            core_num=cores,
            stop_after="api" if args.emit == ASCENDC else args.emit or LEVELS[-1],
            override=args.override,
            dk=args.dk,
        )
    except PipelineError as e:
        raise CliError(str(e)) from None
    except (PassFailedException, VerifyException, DiagnosticException) as e:
        raise CliError(f"compilation failed: {first_line(e)}") from None
    if args.emit == ASCENDC:
        return emit_ascendc(modules["api"], args)
    if args.emit:
        return ir_text(modules[args.emit])
    compile_seconds = time.perf_counter() - start
    seed = _ints("--seed", args.seed, (1,), 0)[0]
    if args.cost_only:
        start = time.perf_counter()
        try:
            (cost,) = model_cost(
                modules["hw"], args.hw, problem=problem, max_iterations=args.max_iterations
            )
        except (BudgetExceeded, ValueError) as e:  # the budget, or a kernel it cannot take
            raise CliError(f"cost-only failed: {first_line(e)}") from None
        seconds = time.perf_counter() - start
        write_pictures([cost], args.trace, args.plot, problem_title(problem))
        if args.report == "json":
            return json_report(problem, args.hw, None, cost)
        return summary(problem, modules, args.hw, args.tiling, compile_seconds, None, cost, seconds)
    try:
        run = run_compiled(
            modules,
            problem,
            hw=args.hw,
            seed=seed,
            executor=args.executor,
            max_iterations=args.max_iterations,
        )
    except (BudgetExceeded, HostMemoryError) as e:
        # What the request asks is too much. Any other failure of a kernel this compiler built
        # is a bug of the compiler or the simulator: an internal error (tools/errors.run_tool).
        raise CliError(f"simulation failed: {first_line(e)}") from None
    if run.cost is not None:
        write_pictures([run.cost], args.trace, args.plot, problem_title(problem))
    if args.report == "json":
        text = json_report(problem, args.hw, run, run.cost)
    else:
        text = summary(problem, modules, args.hw, args.tiling, compile_seconds, run, run.cost)
    if not run.check.ok:
        raise CheckFailed(text)
    return text


def tuned(problem: ConvBpFilterShape, hw: str, cores: int | None, use_cache: bool) -> DwTiling:
    """``--tiling tuned``: the search's tiling (``tuning/``), with a progress bar on a terminal
    (standard error only, so ``--report json`` stays clean)."""
    try:
        return tune(problem, hw, cores, use_cache=use_cache, progress=True).tuned
    except hw_data.UnknownHardwareError as e:
        raise CliError(str(e)) from None
    except ValueError as e:  # TilingError, or cores out of range
        raise CliError(f"tuning failed: {first_line(e)}") from None


def emit_ascendc(api_module: ModuleOp, args: argparse.Namespace) -> str:
    """``--emit ascendc -o DIR``: write the project; return the line that says so."""
    command = shlex.join([PROG, *(sys.argv[1:] if args.argv is None else args.argv)])
    try:
        project = emit_project(api_module, args.hw, command)
        write_project(args.output, project)
    except (EmitError, ProjectWriteError) as e:
        raise CliError(str(e)) from None
    return f"wrote {args.output}: {', '.join(sorted(project.files))}\n"


def check_ascendc(folder: str) -> str:
    """``check-ascendc DIR``: the line that says what compiled, or a :class:`CliError`."""
    try:
        result = check_project(folder)
    except CheckError as e:
        raise CliError(f"check-ascendc: {e}") from None
    return (
        f"check-ascendc: {', '.join(result.files)} compile with g++ -std=c++17 -fsyntax-only "
        "against the declaration headers (names, types and call shapes; not a CANN build)\n"
    )


def write_pictures(
    reports: Sequence[CostReport], trace: str | None, plot: str | None, title: str | None
) -> None:
    """``--trace``: every report (launch) in ``reports``; ``--plot``: the last one. Each file is
    written atomically; a failure is a :class:`CliError` and leaves no file."""
    if trace:
        try:
            write_trace(reports, trace)
        except OSError as e:
            raise CliError(f"--trace: cannot write '{trace}': {e.strerror or e}") from None
    if plot:
        try:
            write_plot(reports[-1], plot, title)
        except PlotUnavailable as e:
            raise CliError(f"--plot: {e}") from None
        except OSError as e:
            raise CliError(f"--plot: cannot write '{plot}': {e.strerror or e}") from None


def check_picture_paths(trace: str | None, plot: str | None) -> None:
    """Fail now, before a long run, if the folder of a --trace or --plot file does not exist
    (or --plot could not be drawn)."""
    for flag, path in (("--trace", trace), ("--plot", plot)):
        if path and not Path(path).resolve().parent.is_dir():
            raise CliError(f"{flag}: cannot write '{path}': No such file or directory")
    if plot:
        try:
            require_matplotlib()
        except PlotUnavailable as e:
            raise CliError(f"--plot: {e}") from None


def json_report(
    problem: ConvBpFilterShape, hw: str, run: KernelRun | None, cost: CostReport | None
) -> str:
    """``--report json``: the cost report (``CostReport.to_json``), the problem and the check
    (null with ``--cost-only``), as one JSON document."""
    report: dict[str, object] = dict(cost.to_json()) if cost else {"hw": hw}
    report["problem"] = problem.as_json()
    report["check"] = (
        {
            "ok": run.check.ok,
            "max_abs_error": run.check.max_abs_error,
            "description": run.check.describe(),
        }
        if run is not None
        else None
    )
    return json.dumps(report, indent=2) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ascend-conv``; interrupts, a closed standard output and internal errors end as
    ``tools/errors.run_tool`` says."""
    return run_tool(PROG, lambda: _main(argv), argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    check_no_empty_values(parser, args)
    if args.command is None:
        raise CliError(
            f"a command is required: bp-filter or check-ascendc (see '{PROG} --help')",
            exit_code=2,
        )
    if args.command == "check-ascendc":
        sys.stdout.write(check_ascendc(args.folder))
        return 0
    args.argv = None if argv is None else list(argv)
    status = 0
    try:
        text = bp_filter(args)
    except CheckFailed as failed:
        text, status = str(failed), 1
    # --emit ascendc wrote its folder itself; what it prints is the list of files
    write_output(args.output if args.emit != ASCENDC else None, text)
    if status:
        print(f"{PROG}: error: dW is outside the tolerance of the reference", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
