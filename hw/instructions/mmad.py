"""``mmad`` (M, L0A x L0B -> L0C): ``C (+)= A @ B`` on the Cube, Ascend C
``Mmad(c, a, b, MmadParams)``, or ``Mmad(c, a, b, bias, MmadParams)`` with a bias table.

The bias-init mode: an mmad with ``init`` and a bias operand (a float slot of the bias table,
position C2) starts C from the bias broadcast over M, ``C[r, c] = bias[c] + (A @ B)[r, c]``,
instead of from zero; without ``init`` the bias is not read. It is the Conv3D API's first
``Mad`` of an L0C tile with a bias (``MmadParams.cmatrixInitVal = false``,
``cmatrixSource = true``: hicann/asc-devkit ``impl/adv_api/detail/conv/conv3d/dav_m220/
conv3d_sub_api.h``, ``MMadTools::Mad``; docs ``Mmad.md``). It reads the bias of the N fractals
it writes, ``n1 * 16`` floats; it costs what the mmad costs (the bias enters with the C
initialisation, no extra pass over the fractals).

The geometry (:class:`Mmad`: the fractal counts of A Zz, B Zn and C Nz), the Cube's cycle rule
(:func:`mmad_cycles`) and the spec (:data:`MMAD`); the product itself is
``runtime/machine/semantics.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions.base import Access, Bound, BufferOperand, DataInstruction
from ascend_xdsl.hw.intmath import ceil_div
from ascend_xdsl.hw.isa import ACC_BYTES, FRACTAL, FRACTAL_ELEMS, Effects, Pipe, Span, Work, check


def fractals(v: int) -> int:
    """Whole 16-element fractal rows/columns covering ``v``."""
    return ceil_div(v, FRACTAL)


@dataclass(frozen=True, slots=True)
class Mmad:
    """``C[:m, :n] (+)= A[:m, :k] @ B[:k, :n]``: A Zz (M1, K1, 16, 16), B Zn (K1, N1, 16, 16),
    C Nz (N1, M1, 16, 16) float32, each from element 0 of its slot."""

    m: int
    n: int
    k: int
    m1: int
    n1: int
    k1: int
    element_bytes: int

    pipe = Pipe.M

    @staticmethod
    @lru_cache(maxsize=4096)
    def decode(m: int, n: int, k: int, element_bytes: int) -> Mmad:
        check("mmad", "m", m)
        check("mmad", "n", n)
        check("mmad", "k", k)
        return Mmad(m, n, k, fractals(m), fractals(n), fractals(k), element_bytes)

    @property
    def a_elems(self) -> int:
        return self.m1 * self.k1 * FRACTAL_ELEMS

    @property
    def b_elems(self) -> int:
        return self.k1 * self.n1 * FRACTAL_ELEMS

    @property
    def c_elems(self) -> int:
        return self.n1 * self.m1 * FRACTAL_ELEMS

    @property
    def bias_elems(self) -> int:
        """Floats of the bias table the bias-init mode reads: one per column of C's fractals."""
        return self.n1 * FRACTAL

    def effects(
        self,
        a: tuple[str, int],
        b: tuple[str, int],
        c: tuple[str, int],
        init: bool,
        bias: tuple[str, int] | None = None,
    ) -> Effects:
        eb = self.element_bytes
        (am, a0), (bm, b0), (cm, c0) = a, b, c
        c_span = Span(cm, c0, c0 + self.c_elems * ACC_BYTES)
        reads: tuple[Span, ...] = (
            Span(am, a0, a0 + self.a_elems * eb),
            Span(bm, b0, b0 + self.b_elems * eb),
        )
        if init and bias is not None:
            reads = (*reads, Span(bias[0], bias[1], bias[1] + self.bias_elems * ACC_BYTES))
        return Effects(
            self.pipe,
            reads if init else (*reads, c_span),
            (c_span,),
            Work(m=self.m, n=self.n, k=self.k, element_bytes=eb),
            "mmad",
        )


def mmad_cycles(figures: CostFigures, m: int, n: int, k: int, element_bytes: int) -> int:
    """Cube cycles of one mmad: whole 16x16 fractals of C, each over ``K0``-deep steps, at
    ``cube_macs_per_cycle`` (4096 MACs = 16x16x16 for 16-bit types), plus the head overhead."""
    dtype = "f32" if element_bytes == 4 else "f16"
    k0 = figures.cube_macs_per_cycle(dtype) // (FRACTAL * FRACTAL)
    return ceil_div(m, FRACTAL) * ceil_div(n, FRACTAL) * ceil_div(k, k0) + (
        figures.mmad_overhead_cycles
    )


class MmadInstruction(DataInstruction):
    name = "mmad"
    pipe = Pipe.M
    operands = (
        "a",
        "a_slot",
        "b",
        "b_slot",
        "c",
        "c_slot",
        "m",
        "n",
        "k",
        "init",
        "bias",
        "bias_slot",
    )
    reads = (
        Access("a", "a_slot"),
        Access("b", "b_slot"),
        Access("c", "c_slot", "init"),
        Access("bias", "bias_slot", only_if_true="init"),
    )
    writes = (Access("c", "c_slot"),)
    roles: ClassVar[dict[str, str]] = {"a": "A", "b": "B", "c": "C", "bias": "bias"}
    timing_operands = ("m", "n", "k")
    msprof_pipe = "cube"
    colour = "#55A868"

    def bind(
        self,
        a: BufferOperand,
        a_slot: int,
        b: BufferOperand,
        b_slot: int,
        c: BufferOperand,
        c_slot: int,
        m: int,
        n: int,
        k: int,
        init: bool,
        bias: BufferOperand | None = None,
        bias_slot: int | None = None,
    ) -> Bound:
        """``bias``/``bias_slot``: the bias table slot of the bias-init mode (None: none)."""
        g = Mmad.decode(m, n, k, a.element_bytes)
        addresses = (a.address(a_slot), b.address(b_slot), c.address(c_slot))
        chip = (a.memory, b.memory, c.memory, *addresses, bool(init))
        if bias is not None:
            assert bias_slot is not None
            chip = (*chip, bias.memory, bias.address(bias_slot))
        return Bound(g, chip)

    def effects(self, bound: Bound) -> Effects:
        am, bm, cm, a0, b0, c0, init = bound.chip[:7]
        bias = (bound.chip[7], bound.chip[8]) if len(bound.chip) > 7 else None
        return bound.geometry.effects((am, a0), (bm, b0), (cm, c0), init, bias)  # type: ignore[no-any-return]

    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        w = effects.work
        return float(mmad_cycles(figures, w.m, w.n, w.k, w.element_bytes))

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        # A lone Mmad completes mmad_startup_latency_cycles after its fractals (msKPP 910b3),
        # of which mmad_overhead_cycles are occupancy.
        return float(max(0, figures.mmad_startup_latency_cycles - figures.mmad_overhead_cycles))


MMAD = MmadInstruction()
