"""``ascend-run``: interpret an ascend IR program of any level on the numpy simulator.

``ascend-run FILE.mlir [options]`` parses FILE (every op gets its ``file:line:col``, see
``ir/locations.py``), verifies it, calls one entry function with numpy inputs and writes
its results as ``.npy`` files. The run itself is the runner's (``runtime/runner.py``, a
``ModuleJob``), as for ``ascend-conv`` and the Python API; this file is the tool around it:
the flags (``tools/run_args.py``), the program and its entry (``tools/run_program.py``), the
inputs (``tools/run_inputs.py``) and what is written and printed (``tools/run_report.py``).

* ``--entry NAME`` picks the function; by default the only entry function of the module
  (``ir/program.entry_functions``: defined, and not a kernel). Kernels (``ascend.kernel``,
  or the callee of an ``ascend.launch``) run through a launch and cannot be called directly.
* ``--input NAME=FILE.npy`` (repeatable) gives the data of the argument whose SSA name is
  ``%NAME`` (or ``argN``, the N-th argument); ``--random-inputs`` fills every other argument with
  standard-normal data from ``numpy.random.default_rng(--seed)``, in argument order. Each array
  must have exactly the argument's memref shape and element type (bf16 may also be the raw
  2-byte ``V2`` dtype that ``numpy.save`` writes for ``ml_dtypes.bfloat16``).
* Each result goes to ``--output-dir`` (default: the current directory) as ``<entry>.npy``, or
  ``<entry>.result<i>.npy`` when there are several, each written atomically
  (``runtime/reports/output.write_atomically``), with one ``wrote ...`` line per file. An entry
  name that cannot be a file name there (a path separator, a control character, a leading
  ``.``) is refused before the run (``tools/run_report.result_stem``).
* ``--check`` compares the (single) result with the exact reference of the dW problem the entry
  computes (``ir/program.conv_problem``, ``runtime/reports/check.check``) on the first two inputs
  (x, dy), or of the forward conv (``ir/program.forward_problem``,
  ``runtime/reports/check.check_forward``) on x and the weight, or of the input gradient
  (``ir/program.input_grad_problem``, ``runtime/reports/check.check_input_grad``) on dy and the
  weight; ``--sanitize`` runs with the
  synchronisation sanitizer and lists every hazard.
* ``--hw NAME`` is the hardware description the core memories are sized from.
* ``--report json`` prints the cost model's report of the launch; ``--trace FILE.json`` writes
  the timeline of every core of every launch as a Chrome trace (``runtime/reports/trace.py``;
  several launches are separate processes, one after the other in time) and ``--plot FILE.png`` a
  picture of the last launch (``runtime/reports/plot.py``, the ``plot`` extra). Any of the three
  times the run; the pictures are written atomically before the results.

Standard output gets the report (``hazard:``, ``sanitizer:``, ``check:`` and ``wrote`` lines);
an error is one line on standard error (``ascend-run: error: ...``), never a traceback: exit
code 2 for flags that cannot be parsed, 1 for anything else (unreadable or invalid program,
bad inputs, a failure while interpreting — named with the op being interpreted —, hazards,
a failed check, a loop beyond ``--max-iterations``). An error writes nothing; hazards or a failed
check still write the (complete) results, for inspection, and exit 1. Ctrl-C is 130, a closed
standard output 141, an internal error (a bug of ours) 70 (``tools/errors.run_tool``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import HwConfig, UnknownHardwareError, load
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.ir.program import conv_problem, forward_problem, input_grad_problem
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.reports.check import (
    CheckResult,
    check_forward,
    check_input_grad,
    non_finite_note,
)
from ascend_xdsl.runtime.reports.plot import problem_title
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, RunResult
from ascend_xdsl.runtime.runner import run as run_job
from ascend_xdsl.tools.errors import CliError, first_line, run_tool
from ascend_xdsl.tools.flags import check_no_empty_values
from ascend_xdsl.tools.pictures import check_picture_paths, write_pictures
from ascend_xdsl.tools.run_args import PROG, make_parser
from ascend_xdsl.tools.run_inputs import check_run_memory, gather_inputs, parse_input_flags
from ascend_xdsl.tools.run_program import Argument, arguments, load_module, pick_entry
from ascend_xdsl.tools.run_report import (
    cost_document,
    dims,
    report_hazards,
    result_stem,
    write_results,
)

BUGS = (AssertionError, AttributeError, NameError)
"""Exceptions that no program makes the simulator raise on purpose: a bug of ours. Any other
failure while interpreting is a finding about the program, named with its op."""


def run(args: argparse.Namespace) -> int:
    """Run the request; print the report; return the exit code (CliError for failures)."""
    try:
        hw = load(args.hw)
    except UnknownHardwareError as e:
        raise CliError(f"--hw: {e}") from None
    given = parse_input_flags(args.input)
    check_picture_paths(args.trace, args.plot)
    module = load_module(args.file)
    entry = pick_entry(module, args.entry)
    if args.cost_only:
        return run_cost_only(args, module, entry, hw, given)
    params = arguments(entry)
    result_stem(entry)  # a name no result file can have is refused before the run
    if args.check:
        check_checkable(entry, params)
    out_dir = Path(args.output_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise CliError(f"--output-dir {args.output_dir}: not a directory")
    check_run_memory(entry, params)
    inputs = gather_inputs(params, entry.sym_name.data, given, args.random_inputs, args.seed)
    if len(inputs) >= 2 and conv_problem(entry) is not None:
        note = non_finite_note(inputs[0], inputs[1])
        if note is not None:
            print(f"{PROG}: warning: {note}", file=sys.stderr)
    sanitizer = Sanitizer.for_hw(hw.name) if args.sanitize else None
    job = ModuleJob(module, hw, entry, inputs, problem=_forward(entry) or _input_grad(entry))
    result = run_entry(args, job, sanitizer)
    return report(args, hw, module, entry, result, sanitizer)


def check_checkable(entry: func.FuncOp, params: Sequence[Argument]) -> None:
    """``--check`` needs an entry that computes a dW problem from x and dy, a forward conv
    from x and the weight, or an input gradient from dy and the weight."""
    n_results = len(entry.function_type.outputs.data)
    known = (
        conv_problem(entry) is not None
        or forward_problem(entry) is not None
        or input_grad_problem(entry) is not None
    )
    if not known or len(params) < 2 or n_results != 1:
        raise CliError(
            f"--check: @{entry.sym_name.data} computes no recognisable dW or forward problem "
            "nor input gradient "
            "(expected x, dy -> dW around an ascend.conv3d_backprop_filter or ascend.launch, "
            "x, weight -> y around an ascend.conv3d or its launch, or dy, weight -> dX around "
            "an ascend.conv3d_backprop_input or its launch)"
        )


def _forward(entry: func.FuncOp) -> ConvBpFilterShape | None:
    """The forward conv ``entry`` computes, when it computes no dW (``ir/program``)."""
    return forward_problem(entry) if conv_problem(entry) is None else None


def _op(entry: func.FuncOp) -> str:
    """The report's ``problem.op``: forward, bp-input (dX) or bp-filter (dW)."""
    if _forward(entry) is not None:
        return "forward"
    return "bp-input" if _input_grad(entry) is not None else "bp-filter"


