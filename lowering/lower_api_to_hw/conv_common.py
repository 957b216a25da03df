"""What the API → hw lowerings of the conv family share: the buffers ``Init`` allocates, the
ping-pong slot of a walk counter, and the Load3D img2col geometry every conv feeds the Cube with.

dW (``buffers.py``, ``tile_walk.py``) img2cols x into L0B, the forward (``conv3d_walk.py``)
img2cols x into L0A and the input gradient (``conv3d_bp_input_walk.py``) dy into L0A; all three
describe a ``[C1][rows][Wi][C0]`` window of x
in L1 the same way (:class:`Img2colWindow`), and both leave the rounding or accumulation of the
result to the ``fixpipe`` of ``hw/instructions/fixpipe.py`` (float32 out for dW, quantised to
the input type for the forward).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects import arith
from xdsl.ir import Attribute, SSAValue

from ascend_xdsl.dialects.conv_shape import C0
from ascend_xdsl.dialects.enums import TPosition
from ascend_xdsl.dialects.hw_level import AllocBufferOp, FixpipeOp, Load3dOp, MmadOp
from ascend_xdsl.dialects.types import LocalTensorType
from ascend_xdsl.lowering.index_arith import Idx, align_up_idx, bool_value, rem, value


def alloc(pos: TPosition, elements: int, element_type: Attribute, slots: int) -> SSAValue:
    """One buffer of ``slots`` slots of ``elements`` elements in ``pos`` (an ``alloc_buffer``
    in the innermost ``ImplicitBuilder``; its address is ``ascend-plan-buffers``'s)."""
    return AllocBufferOp(LocalTensorType(pos, [elements], element_type), slots).result


def pingpong(counter: Idx, slots: int) -> Idx:
    """The slot of the ``counter``-th use of a buffer of ``slots`` (1 or 2) slots: slots
    alternate in walk order, so that two consecutive uses can overlap."""
    return rem(counter, 2) if slots == 2 else 0


def select_or_zero(cond: SSAValue | bool, x: Idx) -> Idx:
    """``cond ? x : 0`` (a window's rows when its depth reaches the operand, else none)."""
    if isinstance(cond, bool):
        return x if cond else 0
    return arith.SelectOp(cond, value(x), value(0)).result


class CubeBuffers(Protocol):
    """The L0 and CO1 buffers of a walk's ``Init`` (dW's, the forward's, dX's)."""

    @property
    def a2(self) -> SSAValue: ...
    @property
    def b2(self) -> SSAValue: ...
    @property
    def co1(self) -> SSAValue: ...


def mmad_l0(
    b: CubeBuffers,
    l0: Idx,
    c_slot: Idx,
    m: Idx,
    n: Idx,
    k: Idx,
    init: SSAValue | bool | Callable[[], SSAValue | bool],
    bias_table: SSAValue | None = None,
) -> MmadOp:
    """The ``mmad`` of one k step: A2 and B2 from the same L0 slot ``l0`` into CO1's slot
    ``c_slot``, starting C (from 0, or the bias in ``bias_table``'s slot 0) where ``init``
    holds. ``init`` may be a function building it: it is then built after the operands before
    it (dW's order)."""
    slots = (value(l0), value(l0), value(c_slot))
    dims = (value(m), value(n), value(k))
    first = bool_value(init() if callable(init) else init)
    bias = None if bias_table is None else (bias_table, value(0))
    return MmadOp(b.a2, slots[0], b.b2, slots[1], b.co1, slots[2], *dims, first, bias)


def fixpipe_nz(
    co1: SSAValue, c_slot: Idx, dst: SSAValue, dst_offset: Idx, m: Idx, n: Idx, c1_stride: int
) -> FixpipeOp:
    """The ``fixpipe`` of a finished C tile (``m`` x ``n`` in CO1's slot ``c_slot``) to
    ``dst`` at ``dst_offset``, ``c1_stride`` elements between its C1 planes (NDC1HWC0)."""
    return FixpipeOp(
        co1,
        value(c_slot),
        dst,
        value(dst_offset),
        value(m),
        value(n),
        value(align_up_idx(m, C0)),
        value(c1_stride // C0),
    )


@dataclass(frozen=True)
class Img2colWindow:
    """A ``[C1][rows][width][C0]`` window of x in L1 and the conv geometry that img2cols it:
    ``channels`` (C1·C0), ``rows`` (0: every position reads padding), ``pad_top`` (the padding
    rows above the window's first row), the conv's other pads, kernel, stride and dilation in
    (h, w)."""

    rows: Idx
    width: Idx
    channels: Idx
    pad_top: Idx
    pad_bottom: int
    pad_left: int
    pad_right: int
    kernel: tuple[int, int]
    stride: tuple[int, int]
    dilation: tuple[int, int]

    def load3d(
        self,
        src: SSAValue,
        src_slot: Idx,
        src_offset: Idx,
        dst: SSAValue,
        dst_slot: Idx,
        k_start: Idx,
        k_ext: Idx,
        m_start: Idx | Callable[[], Idx],
        m_ext: Idx,
        transpose: bool = False,
    ) -> Load3dOp:
        """``load3d`` of img2col columns ``[k_start, +k_ext)`` and positions
        ``[m_start, +m_ext)`` of the window into ``dst`` (Zz into L0A, Zn into L0B).
        ``m_start`` may be a function building it: it is then built in operand order, after
        the operands before it (dW's walk emits its ops in that order)."""
        # Every operand is materialised in operand order (``m_start`` built in its place when
        # it is given as a function), the order dW's walk has always emitted them in.
        slots = (value(src_slot), value(src_offset), value(dst_slot))
        fmap = (value(self.rows), value(self.width), value(self.channels))
        first = m_start() if callable(m_start) else m_start
        window = (value(k_start), value(k_ext), value(first), value(m_ext))
        pads = (
            value(self.pad_top),
            value(self.pad_bottom),
            value(self.pad_left),
            value(self.pad_right),
        )
        return Load3dOp(
            src,
            slots[0],
            slots[1],
            dst,
            slots[2],
            fmap,
            window,
            pads,
            kernel=self.kernel,
            stride=self.stride,
            dilation=self.dilation,
            transpose=transpose,
        )
