"""Our implementation of the vendor's host tiling heuristic for Conv3DBackpropFilter (dW).

What it is. The Ascend C high-level API ships a host-side tiler (DEVKIT
``Conv3dBpFilterTiling``, ``conv3d_bp_filter_tiling.cpp``) that picks the L0 base tile, the L1
steps, the buffering and the basic block of one dW GEMM. This module re-implements that
procedure from a description of hicann/asc-devkit
``impl/adv_api/tiling/conv_backprop/conv3d_bp_filter_tiling.cpp`` (the vendor source was read only
to settle ambiguities, none of it is copied) and extends it the way the CANN operator does
(hicann/ops-nn ``conv/conv3d_backprop_filter_v2``: the kernel's ``Conv3dDw::Process`` in
``op_kernel/arch22/conv3d_backprop_filter_v2.h``, the host tilings in ``op_host/op_tiling/arch22/``)
to groups and to a multi-core split. The vendor facts it relies on are listed in
docs/architecture.md, "Sources". The
``ascend-tile-conv3d-bp-filter{strategy=heuristic}`` pass calls :func:`heuristic_tiling` and
attaches the resulting :class:`~ascend_xdsl.dialects.dw_tiling.DwTiling` to the op; the lowering
and the runtime read the tiling from there.

The single-core tiler (``core_num == 1``) is exactly the vendor's, step by step:

1. GEMM view: M = cout1_g·C0, N = kH·kW·cin1_g·C0, K = ⌈Ho·Wo⌉_C0.
2. Strategy: SplitMN if sH·sW > 1 and kH·kW divides or is a multiple of 16, else SplitK
   (SPLIT_N_K when M > N, SPLIT_M_K otherwise); iterate_order = ORDER_N iff M > N.
3. InitBaseMNK, the L1 depth ladder ((16,16) down by 2 then 1 for SplitMN; (8,8) halving the
   larger side, ties on the non-resident side, for SplitK), UpdateStepMNK, the validity test
   IsCurBlockL1L0Invalid (L0A/L0B double-buffered, L1 = A1 + bl1Bound), UpdateSingleCoreInfo,
   and ShrinkBaseBlock when even depth 1/1 does not fit (e.g. very wide Wi).

Extensions and our conventions:

* Groups > 1, which the API tiler rejects, are handled the operator way: the GEMM is that of one
  enlarged group (``ConvBpFilterShape.group_enlargement``), ``group`` = real_g.
* Dk is separate: N excludes kD, and in our lowering the per-core driver loop iterates the dk
  slices; ``single_core_dk`` = ⌈kD/dk_dim⌉.
* ``single_core_{batch,group,dk,cout,ho,cin}`` are the per-core *shares of the whole problem*
  (see ``DwTiling``); the vendor's API instead writes its basic block into them (and 1 into
  batch/group/dk) because its caller loops over the basic blocks itself. The basic block is
  kept in ``single_core_m/n/k``, which is what the vendor's unit tests check.
* Multi-core split (``core_num > 1``), chosen as follows. The single-core tiling of the whole
  problem gives the strategy's coreBindDirection and the basic block. The direction decides the
  GEMM axes that may be split across cores: SPLIT_M_K → M and K (Ho rows), SPLIT_N_K → N (Cin1)
  and K, SPLIT_M_N → M and N. batch·dout, group and dk are always splittable (they never
  shrink a core's GEMM). Each axis is cut into at most as many pieces as it has basic blocks
  (batch·dout, group and dk count one block per item), a cut's per-core share is rounded up to
  the axis granule (16 for M, one C1 row for N, one Ho row for K), and a cut is normalised so
  no core is left without work. Among all cuts whose product of dims is ≤ core_num, we pick
  the one with the smallest per-core work (the product of the shares: the critical path), then
  the most used cores, then the largest split on batch·dout, group, dk, M, N and K, in that
  order (batch·dout first: it keeps every core's GEMM whole). Finally the single-core tiler is
  re-run on one core's share, so the L1/L0 blocks fit what that core computes. The rule is
  deterministic: it is an exhaustive search with a total order. The enumeration is shared with
  the tiling search (``tuning/search.py``), which takes its starting points from
  :func:`core_splits` of :func:`split_axes`, every axis free; the rule is :func:`core_splits` of
  :func:`vendor_split_axes`, M, N and K bounded by the direction and the basic block.

The B1 bound never counts more Cin1 rows than the GEMM has (``bl1_bound_for``'s
``cin1_rows``): the vendor's formula can count two rows for a one-row Cin (an RGB stem), which
makes layers such as the VideoMAE tubelet embedding (kernel 2x16x16 on 224-wide rows) overflow L1
where one row fits. Other deviations from the vendor, both for problems the vendor cannot tile
either: when even
ShrinkBaseBlock leaves the block overflowing L1 (a very wide Wi with a tall dilated kernel), the
vendor returns that invalid tiling unchecked, we raise :class:`TilingError`; and when
ShrinkBaseBlock grows baseM so that two L0C tiles no longer fit, we drop to one L0C buffer
(the operator tiler's CheckDbL0C rule) instead of keeping cl0Pbuffer = 2. Neither changes any
of the vendor's unit-test tilings.

Only 2-byte element types (fp16/bf16, C0 = 16) are supported, as in ``ConvBpFilterShape``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import (
    FRACTAL,
    ITERATE_ORDER_M,
    ITERATE_ORDER_N,
    DwTiling,
    bl1_bound_for,
    cin1_copy_len,
    element_bytes,
    hi_rows_for,
    ho_rows_bound,
)
from ascend_xdsl.hw import HwConfig

SPLIT_M_K = 1
"""coreBindDirection: cores split M and K, N is whole per task (A1 resident)."""
SPLIT_N_K = 2
"""coreBindDirection: cores split N and K, M is whole per task (B1 resident)."""
SPLIT_M_N = 3
"""coreBindDirection: cores split M and N, K is whole per task."""

L0_DOUBLE_BUFFER = 2
"""The vendor always sizes L0A/L0B as double-buffered (al0/bl0Pbuffer = 2)."""


class TilingError(ValueError):
    """Raised when no tiling of the problem fits the hardware buffers."""


@dataclass(frozen=True)
class GemmView:
    """One dW GEMM as the API tiler sees it (the ``shapeInfo``/``mmInfo`` of the vendor).

    ``tasks`` multiplies the basic-block count (batch·dout·kD in the vendor's totalCnt).
    """

    m: int
    n: int
    k: int
    wo: int
    wi: int
    kh: int
    kw: int
    stride_h: int
    stride_w: int
    dilation_h: int
    c0: int = 16
    tasks: int = 1

    @property
    def khw(self) -> int:
        return self.kh * self.kw

    @property
    def dtype_bytes(self) -> int:
        return element_bytes(self.c0)


@dataclass(frozen=True)
class BufferCapacities:
    """The bytes of the on-chip buffers a tiling must fit: L1 (A1 and B1), L0A, L0B, L0C."""

    l1: int
    l0a: int
    l0b: int
    l0c: int

    @classmethod
    def of(cls, hw: HwConfig) -> BufferCapacities:
        return cls(l1=hw.l1_size, l0a=hw.l0a_size, l0b=hw.l0b_size, l0c=hw.l0c_size)


@dataclass
class BlockState:
    """The API tiler's working state (the vendor's ``blockTiling_``); mutated step by step.

    Defaults are the vendor's initial values, so a unit test can set up a partial state and run
    one step (e.g. :meth:`ApiBlockTiler.shrink_block_base_mn`) as the vendor's tests do.
    """

    base_m: int = 128
    base_n: int = 128
    base_k: int = 128
    step_m: int = 1
    step_n: int = 1
    step_ka: int = 1
    step_kb: int = 1
    depth_a1: int = 1
    depth_b1: int = 1
    db_l1a: int = 1
    db_l1b: int = 1
    db_l0c: int = 1
    iterate_order: int = ITERATE_ORDER_M
    direction: int = SPLIT_M_K
    single_core_m: int = 128
    single_core_n: int = 128
    single_core_k: int = 128
    total_cnt: int = 0


class ApiBlockTiler:
    """The DEVKIT single-core API tiler (``conv3d_bp_filter_tiling.cpp``) for one :class:`GemmView`.

    :meth:`run` performs the whole procedure; the individual steps are public methods so that
    they can be checked one by one.
    """

    def __init__(self, view: GemmView, capacities: BufferCapacities, core_num: int = 1) -> None:
        self.view = view
        self.capacities = capacities
        # The API tiler always runs with one core; the ladder's "totalCnt >= cores" stop and the
        # SplitMN -> SplitK fallback only matter for the operator's own core count.
        self.core_num = core_num
        self.state = BlockState()

    # -- the whole procedure --------------------------------------------------------------
    def run(self) -> BlockState:
        v = self.view
        if v.stride_h * v.stride_w > 1 and (v.khw % FRACTAL == 0 or FRACTAL % v.khw == 0):
            # MTE1 (img2col) is the bottleneck and N is 16-aligned: split M and N, keep K whole.
            self.split_mn()
        else:
            self.split_k()
        return self.state

    def split_mn(self) -> None:
        s, v = self.state, self.view
        s.iterate_order = ITERATE_ORDER_N if v.m > v.n else ITERATE_ORDER_M
        s.direction = SPLIT_M_N
        self.init_base_mnk()
        s.db_l1a = s.db_l1b = 2
        depth_a, depth_b = 16, 16
        while depth_a >= 1 and depth_b >= 1:
            s.depth_a1, s.depth_b1 = depth_a, depth_b
            s.step_m = s.step_n = 1
            self.update_step_mnk()
            if not self.is_invalid():
                break
            depth_a = depth_a - 2 if depth_a > 2 else depth_a - 1
            depth_b = depth_b - 2 if depth_b > 2 else depth_b - 1
        if self.is_invalid():
            self.shrink_base_block()
            self.update_step_mnk()
        self.update_single_core_info()
        if s.total_cnt < self.core_num:
            self.split_k()

    def split_k(self) -> None:
        s, v = self.state, self.view
        s.iterate_order = ITERATE_ORDER_N if v.m > v.n else ITERATE_ORDER_M
        s.direction = SPLIT_N_K if v.m > v.n else SPLIT_M_K
        self.init_base_mnk()
        s.db_l1a = s.db_l1b = 2
        depth_a, depth_b = 8, 8
        while depth_a >= 1 and depth_b >= 1:
            s.depth_a1, s.depth_b1 = depth_a, depth_b
            s.step_m = s.step_n = 1
            self.update_step_mnk()
            self.update_single_core_info()
            if s.total_cnt >= self.core_num and not self.is_invalid():
                break
            if depth_a == 1 and depth_b == 1:
                break
            # Halve the larger L1 side first; on a tie, the side that is not kept resident
            # (B under SPLIT_M_K, where A1 stays resident; A otherwise).
            if depth_a > depth_b:
                depth_a //= 2
            elif depth_b > depth_a or s.direction == SPLIT_M_K:
                depth_b //= 2
            else:
                depth_a //= 2
        if self.is_invalid():
            self.shrink_base_block()
            self.update_step_mnk()
            self.update_single_core_info()

    # -- the steps --------------------------------------------------------------------------
    def init_base_mnk(self) -> None:
        s, v = self.state, self.view
        if s.direction == SPLIT_M_N:
            # L0A loads run at more than twice the L0B rate, so give M the larger side.
            s.base_m, s.base_n = (256, 128) if v.m > 128 else (128, 256)
            s.base_k = 64
            s.db_l0c = 1
        else:
            # 128-cubed keeps two L0C tiles (2 x 64 KB), so Fixpipe never stalls the cube.
            s.base_m = s.base_n = s.base_k = 128
            s.db_l0c = 2
        a_l0_max = s.base_k * s.base_m
        b_l0_max = s.base_k * s.base_n
        s.base_m = min(s.base_m, align_up(v.m, FRACTAL))
        s.base_n = min(s.base_n, align_up(v.n, FRACTAL))
        aligned_k = align_up(v.k, v.c0)
        if aligned_k < s.base_k:
            s.base_k = aligned_k
            return
        # M or N shrank: grow K to keep the same L0 footprint, then prefer whole Wo rows.
        new_ka = max(a_l0_max // s.base_m // v.c0, 1) * v.c0
        new_kb = max(b_l0_max // s.base_n // FRACTAL, 1) * FRACTAL
        new_k = min(new_ka, new_kb, aligned_k)
        s.base_k = new_k
        if v.wo < new_k and v.wo % v.c0 == 0:
            s.base_k = new_k // v.wo * v.wo

    def update_step_mnk(self) -> None:
        s, v = self.state, self.view
        if s.depth_a1 < 2:
            s.db_l1a = 1
        if s.depth_b1 < 2:
            s.db_l1b = 1
        a_l1 = s.depth_a1 // s.db_l1a
        b_l1 = s.depth_b1 // s.db_l1b
        max_m = ceil_div(v.m, s.base_m)
        max_n = ceil_div(v.n, s.base_n)
        max_k = ceil_div(v.k, s.base_k)

        def clamp(x: int, hi: int) -> int:
            return max(min(x, hi), 1)

        s.step_ka = clamp(a_l1 // s.step_m, max_k)
        s.step_kb = clamp(b_l1 // s.step_n, max_k)
        # The resident side may widen its non-K step with the L1 it has left.
        if s.direction == SPLIT_M_K:
            s.step_m = clamp(a_l1 // s.step_ka, max_m)
        elif s.direction == SPLIT_N_K:
            s.step_n = clamp(b_l1 // s.step_kb, max_n)
        s.step_ka = clamp(a_l1 // s.step_m, max_k)
        s.step_kb = clamp(b_l1 // s.step_n, max_k)
        # K steps must nest so that A1 and B1 reloads line up.
        if s.direction == SPLIT_M_K:
            s.step_ka = max(s.step_ka // s.step_kb, 1) * s.step_kb
        elif s.direction == SPLIT_N_K:
            s.step_kb = max(s.step_kb // s.step_ka, 1) * s.step_ka
        else:
            if s.step_ka > s.step_kb:
                s.step_ka = max(s.step_ka // s.step_kb, 1) * s.step_kb
            if s.step_kb > s.step_ka:
                s.step_kb = max(s.step_kb // s.step_ka, 1) * s.step_ka

    def bl1_bound(self) -> int:
        s, v = self.state, self.view
        return bl1_bound_for(
            base_k=s.base_k,
            step_kb=s.step_kb,
            base_n=s.base_n,
            step_n=s.step_n,
            wo=v.wo,
            wi=v.wi,
            kh=v.kh,
            kw=v.kw,
            stride_h=v.stride_h,
            dilation_h=v.dilation_h,
            cin1_rows=ceil_div(v.n, v.khw * v.c0),
        )

    def l1_bytes(self) -> int:
        """A1 and B1 together, with their buffering."""
        s, nbytes = self.state, self.view.dtype_bytes
        a1 = s.step_ka * s.base_k * s.step_m * s.base_m * nbytes * s.db_l1a
        return a1 + self.bl1_bound() * nbytes * s.db_l1b

    def is_invalid(self) -> bool:
        s, b, nbytes = self.state, self.capacities, self.view.dtype_bytes
        # Load3D pads mExtension (the K side) to 16, so size L0 with the aligned baseK.
        k16 = align_up(s.base_k, FRACTAL)
        if k16 * s.base_m * nbytes * L0_DOUBLE_BUFFER > b.l0a:
            return True
        if k16 * s.base_n * nbytes * L0_DOUBLE_BUFFER > b.l0b:
            return True
        return self.l1_bytes() > b.l1

    def update_single_core_info(self) -> None:
        s, v = self.state, self.view
        s.single_core_m = s.step_m * s.base_m
        # Round K and N down to whole Wo rows / whole C1 rows so a basic block never triggers
        # an extra L1 load past its end.
        max_step_k = max(s.step_ka, s.step_kb) * s.base_k
        s.single_core_k = max(max_step_k // v.wo, 1) * v.wo
        c1_cols = v.khw * v.c0
        s.single_core_n = max(s.step_n * s.base_n // c1_cols, 1) * c1_cols
        if s.direction == SPLIT_M_K:
            s.single_core_n = v.n
        elif s.direction == SPLIT_N_K:
            s.single_core_m = v.m
        else:
            s.single_core_k = v.k
        s.total_cnt = (
            v.tasks
            * ceil_div(v.m, s.single_core_m)
            * ceil_div(v.k, s.single_core_k)
            * ceil_div(v.n, s.single_core_n)
        )

    # -- ShrinkBaseBlock: the fallback when even depth 1/1 overflows L1 ----------------------
    def l1_gap(self) -> int:
        """Bytes by which one A1 base tile plus one B1 buffer exceed L1 (0 if they fit)."""
        s, nbytes = self.state, self.view.dtype_bytes
        need = s.base_k * s.base_m * nbytes + self.bl1_bound() * nbytes
        return max(need - self.capacities.l1, 0)

    def shrink_block_base_k(self) -> bool:
        s, v = self.state, self.view
        nbytes = v.dtype_bytes
        gap = self.l1_gap()
        delta_a = s.base_m * v.c0 * nbytes
        # B1 shrinks in steps of whole rows; spread that linearly per C0 of K. The linear cost is
        # never below the true one, so this count never overshoots.
        copy_rows = cin1_copy_len(s.base_n, v.khw)
        delta_b = ceil_div(copy_rows * v.c0 * v.wi * v.stride_h * v.c0 * nbytes, v.wo)
        count = ceil_div(gap, delta_a + delta_b)
        new_k = s.base_k - count * v.c0 if s.base_k > count * v.c0 else 0
        if new_k < v.c0:
            s.base_k = v.c0
            return False
        s.base_k = new_k
        while s.base_k > v.c0 and self.is_invalid():
            s.base_k -= v.c0
            # Stop early at a K that tiles a Wo row exactly (or when no such K exists).
            if s.base_k <= v.wo and (v.wo % s.base_k == 0 or v.wo % v.c0 != 0):
                break
        return not self.is_invalid()

    def shrink_block_base_mn(self) -> None:
        s, v = self.state, self.view
        nbytes = v.dtype_bytes
        # First bring the larger of baseM/baseN down to the other.
        while s.base_m > FRACTAL and s.base_m > s.base_n and self.is_invalid():
            s.base_m -= FRACTAL
        while s.base_n > FRACTAL and s.base_n > s.base_m and self.is_invalid():
            s.base_n -= FRACTAL
        if not self.is_invalid():
            return
        delta_a = s.base_k * FRACTAL * nbytes
        hi = hi_rows_for(ho_rows_bound(s.base_k * s.step_kb, v.wo), v.stride_h, v.kh, v.dilation_h)
        delta_b = ceil_div(hi * v.wi * FRACTAL * nbytes, v.khw)
        count = ceil_div(self.l1_gap(), delta_a + delta_b)
        if s.base_m < (count + 1) * FRACTAL:
            s.base_m = s.base_n = FRACTAL
            return
        s.base_m -= count * FRACTAL
        s.base_n = s.base_m
        copy_rows = cin1_copy_len(s.base_n, v.khw)
        while s.base_m > FRACTAL and self.is_invalid():
            # Follow with baseN only when that saves a whole C1 row in B1.
            new_rows = cin1_copy_len(s.base_m, v.khw)
            if new_rows < copy_rows:
                s.base_n = s.base_m
                copy_rows = new_rows
            else:
                s.base_m -= FRACTAL

    def shrink_base_block(self) -> None:
        if self.shrink_block_base_k():
            return
        self.shrink_block_base_mn()
        s, v, b = self.state, self.view, self.capacities
        nbytes = v.dtype_bytes
        # Grow baseM back into the L1 left over, capped by M and by one L0C tile. The vendor
        # divides the L0C budget by the current baseM here (not baseN); we keep that.
        spare = max(b.l1 - self.l1_bytes(), 0)
        grow = spare // (s.base_k * FRACTAL * nbytes)
        l0c_cap = max(b.l0c // nbytes // 2 // s.base_m // FRACTAL, 1) * FRACTAL
        s.base_m = min(s.base_m + grow * FRACTAL, align_up(v.m, FRACTAL))
        s.base_m = min(l0c_cap, s.base_m)
        # Grow baseK while the block stays valid.
        valid_k = s.base_k
        while not self.is_invalid():
            valid_k = s.base_k
            s.base_k += v.c0
        s.base_k = valid_k
        aligned_k = align_up(v.k, v.c0)
        if aligned_k < s.base_k:
            s.base_k = aligned_k
            return
        a_l0_max = b.l0a // nbytes // L0_DOUBLE_BUFFER
        b_l0_max = b.l0b // nbytes // L0_DOUBLE_BUFFER
        new_ka = max(a_l0_max // s.base_m // FRACTAL, 1) * FRACTAL
        new_kb = max(b_l0_max // s.base_n // FRACTAL, 1) * FRACTAL
        s.base_k = min(new_ka, new_kb, aligned_k, s.base_k)
        if v.wo < s.base_k and v.wo % v.c0 == 0:
            s.base_k = s.base_k // v.wo * v.wo


# -- from a problem to a DwTiling ---------------------------------------------------------------
@dataclass(frozen=True)
class CoreSplit:
    """How the problem is cut over cores, and one core's share of each axis."""

    batch_dim: int = 1
    group_dim: int = 1
    dk_dim: int = 1
    m_dim: int = 1
    n_dim: int = 1
    k_dim: int = 1
    batch_share: int = 1
    group_share: int = 1
    dk_share: int = 1
    cout_share: int = 16
    cin1_share: int = 1
    ho_share: int = 1

    @property
    def dims(self) -> tuple[int, ...]:
        """The pieces of each axis, in the order of :func:`split_axes`."""
        return (self.batch_dim, self.group_dim, self.dk_dim, self.m_dim, self.n_dim, self.k_dim)

    @property
    def cores(self) -> int:
        return math.prod(self.dims)

    @property
    def work(self) -> int:
        """One core's share of the work: the product of its shares."""
        return (
            self.batch_share
            * self.group_share
            * self.dk_share
            * self.cout_share
            * self.cin1_share
            * self.ho_share
        )


