"""``load_bias`` (MTE1, C1 -> C2): the bias into the bias table, Ascend C
``DataCopy(LocalTensor<float> bt, LocalTensor<U> l1, DataCopyParams)`` with one block run
(hicann/asc-devkit ``DataCopy（L1ToBiasTable-Buffer数据搬运）.md``; the Conv3D API's
``LoadBiasBtTools::LoadBiasBt`` in ``impl/adv_api/detail/conv/conv3d/dav_m220/conv3d_sub_api.h``).

On Atlas A2 the source (L1, position C1) holds half or float and the bias table (position C2)
float: a half bias is widened to float on the copy (the doc's data-type table: src half,
int32_t, float; dst int32_t, float; bfloat16_t is not a source on A2, which is why the Conv3D
API pairs a bfloat16_t input with a float bias). ``len`` counts 64-byte blocks of the source
(the A2/A3 unit of ``blockLen``; ``LoadBiasBt`` sets ``blockLen = CeilDIV(n *
sizeof(BiasT), BT_BLOCK_SIZE = 64)``). The strided form (``blockCount`` > 1 with gaps) is not
modelled: a conv's bias tile is one contiguous run.

The geometry (:class:`LoadBias`), its cost (32 B/cycle on MTE1 plus a 20-cycle latency,
``hw/*.toml``) and the spec (:data:`LOAD_BIAS`); the copy itself is
``runtime/machine/semantics.py`` (``load_bias``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions.base import Access, Bound, BufferOperand, DataInstruction
from ascend_xdsl.hw.isa import Effects, Pipe, Span, Work, check

BT_BLOCK_BYTES = 64
"""Bytes of one ``len`` unit (of the source) on Atlas A2/A3 (``BT_BLOCK_SIZE``)."""

BT_ELEMENT_BYTES = 4
"""The bias table holds float (or int32_t) values."""


@dataclass(frozen=True, slots=True)
class LoadBias:
    """``len`` 64-byte blocks of source elements, each widened to a float in the bias table:
    ``dst[i] = float(src[i])`` for ``i < elems``."""

    len: int
    src_element_bytes: int

    pipe = Pipe.MTE1

    @staticmethod
    @lru_cache(maxsize=256)
    def decode(length: int, src_element_bytes: int) -> LoadBias:
        check("load_bias", "len", length)
        return LoadBias(length, src_element_bytes)

    @property
    def elems(self) -> int:
        """Elements copied (and widened)."""
        return self.len * BT_BLOCK_BYTES // self.src_element_bytes

    def effects(self, src_memory: str, src: int, dst_memory: str, dst: int) -> Effects:
        src_bytes = self.len * BT_BLOCK_BYTES
        dst_bytes = self.elems * BT_ELEMENT_BYTES
        return Effects(
            self.pipe,
            (Span(src_memory, src, src + src_bytes),),
            (Span(dst_memory, dst, dst + dst_bytes),),
            Work(bytes=src_bytes, element_bytes=self.src_element_bytes),
            "load_bias",
        )


class LoadBiasInstruction(DataInstruction):
    name = "load_bias"
    pipe = Pipe.MTE1
    operands = ("src", "src_slot", "src_offset", "dst", "dst_slot", "length")
    reads = (Access("src", "src_slot"),)
    writes = (Access("dst", "dst_slot"),)
    roles: ClassVar[dict[str, str]] = {"src": "source", "dst": "destination"}
    timing_operands = ("length",)
    msprof_pipe = "mte1"
    colour = "#8C8C8C"

    def bind(
        self,
        src: BufferOperand,
        src_slot: int,
        src_off: int,
        dst: BufferOperand,
        dst_slot: int,
        length: int,
    ) -> Bound:
        g = LoadBias.decode(length, src.element_bytes)
        s_addr = src.address(src_slot) + src_off * src.element_bytes
        return Bound(g, (src.memory, s_addr, dst.memory, dst.address(dst_slot)))

    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        # The perf table's rate counts the bytes read from L1 (load_data_perf: N * sizeof).
        return effects.work.bytes / figures.l1_to_bt_bytes_per_cycle

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        return float(figures.l1_to_bt_latency_cycles)


LOAD_BIAS = LoadBiasInstruction()
