"""Types of the ``ascend`` dialect.

* ``!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>`` — a tensor in global memory (HBM) stored in
  a ``ConvFormat``. The shape is the *logical* one (NCDHW for x/dy, (Cout, Cin/g, kD, kH, kW)
  for dW, the plain shape for ND); the physical layout follows from the format by the index maps
  in ``formats.py``. A FRACTAL_Z_3D dW of a grouped convolution carries ``groups = g``, because
  the group packing changes the physical layout. Plain NCDHW tensors at the op level are builtin
  ``memref``s: those are what a user hands in.
* ``!ascend.local_tensor<A1, 8192xf16>`` — a buffer in an on-chip position (Ascend C's
  ``LocalTensor``): position, shape (elements of one slot) and element type. A custom type rather
  than ``memref<…, #ascend<position A1>>`` because positions carry rules a memref cannot check
  (CO1 holds f32 accumulators, A2/B2 hold the Cube's input type, GM is not local).
* ``!ascend.conv3d_bp_filter<…>`` — the Ascend C ``Conv3DBackpropFilter<INPUT, WEIGHT,
  GRAD_OUTPUT, GRAD_WEIGHT>`` object, parametrized by four ``#ascend.conv_type``s; its verifier
  enforces the two documented legal combinations (hicann/asc-devkit docs,
  ``Conv3DBackpropFilter使用说明.md`` tables 1 and 2).
* ``!ascend.conv3d_api<…>`` — the Ascend C ``Conv3D<INPUT, WEIGHT, OUTPUT[, BIAS]>`` object of
  the forward convolution, parametrized by three or four ``#ascend.conv_type``s (the bias one
  is optional, as the template's); its verifier enforces the documented combinations
  (hicann/asc-devkit docs ``Conv3D使用说明.md`` tables 1 and 2).
* ``!ascend.conv3d_bp_input<…>`` — the Ascend C ``Conv3DBackpropInput<WEIGHT, INPUT_SIZE,
  GRAD_OUTPUT, GRAD_INPUT>`` object of the input gradient (dX), four ``#ascend.conv_type``s;
  its verifier enforces the documented combinations (``Conv3DBackpropInput使用说明.md``
  tables 1 and 2, and the implementation where the docs disagree with themselves).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr, bf16, f16, f32, i32
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import ConvTypeAttr, element_type_name
from ascend_xdsl.dialects.enums import (
    ConvFormat,
    ConvFormatAttr,
    PhysicalMemory,
    TPosition,
    TPositionAttr,
)

_RANK5_FORMATS = (ConvFormat.NCDHW, ConvFormat.NDHWC, ConvFormat.NDC1HWC0, ConvFormat.FRACTAL_Z_3D)


def _parse_shape_and_type(parser: AttrParser) -> tuple[ArrayAttr[IntAttr], Attribute]:
    dims, element_type = parser.parse_ranked_shape()
    return ArrayAttr(IntAttr(d) for d in dims), element_type


def _parse_conv_types(parser: AttrParser) -> list[Attribute]:
    """``<#ascend.conv_type<...>, ...>``: an API object type's ConvTypes, one per operand."""

    def conv_type() -> Attribute:
        attr = parser.parse_attribute()
        if not isinstance(attr, ConvTypeAttr):
            parser.raise_error("expected #ascend.conv_type<...>")
        return attr

    return parser.parse_comma_separated_list(parser.Delimiter.ANGLE, conv_type)


def _print_shape_and_type(
    printer: Printer, shape: ArrayAttr[IntAttr], element_type: Attribute
) -> None:
    for d in shape.data:
        printer.print_string(f"{d.data}x")
    printer.print_attribute(element_type)