def gemm_view(shape: ConvBpFilterShape, *, cout: int, cin1: int, ho: int, tasks: int) -> GemmView:
    """The API tiler's view of one core's GEMM: ``cout`` elements × (kH·kW·cin1·C0) × ho·Wo."""
    c0 = shape.c0
    return GemmView(
        m=cout,
        n=shape.kh * shape.kw * cin1 * c0,
        k=align_up(ho * shape.wo, c0),
        wo=shape.wo,
        wi=shape.wi,
        kh=shape.kh,
        kw=shape.kw,
        stride_h=shape.strides[1],
        stride_w=shape.strides[2],
        dilation_h=shape.dilations[1],
        c0=c0,
        tasks=tasks,
    )


@dataclass(frozen=True)
class SplitAxis:
    """One axis a split cuts: ``total`` units, shared out in whole ``granule`` s, into at most
    ``max_pieces`` pieces."""

    total: int
    granule: int = 1
    max_pieces: int | None = None
    """None: as many pieces as the axis has granules."""

    def cuts(self) -> list[tuple[int, int]]:
        """Every distinct (pieces, share) cut, fewest pieces first: for d pieces the share is
        ⌈total/d⌉ rounded up to the granule, and the pieces are ⌈total/share⌉ so none is
        empty."""
        granules = ceil_div(self.total, self.granule)
        # More pieces than granules only repeat the one-granule cut.
        most = granules if self.max_pieces is None else min(self.max_pieces, granules)
        cuts: dict[int, int] = {}
        for d in range(1, max(most, 1) + 1):
            share = align_up(ceil_div(self.total, d), self.granule)
            cuts[ceil_div(self.total, share)] = share
        return sorted(cuts.items())


