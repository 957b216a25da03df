"""The one launch loop: an ``ascend.launch`` runs its kernel once per block, each on a fresh
machine, and (when timed) the cores' timings make the launch's cost report.

Both the full run (the interpreter's ``ascend.launch``, ``runtime/executors/interpreter.py``)
and the cost-only mode (``runtime/cost/cost_only.py``) run launches through
:func:`run_blocks`; they differ only in the machine they make per block (the data machine or
the cost-only one) and in how they run the kernel on it (compiled, or op by op). A block whose
kernel signature equals an earlier block's (cost-only: the same timing-relevant work) takes
that block's timing instead of being run again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from xdsl.ir import Operation

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.runtime.cost.report import CoreCost, CostReport, core_cost, cube_dtype
from ascend_xdsl.runtime.cost.timing import Timeline, l2_share
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.machine import Machine
from ascend_xdsl.runtime.machine.values import GmPlaceholder, GmTensor
from ascend_xdsl.runtime.reports.progress import CoreProgress

MakeMachine = Callable[[int, Timeline | None], Machine]
"""A fresh machine for block ``block``, timed by the timeline when there is one."""


def new_report(
    launch: Operation, hw_name: str, figures: CostFigures, args: Sequence[object]
) -> CostReport:
    """An empty cost report of ``launch`` on ``hw_name`` (the loop adds its cores); its tensor
    bytes are those of the GM operands among ``args``."""
    report = CostReport(hw_name, figures, cube_dtype(launch), 0.0)
    report.tensor_bytes = sum(a.nbytes for a in args if isinstance(a, GmTensor | GmPlaceholder))
    return report


def run_blocks(
    launch: Operation,
    blocks: int,
    budget: Budget,
    make: MakeMachine,
    run: Callable[[Machine], object],
    report: CostReport | None = None,
    progress: bool = False,
    signature: Callable[[int], int] | None = None,
) -> None:
    """Run ``blocks`` blocks of ``launch``: each block on ``make(block, timeline)``, by
    ``run(machine)``, then the machine's end-of-kernel checks; with a ``report``, each core's
    timing is added to it. ``signature(block)``, when given, says which blocks do the same
    timing-relevant work (their timing is taken once)."""
    budget.take(blocks, launch)
    bar = CoreProgress(blocks) if progress else None
    timed: dict[int, tuple[CoreCost, int, int]] = {}
    for block in range(blocks):
        key = signature(block) if signature is not None else None
        if report is not None and key is not None and key in timed:
            first, flops, extrapolated = timed[key]
            report.cores.append(replace(first, block=block))
            report.flops += flops
            report.extrapolated += extrapolated
            continue
        timeline = None
        if report is not None:
            timeline = Timeline(report.figures, l2_share(report.figures, blocks))
        machine = make(block, timeline)
        try:
            run(machine)
            machine.finish()
            if report is not None and timeline is not None:
                cost = core_cost(block, timeline)
                report.cores.append(cost)
                report.flops += timeline.mmad_flops
                report.extrapolated += machine.extrapolated
                if key is not None:
                    timed[key] = (cost, timeline.mmad_flops, machine.extrapolated)
        finally:
            machine.release()  # its memos go now, not at a later cycle collection
        del machine
        if bar is not None:
            bar.update(block + 1)
    if bar is not None:
        bar.close()
