"""K through L1: which K blocks of dy and x are in A1 and B1, in which slot, and the GM → L1
copies that bring them (``LoadToA1`` / ``LoadToB1``, hicann/asc-devkit
``impl/adv_api/detail/conv_backprop/conv3d_backprop_filter/dav_v220/conv3d_bp_filter_sub_func.h``).

A K-L1 block of dy is ``step_ka·base_k`` positions (Ho·Wo), of x ``step_kb·base_k``. When all
of a side's K fits its L1 slots (``ceil(k_iter / step_ka) <= al1_pbuffer``), that side is
loaded once per L1 block of the tile walk, K block ``i`` into slot ``i``, and stays resident
while the other axis iterates; otherwise it streams: one load per K block, on the block's first
k step, into alternating slots.

* dy: [cout1][positions][C0] rows of one M-L1 block into A1.
* x: the Hi rows a K block needs, [c1][Hi rows][Wi][C0], for the Cin1 rows of one N-L1 block
  into B1. Rows in the top padding are not copied; their number is the load's ``pad_top``
  (``b1_window``). A block wholly in the padding copies nothing.

``tile_walk.py`` calls these where the walk reaches a block.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import SSAValue

from ascend_xdsl.dialects.conv_shape import C0, ceil_div
from ascend_xdsl.dialects.dw_tiling import (
    DwTiling,
)
from ascend_xdsl.dialects.dw_tiling_offsets import (
    grad_output_strides,
    input_element,
    input_strides,
)
from ascend_xdsl.dialects.hw_level import DataCopyOp
from ascend_xdsl.hw import isa
from ascend_xdsl.lowering.index_arith import (
    IDX_ARITH,
    Idx,
    add,
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
from ascend_xdsl.lowering.lower_api_to_hw.buffers import InitBuffers
from ascend_xdsl.lowering.lower_api_to_hw.calls import SingleShape

# DataCopyParams fields are 16-bit (blockLen, strides) and 12-bit (blockCount): the limits of
# the instruction model's one table (hw/isa.toml).
MAX_COPY_STRIDE = isa.limit("data_copy", "src_stride").hi
MAX_COPY_COUNT = isa.limit("data_copy", "count").hi


class L1Loads:
    """The A1 and B1 blocks of one single shape and the copies that fill them."""

    def __init__(self, t: DwTiling, bufs: InitBuffers, s: SingleShape, hi_start: Idx):
        self.t, self.bufs, self.s, self.hi_start = t, bufs, s, hi_start
        self.hwk = t.hk * t.wk
        self.kal1 = t.step_ka * t.base_k
        self.kbl1 = t.step_kb * t.base_k
        k_iter_max = ceil_div(t.single_core_ho * t.wo, t.base_k)
        self.a_resident = ceil_div(k_iter_max, t.step_ka) <= t.al1_pbuffer
        self.b_resident = ceil_div(k_iter_max, t.step_kb) <= t.bl1_pbuffer
        self.dy_strides, self.x_strides = grad_output_strides(t), input_strides(t)

    # -- resident blocks: loaded where the walk enters an L1 block -------------------------

    def resident_a_loads(self, mb: Idx) -> None:
        if self.a_resident:
            with for_loop(0, ceildiv(self.s.k, self.kal1), name="ka") as ka:
                self.load_a1(mb, ka, ka)

    def resident_b_loads(self, nb: Idx) -> None:
        if self.b_resident:
            with for_loop(0, ceildiv(self.s.k, self.kbl1), name="kb") as kb:
                self.load_b1(nb, kb, kb)

    # -- the blocks one k step reads: streamed in on the block's first k step --------------

    def a_block(self, mb: Idx, k_first: Idx) -> tuple[Idx, Idx, Idx]:
        """The dy K-L1 block that k step ``k_first`` reads: its index, slot and positions."""
        t = self.t
        ka, slot = _k_block(
            k_first,
            t.step_ka,
            self.a_resident,
            t.al1_pbuffer,
            lambda ka, slot: self.load_a1(mb, ka, slot),
        )
        return ka, slot, self.a1_positions(ka)

    def b_block(self, nb: Idx, k_first: Idx) -> tuple[Idx, Idx]:
        """The x K-L1 block that k step ``k_first`` reads: its index and slot."""
        t = self.t
        return _k_block(
            k_first,
            t.step_kb,
            self.b_resident,
            t.bl1_pbuffer,
            lambda kb, slot: self.load_b1(nb, kb, slot),
        )

    def a1_positions(self, ka: Idx) -> Idx:
        """Positions in dy's K-L1 block ``ka``: the length of its A1 rows."""
        return min_(self.kal1, sub(self.s.k, mul(ka, self.kal1)))

    # -- the copies ------------------------------------------------------------------------

    def load_a1(self, mb: Idx, ka: Idx, slot: Idx) -> None:
        """dy rows of one M-L1 block × one K-L1 block: [cout1][kl1][C0] (``LoadToA1``)."""
        t, s, dy = self.t, self.s, self.dy_strides
        rows = min_(t.step_m * t.base_m, sub(s.m, mul(mb, t.step_m * t.base_m)))
        kl1 = self.a1_positions(ka)
        # M-L1 block mb starts step_m·base_m/C0 C1 blocks on, K-L1 block ka kal1 positions on.
        src = sum_(s.off_dy, mul(mb, t.step_m * t.base_m // C0 * dy.c1), mul(ka, self.kal1 * dy.w))
        copy_rows(
            s.dy,
            src,
            self.bufs.a1,
            slot,
            ceildiv(rows, C0),
            kl1,
            dy.c1,
            max_rows=t.step_m * t.base_m // C0,
        )

    def b1_window(self, kb: Idx) -> tuple[Idx, Idx, Idx]:
        """First Ho row (relative), Hi rows held and top padding of x's K-L1 block ``kb``."""
        t, s = self.t, self.s
        pos0 = mul(kb, self.kbl1)
        pos1 = min_(add(pos0, self.kbl1), s.k)
        r0 = floordiv(pos0, t.wo)
        r1 = floordiv(sub(pos1, 1), t.wo)
        hi_first = sub(mul(add(s.ho_start, r0), t.stride_h), t.pad_up)
        h_begin = max_(hi_first, 0)
        h_end = min_(
            sum_(mul(add(s.ho_start, r1), t.stride_h), -t.pad_up, (t.hk - 1) * t.dilation_h + 1),
            t.hi,
        )
        # Rows that lie wholly in the bottom padding leave h_end below h_begin: no rows at all.
        return r0, max_(0, sub(h_end, h_begin)), sub(h_begin, hi_first)

    def b1_channels(self, nb: Idx) -> tuple[Idx, Idx]:
        """First Cin1 row and number of Cin1 rows that N-L1 block ``nb`` spans."""
        t, s = self.t, self.s
        u0 = mul(nb, t.step_n * t.base_n // C0)
        u1 = ceildiv(min_(mul(add(nb, 1), t.step_n * t.base_n), s.n), C0)
        c1_first = floordiv(u0, self.hwk)
        return c1_first, add(sub(floordiv(sub(u1, 1), self.hwk), c1_first), 1)

    def load_b1(self, nb: Idx, kb: Idx, slot: Idx) -> None:
        """x rows for one N-L1 block × K-L1 block: [c1][h rows][Wi][C0] (``LoadToB1``)."""
        t, s = self.t, self.s
        r0, h_rows, pad_top = self.b1_window(kb)
        c1_first, c1_rows = self.b1_channels(nb)
        h_begin = sub(add(mul(add(s.ho_start, r0), t.stride_h), pad_top), t.pad_up)
        src = input_element(IDX_ARITH, t, s.off_x, self.hi_start, c1_first, h_begin, 0, 0)
        # A K block whose rows all fall into the top or bottom padding reads no x at all (its
        # img2col is all padding): there is nothing to copy.
        with if_(cmp("sgt", h_rows, 0)):
            copy_rows(
                s.x,
                src,
                self.bufs.b1,
                slot,
                c1_rows,
                mul(h_rows, t.wi),
                self.x_strides.c1,
                max_rows=t.cin1_g * t.dk,
            )


def _k_block(
    k_first: Idx, step: int, resident: bool, slots: int, load: Callable[[Idx, Idx], None]
) -> tuple[Idx, Idx]:
    """Index and slot of the K-L1 block of ``step`` k steps that holds k step ``k_first``. A
    resident block is in the slot of its index; a streamed one alternates between ``slots``
    slots and is loaded (``load(index, slot)``) on its first k step."""
    index = floordiv(k_first, step)
    if resident:
        return index, index
    slot = rem(index, 2) if slots == 2 else 0
    with if_(cmp("eq", rem(k_first, step), 0)):
        load(index, slot)
    return index, slot


def copy_rows(
    src: SSAValue,
    src_off: Idx,
    dst: SSAValue,
    slot: Idx,
    rows: Idx,
    row_len: Idx,
    row_pitch: int,
    max_rows: int,
) -> None:
    """``rows`` strided rows of ``row_len`` blocks, ``row_pitch`` elements apart in GM (one
    C1 block plane); one copy per row when the pitch is beyond DataCopyParams' 16-bit
    stride (the fallback of ``LoadToA1`` / ``LoadToB1``).

    The stride is ``src_pitch - row_len`` (in 32-byte blocks) with ``row_len`` known only
    at run time (K and row tails), so the choice is made for the shortest row there can
    be, one block: a kernel whose rows are all long enough might have used one copy, never
    the other way.
    """
    src_pitch = row_pitch // C0  # a C0 block of x or dy is one 32-byte block
    if src_pitch - 1 <= MAX_COPY_STRIDE and max_rows <= MAX_COPY_COUNT:
        DataCopyOp(
            src,
            value(src_off),
            dst,
            value(slot),
            value(0),
            value(rows),
            value(row_len),
            value(sub(src_pitch, row_len)),
            value(0),
        )
        return
    with for_loop(0, rows, name="row") as r:
        DataCopyOp(
            src,
            value(add(src_off, mul(r, row_pitch))),
            dst,
            value(slot),
            value(mul(mul(r, row_len), C0)),
            value(1),
            value(row_len),
            value(0),
            value(0),
        )
