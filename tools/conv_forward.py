"""``ascend-conv forward``: build, compile, run and check one forward Conv3D problem.

The same shape flags as ``bp-filter`` (``tools/conv_args.add_problem_flags``): the problem is
``torch.nn.functional.conv3d(x, w)`` of those shapes. It compiles ``ascend.conv3d`` through
every level (``runtime/forward.forward_levels``), and then either prints a level
(``--emit op|format|api|hw``), models the hardware-level program's cost without data
(``--cost-only``), or runs it on seeded random inputs (``--seed``, one launch per group) and
checks y against the exact reference (``runtime/reports/check.check_forward``: the float32
sums' derived tolerance plus the rounding to f16/bf16, what ``ascend-run --check`` uses on a
forward program), printing a short summary with the cost model's lines of ``bp-filter``'s
(``tools/conv_report.launch_cost_lines``, shared with ``bp-input``). A check outside the
tolerance exits with 1.
``--report json`` prints instead the one report of docs/report.schema.json (problem with ``op``
forward, the tiling, the cost of each launch, and that check). ``--trace FILE.json`` and
``--plot FILE.png`` draw the cost model's timelines as ``bp-filter``'s do (``tools/pictures.py``:
every launch in the trace, the last one in the plot; written atomically, also when the check
fails). ``--emit ascendc -o DIR`` writes the API-level kernel as an Ascend C project for the
vendor's ``Conv3D`` API (``emit/forward.py``), which ``ascend-conv check-ascendc DIR`` compiles
like a dW project. ``--emit`` runs nothing, so the flags of a run are refused with it
(``tools/conv_args.check_no_run_flags``).

``--tiling heuristic|tuned|fixed:FILE`` as for ``bp-filter``: ``tuned`` runs the forward tiling
search (``tuning/conv3d_search.py``, cached on disk, ``--no-cache`` searches again) through the
forward tiler; ``fixed:FILE`` reads one ``#ascend.conv3d_tiling`` or its JSON (a ``--report
json``'s ``tiling``). ``--bias`` adds a seeded random bias (the input's type; through the bias
table) to the run and to the check (drawn after x and the weight,
``runtime/forward.random_forward_inputs``), and with ``--emit ascendc`` to the project: its
kernel calls ``SetBias`` and its ``data.py`` makes the same bias. A grouped layer's project runs
the one group's kernel once per group, as the simulator does. Its flags
(``add_op_flags``), their checks before a run (``check_output_flags``), compile
(``op_levels``: an unknown ``--hw`` or ``--cores`` out of range in one line, exit 1), report
(``op_json_report``) and project writing (``emit_ascendc``, given the op's emitter) serve
``ascend-conv bp-input`` too (``tools/conv_bp_input.py``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ascend_xdsl.dialects.api_conv3d import Conv3DInitOp
from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.emit.common import EmitError, Project
from ascend_xdsl.emit.forward import emit_forward_project
from ascend_xdsl.emit.project import ProjectWriteError, write_project
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.lowering.build import FORWARD_FUNC_NAME
from ascend_xdsl.lowering.options import PipelineError, load_target, parse_tiling
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.forward import forward_levels, random_forward_inputs, run_conv3d
from ascend_xdsl.runtime.reports.check import CheckResult, check_forward
from ascend_xdsl.runtime.reports.document import run_document
from ascend_xdsl.runtime.reports.plot import problem_title
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, run
from ascend_xdsl.tools.conv_args import (
    ASCENDC,
    PROG,
    RUN_FLAGS,
    add_picture_flags,
    add_problem_flags,
    check_no_run_flags,
    problem_from_args,
)
from ascend_xdsl.tools.conv_report import ir_text, launch_cost_lines
from ascend_xdsl.tools.errors import CliError
from ascend_xdsl.tools.flags import add_hw_flag, ints
from ascend_xdsl.tools.pictures import check_picture_paths, write_pictures

LEVELS = ("op", "format", "api", "hw")
FORWARD_RUN_FLAGS = tuple(
    (flag, given) for flag, given in RUN_FLAGS if flag not in ("--max-iterations", "--max-seconds")
)
"""bp-filter's flags of a run that ``forward`` has too: refused with ``--emit``."""


class ForwardCheckFailed(Exception):
    """y is outside the tolerance of the reference; the summary is the message."""


def add_forward_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    fwd = commands.add_parser(
        "forward",
        help="the forward 3-D convolution (torch.nn.functional.conv3d)",
        description="Build, compile and run one forward Conv3D problem (torch conventions) on "
        "the simulator and check y. Without --input/--weight, the embedded default layer is "
        "used.",
    )
    add_op_flags(fwd, "forward")


