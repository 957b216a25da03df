"""The hardware figures of the cost model, typed, from the hardware descriptions (``*.toml``).

:func:`cost_figures` turns one description's figures into a :class:`CostFigures`: the throughput
and fixed latency of each pipe's instructions, the memory bandwidths and the clock, in cycles of
the cube clock and in bytes. The timing engine (``runtime/``) times the instructions of
``isa.py`` with these; reports name their figures through :meth:`CostFigures.figure`, which gives
each one's value, unit, source and kind. Which figure was chosen where sources disagree, and why,
is docs/cost-model.md ("Figures") and each figure's ``note``.

Like the rest of this package it is pure data: it imports nothing of ours outside ``hw``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise

from ascend_xdsl.hw import Figure, HwConfig, load

GIB = 2**30
"""Bytes of the msKPP tables' "GB" (their totalData is in units of 2**30 bytes)."""

MTE2_POINTS: tuple[tuple[int, str], ...] = tuple(
    (kb * 1024, f"mte2_gibps_{kb}kb") for kb in (1, 4, 8, 16, 32, 128, 256, 512)
)
"""The measured points of the GM -> L1 bandwidth curve (every row of msKPP's table): transfer
bytes -> the figure (GiB/s)."""

LOAD3D_POWER_OF_TWO_STRIDES = frozenset({2, 4, 8})
"""The strideW values Table 4 of the Cube perf doc gives a formula for (other strides > 1 run at
the floor rate)."""

_B16 = ("f16", "bf16")
_F32 = ("f32",)


