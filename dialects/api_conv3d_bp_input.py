"""API level of the input gradient (dX): the Ascend C ``Conv3DBackpropInput`` API as IR.

A dX kernel written against the vendor API (hicann/asc-devkit
``include/adv_api/conv_backprop/conv3d_bp_input_intf.h`` and the docs
``docs/zh/api/SIMD-API/高阶API/卷积计算/Conv3DBackpropInput-Kernel侧接口/``: ``Init``,
``SetGradOutput``, ``SetWeight``, ``SetSingleShape``, ``SetStartPosition``, ``Iterate``,
``GetTensorC``, ``End``) reads (``Conv3DBackpropInput使用说明.md``)

    Conv3DBackpropInput<WEIGHT, INPUT_SIZE, GRAD_OUTPUT, GRAD_INPUT> gradInput;
    gradInput.Init(&tiling);
    gradInput.SetSingleShape(singleShapeM, singleShapeK, singleShapeN);
    gradInput.SetStartPosition(dinStartIdx, curHoStartIdx);
    gradInput.SetGradOutput(dy[offA]); gradInput.SetWeight(w[offB]);
    while (gradInput.Iterate()) { gradInput.GetTensorC(dx[offC]); }
    gradInput.End();

and so does its IR, one op per call on a value of type ``!ascend.conv3d_bp_input<…>``:

```
!obj = !ascend.conv3d_bp_input<...>
%obj = ascend.conv3d_bp_input_create : !obj
ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<...> : !obj
ascend.conv3d_bp_input_set_single_shape %obj, %m, %k, %n : !obj
ascend.conv3d_bp_input_set_start_position %obj, %din, %ho : !obj
ascend.conv3d_bp_input_set_grad_output %obj, %dy[%off] : !obj, !ascend.gm_tensor<...>
ascend.conv3d_bp_input_set_weight %obj, %w[%off] : !obj, !ascend.gm_tensor<...>
%more = ascend.conv3d_bp_input_iterate %obj : !obj
ascend.conv3d_bp_input_get_tensor_c %obj, %dx[%off] : !obj, !ascend.gm_tensor<...>
ascend.conv3d_bp_input_end %obj : !obj
```

The call order is checked on ``ascend.conv3d_bp_input_create`` with the program-order walk
of the other API objects (``api_level.calls_in_program_order``): one ``Init`` before anything
else (docs ``Init``: before ``Iterate``, ``GetTensorC`` and ``End``, and only once); the grad
output, the weight and the single shape set before the first ``Iterate`` (the docs' step 3
before step 4); ``GetTensorC`` after an ``Iterate``; every ``End`` after an ``Iterate`` and the
last call an ``End``. ``SetStartPosition`` is optional (its docs state no constraint; a
kernel that does not split D or H across cores leaves it at 0). Offsets are element offsets
into the tensors' physical (formatted) layouts, as for dW.

One ``Iterate`` series computes one dX depth: asc-devkit's three-argument ``SetSingleShape``
sets the single shape's Din to 1, ``Iterate`` walks the depth of the last ``SetStartPosition``
and ``GetTensorC`` adds its offset
(``impl/adv_api/detail/conv_backprop/conv3d_backprop_input/conv3d_bp_input_func.h``). A kernel
that covers several depths runs a series per depth, ``SetStartPosition`` and the ``while`` loop
inside an ``scf.for``; the order check reads the calls in program order, so such a loop is
legal as it stands.
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
from ascend_xdsl.dialects.attributes import Conv3DBpInputTilingAttr
from ascend_xdsl.dialects.types import Conv3DBpInputType, GmTensorType


@irdl_op_definition
class Conv3DBpInputCreateOp(IRDLOperation):
    """Declare a ``Conv3DBackpropInput`` object. Its uses must follow the API's call order."""

    name = "ascend.conv3d_bp_input_create"

    result = result_def(Conv3DBpInputType)
    traits = traits_def(MemoryAllocEffect())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, object_type: Conv3DBpInputType):
        super().__init__(result_types=[object_type])

    def verify_(self) -> None:
        names = [op.name for op in calls_in_program_order(self.result)]
        if names.count(Conv3DBpInputInitOp.name) != 1 or names[0] != Conv3DBpInputInitOp.name:
            raise VerifyException(
                "the Conv3DBackpropInput object must be initialised by exactly one "
                "ascend.conv3d_bp_input_init, before any other call"
            )
        if names[-1] != Conv3DBpInputEndOp.name:
            raise VerifyException(
                "the Conv3DBackpropInput object's last call must be an ascend.conv3d_bp_input_end"
            )
        required = (
            Conv3DBpInputSetGradOutputOp,
            Conv3DBpInputSetWeightOp,
            Conv3DBpInputSetSingleShapeOp,
        )
        iterated = False
        for i, name in enumerate(names):
            if name == Conv3DBpInputIterateOp.name:
                for op in required:
                    if op.name not in names[:i]:
                        raise VerifyException(f"{name} needs a preceding {op.name}")
                iterated = True
            elif name == Conv3DBpInputGetTensorCOp.name and not iterated:
                raise VerifyException(
                    "ascend.conv3d_bp_input_get_tensor_c needs a preceding "
                    "ascend.conv3d_bp_input_iterate"
                )
            elif name == Conv3DBpInputEndOp.name and not iterated:
                raise VerifyException(
                    "ascend.conv3d_bp_input_end must follow an ascend.conv3d_bp_input_iterate"
                )


