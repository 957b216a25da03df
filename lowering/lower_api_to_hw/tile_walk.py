"""The tile walk of ``Iterate`` and ``GetTensorC`` for one single shape, as ``scf.for`` loops
over hardware ops (hicann/asc-devkit
``impl/adv_api/detail/conv_backprop/conv3d_backprop_filter/conv3d_bp_filter_func.h``:
``Iterate``, ``Compute``, ``LoadL12L0b``; ``.../dav_v220/conv3d_bp_filter_sub_func.h``:
``LoadL12L0a``, ``MmadLocal``, ``LoadL0c2Gm``).

The GEMM of a single shape (M × N × K) is cut into L0C tiles of ``base_m × base_n``, grouped
into L1 blocks of ``step_m × step_n`` tiles. ORDER_M (``iterate_order = 0``) walks the M-L1
blocks outermost and N innermost (A1 resident over N), ORDER_N the other way round. Entering an
L1 block loads the resident K blocks (``l1_loads.py``); each tile then walks K in k steps of
``base_k``: dy into L0A by a transposing 1×1 ``load3d`` (Zz), img2col of x into L0B (Zn), and
``mmad`` into CO1 with ``init`` on the first k step; the tile ends with a ``fixpipe`` into
FRACTAL_Z_3D (an atomic add when the ``get_tensor_c`` was atomic).

Ping-pong slots alternate in walk order (the k steps and tiles counted over the whole walk), so
a loop that runs once does not pin a slot. Tails (the last M, N and K tiles, the last L1 block)
are computed with ``arith`` in the loops, so the IR does not grow with the problem.
``patterns.py`` emits one walk in place of each iterate loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_xdsl.dialects.conv_shape import C0
from ascend_xdsl.dialects.dw_tiling import (
    ITERATE_ORDER_M,
    DwTiling,
)
from ascend_xdsl.dialects.dw_tiling_offsets import (
    fixpipe_dst_stride,
    input_start_row,
    tensor_c_offset,
)
from ascend_xdsl.dialects.hw_level import FixpipeOp, Load3dOp
from ascend_xdsl.lowering.index_arith import (
    IDX_ARITH,
    Idx,
    add,
    align_up_idx,
    ceildiv,
    cmp,
    for_loop,
    min_,
    mul,
    rem,
    sub,
    value,
)
from ascend_xdsl.lowering.lower_api_to_hw.buffers import InitBuffers
from ascend_xdsl.lowering.lower_api_to_hw.calls import SingleShape
from ascend_xdsl.lowering.lower_api_to_hw.conv_common import Img2colWindow, mmad_l0
from ascend_xdsl.lowering.lower_api_to_hw.l1_loads import L1Loads


@dataclass(frozen=True)
class KRun:
    """What stays fixed over a run of k steps: the A1 and B1 blocks being read."""

    a_slot: Idx
    a_first: Idx
    """First k step the A1 block holds."""
    kl1: Idx
    """Positions in the A1 block (its row length)."""
    b_slot: Idx
    b_rows: Idx
    """Hi rows in the B1 block."""
    b_pad_top: Idx
    b_first_position: Idx
    """The position (relative to the single shape) of the B1 block's first Ho row."""
    b_channels: Idx
    b_column: Idx
    """The tile's first img2col column, relative to the B1 block's first Cin1 row."""


@dataclass(frozen=True)
class Slots:
    """The ping-pong slots of one tile, in walk order."""

    c: Idx
    """The CO1 slot of the tile."""
    first_k_step: Idx
    """The tile's first k step counted over the whole walk: L0A/L0B alternate on it."""


