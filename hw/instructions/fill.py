"""``fill`` (MTE2, into A1/B1): Ascend C ``Fill`` / ``InitConstValue(local,
InitConstValueParams)`` with ``initValue`` 0, the zeroing of an L1 buffer.

asc-devkit ``docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）/矩阵搬入辅助配置接口/Fill.md``:
``repeatTimes`` runs of ``blockNum`` 32-byte blocks, consecutive runs ``dstGap`` blocks apart;
into L1 it runs on PIPE_MTE2. The input gradient zeroes its A1 window this way before it copies
dy in with gaps between the elements when a stride is above 1 (hicann/asc-devkit
``impl/adv_api/detail/conv_backprop/conv3d_backprop_input/dav_v220/
conv3d_bp_input_mte2_sub_func.h``, ``LoadToA1``: ``InitConstValue(useA1Buf, {1, len >> 5, 0,
0U})``). Only the value 0 is modelled (the one the lowering writes).

The geometry (:class:`Fill`) and the spec (:data:`FILL`); the zeroing itself is
``runtime/machine/semantics.py`` (``fill_g``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions.base import Access, Bound, BufferOperand, DataInstruction
from ascend_xdsl.hw.isa import BLOCK_BYTES, Effects, Pipe, Span, Work, check


@dataclass(frozen=True, slots=True)
class Fill:
    """``repeat`` runs of ``run`` bytes of zeros; run ``i`` starts ``i * step`` bytes after the
    destination address."""

    repeat: int
    run: int
    step: int

    pipe = Pipe.MTE2

    @staticmethod
    @lru_cache(maxsize=256)
    def decode(repeat: int, block_num: int, dst_gap: int) -> Fill:
        check("fill", "repeat", repeat)
        check("fill", "block_num", block_num)
        check("fill", "dst_gap", dst_gap)
        return Fill(repeat, block_num * BLOCK_BYTES, (block_num + dst_gap) * BLOCK_BYTES)

    @property
    def dst_bytes(self) -> int:
        return (self.repeat - 1) * self.step + self.run

    def effects(self, dst_memory: str, dst: int) -> Effects:
        return Effects(
            self.pipe,
            (),
            (Span(dst_memory, dst, dst + self.dst_bytes),),
            Work(bytes=self.repeat * self.run, rows=self.repeat),
            "fill",
        )


class FillInstruction(DataInstruction):
    name = "fill"
    pipe = Pipe.MTE2
    operands = ("dst", "dst_slot", "dst_offset", "repeat", "block_num", "dst_gap")
    reads = ()
    writes = (Access("dst", "dst_slot"),)
    roles: ClassVar[dict[str, str]] = {"dst": "destination"}
    timing_operands = ("repeat", "block_num")
    msprof_pipe = "mte2"
    colour = "#8C8C8C"

    def bind(
        self, dst: BufferOperand, slot: int, dst_off: int, repeat: int, block_num: int, gap: int
    ) -> Bound:
        g = Fill.decode(repeat, block_num, gap)
        return Bound(g, (dst.memory, dst.address(slot) + dst_off * dst.element_bytes))

    def effects(self, bound: Bound) -> Effects:
        memory, lo = bound.chip
        return bound.geometry.effects(memory, lo)  # type: ignore[no-any-return]

    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        # No figure of Fill's own rate is published: it is taken as MTE2 writing the bytes at
        # the copy curve of a contiguous transfer of their size (an assumption; no GM is read,
        # so the core's L2 share does not cap it).
        return figures.mte2_copy_cycles(effects.work.bytes)

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        # Nothing is read from GM: no start-up beyond the occupancy.
        return 0.0


FILL = FillInstruction()
