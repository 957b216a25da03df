"""``lower-ascend-api-to-hw``: API level → hardware level (what Init, Iterate and GetTensorC do).

Each ``Conv3DBackpropFilter`` object becomes the buffers ``Init`` allocates (``buffers.py``) and
each ``while (iterate) get_tensor_c`` loop becomes the tile walk of ``Iterate`` and the loads,
mmads and fixpipe it issues (``tile_walk.py``, with the K blocks of A1 and B1 in
``l1_loads.py``), as ``scf.for`` loops over the hardware ops, for the single shape set by the
preceding ``set_*`` calls (``calls.py``). Synchronisation is not emitted here:
``ascend-insert-sync`` derives it from the buffer accesses, and ``ascend-plan-buffers`` assigns
the addresses.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.ir import Block, Operation, SSAValue
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
from ascend_xdsl.dialects.types import Conv3DBpFilterType
from ascend_xdsl.lowering.lower_api_to_hw.buffers import allocate_buffers
from ascend_xdsl.lowering.lower_api_to_hw.calls import SingleShape
from ascend_xdsl.lowering.lower_api_to_hw.tile_walk import TileWalk


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