class TileWalk:
    """Emits the Iterate/GetTensorC algorithm for one single shape."""

    def __init__(self, t: DwTiling, bufs: InitBuffers, s: SingleShape):
        self.t, self.bufs, self.s = t, bufs, s
        self.l0_pingpong = t.al0_pbuffer == 2 and t.bl0_pbuffer == 2

    def emit(self) -> None:
        t, s = self.t, self.s
        self.m_iter = ceildiv(s.m, t.base_m)
        self.n_iter = ceildiv(s.n, t.base_n)
        self.k_iter = ceildiv(s.k, t.base_k)
        m_blocks = ceildiv(self.m_iter, t.step_m)
        n_blocks = ceildiv(self.n_iter, t.step_n)
        # The Hi row x's rows are counted from (SetStartPosition's hiStartIdx), once per walk.
        self.l1 = L1Loads(t, self.bufs, s, input_start_row(IDX_ARITH, t, s.ho_start))
        if t.iterate_order == ITERATE_ORDER_M:
            with for_loop(0, m_blocks, name="mb") as mb:
                self.l1.resident_a_loads(mb)
                with for_loop(0, n_blocks, name="nb") as nb:
                    self.l1.resident_b_loads(nb)
                    self.block_tiles(mb, nb, m_inner=False)
        else:
            with for_loop(0, n_blocks, name="nb") as nb:
                self.l1.resident_b_loads(nb)
                with for_loop(0, m_blocks, name="mb") as mb:
                    self.l1.resident_a_loads(mb)
                    self.block_tiles(mb, nb, m_inner=True)

    # -- L0C tiles --------------------------------------------------------------------------

    def block_tiles(self, mb: Idx, nb: Idx, m_inner: bool) -> None:
        t = self.t
        m_steps = min_(t.step_m, sub(self.m_iter, mul(mb, t.step_m)))
        n_steps = min_(t.step_n, sub(self.n_iter, mul(nb, t.step_n)))
        outer, inner = (n_steps, m_steps) if m_inner else (m_steps, n_steps)
        # Ping-pong buffers alternate slots in walk order, not per loop: CO1 per tile, L0A/L0B
        # per k step. An L1 block may hold a single tile and a tile a single k step, and a slot
        # picked by a loop's own index would then never change, serializing the pipes that the
        # second buffer is there to overlap. The order is the tile's index in the walk: the tiles
        # of the blocks before this one (every block before it on its axis is full) plus its
        # index inside this block.
        first_tile: Idx = 0
        if t.cl0_pbuffer == 2 or self.l0_pingpong:
            if m_inner:
                first_tile = add(
                    mul(mul(nb, t.step_n), self.m_iter), mul(mul(mb, t.step_m), n_steps)
                )
            else:
                first_tile = add(
                    mul(mul(mb, t.step_m), self.n_iter), mul(mul(nb, t.step_n), m_steps)
                )
        with (
            for_loop(0, outer, name="ni" if m_inner else "mi") as o,
            for_loop(0, inner, name="mi" if m_inner else "ni") as i,
        ):
            mi, ni = (i, o) if m_inner else (o, i)
            walk_tile = add(first_tile, add(mul(o, inner), i))
            c_slot = rem(walk_tile, 2) if t.cl0_pbuffer == 2 else 0
            first_k_step = mul(walk_tile, self.k_iter) if self.l0_pingpong else 0
            self.tile(mb, nb, mi, ni, c_slot, first_k_step)

    def k_step(self, kt: Idx, run: KRun, mi: Idx, use_m: Idx, use_n: Idx, slots: Slots) -> None:
        """One k step of a tile: dy and img2col(x) into L0A/L0B, then the Cube."""
        t, s, b = self.t, self.s, self.bufs
        use_k = min_(t.base_k, sub(s.k, mul(kt, t.base_k)))
        k_ext = align_up_idx(use_k, C0)
        c_slot = slots.c
        l0 = rem(add(slots.first_k_step, kt), 2) if self.l0_pingpong else 0
        m_al = align_up_idx(use_m, C0)
        Load3dOp(
            b.a1,
            value(run.a_slot),
            value(mul(mul(mi, t.base_m), run.kl1)),
            b.a2,
            value(l0),
            (value(1), value(run.kl1), value(m_al)),
            (value(0), value(m_al), value(mul(sub(kt, run.a_first), t.base_k)), value(k_ext)),
            (value(0), value(0), value(0), value(0)),
            kernel=(1, 1),
            stride=(1, 1),
            dilation=(1, 1),
            transpose=True,
        )
        # img2col of x into L0B (Zn): the window of the B1 block, as the forward's into L0A.
        window = Img2colWindow(
            rows=run.b_rows,
            width=t.wi,
            channels=run.b_channels,
            pad_top=run.b_pad_top,
            pad_bottom=t.pad_down,
            pad_left=t.pad_left,
            pad_right=t.pad_right,
            kernel=(t.hk, t.wk),
            stride=(t.stride_h, t.stride_w),
            dilation=(t.dilation_h, t.dilation_w),
        )
        window.load3d(
            b.b1,
            run.b_slot,
            0,
            b.b2,
            l0,
            k_start=run.b_column,
            k_ext=use_n,
            m_start=lambda: sub(mul(kt, t.base_k), run.b_first_position),
            m_ext=k_ext,
        )
        mmad_l0(b, l0, c_slot, use_m, use_n, use_k, lambda: cmp("eq", kt, 0))

    def tile(self, mb: Idx, nb: Idx, mi: Idx, ni: Idx, c_slot: Idx, first_k_step: Idx) -> None:
        t, s, b = self.t, self.s, self.bufs
        slots = Slots(c=c_slot, first_k_step=first_k_step)
        m_t = add(mul(mb, t.step_m), mi)
        n_t = add(mul(nb, t.step_n), ni)
        use_m = min_(t.base_m, sub(s.m, mul(m_t, t.base_m)))
        use_n = min_(t.base_n, sub(s.n, mul(n_t, t.base_n)))
        c1_first, c1_rows = self.l1.b1_channels(nb)
        # K walks in runs of `step` k steps within which neither the A1 nor the B1 block
        # changes (step_ka and step_kb are multiples of each other): what depends only on the
        # L1 blocks is computed once per run, not once per k step.
        step = min(t.step_ka, t.step_kb)
        with for_loop(0, ceildiv(self.k_iter, step), name="kk") as kk:
            k_first = mul(kk, step)
            # dy: K-L1 block ka holds positions [ka·kal1, ...), as rows of kl1 positions.
            ka, a_slot, kl1 = self.l1.a_block(mb, k_first)
            # x: img2col of the K-L1 block kb, columns relative to its first Cin1 row.
            kb, b_slot = self.l1.b_block(nb, k_first)
            r0, h_rows, pad_top = self.l1.b1_window(kb)
            run = KRun(
                a_slot=a_slot,
                a_first=mul(ka, t.step_ka),
                kl1=kl1,
                b_slot=b_slot,
                b_rows=h_rows,
                b_pad_top=pad_top,
                b_first_position=mul(r0, t.wo),
                b_channels=mul(c1_rows, C0),
                b_column=sub(mul(n_t, t.base_n), mul(c1_first, self.l1.hwk * C0)),
            )
            if step == 1:
                self.k_step(k_first, run, mi, use_m, use_n, slots)
            else:
                with for_loop(0, min_(step, sub(self.k_iter, k_first)), name="ki") as ki:
                    self.k_step(add(k_first, ki), run, mi, use_m, use_n, slots)
        FixpipeOp(
            b.co1,
            value(c_slot),
            s.dw,
            value(tensor_c_offset(IDX_ARITH, t, s.off_c, m_t, n_t)),
            value(use_m),
            value(use_n),
            value(align_up_idx(use_m, C0)),
            value(fixpipe_dst_stride(t)),
            atomic=s.atomic,
        )
