"""Op level: a whole 3-D convolution op (forward, input gradient or weight gradient) as one op.

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

``ascend.conv3d_backprop_input`` computes the input gradient (dX) from dy and the weight, with
the forward input's shape stated as ``input_size`` (``torch.nn.grad.conv3d_input``; the Ascend C
``Conv3DBackpropInput`` API, hicann/asc-devkit ``include/adv_api/conv_backprop/
conv3d_bp_input_api.h``): the transposed convolution of dy with the weight.

All three describe one convolution geometry (x, weight shape, strides, pads, dilations, groups),
the ``ConvBpFilterShape`` of ``conv_shape.py``, and share its rules, the attribute and level
checks below and the geometry checks of their base ``ConvOpBase``.
Each is the input of the pipeline and stays the same op one level down:
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

from ascend_xdsl.dialects.attributes import (
    Conv3DBpInputTilingAttr,
    Conv3DTilingAttr,
    DwTilingAttr,
    element_type_name,
)
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


def pads6_attr(pads: DenseArrayBase) -> DenseArrayBase:
    """An op's ``pads`` (3 or 6 values) as the six a launch records (``pads6``)."""
    return DenseArrayBase.from_list(i64, pads6([int(v) for v in pads.get_values()]))


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
    return op.conv_problem(x_shape, weight_shape, et)


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


class ConvOpBase(IRDLOperation):
    """What the three conv ops share: torch's strides, pads, dilations and groups as properties,
    and the geometry checks of one convolution (the ``ConvBpFilterShape`` of ``conv_shape.py``)
    seen from whichever tensors the op has. Subclasses say which tensor is the input-sized one
    and which is derived from it; the messages name the op's own roles."""

    strides = prop_def(DenseArrayBase.constr(i64))
    pads = prop_def(DenseArrayBase.constr(i64))
    dilations = prop_def(DenseArrayBase.constr(i64))
    groups = prop_def(IntegerAttr[I64])

    @staticmethod
    def conv_properties(
        strides: Sequence[int],
        pads: Sequence[int],
        dilations: Sequence[int],
        groups: int,
        tiling: Attribute | None,
    ) -> dict[str, Attribute | None]:
        """The properties above (and the op's optional tiling) from plain values."""
        return {
            "strides": DenseArrayBase.from_list(i64, strides),
            "pads": DenseArrayBase.from_list(i64, pads),
            "dilations": DenseArrayBase.from_list(i64, dilations),
            "groups": IntegerAttr(groups, i64),
            "tiling": tiling,
        }

    def conv_problem(
        self, input_shape: Sequence[int], weight_shape: Sequence[int], element_type: Attribute
    ) -> ConvBpFilterShape:
        """The convolution geometry of an input shape, a weight shape and the op's attributes
        (3 pads widened to 6 as torch means them)."""
        return ConvBpFilterShape.from_shapes(
            input_shape,
            weight_shape,
            self.strides.get_values(),  # type: ignore[arg-type]
            pads6(self.pads.get_values()),  # type: ignore[arg-type]
            self.dilations.get_values(),  # type: ignore[arg-type]
            self.groups.value.data,
            element_type_name(element_type),
        )

    @staticmethod
    def verify_rank5(shapes: Sequence[tuple[str, Sequence[int]]]) -> None:
        for role, shape in shapes:
            if len(shape) != 5:
                raise VerifyException(f"{role} must have rank 5, got rank {len(shape)}")

    @staticmethod
    def verify_geometry(
        problem: ConvBpFilterShape,
        input_role: str,
        weight: tuple[str, Sequence[int], Attribute],
        derived: tuple[str, Sequence[int]],
        implied_by: str,
    ) -> None:
        """The problem's own rules, then the weight's Cin/groups against the input's Cin, then
        the shape the other two imply (``derived``: the output of the forward and dX ops' dy,
        dW's dy), then the groups a FRACTAL_Z_3D weight tensor carries."""
        errors = problem.errors()
        if errors:
            raise VerifyException(errors[0])
        w_role, w_shape, w_type = weight
        if w_shape[1] * problem.groups != problem.cin:
            raise VerifyException(
                f"{w_role} shape {list(w_shape)} needs Cin/groups = "
                f"{problem.cin // problem.groups} ({input_role} has Cin = {problem.cin}, "
                f"groups = {problem.groups}), got {w_shape[1]}"
            )
        d_role, d_shape = derived
        if tuple(d_shape) != problem.grad_output_shape:
            raise VerifyException(
                f"{d_role} shape {list(d_shape)} does not match "
                f"{list(problem.grad_output_shape)} implied by {implied_by} and the strides, "
                "pads and dilations"
            )
        if isinstance(w_type, GmTensorType) and w_type.groups.data != problem.groups:
            raise VerifyException(
                f"{w_role} FRACTAL_Z_3D tensor has groups = {w_type.groups.data}, the op has "
                f"groups = {problem.groups}"
            )