@irdl_attr_definition
class GmTensorType(ParametrizedAttribute, TypeAttribute):
    """A tensor in global memory stored in a ``ConvFormat`` (logical shape)."""

    name = "ascend.gm_tensor"

    format: ConvFormatAttr
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    groups: IntAttr

    def __init__(
        self,
        fmt: ConvFormat | ConvFormatAttr | str,
        shape: Sequence[int],
        element_type: Attribute,
        groups: int = 1,
    ):
        if not isinstance(fmt, ConvFormatAttr):
            fmt = ConvFormatAttr(ConvFormat(fmt))
        super().__init__(fmt, ArrayAttr(IntAttr(d) for d in shape), element_type, IntAttr(groups))

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def conv_format(self) -> ConvFormat:
        return self.format.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            fmt = ConvFormatAttr(parser.parse_str_enum(ConvFormat))
            parser.parse_punctuation(",")
            shape, element_type = _parse_shape_and_type(parser)
            groups = 1
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("groups")
                parser.parse_punctuation("=")
                groups = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return (fmt, shape, element_type, IntAttr(groups))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"{self.format.data}, ")
            _print_shape_and_type(printer, self.shape, self.element_type)
            if self.groups.data != 1:
                printer.print_string(f", groups = {self.groups.data}")

    def verify(self) -> None:
        shape = self.get_shape()
        fmt = self.conv_format
        if any(d <= 0 for d in shape):
            raise VerifyException(f"gm_tensor dimensions must be positive, got {list(shape)}")
        if fmt in _RANK5_FORMATS and len(shape) != 5:
            raise VerifyException(f"gm_tensor in {fmt} must have rank 5, got rank {len(shape)}")
        if self.groups.data < 1:
            raise VerifyException(f"gm_tensor groups must be at least 1, got {self.groups.data}")
        if self.groups.data != 1 and fmt != ConvFormat.FRACTAL_Z_3D:
            raise VerifyException(
                f"gm_tensor groups is only meaningful for FRACTAL_Z_3D, not {fmt}"
            )
        if fmt == ConvFormat.FRACTAL_Z_3D and shape[0] % self.groups.data:
            raise VerifyException(
                f"gm_tensor FRACTAL_Z_3D Cout ({shape[0]}) must be divisible by groups "
                f"({self.groups.data})"
            )


_CUBE_INPUT_TYPES = (f16, bf16, f32)


@irdl_attr_definition
class LocalTensorType(ParametrizedAttribute, TypeAttribute):
    """A buffer in an on-chip position: ``!ascend.local_tensor<A1, 8192xf16>``."""

    name = "ascend.local_tensor"

    position: TPositionAttr
    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(
        self,
        position: TPosition | TPositionAttr | str,
        shape: Sequence[int],
        element_type: Attribute,
    ):
        if not isinstance(position, TPositionAttr):
            position = TPositionAttr(TPosition(position))
        super().__init__(position, ArrayAttr(IntAttr(d) for d in shape), element_type)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @property
    def tposition(self) -> TPosition:
        return self.position.data

    @property
    def memory(self) -> PhysicalMemory:
        return self.position.data.memory

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.get_shape():
            n *= d
        return n

    @property
    def element_bytes(self) -> int:
        return 2 if self.element_type in (f16, bf16) else 4

    @property
    def size_bytes(self) -> int:
        return self.num_elements * self.element_bytes

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            position = TPositionAttr(parser.parse_str_enum(TPosition))
            parser.parse_punctuation(",")
            shape, element_type = _parse_shape_and_type(parser)
        return (position, shape, element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"{self.position.data}, ")
            _print_shape_and_type(printer, self.shape, self.element_type)

    def verify(self) -> None:
        pos = self.tposition
        et = element_type_name(self.element_type)
        if pos == TPosition.GM:
            raise VerifyException("local_tensor cannot be in GM; use !ascend.gm_tensor")
        if any(d <= 0 for d in self.get_shape()):
            raise VerifyException(
                f"local_tensor dimensions must be positive, got {list(self.get_shape())}"
            )
        if pos == TPosition.CO1 and self.element_type != f32:
            raise VerifyException(f"local_tensor in CO1 holds f32 accumulators, got {et}")
        if pos in (TPosition.A1, TPosition.B1, TPosition.A2, TPosition.B2) and (
            self.element_type not in _CUBE_INPUT_TYPES
        ):
            raise VerifyException(f"local_tensor in {pos} must hold f16, bf16 or f32, got {et}")