class _Conv3DBpInputCall(IRDLOperation):
    """A call on the Conv3DBackpropInput object (operand 0, restated by every subclass with
    more operands)."""

    obj = operand_def(Conv3DBpInputType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @property
    def object_type(self) -> Conv3DBpInputType:
        assert isinstance(self.obj.type, Conv3DBpInputType)
        return self.obj.type


@irdl_op_definition
class Conv3DBpInputInitOp(_Conv3DBpInputCall):
    """``Init(&tiling)``: hand the object its tiling; carves the L1/L0 buffers."""

    name = "ascend.conv3d_bp_input_init"
    tiling = prop_def(Conv3DBpInputTilingAttr)
    assembly_format = "$obj `tiling` qualified($tiling) attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, tiling: Conv3DBpInputTilingAttr):
        super().__init__(operands=[obj], properties={"tiling": tiling})


class _Conv3DBpInputTensorCall(_Conv3DBpInputCall):
    obj = operand_def(Conv3DBpInputType)  # restated so that the object is operand 0
    tensor = operand_def(GmTensorType)
    offset = operand_def(IndexType)
    assembly_format = "$obj `,` $tensor `[` $offset `]` attr-dict `:` type($obj) `,` type($tensor)"
    ROLE: ClassVar[str] = ""

    def __init__(self, obj: SSAValue, tensor: SSAValue, offset: SSAValue):
        super().__init__(operands=[obj, tensor, offset])

    def verify_(self) -> None:
        t = self.tensor.type
        assert isinstance(t, GmTensorType)
        check_tensor_matches(self, self.ROLE, self.object_type.role(self.ROLE), t)
        check_constant_at_least(self, "offset", self.offset, 0)


@irdl_op_definition
class Conv3DBpInputSetGradOutputOp(_Conv3DBpInputTensorCall):
    """``SetGradOutput(dy[offset])``: the GM start of this core's dy (NDC1HWC0)."""

    name = "ascend.conv3d_bp_input_set_grad_output"
    ROLE: ClassVar[str] = "grad_output"


@irdl_op_definition
class Conv3DBpInputSetWeightOp(_Conv3DBpInputTensorCall):
    """``SetWeight(w[offset])``: the GM start of the weight (FRACTAL_Z_3D)."""

    name = "ascend.conv3d_bp_input_set_weight"
    ROLE: ClassVar[str] = "weight"


@irdl_op_definition
class Conv3DBpInputSetSingleShapeOp(_Conv3DBpInputCall):
    """``SetSingleShape(singleShapeM, singleShapeK, singleShapeN)``: this core's block in
    elements (M: dX positions Hi·Wi, K: Cout·kH·kW of the GEMM, N: Cin)."""

    name = "ascend.conv3d_bp_input_set_single_shape"
    obj = operand_def(Conv3DBpInputType)  # restated so that the object is operand 0
    m = operand_def(IndexType)
    k = operand_def(IndexType)
    n = operand_def(IndexType)
    assembly_format = "$obj `,` $m `,` $k `,` $n attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, m: SSAValue, k: SSAValue, n: SSAValue):
        super().__init__(operands=[obj, m, k, n])

    def verify_(self) -> None:
        for what, value in (
            ("singleShapeM", self.m),
            ("singleShapeK", self.k),
            ("singleShapeN", self.n),
        ):
            check_constant_at_least(self, what, value, 1)


@irdl_op_definition
class Conv3DBpInputSetStartPositionOp(_Conv3DBpInputCall):
    """``SetStartPosition(curDinStartIdx, curHoStartIdx)``: where this core's dy block starts
    in D and H. The H start is an ``int32_t`` in the header and may be negative (a block whose
    receptive field starts in the top padding)."""

    name = "ascend.conv3d_bp_input_set_start_position"
    obj = operand_def(Conv3DBpInputType)  # restated so that the object is operand 0
    din_start = operand_def(IndexType)
    ho_start = operand_def(IndexType)
    assembly_format = "$obj `,` $din_start `,` $ho_start attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue, din_start: SSAValue, ho_start: SSAValue):
        super().__init__(operands=[obj, din_start, ho_start])

    def verify_(self) -> None:
        check_constant_at_least(self, "curDinStartIdx", self.din_start, 0)


@irdl_op_definition
class Conv3DBpInputIterateOp(_Conv3DBpInputCall):
    """``Iterate()``: compute the next baseM × baseN tile of dX into L0C; false when all are
    done."""

    name = "ascend.conv3d_bp_input_iterate"
    more = result_def(IntegerType(1))
    assembly_format = "$obj attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue):
        super().__init__(operands=[obj], result_types=[IntegerType(1)])


@irdl_op_definition
class Conv3DBpInputGetTensorCOp(_Conv3DBpInputTensorCall):
    """``GetTensorC(dx[offset])``: fixpipe the current tile into dX (NDC1HWC0 or NCDHW, the
    object's grad input format)."""

    name = "ascend.conv3d_bp_input_get_tensor_c"
    ROLE: ClassVar[str] = "grad_input"


@irdl_op_definition
class Conv3DBpInputEndOp(_Conv3DBpInputCall):
    """``End()``: release the object's events and temporary buffers."""

    name = "ascend.conv3d_bp_input_end"
    assembly_format = "$obj attr-dict `:` type($obj)"

    def __init__(self, obj: SSAValue):
        super().__init__(operands=[obj])


OPS = (
    Conv3DBpInputCreateOp,
    Conv3DBpInputInitOp,
    Conv3DBpInputSetGradOutputOp,
    Conv3DBpInputSetWeightOp,
    Conv3DBpInputSetSingleShapeOp,
    Conv3DBpInputSetStartPositionOp,
    Conv3DBpInputIterateOp,
    Conv3DBpInputGetTensorCOp,
    Conv3DBpInputEndOp,
)
