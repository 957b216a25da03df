"""The cost-model interface: given a compiled hardware-level module and the target, predict its
cost report.

A :class:`CostModel` answers the one question a search over tilings asks, "how long does this
program take on this target", without the asker knowing how: xDSL's
``BlockThroughputCostModel`` answers it for a block of instructions, TVM's
``CostModel.predict`` for a batch of schedules; here :meth:`CostModel.predict` takes a whole
hardware-level module (the output of ``lowering/pipeline.compile_levels``'s ``hw`` level) and gives
one :class:`~ascend_xdsl.runtime.cost.report.CostReport` per launch of its entry function.

:data:`COST_ONLY` is the model the tuner and ``ascend-conv --cost-only`` use: the cost-only
mode (``runtime/cost/cost_only.py``: no data, loops extrapolated where their iterations
repeat), which the runner's cost-only jobs (``runtime/runner.py``: ``ascend-conv --cost-only``,
``ascend-run --cost-only``, ``runtime/api.model_cost``) and the tuner all call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.ir.program import find_function
from ascend_xdsl.lowering.build import FUNC_NAME
from ascend_xdsl.runtime.cost.cost_only import cost_only
from ascend_xdsl.runtime.cost.report import CostReport, count_problem_flops
from ascend_xdsl.runtime.machine.budget import Budget


class CostModel(Protocol):
    """Predicts the cost of a compiled hardware-level module on a target."""

    def predict(
        self,
        module: ModuleOp,
        target: HwConfig,
        *,
        entry: str = FUNC_NAME,
        problem: ConvBpFilterShape | None = None,
        max_iterations: int | None = None,
        cycle_limit: float = math.inf,
        budget: Budget | None = None,
    ) -> list[CostReport]:
        """The cost report of every launch of ``entry`` in ``module`` on ``target``, within a
        budget of ``max_iterations`` loop iterations (or ``budget``, when given, with its time
        limit and progress line); with ``problem`` (the dW problem the
        module computes), FLOPs are its formula's. A model may stop with
        ``CycleLimitExceeded`` as soon as a launch is sure to take more than
        ``cycle_limit`` cycles."""
        ...


@dataclass(frozen=True)
class CostOnlyModel:
    """The cost-only mode as a :class:`CostModel` (``runtime/cost/cost_only.py``)."""

    def predict(
        self,
        module: ModuleOp,
        target: HwConfig,
        *,
        entry: str = FUNC_NAME,
        problem: ConvBpFilterShape | None = None,
        max_iterations: int | None = None,
        cycle_limit: float = math.inf,
        budget: Budget | None = None,
    ) -> list[CostReport]:
        function = find_function(module, entry)
        if function is None:
            raise ValueError(f"no function @{entry} in the module")
        reports = cost_only(module, function, target.name, max_iterations, cycle_limit, budget)
        count_problem_flops(reports, problem)
        return reports


COST_ONLY: CostModel = CostOnlyModel()
