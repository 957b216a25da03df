"""The input gradient's ``Conv3DBackpropInput`` object at the hardware level: the buffers
``Init`` allocates and the walk of one ``while (Iterate) GetTensorC`` loop (hicann/asc-devkit
``impl/adv_api/detail/conv_backprop/conv3d_backprop_input/dav_v220/``:
``conv3d_bp_input_mte2_sub_func.h`` ``LoadToA1`` and ``LoadToB1``, ``conv3d_bp_input_sub_func.h``
``LoadToB2V1`` and the ``Mmad``/``LoadL0c2Gm`` steps).

dX is a plain convolution of dy, dilated by the strides and padded by the *backprop pads*
(``dialects/conv3d_bp_input_tiling.backprop_pads``), with the weight rotated by 180° in H and W
and its Cin and Cout exchanged. One iterate loop computes one dX depth, the one
``SetStartPosition`` names (asc-devkit's ``SetSingleShape`` sets the single shape's Din to 1;
the API kernel loops over a core's depths, one series each): its single shape
(``singleShapeM`` dX positions Hi·Wi in whole rows × ``singleShapeN`` Cin channels) is the GEMM
``dX[m, ci] = Σ_k img2col(dy)[m, k] · W'[k, ci]`` with K = (kd, Cout1, kh, kw, C0), walked as
``scf.for`` loops whose tails are ``arith``:

* per ``base_m × base_n`` L0C tile (``CO1``, ping-pong per tile);
* per kernel depth ``kd`` whose dy depth ``(di + pad_front − kd·dil_d) / stride_d`` is an
  integer inside dy (the others add nothing: the walk steps over the kd of one residue class,
  the vendor's rotated D loop read forwards), and per chunk of ``kc1`` Cout1 blocks: the dy rows
  the tile's positions read, dilated by the strides, ``[C1][rows][width][C0]`` GM → A1
  (``LoadToA1``: at stride 1 one copy of ``rows·Wo`` blocks per Cout1 block; with a stride the
  slot is first zeroed by a ``fill``, the vendor's ``InitConstValue``, and each real row copied
  to every sH-th row, its elements sW − 1 blocks apart by the copy's destination gap), and the
  chunk's weight fractals of every tap and the tile's Cin1 blocks GM → B1 (``LoadToB1``:
  ``Cin1·kH·kW`` runs of ``Cout1`` fractals). When no kd reaches dy, one still runs with an
  empty window, whose img2col reads zeros, so that L0C is initialised;
* per k step of ``base_k`` columns: img2col of the A1 window into L0A by a non-transposed
  ``load3d`` (Zz) over the *backprop* pads at stride 1 with the forward's dilation (the Fmatrix
  over the dilated width); one transposing ``load2d`` per K fractal row into L0B, reading the
  weight taps backwards (the rotation; ``LoadToB2V1``'s "transpose reverse order"), then
  ``mmad`` (``init`` on the tile's first k step);
* the tile ends with a quantising ``fixpipe``: L0C float32 → dX (NDC1HWC0, f16 / bf16).

Every dX element is summed on one core (the API kernel does not split K), so no atomic add is
needed. More than one enlarged group is refused with one line (the runtime runs one launch per
group; the vendor's tiler takes groups 1 only).

At ``stride_h`` > 1, where :func:`row_walk_taps` says it issues fewer (tile, kernel-row)
pairs, the walk departs from the vendor's (:meth:`InputGradWalk.emit_rows`): one dX row (or a
``base_m`` piece of it) an L0C tile, per residue ``k0`` of its kernel rows that reach real dy
rows, only those ``ceil(kH / sH)`` rows: A1 holds the real dy rows they read (``dil_h`` apart,
no inserted zero rows), Load3D runs them at stride 1 and dilation ``dil_h``, B1 holds their
weight taps only. The vendor's Iterate, which the emitted Ascend C calls, walks every kh.

``patterns.py`` replaces each iterate loop of a ``conv3d_bp_input_create`` object by
:meth:`InputGradWalk.emit`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import f32
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv_shape import C0, align_up
from ascend_xdsl.dialects.enums import TPosition
from ascend_xdsl.dialects.formats import fractal_z_3d_strides, ndc1hwc0_strides
from ascend_xdsl.dialects.hw_level import DataCopyOp, FillOp, Load2dOp
from ascend_xdsl.hw import isa
from ascend_xdsl.hw.intmath import ceil_div
from ascend_xdsl.lowering.index_arith import (
    Idx,
    add,
    align_up_idx,
    and_,
    ceildiv,
    cmp,
    floordiv,
    for_loop,
    if_,
    max_,
    min_,
    mul,
    rem,
    sub,
    sum_,
    value,
)
from ascend_xdsl.lowering.lower_api_to_hw.conv_common import (
    Img2colWindow,
    alloc,
    fixpipe_nz,
    mmad_l0,
    pingpong,
    select_or_zero,
)

FRACTAL_ELEMS = C0 * C0
"""Elements of one 16 × 16 fractal (the unit of load2d)."""

FRACTAL_BLOCKS = FRACTAL_ELEMS // C0
"""32-byte blocks of one 2-byte fractal (the unit of data_copy's lengths)."""

MAX_COPY_COUNT = isa.limit("data_copy", "count").hi
MAX_COPY_LEN = isa.limit("data_copy", "len").hi
MAX_COPY_STRIDE = isa.limit("data_copy", "src_stride").hi
MAX_LOAD2D_REPEAT = isa.limit("load2d", "repeat").hi


def _fail(message: str) -> PassFailedException:
    return PassFailedException(f"lower-ascend-api-to-hw: {message}")


def row_walk_taps(t: Conv3DBpInputTiling) -> int:
    """The (tile, kernel-row tap) pairs per dX depth and Cin tile the stride-aware row walk
    saves over the vendor's walk on one core's single shape, or 0 when it is not taken.

    With ``stride_h`` > 1 a dX row ``h`` reads the stride-dilated dy row
    ``h − pad_up' + kh·dil_h`` (``pad_up'`` the backprop pad), a real one only when that is a
    multiple of sH: when ``gcd(dil_h, sH)`` = 1, for the taps ``kh ≡ k0 (mod sH)`` of one
    residue ``k0`` of the row. The vendor's walk (L0C tiles of ``base_m`` positions across
    rows) runs every kh on every tile, mostly on inserted zeros; the row walk takes one dX row
    (or a ``base_m`` piece of it, since Fixpipe writes contiguous positions) a tile and only
    the taps of its residue, ``ceil(kH / sH)`` of them (the residues of fewer real taps read
    one past the window: zeros), on an A1 of real dy rows ``dil_h`` apart (Load3D dilation
    ``dil_h``, so no new Load3D limit). Every residue runs in one loop body: a body per tap
    count would take a set of event ids each.

    Taken when it issues fewer pairs than the plain walk, counted for the tiling's single
    shape (``single_core_m / Wi`` rows); refused (0) at stride_h 1, when the single shape is
    not whole rows, and when gcd(dil_h, sH) > 1 (then some rows read no real dy row through
    any tap and would interleave with each residue's: not written by this walk)."""
    sh = t.stride_h
    if sh <= 1 or _gcd(t.dilation_h, sh) != 1 or t.single_core_m % t.wi:
        return 0
    walk = ceil_div(t.wi, t.base_m) * (t.single_core_m // t.wi) * ceil_div(t.hk, sh)
    plain = ceil_div(t.single_core_m, t.base_m) * t.hk
    return max(plain - walk, 0)


@dataclass(frozen=True)
class _DyRows:
    """The dy rows of one L0C tile: real rows ``[r0, r0 + rows)`` in A1 as ``rows_a1`` rows
    (``row_step`` apart), the Load3D rows above them (``pad_top``, built when the window is),
    its H kernel and dilation, the B1 tap of each Load3D tap (K order of one Cout1 block), the
    tile's first position among Load3D's and the weight rows B1 holds."""

    r0: Idx
    rows: Idx
    rows_a1: Idx
    row_step: int
    pad_top: Callable[[], Idx]
    kernel_h: int
    dilation_h: int
    b1_tap: Callable[[Idx], Idx]
    m_first: Idx
    weight_row: Callable[[Idx], Idx] | None = None
    """The row walk: the weight kernel row of Load3D kernel row ``j``, whose ``kW`` taps B1
    holds as its ``j``-th; None: B1 holds every tap."""


@dataclass(frozen=True)
class InputGradBuffers:
    """What ``Init`` allocates: A1 (dy rows), B1 (weight fractals), A2, B2, CO1."""

    a1: SSAValue
    b1: SSAValue
    a2: SSAValue
    b2: SSAValue
    co1: SSAValue


@dataclass(frozen=True)
class InputGradShape:
    """What the ``set_*`` calls before one iterate loop hand over, and where ``GetTensorC``
    writes."""

    dy: SSAValue
    off_dy: SSAValue
    w: SSAValue
    off_w: SSAValue
    dx: SSAValue
    off_dx: SSAValue
    m: SSAValue
    k: SSAValue
    n: SSAValue
    din_start: Idx
    ho_start: Idx


@dataclass(frozen=True)
class InputGradPlan:
    """The static sizes of the walk, from the tiling and the L1 size."""

    t: Conv3DBpInputTiling
    m_al: int
    n_al: int
    k_step: int
    """Columns of one k step (whole C0 blocks)."""
    kc1: int
    """Cout1 blocks of one A1 window (and of one B1 load)."""
    rows_max: int
    """dy rows of one A1 window at most."""
    width: int
    """dy columns copied into a window row: those the dX row's taps can reach."""
    pad_right: int
    """Load3D's right pad over ``width`` columns, so that a row gives exactly Wi positions."""
    row_walk: bool = False
    """The stride-aware row walk (:func:`row_walk_taps`) instead of the vendor's walk."""

    @staticmethod
    def of(t: Conv3DBpInputTiling, l1_size: int) -> InputGradPlan:
        if t.group != 1:
            raise _fail(
                f"the input gradient's hardware lowering takes one enlarged group, got {t.group}"
            )
        m_al, n_al = align_up(t.base_m, C0), align_up(t.base_n, C0)
        k_step = max(C0, t.base_k // C0 * C0)
        hwk = t.hk * t.wk
        reach_w = t.dilation_w * (t.wk - 1)
        # The stride-dilated dy row is (Wo − 1)·sW + 1 wide; its column c is read by dX column
        # c − pad_left + tap·dil, so the columns past Wi − 1 + reach − pad_left reach no dX
        # column (a pad after above the reach) and are not copied.
        width = min((t.wo - 1) * t.stride_w + 1, t.wi + reach_w - t.backprop_pad_left)
        pad_right = t.wi + reach_w - t.backprop_pad_left - width
        row_walk = row_walk_taps(t) > 0
        if row_walk:
            # One dX row reads the real dy rows of its kept taps, dil_h apart.
            rows_max = min(t.ho, (ceil_div(t.hk, t.stride_h) - 1) * t.dilation_h + 1)
        else:
            span = (t.base_m - 1) // t.wi + 2  # dX rows one tile's positions touch
            rows_max = min((t.ho - 1) * t.stride_h + 1, span + t.dilation_h * (t.hk - 1))
        if t.ho * t.wo > MAX_COPY_LEN or t.ho * t.wo > MAX_COPY_STRIDE:
            raise _fail(
                f"a dy plane of {t.ho}x{t.wo} positions exceeds one data_copy "
                f"({MAX_COPY_LEN} blocks)"
            )
        n1 = n_al // C0
        b1_taps = ceil_div(t.hk, t.stride_h) * t.wk if row_walk else hwk
        a1_per_c1 = rows_max * width * C0 * 2 * t.al1_pbuffer
        b1_per_c1 = n1 * b1_taps * FRACTAL_ELEMS * 2 * t.bl1_pbuffer
        kc1 = min(t.cout1_g, l1_size // (a1_per_c1 + b1_per_c1))
        if kc1 < 1:
            raise _fail(
                f"the {rows_max} dy rows and the {n1}x{b1_taps} weight fractals of one Cout1 block "
                f"({a1_per_c1 + b1_per_c1} bytes) do not fit L1 ({l1_size} bytes)"
            )
        if n1 * hwk > MAX_COPY_COUNT or n1 > MAX_LOAD2D_REPEAT:
            raise _fail(
                f"base_n {t.base_n} with a {t.hk}x{t.wk} kernel exceeds one weight data_copy "
                f"({MAX_COPY_COUNT} runs) or load2d ({MAX_LOAD2D_REPEAT} fractals)"
            )
        if not row_walk and (t.stride_h - 1) * width > isa.limit("data_copy", "dst_stride").hi:
            raise _fail(
                f"stride_h {t.stride_h} over a {width}-wide dilated dy row exceeds one "
                "data_copy's destination gap"
            )
        plan = InputGradPlan(t, m_al, n_al, k_step, kc1, rows_max, width, pad_right, row_walk)
        if plan.a1_blocks > isa.limit("fill", "block_num").hi:
            raise _fail(f"an A1 slot of {plan.a1_blocks} blocks exceeds one fill")
        return plan

    @property
    def b1_taps(self) -> int:
        """Weight taps a Cin1 block holds in B1: every one, or the row walk's
        ``ceil(kH / sH)`` kernel rows of one residue."""
        t = self.t
        return ceil_div(t.hk, t.stride_h) * t.wk if self.row_walk else t.hk * t.wk

    @property
    def a1_blocks(self) -> int:
        """32-byte blocks of one A1 slot (what the zeroing ``fill`` covers)."""
        return self.kc1 * self.rows_max * self.width

    def allocate(self, element_type: Attribute) -> InputGradBuffers:
        t = self.t
        n1 = self.n_al // C0
        return InputGradBuffers(
            a1=alloc(
                TPosition.A1,
                self.kc1 * C0 * self.rows_max * self.width,
                element_type,
                t.al1_pbuffer,
            ),
            b1=alloc(
                TPosition.B1,
                self.kc1 * n1 * self.b1_taps * FRACTAL_ELEMS,
                element_type,
                t.bl1_pbuffer,
            ),
            a2=alloc(TPosition.A2, self.m_al * self.k_step, element_type, t.al0_pbuffer),
            b2=alloc(TPosition.B2, self.k_step * self.n_al, element_type, t.bl0_pbuffer),
            co1=alloc(TPosition.CO1, self.m_al * self.n_al, f32, t.cl0_pbuffer),
        )


class InputGradWalk:
    """Emits one iterate loop: the walk of one single shape of one batch at one dX depth."""

    def __init__(self, plan: InputGradPlan, bufs: InputGradBuffers, s: InputGradShape):
        self.p, self.t, self.b, self.s = plan, plan.t, bufs, s
        t = self.t
        self.hwk = t.hk * t.wk
        self.dy_s = ndc1hwc0_strides((t.batch, t.cout, t.dout, t.ho, t.wo), C0)
        self.dx_s = ndc1hwc0_strides((t.batch, t.cin, t.di, t.hi, t.wi), C0)
        self.w_s = fractal_z_3d_strides(t.dk, t.hk, t.wk, t.cin1_g, t.cout1_g, C0)
        # The kd of one dX depth that reach dy step by q = stride_d / gcd(dil_d, stride_d);
        # inv solves kd·(dil_d/g) ≡ (di + pad_front)/g (mod q).
        g = _gcd(t.dilation_d, t.stride_d)
        self.kd_gcd, self.kd_step = g, t.stride_d // g
        self.kd_inv = pow(t.dilation_d // g, -1, self.kd_step) if self.kd_step > 1 else 0

    def emit(self) -> None:
        if self.p.row_walk:
            self.emit_rows()
            return
        t, s = self.t, self.s
        m_tiles = ceildiv(s.m, t.base_m)
        n_tiles = ceildiv(s.n, t.base_n)
        with (
            for_loop(0, m_tiles, name="mt") as mt,
            for_loop(0, n_tiles, name="nt") as nt,
        ):
            tile = add(mul(mt, n_tiles), nt)
            self.tile(s.din_start, mt, nt, pingpong(tile, t.cl0_pbuffer))

    def emit_rows(self) -> None:
        """The row walk (:func:`row_walk_taps`): per tap residue ``k0 < sH``, the single
        shape's rows ``i`` of that residue (``ho_start + i + k0·dil_h ≡ 0 mod sH``: every sH-th
        row), each row's ``base_m`` pieces and the Cin tiles, of the series' one dX depth."""
        t, s = self.t, self.s
        sh = t.stride_h
        rows_total = floordiv(s.m, t.wi)
        pieces = ceil_div(t.wi, t.base_m)
        n_tiles = ceildiv(s.n, t.base_n)
        per_k0 = ceil_div(t.hi, sh) * pieces  # tiles of one residue at most: a slot counter
        with for_loop(0, min(sh, t.hi), name="k0") as k0:
            num = add(s.ho_start, mul(k0, t.dilation_h))
            # The residue's first row i0 and the real dy row its tap k0 reads, ``base``.
            base = ceildiv(num, sh)
            i0 = sub(mul(base, sh), num)
            count = ceildiv(max_(sub(rows_total, i0), 0), sh)
            # Its real taps k0 + j·sH below kH (none when k0 ≥ kH).
            taps = ceildiv(max_(sub(t.hk, k0), 0), sh)
            with (
                for_loop(0, count, name="ri") as ri,
                for_loop(0, pieces, name="pc") as pc,
                for_loop(0, n_tiles, name="nt") as nt,
            ):
                row = add(i0, mul(ri, sh))
                counter = sum_(
                    mul(k0, per_k0 * n_tiles),
                    mul(add(mul(ri, pieces), pc), n_tiles),
                    nt,
                )
                self.row_tile(
                    s.din_start,
                    row,
                    add(base, ri),
                    k0,
                    taps,
                    pc,
                    nt,
                    pingpong(counter, t.cl0_pbuffer),
                )

    def row_tile(
        self, di: Idx, row: Idx, first: Idx, k0: Idx, taps: Idx, pc: Idx, nt: Idx, c_slot: Idx
    ) -> None:
        """One L0C tile of the row walk: piece ``pc`` of the single shape's dX row ``row``,
        whose real taps ``k0 + j·sH`` (``j < taps``) read real dy rows ``first + j·dil_h``.
        Load3D runs ``ceil(kH / sH)`` taps: those past ``taps`` read below the window, zeros."""
        t, s = self.t, self.s
        piece = mul(pc, t.base_m)
        use_m = min_(t.base_m, sub(t.wi, piece))
        use_n = min_(t.base_n, sub(s.n, mul(nt, t.base_n)))
        n_al = align_up_idx(use_n, C0)
        n1 = floordiv(n_al, C0)
        p0 = add(mul(row, t.wi), piece)
        # The real dy rows [r0, last] of the taps (none when taps is 0: last < first).
        last = min_(add(first, mul(sub(taps, 1), t.dilation_h)), t.ho - 1)
        r0 = max_(first, 0)
        rows = max_(add(sub(last, r0), 1), 0)
        pad_top = sub(r0, first)
        sh, wk = t.stride_h, t.wk

        def weight_row(j: Idx) -> Idx:
            # Load3D kernel row j is the rotated kernel row kh = k0 + j·sH, the weight's row
            # kH − 1 − kh (a zero tap past kH reads weight row 0: any finite row).
            return sub(t.hk - 1, min_(add(k0, mul(j, sh)), t.hk - 1))

        def b1_tap(tap: Idx) -> Idx:
            # Load3D tap (j, kw) is B1's (j, kW − 1 − kw): the columns read backwards.
            return add(mul(floordiv(tap, wk), wk), sub(wk - 1, rem(tap, wk)))

        rows_a = _DyRows(
            r0=r0,
            rows=rows,
            rows_a1=rows,
            row_step=1,
            pad_top=lambda: pad_top,
            kernel_h=ceil_div(t.hk, sh),
            dilation_h=t.dilation_h,
            b1_tap=b1_tap,
            m_first=piece,
            weight_row=weight_row,
        )
        self._accumulate(di, p0, use_m, use_n, n_al, n1, nt, c_slot, rows_a)

    def _kd_walk(self, di: Idx) -> tuple[Idx, Idx, Idx]:
        """``(first, count, trips)``: the kd that reach dy from dX depth ``di`` are
        ``first + i·kd_step`` for ``i < count``; the loop runs ``trips = max(count, 1)``."""
        t = self.t
        q = self.kd_step
        num = add(di, t.pad_front)  # dy depth · stride_d = num − kd·dil_d
        # kd ≤ num / dil_d (dy depth ≥ 0) and kd ≥ (num − (Dout − 1)·stride_d) / dil_d.
        kd_hi = min_(add(floordiv(num, t.dilation_d), 1), t.dk)
        kd_lo = max_(ceildiv(max_(sub(num, (t.dout - 1) * t.stride_d), 0), t.dilation_d), 0)
        g = self.kd_gcd
        first: Idx = kd_lo
        if q > 1:
            residue = rem(mul(floordiv(num, g), self.kd_inv), q)
            first = add(kd_lo, rem(add(sub(residue, rem(kd_lo, q)), q), q))
        # No kd reaches dy when g does not divide num (kd·dil_d ≡ num mod stride_d).
        solvable = cmp("eq", rem(num, g), 0) if g > 1 else True
        count = ceildiv(max_(sub(kd_hi, first), 0), q)
        if solvable is not True:
            count = select_or_zero(solvable, count)
        return first, count, max_(count, 1)

    def tile(self, di: Idx, mt: Idx, nt: Idx, c_slot: Idx) -> None:
        t, s = self.t, self.s
        use_m = min_(t.base_m, sub(s.m, mul(mt, t.base_m)))
        use_n = min_(t.base_n, sub(s.n, mul(nt, t.base_n)))
        n_al = align_up_idx(use_n, C0)
        n1 = floordiv(n_al, C0)
        # The dilated dy rows the tile's positions read: dX rows [h_a, h_b] (relative to the
        # single shape's first row) read rows h + ho_start + tap·dil_h of the stride-dilated dy,
        # whose real rows are the multiples of stride_h. The window starts at the first real
        # one, r0·sH, and holds ``rows`` real rows sH apart.
        p0 = mul(mt, t.base_m)
        h_a = floordiv(p0, t.wi)
        h_b = floordiv(sub(add(p0, use_m), 1), t.wi)
        lo = add(s.ho_start, h_a)
        hi = add(add(s.ho_start, h_b), t.dilation_h * (t.hk - 1))
        r0 = ceildiv(max_(lo, 0), t.stride_h)
        r1 = min_(floordiv(hi, t.stride_h), t.ho - 1)
        rows = max_(add(sub(r1, r0), 1), 0)
        rows_exp = max_(add(mul(sub(rows, 1), t.stride_h), 1), 0)
        m_first = sub(p0, mul(h_a, t.wi))
        rows_a = _DyRows(
            r0=r0,
            rows=rows,
            rows_a1=rows_exp,
            row_step=t.stride_h,
            pad_top=lambda: sub(mul(r0, t.stride_h), lo),
            kernel_h=t.hk,
            dilation_h=t.dilation_h,
            b1_tap=lambda tap: sub(self.hwk - 1, tap),
            m_first=m_first,
        )
        self._accumulate(di, p0, use_m, use_n, n_al, n1, nt, c_slot, rows_a)

    def _accumulate(
        self,
        di: Idx,
        p0: Idx,
        use_m: Idx,
        use_n: Idx,
        n_al: Idx,
        n1: Idx,
        nt: Idx,
        c_slot: Idx,
        a: _DyRows,
    ) -> None:
        """One L0C tile's sum over kd, Cout1 chunks and k steps (dy rows ``a`` in A1, img2col
        into L0A, the weight into L0B, mmad), then its fixpipe to dX position ``p0``."""
        t, s, b, p = self.t, self.s, self.b, self.p
        # SetGradOutput points at the first real dy row of the single shape (the API kernel's
        # max(0, ceil(ho_start / stride_h))).
        real_ho = ceildiv(max_(s.ho_start, 0), t.stride_h)
        cout1 = floordiv(s.k, t.dk * self.hwk * C0)
        chunks = ceildiv(cout1, p.kc1)
        kd_first, kd_count, kd_trips = self._kd_walk(di)
        ci1_first = floordiv(mul(nt, t.base_n), C0)
        taps = a.kernel_h * t.wk
        b1_taps = p.b1_taps
        with for_loop(0, kd_trips, name="kdi") as kdi:
            # An empty trip (no kd reaches dy) reads a kd inside the weight, with no dy rows.
            kd = min_(add(kd_first, mul(kdi, self.kd_step)), t.dk - 1)
            inside = cmp("slt", kdi, kd_count)
            dout = floordiv(sub(add(di, t.pad_front), mul(kd, t.dilation_d)), t.stride_d)
            window_rows = select_or_zero(inside, a.rows_a1)
            with for_loop(0, chunks, name="cc") as cc:
                run = add(mul(kdi, chunks), cc)
                a_slot = pingpong(run, t.al1_pbuffer)
                b_slot = pingpong(run, t.bl1_pbuffer)
                c1_first = mul(cc, p.kc1)
                c1_rows = min_(p.kc1, sub(cout1, c1_first))
                with if_(and_(inside, cmp("sgt", a.rows, 0))):
                    self._copy_dy(
                        dout,
                        c1_first,
                        c1_rows,
                        a.r0,
                        a.rows,
                        a.rows_a1,
                        a.row_step,
                        real_ho,
                        a_slot,
                    )
                self._copy_weight(kd, ci1_first, c1_first, c1_rows, n1, b_slot, a.weight_row)
                window = Img2colWindow(
                    rows=window_rows,
                    width=p.width,
                    channels=mul(c1_rows, C0),
                    pad_top=a.pad_top(),
                    pad_bottom=min(t.backprop_pad_down, isa.limit("load3d", "pad").hi),
                    pad_left=t.backprop_pad_left,
                    pad_right=p.pad_right,
                    kernel=(a.kernel_h, t.wk),
                    stride=(1, 1),
                    dilation=(a.dilation_h, t.dilation_w),
                )
                columns = mul(c1_rows, taps * C0)
                k_steps = ceildiv(columns, p.k_step)
                with for_loop(0, k_steps, name="ks") as ks:
                    k0 = mul(ks, p.k_step)
                    use_k = min_(p.k_step, sub(columns, k0))
                    l0 = pingpong(add(mul(run, k_steps), ks), t.al0_pbuffer)
                    window.load3d(
                        b.a1, a_slot, 0, b.a2, l0, k0, use_k, a.m_first, align_up_idx(use_m, C0)
                    )
                    self._load_weight(b_slot, l0, k0, use_k, c1_rows, n1, taps, a.b1_tap, b1_taps)
                    first = and_(and_(cmp("eq", kdi, 0), cmp("eq", cc, 0)), cmp("eq", ks, 0))
                    mmad_l0(b, l0, c_slot, use_m, use_n, use_k, first)
        dst = sum_(
            s.off_dx,
            mul(di, self.dx_s.d),
            mul(ci1_first, self.dx_s.c1),
            mul(p0, C0),
        )
        fixpipe_nz(b.co1, c_slot, s.dx, dst, use_m, n_al, self.dx_s.c1)

    def _copy_dy(
        self,
        dout: Idx,
        c1_first: Idx,
        c1_rows: Idx,
        r0: Idx,
        rows: Idx,
        rows_exp: Idx,
        row_step: int,
        real_ho: Idx,
        slot: Idx,
    ) -> None:
        """LoadToA1: dy rows ``[r0, r0 + rows)`` of depth ``dout`` and the chunk's Cout1 blocks
        GM → A1, dilated by the strides: ``[C1][rows_exp][width][C0]`` with real row ``j`` at
        row ``j·row_step`` (``sH``; 1 for the row walk, whose A1 holds real rows only) and real
        column ``c`` at column ``c·sW``, the rest zero (the slot is zeroed first, as the
        vendor's ``InitConstValue``)."""
        t, s, b, p = self.t, self.s, self.b, self.p
        src = sum_(
            s.off_dy,
            mul(dout, self.dy_s.d),
            mul(c1_first, self.dy_s.c1),
            mul(sub(r0, real_ho), self.dy_s.h),
        )
        sh, sw = row_step, t.stride_w
        if sh == 1 and sw == 1 and p.width == t.wo:
            # Whole rows: one run of rows·Wo blocks per Cout1 block.
            DataCopyOp(
                s.dy,
                value(src),
                b.a1,
                value(slot),
                value(0),
                value(c1_rows),
                value(mul(rows, t.wo)),
                value(mul(sub(t.ho, rows), t.wo)),
                value(0),
            )
            return
        if sh * sw > 1:
            FillOp(b.a1, value(slot), value(0), value(1), value(p.a1_blocks), value(0))
        plane = mul(rows_exp, p.width * C0)
        cols = (p.width - 1) // sw + 1  # the real dy columns of a window row
        with for_loop(0, c1_rows, name="c1") as c1:
            c1_src, c1_dst = add(src, mul(c1, self.dy_s.c1)), mul(c1, plane)
            if sw == 1:
                # One run of ``cols`` blocks per real row, rows sH apart.
                DataCopyOp(
                    s.dy,
                    value(c1_src),
                    b.a1,
                    value(slot),
                    value(c1_dst),
                    value(rows),
                    value(cols),
                    value(t.wo - cols),
                    value((sh - 1) * p.width),
                )
            else:
                # One C0 block per run, sW − 1 blocks apart, per real row (LoadToA1's
                # strideW > 1 branch).
                with for_loop(0, rows, name="r") as r:
                    DataCopyOp(
                        s.dy,
                        value(add(c1_src, mul(r, self.dy_s.h))),
                        b.a1,
                        value(slot),
                        value(add(c1_dst, mul(r, sh * p.width * C0))),
                        value(cols),
                        value(1),
                        value(0),
                        value(sw - 1),
                    )

    def _copy_weight(
        self,
        kd: Idx,
        ci1_first: Idx,
        c1_first: Idx,
        c1_rows: Idx,
        n1: Idx,
        b_slot: Idx,
        weight_row: Callable[[Idx], Idx] | None,
    ) -> None:
        """LoadToB1: per (Cin1, tap), the chunk's Cout1 fractals, one run each: every tap in one
        copy, or with ``weight_row`` (the row walk) per Cin1 block and Load3D kernel row ``j``
        the ``kW`` taps of weight row ``weight_row(j)``, B1's ``[ci1][j][kw][c1]``."""
        t, s, b = self.t, self.s, self.b
        run_len = mul(c1_rows, FRACTAL_BLOCKS)
        run_gap = mul(sub(t.cout1_g, c1_rows), FRACTAL_BLOCKS)
        if weight_row is None:
            w_src = sum_(
                s.off_w,
                mul(kd, self.w_s.kd),
                mul(ci1_first, self.w_s.c1),
                mul(c1_first, FRACTAL_ELEMS),
            )
            DataCopyOp(
                s.w,
                value(w_src),
                b.b1,
                value(b_slot),
                value(0),
                value(mul(n1, self.hwk)),
                value(run_len),
                value(run_gap),
                value(0),
            )
            return
        rows = self.p.b1_taps // t.wk
        with (
            for_loop(0, n1, name="ci") as ci,
            for_loop(0, rows, name="j") as j,
        ):
            w_src = sum_(
                s.off_w,
                mul(kd, self.w_s.kd),
                mul(add(ci1_first, ci), self.w_s.c1),
                mul(weight_row(j), self.w_s.kh),
                mul(c1_first, FRACTAL_ELEMS),
            )
            dst = mul(mul(add(mul(ci, rows), j), t.wk), mul(c1_rows, FRACTAL_ELEMS))
            DataCopyOp(
                s.w,
                value(w_src),
                b.b1,
                value(b_slot),
                value(dst),
                value(t.wk),
                value(run_len),
                value(run_gap),
                value(0),
            )

    def _load_weight(
        self,
        b_slot: Idx,
        l0: Idx,
        k0: Idx,
        use_k: Idx,
        c1_rows: Idx,
        n1: Idx,
        taps: int,
        b1_tap: Callable[[Idx], Idx],
        b1_taps: int,
    ) -> None:
        """LoadToB2: K fractal row ``kb`` of the k step is (Cout1 block, tap) of the chunk, the
        ``taps`` Load3D taps of one Cout1 block; its ``n1`` fractals are B1's
        ``[ci1][b1_tap(tap)][c1]`` (``hwk − 1 − tap``: the tap read backwards, the 180°
        rotation; ``b1_taps`` taps a Cin1 block), each transposed from ``[cout][cin]`` to the Zn
        ``[cin][cout]``."""
        b = self.b
        kb0 = floordiv(k0, C0)
        with for_loop(0, floordiv(use_k, C0), name="kb") as kb:
            c1, tap = floordiv(add(kb0, kb), taps), rem(add(kb0, kb), taps)
            src = mul(add(mul(b1_tap(tap), c1_rows), c1), FRACTAL_ELEMS)
            Load2dOp(
                b.b1,
                value(b_slot),
                value(src),
                b.b2,
                value(l0),
                value(mul(mul(kb, n1), FRACTAL_ELEMS)),
                value(n1),
                value(mul(c1_rows, b1_taps)),
                transpose=True,
            )


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
