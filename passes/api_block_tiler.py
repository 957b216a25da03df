"""The vendor's single-core API tiler of one dW GEMM: base tile, L1 steps, buffering, basic block.

What it is. The Ascend C high-level API ships a host-side tiler (DEVKIT ``Conv3dBpFilterTiling``,
hicann/asc-devkit ``impl/adv_api/tiling/conv_backprop/conv3d_bp_filter_tiling.cpp``) that plans
one GEMM (:class:`~ascend_xdsl.passes.dw_gemm_view.GemmView`) within the on-chip buffers. This
module re-implements that procedure from a description of the vendor's (its source was read only
to settle ambiguities, none of it is copied); the vendor facts are listed in
docs/architecture.md, "Sources". Step by step:

1. Strategy: SplitMN if sH·sW > 1 and kH·kW divides or is a multiple of 16, else SplitK
   (SPLIT_N_K when M > N, SPLIT_M_K otherwise); iterate_order = ORDER_N iff M > N.
2. InitBaseMNK, the L1 depth ladder ((16,16) down by 2 then 1 for SplitMN; (8,8) halving the
   larger side, ties on the non-resident side, for SplitK), UpdateStepMNK, the validity test
   IsCurBlockL1L0Invalid (L0A/L0B double-buffered, L1 = A1 + bl1Bound), UpdateSingleCoreInfo,
   and ShrinkBaseBlock when even depth 1/1 does not fit (e.g. very wide Wi).

Where it fits. The heuristic (``dw_tiling_heuristic.py``) runs it on the whole problem, whose
core-bind direction and basic block bound the multi-core split (``core_split.py``), then again
on one core's share; ``dw_tiling_record.py`` turns the resulting :class:`BlockState` into the
``DwTiling`` fields. :func:`block_tiling` is the whole procedure with its one check.

Deviations from the vendor, each for problems its own procedure cannot tile: the B1 bound never
counts more Cin1 rows than the GEMM has (``bl1_bound_for``'s ``cin1_rows``; the vendor's formula
counts two rows for a one-row Cin, an RGB stem, which makes layers such as the VideoMAE tubelet
embedding, kernel 2x16x16 on 224-wide rows, overflow L1 where one row fits); and when even
ShrinkBaseBlock leaves the block overflowing L1 (a very wide Wi with a tall dilated kernel), the
vendor returns that invalid tiling unchecked, :func:`block_tiling` raises :class:`TilingError`.
Neither changes any of the vendor's unit-test tilings. Only 2-byte element types (fp16/bf16,
C0 = 16) are supported, as in ``ConvBpFilterShape``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_xdsl.dialects.conv_shape import align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import (
    FRACTAL,
    ITERATE_ORDER_M,
    ITERATE_ORDER_N,
    bl1_bound_for,
    cin1_copy_len,
    hi_rows_for,
    ho_rows_bound,
)
from ascend_xdsl.passes.dw_gemm_view import BufferCapacities, GemmView

SPLIT_M_K = 1
"""coreBindDirection: cores split M and K, N is whole per task (A1 resident)."""
SPLIT_N_K = 2
"""coreBindDirection: cores split N and K, M is whole per task (B1 resident)."""
SPLIT_M_N = 3
"""coreBindDirection: cores split M and N, K is whole per task."""

L0_DOUBLE_BUFFER = 2
"""The vendor always sizes L0A/L0B as double-buffered (al0/bl0Pbuffer = 2)."""


class TilingError(ValueError):
    """Raised when the heuristic cannot tile a problem: it is illegal, or no block fits the
    buffers."""


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
        s = self.state
        self.start(SPLIT_M_N)
        depth_a, depth_b = 16, 16
        while depth_a >= 1 and depth_b >= 1:
            self.try_depths(depth_a, depth_b)
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
        self.start(SPLIT_N_K if v.m > v.n else SPLIT_M_K)
        depth_a, depth_b = 8, 8
        while depth_a >= 1 and depth_b >= 1:
            self.try_depths(depth_a, depth_b)
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
    def start(self, direction: int) -> None:
        """Begin a strategy: its core-bind direction and initial base tile, L1 double-buffered."""
        s, v = self.state, self.view
        s.iterate_order = ITERATE_ORDER_N if v.m > v.n else ITERATE_ORDER_M
        s.direction = direction
        self.init_base_mnk()
        s.db_l1a = s.db_l1b = 2

    def try_depths(self, depth_a: int, depth_b: int) -> None:
        """One rung of the L1 depth ladder: A1/B1 depths in base tiles, steps from scratch."""
        s = self.state
        s.depth_a1, s.depth_b1 = depth_a, depth_b
        s.step_m = s.step_n = 1
        self.update_step_mnk()

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


def block_tiling(view: GemmView, capacities: BufferCapacities) -> BlockState:
    """The API tiler's plan of ``view``; raises :class:`TilingError` when even the shrunk base
    block overflows the buffers."""
    tiler = ApiBlockTiler(view, capacities)
    state = tiler.run()
    if tiler.is_invalid():
        raise TilingError(
            f"no dW tiling fits: base {state.base_m}/{state.base_k}/{state.base_n} still needs "
            f"{tiler.l1_bytes()} B of L1 (has {capacities.l1} B) or overflows L0"
        )
    return state
