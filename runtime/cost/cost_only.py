"""Cost-only mode: the timing of a launch without its data, with loops aggregated.

A full run times every instruction while it moves the data (``runtime/machine/core.py`` hands the
effects to the timing backend). The layers worth tuning are too big for that: the inputs of
8×512×16×112×112 alone are 2 GB and its kernel executes tens of millions of instructions. This
mode allocates no tensor data and no core memory:

* each block runs on a :class:`~ascend_xdsl.runtime.cost.cost_core.CostCore`, the machine
  without data: it binds every instruction through its spec, checks its byte ranges against
  the memories and GM tensors and gives its effects to the core's
  :class:`~ascend_xdsl.runtime.cost.timing.Timeline`; flags go through the same flag model;
* the kernel runs through the compiled executor with ``aggregate``: every ``scf.for`` without
  loop-carried values iterates through ``CostCore.loop``, which extrapolates the iterations
  whose timing repeats (``runtime/cost/cost_core.py``);
* the host function is not interpreted: each ``ascend.launch`` of the entry is run on GM
  placeholders of its operands' types (``runtime/machine/values.py``, ``GmPlaceholder``),
  through the one launch loop (``runtime/executors/launch.py``).

Where both can run, the result agrees with the full run's exact timeline
(``tests/test_cost_only.py`` checks a matrix within 1 %). Inside an extrapolated span the
critical path sees one slice per pipe for the whole span (``Slice.op`` is None there).
"""

from __future__ import annotations

import math
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl import hw
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.ir import collector
from ascend_xdsl.runtime.cost.cost_core import CostCore, CycleLimitExceeded
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.cost.timing import Timeline
from ascend_xdsl.runtime.executors import compiled
from ascend_xdsl.runtime.executors.launch import new_report, run_blocks
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.machine import Machine
from ascend_xdsl.runtime.machine.values import GmPlaceholder, placeholder

__all__ = ["CycleLimitExceeded", "GmPlaceholder", "cost_only", "launches", "placeholder"]


def launches(entry: func.FuncOp) -> list[LaunchOp]:
    """The ``ascend.launch`` ops an entry function runs, in order (at its top level)."""
    found = [op for op in entry.walk() if isinstance(op, LaunchOp)]
    for op in found:
        if op.parent_op() is not entry:
            raise ValueError(
                "cost-only runs the launches at the top level of the entry function; "
                f"@{op.callee.string_value()} is launched inside {op.parent_op().name}"
            )
    return found


def cost_only(
    module: ModuleOp,
    entry: func.FuncOp,
    hw_name: str = hw.DEFAULT_HW,
    max_iterations: int | None = None,
    cycle_limit: float = math.inf,
    budget: Budget | None = None,
) -> list[CostReport]:
    """The cost report of every launch of ``entry``, without running its data, within a
    budget of ``max_iterations`` loop iterations (``runtime/machine/budget.py``; or ``budget``,
    when given, with its time limit and progress line). A launch sure to
    take more than ``cycle_limit`` cycles (a core's pipe busy past it: the makespan is at least
    that) raises :class:`CycleLimitExceeded` as soon as that is known, at a loop iteration or
    a core's end: a search that only asks "faster than the best so far?" stops there."""
    target = hw.load(hw_name)
    if budget is None:
        budget = Budget(max_iterations)
    try:
        with collector.paused():
            return [_cost_launch(module, op, target, budget, cycle_limit) for op in launches(entry)]
    except CycleLimitExceeded as stop:
        # Without the stopped run's traceback: its frames held the core, the compiled loops'
        # generators and the launch's memos for as long as the caller kept the exception.
        raise stop.with_traceback(None) from None


def _cost_launch(
    module: ModuleOp, op: LaunchOp, target: HwConfig, budget: Budget, cycle_limit: float
) -> CostReport:
    args: list[GmPlaceholder] = []
    for operand in op.operands:
        if not isinstance(operand.type, GmTensorType):
            raise ValueError(f"cost-only needs GM tensors as launch operands, got {operand.type}")
        args.append(placeholder(operand.type))
    kernel = compiled.kernel_of(module, op.callee.string_value(), target, aggregate=True)
    kernel.budget_cell[0] = budget
    report = new_report(op, target.name, cost_figures(target.name), args)
    replays: dict[tuple[Any, ...], Any] = {}
    bounded: dict[Any, Any] = {}

    def make(block: int, timeline: Timeline | None) -> Machine:
        core = CostCore(block, target, None, timeline, budget, cycle_limit)
        core.replays = replays  # timed iterations are shared by the cores of a launch
        core.share_bounds(bounded)  # and so are the bounds checked
        return core

    def run(core: Machine) -> None:
        kernel.run(core, args)

    run_blocks(op, op.blocks.value.data, budget, make, run, report, signature=kernel.signature)
    return report
