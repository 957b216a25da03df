"""API level: the Ascend C ``Conv3DBackpropFilter`` high-level API as IR.

A dW kernel written against the vendor API (hicann/asc-devkit
``include/adv_api/conv_backprop/conv3d_bp_filter_intf.h`` and its docs ``Init`` … ``End``) reads

    Conv3DBackpropFilter<INPUT, WEIGHT, GRAD_OUTPUT, GRAD_WEIGHT> dw;
    dw.Init(&tiling);
    dw.SetGradOutput(dy[offA]); dw.SetInput(x[offB]);
    dw.SetSingleShape(M, N, K); dw.SetStartPosition(hoStart);
    while (dw.Iterate()) { dw.GetTensorC(y[offC]); }
    dw.End();

and so does its IR, one op per call on a value of type ``!ascend.conv3d_bp_filter<…>``:

```
%obj = ascend.create : !ascend.conv3d_bp_filter<...>
ascend.init %obj tiling #ascend.dw_tiling<...> : !ascend.conv3d_bp_filter<...>
ascend.set_grad_output %obj, %dy[%off_a] : !ascend.conv3d_bp_filter<...>, !ascend.gm_tensor<...>
ascend.set_input %obj, %x[%off_b] : ...
ascend.set_single_shape %obj, %m, %n, %k : ...
ascend.set_start_position %obj, %ho_start : ...
scf.while () : () -> () {
  %more = ascend.iterate %obj : ...
  scf.condition(%more)
} do {
  ascend.get_tensor_c %obj, %dw[%off_c] atomic : ...
  scf.yield
}
ascend.end %obj : ...
```

Offsets are element offsets into the tensors' physical (formatted) layouts. ``set_*`` between
single shapes start a new one (the API's ``ctx.isFirstIter_ = true`` reset). The per-core driver
loops around the calls (batch·dout, dk, groups, the core split) are plain scf/arith.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IndexType, IntegerType, UnitAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import ConvTypeAttr, DwTilingAttr
from ascend_xdsl.dialects.hw_base import constant_value
from ascend_xdsl.dialects.types import Conv3DBpFilterType, GmTensorType


def check_constant_at_least(op: Operation, what: str, value: SSAValue, low: int) -> None:
    """A constant operand below ``low`` is refused here; a computed one by the simulation
    (``runtime/executors/api_sim.py``), which also knows the tiling's upper bounds."""
    c = constant_value(value)
    if c is not None and c < low:
        bound = "be at least 1" if low == 1 else "not be negative"
        raise VerifyException(f"{op.name} {what} must {bound}, got {c}")


def check_tensor_matches(
    op: IRDLOperation, role: str, conv_type: ConvTypeAttr, t: GmTensorType
) -> None:
    if t.conv_format != conv_type.format.data or t.element_type != conv_type.element_type:
        raise VerifyException(
            f"{op.name} expects the object's {role} {conv_type.describe()}, got a tensor in "
            f"{t.conv_format} of {t.element_type}"
        )


@irdl_op_definition
class CreateOp(IRDLOperation):
    """Declare a ``Conv3DBackpropFilter`` object. Its uses must follow the API's call order."""

    name = "ascend.create"

    result = result_def(Conv3DBpFilterType)
    traits = traits_def(MemoryAllocEffect())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, object_type: Conv3DBpFilterType):
        super().__init__(result_types=[object_type])

    def verify_(self) -> None:
        names = [op.name for op in calls_in_program_order(self.result)]
        if names.count(InitOp.name) != 1 or names[0] != InitOp.name:
            raise VerifyException(
                "the object must be initialised by exactly one ascend.init, before any other call"
            )
        if names.count(EndOp.name) != 1 or names[-1] != EndOp.name:
            raise VerifyException(
                "the object must be finished by exactly one ascend.end, after every other call"
            )
        if IterateOp.name in names:
            first_iterate = names.index(IterateOp.name)
            for required in (SetGradOutputOp, SetInputOp, SetSingleShapeOp, SetStartPositionOp):
                if required.name not in names[:first_iterate]:
                    raise VerifyException(f"ascend.iterate needs a preceding {required.name}")


def calls_in_program_order(obj: SSAValue) -> list[Operation]:
    """The ops using an API object, in program order below the block that creates it (the
    call-order checks of every API object read them); a use outside that block is refused."""
    block = obj.owner.parent_block() if isinstance(obj.owner, Operation) else None
    calls: list[tuple[list[int], Operation]] = []
    for use in obj.uses:
        key = _program_order_key(use.operation, block)
        if key is None:
            raise VerifyException(f"{use.operation.name} uses the object outside its block")
        calls.append((key, use.operation))
    calls.sort(key=lambda c: c[0])
    return [op for _, op in calls]


def _program_order_key(op: Operation, block: Block | None) -> list[int] | None:
    """Position of ``op`` in program order below ``block``: per nesting level, outermost first,
    the region and block of the enclosing op (so an ``scf.while``'s "before" region comes
    before its "after" region) and the operation's index (None if ``op`` is not nested in
    ``block``)."""
    key: list[int] = []
    current: Operation | None = op
    while current is not None:
        parent = current.parent_block()
        if parent is None:
            return None
        key.append(parent.get_operation_index(current))
        if parent is block:
            return key[::-1]
        region = parent.parent_region()
        owner = parent.parent_op()
        if region is None or owner is None:
            return None
        key.append(list(region.blocks).index(parent))
        key.append(list(owner.regions).index(region))
        current = owner
    return None