def expect_conv_type(
    kind: str, role: str, ct: ConvTypeAttr, fmt: ConvFormat, types: Sequence[Attribute]
) -> None:
    """The rule every API object type has for each of its ConvTypes: in GM, in ``fmt``, of one
    of ``types``; ``kind`` names the object type in the message."""
    if ct.position.data != TPosition.GM:
        raise VerifyException(f"{kind} {role} must be in GM, got {ct.position.data}")
    if ct.format.data != fmt:
        raise VerifyException(f"{kind} {role} must be in format {fmt}, got {ct.format.data}")
    if ct.element_type not in types:
        allowed = " or ".join(element_type_name(t) for t in types)
        raise VerifyException(
            f"{kind} {role} element type must be {allowed}, got "
            f"{element_type_name(ct.element_type)}"
        )


@irdl_attr_definition
class Conv3DBpFilterType(ParametrizedAttribute, TypeAttribute):
    """The Ascend C ``Conv3DBackpropFilter<INPUT, WEIGHT, GRAD_OUTPUT, GRAD_WEIGHT>`` object."""

    name = "ascend.conv3d_bp_filter"

    input: ConvTypeAttr
    weight_size: ConvTypeAttr
    grad_output: ConvTypeAttr
    grad_weight: ConvTypeAttr

    @classmethod
    def for_element_type(cls, element_type: Attribute) -> Conv3DBpFilterType:
        """The object type of one of the two legal combinations (element type half or bf16)."""
        return cls(
            ConvTypeAttr(TPosition.GM, ConvFormat.NDC1HWC0, element_type),
            ConvTypeAttr(TPosition.GM, ConvFormat.ND, i32),
            ConvTypeAttr(TPosition.GM, ConvFormat.NDC1HWC0, element_type),
            ConvTypeAttr(TPosition.GM, ConvFormat.FRACTAL_Z_3D, f32),
        )

    @property
    def element_type(self) -> Attribute:
        return self.input.element_type

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return tuple(_parse_conv_types(parser))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_list(
                (self.input, self.weight_size, self.grad_output, self.grad_weight),
                printer.print_attribute,
            )

    def verify(self) -> None:
        def expect(
            role: str, ct: ConvTypeAttr, fmt: ConvFormat, types: Sequence[Attribute]
        ) -> None:
            expect_conv_type("conv3d_bp_filter", role, ct, fmt, types)

        expect("input", self.input, ConvFormat.NDC1HWC0, (f16, bf16))
        expect("weight_size", self.weight_size, ConvFormat.ND, (i32,))
        expect("grad_output", self.grad_output, ConvFormat.NDC1HWC0, (f16, bf16))
        expect("grad_weight", self.grad_weight, ConvFormat.FRACTAL_Z_3D, (f32,))
        if self.grad_output.element_type != self.input.element_type:
            raise VerifyException(
                "conv3d_bp_filter grad_output element type "
                f"({element_type_name(self.grad_output.element_type)}) must equal the input's "
                f"({element_type_name(self.input.element_type)})"
            )


