"""Op level: the whole weight gradient of a 3-D convolution as one op.

``ascend.conv3d_backprop_filter`` computes

    dW[co, ci, kd, kh, kw] = Σ_{n, do, ho, wo} dY[n, co, do, ho, wo]
                             · X[n, g·Cin/g + ci, do·sD − pF + kd·dD,
                                 ho·sH − pU + kh·dH, wo·sW − pL + kw·dW]

per group g (the formula of hicann/ops-nn ``conv/conv3d_backprop_filter_v2/README.md``, with the
padding and dilation the kernel applies), out-of-range X counting as zero. It is the input of the
pipeline, and it stays the same op one level down: ``ascend-legalize-formats`` only changes its
operand types from NCDHW ``memref``s to ``!ascend.gm_tensor`` in NDC1HWC0 / FRACTAL_Z_3D, and
``ascend-tile-conv3d-bp-filter`` attaches the chosen ``#ascend.dw_tiling``.

```
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1]
        dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>
        -> memref<64x64x3x3x3xf32>
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    bf16,
    f16,
    f32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import DwTilingAttr, element_type_name
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.types import GmTensorType


def shape_and_element_type(t: Attribute) -> tuple[tuple[int, ...], Attribute]:
    """Logical shape and element type of a memref or an ``!ascend.gm_tensor``."""
    if isinstance(t, MemRefType):
        return tuple(t.get_shape()), t.element_type
    assert isinstance(t, GmTensorType)
    return t.get_shape(), t.element_type


def shape_of_conv_op(op: Conv3DBackpropFilterOp) -> ConvBpFilterShape:
    """The dW problem an op describes (x shape, weight shape from its result, attributes)."""
    x_shape, et = shape_and_element_type(op.x.type)
    weight_shape, _ = shape_and_element_type(op.result.type)
    return ConvBpFilterShape.from_shapes(
        x_shape,
        weight_shape,
        op.strides.get_values(),  # type: ignore[arg-type]
        op.pads.get_values(),  # type: ignore[arg-type]
        op.dilations.get_values(),  # type: ignore[arg-type]
        op.groups.value.data,
        element_type_name(et),
    )


def _tiling_expectations(problem: ConvBpFilterShape) -> tuple[tuple[str, int], ...]:
    """The ``#ascend.dw_tiling`` fields that restate the problem, with the problem's values."""
    sd, sh, sw = problem.strides
    pf, pb, pu, pd, pl, pr = problem.pads
    dd, dh, dw = problem.dilations
    return (
        ("batch", problem.batch),
        ("cin", problem.cin),
        ("cout", problem.cout),
        ("di", problem.di),
        ("hi", problem.hi),
        ("wi", problem.wi),
        ("dout", problem.dout),
        ("ho", problem.ho),
        ("wo", problem.wo),
        ("dk", problem.kd),
        ("hk", problem.kh),
        ("wk", problem.kw),
        # The tiling counts enlarged groups (the vendor's real_g), not the op's groups.
        ("group", problem.group_enlargement.real_g),
        ("stride_d", sd),
        ("stride_h", sh),
        ("stride_w", sw),
        ("pad_front", pf),
        ("pad_back", pb),
        ("pad_up", pu),
        ("pad_down", pd),
        ("pad_left", pl),
        ("pad_right", pr),
        ("dilation_d", dd),
        ("dilation_h", dh),
        ("dilation_w", dw),
    )


def tiling_problem_mismatch(problem: ConvBpFilterShape, tiling: DwTiling) -> str | None:
    """Why ``tiling`` is not a tiling of ``problem`` (the first field that restates the problem
    with another value), or None. The op's verifier and the tuning cache both ask it."""
    for field, expected in _tiling_expectations(problem):
        if getattr(tiling, field) != expected:
            return (
                f"tiling {field} = {getattr(tiling, field)} does not match the problem's {expected}"
            )
    return None


