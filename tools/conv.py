"""``ascend-conv``: the main job — build, compile, run and check one dW problem.

``ascend-conv bp-filter [shape flags]`` describes a Conv3DBackpropFilter problem in torch's
conventions (``tools/conv_args.py``), turns the compile flags into the typed compile options
(``lowering/options.CompileOptions``) and hands both to the runner (``runtime/runner.py``), the
front door that ``ascend-run`` and the Python API use too. Without shape flags it uses an
embedded default layer and says so on standard error. What it prints is built in
``tools/conv_report.py``.

* ``--emit LEVEL`` (op, format, api, hw) prints the IR at that level and stops; nothing runs.
* ``--emit tiling`` prints the tiling the ``--tiling`` strategy chose (heuristic, tuned or
  fixed) as one ``#ascend.dw_tiling<...>``, the form ``--tiling fixed:FILE`` reads back, so a
  tuned tiling can be kept and replayed; ``fixed:FILE`` also reads the JSON of
  ``--report json`` and ``ascend-tune --format json``.
* ``--emit ascendc -o DIR`` writes the API-level kernel as an Ascend C project for CANN
  (``emit/ascendc.py``); ``ascend-conv check-ascendc DIR`` compiles its sources with
  ``g++ -fsyntax-only`` against the shipped declaration headers (``emit/check.py``).
* ``--tiling tuned`` compiles the tiling the search of ``tuning/`` finds, by the tiler's one
  route to it (``passes/tiling_options.SEARCHES``; cached on disk, ``--no-cache`` searches
  again), with a progress bar on standard error when it is a terminal.
* ``ascend-conv compare [shape flags] A B`` compiles the problem with two tilings (each
  ``heuristic``, ``tuned`` or ``fixed:FILE``, with ``--override-a``/``--override-b`` field sets),
  models both cost only and prints them side by side (``tools/conv_compare.py``).
* ``--report json`` prints one JSON document instead of the summary: the report of
  docs/report.schema.json (``runtime/reports/document.py``): the problem, the tiling, the cost
  model's report (``runtime/cost/report.py``) and the reference check.
* Without ``--emit`` it compiles to the hardware level, runs that program on the simulator with
  seeded random inputs (``--seed``), checks dW against the reference (``runtime/reports/check.py``)
  and prints a short summary: problem, tiling, IR sizes, error, time. A failed check exits with 1.
* ``--trace FILE.json`` writes the cost model's timeline of every core as a Chrome trace
  (``runtime/reports/trace.py``: open it in ui.perfetto.dev), ``--plot FILE.png`` a picture of the
  slowest core's timeline and its pipes' utilisation (``runtime/reports/plot.py``, the ``plot``
  extra); both are written atomically, also when the check fails.
* ``-o FILE`` writes what would go to standard output into FILE, through a temporary file in the
  same folder that is renamed over FILE, so FILE is either the old or the complete new content
  (``runtime/reports/output.write_atomically``, shared with ``ascend-run``; a device or a FIFO
  is written directly).
* ``--emit`` runs nothing, so the flags of a run (``RUN_FLAGS``) are refused with it, never
  ignored; two outputs naming one file and a ``--plot`` not ending in ``.png`` are refused too.

``ascend-conv forward [shape flags]`` does the same for the forward conv
(``tools/conv_forward.py``), ``ascend-conv bp-input`` for the input gradient
(``tools/conv_bp_input.py``).

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
import shlex
import sys
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, PassFailedException, VerifyException

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.emit.ascendc import EmitError, emit_project
from ascend_xdsl.emit.check import CheckError, cann_root, check_project
from ascend_xdsl.emit.common import EmitOptions
from ascend_xdsl.emit.project import ProjectWriteError, write_project
from ascend_xdsl.lowering.build import build_module
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import PipelineError, compile_levels
from ascend_xdsl.passes.tiling_options import using_search_workers
from ascend_xdsl.runtime.machine.budget import BudgetExceeded
from ascend_xdsl.runtime.machine.host_memory import HostMemoryError
from ascend_xdsl.runtime.reports.plot import problem_title
from ascend_xdsl.runtime.runner import CompileJob, RunOptions, RunResult
from ascend_xdsl.runtime.runner import run as run_job
from ascend_xdsl.tools.conv_args import (
    ASCENDC,
    PROG,
    RUN_FLAGS,
    TILING,
    check_no_run_flags,
    make_parser,
    problem_from_args,
)
from ascend_xdsl.tools.conv_bp_input import InputGradCheckFailed, bp_input
from ascend_xdsl.tools.conv_compare import Side, compare_table
from ascend_xdsl.tools.conv_forward import ForwardCheckFailed, forward
from ascend_xdsl.tools.conv_report import ir_text, json_report, summary, tiling_text
from ascend_xdsl.tools.errors import CliError, first_line, run_tool, write_output
from ascend_xdsl.tools.flags import check_no_empty_values, ints
from ascend_xdsl.tools.pictures import check_picture_paths, write_pictures

__all__ = ["RUN_FLAGS", "bp_filter", "check_no_run_flags", "ir_text", "main"]


class CheckFailed(Exception):
    """The kernel ran but its dW is outside the tolerance: the summary, printed, and exit 1."""


def compile_options(args: argparse.Namespace) -> CompileOptions:
    """The compile flags as the typed options (``--tiling tuned`` with a progress bar on a
    terminal, standard error only, so ``--report json`` stays clean)."""
    cores = None if args.cores is None else ints("--cores", args.cores, (1,), 1)[0]
    try:
        return CompileOptions.create(
            hw=args.hw,
            cores=cores,
            tiling=args.tiling,
            override=args.override,
            dk=args.dk,
            use_cache=not args.no_cache,
            progress=True,
        )
    except PipelineError as e:
        raise CliError(str(e)) from None


def bp_filter(args: argparse.Namespace) -> str:
    """Run the ``bp-filter`` command; return what goes to standard output."""
    if args.emit:
        check_no_run_flags(args)
    check_picture_paths(args.trace, args.plot, args.output if args.emit != ASCENDC else None)
    if args.emit == ASCENDC and not args.output:
        raise CliError("--emit ascendc writes a project folder: give it with -o DIR", exit_code=2)
    problem = problem_from_args(args)
    options = compile_options(args)
    if args.emit:
        level = "api" if args.emit in (ASCENDC, TILING) else args.emit
        modules = emitted_levels(problem, options, level)
        if args.emit == ASCENDC:
            return emit_ascendc(modules["api"], args)
        if args.emit == TILING:
            return tiling_text(modules["api"])
        return ir_text(modules[args.emit])
    seed = ints("--seed", args.seed, (1,), 0)[0]
    result = run_problem(problem, options, args, seed)
    write_pictures(result.costs, args.trace, args.plot, problem_title(problem))
    check = None if args.cost_only else result.check()
    if args.report == "json":
        text = json_report(problem, options.hw, result, check, args.tiling)
    else:
        text = summary(result, options.hw, args.tiling, check, options)
    if check is not None and not check.ok:
        raise CheckFailed(text)
    return text


def compare(args: argparse.Namespace) -> str:
    """Run the ``compare`` command; return its table."""
    problem = problem_from_args(args)
    sides: list[Side] = []
    for tiling, override in ((args.a, args.override_a), (args.b, args.override_b)):
        one = argparse.Namespace(
            **vars(args), tiling=tiling, override=override, cost_only=True, executor="compiled"
        )
        options = compile_options(one)
        name = f"{tiling} {override}".strip()
        sides.append(Side(name, run_problem(problem, options, one, seed=0)))
    return compare_table(problem, *sides)


def emitted_levels(
    problem: ConvBpFilterShape, options: CompileOptions, level: str
) -> dict[str, ModuleOp]:
    """``--emit LEVEL``: the levels up to ``level``; nothing runs."""
    try:
        return compile_levels(build_module(problem), options, stop_after=level)
    except PipelineError as e:
        raise CliError(str(e)) from None
    except (PassFailedException, VerifyException, DiagnosticException) as e:
        raise CliError(f"compilation failed: {first_line(e)}") from None


def run_problem(
    problem: ConvBpFilterShape, options: CompileOptions, args: argparse.Namespace, seed: int
) -> RunResult:
    """Compile ``problem`` and run it on seeded random inputs with the exact timeline, or
    (``--cost-only``) model its cost without data; each failure in one line."""
    mode = "cost-only" if args.cost_only else "full"
    try:
        return run_job(
            CompileJob(problem, options, seed=seed),
            RunOptions(
                cost=mode,
                executor=args.executor,
                max_iterations=args.max_iterations,
                max_seconds=args.max_seconds,
            ),
        )
    except PipelineError as e:  # the compile: an option, a pass, the tiling search
        raise CliError(str(e)) from None
    except BudgetExceeded as e:
        what = "cost-only" if args.cost_only else "simulation"
        raise CliError(f"{what} failed: {first_line(e)}") from None
    except HostMemoryError as e:
        # What the request asks is too much. Any other failure of a kernel this compiler built
        # is a bug of the compiler or the simulator: an internal error (tools/errors.run_tool).
        raise CliError(f"simulation failed: {first_line(e)}") from None
    except ValueError as e:
        if not args.cost_only:
            raise
        raise CliError(f"cost-only failed: {first_line(e)}") from None  # a kernel it cannot take


def emit_ascendc(api_module: ModuleOp, args: argparse.Namespace) -> str:
    """``--emit ascendc -o DIR``: write the project; return the line that says so."""
    command = shlex.join([PROG, *(sys.argv[1:] if args.argv is None else args.argv)])
    try:
        options = EmitOptions(host_tiling=args.host_tiling, build=args.build)
        project = emit_project(api_module, args.hw, command, options)
        write_project(args.output, project)
    except (EmitError, ProjectWriteError) as e:
        raise CliError(str(e)) from None
    for warning in project.warnings:
        print(f"{PROG}: warning: {warning}", file=sys.stderr)
    return f"wrote {args.output}: {', '.join(sorted(project.files))}\n"


def check_ascendc(folder: str, cann: str | None, timeout: float) -> str:
    """``check-ascendc DIR``: the line that says what compiled, or a :class:`CliError`."""
    try:
        result = check_project(folder, cann_root(cann), timeout)
    except CheckError as e:
        raise CliError(f"check-ascendc: {e}") from None
    against = "the declaration headers"
    if result.cann is not None:
        # What the tree lacked and where it came from instead (docs/ascendc.md).
        lacked = [
            f"{what}: {', '.join(names)}"
            for what, names in (
                ("generated from the tree", result.generated),
                ("from the prelude", result.prelude),
                ("shipped", result.shipped),
            )
            if names
        ]
        against = f"the headers of {result.cann}, the kernel in CANN's CPU mode" + "".join(
            f"; {part}" for part in lacked
        )
    return (
        f"check-ascendc: {', '.join(result.files)} compile with g++ -std=c++17 -fsyntax-only "
        f"against {against} (names, types and call shapes; not a CANN build)\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ascend-conv``; interrupts, a closed standard output and internal errors end as
    ``tools/errors.run_tool`` says."""
    return run_tool(PROG, lambda: _main(argv), argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    check_no_empty_values(parser, args)
    with using_search_workers(getattr(args, "tune_workers", None)):
        return _command(args, argv)


def _command(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    if args.command is None:
        raise CliError(
            "a command is required: bp-filter, forward, bp-input, compare or check-ascendc "
            f"(see '{PROG} --help')",
            exit_code=2,
        )
    if args.command == "check-ascendc":
        sys.stdout.write(check_ascendc(args.folder, args.cann, args.timeout))
        return 0
    if args.command in ("forward", "bp-input"):
        run_op, what = (forward, "y") if args.command == "forward" else (bp_input, "dX")
        try:
            args.argv = None if argv is None else list(argv)
            # --emit ascendc wrote its folder itself; what it prints is the list of files
            write_output(args.output if args.emit != ASCENDC else None, run_op(args))
        except (ForwardCheckFailed, InputGradCheckFailed) as failed:
            write_output(args.output, str(failed))
            print(
                f"{PROG}: error: {what} is outside the tolerance of the reference", file=sys.stderr
            )
            return 1
        return 0
    if args.command == "compare":
        write_output(args.output, compare(args))
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
