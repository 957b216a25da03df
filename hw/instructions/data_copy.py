"""``data_copy`` (MTE2, GM -> A1/B1): Ascend C ``DataCopy(local, global, DataCopyParams)``.

The geometry (:class:`DataCopy`: ``count`` runs of ``len`` 32-byte blocks with gaps) and the
spec (:data:`DATA_COPY`: operands, effects, cost). The numpy backend that moves the bytes is
``runtime/machine/semantics.py`` (``data_copy_g``); the exact semantics docs/hw-level-spec.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions.base import (
    Access,
    Bound,
    BufferOperand,
    DataInstruction,
    GmOperand,
)
from ascend_xdsl.hw.isa import BLOCK_BYTES, Effects, Pipe, Span, Work, check


@dataclass(frozen=True, slots=True)
class DataCopy:
    """``count`` runs of ``len`` 32-byte blocks; run ``i`` reads GM from ``i * src_step`` and
    writes from ``i * dst_step`` (bytes, relative to the two start addresses)."""

    count: int
    run: int
    src_step: int
    dst_step: int

    pipe = Pipe.MTE2

    @staticmethod
    @lru_cache(maxsize=4096)
    def decode(count: int, length: int, src_stride: int, dst_stride: int) -> DataCopy:
        for field, v in (
            ("count", count),
            ("len", length),
            ("src_stride", src_stride),
            ("dst_stride", dst_stride),
        ):
            check("data_copy", field, v)
        return DataCopy(
            count,
            length * BLOCK_BYTES,
            (length + src_stride) * BLOCK_BYTES,
            (length + dst_stride) * BLOCK_BYTES,
        )

    @property
    def src_bytes(self) -> int:
        return (self.count - 1) * self.src_step + self.run

    @property
    def dst_bytes(self) -> int:
        return (self.count - 1) * self.dst_step + self.run

    def effects(self, src: int, dst_memory: str, dst: int) -> Effects:
        return Effects(
            self.pipe,
            (Span("GM", src, src + self.src_bytes),),
            (Span(dst_memory, dst, dst + self.dst_bytes),),
            Work(
                bytes=self.count * self.run,
                rows=self.count,
                burst=0 if self.count == 1 or self.src_step == self.run else self.run,
            ),
            "data_copy",
        )


class DataCopyInstruction(DataInstruction):
    name = "data_copy"
    pipe = Pipe.MTE2
    operands = (
        "src",
        "src_offset",
        "dst",
        "dst_slot",
        "dst_offset",
        "block_count",
        "block_len",
        "src_stride",
        "dst_stride",
    )
    reads = (Access("src"),)
    writes = (Access("dst", "dst_slot"),)
    roles: ClassVar[dict[str, str]] = {"src": "GM source", "dst": "destination"}
    gm_offset = 1
    timing_operands = ("block_count", "block_len")
    gm_operand = 0
    msprof_pipe = "mte2"
    colour = "#4C72B0"

    def bind(
        self,
        src: GmOperand,
        src_off: int,
        dst: BufferOperand,
        slot: int,
        dst_off: int,
        *fields: int,
    ) -> Bound:
        """``fields``: count, len, src_stride, dst_stride."""
        g = DataCopy.decode(*fields)
        lo = dst.address(slot) + dst_off * dst.element_bytes
        return Bound(g, (dst.memory, lo), src_off * src.element_bytes)

    def effects(self, bound: Bound) -> Effects:
        memory, lo = bound.chip
        return bound.geometry.effects(bound.gm, memory, lo)  # type: ignore[no-any-return]

    def gm_bytes(self, bound: Bound) -> tuple[int, int]:
        return bound.gm, bound.gm + bound.geometry.src_bytes

    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        # The measured curve is a copy's occupancy on one core alone, per-copy cost included
        # (hw/cost_figures.py); a strided copy moves whole cacheline packages per burst (the
        # vendor's package model). With other cores copying at once, the core's share of L2
        # caps the rate.
        work = effects.work
        moved = figures.mte2_moved_bytes(work.rows, work.burst) if work.burst else work.bytes
        return max(figures.mte2_copy_cycles(moved), moved / gm_share)

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        # What a dependent reader waits beyond the copy's occupancy (GE's GM -> L1 start-up).
        return float(figures.mte2_latency_cycles)


DATA_COPY = DataCopyInstruction()
