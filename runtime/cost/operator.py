"""The whole operator's cost: every kernel the host function launches, not only the dW kernel.

A user calls ``conv3d_weight`` (or aclnn's Conv3DBackpropFilter), and the chip runs more than
the dW kernel: the format level's ``ascend.trans_data`` of x and dy into NDC1HWC0, the zeroing
of dW that the kernel's atomic accumulation needs (``ascend.alloc_gm``: aclrtMemset, MemSet in
msprof), and the ``ascend.trans_data`` of dW out of FRACTAL_Z_3D into NCDHW. The forward's y and
dX are written whole by their kernels and allocated uninitialised (``ascend.empty_gm``): no
MemSet for them. Those run on the AI
Vector cores and only move data, so each is costed as a bandwidth-bound kernel: the bytes it
reads and writes over the chip's HBM bandwidth (a TransData at ``transdata_hbm_efficiency`` of
it, a MemSet at all of it), plus the device-side overhead every kernel's duration holds (its
head and tail on the cores, ``kernel_overhead_seconds``). The dW kernel is its launch's cost
report plus the same overhead.

What the kernels add up to is what msprof's ``kernel_details.csv`` sums for an operator, each
kernel's device-side Task Duration, and what cann-bench's measurements are: the host's launch
of a kernel (overlapped with the previous kernel when they queue back to back on one stream) and
the device-side gap between two queued kernels are not in it (docs/cost-model.md).

:func:`operator_cost` walks the host function in program order, so :class:`OperatorCost` lists
the kernels in the order the host launches them (``--trace`` draws that sequence).
docs/cost-model.md ("The whole operator") gives the figures, their fit and its validation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, SSAValue

from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.launch import AllocGmOp, LaunchOp
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.machine.values import np_dtype, placeholder


@dataclass(frozen=True)
class KernelCost:
    """One kernel of the operator: its name, its modelled time and that time in cycles of the
    cube clock."""

    name: str
    seconds: float
    cycles: float
    launch: bool = False
    """True for the dW kernel (an ``ascend.launch``), False for the vector kernels."""
    bytes: int = 0
    """Bytes a vector kernel reads and writes (0 for a launch: its report counts them)."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "seconds": self.seconds, "cycles": self.cycles}


@dataclass(frozen=True)
class OperatorCost:
    """The kernels the host function runs, in order."""

    kernels: tuple[KernelCost, ...]

    @property
    def end_to_end_seconds(self) -> float:
        """The kernels run one after the other on the stream: their device-side durations add
        up (the gaps between them are not counted, as msprof's kernel durations do not)."""
        return sum(k.seconds for k in self.kernels)


def _bytes(t: Attribute) -> int:
    if isinstance(t, GmTensorType):
        return placeholder(t).nbytes
    if isinstance(t, MemRefType):
        return math.prod(t.get_shape()) * np_dtype(t.element_type).itemsize
    raise TypeError(f"no size for type {t}")


def _label(value: SSAValue) -> str:
    return value.name_hint or "tensor"


def vector_kernel(
    figures: CostFigures, name: str, moved_bytes: int, efficiency: float = 1.0
) -> KernelCost:
    """A bandwidth-bound AI Vector kernel that reads and writes ``moved_bytes`` in all, at
    ``efficiency`` of the chip's HBM bandwidth, plus its device-side overhead."""
    seconds = figures.kernel_overhead_seconds + moved_bytes / (
        figures.hbm_bytes_per_second_total * efficiency
    )
    return KernelCost(name, seconds, seconds * figures.clock_hz, bytes=moved_bytes)


def operator_cost(
    entry: func.FuncOp, launches: Sequence[CostReport], figures: CostFigures
) -> OperatorCost:
    """The kernels of the host function ``entry`` in program order: a TransData per
    ``ascend.trans_data``, a MemSet per ``ascend.alloc_gm`` (none per ``ascend.empty_gm``: its
    memory is not zeroed), and per ``ascend.launch`` its report from ``launches`` (in order)
    plus the device-side overhead."""
    kernels: list[KernelCost] = []
    reports = iter(launches)
    for op in entry.body.walk():
        if isinstance(op, TransDataOp):
            src, dst = op.operands[0], op.results[0]
            moved = _bytes(src.type) + _bytes(dst.type)
            plain = src if isinstance(src.type, MemRefType) else dst  # x, dy; dW
            kernels.append(
                vector_kernel(
                    figures, f"TransData {_label(plain)}", moved, figures.transdata_hbm_efficiency
                )
            )
        elif isinstance(op, AllocGmOp):
            kernels.append(
                vector_kernel(figures, f"MemSet {_label(op.result)}", _bytes(op.result.type))
            )
        elif isinstance(op, LaunchOp):
            report = next(reports, None)
            if report is None:
                continue
            seconds = figures.kernel_overhead_seconds + report.seconds
            name = op.callee.string_value()
            kernels.append(KernelCost(name, seconds, seconds * figures.clock_hz, launch=True))
    return OperatorCost(tuple(kernels))