@irdl_op_definition
class Conv3DBackpropFilterOp(IRDLOperation):
    """The weight gradient of a 3-D convolution (Conv3DBackpropFilter, "dW")."""

    name = "ascend.conv3d_backprop_filter"

    x = operand_def(MemRefType | GmTensorType)
    dy = operand_def(MemRefType | GmTensorType)
    result = result_def(MemRefType | GmTensorType)

    strides = prop_def(DenseArrayBase.constr(i64))
    pads = prop_def(DenseArrayBase.constr(i64))
    dilations = prop_def(DenseArrayBase.constr(i64))
    groups = prop_def(IntegerAttr[I64])
    tiling = opt_prop_def(DwTilingAttr)

    traits = traits_def(MemoryReadEffect(), MemoryAllocEffect())

    assembly_format = (
        "$x `,` $dy `strides` $strides `pads` $pads `dilations` $dilations `groups` $groups"
        " (`tiling` qualified($tiling)^)? attr-dict `:` type($x) `,` type($dy) `->` type($result)"
    )

    def __init__(
        self,
        x: SSAValue,
        dy: SSAValue,
        result_type: Attribute,
        strides: Sequence[int],
        pads: Sequence[int],
        dilations: Sequence[int],
        groups: int,
        tiling: DwTilingAttr | None = None,
    ):
        super().__init__(
            operands=[x, dy],
            result_types=[result_type],
            properties={
                "strides": DenseArrayBase.from_list(i64, strides),
                "pads": DenseArrayBase.from_list(i64, pads),
                "dilations": DenseArrayBase.from_list(i64, dilations),
                "groups": IntegerAttr(groups, i64),
                "tiling": tiling,
            },
        )

    def verify_(self) -> None:
        for name, prop, size in (
            ("strides", self.strides, 3),
            ("pads", self.pads, 6),
            ("dilations", self.dilations, 3),
        ):
            if len(prop.get_values()) != size:
                raise VerifyException(
                    f"{name} must have {size} values, got {len(prop.get_values())}"
                )
        self._verify_operand_kinds()
        x_shape, x_et = shape_and_element_type(self.x.type)
        dy_shape, dy_et = shape_and_element_type(self.dy.type)
        dw_shape, dw_et = shape_and_element_type(self.result.type)
        for role, shape in (("x", x_shape), ("dy", dy_shape), ("dW", dw_shape)):
            if len(shape) != 5:
                raise VerifyException(f"{role} must have rank 5, got rank {len(shape)}")
        if x_et not in (f16, bf16):
            raise VerifyException(
                f"x element type must be f16 or bf16, got {element_type_name(x_et)}"
            )
        if dy_et != x_et:
            raise VerifyException(
                f"dy element type ({element_type_name(dy_et)}) must equal x's "
                f"({element_type_name(x_et)})"
            )
        if dw_et != f32:
            raise VerifyException(f"dW element type must be f32, got {element_type_name(dw_et)}")
        problem = shape_of_conv_op(self)
        errors = problem.errors()
        if errors:
            raise VerifyException(errors[0])
        if dw_shape[1] * problem.groups != problem.cin:
            raise VerifyException(
                f"dW shape {list(dw_shape)} needs Cin/groups = {problem.cin // problem.groups} "
                f"(x has Cin = {problem.cin}, groups = {problem.groups}), got {dw_shape[1]}"
            )
        if tuple(dy_shape) != problem.grad_output_shape:
            raise VerifyException(
                f"dy shape {list(dy_shape)} does not match {list(problem.grad_output_shape)} "
                "implied by x, dW and the strides, pads and dilations"
            )
        if (
            isinstance(self.result.type, GmTensorType)
            and self.result.type.groups.data != problem.groups
        ):
            raise VerifyException(
                f"dW FRACTAL_Z_3D tensor has groups = {self.result.type.groups.data}, the op has "
                f"groups = {problem.groups}"
            )
        if self.tiling is not None:
            mismatch = tiling_problem_mismatch(problem, self.tiling.tiling)
            if mismatch is not None:
                raise VerifyException(mismatch)

    def _verify_operand_kinds(self) -> None:
        kinds = [isinstance(v.type, GmTensorType) for v in (self.x, self.dy, self.result)]
        if any(kinds) and not all(kinds):
            raise VerifyException(
                "x, dy and dW must be all memrefs (op level) or all !ascend.gm_tensor "
                "(format level)"
            )
        if not all(kinds):
            for role, v in (("x", self.x), ("dy", self.dy), ("dW", self.result)):
                assert isinstance(v.type, MemRefType)
                if not isinstance(v.type.memory_space, NoneAttr):
                    raise VerifyException(f"{role} memref must be in the default (GM) memory space")
            return
        expected = (
            ("x", self.x.type, ConvFormat.NDC1HWC0),
            ("dy", self.dy.type, ConvFormat.NDC1HWC0),
            ("dW", self.result.type, ConvFormat.FRACTAL_Z_3D),
        )
        for role, t, fmt in expected:
            assert isinstance(t, GmTensorType)
            if t.conv_format != fmt:
                raise VerifyException(
                    f"{role} must be in {fmt} at the format level, got {t.conv_format}"
                )


OPS = (Conv3DBackpropFilterOp,)
