"""What ``ascend-conv bp-filter`` prints: the IR of a level, the summary, the JSON report.

The summary says what was compiled (problem, target, cores and their split, tiling, ops per
level), how it ran (seed, time, the reference check) or that only its cost was modelled, and
the cost model's lines, with what to do about them: the instruction and operand the critical
path waits on most (``critical_step``), and what ``--tiling tuned`` gains when the tuning cache
already holds its answer (``tuned_gain``: read from the cache, never searched for).
``--report json`` is the report of docs/report.schema.json. Both are built from the runner's
result (``runtime/runner.RunResult``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.printer import Printer

from ascend_xdsl.dialects.api_level import GetTensorCOp, SetGradOutputOp, SetInputOp
from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import ITERATE_ORDER_M, DwTiling
from ascend_xdsl.dialects.hw_data_ops import DataCopyOp, Load3dOp
from ascend_xdsl.dialects.types import LocalTensorType
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.ir.program import op_count, tiling_of_module
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.runtime.cost.report import MSPROF_NAMES, CostReport, critical_ops
from ascend_xdsl.runtime.reports.check import CheckResult
from ascend_xdsl.runtime.reports.document import run_document
from ascend_xdsl.runtime.runner import RunResult
from ascend_xdsl.tuning.cached_search import cached


def ir_text(module: ModuleOp) -> str:
    """The module in the custom syntax, exactly as ``ascend-opt`` prints it."""
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue().rstrip("\n") + "\n"


def tiling_of(modules: dict[str, ModuleOp]) -> DwTiling:
    """The tiling the compiler chose (the ``ascend.init`` of the API-level kernel)."""
    tiling = tiling_of_module(modules["api"])
    assert tiling is not None, "the API level of a compiled problem has an ascend.init"
    return tiling


def tiling_text(api_module: ModuleOp) -> str:
    """``--emit tiling``: the tiling of the API level as one ``#ascend.dw_tiling<...>`` line."""
    out = StringIO()
    Printer(stream=out).print_attribute(DwTilingAttr(tiling_of({"api": api_module})))
    return out.getvalue() + "\n"


def _dims(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape))


def tensor_names(modules: dict[str, ModuleOp]) -> dict[int, str]:
    """The kernel's GM arguments by position: ``x``, ``dy`` and ``dW``, as the API-level
    kernel uses them (the hardware level keeps the kernel's signature)."""
    names: dict[int, str] = {}
    roles = ((SetInputOp, "x"), (SetGradOutputOp, "dy"), (GetTensorCOp, "dW"))
    for op in modules["api"].walk():
        for kind, name in roles:
            if isinstance(op, kind) and isinstance(op.tensor, BlockArgument):
                names[op.tensor.index] = name
    return names


def _source(value: SSAValue, names: dict[int, str]) -> str:
    """What a buffer or GM tensor holds: the GM tensor a kernel argument is, or the tensor the
    data_copy ops that fill the buffer read."""
    if isinstance(value, BlockArgument):
        return names.get(value.index, f"argument {value.index}")
    filled = {
        _source(use.operation.src, names)
        for use in value.uses
        if isinstance(use.operation, DataCopyOp) and use.operation.dst is value
    }
    return " and ".join(sorted(filled)) or "a buffer"


def _memory(value: SSAValue, names: dict[int, str]) -> str:
    t = value.type
    return str(t.tposition.memory) if isinstance(t, LocalTensorType) else _source(value, names)


def describe_step(op: Operation, names: dict[int, str]) -> str:
    """An instruction in words, with what it moves: ``the load3d into L0B (img2col of x)``."""
    kind = op.name.removeprefix("ascend.")
    src, dst = getattr(op, "src", None), getattr(op, "dst", None)
    if isinstance(op, Load3dOp):
        what = _source(op.src, names)
        what = f"img2col of {what}" if op.kernel_hw != (1, 1) else what
        what += ", transposed" if op.is_transposed else ""
        return f"the {kind} into {_memory(op.dst, names)} ({what})"
    if isinstance(src, SSAValue) and isinstance(dst, SSAValue):
        return f"the {kind} of {_source(src, names)} into {_memory(dst, names)}"
    c = getattr(op, "c", None)
    if isinstance(c, SSAValue):  # the mmad: A times B into C
        return f"the {kind} into {_memory(c, names)}"
    return f"the {kind}"


def critical_step(result: RunResult) -> str | None:
    """The instruction the slowest core's critical path waits on most, among those of the pipe
    it waits on: ``the load3d into L0B (img2col of x), 62% of the critical path``."""
    cost = result.cost
    if cost is None or "api" not in result.modules:
        return None
    core = cost.slowest
    if core.timeline is None:
        return None
    steps = critical_ops(core.timeline)
    on_bottleneck = [s for s in steps if MSPROF_NAMES.get(s.pipe) == cost.bottleneck]
    if not on_bottleneck:
        return None
    top = on_bottleneck[0]
    total = sum(core.critical.values()) or 1.0
    what = describe_step(top.op, tensor_names(result.modules))
    return f"{what}, {top.cycles / total:.0%} of the critical path"


