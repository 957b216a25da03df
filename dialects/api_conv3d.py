"""API level of the forward convolution: the Ascend C ``Conv3D`` high-level API as IR.

A forward kernel written against the vendor API (hicann/asc-devkit
``include/adv_api/conv/conv3d/conv3d_intf.h`` and the docs
``docs/zh/api/SIMD-API/高阶API/卷积计算/Conv3D-Kernel侧接口/``: ``Init``, ``SetInput``,
``SetWeight``, ``SetBias``, ``SetSingleOutputShape``, ``SetInputStartPosition``,
``IterateAll``, ``End``; ``Iterate`` and ``GetTensorC`` are in the header) reads

    Conv3D<INPUT, WEIGHT, OUTPUT, BIAS> conv;
    conv.Init(&tiling);
    conv.SetWeight(w[offW]); conv.SetBias(b[offB]);
    conv.SetInputStartPosition(diStart, mStart);
    conv.SetSingleOutputShape(singleCo, singleDo, singleM);
    for (batch ...) { conv.SetInput(x[offX]); conv.IterateAll(y[offY]); conv.End(); }

and so does its IR, one op per call on a value of type ``!ascend.conv3d_api<…>``:

```
%obj = ascend.conv3d_create : !ascend.conv3d_api<...>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<...> : !ascend.conv3d_api<...>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<...>, !ascend.gm_tensor<...>
ascend.conv3d_set_input_start_position %obj, %di, %m : !ascend.conv3d_api<...>
ascend.conv3d_set_single_output_shape %obj, %co, %do, %m : !ascend.conv3d_api<...>
ascend.conv3d_set_input %obj, %x[%off] : ...
ascend.conv3d_iterate_all %obj, %y[%off] : ...
ascend.conv3d_end %obj : ...
```

The call order is checked on ``ascend.conv3d_create`` with the same program-order walk as the
dW object's (``api_level.calls_in_program_order``): one ``Init`` before anything else (docs
``Init``: "只能调用一次"); the input, weight, single output shape and, exactly when the object
has a bias type, the bias set before the first computation (docs ``SetBias``: it must be called
when there is a bias and must not be otherwise); ``GetTensorC`` after an ``Iterate``; every
``End`` after a computation (docs ``End``) and the last call an ``End``. Offsets are element
offsets into the tensors' physical (formatted) layouts, as for dW.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.api_level import (
    calls_in_program_order,
    check_constant_at_least,
    check_tensor_matches,
)
from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.types import Conv3DApiType, GmTensorType


@irdl_op_definition
class Conv3DCreateOp(IRDLOperation):
    """Declare a ``Conv3D`` object. Its uses must follow the API's call order."""

    name = "ascend.conv3d_create"

    result = result_def(Conv3DApiType)
    traits = traits_def(MemoryAllocEffect())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, object_type: Conv3DApiType):
        super().__init__(result_types=[object_type])

    def verify_(self) -> None:
        calls = calls_in_program_order(self.result)
        names = [op.name for op in calls]
        if names.count(Conv3DInitOp.name) != 1 or names[0] != Conv3DInitOp.name:
            raise VerifyException(
                "the Conv3D object must be initialised by exactly one ascend.conv3d_init, "
                "before any other call"
            )
        if not names or names[-1] != Conv3DEndOp.name:
            raise VerifyException("the Conv3D object's last call must be an ascend.conv3d_end")
        obj = self.result.type
        assert isinstance(obj, Conv3DApiType)
        required = [Conv3DSetInputOp, Conv3DSetWeightOp, Conv3DSetSingleOutputShapeOp]
        if obj.has_bias:
            required.append(Conv3DSetBiasOp)
        computed = False
        for i, name in enumerate(names):
            if name in (Conv3DIterateAllOp.name, Conv3DIterateOp.name):
                for op in required:
                    if op.name not in names[:i]:
                        raise VerifyException(f"{name} needs a preceding {op.name}")
                computed = True
            elif name == Conv3DGetTensorCOp.name and Conv3DIterateOp.name not in names[:i]:
                raise VerifyException(
                    "ascend.conv3d_get_tensor_c needs a preceding ascend.conv3d_iterate"
                )
            elif name == Conv3DEndOp.name and not computed:
                raise VerifyException(
                    "ascend.conv3d_end must follow an ascend.conv3d_iterate_all or "
                    "ascend.conv3d_iterate"
                )