def add_op_flags(fwd: argparse.ArgumentParser, op: str) -> None:
    """The flags of one op's command (``forward``, ``bp-input``, ``tools/conv_bp_input.py``):
    the shape flags, the compile and run flags and the report, whose problem is of ``op``."""
    add_problem_flags(fwd)
    fwd.add_argument(
        "--bias", action="store_true", help="add a bias (Cout,), through the bias table"
    )
    fwd.add_argument(
        "--tiling",
        metavar="heuristic|tuned|fixed:FILE",
        default="heuristic",
        help="tiling strategy: the vendor's heuristic (default), the tiling search's best "
        "(tuned, cached on disk), or the #ascend.conv3d_tiling in FILE",
    )
    fwd.add_argument(
        "--no-cache",
        action="store_true",
        help="with --tiling tuned: search again, ignoring the tuning cache",
    )
    add_hw_flag(fwd)
    fwd.add_argument("--cores", metavar="N", help="AI cores to use (default: all of --hw)")
    fwd.add_argument(
        "--emit",
        choices=(*LEVELS, ASCENDC),
        help="print the IR at this level and stop; ascendc: write the Ascend C project of the "
        "Conv3D API to -o DIR",
    )
    fwd.add_argument(
        "--cost-only",
        action="store_true",
        help="model the kernel's cost without running its data (no inputs, no check)",
    )
    fwd.add_argument("--seed", metavar="N", default="0", help="seed of the random inputs (0)")
    fwd.add_argument("--executor", choices=EXECUTORS, default="compiled", help="the executor")
    fwd.add_argument(
        "--report",
        choices=("text", "json"),
        default="text",
        help="the summary (text, default), or one JSON document of docs/report.schema.json: "
        f"the problem (op {op}), the tiling, the cost of every launch and the check",
    )
    add_picture_flags(fwd)
    fwd.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the output to FILE (with --emit ascendc: the project folder)",
    )