def _input_grad(entry: func.FuncOp) -> ConvBpFilterShape | None:
    """The input gradient ``entry`` computes, when it computes no dW (``ir/program``)."""
    return input_grad_problem(entry) if conv_problem(entry) is None else None


def _check(entry: func.FuncOp, result: RunResult) -> CheckResult:
    """The reference check of the run: the forward y's when the entry computes a forward
    conv, dX's when it computes an input gradient, else the dW's (``RunResult.check``)."""
    fwd, dx = _forward(entry), _input_grad(entry)
    if fwd is None and dx is None:
        return result.check()
    a, b = (np.asarray(v) for v in result.inputs[:2])
    if dx is not None:
        return check_input_grad(dx, b, a, np.asarray(result.outputs[0]))
    assert fwd is not None
    bias = np.asarray(result.inputs[2]) if len(result.inputs) > 2 else None
    return check_forward(fwd, a, b, np.asarray(result.outputs[0]), bias)


def run_entry(args: argparse.Namespace, job: ModuleJob, sanitizer: Sanitizer | None) -> RunResult:
    """The runner's run of ``job`` (timed when a report or a picture asks for it); a failure is
    a :class:`CliError` naming the op it happened in, after the hazards found before it."""
    timed = args.report == "json" or bool(args.trace or args.plot)
    options = RunOptions(
        cost="full" if timed else "none",
        executor=args.executor,
        sanitizer=sanitizer,
        max_iterations=args.max_iterations,
        max_seconds=args.max_seconds,
    )
    try:
        return run_job(job, options)
    except BUGS:
        raise  # not a finding about the program: an internal error (tools/errors.run_tool)
    except Exception as e:
        if sanitizer is not None and args.report != "json":  # what was found before the failure
            report_hazards(sanitizer, " before the run failed")
        failing = getattr(e, "ascend_op", None)
        where = f"{describe_op(failing)}: " if failing is not None else ""
        raise CliError(f"{where}{first_line(e)}") from None