@irdl_attr_definition
class Conv3DApiType(ParametrizedAttribute, TypeAttribute):
    """The Ascend C ``Conv3D<INPUT, WEIGHT, OUTPUT, BIAS>`` object (forward convolution).

    ``bias`` is ``none`` when the convolution has none: the template's ``BIAS_TYPE`` is
    optional, and ``SetBias`` must then not be called (docs ``SetBias``)."""

    name = "ascend.conv3d_api"

    input: ConvTypeAttr
    weight: ConvTypeAttr
    output: ConvTypeAttr
    bias: ConvTypeAttr | NoneAttr

    def __init__(
        self,
        input: ConvTypeAttr,
        weight: ConvTypeAttr,
        output: ConvTypeAttr,
        bias: ConvTypeAttr | None = None,
    ):
        super().__init__(input, weight, output, NoneAttr() if bias is None else bias)

    @classmethod
    def for_element_type(cls, element_type: Attribute, with_bias: bool) -> Conv3DApiType:
        """The object of the documented combination of ``element_type`` (half or bfloat16_t)."""
        bias = None
        if with_bias:
            # half with a half bias, bfloat16_t with a float one (table 2).
            bias_type = f16 if element_type == f16 else f32
            bias = ConvTypeAttr(TPosition.GM, ConvFormat.ND, bias_type)
        return cls(
            ConvTypeAttr(TPosition.GM, ConvFormat.NDC1HWC0, element_type),
            ConvTypeAttr(TPosition.GM, ConvFormat.FRACTAL_Z_3D, element_type),
            ConvTypeAttr(TPosition.GM, ConvFormat.NDC1HWC0, element_type),
            bias,
        )

    @property
    def has_bias(self) -> bool:
        return isinstance(self.bias, ConvTypeAttr)

    @property
    def element_type(self) -> Attribute:
        return self.input.element_type

    def role(self, name: str) -> ConvTypeAttr:
        """The ConvType of ``input``, ``weight``, ``output`` or (when there is one) ``bias``."""
        ct = getattr(self, name)
        assert isinstance(ct, ConvTypeAttr), name
        return ct

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        params = _parse_conv_types(parser)
        if len(params) not in (3, 4):
            parser.raise_error(
                f"conv3d_api takes 3 or 4 conv types (input, weight, output[, bias]), got "
                f"{len(params)}"
            )
        if len(params) == 3:
            params.append(NoneAttr())
        return tuple(params)

    def print_parameters(self, printer: Printer) -> None:
        roles = [self.input, self.weight, self.output]
        if isinstance(self.bias, ConvTypeAttr):
            roles.append(self.bias)
        with printer.in_angle_brackets():
            printer.print_list(roles, printer.print_attribute)

    def verify(self) -> None:
        # hicann/asc-devkit docs Conv3D使用说明.md table 1 (positions, formats) and table 2
        # (types); the tiler refuses the same (impl/adv_api/tiling/conv/conv3d_tiling_base.cpp,
        # CheckInputFormat and CheckParamsDtype).
        expected = [
            ("input", self.input, ConvFormat.NDC1HWC0, (f16, bf16)),
            ("weight", self.weight, ConvFormat.FRACTAL_Z_3D, (f16, bf16)),
            ("output", self.output, ConvFormat.NDC1HWC0, (f16, bf16)),
        ]
        if isinstance(self.bias, ConvTypeAttr):
            expected.append(("bias", self.bias, ConvFormat.ND, (f16, f32)))
        for role, ct, fmt, types in expected:
            expect_conv_type("conv3d_api", role, ct, fmt, types)
        et = self.input.element_type
        for role, ct in (("weight", self.weight), ("output", self.output)):
            if ct.element_type != et:
                raise VerifyException(
                    f"conv3d_api {role} element type ({element_type_name(ct.element_type)}) "
                    f"must equal the input's ({element_type_name(et)})"
                )
        if isinstance(self.bias, ConvTypeAttr):
            want = f16 if et == f16 else f32
            if self.bias.element_type != want:
                raise VerifyException(
                    f"conv3d_api bias element type must be {element_type_name(want)} with a "
                    f"{element_type_name(et)} input, got "
                    f"{element_type_name(self.bias.element_type)}"
                )


GRAD_INPUT_FORMATS = (ConvFormat.NDC1HWC0, ConvFormat.NCDHW)
"""GradInput formats of the Conv3DBackpropInput API. The docs disagree with themselves: table 1
of hicann/asc-devkit ``Conv3DBackpropInput使用说明.md`` lists NDC1HWC0 only, its creation
example declares ``gradInputDxType`` as NCDHW. The implementation, the primary source, takes
both: ``impl/adv_api/detail/conv_backprop/conv3d_backprop_input/dav_v220/
conv3d_bp_input_sub_func.h`` (``GetTensorC``) Fixpipes NDC1HWC0 straight to GM and routes
NCDHW through a temporary workspace, so both are accepted here; NDC1HWC0 is the one the
compiler produces (the format the table names)."""


