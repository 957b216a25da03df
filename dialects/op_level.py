"""Op level: a whole 3-D convolution op (forward, or weight gradient) as one op.

``ascend.conv3d`` is the forward convolution (``torch.nn.functional.conv3d``; the Ascend C
``Conv3D`` API, hicann/asc-devkit ``include/adv_api/conv/conv3d/conv3d_api.h`` and the docs
``docs/zh/api/SIMD-API/高阶API/卷积计算/Conv3D-Kernel侧接口/Conv3D使用说明.md``)::

    y[n, co, do, ho, wo] = bias[co] + Σ_{ci, kd, kh, kw} W[co, ci, kd, kh, kw]
                           · X[n, g·Cin/g + ci, do·sD − pF + kd·dD, ho·sH − pU + kh·dH,
                               wo·sW − pL + kw·dW]

per group g, out-of-range X counting as zero, products accumulated in float32 (the Cube's
L0C) and y rounded to the input's type.

``ascend.conv3d_backprop_filter`` computes the weight gradient (dW)::

    dW[co, ci, kd, kh, kw] = Σ_{n, do, ho, wo} dY[n, co, do, ho, wo]
                             · X[n, g·Cin/g + ci, do·sD − pF + kd·dD,
                                 ho·sH − pU + kh·dH, wo·sW − pL + kw·dW]

per group g (the formula of hicann/ops-nn ``conv/conv3d_backprop_filter_v2/README.md``, with the
padding and dilation the kernel applies), out-of-range X counting as zero.

Both describe one convolution geometry (x, weight shape, strides, pads, dilations, groups), the
``ConvBpFilterShape`` of ``conv_shape.py``, and share its rules and the attribute and level
checks below. Each is the input of the pipeline and stays the same op one level down:
``ascend-legalize-formats`` only changes its operand types from NCDHW ``memref``s to
``!ascend.gm_tensor`` in NDC1HWC0 / FRACTAL_Z_3D (and ND for the forward bias), and
``ascend-tile-conv3d-bp-filter`` attaches the chosen ``#ascend.dw_tiling`` to the dW op.

```
%y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1
        : memref<2x64x8x28x28xf16>, memref<64x64x3x3x3xf16>, memref<64xf16>
        -> memref<2x64x8x28x28xf16>
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
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import Conv3DTilingAttr, DwTilingAttr, element_type_name
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


def pads6(pads: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    """(front, back, up, down, left, right) from torch's symmetric (D, H, W) padding (3 values)
    or from 6 values as they are."""
    p = tuple(pads)
    if len(p) == 3:
        return (p[0], p[0], p[1], p[1], p[2], p[2])
    assert len(p) == 6, p
    return p  # type: ignore[return-value]


def verify_conv_attributes(
    strides: DenseArrayBase, pads: DenseArrayBase, dilations: DenseArrayBase, pad_counts: str
) -> None:
    """The value counts of a conv op's strides, pads and dilations (shared by every conv op);
    ``pad_counts`` is ``"6"`` or ``"3 or 6"``."""
    counts = {"strides": ("3",), "pads": tuple(pad_counts.split(" or ")), "dilations": ("3",)}
    for name, prop in (("strides", strides), ("pads", pads), ("dilations", dilations)):
        n = len(prop.get_values())
        if str(n) not in counts[name]:
            expected = pad_counts if name == "pads" else "3"
            raise VerifyException(f"{name} must have {expected} values, got {n}")


def verify_conv_levels(roles: Sequence[tuple[str, SSAValue, ConvFormat]], summary: str) -> None:
    """A conv op's tensors are all memrefs in GM (op level) or all ``!ascend.gm_tensor`` in the
    format each role has at the format level; ``summary`` names the roles for the message."""
    kinds = [isinstance(v.type, GmTensorType) for _, v, _ in roles]
    if any(kinds) and not all(kinds):
        raise VerifyException(
            f"{summary} must be all memrefs (op level) or all !ascend.gm_tensor (format level)"
        )
    for role, v, fmt in roles:
        t = v.type
        if isinstance(t, MemRefType):
            if not isinstance(t.memory_space, NoneAttr):
                raise VerifyException(f"{role} memref must be in the default (GM) memory space")
        else:
            assert isinstance(t, GmTensorType)
            if t.conv_format != fmt:
                raise VerifyException(
                    f"{role} must be in {fmt} at the format level, got {t.conv_format}"
                )


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
        verify_conv_attributes(self.strides, self.pads, self.dilations, "6")
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
        verify_conv_levels(
            (
                ("x", self.x, ConvFormat.NDC1HWC0),
                ("dy", self.dy, ConvFormat.NDC1HWC0),
                ("dW", self.result, ConvFormat.FRACTAL_Z_3D),
            ),
            "x, dy and dW",
        )


BIAS_ELEMENT_TYPE: dict[Attribute, Attribute] = {f16: f16, bf16: f32}
"""The bias type of each input type of the Conv3D API: half with half, float with bfloat16_t
(hicann/asc-devkit docs ``Conv3D使用说明.md`` table 2; ``SUPPORTED_TYPES_WITH_BIAS`` in
``impl/adv_api/tiling/conv/conv3d_tiling_util.h``)."""


def shape_of_conv3d_op(op: Conv3DOp) -> ConvBpFilterShape:
    """The convolution an ``ascend.conv3d`` describes (x and weight shapes, attributes)."""
    x_shape, et = shape_and_element_type(op.x.type)
    weight_shape, _ = shape_and_element_type(op.weight.type)
    return ConvBpFilterShape.from_shapes(
        x_shape,
        weight_shape,
        op.strides.get_values(),  # type: ignore[arg-type]
        pads6(op.pads.get_values()),  # type: ignore[arg-type]
        op.dilations.get_values(),  # type: ignore[arg-type]
        op.groups.value.data,
        element_type_name(et),
    )


@irdl_op_definition
class Conv3DOp(IRDLOperation):
    """The forward 3-D convolution (Conv3D), ``torch.nn.functional.conv3d`` with an optional
    bias. ``pads`` is torch's symmetric (D, H, W) padding or (front, back, up, down, left,
    right)."""

    name = "ascend.conv3d"

    x = operand_def(MemRefType | GmTensorType)
    weight = operand_def(MemRefType | GmTensorType)
    bias = opt_operand_def(MemRefType | GmTensorType)
    result = result_def(MemRefType | GmTensorType)

    strides = prop_def(DenseArrayBase.constr(i64))
    pads = prop_def(DenseArrayBase.constr(i64))
    dilations = prop_def(DenseArrayBase.constr(i64))
    groups = prop_def(IntegerAttr[I64])
    tiling = opt_prop_def(Conv3DTilingAttr)

    traits = traits_def(MemoryReadEffect(), MemoryAllocEffect())

    assembly_format = (
        "$x `,` $weight (`bias` $bias^)? `strides` $strides `pads` $pads `dilations` $dilations"
        " `groups` $groups (`tiling` qualified($tiling)^)? attr-dict `:` type($x) `,`"
        " type($weight) (`,` type($bias)^)? `->` type($result)"
    )

    def __init__(
        self,
        x: SSAValue,
        weight: SSAValue,
        bias: SSAValue | None,
        result_type: Attribute,
        strides: Sequence[int],
        pads: Sequence[int],
        dilations: Sequence[int],
        groups: int,
        tiling: Conv3DTilingAttr | None = None,
    ):
        super().__init__(
            operands=[x, weight, [] if bias is None else [bias]],
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
        verify_conv_attributes(self.strides, self.pads, self.dilations, "3 or 6")
        roles: list[tuple[str, SSAValue, ConvFormat]] = [
            ("x", self.x, ConvFormat.NDC1HWC0),
            ("weight", self.weight, ConvFormat.FRACTAL_Z_3D),
            ("y", self.result, ConvFormat.NDC1HWC0),
        ]
        if self.bias is not None:
            roles.insert(2, ("bias", self.bias, ConvFormat.ND))
        verify_conv_levels(roles, "x, weight, bias and y" if self.bias else "x, weight and y")
        x_shape, x_et = shape_and_element_type(self.x.type)
        w_shape, w_et = shape_and_element_type(self.weight.type)
        y_shape, y_et = shape_and_element_type(self.result.type)
        for role, shape in (("x", x_shape), ("weight", w_shape), ("y", y_shape)):
            if len(shape) != 5:
                raise VerifyException(f"{role} must have rank 5, got rank {len(shape)}")
        if x_et not in BIAS_ELEMENT_TYPE:
            raise VerifyException(
                f"x element type must be f16 or bf16, got {element_type_name(x_et)}"
            )
        for role, et in (("weight", w_et), ("y", y_et)):
            if et != x_et:
                raise VerifyException(
                    f"{role} element type ({element_type_name(et)}) must equal x's "
                    f"({element_type_name(x_et)})"
                )
        problem = shape_of_conv3d_op(self)
        errors = problem.errors()
        if errors:
            raise VerifyException(errors[0])
        if w_shape[1] * problem.groups != problem.cin:
            raise VerifyException(
                f"weight shape {list(w_shape)} needs Cin/groups = "
                f"{problem.cin // problem.groups} (x has Cin = {problem.cin}, groups = "
                f"{problem.groups}), got {w_shape[1]}"
            )
        if tuple(y_shape) != problem.grad_output_shape:
            raise VerifyException(
                f"y shape {list(y_shape)} does not match {list(problem.grad_output_shape)} "
                "implied by x, weight and the strides, pads and dilations"
            )
        if (
            isinstance(self.weight.type, GmTensorType)
            and self.weight.type.groups.data != problem.groups
        ):
            raise VerifyException(
                f"weight FRACTAL_Z_3D tensor has groups = {self.weight.type.groups.data}, the "
                f"op has groups = {problem.groups}"
            )
        if self.bias is not None:
            b_shape, b_et = shape_and_element_type(self.bias.type)
            if b_shape != (problem.cout,):
                raise VerifyException(
                    f"bias shape {list(b_shape)} must be [{problem.cout}] (Cout of the weight)"
                )
            if b_et != BIAS_ELEMENT_TYPE[x_et]:
                raise VerifyException(
                    f"bias element type must be {element_type_name(BIAS_ELEMENT_TYPE[x_et])} "
                    f"with {element_type_name(x_et)} x (the Conv3D API's combinations), got "
                    f"{element_type_name(b_et)}"
                )
        if self.tiling is not None:
            mismatch = self.tiling.tiling.problem_errors(problem)
            if mismatch:
                raise VerifyException(mismatch[0])


OPS = (Conv3DBackpropFilterOp, Conv3DOp)