@irdl_op_definition
class Conv3DBackpropFilterOp(ConvOpBase):
    """The weight gradient of a 3-D convolution (Conv3DBackpropFilter, "dW")."""

    name = "ascend.conv3d_backprop_filter"

    x = operand_def(MemRefType | GmTensorType)
    dy = operand_def(MemRefType | GmTensorType)
    result = result_def(MemRefType | GmTensorType)
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
            properties=self.conv_properties(strides, pads, dilations, groups, tiling),
        )

    def verify_(self) -> None:
        verify_conv_attributes(self.strides, self.pads, self.dilations, "6")
        self._verify_operand_kinds()
        x_shape, x_et = shape_and_element_type(self.x.type)
        dy_shape, dy_et = shape_and_element_type(self.dy.type)
        dw_shape, dw_et = shape_and_element_type(self.result.type)
        self.verify_rank5((("x", x_shape), ("dy", dy_shape), ("dW", dw_shape)))
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
        self.verify_geometry(
            problem, "x", ("dW", dw_shape, self.result.type), ("dy", dy_shape), "x, dW"
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
    return op.conv_problem(x_shape, weight_shape, et)


@irdl_op_definition
class Conv3DOp(ConvOpBase):
    """The forward 3-D convolution (Conv3D), ``torch.nn.functional.conv3d`` with an optional
    bias. ``pads`` is torch's symmetric (D, H, W) padding or (front, back, up, down, left,
    right)."""

    name = "ascend.conv3d"

    x = operand_def(MemRefType | GmTensorType)
    weight = operand_def(MemRefType | GmTensorType)
    bias = opt_operand_def(MemRefType | GmTensorType)
    result = result_def(MemRefType | GmTensorType)
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
            properties=self.conv_properties(strides, pads, dilations, groups, tiling),
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
        self.verify_rank5((("x", x_shape), ("weight", w_shape), ("y", y_shape)))
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
        self.verify_geometry(
            problem, "x", ("weight", w_shape, self.weight.type), ("y", y_shape), "x, weight"
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


def shape_of_conv3d_input_op(op: Conv3DBackpropInputOp) -> ConvBpFilterShape:
    """The forward convolution whose input gradient an ``ascend.conv3d_backprop_input``
    computes: x of shape ``input_size``, the op's weight and attributes."""
    weight_shape, et = shape_and_element_type(op.weight.type)
    return op.conv_problem(op.input_size.get_values(), weight_shape, et)  # type: ignore[arg-type]


@irdl_op_definition
class Conv3DBackpropInputOp(ConvOpBase):
    """The input gradient of a 3-D convolution (Conv3DBackpropInput, "dX"),
    ``torch.nn.grad.conv3d_input(input_size, weight, grad_output, ...)``::

        dX[n, g·Cin/g + ci, d, h, w] = Σ_{co ∈ g, kd, kh, kw} W[co, ci, kd, kh, kw]
                                       · dY[n, co, do, ho, wo]
            over do·sD − pF + kd·dD = d, ho·sH − pU + kh·dH = h, wo·sW − pL + kw·dW = w

    (the transposed convolution: hicann/asc-devkit docs ``Conv3DBackpropInput使用说明.md``,
    dX = dY ⊛ Wᵀ), accumulated in float32 and rounded to dy's type. ``input_size`` is the shape
    of the forward input x (the API's InputSize operand, torch's ``input_size``): dy's shape
    does not determine it when a stride does not divide the padded input evenly, so it is
    stated and the result must have it."""

    name = "ascend.conv3d_backprop_input"

    dy = operand_def(MemRefType | GmTensorType)
    weight = operand_def(MemRefType | GmTensorType)
    result = result_def(MemRefType | GmTensorType)
    input_size = prop_def(DenseArrayBase.constr(i64))
    tiling = opt_prop_def(Conv3DBpInputTilingAttr)

    traits = traits_def(MemoryReadEffect(), MemoryAllocEffect())

    assembly_format = (
        "$dy `,` $weight `input_size` $input_size `strides` $strides `pads` $pads `dilations`"
        " $dilations `groups` $groups (`tiling` qualified($tiling)^)? attr-dict `:` type($dy)"
        " `,` type($weight) `->` type($result)"
    )

    def __init__(
        self,
        dy: SSAValue,
        weight: SSAValue,
        result_type: Attribute,
        input_size: Sequence[int],
        strides: Sequence[int],
        pads: Sequence[int],
        dilations: Sequence[int],
        groups: int,
        tiling: Conv3DBpInputTilingAttr | None = None,
    ):
        super().__init__(
            operands=[dy, weight],
            result_types=[result_type],
            properties={
                "input_size": DenseArrayBase.from_list(i64, input_size),
                **self.conv_properties(strides, pads, dilations, groups, tiling),
            },
        )

    def verify_(self) -> None:
        verify_conv_attributes(self.strides, self.pads, self.dilations, "3 or 6")
        input_size = tuple(self.input_size.get_values())
        if len(input_size) != 5:
            raise VerifyException(f"input_size must have 5 values, got {len(input_size)}")
        # Formats of the Conv3DBackpropInput API (docs table 1): GradOutput NDC1HWC0, Weight
        # FRACTAL_Z_3D, GradInput NDC1HWC0 (the API also writes NCDHW, see types.py).
        verify_conv_levels(
            (
                ("dy", self.dy, ConvFormat.NDC1HWC0),
                ("weight", self.weight, ConvFormat.FRACTAL_Z_3D),
                ("dX", self.result, ConvFormat.NDC1HWC0),
            ),
            "dy, weight and dX",
        )
        dy_shape, dy_et = shape_and_element_type(self.dy.type)
        w_shape, w_et = shape_and_element_type(self.weight.type)
        dx_shape, dx_et = shape_and_element_type(self.result.type)
        self.verify_rank5((("dy", dy_shape), ("weight", w_shape), ("dX", dx_shape)))
        if dy_et not in (f16, bf16):
            raise VerifyException(
                f"dy element type must be f16 or bf16, got {element_type_name(dy_et)}"
            )
        # docs table 2: half, half, half or bfloat16_t throughout.
        for role, et in (("weight", w_et), ("dX", dx_et)):
            if et != dy_et:
                raise VerifyException(
                    f"{role} element type ({element_type_name(et)}) must equal dy's "
                    f"({element_type_name(dy_et)})"
                )
        if dx_shape != input_size:
            raise VerifyException(
                f"dX shape {list(dx_shape)} must equal input_size {list(input_size)}"
            )
        problem = shape_of_conv3d_input_op(self)
        self.verify_geometry(
            problem,
            "dX",
            ("weight", w_shape, self.weight.type),
            ("dy", dy_shape),
            "input_size, weight",
        )
        if self.tiling is not None:
            mismatch = self.tiling.tiling.problem_errors(problem)
            if mismatch:
                raise VerifyException(mismatch[0])


OPS = (Conv3DBackpropFilterOp, Conv3DOp, Conv3DBackpropInputOp)