def forward(args: argparse.Namespace) -> str:
    """Run the ``forward`` command; return what goes to standard output."""
    try:
        strategy, _ = parse_tiling(args.tiling)
    except PipelineError as e:
        raise CliError(f"forward: --tiling: {e}", exit_code=2) from None
    if args.no_cache and strategy != "tuned":
        raise CliError("forward: --no-cache goes with --tiling tuned", exit_code=2)
    check_output_flags(args)
    problem = problem_from_args(args)
    cores = None if args.cores is None else ints("--cores", args.cores, (1,), 1)[0]
    (seed,) = ints("--seed", args.seed, (1,), 0)
    g = problem.groups
    single = problem if g == 1 else one_group(problem)

    def levels_of(p: ConvBpFilterShape, hw: HwConfig, n: int | None) -> dict[str, ModuleOp]:
        # The tiling strategy, the bias and the search's cache and bar are forward's own.
        return forward_levels(
            p, hw, n, args.tiling, bias=args.bias, use_cache=not args.no_cache, progress=True
        )

    target, levels, compile_seconds = op_levels(levels_of, single, args.hw, cores)
    if args.emit == ASCENDC:
        return emit_ascendc(levels["api"], args, groups=g)
    if args.emit is not None:
        return ir_text(levels[args.emit])
    tiling = _tiling_line(levels["api"])
    as_json = args.report == "json"
    title = problem_title(problem, "forward")
    if args.cost_only:
        result = run(
            ModuleJob(levels["hw"], target, FORWARD_FUNC_NAME, problem=single),
            RunOptions(cost="cost-only", progress=False),
        )
        write_pictures(list(result.costs) * g, args.trace, args.plot, title)
        if as_json:  # every group's launch is the same kernel on its slice: the same cost
            costs = list(result.costs) * g
            return op_json_report(
                problem, target.name, "forward", _tiling(levels["api"]), costs, None, strategy
            )
        cycles = sum(c.cycles for c in result.costs) * g
        return (
            f"problem: {_problem_text(problem)}\ntiling: {tiling}\n"
            f"cost-only: {cycles:,.0f} cycles on {target.name}"
            + (f" ({g} launches, one per group)" if g > 1 else "")
            + "\n"
            + "".join(f"{line}\n" for line in launch_cost_lines(list(result.costs) * g))
            + f"compile {compile_seconds:.2f} s, model {result.run_seconds:.2f} s\n"
        )
    x, w, bias = random_forward_inputs(problem, seed, args.bias)
    res = run_conv3d(
        x,
        w,
        bias,
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
    checked = check_forward(problem, x, w, np.asarray(res.output), bias)
    ok = checked.ok
    text = (
        f"problem: {_problem_text(problem)}\ntiling: {tiling}\n"
        f"cycles: {res.cycles:,.0f} on {target.name}"
        + (f" ({g} launches, one per group)" if g > 1 else "")
        + "\n"
        + "".join(f"{line}\n" for line in launch_cost_lines(res.costs))
        + f"check: max |y - reference| {checked.max_abs_error:.3g} "
        f"({'within' if ok else 'OUTSIDE'} the tolerance)\n"
        f"compile {compile_seconds:.2f} s, simulate {res.run_seconds:.2f} s\n"
    )
    if as_json:
        text = op_json_report(
            problem, target.name, "forward", _tiling(levels["api"]), res.costs, checked, strategy
        )
    if not ok:
        raise ForwardCheckFailed(text)
    return text


def check_output_flags(args: argparse.Namespace) -> None:
    """What an op's command (``forward``, ``bp-input``) refuses of its outputs before anything
    runs: the flags of a run with ``--emit`` (exit 2), a --trace or --plot that cannot be
    written, and ``--emit ascendc`` without its folder."""
    if args.emit:
        check_no_run_flags(args, FORWARD_RUN_FLAGS)
    check_picture_paths(args.trace, args.plot, args.output if args.emit != ASCENDC else None)
    if args.emit == ASCENDC and not args.output:
        raise CliError("--emit ascendc writes a project folder: give it with -o DIR", exit_code=2)


def emit_ascendc(
    api_module: ModuleOp,
    args: argparse.Namespace,
    emit_project: Callable[[ModuleOp, str, str, int], Project] = emit_forward_project,
    groups: int = 1,
) -> str:
    """``--emit ascendc -o DIR``: write the op's project (``emit_project`` of the API-level
    module, the hardware, the command line and the layer's groups; the forward's, or dX's for
    ``bp-input``; a grouped layer's module is one group's, launched once per group); return
    the line that says so."""
    command = shlex.join([PROG, *(sys.argv[1:] if args.argv is None else args.argv)])
    try:
        project = emit_project(api_module, args.hw, command, groups)
        write_project(args.output, project)
    except (EmitError, ProjectWriteError) as e:
        raise CliError(str(e)) from None
    for warning in project.warnings:
        print(f"{PROG}: warning: {warning}", file=sys.stderr)
    return f"wrote {args.output}: {', '.join(sorted(project.files))}\n"


def op_levels(
    levels_of: Callable[[ConvBpFilterShape, HwConfig, int | None], dict[str, ModuleOp]],
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None,
) -> tuple[HwConfig, dict[str, ModuleOp], float]:
    """The target, the levels of one group's ``problem`` and the seconds they took; what the
    compile rejects (unknown hardware, cores out of range) is the user's: one line, exit 1."""
    try:
        target = load_target(hw)
        start = time.perf_counter()
        levels = levels_of(problem, target, cores)
    except PipelineError as e:
        raise CliError(str(e)) from None
    return target, levels, time.perf_counter() - start


def op_json_report(
    problem: ConvBpFilterShape,
    hw: str,
    op: str,
    tiling: Conv3DTiling | Conv3DBpInputTiling | None,
    costs: Sequence[CostReport],
    checked: CheckResult | None,
    strategy: str = "heuristic",
) -> str:
    """``--report json``: the one report of docs/report.schema.json (``op`` forward or
    bp-input), with one group's tiling (every group's launch has it) and the check of the
    derived tolerance (``runtime/reports/check``, as ``ascend-run --check``); null cost-only."""
    document = run_document(
        "ascend-conv",
        hw,
        problem=problem,
        op=op,
        tiling=tiling,
        tiling_strategy=strategy,
        costs=costs,
        check=checked,
        cost_only=checked is None,
    )
    return json.dumps(document, indent=2) + "\n"


def one_group(problem: ConvBpFilterShape) -> ConvBpFilterShape:
    g = problem.groups
    return replace(problem, cin=problem.cin // g, cout=problem.cout // g, groups=1)


def _problem_text(p: ConvBpFilterShape) -> str:
    return problem_line(p, ("x", p.input_shape), ("y", p.grad_output_shape))


def problem_line(
    p: ConvBpFilterShape, source: tuple[str, Sequence[int]], result: tuple[str, Sequence[int]]
) -> str:
    """The report's ``problem:`` line of an op reading ``source`` (its name and shape) and
    the weight and giving ``result`` (shared with ``tools/conv_bp_input.py``)."""
    shape = "x".join
    return (
        f"{source[0]} {shape(map(str, source[1]))} {p.dtype}, "
        f"w {shape(map(str, p.weight_shape))}, stride {list(p.strides)}, pads {list(p.pads)}"
        f", dilation {list(p.dilations)}, groups {p.groups} -> {result[0]} "
        f"{shape(map(str, result[1]))}"
    )


def _tiling(api: ModuleOp) -> Conv3DTiling | None:
    return init_tiling(api, Conv3DInitOp)


def init_tiling(api: ModuleOp, init: type[Operation]) -> Any:
    """The tiling attribute's value of the API-level module's first ``init`` op (the forward's
    or dX's init), None when it has none."""
    for op in api.walk():
        if isinstance(op, init):
            return op.tiling.tiling  # type: ignore[attr-defined]
    return None


def _tiling_line(api: ModuleOp) -> str:
    t = _tiling(api)
    if t is None:
        return "none"
    return (
        f"L0 M/K/N {t.m_l0}/{t.k_l0}/{t.n_l0}, cores batch {t.batch_dim} Do {t.do_dim} "
        f"Co {t.co_dim} M {t.m_dim}"
    )