class _Conv3DCall(IRDLOperation):
    """A call on the Conv3D object (operand 0, restated by every subclass with more operands)."""

    obj = operand_def(Conv3DApiType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @property
    def object_type(self) -> Conv3DApiType:
        assert isinstance(self.obj.type, Conv3DApiType)
        return self.obj.type


@irdl_op_definition
class Conv3DInitOp(_Conv3DCall):
    """``Init(&tiling)``: hand the object its tiling; carves the L1/L0 buffers."""

    name = "ascend.conv3d_init"
    tiling = prop_def(Conv3DTilingAttr)
    assembly_format = "$obj `tiling` qualified($tiling) attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, tiling: Conv3DTilingAttr):
        super().__init__(operands=[obj], properties={"tiling": tiling})


class _Conv3DTensorCall(_Conv3DCall):
    obj = operand_def(Conv3DApiType)  # restated so that the object is operand 0
    tensor = operand_def(GmTensorType)
    offset = operand_def(IndexType)
    assembly_format = "$obj `,` $tensor `[` $offset `]` attr-dict `:` type($obj) `,` type($tensor)"
    ROLE: ClassVar[str] = ""

    def __init__(self, obj: SSAValue, tensor: SSAValue, offset: SSAValue):
        super().__init__(operands=[obj, tensor, offset])

    def verify_(self) -> None:
        t = self.tensor.type
        assert isinstance(t, GmTensorType)
        obj = self.object_type
        if self.ROLE == "bias" and not obj.has_bias:
            raise VerifyException(
                f"{self.name} on a Conv3D object without a bias type (SetBias must not be "
                "called then)"
            )
        check_tensor_matches(self, self.ROLE, obj.role(self.ROLE), t)
        check_constant_at_least(self, "offset", self.offset, 0)


@irdl_op_definition
class Conv3DSetInputOp(_Conv3DTensorCall):
    """``SetInput(x[offset])``: the GM start of this batch's input (NDC1HWC0)."""

    name = "ascend.conv3d_set_input"
    ROLE: ClassVar[str] = "input"


@irdl_op_definition
class Conv3DSetWeightOp(_Conv3DTensorCall):
    """``SetWeight(w[offset])``: the GM start of the weight (FRACTAL_Z_3D)."""

    name = "ascend.conv3d_set_weight"
    ROLE: ClassVar[str] = "weight"


@irdl_op_definition
class Conv3DSetBiasOp(_Conv3DTensorCall):
    """``SetBias(b[offset])``: the GM start of the bias (ND)."""

    name = "ascend.conv3d_set_bias"
    ROLE: ClassVar[str] = "bias"


@irdl_op_definition
class Conv3DSetSingleOutputShapeOp(_Conv3DCall):
    """``SetSingleOutputShape(singleCo, singleDo, singleM)``: this core's output block (M =
    Ho·Wo positions, the "M 合轴" mode)."""

    name = "ascend.conv3d_set_single_output_shape"
    obj = operand_def(Conv3DApiType)  # restated so that the object is operand 0
    co = operand_def(IndexType)
    do = operand_def(IndexType)
    m = operand_def(IndexType)
    assembly_format = "$obj `,` $co `,` $do `,` $m attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, co: SSAValue, do: SSAValue, m: SSAValue):
        super().__init__(operands=[obj, co, do, m])

    def verify_(self) -> None:
        for what, value in (("singleCo", self.co), ("singleDo", self.do), ("singleM", self.m)):
            check_constant_at_least(self, what, value, 1)


@irdl_op_definition
class Conv3DSetInputStartPositionOp(_Conv3DCall):
    """``SetInputStartPosition(diStartPos, mStartPos)``: where this core's block starts in Din
    and in M."""

    name = "ascend.conv3d_set_input_start_position"
    obj = operand_def(Conv3DApiType)  # restated so that the object is operand 0
    di_start = operand_def(IndexType)
    m_start = operand_def(IndexType)
    assembly_format = "$obj `,` $di_start `,` $m_start attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, di_start: SSAValue, m_start: SSAValue):
        super().__init__(operands=[obj, di_start, m_start])

    def verify_(self) -> None:
        check_constant_at_least(self, "mStartPos", self.m_start, 0)


@irdl_op_definition
class Conv3DIterateAllOp(_Conv3DTensorCall):
    """``IterateAll(y[offset])``: compute the whole single output shape into y (NDC1HWC0)."""

    name = "ascend.conv3d_iterate_all"
    ROLE: ClassVar[str] = "output"


@irdl_op_definition
class Conv3DIterateOp(_Conv3DCall):
    """``Iterate()``: compute the next mL0 × nL0 tile into L0C; false when all are done."""

    name = "ascend.conv3d_iterate"
    more = result_def(IntegerType(1))
    assembly_format = "$obj attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue):
        super().__init__(operands=[obj], result_types=[IntegerType(1)])


@irdl_op_definition
class Conv3DGetTensorCOp(_Conv3DTensorCall):
    """``GetTensorC(y[offset])``: fixpipe the current tile into y (NDC1HWC0)."""

    name = "ascend.conv3d_get_tensor_c"
    ROLE: ClassVar[str] = "output"


@irdl_op_definition
class Conv3DEndOp(_Conv3DCall):
    """``End()``: release the object's events and temporary buffers."""

    name = "ascend.conv3d_end"
    assembly_format = "$obj attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue):
        super().__init__(operands=[obj])


OPS = (
    Conv3DCreateOp,
    Conv3DInitOp,
    Conv3DSetInputOp,
    Conv3DSetWeightOp,
    Conv3DSetBiasOp,
    Conv3DSetSingleOutputShapeOp,
    Conv3DSetInputStartPositionOp,
    Conv3DIterateAllOp,
    Conv3DIterateOp,
    Conv3DGetTensorCOp,
    Conv3DEndOp,
)
