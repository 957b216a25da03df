"""Attributes of the ``ascend`` dialect.

* ``#ascend.conv_type<GM, NDC1HWC0, f16>`` — Ascend C's ``ConvType<TPosition, ConvFormat, T>``:
  where an operand of the dW API lives, in which format, with which element type. Which
  combinations are legal depends on the operand's role; ``!ascend.conv3d_bp_filter`` checks that.
* ``#ascend.conv3d_tiling<org_do = 8, …>`` — the forward Conv3D kernel's tiling
  (``conv3d_tiling.Conv3DTiling``), what ``ascend.conv3d_init`` hands the object.
* ``#ascend.dw_tiling<batch = 2, cin = 64, …>`` — every field of ``TConv3DBpFilterTiling`` plus the
  multi-core split, as keyword = integer pairs (see ``dw_tiling.DwTiling``). It is what
  ``ascend.init`` hands to the kernel object, the analogue of ``Init(&tiling)``.
* ``#ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, …>`` — every field of
  ``TConv3DBackpropInputTiling`` (``conv3d_bp_input_tiling.Conv3DBpInputTiling``), what
  ``ascend.conv3d_bp_input_init`` hands the dX object.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerType, bf16, f16, f32, i32
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.enums import ConvFormat, ConvFormatAttr, TPosition, TPositionAttr

ELEMENT_TYPES: tuple[Attribute, ...] = (f16, bf16, f32, i32)


def element_type_name(t: Attribute) -> str:
    """Short spelling of an element type for messages (``f16``, ``bf16``, ``f32``, ``i32``)."""
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    return str(t)


@irdl_attr_definition
class ConvTypeAttr(ParametrizedAttribute):
    """``ConvType<TPosition, ConvFormat, T>`` of one operand of the Ascend C dW API."""

    name = "ascend.conv_type"

    position: TPositionAttr
    format: ConvFormatAttr
    element_type: Attribute

    def __init__(
        self,
        position: TPosition | TPositionAttr | str,
        fmt: ConvFormat | ConvFormatAttr | str,
        element_type: Attribute,
    ):
        if not isinstance(position, TPositionAttr):
            position = TPositionAttr(TPosition(position))
        if not isinstance(fmt, ConvFormatAttr):
            fmt = ConvFormatAttr(ConvFormat(fmt))
        super().__init__(position, fmt, element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            position = TPositionAttr(parser.parse_str_enum(TPosition))
            parser.parse_punctuation(",")
            fmt = ConvFormatAttr(parser.parse_str_enum(ConvFormat))
            parser.parse_punctuation(",")
            element_type = parser.parse_type()
        return (position, fmt, element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"{self.position.data}, {self.format.data}, ")
            printer.print_attribute(self.element_type)

    def verify(self) -> None:
        if self.element_type not in ELEMENT_TYPES:
            raise VerifyException(
                f"conv_type element type must be one of f16, bf16, f32, i32, got "
                f"{element_type_name(self.element_type)}"
            )

    def describe(self) -> str:
        return f"<{self.position.data}, {self.format.data}, {element_type_name(self.element_type)}>"


_TILING_FIELDS = fields(DwTiling)
_TILING_NAMES = tuple(f.name for f in _TILING_FIELDS)
_TILING_DEFAULTS = {f.name: f.default for f in _TILING_FIELDS if isinstance(f.default, int)}


def _parse_record(
    parser: AttrParser, kind: str, names: Sequence[str], defaults: dict[str, int]
) -> ArrayAttr[IntAttr]:
    """``<name = int, ...>`` with ``names`` in any order, each at most once, the ones without a
    default required: the values in ``names`` order (the syntax of every tiling attribute)."""
    given: dict[str, int] = {}

    def parse_field() -> None:
        pos = parser.pos
        key = parser.parse_identifier()
        if key not in names:
            parser.raise_error(f"{kind} has no field '{key}'", pos, parser.pos)
        if key in given:
            parser.raise_error(f"{kind} field '{key}' given twice", pos, parser.pos)
        parser.parse_punctuation("=")
        given[key] = parser.parse_integer(allow_boolean=False)

    pos = parser.pos
    parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_field)
    missing = [n for n in names if n not in given and n not in defaults]
    if missing:
        parser.raise_error(f"{kind} is missing field(s) {', '.join(missing)}", pos, parser.pos)
    values = {**defaults, **given}
    return ArrayAttr(IntAttr(values[n]) for n in names)


def _print_record(printer: Printer, names: Sequence[str], values: ArrayAttr[IntAttr]) -> None:
    with printer.in_angle_brackets():
        printer.print_string(
            ", ".join(f"{n} = {v.data}" for n, v in zip(names, values.data, strict=False))
        )


@irdl_attr_definition
class DwTilingAttr(ParametrizedAttribute):
    """The tiling of one dW kernel (``TConv3DBpFilterTiling`` + core split), field by field.

    Syntax: ``#ascend.dw_tiling<batch = 2, cin = 64, …, single_core_k = 784>`` with the fields
    of ``DwTiling`` in any order; the multi-core and basic-block fields may be left out and take
    their defaults. It is printed with every field, in the vendor's order.
    """

    name = "ascend.dw_tiling"

    values: ArrayAttr[IntAttr]

    def __init__(self, tiling: DwTiling):
        super().__init__(ArrayAttr(IntAttr(getattr(tiling, n)) for n in _TILING_NAMES))

    @property
    def tiling(self) -> DwTiling:
        return DwTiling(
            **dict(zip(_TILING_NAMES, (v.data for v in self.values.data), strict=False))
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return (_parse_record(parser, "dw_tiling", _TILING_NAMES, _TILING_DEFAULTS),)

    def print_parameters(self, printer: Printer) -> None:
        _print_record(printer, _TILING_NAMES, self.values)

    def verify(self) -> None:
        if len(self.values.data) != len(_TILING_NAMES):
            raise VerifyException(
                f"dw_tiling needs {len(_TILING_NAMES)} values, got {len(self.values.data)}"
            )
        errors = tiling_errors(self.tiling)
        if errors:
            raise VerifyException(f"dw_tiling: {errors[0]}")


def tiling_errors(tiling: DwTiling) -> list[str]:
    """Internal-consistency errors of a tiling, checked against the Atlas A2 buffer sizes.

    Every Atlas A2 SKU has the same L1/L0 sizes; a tiling for another target is checked against
    that target's sizes by the tiling pass and the buffer planner.
    """
    from ascend_xdsl.hw import load

    hw = load()
    return tiling.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size)


_CONV3D_FIELDS = fields(Conv3DTiling)
_CONV3D_NAMES = tuple(f.name for f in _CONV3D_FIELDS)
_CONV3D_DEFAULTS = {f.name: f.default for f in _CONV3D_FIELDS if isinstance(f.default, int)}


@irdl_attr_definition
class Conv3DTilingAttr(ParametrizedAttribute):
    """The tiling of one forward Conv3D kernel (``TConv3DApiTiling`` fields + core split).

    Syntax: ``#ascend.conv3d_tiling<org_do = 8, org_co = 64, …>`` with the fields of
    ``Conv3DTiling`` in any order (``batch`` and the core split may be left out: 1); printed
    with every field, in the vendor's order. It is what ``ascend.conv3d_init`` hands the object,
    the analogue of ``Init(&tiling)``.
    """

    name = "ascend.conv3d_tiling"

    values: ArrayAttr[IntAttr]

    def __init__(self, tiling: Conv3DTiling):
        super().__init__(ArrayAttr(IntAttr(getattr(tiling, n)) for n in _CONV3D_NAMES))

    @property
    def tiling(self) -> Conv3DTiling:
        return Conv3DTiling(
            **dict(zip(_CONV3D_NAMES, (v.data for v in self.values.data), strict=False))
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return (_parse_record(parser, "conv3d_tiling", _CONV3D_NAMES, _CONV3D_DEFAULTS),)

    def print_parameters(self, printer: Printer) -> None:
        _print_record(printer, _CONV3D_NAMES, self.values)

    def verify(self) -> None:
        if len(self.values.data) != len(_CONV3D_NAMES):
            raise VerifyException(
                f"conv3d_tiling needs {len(_CONV3D_NAMES)} values, got {len(self.values.data)}"
            )
        from ascend_xdsl.hw import load

        hw = load()
        errors = self.tiling.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size)
        if errors:
            raise VerifyException(f"conv3d_tiling: {errors[0]}")


_DX_FIELDS = fields(Conv3DBpInputTiling)
_DX_NAMES = tuple(f.name for f in _DX_FIELDS)
_DX_DEFAULTS = {f.name: f.default for f in _DX_FIELDS if isinstance(f.default, int)}


@irdl_attr_definition
class Conv3DBpInputTilingAttr(ParametrizedAttribute):
    """The tiling of one Conv3DBackpropInput kernel (``TConv3DBackpropInputTiling``).

    Syntax: ``#ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, …>`` with the fields of
    ``Conv3DBpInputTiling`` in any order (those the vendor's tiler sets to constants may be left
    out); printed with every field, in the vendor's order."""

    name = "ascend.conv3d_bp_input_tiling"

    values: ArrayAttr[IntAttr]

    def __init__(self, tiling: Conv3DBpInputTiling):
        super().__init__(ArrayAttr(IntAttr(getattr(tiling, n)) for n in _DX_NAMES))

    @property
    def tiling(self) -> Conv3DBpInputTiling:
        return Conv3DBpInputTiling(
            **dict(zip(_DX_NAMES, (v.data for v in self.values.data), strict=False))
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return (_parse_record(parser, "conv3d_bp_input_tiling", _DX_NAMES, _DX_DEFAULTS),)

    def print_parameters(self, printer: Printer) -> None:
        _print_record(printer, _DX_NAMES, self.values)

    def verify(self) -> None:
        if len(self.values.data) != len(_DX_NAMES):
            raise VerifyException(
                f"conv3d_bp_input_tiling needs {len(_DX_NAMES)} values, got {len(self.values.data)}"
            )
        from ascend_xdsl.hw import load

        hw = load()
        errors = self.tiling.errors(hw.l0a_size, hw.l0b_size, hw.l0c_size)
        if errors:
            raise VerifyException(f"conv3d_bp_input_tiling: {errors[0]}")
