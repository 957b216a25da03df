"""``ascend-conv forward``: build, compile, run and check one forward Conv3D problem.

The same shape flags as ``bp-filter`` (``tools/conv_args.add_problem_flags``): the problem is
``torch.nn.functional.conv3d(x, w)`` of those shapes. It compiles ``ascend.conv3d`` through
every level (``runtime/forward.forward_levels``), and then either prints a level
(``--emit op|format|api|hw``), models the hardware-level program's cost without data
(``--cost-only``), or runs it on seeded random inputs (``--seed``, one launch per group) and
checks y against the exact reference (``runtime/reports/check.check_forward``: the float32
sums' derived tolerance plus the rounding to f16/bf16, what ``ascend-run --check`` uses on a
forward program), printing a short summary. A check outside the tolerance exits with 1.
``--report json`` prints instead the one report of docs/report.schema.json (problem with ``op``
forward, the tiling, the cost of each launch, and that check).

What the forward path does not support yet is refused before anything runs, in one line with
exit code 2: ``--bias`` (the bias table is not lowered), a ``--tiling`` other than
``heuristic``. Its flags (``add_op_flags``), compile (``op_levels``: an unknown ``--hw`` or
``--cores`` out of range in one line, exit 1) and report (``op_json_report``) serve
``ascend-conv bp-input`` too (``tools/conv_bp_input.py``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.api_conv3d import Conv3DInitOp
from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.lowering.build import FORWARD_FUNC_NAME
from ascend_xdsl.lowering.options import PipelineError, load_target
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.forward import forward_levels, run_conv3d
from ascend_xdsl.runtime.reports.check import CheckResult, check_forward
from ascend_xdsl.runtime.reports.document import run_document
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, run
from ascend_xdsl.tools.conv_args import add_problem_flags, problem_from_args
from ascend_xdsl.tools.conv_report import ir_text
from ascend_xdsl.tools.errors import CliError
from ascend_xdsl.tools.flags import add_hw_flag, ints

LEVELS = ("op", "format", "api", "hw")
TYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}


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
    fwd.add_argument("--bias", action="store_true", help="add a bias (not supported yet)")
    fwd.add_argument(
        "--tiling", metavar="heuristic", default="heuristic", help="tiling strategy (heuristic)"
    )
    add_hw_flag(fwd)
    fwd.add_argument("--cores", metavar="N", help="AI cores to use (default: all of --hw)")
    fwd.add_argument("--emit", choices=LEVELS, help="print the IR at this level and stop")
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
    fwd.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")


def forward(args: argparse.Namespace) -> str:
    """Run the ``forward`` command; return what goes to standard output."""
    if args.bias:
        raise CliError(
            "forward: --bias is not supported yet (the bias table is not lowered)", exit_code=2
        )
    if args.tiling != "heuristic":
        raise CliError(
            f"forward: --tiling {args.tiling} is not supported yet (only heuristic)", exit_code=2
        )
    problem = problem_from_args(args)
    cores = None if args.cores is None else ints("--cores", args.cores, (1,), 1)[0]
    (seed,) = ints("--seed", args.seed, (1,), 0)
    g = problem.groups
    single = problem if g == 1 else one_group(problem)
    target, levels, compile_seconds = op_levels(forward_levels, single, args.hw, cores)
    if args.emit is not None:
        return ir_text(levels[args.emit])
    tiling = _tiling_line(levels["api"])
    as_json = args.report == "json"
    if args.cost_only:
        result = run(
            ModuleJob(levels["hw"], target, FORWARD_FUNC_NAME, problem=single),
            RunOptions(cost="cost-only", progress=False),
        )
        if as_json:  # every group's launch is the same kernel on its slice: the same cost
            costs = list(result.costs) * g
            return op_json_report(
                problem, target.name, "forward", _tiling(levels["api"]), costs, None
            )
        cycles = sum(c.cycles for c in result.costs) * g
        return (
            f"problem: {_problem_text(problem)}\ntiling: {tiling}\n"
            f"cost-only: {cycles:,.0f} cycles on {target.name}"
            + (f" ({g} launches, one per group)" if g > 1 else "")
            + f"\ncompile {compile_seconds:.2f} s, model {result.run_seconds:.2f} s\n"
        )
    rng = np.random.default_rng(seed)
    dtype = TYPES[problem.dtype]
    x = rng.standard_normal(problem.input_shape).astype(dtype)
    w = rng.standard_normal(problem.weight_shape).astype(dtype)
    res = run_conv3d(
        x,
        w,
        None,
        problem.strides,
        problem.pads,
        problem.dilations,
        g,
        hw=target,
        cores=cores,
        executor=args.executor,
    )
    # One check for the summary and the report: the derived tolerance of ascend-run --check.
    checked = check_forward(problem, x, w, np.asarray(res.output))
    ok = checked.ok
    text = (
        f"problem: {_problem_text(problem)}\ntiling: {tiling}\n"
        f"cycles: {res.cycles:,.0f} on {target.name}"
        + (f" ({g} launches, one per group)" if g > 1 else "")
        + f"\ncheck: max |y - reference| {checked.max_abs_error:.3g} "
        f"({'within' if ok else 'OUTSIDE'} the tolerance)\n"
        f"compile {compile_seconds:.2f} s, simulate {res.run_seconds:.2f} s\n"
    )
    if as_json:
        text = op_json_report(
            problem, target.name, "forward", _tiling(levels["api"]), res.costs, checked
        )
    if not ok:
        raise ForwardCheckFailed(text)
    return text


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
        tiling_strategy="heuristic",
        costs=costs,
        check=checked,
        cost_only=checked is None,
    )
    return json.dumps(document, indent=2) + "\n"


def one_group(problem: ConvBpFilterShape) -> ConvBpFilterShape:
    g = problem.groups
    return replace(problem, cin=problem.cin // g, cout=problem.cout // g, groups=1)


def _problem_text(p: ConvBpFilterShape) -> str:
    return (
        f"x {'x'.join(map(str, p.input_shape))} {p.dtype}, w {'x'.join(map(str, p.weight_shape))}"
        f", stride {list(p.strides)}, pads {list(p.pads)}, dilation {list(p.dilations)}, "
        f"groups {p.groups} -> y {'x'.join(map(str, p.grad_output_shape))}"
    )


def _tiling(api: ModuleOp) -> Conv3DTiling | None:
    for op in api.walk():
        if isinstance(op, Conv3DInitOp):
            return op.tiling.tiling
    return None


def _tiling_line(api: ModuleOp) -> str:
    t = _tiling(api)
    if t is None:
        return "none"
    return (
        f"L0 M/K/N {t.m_l0}/{t.k_l0}/{t.n_l0}, cores batch {t.batch_dim} Do {t.do_dim} "
        f"Co {t.co_dim} M {t.m_dim}"
    )
