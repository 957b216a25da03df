"""``lower-ascend-api-to-hw``: API level → hardware level (what Iterate/GetTensorC execute).

Each ``Conv3DBackpropFilter`` object becomes the buffers ``Init`` allocates (``InitTque``) and
each ``while (iterate) get_tensor_c`` loop becomes the tile walk of ``Iterate`` and the loads,
mmads and fixpipe it issues, as ``scf.for`` loops over the hardware ops, for the single shape set
by the preceding ``set_*`` calls. The vendor code is hicann/asc-devkit
``impl/adv_api/detail/conv_backprop/conv3d_backprop_filter/conv3d_bp_filter_func.h`` (``Init``,
``InitTque``, ``Iterate``, ``Compute``, ``LoadL12L0b``) and ``.../dav_v220/
conv3d_bp_filter_sub_func.h`` (``LoadToA1``, ``LoadToB1``, ``LoadL12L0a``, ``MmadLocal``,
``LoadL0c2Gm``):

* buffers: A1 (dy, ``step_m·base_m × step_ka·base_k``) and B1 (x, ``bl1_bound``) in L1, each
  single or ping-pong; A2/B2 the two halves of L0A/L0B (ping-pong per k step when both
  ``*l0_pbuffer`` are 2); CO1 ``base_m × base_n`` f32, optionally ping-pong per tile. Ping-pong
  slots alternate in walk order (the k steps and tiles counted over the whole walk), so a loop
  that runs once does not pin a slot.
* the walk: L1 blocks of ``step_m`` × ``step_n`` L0C tiles; ORDER_M (``iterate_order = 0``)
  walks M-L1 blocks outermost and N innermost (A1 resident), ORDER_N the other way round.
* K through L1: when all of a side's K fits its L1 slots (``ceil(k_iter/step_ka) <=
  al1_pbuffer``), that side is loaded once per L1 block into slot = K-block index and stays
  resident while the other axis iterates; otherwise it streams: one load per ``step_ka`` k steps
  into alternating slots.
* dy: ``data_copy`` of [cout1][positions][C0] rows, then a transposing ``load3d`` (1×1 kernel)
  into L0A (Zz). x: ``data_copy`` of the Hi rows a K block needs (top rows clipped at the
  padding, whose size becomes the load's ``pad_top``), then img2col ``load3d`` into L0B (Zn).
* ``mmad`` with ``init`` on the first k step, ``fixpipe`` into FRACTAL_Z_3D (atomic add).

Tails (last M/N/K tile, last L1 block) are computed with ``arith`` in the loops, so the IR does
not grow with the problem. Synchronisation is *not* emitted here: ``ascend-insert-sync`` derives
it from the buffer accesses, and ``ascend-plan-buffers`` assigns the addresses.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.dialects.builtin import f32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.api_level import (
    CreateOp,
    EndOp,
    GetTensorCOp,
    InitOp,
    IterateOp,
    SetGradOutputOp,
    SetInputOp,
    SetSingleShapeOp,
    SetStartPositionOp,
)
from ascend_xdsl.dialects.conv_shape import C0, align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import (
    ITERATE_ORDER_M,
    DwTiling,
    fixpipe_dst_stride,
    grad_output_strides,
    input_element,
    input_start_row,
    input_strides,
    tensor_c_offset,
)
from ascend_xdsl.dialects.enums import TPosition
from ascend_xdsl.dialects.hw_level import (
    AllocBufferOp,
    DataCopyOp,
    FixpipeOp,
    Load3dOp,
    MmadOp,
)
from ascend_xdsl.dialects.types import Conv3DBpFilterType, LocalTensorType
from ascend_xdsl.hw import isa
from ascend_xdsl.lowering.index_arith import (
    IDX_ARITH,
    Idx,
    add,
    align_up_idx,
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

# DataCopyParams fields are 16-bit (blockLen, strides) and 12-bit (blockCount): the limits of
# the instruction model's one table (hw/isa.toml).
MAX_COPY_STRIDE = isa.limit("data_copy", "src_stride").hi
MAX_COPY_COUNT = isa.limit("data_copy", "count").hi


@dataclass(frozen=True)
class Buffers:
    a1: SSAValue
    b1: SSAValue
    a2: SSAValue
    b2: SSAValue
    co1: SSAValue


@dataclass(frozen=True)
class SingleShape:
    """What the ``set_*`` calls and ``get_tensor_c`` of one iterate loop hand over."""

    dy: SSAValue
    off_dy: SSAValue
    x: SSAValue
    off_x: SSAValue
    m: SSAValue
    n: SSAValue
    k: SSAValue
    ho_start: SSAValue
    dw: SSAValue
    off_c: SSAValue
    atomic: bool


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


def allocate_buffers(t: DwTiling, element_type: Attribute) -> Buffers:
    """The buffers ``Init`` allocates (``InitTque``, asc-devkit ``conv3d_bp_filter_func.h``)."""
    l0_slots = 2 if t.al0_pbuffer == 2 and t.bl0_pbuffer == 2 else 1

    def alloc(pos: TPosition, elements: int, et: Attribute, slots: int) -> SSAValue:
        return AllocBufferOp(LocalTensorType(pos, [elements], et), slots).result

    return Buffers(
        a1=alloc(
            TPosition.A1, t.step_m * t.base_m * t.step_ka * t.base_k, element_type, t.al1_pbuffer
        ),
        b1=alloc(TPosition.B1, t.bl1_bound, element_type, t.bl1_pbuffer),
        a2=alloc(TPosition.A2, t.base_m * align_up(t.base_k, C0), element_type, l0_slots),
        b2=alloc(TPosition.B2, t.base_n * align_up(t.base_k, C0), element_type, l0_slots),
        co1=alloc(TPosition.CO1, t.base_m * t.base_n, f32, t.cl0_pbuffer),
    )


class TileWalk:
    """Emits the Iterate/GetTensorC algorithm for one single shape."""

    def __init__(self, t: DwTiling, bufs: Buffers, s: SingleShape):
        self.t, self.bufs, self.s = t, bufs, s
        self.hwk = t.hk * t.wk
        self.kal1 = t.step_ka * t.base_k
        self.kbl1 = t.step_kb * t.base_k
        k_iter_max = ceil_div(t.single_core_ho * t.wo, t.base_k)
        self.a_resident = ceil_div(k_iter_max, t.step_ka) <= t.al1_pbuffer
        self.b_resident = ceil_div(k_iter_max, t.step_kb) <= t.bl1_pbuffer
        self.l0_pingpong = t.al0_pbuffer == 2 and t.bl0_pbuffer == 2
        self.dy_strides, self.x_strides = grad_output_strides(t), input_strides(t)

    def emit(self) -> None:
        t, s = self.t, self.s
        self.m_iter = ceildiv(s.m, t.base_m)
        self.n_iter = ceildiv(s.n, t.base_n)
        self.k_iter = ceildiv(s.k, t.base_k)
        m_blocks = ceildiv(self.m_iter, t.step_m)
        n_blocks = ceildiv(self.n_iter, t.step_n)
        self.hi_start = input_start_row(IDX_ARITH, t, s.ho_start)
        if t.iterate_order == ITERATE_ORDER_M:
            with for_loop(0, m_blocks, name="mb") as mb:
                self.resident_a_loads(mb)
                with for_loop(0, n_blocks, name="nb") as nb:
                    self.resident_b_loads(nb)
                    self.block_tiles(mb, nb, m_inner=False)
        else:
            with for_loop(0, n_blocks, name="nb") as nb:
                self.resident_b_loads(nb)
                with for_loop(0, m_blocks, name="mb") as mb:
                    self.resident_a_loads(mb)
                    self.block_tiles(mb, nb, m_inner=True)

    # -- L1 loads ---------------------------------------------------------------------------

    def resident_a_loads(self, mb: Idx) -> None:
        if self.a_resident:
            with for_loop(0, ceildiv(self.s.k, self.kal1), name="ka") as ka:
                self.load_a1(mb, ka, ka)

    def resident_b_loads(self, nb: Idx) -> None:
        if self.b_resident:
            with for_loop(0, ceildiv(self.s.k, self.kbl1), name="kb") as kb:
                self.load_b1(nb, kb, kb)

    def a1_slot(self, ka: Idx) -> Idx:
        return rem(ka, 2) if self.t.al1_pbuffer == 2 else 0

    def b1_slot(self, kb: Idx) -> Idx:
        return rem(kb, 2) if self.t.bl1_pbuffer == 2 else 0

    def load_a1(self, mb: Idx, ka: Idx, slot: Idx) -> None:
        """dy rows of one M-L1 block × one K-L1 block: [cout1][kl1][C0] (``LoadToA1``)."""
        t, s, dy = self.t, self.s, self.dy_strides
        rows = min_(t.step_m * t.base_m, sub(s.m, mul(mb, t.step_m * t.base_m)))
        kl1 = min_(self.kal1, sub(s.k, mul(ka, self.kal1)))
        # M-L1 block mb starts step_m·base_m/C0 C1 blocks on, K-L1 block ka kal1 positions on.
        src = sum_(s.off_dy, mul(mb, t.step_m * t.base_m // C0 * dy.c1), mul(ka, self.kal1 * dy.w))
        self.copy(
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
            self.copy(
                s.x,
                src,
                self.bufs.b1,
                slot,
                c1_rows,
                mul(h_rows, t.wi),
                self.x_strides.c1,
                max_rows=t.cin1_g * t.dk,
            )

    def copy(
        self,
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
        stride (the fallback of ``LoadToA1`` / ``LoadToB1``, asc-devkit
        ``dav_v220/conv3d_bp_filter_sub_func.h``).

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
        Load3dOp(
            b.b1,
            value(run.b_slot),
            value(0),
            b.b2,
            value(l0),
            (value(run.b_rows), value(t.wi), value(run.b_channels)),
            (
                value(run.b_column),
                value(use_n),
                value(sub(mul(kt, t.base_k), run.b_first_position)),
                value(k_ext),
            ),
            (value(run.b_pad_top), value(t.pad_down), value(t.pad_left), value(t.pad_right)),
            kernel=(t.hk, t.wk),
            stride=(t.stride_h, t.stride_w),
            dilation=(t.dilation_h, t.dilation_w),
        )
        MmadOp(
            b.a2,
            value(l0),
            b.b2,
            value(l0),
            b.co1,
            value(c_slot),
            value(use_m),
            value(use_n),
            value(use_k),
            bool_value(cmp("eq", kt, 0)),
        )

    def tile(self, mb: Idx, nb: Idx, mi: Idx, ni: Idx, c_slot: Idx, first_k_step: Idx) -> None:
        t, s, b = self.t, self.s, self.bufs
        slots = Slots(c=c_slot, first_k_step=first_k_step)
        m_t = add(mul(mb, t.step_m), mi)
        n_t = add(mul(nb, t.step_n), ni)
        use_m = min_(t.base_m, sub(s.m, mul(m_t, t.base_m)))
        use_n = min_(t.base_n, sub(s.n, mul(n_t, t.base_n)))
        c1_first, c1_rows = self.b1_channels(nb)
        # K walks in runs of `step` k steps within which neither the A1 nor the B1 block
        # changes (step_ka and step_kb are multiples of each other): what depends only on the
        # L1 blocks is computed once per run, not once per k step.
        step = min(t.step_ka, t.step_kb)
        with for_loop(0, ceildiv(self.k_iter, step), name="kk") as kk:
            k_first = mul(kk, step)
            # dy: K-L1 block ka holds positions [ka·kal1, ...), as rows of kl1 positions.
            ka = floordiv(k_first, t.step_ka)
            a_slot = ka if self.a_resident else self.a1_slot(ka)
            if not self.a_resident:
                with if_(cmp("eq", rem(k_first, t.step_ka), 0)):
                    self.load_a1(mb, ka, a_slot)
            kl1 = min_(self.kal1, sub(s.k, mul(ka, self.kal1)))
            # x: img2col of the K-L1 block kb, columns relative to its first Cin1 row.
            kb = floordiv(k_first, t.step_kb)
            b_slot = kb if self.b_resident else self.b1_slot(kb)
            if not self.b_resident:
                with if_(cmp("eq", rem(k_first, t.step_kb), 0)):
                    self.load_b1(nb, kb, b_slot)
            r0, h_rows, pad_top = self.b1_window(kb)
            run = KRun(
                a_slot=a_slot,
                a_first=mul(ka, t.step_ka),
                kl1=kl1,
                b_slot=b_slot,
                b_rows=h_rows,
                b_pad_top=pad_top,
                b_first_position=mul(r0, t.wo),
                b_channels=mul(c1_rows, C0),
                b_column=sub(mul(n_t, t.base_n), mul(c1_first, self.hwk * C0)),
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


def _find_call(block: Block, before: Operation, obj: SSAValue, kind: type[Operation]) -> Operation:
    """The latest ``kind`` call on ``obj`` before ``before`` in ``block``."""
    op = before.prev_op
    while op is not None:
        if isinstance(op, kind) and op.operands[0] is obj:
            return op
        op = op.prev_op
    raise PassFailedException(f"ascend.iterate without a preceding {kind.name} in its block")


def lower_object(create: CreateOp) -> None:
    obj = create.result
    users = [u.operation for u in obj.uses]
    init = next(u for u in users if isinstance(u, InitOp))
    t = init.tiling.tiling
    assert isinstance(obj.type, Conv3DBpFilterType)
    # Buffers are allocated where the object is declared.
    alloc_block = Block()
    with ImplicitBuilder(alloc_block):
        bufs = allocate_buffers(t, obj.type.element_type)
    Rewriter.inline_block(alloc_block, InsertPoint.before(create))
    # Every API call on the object goes; a set_* that several iterate loops share goes once.
    calls: dict[Operation, None] = dict.fromkeys([init])
    for loop in [u.parent_op() for u in users if isinstance(u, IterateOp)]:
        assert isinstance(loop, scf.WhileOp)
        block = loop.parent_block()
        assert block is not None
        get_c = next(op for op in loop.after_region.block.ops if isinstance(op, GetTensorCOp))
        set_dy = _find_call(block, loop, obj, SetGradOutputOp)
        set_x = _find_call(block, loop, obj, SetInputOp)
        set_shape = _find_call(block, loop, obj, SetSingleShapeOp)
        set_pos = _find_call(block, loop, obj, SetStartPositionOp)
        assert isinstance(set_dy, SetGradOutputOp) and isinstance(set_x, SetInputOp)
        assert isinstance(set_shape, SetSingleShapeOp) and isinstance(set_pos, SetStartPositionOp)
        shape = SingleShape(
            dy=set_dy.tensor,
            off_dy=set_dy.offset,
            x=set_x.tensor,
            off_x=set_x.offset,
            m=set_shape.m,
            n=set_shape.n,
            k=set_shape.k,
            ho_start=set_pos.ho_start,
            dw=get_c.tensor,
            off_c=get_c.offset,
            atomic=get_c.atomic is not None,
        )
        walk_block = Block()
        with ImplicitBuilder(walk_block):
            TileWalk(t, bufs, shape).emit()
        Rewriter.inline_block(walk_block, InsertPoint.before(loop))
        calls.update(dict.fromkeys([loop, set_dy, set_x, set_shape, set_pos]))
    calls.update(dict.fromkeys(u for u in users if isinstance(u, EndOp)))
    for op in calls:
        Rewriter.erase_op(op, safe_erase=False)  # the object operand dies with create below
    Rewriter.erase_op(create)


@dataclass(frozen=True)
class LowerAscendApiToHwPass(ModulePass):
    """Expand every Conv3DBackpropFilter object into buffers and the hardware tile walk."""

    name = "lower-ascend-api-to-hw"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for create in [o for o in op.walk() if isinstance(o, CreateOp)]:
            lower_object(create)