def tuned_gain(result: RunResult, options: CompileOptions) -> str | None:
    """What ``--tiling tuned`` would gain over this run, when the tuning cache holds the answer
    for this layer, hardware and cores (never searched for here): ``--tiling tuned gives
    1.30x (44,684 -> 34,372 cycles, from the tuning cache)``; None without a cached answer."""
    cost, problem = result.cost, result.problem
    if cost is None or problem is None or "api" not in result.modules:
        return None
    hit = cached(problem, options.hw.name, options.cores)
    if hit is None:
        return None
    tiling = tiling_of(result.modules)
    if tiling == hit.tuned:
        return "this is the tuned tiling (from the tuning cache)"
    # The cached scores are cost-only; against this run's own tiling when it is the
    # heuristic's, so a full run's slightly different cycles do not blur the ratio.
    base = hit.heuristic_score.cycles if tiling == hit.heuristic else cost.cycles
    tuned = hit.tuned_score.cycles
    return (
        f"--tiling tuned gives {base / tuned:.2f}x ({base:,.0f} -> {tuned:,.0f} cycles, "
        "from the tuning cache)"
    )


def launch_cost_lines(costs: Sequence[CostReport]) -> list[str]:
    """The cost model's lines of the ``forward`` and ``bp-input`` summaries: those of the
    ``bp-filter`` summary (:meth:`CostReport.summary_lines`: modelled time, TFLOP/s, bound,
    pipes, critical path, cores, end to end), of the last launch. A grouped forward or dX runs
    one launch per group, each the same kernel on its slice: a line says so and the launch's
    lines follow, indented."""
    if not costs:
        return []
    lines = costs[-1].summary_lines()
    if len(costs) == 1:
        return lines
    head = f"each of the {len(costs)} launches (one per group, the same kernel), the last:"
    return [head, *(f"  {line}" for line in lines)]


def summary(
    result: RunResult,
    hw: HwConfig,
    tiling_strategy: str,
    check: CheckResult | None,
    options: CompileOptions | None = None,
) -> str:
    """A short account of what was compiled, how it ran and how right it is (``check``; None
    for a cost-only run), what the cost model makes of it and, with the compile ``options``,
    what ``--tiling tuned`` would gain (from the tuning cache only)."""
    problem = result.problem
    assert problem is not None
    t = tiling_of(result.modules)
    split = [f"{axis} {dim}" for axis, dim in t.core_split()]
    order = "M (A1 resident)" if t.iterate_order == ITERATE_ORDER_M else "N (B1 resident)"
    levels = " -> ".join(f"{level} ({op_count(m)} ops)" for level, m in result.modules.items())
    if check is not None:
        ran = [
            f"  ran the hw program on seeded random inputs (seed {result.seed}) in "
            f"{result.run_seconds:.2f} s",
            f"  check against the reference in {check.seconds:.2f} s: {check.describe()}",
            *([f"  {check.standard.describe()}"] if check.standard is not None else []),
        ]
    else:
        ran = [f"  cost only: modelled without running the data in {result.run_seconds:.2f} s"]
    cost = result.cost
    cost_lines = cost.summary_lines() if cost else []
    hints = [critical_step(result), tuned_gain(result, options) if options else None]
    if cost_lines:
        step, gain = hints
        cost_lines[1:1] = [
            *([f"waits most on {step}"] if step else []),
            *([gain] if gain else []),
        ]
    return "\n".join(
        [
            f"Conv3DBackpropFilter (dW), {problem.dtype}",
            f"  x {_dims(problem.input_shape)}  dy {_dims(problem.grad_output_shape)}  "
            f"dW {_dims(problem.weight_shape)} f32",
            f"  strides {list(problem.strides)}  pads {list(problem.pads)}  "
            f"dilations {list(problem.dilations)}  groups {problem.groups}",
            f"  target {hw.name} ({hw.aic_count} AI cores, using {t.core_num}: "
            f"{' x '.join(split) or 'no split'})  tiling {tiling_strategy}",
            f"  tiles base M/K/N {t.base_m}/{t.base_k}/{t.base_n}, step M/N/Ka/Kb "
            f"{t.step_m}/{t.step_n}/{t.step_ka}/{t.step_kb}, order {order}, "
            f"L0C buffers {t.cl0_pbuffer}",
            f"  compiled in {result.compile_seconds:.2f} s: {levels}",
            *ran,
            *(f"  {line}" for line in cost_lines),
            "",
        ]
    )


def json_report(
    problem: ConvBpFilterShape,
    hw: HwConfig,
    result: RunResult,
    check: CheckResult | None,
    tiling_strategy: str,
) -> str:
    """``--report json``: the one report of docs/report.schema.json (``runtime/reports/
    document.py``), with the tiling compiled and the check (null with ``--cost-only``)."""
    report = run_document(
        "ascend-conv",
        hw.name,
        problem=problem,
        tiling=tiling_of(result.modules),
        tiling_strategy=tiling_strategy,
        costs=result.costs,
        check=check,
        cost_only=check is None,
    )
    return json.dumps(report, indent=2) + "\n"
