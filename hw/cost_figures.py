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

from bisect import bisect_left
from dataclasses import dataclass, field
from functools import cache

from ascend_xdsl.hw import Figure, HwConfig, load

GIB = 2**30
"""Bytes of the msKPP tables' "GB" (msKPP's own reader, ``data_adapter.cpp``, converts with
1024**3)."""

KIB = 1024
"""Bytes of the msKPP tables' first column's unit (KB)."""

MSKPP_CLOCK_HZ = 1.8e9
"""The clock msKPP converts its tables' GB/s to bytes per cycle with, whatever the SKU
(Ascend/mskpp csrc/prof_data/data_adapter.cpp: "freq fixed at 1800 MHz at initialisation"): its
curves are per cycle, so they give the same bytes per cycle on every SKU."""


BLOCK = 32
"""Bytes of a GM burst block (a DataCopy ``len`` unit)."""

PACKAGE_BLOCKS = 16
"""Blocks of the largest cacheline package (the vendor's package sizes are 16, 8, 4, 3, 2, 1)."""

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
    mmad_startup_latency_cycles: int
    """Cycles from a lone Mmad's start to its completion beyond its fractal count."""
    mte1_issue_gap_cycles: int
    """Cycles an L1 -> L0 load keeps MTE1 busy beyond its bytes over its rate."""
    load2d_latency_cycles: int
    load3d_latency_cycles: int
    fixpipe_latency_cycles: int
    mte2_latency_cycles: int
    mte2_package_bytes: int
    l2_bytes_per_cycle_per_core: float
    hbm_bytes_per_cycle_per_core: float
    hbm_bytes_per_second_total: float
    l2_bytes_per_second_total: float
    l2_size: int
    flag_latency_cycles: int
    scalar_op_cycles: int
    pipe_queue_depth: int
    """Instructions a pipe's queue holds; the scalar unit stalls when it is full."""
    kernel_overhead_seconds: float
    """Seconds of every kernel's device-side duration beyond its work (its head and tail on the
    cores, inside the Task Duration msprof reports; the host launch and the gap between queued
    kernels are outside it)."""
    transdata_hbm_efficiency: float
    """The share of the chip's HBM bandwidth a TransData (format conversion) kernel reaches."""
    _config: HwConfig = field(repr=False, compare=False)
    _curves: dict[str, tuple[tuple[float, float], ...]] = field(repr=False, compare=False)
    """The measured table figures, first column in bytes."""

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

    @property
    def l1_to_bt_bytes_per_cycle(self) -> float:
        """Bytes per cycle of a DataCopy from L1 into the bias table (MTE1)."""
        return float(self._int("l1_to_bt_bytes_per_cycle"))

    @property
    def l1_to_bt_latency_cycles(self) -> int:
        """Cycles from a lone L1 -> bias table copy's last byte to its completion."""
        return self._int("l1_to_bt_latency_cycles")

    def load2d_bytes_per_cycle(self, memory: str) -> float:
        """Bytes per cycle of a 2-D LoadData from L1 into ``memory`` ("L0A" or "L0B")."""
        return float(self._int(f"load2d_{self._l0(memory)}_bytes_per_cycle"))

    def load3d_bytes_per_cycle(self, memory: str, stride_w: int, row_switches: int) -> float:
        """Bytes per cycle of a Load3D v2 (img2col) from L1 into ``memory`` ("L0A" or "L0B"),
        for a W stride ``stride_w`` and ``row_switches``, the times the output positions of
        one 16-position fractal switch to the next row (0: none): Table 4 of the Cube perf doc
        (hicann/asc-devkit docs/zh/api/附录/Cube指令理论性能汇总.md), read as the vendor's dW
        tiler reads it (CubeUtil::GetLoad3dThroughput, docs/cost-model.md).

        L0A: floor(512 / (n + 2)) at strideW = 1 (256 with no switch); floor(512 / (2 strideW
        + n)) at strideW in {2, 4, 8}; never below 32, and 32 for any other strideW. L0B:
        floor(512 / (n + 4)); floor(512 / (2 strideW + 2 + n)); never below floor(512 / 18) =
        28, and 28 for any other strideW."""
        if stride_w < 1 or row_switches < 0:
            raise ValueError(
                f"load3d needs stride_w >= 1 and row_switches >= 0, got {stride_w}, {row_switches}"
            )
        l0 = self._l0(memory)
        floor_rate = self._int(f"load3d_{l0}_min_bytes_per_cycle")
        num = self._int("load3d_numerator_bytes")
        n = row_switches
        if stride_w == 1:
            if n == 0:
                return float(self._int(f"load3d_{l0}_peak_bytes_per_cycle"))
            denom = n + self._int(f"load3d_{l0}_row_offset")
        elif stride_w in LOAD3D_POWER_OF_TWO_STRIDES:
            denom = self._int("load3d_stride_factor") * stride_w + n
            if l0 == "l0b":
                denom += self._int("load3d_l0b_stride_offset")
        else:
            return float(floor_rate)
        return float(max(num // denom, floor_rate))

    # -- MTE2 ---------------------------------------------------------------------------------

    def mte2_bytes_per_cycle(self, transfer_bytes: int) -> float:
        """Bytes per cycle of one GM -> L1 DataCopy of ``transfer_bytes`` on one core alone (L2
        hits): msKPP's measured curve (``mte2_gm_to_l1_curve``), linear in bytes between its
        rows as msKPP interpolates it, clamped outside them, GiB/s converted to bytes per cycle as
        msKPP converts them (:data:`MSKPP_CLOCK_HZ`)."""
        if transfer_bytes <= 0:
            raise ValueError(f"mte2 transfer of {transfer_bytes} bytes")
        gibps = _interpolate(self._curve("mte2_gm_to_l1_curve"), transfer_bytes)
        return gibps * GIB / MSKPP_CLOCK_HZ

    def mte2_copy_cycles(self, transfer_bytes: int) -> float:
        """Cycles one GM -> L1 copy of ``transfer_bytes`` (as moved: packages, see
        :meth:`mte2_moved_bytes`) occupies MTE2 on one core alone: size over the curve's rate,
        and at least the per-copy time of the curve's smallest row (a copy under 1 KB pays the
        fixed cost of a 1 KB copy)."""
        smallest = int(self._curve("mte2_gm_to_l1_curve")[0][0])
        floor = smallest / self.mte2_bytes_per_cycle(smallest)
        return max(floor, transfer_bytes / self.mte2_bytes_per_cycle(transfer_bytes))

    def mte2_moved_bytes(self, bursts: int, burst_bytes: int) -> int:
        """Bytes of bandwidth ``bursts`` bursts of ``burst_bytes`` each cost: every burst is
        split into cacheline packages of 16, 8, 4, 3, 2 or 1 blocks of 32 B, and each package
        costs ``mte2_package_bytes`` (the vendor's package model,
        CubeUtil::GetMilanPkgNumByCacheline with CycleCalculator::GetMte2BCycle; reimplemented
        from its description in docs/cost-model.md)."""
        blocks = -(-burst_bytes // BLOCK)
        return bursts * mte2_packages(blocks) * self.mte2_package_bytes

    # -- FIX ----------------------------------------------------------------------------------

    def fixpipe_bytes_per_cycle(self, transfer_bytes: int) -> float:
        """Bytes per cycle of one L0C -> GM Fixpipe of ``transfer_bytes``: msKPP's measured
        curve (``fixpipe_l0c_to_gm_curve``, KB -> GiB/s), linear between rows, clamped."""
        if transfer_bytes <= 0:
            raise ValueError(f"fixpipe transfer of {transfer_bytes} bytes")
        gibps = _interpolate(self._curve("fixpipe_l0c_to_gm_curve"), transfer_bytes)
        return gibps * GIB / MSKPP_CLOCK_HZ

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

    def _curve(self, name: str) -> tuple[tuple[float, float], ...]:
        """A measured table figure with its first column converted from KB to bytes."""
        return self._curves[name]

    @staticmethod
    def _l0(memory: str) -> str:
        if memory not in ("L0A", "L0B"):
            raise ValueError(f"'{memory}' is not an L1 -> L0 load target (one of L0A, L0B)")
        return memory.lower()


def mte2_packages(blocks: int) -> int:
    """Cacheline packages a burst of ``blocks`` 32 B blocks is split into: whole 16-block
    packages, then one package per set bit of the remainder (8, 4, 2, 1 blocks), except that a
    2-block and a 1-block piece travel together as one 3-block package."""
    if blocks < 0:
        raise ValueError(f"a burst of {blocks} blocks")
    whole, rest = divmod(blocks, PACKAGE_BLOCKS)
    pieces = bin(rest).count("1")
    if rest & 0b11 == 0b11:
        pieces -= 1
    return whole + pieces


def _curve_bytes(config: HwConfig, name: str) -> tuple[tuple[float, float], ...]:
    return tuple((kb * KIB, y) for kb, y in config.points(name))


def _interpolate(points: tuple[tuple[float, float], ...], x: float) -> float:
    """The curve's y at ``x``: linear between its rows, the end rows' y outside them."""
    if x <= points[0][0]:
        return points[0][1]
    if x >= points[-1][0]:
        return points[-1][1]
    i = bisect_left(points, x, key=lambda p: p[0])
    (x0, y0), (x1, y1) = points[i - 1], points[i]
    return y0 + (x - x0) / (x1 - x0) * (y1 - y0)


def from_config(config: HwConfig) -> CostFigures:
    """The cost figures of a parsed description (:func:`cost_figures` caches this per name)."""
    c = config
    return CostFigures(
        clock_hz=float(c["clock_mhz"]) * 1e6,
        cores=c.aic_count,
        mmad_overhead_cycles=c.int("mmad_overhead_cycles"),
        mmad_startup_latency_cycles=c.int("mmad_startup_latency_cycles"),
        mte1_issue_gap_cycles=c.int("mte1_issue_gap_cycles"),
        load2d_latency_cycles=c.int("load2d_latency_cycles"),
        load3d_latency_cycles=c.int("load3d_latency_cycles"),
        fixpipe_latency_cycles=c.int("fixpipe_latency_cycles"),
        mte2_latency_cycles=c.int("mte2_latency_cycles"),
        mte2_package_bytes=c.int("mte2_package_bytes"),
        l2_bytes_per_cycle_per_core=float(c["l2_bytes_per_cycle_per_core"]),
        hbm_bytes_per_cycle_per_core=float(c["hbm_bytes_per_cycle_per_core"]),
        hbm_bytes_per_second_total=float(c["hbm_bytes_per_second_total"]),
        l2_bytes_per_second_total=float(c["l2_bytes_per_second_total"]),
        l2_size=c.int("l2_size"),
        flag_latency_cycles=c.int("flag_latency_cycles"),
        scalar_op_cycles=c.int("scalar_op_cycles"),
        pipe_queue_depth=c.int("pipe_queue_depth"),
        kernel_overhead_seconds=float(c["kernel_overhead_us"]) * 1e-6,
        transdata_hbm_efficiency=float(c["transdata_hbm_efficiency"]),
        _config=c,
        _curves={
            name: _curve_bytes(c, name)
            for name in ("mte2_gm_to_l1_curve", "fixpipe_l0c_to_gm_curve")
        },
    )


@cache
def cost_figures(hw_name: str) -> CostFigures:
    """The cost figures of the hardware description ``hw_name`` (e.g. ``atlas-a2-910b2``)."""
    return from_config(load(hw_name))
