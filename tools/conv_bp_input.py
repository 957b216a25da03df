"""``ascend-conv bp-input``: build, compile, run and check one input-gradient (dX) problem.

The same shape flags as ``bp-filter`` and ``forward`` (``tools/conv_args.add_problem_flags``):
the problem is ``torch.nn.grad.conv3d_input(input_size=x's shape, weight, dy)`` of those shapes.
It compiles ``ascend.conv3d_backprop_input`` through every level
(``runtime/input_grad.input_grad_levels``), and then either prints a level
(``--emit op|format|api|hw``), models the hardware-level program's cost without data
(``--cost-only``), or runs it on seeded random weight and dy (``--seed``, one launch per
group, ``runtime/input_grad.run_conv3d_input``) and checks dX against the exact reference
(``runtime/reports/check.check_input_grad``, what ``ascend-run --check`` uses on a dX program),
printing a short summary with the cost model's lines of ``bp-filter``'s
(``tools/conv_report.launch_cost_lines``, shared with ``forward``). A check outside the tolerance
exits with 1. ``--report json`` prints instead the one report of docs/report.schema.json
(problem with ``op`` bp-input, the dX tiling, the cost of each launch, and that check). The
flags, and what is common to both ops' reports, are ``tools/conv_forward.py``'s. ``--trace
FILE.json`` and ``--plot FILE.png`` draw the cost model's timelines as ``forward``'s do
(``tools/pictures.py``: every launch in the trace, the last one in the plot; written atomically,
also when the check fails), and ``--emit`` refuses the flags of a run as ``forward``'s does
(``check_output_flags``). ``--emit ascendc -o DIR`` writes the API-level kernel as an Ascend C
project for the vendor's ``Conv3DBackpropInput`` API (``emit/input_grad.py``, through forward's
``emit_ascendc``), which ``ascend-conv check-ascendc DIR`` compiles like the other ops' projects.

``--tiling heuristic|tuned|fixed:FILE`` as for ``forward``: ``tuned`` runs the dX tiling search
(``tuning/conv3d_bp_input_search.py``, cached on disk, ``--no-cache`` searches again) through the
dX tiler, and the summary says what it gained over the heuristic (the search's cost-only
cycles, ``tuned: 1.18x over the heuristic``); ``fixed:FILE`` reads one
``#ascend.conv3d_bp_input_tiling`` or its JSON (a ``--report json``'s ``tiling``).

What dX does not support yet is refused before anything runs, in one line with exit code 2:
``--bias`` (dX has none) and ``--no-cache`` without ``--tiling tuned``. A grouped layer's
``--emit ascendc`` project runs its one group's kernel once per group, as the simulator does.
"""

from __future__ import annotations

import argparse

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.api_conv3d_bp_input import Conv3DBpInputInitOp
from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.emit.input_grad import emit_input_grad_project
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.lowering.build import INPUT_GRAD_FUNC_NAME
from ascend_xdsl.lowering.options import PipelineError, parse_tiling
from ascend_xdsl.runtime.input_grad import (
    input_grad_levels,
    random_input_grad_inputs,
    run_conv3d_input,
)
from ascend_xdsl.runtime.reports.check import check_input_grad
from ascend_xdsl.runtime.reports.plot import problem_title
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, run
from ascend_xdsl.tools.conv_args import ASCENDC, problem_from_args
from ascend_xdsl.tools.conv_forward import (
    add_op_flags,
    check_output_flags,
    emit_ascendc,
    init_tiling,
    one_group,
    op_json_report,
    op_levels,
    problem_line,
)
from ascend_xdsl.tools.conv_report import ir_text, launch_cost_lines
from ascend_xdsl.tools.errors import CliError
from ascend_xdsl.tools.flags import ints
from ascend_xdsl.tools.pictures import write_pictures
from ascend_xdsl.tuning.conv3d_bp_input_search import cached_input_grad

OP = "bp-input"


class InputGradCheckFailed(Exception):
    """dX is outside the tolerance of the reference; the summary is the message."""


def add_bp_input_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = commands.add_parser(
        OP,
        help="the input gradient of a 3-D convolution (torch.nn.grad.conv3d_input)",
        description="Build, compile and run one Conv3DBackpropInput (dX) problem (torch "
        "conventions: --input is x's shape, dX's) on the simulator and check dX. Without "
        "--input/--weight, the embedded default layer is used.",
    )
    add_op_flags(parser, OP)


def _refuse_unsupported(args: argparse.Namespace) -> str:
    """What dX does not do yet, and the output flags ``forward`` refuses
    (``check_output_flags``): one line, exit 2, before anything runs; else the tiling
    strategy."""
    if args.bias:
        raise CliError(f"{OP}: --bias is not supported (dX has no bias)", exit_code=2)
    try:
        strategy, _ = parse_tiling(args.tiling)
    except PipelineError as e:
        raise CliError(f"{OP}: --tiling: {e}", exit_code=2) from None
    if args.no_cache and strategy != "tuned":
        raise CliError(f"{OP}: --no-cache goes with --tiling tuned", exit_code=2)
    check_output_flags(args)
    return strategy