@irdl_attr_definition
class Conv3DBpInputType(ParametrizedAttribute, TypeAttribute):
    """The Ascend C ``Conv3DBackpropInput<WEIGHT, INPUT_SIZE, GRAD_OUTPUT, GRAD_INPUT>`` object
    (the input gradient, dX), its four ConvTypes in the template's order
    (``include/adv_api/conv_backprop/conv3d_bp_input_api.h``). The verifier enforces the docs'
    combinations (``Conv3DBackpropInput使用说明.md`` tables 1 and 2: all in GM; weight
    FRACTAL_Z_3D, input size ND int32_t, grad output NDC1HWC0, grad input NDC1HWC0 or NCDHW
    (see ``GRAD_INPUT_FORMATS``); weight, grad output and grad input all half or all
    bfloat16_t), which the host tiler also refuses to break (``impl/adv_api/tiling/
    conv_backprop/conv3d_bp_input_tiling_base.cpp``, ``CheckInputFormat``)."""

    name = "ascend.conv3d_bp_input"

    weight: ConvTypeAttr
    input_size: ConvTypeAttr
    grad_output: ConvTypeAttr
    grad_input: ConvTypeAttr

    @classmethod
    def for_element_type(
        cls, element_type: Attribute, grad_input_format: ConvFormat = ConvFormat.NDC1HWC0
    ) -> Conv3DBpInputType:
        """The object of the documented combination of ``element_type`` (half or bfloat16_t)."""
        return cls(
            ConvTypeAttr(TPosition.GM, ConvFormat.FRACTAL_Z_3D, element_type),
            ConvTypeAttr(TPosition.GM, ConvFormat.ND, i32),
            ConvTypeAttr(TPosition.GM, ConvFormat.NDC1HWC0, element_type),
            ConvTypeAttr(TPosition.GM, grad_input_format, element_type),
        )

    @property
    def element_type(self) -> Attribute:
        return self.grad_output.element_type

    def role(self, name: str) -> ConvTypeAttr:
        """The ConvType of ``weight``, ``input_size``, ``grad_output`` or ``grad_input``."""
        ct = getattr(self, name)
        assert isinstance(ct, ConvTypeAttr), name
        return ct

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        params = _parse_conv_types(parser)
        if len(params) != 4:
            parser.raise_error(
                "conv3d_bp_input takes 4 conv types (weight, input_size, grad_output, "
                f"grad_input), got {len(params)}"
            )
        return tuple(params)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_list(
                (self.weight, self.input_size, self.grad_output, self.grad_input),
                printer.print_attribute,
            )

    def verify(self) -> None:
        kind = "conv3d_bp_input"
        expect_conv_type(kind, "weight", self.weight, ConvFormat.FRACTAL_Z_3D, (f16, bf16))
        expect_conv_type(kind, "input_size", self.input_size, ConvFormat.ND, (i32,))
        expect_conv_type(kind, "grad_output", self.grad_output, ConvFormat.NDC1HWC0, (f16, bf16))
        gi = self.grad_input
        if gi.position.data == TPosition.GM and gi.format.data not in GRAD_INPUT_FORMATS:
            raise VerifyException(
                f"{kind} grad_input must be in format NDC1HWC0 or NCDHW, got {gi.format.data}"
            )
        expect_conv_type(kind, "grad_input", gi, gi.format.data, (f16, bf16))
        et = self.weight.element_type
        for role, ct in (("grad_output", self.grad_output), ("grad_input", gi)):
            if ct.element_type != et:
                raise VerifyException(
                    f"{kind} {role} element type ({element_type_name(ct.element_type)}) must "
                    f"equal the weight's ({element_type_name(et)}) (docs table 2)"
                )
