"""``fixpipe`` (FIX, CO1 -> GM): NZ -> NZ float32, optionally an atomic add, Ascend C
``Fixpipe(global, local, FixpipeParamsV220)`` with CFG_NZ; or, into a half / bfloat16_t GM
tensor, the quantising mode (``quantPre`` F322F16 / F322BF16, asc-devkit Fixpipe.md: the
float32 accumulator rounded to nearest even on the way out, the forward conv's output).

The geometry (:class:`Fixpipe`) and the spec (:data:`FIXPIPE`); the copy itself is
``runtime/machine/semantics.py`` (``fixpipe_g``).
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
from ascend_xdsl.hw.isa import ACC_BYTES, BLOCK_BYTES, FRACTAL, Effects, Pipe, Span, Work, check


@dataclass(frozen=True, slots=True)
class Fixpipe:
    """NZ -> NZ: ``n / 16`` blocks of ``m`` rows of 16 float32; block ``j`` is read at
    ``j * src_step`` and written at ``j * dst_step`` (elements), added with ``atomic``."""

    m: int
    n: int
    blocks: int
    src_step: int
    dst_step: int
    atomic: bool
    dst_bytes: int = ACC_BYTES
    """Bytes of a destination element: 4 (float32 out), 2 (quantised to half / bfloat16_t)."""

    pipe = Pipe.FIX

    @staticmethod
    @lru_cache(maxsize=1024)
    def decode(
        m: int, n: int, src_stride: int, dst_stride: int, atomic: bool, dst_bytes: int = ACC_BYTES
    ) -> Fixpipe:
        check("fixpipe", "n", n)
        check("fixpipe", "m", m)
        check("fixpipe", "src_stride", src_stride)
        check("fixpipe", "dst_stride", dst_stride)
        return Fixpipe(
            m,
            n,
            n // FRACTAL,
            src_stride * FRACTAL,
            dst_stride * (BLOCK_BYTES // dst_bytes),
            atomic,
            dst_bytes,
        )

    @property
    def run(self) -> int:
        """Elements of one block (``m`` rows of 16)."""
        return self.m * FRACTAL

    def gm_runs(self, dst: int) -> tuple[Span, ...]:
        """The GM bytes it writes from byte ``dst``, block by block (its effects give only
        their extent): what the sanitizer compares between cores."""
        eb = self.dst_bytes
        run = self.run * eb
        return tuple(
            Span("GM", dst + j * self.dst_step * eb, dst + j * self.dst_step * eb + run)
            for j in range(self.blocks)
        )

    @property
    def src_elems(self) -> int:
        return (self.blocks - 1) * self.src_step + self.run

    @property
    def dst_elems(self) -> int:
        return (self.blocks - 1) * self.dst_step + self.run

    def effects(self, src_memory: str, src: int, dst: int) -> Effects:
        return Effects(
            self.pipe,
            (Span(src_memory, src, src + self.src_elems * ACC_BYTES),),
            (Span("GM", dst, dst + self.dst_elems * self.dst_bytes),),
            Work(bytes=self.m * self.n * ACC_BYTES, m=self.m, n=self.n),
            "fixpipe",
        )


class FixpipeInstruction(DataInstruction):
    name = "fixpipe"
    pipe = Pipe.FIX
    operands = ("src", "src_slot", "dst", "dst_offset", "m", "n", "src_stride", "dst_stride")
    properties = ("is_atomic",)
    reads = (Access("src", "src_slot"),)
    writes = (Access("dst"),)
    roles: ClassVar[dict[str, str]] = {"src": "source", "dst": "GM destination"}
    gm_offset = 3
    timing_operands = ("m", "n")
    gm_operand = 2
    msprof_pipe = "fixpipe"
    colour = "#8172B3"

    def bind(
        self,
        atomic: bool,
        src: BufferOperand,
        slot: int,
        dst: GmOperand,
        dst_off: int,
        m: int,
        n: int,
        src_stride: int,
        dst_stride: int,
    ) -> Bound:
        g = Fixpipe.decode(m, n, src_stride, dst_stride, atomic, dst.element_bytes)
        return Bound(g, (src.memory, src.address(slot)), dst_off * dst.element_bytes)

    def effects(self, bound: Bound) -> Effects:
        memory, addr = bound.chip
        return bound.geometry.effects(memory, addr, bound.gm)  # type: ignore[no-any-return]

    def gm_writes(self, bound: Bound) -> tuple[Span, ...]:
        return bound.geometry.gm_runs(bound.gm)  # type: ignore[no-any-return]

    def atomic(self, bound: Bound) -> bool:
        return bool(bound.geometry.atomic)

    def gm_bytes(self, bound: Bound) -> tuple[int, int]:
        g = bound.geometry
        return bound.gm, bound.gm + g.dst_elems * g.dst_bytes

    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        size = effects.work.bytes
        rate = figures.fixpipe_bytes_per_cycle(size)
        if any(span.memory == "GM" for span in effects.writes):
            rate = min(rate, gm_share)
        return size / rate

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        return float(figures.fixpipe_latency_cycles)


FIXPIPE = FixpipeInstruction()
