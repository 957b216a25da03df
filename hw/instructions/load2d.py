"""``load2d`` (MTE1, A1 -> A2 or B1 -> B2): ``repeat`` whole-fractal copies, Ascend C
``LoadData`` with ``LoadData2DParams``, optionally transposing each 16x16 fractal.

The geometry (:class:`Load2d`) and the spec (:data:`LOAD2D`); the copy itself is
``runtime/machine/semantics.py`` (``load2d_g``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions.base import Access, Bound, BufferOperand, DataInstruction
from ascend_xdsl.hw.isa import FRACTAL_ELEMS, Effects, Pipe, Span, Work, check


@dataclass(frozen=True, slots=True)
class Load2d:
    """``repeat`` whole fractals; fractal ``i`` is read at ``i * src_step`` and written at
    ``i * FRACTAL_ELEMS`` (elements), optionally transposed."""

    repeat: int
    src_step: int
    transpose: bool
    element_bytes: int

    pipe = Pipe.MTE1

    @staticmethod
    @lru_cache(maxsize=1024)
    def decode(repeat: int, src_stride: int, transpose: bool, element_bytes: int) -> Load2d:
        check("load2d", "repeat", repeat)
        check("load2d", "src_stride", src_stride)
        return Load2d(repeat, src_stride * FRACTAL_ELEMS, transpose, element_bytes)

    @property
    def src_elems(self) -> int:
        return (self.repeat - 1) * self.src_step + FRACTAL_ELEMS

    @property
    def dst_elems(self) -> int:
        return self.repeat * FRACTAL_ELEMS

    def effects(self, src_memory: str, src: int, dst_memory: str, dst: int) -> Effects:
        eb = self.element_bytes
        return Effects(
            self.pipe,
            (Span(src_memory, src, src + self.src_elems * eb),),
            (Span(dst_memory, dst, dst + self.dst_elems * eb),),
            Work(bytes=self.dst_elems * eb, rows=self.repeat),
            "load2d",
        )


class Load2dInstruction(DataInstruction):
    name = "load2d"
    pipe = Pipe.MTE1
    operands = (
        "src",
        "src_slot",
        "src_offset",
        "dst",
        "dst_slot",
        "dst_offset",
        "repeat",
        "src_stride",
    )
    properties = ("is_transposed",)
    reads = (Access("src", "src_slot"),)
    writes = (Access("dst", "dst_slot"),)
    roles: ClassVar[dict[str, str]] = {"src": "source", "dst": "destination"}
    timing_operands = ("repeat",)
    msprof_pipe = "mte1"
    colour = "#C44E52"

    def bind(
        self,
        transpose: bool,
        src: BufferOperand,
        src_slot: int,
        src_off: int,
        dst: BufferOperand,
        dst_slot: int,
        dst_off: int,
        repeat: int,
        src_stride: int,
    ) -> Bound:
        g = Load2d.decode(repeat, src_stride, transpose, src.element_bytes)
        s_addr = src.address(src_slot) + src_off * src.element_bytes
        d_addr = dst.address(dst_slot) + dst_off * dst.element_bytes
        return Bound(g, (src.memory, s_addr, dst.memory, d_addr))

    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        rate = figures.load2d_bytes_per_cycle(effects.writes[0].memory)
        return effects.work.bytes / rate + figures.mte1_issue_gap_cycles

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        # A lone load completes LOADPERF's 28 cycles after its bytes are written.
        return float(max(0, figures.load2d_latency_cycles - figures.mte1_issue_gap_cycles))


LOAD2D = Load2dInstruction()