def report(
    args: argparse.Namespace,
    hw: HwConfig,
    module: ModuleOp,
    entry: func.FuncOp,
    result: RunResult,
    sanitizer: Sanitizer | None,
) -> int:
    """Print the hazards and the check, write the pictures and the results, print the files
    written (or the JSON document); the exit code."""
    as_json = args.report == "json"
    failed = False
    hazards = None
    if sanitizer is not None:
        failed |= report_hazards(sanitizer, show=not as_json)
        hazards = [h.describe() for h in sanitizer.hazards]
    checked = None
    if args.check:
        try:
            checked = _check(entry, result)
        except ValueError as e:
            raise CliError(f"--check: {first_line(e)}") from None
        if not as_json:
            print(f"check: {checked.describe()}")
        failed |= not checked.ok
    if args.trace or args.plot:
        draw(args, entry, result)
    written = write_results(entry, result.outputs, args.output_dir)
    if as_json:
        document = cost_document(
            hw.name,
            module,
            result,
            checked,
            cost_only=False,
            hazards=hazards,
            written=[str(path) for path, _, _ in written],
            op=_op(entry),
        )
        print(json.dumps(document, indent=2))
        return 1 if failed else 0
    for path, array, t in written:
        print(f"wrote {path} ({dims(array.shape)} {element_type_name(t.element_type)})")
    if not written:
        print(f"@{entry.sym_name.data} returned no results; nothing written")
    return 1 if failed else 0


def draw(args: argparse.Namespace, entry: func.FuncOp, result: RunResult) -> None:
    """``--trace`` / ``--plot`` of a run, and the lines that say what was written."""
    costs = result.costs
    if not costs:
        flag = "--trace" if args.trace else "--plot"
        raise CliError(f"{flag}: @{entry.sym_name.data} launched no kernel: there is no timeline")
    title = problem_title(result.problem) if result.problem is not None else None
    write_pictures(costs, args.trace, args.plot, title)
    if args.report != "json":
        n = len(costs)
        if args.trace:
            print(f"wrote {args.trace} (trace of {'the launch' if n == 1 else f'{n} launches'})")
        if args.plot:
            print(f"wrote {args.plot} (plot of the {'last ' if n > 1 else ''}launch)")


def run_cost_only(
    args: argparse.Namespace,
    module: ModuleOp,
    entry: func.FuncOp,
    hw: HwConfig,
    given: dict[str, str],
) -> int:
    """``--cost-only``: the cost of every launch of ``entry`` without its data; prints the
    cost lines (or the JSON document), writes the pictures, writes no results."""
    for flag, used in (
        ("--check", args.check),
        ("--sanitize", args.sanitize),
        ("--input", bool(given)),
        ("--random-inputs", args.random_inputs),
    ):
        if used:
            raise CliError(f"--cost-only runs no data: {flag} cannot be used with it")
    options = RunOptions(
        cost="cost-only", max_iterations=args.max_iterations, max_seconds=args.max_seconds
    )
    try:
        result = run_job(ModuleJob(module, hw, entry, problem=_forward(entry)), options)
    except BUGS:
        raise
    except Exception as e:  # a kernel the model cannot take, in one line
        where = getattr(e, "ascend_op", None)
        prefix = f"{describe_op(where)}: " if where is not None else ""
        raise CliError(f"cost-only: {prefix}{first_line(e)}") from None
    costs = result.costs
    if (args.trace or args.plot) and not costs:
        flag = "--trace" if args.trace else "--plot"
        raise CliError(f"{flag}: @{entry.sym_name.data} launched no kernel: there is no timeline")
    if costs:
        title = problem_title(result.problem) if result.problem is not None else None
        write_pictures(costs, args.trace, args.plot, title)
    if args.report == "json":
        document = cost_document(
            hw.name,
            module,
            result,
            None,
            cost_only=True,
            hazards=None,
            written=[],
            op=_op(entry),
        )
        print(json.dumps(document, indent=2))
        return 0
    for i, cost in enumerate(costs):
        if len(costs) > 1:
            print(f"launch {i}:")
        for line in cost.summary_lines():
            print(line)
    if not costs:
        print(f"@{entry.sym_name.data} launches no kernel: nothing to model")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ascend-run``; interrupts, a closed standard output and internal errors end as
    ``tools/errors.run_tool`` says."""
    return run_tool(PROG, lambda: _main(argv), argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    check_no_empty_values(parser, args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
