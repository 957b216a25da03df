"""``ascend-plan-buffers``: give every local buffer its byte address in its physical memory.

Per kernel function, the ``ascend.alloc_buffer``s of each physical memory (L1 for A1/B1, L0A,
L0B, L0C) are laid out one after the other from address 0, each at the memory's alignment
(L1 32 B, L0A/L0B 512 B, L0C 64 B: ``hw_level.alignment_of``), a buffer's slots back to back at
``slot_stride``. That is how ``Init`` carves the TPipe (``InitTque`` of the hicann/asc-devkit
engine, ``impl/adv_api/detail/conv_backprop/conv3d_backprop_filter/``): the buffers live for the
whole kernel, so there is nothing to reuse. A kernel whose buffers do not fit fails with the
memory, what the buffers need and what there is.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.enums import PhysicalMemory
from ascend_xdsl.dialects.hw_level import (
    AllocBufferOp,
    align_up,
    alignment_of,
    capacity_of,
    slot_stride,
)
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.passes.hardware import load_hw


@dataclass(frozen=True)
class PlanBuffersPass(ModulePass):
    """Assign ``offset`` to every ``ascend.alloc_buffer``, per kernel and physical memory."""

    name = "ascend-plan-buffers"

    hw: str = DEFAULT_HW

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        hw = load_hw(self.hw)
        for kernel in op.walk():
            if not isinstance(kernel, func.FuncOp):
                continue
            by_memory: dict[PhysicalMemory, list[AllocBufferOp]] = defaultdict(list)
            for alloc in kernel.walk():
                if isinstance(alloc, AllocBufferOp):
                    by_memory[alloc.buffer_type.memory].append(alloc)
            for memory, allocs in by_memory.items():
                align = alignment_of(memory, hw)
                capacity = capacity_of(memory, hw)
                address = 0
                layout: list[str] = []
                for alloc in allocs:
                    address = align_up(address, align)
                    size = alloc.num_slots * slot_stride(alloc.buffer_type, hw)
                    alloc.offset = IntegerAttr(address, i64)
                    layout.append(
                        f"{alloc.buffer_type.tposition} {alloc.num_slots}x"
                        f"{slot_stride(alloc.buffer_type, hw)} B"
                    )
                    address += size
                if address > capacity:
                    raise PassFailedException(
                        f"{memory} overflow in @{kernel.sym_name.data}: buffers need {address} B "
                        f"({' + '.join(layout)}), {memory} has {capacity} B"
                    )
