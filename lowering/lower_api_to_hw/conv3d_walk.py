"""The forward ``Conv3D`` object at the hardware level: the buffers ``Init`` allocates and the
walk of one ``IterateAll`` (hicann/asc-devkit ``include/adv_api/conv/conv3d/conv3d_api.h`` and
``impl/adv_api/detail/conv/conv3d/``: ``LoadAL1``, ``LoadBL1``, ``LoadAL0`` by img2col,
``LoadBL0``, ``Mmad``, ``GetTensorC`` through the fixpipe).

One ``IterateAll`` computes the core's single output shape (``singleCo`` channels ×
``singleDo`` depths × ``singleM`` Ho·Wo positions) of one batch as a GEMM per output depth:
``y[m, co] = Σ_k img2col(x)[m, k] · W[k, co]``, K = (kd, Cin1, kh, kw, C0), walked as the
vendor's kernel walks the tiling's L1 and L0 tiles (``conv3d_iterate_base_impl.h``:
``IterateMFirst`` / ``IterateNFirst``, ``LoadAL1Process``, ``LoadBL1Process``, the ``ReduceK``
loop; ``dav_m220/conv3d_mte2_sub_api.h``: ``LoadAL1``, padding depths zero-filled by
``InitConstValue``), as ``scf.for`` loops whose tails are ``arith`` (the IR does not grow with
the problem):

* the L1 blocks in ``iterateMNOrder``: M first, ``nBL1`` channels outermost, then the output
  depth, then ``mAL1`` positions; N first, the depth, then ``mAL1``, then ``nBL1``; inside a
  block its ``mL0 × nL0`` L0C tiles (``CO1``, ping-pong per tile), M or N innermost as the
  order says;
* A1 holds ``cin1InAL1`` planes (a (kd, Cin1) pair each: a factor of Cin1, or whole kernel
  depths) of the Hi rows the block's positions read, ``[plane][rows][Wi][C0]``, copied GM → A1
  (a depth that is padding is zero-filled by ``fill``). When ``kAL1`` is the whole K, A1 is
  loaded once per ``mAL1`` block and stays for its tiles; else each tile reloads it per
  ``kAL1`` chunk of its K loop. B1 holds ``kBL1`` rows of ``nBL1`` channels of the
  FRACTAL_Z_3D weight (Zn already), loaded once per ``nBL1`` block when ``kBL1`` is the whole
  K, else per ``kBL1`` chunk; a bypassed weight (``bl1BypassFlag``) is copied per k step, one
  L0B tile through B1 (the vendor's GM → L0B path, which this ISA has not: one ``load2d``
  more);
* per k step of ``kL0`` columns: img2col of the A1 window into L0A by a non-transposed
  ``load3d`` (Zz, the A side), the k step's rows of B1 ``load2d``-ed into L0B, then ``mmad``
  (``init`` on the tile's first k step);
* with a bias (``SetBias``), each tile first copies its ``n`` channels of the bias GM → C1
  (whole 32-byte blocks) and C1 → the bias table (``load_bias``, a half bias widened to
  float), and the tile's first ``mmad`` starts L0C from it (the bias-init mode,
  ``hw/instructions/mmad.py``), as the API's ``InitBiasWithNormal`` and first ``Mad`` do
  (one bias buffer in L1 and one in the bias table, reloaded per L0 tile; the vendor keeps a
  whole bias in L1 when ``biasFullLoadFlag``, which is not modelled);
* the tile ends with a quantising ``fixpipe``: L0C float32 → y (NDC1HWC0, f16 / bf16, rounded
  to nearest even), one 16-channel block per N block, ``dst_stride`` = Ho·Wo blocks.

``patterns.py`` replaces each ``conv3d_iterate_all`` by :meth:`ForwardWalk.emit`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import f16, f32
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import C0, align_up, ceil_div
from ascend_xdsl.dialects.enums import TPosition
from ascend_xdsl.dialects.formats import ndc1hwc0_strides
from ascend_xdsl.dialects.hw_level import DataCopyOp, FillOp, Load2dOp, LoadBiasOp
from ascend_xdsl.hw import HwConfig, isa
from ascend_xdsl.hw.instructions.load_bias import BT_BLOCK_BYTES, BT_ELEMENT_BYTES
from ascend_xdsl.lowering.index_arith import (
    Idx,
    add,
    align_up_idx,
    and_,
    bool_value,
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
)

BLOCK_ELEMS = 16
"""2-byte elements in one 32-byte block (the unit of data_copy's lengths and strides)."""

MAX_COPY_LEN = isa.limit("data_copy", "len").hi
MAX_COPY_STRIDE = isa.limit("data_copy", "src_stride").hi
MAX_FILL = min(isa.limit("fill", "repeat").hi, isa.limit("fill", "block_num").hi)


@dataclass(frozen=True)
class ForwardBuffers:
    """What ``Init`` allocates: A1 (x rows), B1 (weight rows), A2, B2, CO1, and with a bias
    its tile in C1 and in the bias table (C2)."""

    a1: SSAValue
    b1: SSAValue
    a2: SSAValue
    b2: SSAValue
    co1: SSAValue
    c1: SSAValue | None = None
    bt: SSAValue | None = None


@dataclass(frozen=True)
class ForwardShape:
    """What the ``set_*`` calls before one ``IterateAll`` hand over."""

    x: SSAValue
    off_x: SSAValue
    w: SSAValue
    off_w: SSAValue
    y: SSAValue
    off_y: SSAValue
    di_start: SSAValue
    m_start: SSAValue
    co: SSAValue
    do: SSAValue
    m: SSAValue
    bias: tuple[SSAValue, SSAValue] | None = None
    """The bias GM tensor and the element of the core's first channel (``SetBias``)."""


@dataclass(frozen=True)
class ForwardPlan:
    """The static sizes of the walk, from the tiling (its L1 and L0 tiles) and the L1 size."""

    t: Conv3DTiling
    m_al: int
    """``m_l0`` rounded up to whole fractals."""
    n_al: int
    k_step: int
    """Columns of one k step (``kL0``)."""
    k_total: int
    """K: every (kd, Cin1) plane's kH·kW·C0 columns."""
    planes: int
    """(kd, Cin1) planes of one A1 load (``cin1InAL1``)."""
    rows_max: int
    """Hi rows of one A1 load at most (those of ``mAL1`` positions)."""
    n_bl1: int
    """Channels of one B1 block (``nBL1``; ``nL0`` when the weight is bypassed)."""
    b_rows: int
    """FRACTAL_Z_3D rows of one B1 load (``kBL1 / 16``; one k step's when bypassed)."""
    bias_type: Attribute | None = None
    """The bias element type (f16 or f32), None without a bias."""
    bias_elems: int = 0
    """Elements of the bias tile in C1 and in the bias table: ``n_l0`` channels in whole
    64-byte blocks of the bias type (the ``load_bias`` unit)."""

    @property
    def bypass(self) -> bool:
        return self.t.bl1_bypass_flag == 1

    @property
    def a_whole(self) -> bool:
        """A1 holds the whole K: loaded once per ``mAL1`` block."""
        return self.t.k_al1 >= self.k_total

    @property
    def b_whole(self) -> bool:
        """B1 holds the whole K: loaded once per ``nBL1`` block."""
        return not self.bypass and self.t.k_bl1 >= self.k_total

    @staticmethod
    def of(t: Conv3DTiling, hw: HwConfig, bias_type: Attribute | None = None) -> ForwardPlan:
        l1_size = hw.l1_size
        if t.groups != 1:
            raise PassFailedException(
                f"lower-ascend-api-to-hw: the forward conv's hardware lowering takes groups 1, "
                f"got {t.groups}"
            )
        m_al, n_al = align_up(t.m_l0, C0), align_up(t.n_l0, C0)
        k_step = t.k_l0
        cin1 = ceil_div(t.org_ci, C0)
        k_total = cin1 * t.kernel_d * t.kernel_h * t.kernel_w * C0
        span = (t.m_al1 - 1) // t.org_wo + 2  # output rows one A1 block's positions touch
        rows_max = min(t.org_hi, (span - 1) * t.stride_h + t.dilation_h * (t.kernel_h - 1) + 1)
        if t.org_hi * t.org_wi > MAX_COPY_LEN or t.org_hi * t.org_wi > MAX_COPY_STRIDE:
            raise PassFailedException(
                f"lower-ascend-api-to-hw: an input plane of {t.org_hi}x{t.org_wi} positions "
                f"exceeds one data_copy ({MAX_COPY_LEN} blocks)"
            )
        planes = t.cin1_in_al1
        if t.org_wi > MAX_FILL or planes * rows_max > MAX_FILL:
            raise PassFailedException(
                f"lower-ascend-api-to-hw: zero-filling {planes} planes of {rows_max}x{t.org_wi} "
                f"positions exceeds one fill ({MAX_FILL} repeats or blocks)"
            )
        bypass = t.bl1_bypass_flag == 1
        n_bl1 = t.n_l0 if bypass else t.n_bl1
        b_rows = (k_step if bypass else t.k_bl1) // C0
        b1_bytes = t.buffered(4) * b_rows * C0 * align_up(n_bl1, C0) * 2
        bias_elems = 0
        if bias_type is not None:
            eb = 2 if bias_type == f16 else 4
            bias_elems = align_up(n_al * eb, BT_BLOCK_BYTES) // eb
            if bias_elems * BT_ELEMENT_BYTES > hw.bias_table_size:
                raise PassFailedException(
                    f"lower-ascend-api-to-hw: the bias of one L0C tile ({n_al} channels, "
                    f"{bias_elems * BT_ELEMENT_BYTES} bytes of floats) exceeds the bias table "
                    f"({hw.bias_table_size} bytes)"
                )
            b1_bytes += bias_elems * eb  # the bias tile in C1
        a1_bytes = t.buffered(3) * planes * rows_max * t.org_wi * C0 * 2
        if a1_bytes + b1_bytes > l1_size:
            raise PassFailedException(
                f"lower-ascend-api-to-hw: the L1 tiles (A1 {planes} planes of {rows_max} input "
                f"rows, {a1_bytes} bytes; B1 and the bias {b1_bytes} bytes) do not fit L1 "
                f"({l1_size} bytes)"
            )
        return ForwardPlan(
            t, m_al, n_al, k_step, k_total, planes, rows_max, n_bl1, b_rows, bias_type,
            bias_elems,
        )  # fmt: skip

    def allocate(self, element_type: Attribute) -> ForwardBuffers:
        t = self.t
        c1 = bt = None
        if self.bias_type is not None:
            c1 = alloc(TPosition.C1, self.bias_elems, self.bias_type, 1)
            bt = alloc(TPosition.C2, self.bias_elems, f32, 1)
        return ForwardBuffers(
            a1=alloc(
                TPosition.A1,
                self.planes * C0 * self.rows_max * t.org_wi,
                element_type,
                t.buffered(3),
            ),
            b1=alloc(
                TPosition.B1,
                self.b_rows * C0 * align_up(self.n_bl1, C0),
                element_type,
                t.buffered(4),
            ),
            a2=alloc(TPosition.A2, self.m_al * self.k_step, element_type, t.buffered(0)),
            b2=alloc(TPosition.B2, self.k_step * self.n_al, element_type, t.buffered(1)),
            co1=alloc(TPosition.CO1, self.m_al * self.n_al, f32, t.buffered(2)),
            c1=c1,
            bt=bt,
        )


@dataclass
class _ABlock:
    """One ``mAL1`` block: its positions and the input rows they read."""

    m1: Idx
    use_m: Idx
    """Positions of the block (``mAL1``, fewer in the last)."""
    ho_a: Idx
    """The block's first output row."""
    r0: Idx
    rows: Idx
    """The Hi rows A1 holds: ``[r0, r0 + rows)``."""
    h_lo: Idx
    """The (possibly negative) input row of the block's first output row."""


class ForwardWalk:
    """Emits ``IterateAll`` for one single output shape of one batch."""

    def __init__(self, plan: ForwardPlan, bufs: ForwardBuffers, s: ForwardShape):
        self.p, self.t, self.b, self.s = plan, plan.t, bufs, s
        t = self.t
        self.cin1 = ceil_div(t.org_ci, C0)
        self.cout1 = ceil_div(t.org_co, C0)
        self.hwk = t.kernel_h * t.kernel_w
        self.x_s = ndc1hwc0_strides((t.batch, t.org_ci, t.org_di, t.org_hi, t.org_wi), C0)
        self.y_s = ndc1hwc0_strides((t.batch, t.org_co, t.org_do, t.org_ho, t.org_wo), C0)
        self.w_row = self.cout1 * C0 * C0
        """Elements of one FRACTAL_Z_3D row (kd, c1, kh, kw)."""
        self.a_chunks = ceil_div(plan.k_total, t.k_al1)
        self.b_chunks = ceil_div(plan.k_total, plan.b_rows * C0)
        self.k_steps = ceil_div(plan.k_total, plan.k_step)

    # -- the L1 blocks (IterateMFirst / IterateNFirst) ----------------------------------------
    def emit(self) -> None:
        t, s, p = self.t, self.s, self.p
        m_blocks = ceildiv(s.m, t.m_al1)
        n_blocks = ceildiv(s.co, p.n_bl1)
        if t.iterate_mn_order == 0:  # M first: nBL1 outermost, then the depth, then mAL1
            with for_loop(0, n_blocks, name="n1") as n1:
                self.load_b1_block(n1, n1)
                with for_loop(0, s.do, name="dl") as dl, for_loop(0, m_blocks, name="m1") as m1:
                    blk = add(mul(add(mul(n1, s.do), dl), m_blocks), m1)
                    a = self.a_block(dl, m1, blk)
                    self.tiles(dl, a, n1, blk, m_inner=True)
        else:  # N first: the depth, then mAL1, then nBL1
            with for_loop(0, s.do, name="dl") as dl, for_loop(0, m_blocks, name="m1") as m1:
                a_blk = add(mul(dl, m_blocks), m1)
                a = self.a_block(dl, m1, a_blk)
                with for_loop(0, n_blocks, name="n1") as n1:
                    blk = add(mul(a_blk, n_blocks), n1)
                    self.load_b1_block(n1, blk)
                    self.tiles(dl, a, n1, blk, m_inner=False)

    def a_block(self, dl: Idx, m1: Idx, counter: Idx) -> _ABlock:
        """The block's rows; A1 loaded here when it holds the whole K."""
        t, s = self.t, self.s
        use_m = min_(t.m_al1, sub(s.m, mul(m1, t.m_al1)))
        p0 = add(s.m_start, mul(m1, t.m_al1))
        ho_a = floordiv(p0, t.org_wo)
        ho_b = floordiv(sub(add(p0, use_m), 1), t.org_wo)
        h_lo = sub(mul(ho_a, t.stride_h), t.pad_up)
        r0 = max_(h_lo, 0)
        r1 = min_(
            add(mul(ho_b, t.stride_h), t.dilation_h * (t.kernel_h - 1) + 1 - t.pad_up), t.org_hi
        )
        a = _ABlock(m1, use_m, ho_a, r0, max_(sub(r1, r0), 0), h_lo)
        if self.p.a_whole:
            self._a_slot = pingpong(counter, t.buffered(3))
            self.load_a1(dl, a, 0, self._a_slot)
        return a

    def load_b1_block(self, n1: Idx, counter: Idx) -> None:
        """B1 loaded for the block when it holds the whole K."""
        if self.p.b_whole:
            self._b_slot = pingpong(counter, self.t.buffered(4))
            self.load_b1(n1, 0, self._b_slot)

    def tiles(self, dl: Idx, a: _ABlock, n1: Idx, blk: Idx, m_inner: bool) -> None:
        """The block's L0C tiles, M innermost (M first) or N innermost (N first)."""
        t, s, p = self.t, self.s, self.p
        use_nb = min_(p.n_bl1, sub(s.co, mul(n1, p.n_bl1)))
        m_tiles = ceildiv(a.use_m, t.m_l0)
        n_tiles = ceildiv(use_nb, t.n_l0)
        per_block = t.m_al1_div_m_l0 * ceil_div(p.n_bl1, t.n_l0)
        outer, inner = (n_tiles, m_tiles) if m_inner else (m_tiles, n_tiles)
        inner_max = t.m_al1_div_m_l0 if m_inner else ceil_div(p.n_bl1, t.n_l0)
        with for_loop(0, outer, name="to") as to, for_loop(0, inner, name="ti") as ti:
            mt, nt = (ti, to) if m_inner else (to, ti)
            tile = add(mul(blk, per_block), add(mul(to, inner_max), ti))
            self.tile(dl, a, n1, mt, nt, tile)

    # -- one L0C tile: the K loop (ReduceK) --------------------------------------------------
    def tile(self, dl: Idx, a: _ABlock, n1: Idx, mt: Idx, nt: Idx, tile: Idx) -> None:
        t, s, b, p = self.t, self.s, self.b, self.p
        c_slot = pingpong(tile, t.buffered(2))
        m_off = mul(mt, t.m_l0)  # within the block
        n_off = add(mul(n1, p.n_bl1), mul(nt, t.n_l0))  # within the core's channels
        use_m = min_(t.m_l0, sub(a.use_m, m_off))
        use_n = min_(t.n_l0, sub(s.co, n_off))
        n_al = align_up_idx(use_n, C0)
        m_first = sub(add(add(s.m_start, mul(a.m1, t.m_al1)), m_off), mul(a.ho_a, t.org_wo))
        if s.bias is not None:
            self.load_bias(n_off, n_al)
        # The K loop as chunks of the L1 loads (kAL1 and kBL1 columns, when A1 or B1 is not
        # whole: their common factor, so that every load starts a chunk) of k steps each.
        kal1, kbl1 = t.k_al1, p.b_rows * C0
        loads = [d for d, reload in ((kal1, not p.a_whole), (kbl1, not p.b_whole and not p.bypass))
                 if reload]  # fmt: skip
        chunk = math.gcd(*loads) if loads else p.k_total
        steps = chunk // p.k_step
        with for_loop(0, ceil_div(p.k_total, chunk), name="kc") as kc:
            c0 = mul(kc, chunk)
            if not p.a_whole:
                ka = floordiv(c0, kal1)
                a_slot: Idx = pingpong(add(mul(tile, self.a_chunks), ka), t.buffered(3))
                with if_(True if kal1 == chunk else cmp("eq", rem(c0, kal1), 0)):
                    self.load_a1(dl, a, ka, a_slot)
            if not p.b_whole and not p.bypass:
                kb = floordiv(c0, kbl1)
                b_slot: Idx = pingpong(add(mul(tile, self.b_chunks), kb), t.buffered(4))
                with if_(True if kbl1 == chunk else cmp("eq", rem(c0, kbl1), 0)):
                    self.load_b1(n1, kb, b_slot)
            in_chunk = ceildiv(min_(chunk, sub(p.k_total, c0)), p.k_step)
            with for_loop(0, in_chunk, name="ks") as ks:
                k0 = add(c0, mul(ks, p.k_step))
                use_k = min_(p.k_step, sub(p.k_total, k0))
                step = add(mul(tile, self.k_steps), add(mul(kc, steps), ks))
                l0 = pingpong(step, t.buffered(0))
                if p.a_whole:
                    a_slot = self._a_slot
                    a_k0, planes = k0, p.planes
                else:
                    a_k0 = sub(k0, mul(ka, kal1))
                    planes = min_(p.planes, sub(self.cin1 * t.kernel_d, mul(ka, p.planes)))
                window = Img2colWindow(
                    rows=a.rows,
                    width=t.org_wi,
                    channels=mul(planes, C0),
                    pad_top=sub(a.r0, a.h_lo),
                    pad_bottom=t.pad_down,
                    pad_left=t.pad_left,
                    pad_right=t.pad_right,
                    kernel=(t.kernel_h, t.kernel_w),
                    stride=(t.stride_h, t.stride_w),
                    dilation=(t.dilation_h, t.dilation_w),
                )
                window.load3d(
                    b.a1, a_slot, 0, b.a2, l0, a_k0, use_k, m_first, align_up_idx(use_m, C0)
                )
                k1 = floordiv(use_k, C0)
                if p.bypass:
                    b_slot = pingpong(step, t.buffered(4))
                    self.copy_weight(floordiv(k0, C0), k1, n_off, n_al, b_slot)
                    b_row0: Idx = 0
                    b_width: Idx = n_al
                elif p.b_whole:
                    b_slot = self._b_slot
                    b_row0, b_width = floordiv(k0, C0), self.block_width(n1)
                else:
                    b_row0 = sub(floordiv(k0, C0), mul(kb, p.b_rows))
                    b_width = self.block_width(n1)
                self.load_l0b(b_slot, b_row0, b_width, mul(nt, t.n_l0), k1, n_al, l0)
                first = and_(cmp("eq", kc, 0), cmp("eq", ks, 0))
                mmad_l0(b, l0, c_slot, use_m, use_n, use_k, first, b.bt)
        dst = sum_(
            s.off_y,
            mul(dl, self.y_s.d),
            mul(floordiv(n_off, C0), self.y_s.c1),
            mul(add(mul(a.m1, t.m_al1), m_off), C0),
        )
        fixpipe_nz(b.co1, c_slot, s.y, dst, use_m, n_al, self.y_s.c1)

    # The A1 / B1 slot of the whole-K load of the enclosing block (set by the block loops).
    _a_slot: Idx = 0
    _b_slot: Idx = 0

    # -- the loads -----------------------------------------------------------------------------
    def load_a1(self, dl: Idx, a: _ABlock, ka: Idx, slot: Idx) -> None:
        """A1 load ``ka`` (``LoadAL1``): its (kd, Cin1) planes' rows GM → A1, each kernel depth
        that reads padding zero-filled (``InitConstValue``)."""
        t, p = self.t, self.p
        d_in = add(self.s.di_start, mul(dl, t.stride_d))
        g0 = mul(ka, p.planes)
        plane_elems = mul(mul(a.rows, t.org_wi), C0)
        if p.planes <= self.cin1:  # a factor of Cin1: one kernel depth
            self.copy_planes(d_in, floordiv(g0, self.cin1), rem(g0, self.cin1), p.planes, a,
                             slot, 0)  # fmt: skip
            return
        depths = min_(p.planes // self.cin1, sub(t.kernel_d, floordiv(g0, self.cin1)))
        with for_loop(0, depths, name="kdl") as j:
            kd = add(floordiv(g0, self.cin1), j)
            self.copy_planes(d_in, kd, 0, self.cin1, a, slot, mul(mul(j, self.cin1), plane_elems))

    def copy_planes(
        self, d_in: Idx, kd: Idx, c1: Idx, count: int, a: _ABlock, slot: Idx, offset: Idx
    ) -> None:
        """``count`` Cin1 planes from ``c1`` of kernel depth ``kd``'s input depth into A1 at
        ``offset``: copied when the depth lies inside x, else zeros."""
        t, b = self.t, self.b
        di = add(d_in, mul(kd, t.dilation_d))
        inside = and_(cmp("sge", di, 0), cmp("slt", di, t.org_di))
        has_rows = cmp("sgt", a.rows, 0)
        with if_(and_(inside, has_rows)):
            src = sum_(self.s.off_x, mul(di, self.x_s.d), mul(c1, self.x_s.c1),
                       mul(a.r0, self.x_s.h))  # fmt: skip
            DataCopyOp(
                self.s.x,
                value(src),
                b.a1,
                value(slot),
                value(offset),
                value(count),
                value(mul(a.rows, t.org_wi)),
                value(mul(sub(t.org_hi, a.rows), t.org_wi)),
                value(0),
            )
        outside: SSAValue | bool = (
            (not inside)
            if isinstance(inside, bool)
            else arith.XOrIOp(inside, bool_value(True)).result
        )
        with if_(and_(outside, has_rows)):
            FillOp(
                b.a1,
                value(slot),
                value(offset),
                value(mul(count, a.rows)),
                value(t.org_wi),
                value(0),
            )

    def load_b1(self, n1: Idx, kb: Idx, slot: Idx) -> None:
        """B1 load ``kb`` (``LoadBL1``): ``kBL1 / 16`` FRACTAL_Z_3D rows of the block's
        ``nBL1`` channels (the last block's fewer, in whole C0 blocks)."""
        s, p = self.s, self.p
        rows = min_(p.b_rows, sub(p.k_total // C0, mul(kb, p.b_rows)))
        width = self.block_width(n1)
        w_src = sum_(s.off_w, mul(mul(kb, p.b_rows), self.w_row), mul(mul(n1, p.n_bl1), C0))
        self.copy_weight_rows(w_src, slot, rows, width)

    def block_width(self, n1: Idx) -> Idx:
        """The channels of B1 block ``n1`` in whole C0 blocks (the last block's fewer)."""
        p = self.p
        return align_up_idx(min_(p.n_bl1, sub(self.s.co, mul(n1, p.n_bl1))), C0)

    def copy_weight(self, row0: Idx, k1: Idx, n_off: Idx, n_al: Idx, slot: Idx) -> None:
        """A bypassed weight's k step: its rows of the tile's channels GM → B1."""
        w_src = sum_(self.s.off_w, mul(row0, self.w_row), mul(n_off, C0))
        self.copy_weight_rows(w_src, slot, k1, n_al)

    def copy_weight_rows(self, w_src: Idx, slot: Idx, rows: Idx, width: Idx) -> None:
        """``rows`` FRACTAL_Z_3D rows of ``width`` channels (whole C0 blocks) from element
        ``w_src`` of the weight into B1 ``slot``: one burst a row, the row's other channels
        skipped in GM."""
        DataCopyOp(
            self.s.w,
            value(w_src),
            self.b.b1,
            value(slot),
            value(0),
            value(rows),
            value(width),
            value(sub(self.cout1 * C0, width)),
            value(0),
        )

    def load_l0b(
        self, slot: Idx, row0: Idx, width: Idx, n0: Idx, k1: Idx, n_al: Idx, l0: Idx
    ) -> None:
        """The k step's ``k1`` rows × the tile's ``n_al`` channels of B1 (rows of ``width``
        channels, the tile's from channel ``n0``) into L0B: one ``load2d`` when the rows are
        the tile's width, else one per row."""
        b, t = self.b, self.t
        if self.p.bypass or self.p.n_bl1 <= t.n_l0:
            src = mul(mul(row0, width), C0)
            Load2dOp(b.b1, value(slot), value(src), b.b2, value(l0), value(0),
                     value(mul(k1, floordiv(n_al, C0))), value(1))  # fmt: skip
            return
        with for_loop(0, k1, name="kr") as r:
            src = mul(add(mul(add(row0, r), width), n0), C0)
            dst = mul(mul(r, n_al), C0)
            Load2dOp(b.b1, value(slot), value(src), b.b2, value(l0), value(dst),
                     value(floordiv(n_al, C0)), value(1))  # fmt: skip

    def load_bias(self, n_off: Idx, n_al: Idx) -> None:
        """The tile's ``n_al`` bias channels GM → C1 (whole 32-byte blocks) → the bias table
        (whole 64-byte blocks of the bias type, widened to float)."""
        s, b, p = self.s, self.b, self.p
        assert s.bias is not None and b.c1 is not None and b.bt is not None
        eb = 2 if p.bias_type == f16 else 4
        tensor, offset = s.bias
        DataCopyOp(
            tensor,
            value(add(offset, n_off)),
            b.c1,
            value(0),
            value(0),
            value(1),
            value(floordiv(mul(n_al, eb), 32)),
            value(0),
            value(0),
        )
        LoadBiasOp(
            b.c1,
            value(0),
            value(0),
            b.bt,
            value(0),
            value(ceildiv(mul(n_al, eb), BT_BLOCK_BYTES)),
        )


def _select(cond: SSAValue | bool, x: Idx) -> Idx:
    """``cond ? x : 0``."""
    if isinstance(cond, bool):
        return x if cond else 0
    return arith.SelectOp(cond, value(x), value(0)).result
