"""The forward ``Conv3D`` object at the hardware level: the buffers ``Init`` allocates and the
walk of one ``IterateAll`` (hicann/asc-devkit ``include/adv_api/conv/conv3d/conv3d_api.h`` and
``impl/adv_api/detail/conv/conv3d/``: ``LoadAL1``, ``LoadBL1``, ``LoadAL0`` by img2col,
``LoadBL0``, ``Mmad``, ``GetTensorC`` through the fixpipe).

One ``IterateAll`` computes the core's single output shape (``singleCo`` channels ×
``singleDo`` depths × ``singleM`` Ho·Wo positions) of one batch as a GEMM per output depth:
``y[m, co] = Σ_k img2col(x)[m, k] · W[k, co]``, K = (kd, Cin1, kh, kw, C0). The walk, as
``scf.for`` loops whose tails are ``arith`` (the IR does not grow with the problem):

* per output depth and ``m_l0 × n_l0`` L0C tile (``CO1``, ping-pong per tile);
* per kernel depth ``kd`` whose input depth lies inside x (the others add nothing and are
  skipped) and chunk of ``kc1`` Cin1 blocks: the Hi rows the tile's positions read,
  ``[C1][rows][Wi][C0]``, copied GM → A1 (when every depth is padding, one depth still runs
  with an empty window, whose img2col reads zeros, so that L0C is initialised);
* per k step of ``k_l0`` columns: img2col of the A1 window into L0A by a non-transposed
  ``load3d`` (Zz, the A side), the k step's FRACTAL_Z_3D rows GM → B1 (they are Zn already) and
  ``load2d`` into L0B, then ``mmad`` (``init`` on the tile's first k step);
* with a bias (``SetBias``), each tile first copies its ``n`` channels of the bias GM → C1
  (whole 32-byte blocks) and C1 → the bias table (``load_bias``, a half bias widened to
  float), and the tile's first ``mmad`` starts L0C from it (the bias-init mode,
  ``hw/instructions/mmad.py``), as the API's ``InitBiasWithNormal`` and first ``Mad`` do
  (``impl/adv_api/detail/conv/conv3d/conv3d_iterate_base_impl.h``, ``dav_m220/
  conv3d_sub_api.h``: one bias buffer in L1 and one in the bias table, reloaded per L0 tile);
* the tile ends with a quantising ``fixpipe``: L0C float32 → y (NDC1HWC0, f16 / bf16, rounded
  to nearest even), one 16-channel block per N block, ``dst_stride`` = Ho·Wo blocks.

``patterns.py`` replaces each ``conv3d_iterate_all`` by :meth:`ForwardWalk.emit`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import f16, f32
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import C0, align_up, ceil_div
from ascend_xdsl.dialects.enums import TPosition
from ascend_xdsl.dialects.formats import ndc1hwc0_strides
from ascend_xdsl.dialects.hw_level import DataCopyOp, Load2dOp, LoadBiasOp
from ascend_xdsl.hw import HwConfig, isa
from ascend_xdsl.hw.instructions.load_bias import BT_BLOCK_BYTES, BT_ELEMENT_BYTES
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
    """The static sizes of the walk, from the tiling and the L1 size."""

    t: Conv3DTiling
    m_al: int
    """``m_l0`` rounded up to whole fractals."""
    n_al: int
    k_step: int
    """Columns of one k step."""
    kc1: int
    """Cin1 blocks of one A1 window."""
    rows_max: int
    """Hi rows of one A1 window at most."""
    bias_type: Attribute | None = None
    """The bias element type (f16 or f32), None without a bias."""
    bias_elems: int = 0
    """Elements of the bias tile in C1 and in the bias table: ``n_l0`` channels in whole
    64-byte blocks of the bias type (the ``load_bias`` unit)."""

    @staticmethod
    def of(t: Conv3DTiling, hw: HwConfig, bias_type: Attribute | None = None) -> ForwardPlan:
        l1_size = hw.l1_size
        if t.groups != 1:
            raise PassFailedException(
                f"lower-ascend-api-to-hw: the forward conv's hardware lowering takes groups 1, "
                f"got {t.groups}"
            )
        m_al, n_al = align_up(t.m_l0, C0), align_up(t.n_l0, C0)
        k_step = max(C0, t.k_l0 // C0 * C0)
        span = (t.m_l0 - 1) // t.org_wo + 2  # output rows one tile's positions touch
        rows_max = min(t.org_hi, (span - 1) * t.stride_h + t.dilation_h * (t.kernel_h - 1) + 1)
        if t.org_hi * t.org_wi > MAX_COPY_LEN or t.org_hi * t.org_wi > MAX_COPY_STRIDE:
            raise PassFailedException(
                f"lower-ascend-api-to-hw: an input plane of {t.org_hi}x{t.org_wi} positions "
                f"exceeds one data_copy ({MAX_COPY_LEN} blocks)"
            )
        b1_bytes = t.buffered(4) * k_step * n_al * 2
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
        a1_slot = (l1_size - b1_bytes) // t.buffered(3)
        per_c1 = rows_max * t.org_wi * C0 * 2
        cin1 = ceil_div(t.org_ci, C0)
        kc1 = min(cin1, a1_slot // per_c1)
        if kc1 < 1:
            raise PassFailedException(
                f"lower-ascend-api-to-hw: the {rows_max} input rows of one M tile "
                f"({per_c1} bytes a Cin1 block) do not fit L1 ({l1_size} bytes)"
            )
        return ForwardPlan(t, m_al, n_al, k_step, kc1, rows_max, bias_type, bias_elems)

    def allocate(self, element_type: Attribute) -> ForwardBuffers:
        t = self.t
        c1 = bt = None
        if self.bias_type is not None:
            c1 = alloc(TPosition.C1, self.bias_elems, self.bias_type, 1)
            bt = alloc(TPosition.C2, self.bias_elems, f32, 1)
        return ForwardBuffers(
            a1=alloc(
                TPosition.A1,
                self.kc1 * C0 * self.rows_max * t.org_wi,
                element_type,
                t.buffered(3),
            ),
            b1=alloc(TPosition.B1, self.k_step * self.n_al, element_type, t.buffered(4)),
            a2=alloc(TPosition.A2, self.m_al * self.k_step, element_type, t.buffered(0)),
            b2=alloc(TPosition.B2, self.k_step * self.n_al, element_type, t.buffered(1)),
            co1=alloc(TPosition.CO1, self.m_al * self.n_al, f32, t.buffered(2)),
            c1=c1,
            bt=bt,
        )


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

    def emit(self) -> None:
        t, s = self.t, self.s
        m_tiles = ceildiv(s.m, t.m_l0)
        n_tiles = ceildiv(s.co, t.n_l0)
        with (
            for_loop(0, s.do, name="dl") as dl,
            for_loop(0, m_tiles, name="mt") as mt,
            for_loop(0, n_tiles, name="nt") as nt,
        ):
            tile = add(mul(add(mul(dl, m_tiles), mt), n_tiles), nt)
            self.tile(dl, mt, nt, pingpong(tile, t.buffered(2)))

    def tile(self, dl: Idx, mt: Idx, nt: Idx, c_slot: Idx) -> None:
        t, s, b, p = self.t, self.s, self.b, self.p
        use_m = min_(t.m_l0, sub(s.m, mul(mt, t.m_l0)))
        use_n = min_(t.n_l0, sub(s.co, mul(nt, t.n_l0)))
        n_al = align_up_idx(use_n, C0)
        # The Hi rows the tile's positions read: output rows [ho_a, ho_b] of the plane.
        p0 = add(s.m_start, mul(mt, t.m_l0))
        ho_a = floordiv(p0, t.org_wo)
        ho_b = floordiv(sub(add(p0, use_m), 1), t.org_wo)
        h_lo = sub(mul(ho_a, t.stride_h), t.pad_up)
        r0 = max_(h_lo, 0)
        r1 = min_(
            add(mul(ho_b, t.stride_h), t.dilation_h * (t.kernel_h - 1) + 1 - t.pad_up), t.org_hi
        )
        rows = max_(sub(r1, r0), 0)
        m_first = sub(p0, mul(ho_a, t.org_wo))
        d_in = add(s.di_start, mul(dl, t.stride_d))
        chunks = ceil_div(self.cin1, p.kc1)
        if s.bias is not None:
            self.load_bias(nt, n_al)
        # Only the kernel depths whose input depth lies inside x: [kd_lo, kd_hi), at least one
        # (a tile whose depths are all padding still initialises L0C, by reading zeros).
        kd_first = max_(ceildiv(sub(0, d_in), t.dilation_d), 0)
        kd_lo = min_(kd_first, t.kernel_d - 1)
        kd_last = add(floordiv(sub(t.org_di - 1, d_in), t.dilation_d), 1)
        kd_hi = max_(min_(kd_last, t.kernel_d), add(kd_lo, 1))
        with for_loop(kd_lo, kd_hi, name="kd") as kd:
            di = add(d_in, mul(kd, t.dilation_d))
            inside = and_(cmp("sge", di, 0), cmp("slt", di, t.org_di))
            window_rows = _select(inside, rows)
            with for_loop(0, chunks, name="cc") as cc:
                run = add(mul(kd, chunks), cc)
                a_slot = pingpong(run, t.buffered(3))
                c1_first = mul(cc, p.kc1)
                c1_rows = min_(p.kc1, sub(self.cin1, c1_first))
                with if_(and_(inside, cmp("sgt", rows, 0))):
                    src = sum_(
                        s.off_x,
                        mul(di, self.x_s.d),
                        mul(c1_first, self.x_s.c1),
                        mul(r0, self.x_s.h),
                    )
                    DataCopyOp(
                        s.x,
                        value(src),
                        b.a1,
                        value(a_slot),
                        value(0),
                        value(c1_rows),
                        value(mul(rows, t.org_wi)),
                        value(mul(sub(t.org_hi, rows), t.org_wi)),
                        value(0),
                    )
                window = Img2colWindow(
                    rows=window_rows,
                    width=t.org_wi,
                    channels=mul(c1_rows, C0),
                    pad_top=sub(r0, h_lo),
                    pad_bottom=t.pad_down,
                    pad_left=t.pad_left,
                    pad_right=t.pad_right,
                    kernel=(t.kernel_h, t.kernel_w),
                    stride=(t.stride_h, t.stride_w),
                    dilation=(t.dilation_h, t.dilation_w),
                )
                columns = mul(c1_rows, self.hwk * C0)
                k_steps = ceildiv(columns, p.k_step)
                w_row0 = add(mul(add(mul(kd, self.cin1), c1_first), self.hwk), 0)
                with for_loop(0, k_steps, name="ks") as ks:
                    k0 = mul(ks, p.k_step)
                    use_k = min_(p.k_step, sub(columns, k0))
                    l0 = pingpong(add(mul(run, k_steps), ks), t.buffered(0))
                    b1_slot = pingpong(add(mul(run, k_steps), ks), t.buffered(4))
                    window.load3d(
                        b.a1, a_slot, 0, b.a2, l0, k0, use_k, m_first, align_up_idx(use_m, C0)
                    )
                    k1 = floordiv(use_k, C0)
                    w_src = sum_(
                        s.off_w,
                        mul(add(w_row0, floordiv(k0, C0)), self.w_row),
                        mul(mul(nt, t.n_l0), C0),
                    )
                    DataCopyOp(
                        s.w,
                        value(w_src),
                        b.b1,
                        value(b1_slot),
                        value(0),
                        value(k1),
                        value(n_al),
                        value(sub(self.cout1 * C0, n_al)),
                        value(0),
                    )
                    Load2dOp(
                        b.b1,
                        value(b1_slot),
                        value(0),
                        b.b2,
                        value(l0),
                        value(0),
                        value(mul(k1, floordiv(n_al, C0))),
                        value(1),
                    )
                    first = and_(and_(cmp("eq", kd, kd_lo), cmp("eq", cc, 0)), cmp("eq", ks, 0))
                    mmad_l0(b, l0, c_slot, use_m, use_n, use_k, first, b.bt)
        dst = sum_(
            s.off_y,
            mul(dl, self.y_s.d),
            mul(floordiv(mul(nt, t.n_l0), C0), self.y_s.c1),
            mul(mul(mt, t.m_l0), C0),
        )
        fixpipe_nz(b.co1, c_slot, s.y, dst, use_m, n_al, self.y_s.c1)

    def load_bias(self, nt: Idx, n_al: Idx) -> None:
        """The tile's ``n_al`` bias channels GM → C1 (whole 32-byte blocks) → the bias table
        (whole 64-byte blocks of the bias type, widened to float)."""
        t, s, b, p = self.t, self.s, self.b, self.p
        assert s.bias is not None and b.c1 is not None and b.bt is not None
        eb = 2 if p.bias_type == f16 else 4
        tensor, offset = s.bias
        DataCopyOp(
            tensor,
            value(add(offset, mul(nt, t.n_l0))),
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