def bp_input(args: argparse.Namespace) -> str:
    """Run the ``bp-input`` command; return what goes to standard output."""
    strategy = _refuse_unsupported(args)
    problem = problem_from_args(args)
    cores = None if args.cores is None else ints("--cores", args.cores, (1,), 1)[0]
    (seed,) = ints("--seed", args.seed, (1,), 0)
    g = problem.groups
    single = problem if g == 1 else one_group(problem)

    def levels_of(p: ConvBpFilterShape, hw: HwConfig, n: int | None) -> dict[str, ModuleOp]:
        # The tiling strategy and the search's cache and bar.
        return input_grad_levels(p, hw, n, args.tiling, use_cache=not args.no_cache, progress=True)

    target, levels, compile_seconds = op_levels(levels_of, single, args.hw, cores)
    if args.emit == ASCENDC:
        return emit_ascendc(levels["api"], args, emit_input_grad_project, g)
    if args.emit is not None:
        return ir_text(levels[args.emit])
    tiling = _tiling(levels["api"])
    launches = f" ({g} launches, one per group)" if g > 1 else ""
    title = problem_title(problem, "dX")
    head = f"problem: {_problem_text(problem)}\ntiling: {_tiling_line(tiling)}\n"
    if strategy == "tuned":
        head += f"{_tuned_gain(single, target.name, cores)}\n"
    if args.cost_only:
        result = run(
            ModuleJob(levels["hw"], target, INPUT_GRAD_FUNC_NAME, problem=single),
            RunOptions(cost="cost-only", progress=False),
        )
        costs = list(result.costs) * g  # every group's launch is the same kernel on its slice
        write_pictures(costs, args.trace, args.plot, title)
        if args.report == "json":
            return op_json_report(problem, target.name, OP, tiling, costs, None, strategy)
        cycles = sum(c.cycles for c in costs)
        return (
            f"{head}cost-only: {cycles:,.0f} cycles on {target.name}{launches}\n"
            + "".join(f"{line}\n" for line in launch_cost_lines(costs))
            + f"compile {compile_seconds:.2f} s, model {result.run_seconds:.2f} s\n"
        )
    w, dy = random_input_grad_inputs(problem, seed)
    res = run_conv3d_input(
        problem.input_shape,
        w,
        dy,
        problem.strides,
        problem.pads,
        problem.dilations,
        g,
        hw=target,
        cores=cores,
        tiling=args.tiling,
        executor=args.executor,
    )
    write_pictures(res.costs, args.trace, args.plot, title)
    # One check for the summary and the report: the derived tolerance of ascend-run --check.
    checked = check_input_grad(problem, w, dy, np.asarray(res.output))
    ok = checked.ok
    text = (
        f"{head}cycles: {res.cycles:,.0f} on {target.name}{launches}\n"
        + "".join(f"{line}\n" for line in launch_cost_lines(res.costs))
        + f"check: max |dX - reference| {checked.max_abs_error:.3g} "
        f"({'within' if ok else 'OUTSIDE'} the tolerance)\n"
        f"compile {compile_seconds:.2f} s, simulate {res.run_seconds:.2f} s\n"
    )
    if args.report == "json":
        text = op_json_report(problem, target.name, OP, tiling, res.costs, checked, strategy)
    if not ok:
        raise InputGradCheckFailed(text)
    return text


def _tuned_gain(problem: ConvBpFilterShape, hw: str, cores: int | None) -> str:
    """The summary's line of what ``--tiling tuned`` gained over the heuristic: the search's
    cost-only cycles of one launch, from the tuning cache the compile has just filled."""
    hit = cached_input_grad(problem, hw, cores)
    if hit is None:  # the compile stored the answer: only a cache that cannot be written
        return "tuned: the search's answer is not in the tuning cache"
    h, t = hit.heuristic_score.cycles, hit.tuned_score.cycles
    same = " (the heuristic's tiling)" if hit.tuned == hit.heuristic else ""
    return (
        f"tuned: {hit.speedup:.2f}x over the heuristic ({h:,.0f} -> {t:,.0f} cycles a launch, "
        f"cost only){same}"
    )


def _problem_text(p: ConvBpFilterShape) -> str:
    return problem_line(p, ("dy", p.grad_output_shape), ("dX", p.input_shape))


def _tiling(api: ModuleOp) -> Conv3DBpInputTiling | None:
    return init_tiling(api, Conv3DBpInputInitOp)


def _tiling_line(t: Conv3DBpInputTiling | None) -> str:
    if t is None:
        return "none"
    return (
        f"L0 M/K/N {t.base_m}/{t.base_k}/{t.base_n}, step M/N {t.step_m}/{t.step_n}, "
        f"single core M {t.single_core_m} Cin {t.single_core_cin} Din {t.single_core_din}"
    )