@dataclass(frozen=True)
class CostFigures:
    """The cost figures of one hardware description (per AI Cube core unless named ``total``)."""

    clock_hz: float
    cores: int
    mmad_overhead_cycles: int
    load2d_latency_cycles: int
    load3d_latency_cycles: int
    fixpipe_bytes_per_cycle: float
    fixpipe_latency_cycles: int
    mte2_latency_cycles: int
    l2_bytes_per_cycle_per_core: float
    hbm_bytes_per_cycle_per_core: float
    hbm_bytes_per_second_total: float
    l2_bytes_per_second_total: float
    l2_size: int
    flag_latency_cycles: int
    scalar_op_cycles: int
    pipe_queue_depth: int
    """Instructions a pipe's queue holds; the scalar unit stalls when it is full."""
    _config: HwConfig = field(repr=False, compare=False)

    # -- Cube ---------------------------------------------------------------------------------

    def cube_macs_per_cycle(self, dtype: str) -> int:
        """Multiply-accumulates per cycle of the Cube for operands of ``dtype`` ("f16", "bf16",
        "f32")."""
        if dtype in _B16:
            return self._int("cube_macs_per_cycle_b16")
        if dtype in _F32:
            return self._int("cube_macs_per_cycle_f32")
        raise ValueError(f"no Cube throughput for dtype '{dtype}' (one of f16, bf16, f32)")

    def peak_flops(self, dtype: str) -> float:
        """Dense peak FLOP/s of the chip: cores x clock x 2 x MACs per cycle."""
        return self.cores * self.clock_hz * 2 * self.cube_macs_per_cycle(dtype)

    # -- MTE1 ---------------------------------------------------------------------------------

    def load2d_bytes_per_cycle(self, memory: str) -> float:
        """Bytes per cycle of a 2-D LoadData from L1 into ``memory`` ("L0A" or "L0B")."""
        return float(self._int(f"load2d_{self._l0(memory)}_bytes_per_cycle"))

    def load3d_bytes_per_cycle(self, memory: str, stride_w: int, kernel_rows: int) -> float:
        """Bytes per cycle of a Load3D v2 (img2col) from L1 into ``memory`` ("L0A" or "L0B"),
        for a W stride ``stride_w`` and ``kernel_rows`` rows the kernel slides over in H: Table
        4 of the Cube perf doc (hicann/asc-devkit docs/zh/api/附录/Cube指令理论性能汇总.md).

        L0A: 256 at strideW = 1 and n = 1; floor(512 / (n + 2)) at strideW = 1;
        floor(512 / (2 strideW [+ n])) at strideW in {2, 4, 8}; never below 32, and 32 for any
        other strideW. L0B: 128; floor(512 / (n + 4)); floor(512 / (2 strideW + 2 [+ n])); never
        below floor(512 / 18) = 28, and 28 for any other strideW."""
        if stride_w < 1 or kernel_rows < 1:
            raise ValueError(
                f"load3d needs stride_w >= 1 and kernel_rows >= 1, got {stride_w}, {kernel_rows}"
            )
        l0 = self._l0(memory)
        floor_rate = self._int(f"load3d_{l0}_min_bytes_per_cycle")
        num = self._int("load3d_numerator_bytes")
        n = kernel_rows
        if stride_w == 1:
            if n == 1:
                return float(self._int(f"load3d_{l0}_peak_bytes_per_cycle"))
            denom = n + self._int(f"load3d_{l0}_row_offset")
        elif stride_w in LOAD3D_POWER_OF_TWO_STRIDES:
            denom = self._int("load3d_stride_factor") * stride_w + (n if n > 1 else 0)
            if l0 == "l0b":
                denom += self._int("load3d_l0b_stride_offset")
        else:
            return float(floor_rate)
        return float(max(num // denom, floor_rate))

    # -- MTE2 ---------------------------------------------------------------------------------

    def mte2_bytes_per_cycle(self, transfer_bytes: int) -> float:
        """Bytes per cycle of one GM -> L1 DataCopy of ``transfer_bytes`` on one core alone (L2
        hits): msKPP's measured curve, log-linear in the transfer size between its points and
        clamped outside them, in GiB/s converted with the clock."""
        if transfer_bytes <= 0:
            raise ValueError(f"mte2 transfer of {transfer_bytes} bytes")
        points = [(size, float(self._config[name])) for size, name in MTE2_POINTS]
        size = min(max(transfer_bytes, points[0][0]), points[-1][0])
        (s0, b0), (s1, b1) = next((p, q) for p, q in pairwise(points) if size <= q[0])
        gibps = b0 + math.log(size / s0) / math.log(s1 / s0) * (b1 - b0)
        return gibps * GIB / self.clock_hz

    # -- reports ------------------------------------------------------------------------------

    def figure(self, name: str) -> Figure:
        """The figure called ``name`` (value, unit, source, kind, note), for reports."""
        try:
            return self._config.figures[name]
        except KeyError:
            raise KeyError(f"hardware '{self._config.name}' has no figure '{name}'") from None

    # -- helpers ------------------------------------------------------------------------------

    def _int(self, name: str) -> int:
        return self._config.int(name)

    @staticmethod
    def _l0(memory: str) -> str:
        if memory not in ("L0A", "L0B"):
            raise ValueError(f"'{memory}' is not an L1 -> L0 load target (one of L0A, L0B)")
        return memory.lower()


def from_config(config: HwConfig) -> CostFigures:
    """The cost figures of a parsed description (:func:`cost_figures` caches this per name)."""
    c = config
    return CostFigures(
        clock_hz=float(c["clock_mhz"]) * 1e6,
        cores=c.aic_count,
        mmad_overhead_cycles=c.int("mmad_overhead_cycles"),
        load2d_latency_cycles=c.int("load2d_latency_cycles"),
        load3d_latency_cycles=c.int("load3d_latency_cycles"),
        fixpipe_bytes_per_cycle=float(c["fixpipe_bytes_per_cycle"]),
        fixpipe_latency_cycles=c.int("fixpipe_latency_cycles"),
        mte2_latency_cycles=c.int("mte2_latency_cycles"),
        l2_bytes_per_cycle_per_core=float(c["l2_bytes_per_cycle_per_core"]),
        hbm_bytes_per_cycle_per_core=float(c["hbm_bytes_per_cycle_per_core"]),
        hbm_bytes_per_second_total=float(c["hbm_bytes_per_second_total"]),
        l2_bytes_per_second_total=float(c["l2_bytes_per_second_total"]),
        l2_size=c.int("l2_size"),
        flag_latency_cycles=c.int("flag_latency_cycles"),
        scalar_op_cycles=c.int("scalar_op_cycles"),
        pipe_queue_depth=c.int("pipe_queue_depth"),
        _config=c,
    )


@cache
def cost_figures(hw_name: str) -> CostFigures:
    """The cost figures of the hardware description ``hw_name`` (e.g. ``atlas-a2-910b2``)."""
    return from_config(load(hw_name))
