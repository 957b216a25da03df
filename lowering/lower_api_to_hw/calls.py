"""The calls on one ``Conv3DBackpropFilter`` object, as the rewrite patterns read them.

At the API level the object is mutable state: ``init`` gives it its tiling and buffers, each
``set_*`` one field of the current single shape, and an iterate loop reads them all. The
patterns of ``patterns.py`` never look at an op's neighbours to find that state:

* What ``Init`` leaves is a value. Once the buffers are allocated, ``InitState`` (an op private
  to this pass, never in its output) takes the place of ``ascend.create``: it defines the object
  from the buffers and the tiling, so every later call reaches both through its object operand.
* A loop's single shape is read off the object's uses (def-use): of the calls on it, the latest
  ``set_*`` of each kind before the loop in the loop's own block, as the API means it. A
  ``set_*`` nested in a region between that call and the loop may run or not, so the state
  cannot be followed through it: that is an error, as is a missing kind.
* ``IterateLoop`` is the one loop form lowered, ``while (iterate) { get_tensor_c }``.

Every error names the op and where it is (``ir/locations.describe_op``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects import scf
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.api_level import (
    CreateOp,
    GetTensorCOp,
    IterateOp,
    SetGradOutputOp,
    SetInputOp,
    SetSingleShapeOp,
    SetStartPositionOp,
)
from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.types import Conv3DBpFilterType, LocalTensorType
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.lowering.lower_api_to_hw.buffers import InitBuffers

SetCall = SetGradOutputOp | SetInputOp | SetSingleShapeOp | SetStartPositionOp
_Set = TypeVar("_Set", SetGradOutputOp, SetInputOp, SetSingleShapeOp, SetStartPositionOp)


@irdl_op_definition
class InitState(IRDLOperation):
    """The object once ``Init`` has run: its buffers and its tiling (internal to the pass)."""

    name = "lower_api_to_hw.init_state"

    a1 = operand_def(LocalTensorType)
    b1 = operand_def(LocalTensorType)
    a2 = operand_def(LocalTensorType)
    b2 = operand_def(LocalTensorType)
    co1 = operand_def(LocalTensorType)
    tiling = prop_def(DwTilingAttr)
    object = result_def(Conv3DBpFilterType)

    def __init__(self, buffers: InitBuffers, tiling: DwTilingAttr, object_type: Conv3DBpFilterType):
        super().__init__(
            operands=[buffers.a1, buffers.b1, buffers.a2, buffers.b2, buffers.co1],
            properties={"tiling": tiling},
            result_types=[object_type],
        )

    @property
    def buffers(self) -> InitBuffers:
        return InitBuffers(a1=self.a1, b1=self.b1, a2=self.a2, b2=self.b2, co1=self.co1)


def created_here(obj: SSAValue) -> bool:
    """Whether ``obj`` is an object this pass lowers: one made by ``ascend.create`` (an object
    handed in as an argument is left as it is)."""
    return isinstance(obj.owner, CreateOp | InitState)


@dataclass(frozen=True)
class IterateLoop:
    """``scf.while { %more = iterate %obj; scf.condition(%more) } do { get_tensor_c %obj …;
    scf.yield }``: ``while (dw.Iterate()) { dw.GetTensorC(…); }`` of one single shape."""

    op: scf.WhileOp
    iterate: IterateOp
    get_tensor_c: GetTensorCOp

    @staticmethod
    def of(op: Operation | None) -> IterateLoop | None:
        """``op`` as an iterate loop, or None if it is not exactly one."""
        if not isinstance(op, scf.WhileOp) or op.arguments or op.res:
            return None
        if len(op.before_region.blocks) != 1 or len(op.after_region.blocks) != 1:
            return None
        before, after = op.before_region.block, op.after_region.block
        match list(before.ops), list(after.ops):
            case [IterateOp() as iterate, scf.ConditionOp() as condition], [
                GetTensorCOp() as get_tensor_c,
                scf.YieldOp(),
            ] if (
                condition.condition is iterate.more
                and not condition.args
                and get_tensor_c.obj is iterate.obj
                and not before.args
                and not after.args
            ):
                return IterateLoop(op, iterate, get_tensor_c)
        return None

    @staticmethod
    def around(call: IterateOp | GetTensorCOp) -> IterateLoop | None:
        """The iterate loop ``call`` is part of, if it is part of one."""
        loop = IterateLoop.of(call.parent_op())
        if loop is None or call not in (loop.iterate, loop.get_tensor_c):
            return None
        return loop

    @property
    def obj(self) -> SSAValue:
        return self.iterate.obj


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


def single_shape(loop: IterateLoop) -> SingleShape:
    """The single shape ``loop`` computes; a precise error if the calls do not determine it."""
    set_dy = _latest_set(loop, SetGradOutputOp)
    set_x = _latest_set(loop, SetInputOp)
    set_shape = _latest_set(loop, SetSingleShapeOp)
    set_pos = _latest_set(loop, SetStartPositionOp)
    get_c = loop.get_tensor_c
    return SingleShape(
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


def _latest_set(loop: IterateLoop, kind: type[_Set]) -> _Set:
    """The ``kind`` call whose value ``loop`` reads: the latest before it in its block."""
    block = loop.op.parent_block()
    assert block is not None
    calls = [use.operation for use in loop.obj.uses if isinstance(use.operation, kind)]
    latest: _Set | None = None
    for call in calls:
        if call.is_before_in_block(loop.op) and (latest is None or latest.is_before_in_block(call)):
            latest = call
    if latest is None:
        raise PassFailedException(
            f"{describe_op(loop.iterate)} without a preceding {kind.name} in its block"
        )
    for call in calls:
        holder = block.find_ancestor_op_in_block(call)
        if (
            holder is not None
            and holder is not call
            and latest.is_before_in_block(holder)
            and holder.is_before_in_block(loop.op)
        ):
            raise PassFailedException(
                f"{describe_op(loop.iterate)} reads a single shape that {describe_op(call)}, "
                "in a nested region before it, may change"
            )
    return latest


def read_by_a_loop(call: SetCall) -> bool:
    """Whether an iterate loop after ``call`` in its block is left to read it."""
    for use in call.obj.uses:
        loop = IterateLoop.around(use.operation) if isinstance(use.operation, IterateOp) else None
        if loop is not None and call.is_before_in_block(loop.op):
            return True
    return False