class _ObjectCall(IRDLOperation):
    """A call on the object: reads and updates its state.

    IRDL orders a subclass's own operands before the inherited ``obj``, so every call with more
    operands restates ``obj`` first: the object is always operand 0, as the builders pass it.
    """

    obj = operand_def(Conv3DBpFilterType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @property
    def object_type(self) -> Conv3DBpFilterType:
        assert isinstance(self.obj.type, Conv3DBpFilterType)
        return self.obj.type


@irdl_op_definition
class InitOp(_ObjectCall):
    """``Init(&tiling)``: hand the kernel its tiling; allocates the L1/L0 buffers."""

    name = "ascend.init"
    tiling = prop_def(DwTilingAttr)
    assembly_format = "$obj `tiling` qualified($tiling) attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, tiling: DwTilingAttr):
        super().__init__(operands=[obj], properties={"tiling": tiling})


class _SetTensorOp(_ObjectCall):
    obj = operand_def(Conv3DBpFilterType)  # restated so that the object is operand 0
    tensor = operand_def(GmTensorType)
    offset = operand_def(IndexType)
    assembly_format = "$obj `,` $tensor `[` $offset `]` attr-dict `:` type($obj) `,` type($tensor)"
    ROLE: ClassVar[str] = ""

    def __init__(self, obj: SSAValue, tensor: SSAValue, offset: SSAValue):
        super().__init__(operands=[obj, tensor, offset])

    def verify_(self) -> None:
        assert isinstance(self.tensor.type, GmTensorType)
        check_tensor_matches(
            self, self.ROLE, getattr(self.object_type, self.ROLE), self.tensor.type
        )
        check_constant_at_least(self, "offset", self.offset, 0)


@irdl_op_definition
class SetGradOutputOp(_SetTensorOp):
    """``SetGradOutput(dy[offset])``: the GM start of this single shape's dy slice."""

    name = "ascend.set_grad_output"
    ROLE: ClassVar[str] = "grad_output"


@irdl_op_definition
class SetInputOp(_SetTensorOp):
    """``SetInput(x[offset])``: the GM start of this single shape's x slice."""

    name = "ascend.set_input"
    ROLE: ClassVar[str] = "input"


@irdl_op_definition
class SetSingleShapeOp(_ObjectCall):
    """``SetSingleShape(M, N, K)``: the GEMM shape of this single shape (elements)."""

    name = "ascend.set_single_shape"
    obj = operand_def(Conv3DBpFilterType)  # restated so that the object is operand 0
    m = operand_def(IndexType)
    n = operand_def(IndexType)
    k = operand_def(IndexType)
    assembly_format = "$obj `,` $m `,` $n `,` $k attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, m: SSAValue, n: SSAValue, k: SSAValue):
        super().__init__(operands=[obj, m, n, k])

    def verify_(self) -> None:
        for what, value in (("M", self.m), ("N", self.n), ("K", self.k)):
            check_constant_at_least(self, what, value, 1)


@irdl_op_definition
class SetStartPositionOp(_ObjectCall):
    """``SetStartPosition(hoStartIdx)``: the global Ho row this core's K range starts at."""

    name = "ascend.set_start_position"
    obj = operand_def(Conv3DBpFilterType)  # restated so that the object is operand 0
    ho_start = operand_def(IndexType)
    assembly_format = "$obj `,` $ho_start attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, ho_start: SSAValue):
        super().__init__(operands=[obj, ho_start])

    def verify_(self) -> None:
        check_constant_at_least(self, "hoStartIdx", self.ho_start, 0)


@irdl_op_definition
class IterateOp(_ObjectCall):
    """``Iterate()``: compute the next baseM×baseN tile into L0C; false when all are done."""

    name = "ascend.iterate"
    more = result_def(IntegerType(1))
    assembly_format = "$obj attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue):
        super().__init__(operands=[obj], result_types=[IntegerType(1)])


@irdl_op_definition
class GetTensorCOp(_ObjectCall):
    """``GetTensorC(dw[offset], enAtomic)``: fixpipe the current tile into dW (FRACTAL_Z_3D)."""

    name = "ascend.get_tensor_c"
    obj = operand_def(Conv3DBpFilterType)  # restated so that the object is operand 0
    tensor = operand_def(GmTensorType)
    offset = operand_def(IndexType)
    atomic = opt_prop_def(UnitAttr)
    assembly_format = (
        "$obj `,` $tensor `[` $offset `]` (`atomic` $atomic^)? attr-dict `:` type($obj) `,` "
        "type($tensor)"
    )

    def __init__(self, obj: SSAValue, tensor: SSAValue, offset: SSAValue, atomic: bool = True):
        super().__init__(
            operands=[obj, tensor, offset], properties={"atomic": UnitAttr() if atomic else None}
        )

    def verify_(self) -> None:
        assert isinstance(self.tensor.type, GmTensorType)
        check_tensor_matches(self, "grad_weight", self.object_type.grad_weight, self.tensor.type)


@irdl_op_definition
class EndOp(_ObjectCall):
    """``End()``: release the object's buffers and events."""

    name = "ascend.end"
    assembly_format = "$obj attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue):
        super().__init__(operands=[obj])


OPS = (
    CreateOp,
    InitOp,
    SetGradOutputOp,
    SetInputOp,
    SetSingleShapeOp,
    SetStartPositionOp,
    IterateOp,
    GetTensorCOp,
    EndOp,
)