def split_axes(shape: ConvBpFilterShape, fuse_dk: bool) -> tuple[SplitAxis, ...]:
    """The six axes of ``shape`` a split cuts, each as finely as its granule allows: batch·dout,
    group (enlarged groups), dk, M (cout1_g·C0 in 16s), N (Cin1 rows) and K (Ho rows). With
    ``fuse_dk`` the kD slices are rows of N, cut with Cin1, and dk has one unit."""
    ge = shape.group_enlargement
    return (
        SplitAxis(shape.batch * shape.dout),
        SplitAxis(ge.real_g),
        SplitAxis(1 if fuse_dk else shape.kd),
        SplitAxis(ge.cout1_g * shape.c0, FRACTAL),
        SplitAxis(ge.cin1_g * (shape.kd if fuse_dk else 1)),
        SplitAxis(shape.ho),
    )


def vendor_split_axes(
    shape: ConvBpFilterShape, whole: BlockState, fuse_dk: bool
) -> tuple[SplitAxis, ...]:
    """:func:`split_axes` bounded by the vendor rule: ``whole``, the block tiling of the whole
    problem, gives the core-bind direction (which of M, N and K may be cut at all) and the basic
    block (into how many pieces)."""
    bd, group, dk, m, n, k = split_axes(shape, fuse_dk)
    c1_per_block = max(whole.single_core_n // (shape.kh * shape.kw * shape.c0), 1)
    rows_per_block = max(whole.single_core_k // shape.wo, 1)

    def bounded(axis: SplitAxis, splittable: bool, per_block: int) -> SplitAxis:
        return replace(axis, max_pieces=ceil_div(axis.total, per_block) if splittable else 1)

    direction = whole.direction
    return (
        bd,
        group,
        dk,
        bounded(m, direction in (SPLIT_M_K, SPLIT_M_N), whole.single_core_m),
        bounded(n, direction in (SPLIT_N_K, SPLIT_M_N), c1_per_block),
        bounded(k, direction in (SPLIT_M_K, SPLIT_N_K), rows_per_block),
    )


def core_splits(axes: Sequence[SplitAxis], cores: int) -> list[CoreSplit]:
    """Every split that cuts ``axes`` (in :func:`split_axes`' order) over at most ``cores``
    cores, in the order of the rule (the module docstring): least work per core first, then most
    cores, then the largest cut of batch·dout, group, dk, M, N and K."""
    partial: list[tuple[tuple[tuple[int, int], ...], int]] = [((), 1)]
    for cuts in [axis.cuts() for axis in axes]:
        partial = [
            ((*chosen, (pieces, share)), used * pieces)
            for chosen, used in partial
            for pieces, share in cuts
            if used * pieces <= cores
        ]
    splits = [
        CoreSplit(*(pieces for pieces, _ in chosen), *(share for _, share in chosen))
        for chosen, _ in partial
    ]
    return sorted(splits, key=lambda s: (s.work, -s.cores, *(-d for d in s.dims)))


def choose_core_split(
    shape: ConvBpFilterShape, whole: BlockState, core_num: int, fuse_dk: bool = False
) -> CoreSplit:
    """The vendor rule's split of ``shape`` over at most ``core_num`` cores, given ``whole``, the
    block tiling of the whole problem."""
    return core_splits(vendor_split_axes(shape, whole, fuse_dk), core_num)[0]


def whole_problem(shape: ConvBpFilterShape, fuse_dk: bool) -> CoreSplit:
    """The split of one core computing everything: every share is its whole axis."""
    bd, group, dk, m, n, k = (axis.total for axis in split_axes(shape, fuse_dk))
    return CoreSplit(
        batch_share=bd, group_share=group, dk_share=dk, cout_share=m, cin1_share=n, ho_share=k
    )


def _run_api(view: GemmView, capacities: BufferCapacities) -> BlockState:
    tiler = ApiBlockTiler(view, capacities)
    state = tiler.run()
    if tiler.is_invalid():
        raise TilingError(
            f"no dW tiling fits: base {state.base_m}/{state.base_k}/{state.base_n} still needs "
            f"{tiler.l1_bytes()} B of L1 (has {capacities.l1} B) or overflows L0"
        )
    return state


def can_fuse_dk(shape: ConvBpFilterShape) -> str | None:
    """Why kD cannot be fused into N for ``shape`` (None: it can).

    The operator fuses unless groups > 1 or dilation_d > 1 (``seperateDk`` in hicann/ops-nn
    ``op_kernel/arch22/conv3d_backprop_filter_v2.h``):
    only then are the kD input depth slices of one output depth consecutive Cin1 rows.
    """
    if shape.groups != 1:
        return f"groups is {shape.groups} (the kD slices of a group are not consecutive rows)"
    if shape.dilations[0] != 1:
        return f"dilation D is {shape.dilations[0]} (the kD slices are not consecutive)"
    return None


def heuristic_tiling(
    shape: ConvBpFilterShape, hw: HwConfig, core_num: int = 1, fuse_dk: bool = False
) -> DwTiling:
    """The vendor-style heuristic tiling of ``shape`` on ``hw`` using at most ``core_num`` cores.

    With ``core_num == 1`` the base/step/basic-block fields are exactly those of the DEVKIT API
    tiler. With ``fuse_dk`` the kD slices are fused into N, as the operator does when it can
    (``can_fuse_dk``): N = kD·kH·kW·Cin1·C0 and no dk driver loop (``DwTiling.fused_dk``).
    Raises :class:`TilingError` for an illegal shape or when nothing fits the buffers.
    """
    errs = shape.errors()
    if errs:
        raise TilingError("illegal dW problem: " + "; ".join(errs))
    if core_num < 1:
        raise TilingError(f"core_num must be at least 1, got {core_num}")
    fuse_dk = fuse_dk and shape.kd > 1
    if fuse_dk and (reason := can_fuse_dk(shape)) is not None:
        raise TilingError(f"kD cannot be fused into N: {reason}")
    whole = _run_api(core_gemm_view(shape, whole_problem(shape, fuse_dk)), BufferCapacities.of(hw))
    return split_tiling(shape, choose_core_split(shape, whole, core_num, fuse_dk), hw)


def split_tiling(shape: ConvBpFilterShape, split: CoreSplit, hw: HwConfig) -> DwTiling:
    """The tiling of ``split``: the vendor's block tiling of one core's share of the GEMM.
    Raises :class:`TilingError` when nothing fits."""
    capacities = BufferCapacities.of(hw)
    state = _run_api(core_gemm_view(shape, split), capacities)
    return to_dw_tiling(shape, state, split, capacities)


def core_gemm_view(shape: ConvBpFilterShape, split: CoreSplit) -> GemmView:
    """The GEMM one core of ``split`` computes per task (``tasks``: its batch·dout items times
    its kd slices, the factor of the vendor's totalCnt)."""
    return gemm_view(
        shape,
        cout=split.cout_share,
        cin1=split.cin1_share,
        ho=split.ho_share,
        tasks=split.batch_share * split.dk_share,
    )


def to_dw_tiling(
    shape: ConvBpFilterShape, state: BlockState, split: CoreSplit, capacities: BufferCapacities
) -> DwTiling:
    ge = shape.group_enlargement
    c0 = shape.c0
    cl0 = state.db_l0c
    if state.base_m * state.base_n * 4 * cl0 > capacities.l0c:
        # ShrinkBaseBlock can grow baseM past what two L0C tiles hold; the vendor leaves the
        # double buffer on regardless, we fall back to one tile (as the operator's CheckDbL0C).
        cl0 = 1
    bl1_bound = bl1_bound_for(
        base_k=state.base_k,
        step_kb=state.step_kb,
        base_n=state.base_n,
        step_n=state.step_n,
        wo=shape.wo,
        wi=shape.wi,
        kh=shape.kh,
        kw=shape.kw,
        stride_h=shape.strides[1],
        dilation_h=shape.dilations[1],
        cin1_rows=split.cin1_share,
    )
    pads = shape.pads
    return DwTiling(
        batch=shape.batch,
        cin=shape.cin,
        cout=shape.cout,
        cin1_g=ge.cin1_g,
        cout1_g=ge.cout1_g,
        dout=shape.dout,
        ho=shape.ho,
        wo=shape.wo,
        di=shape.di,
        hi=shape.hi,
        wi=shape.wi,
        dk=shape.kd,
        hk=shape.kh,
        wk=shape.kw,
        group=ge.real_g,
        stride_d=shape.strides[0],
        stride_h=shape.strides[1],
        stride_w=shape.strides[2],
        pad_front=pads[0],
        pad_back=pads[1],
        pad_up=pads[2],
        pad_down=pads[3],
        pad_left=pads[4],
        pad_right=pads[5],
        dilation_d=shape.dilations[0],
        dilation_h=shape.dilations[1],
        dilation_w=shape.dilations[2],
        channel_size=c0,
        al0_pbuffer=L0_DOUBLE_BUFFER,
        bl0_pbuffer=L0_DOUBLE_BUFFER,
        cl0_pbuffer=cl0,
        al1_pbuffer=state.db_l1a,
        bl1_pbuffer=state.db_l1b,
        base_m=state.base_m,
        base_k=state.base_k,
        base_n=state.base_n,
        m0=FRACTAL,
        k0=c0,
        n0=FRACTAL,
        step_m=state.step_m,
        step_n=state.step_n,
        step_ka=state.step_ka,
        step_kb=state.step_kb,
        iterate_order=state.iterate_order,
        bl1_bound=bl1_bound,
        hf32_flag=0,
        single_core_dk=split.dk_share,
        single_core_group=split.group_share,
        single_core_cout=split.cout_share,
        single_core_ho=split.ho_share,
        single_core_batch=split.batch_share,
        single_core_cin=split.cin1_share * c0,
        batch_dim=split.batch_dim,
        group_dim=split.group_dim,
        m_dim=split.m_dim,
        k_dim=split.k_dim,
        n_dim=split.n_dim,
        dk_dim=split.dk_dim,
        single_core_m=state.single_core_m,
        single_core_n=state.single_core_n,
        single_core_k=state.single_core_k,
    )
