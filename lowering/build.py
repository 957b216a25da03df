"""Front door, step 1: build the op-level module of one dW problem from plain Python numbers.

``build_conv3d_bp_filter`` is what ``ascend-conv`` and the runtime's public API call first: it
turns torch-style arguments (input shape, weight shape, int-or-tuple stride/padding/dilation,
groups, dtype name) into the op-level IR that ``lowering/pipeline.py`` then compiles level by
level::

    func.func @conv3d_bp_filter(%x: memref<N x C x D x H x W x T>,
                                %dy: memref<N x Cout x Do x Ho x Wo x T>)
        -> memref<Cout x Cin/g x kD x kH x kW x f32> {
      %dw = ascend.conv3d_backprop_filter %x, %dy strides [...] pads [...] ... : ...
      func.return %dw : memref<...>
    }

``build_conv3d`` does the same for the forward convolution (``torch.nn.functional.conv3d``:
``@conv3d(x, weight[, bias]) -> y`` around one ``ascend.conv3d``), and ``build_conv3d_input``
for the input gradient (``torch.nn.grad.conv3d_input``: ``@conv3d_input(dy, weight) -> dx``
around one ``ascend.conv3d_backprop_input``), with the same argument conventions and checks.
Every rule a problem must obey lives in ``dialects/conv_shape.py``;
this module only normalizes the argument conventions and reports what
``ConvBpFilterShape.errors()`` finds, as a :class:`ConvProblemError` with a one-line message,
before any IR exists.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, bf16, f16, f32
from xdsl.ir import Attribute, Block, Operation, Region

from ascend_xdsl.dialects.conv_shape import DTYPES, ConvBpFilterShape
from ascend_xdsl.dialects.op_level import (
    BIAS_ELEMENT_TYPE,
    Conv3DBackpropFilterOp,
    Conv3DBackpropInputOp,
    Conv3DOp,
)

FUNC_NAME = "conv3d_bp_filter"
"""Symbol name of the function the builder emits (the kernel's entry point)."""

ELEMENT_TYPES: dict[str, Attribute] = {"f16": f16, "bf16": bf16}

IntOrSeq = int | Sequence[int]


class ConvProblemError(ValueError):
    """A dW problem that cannot be built: malformed arguments or a broken shape rule."""


class ConvArgumentTypeError(ConvProblemError, TypeError):
    """An argument of the wrong kind (not an integer, not a sequence of them): a ``TypeError``
    as torch raises, and still a :class:`ConvProblemError` for the callers that catch it."""


def _is_int(v: object) -> bool:
    """An integer as torch takes one: ``int`` or anything with ``__index__`` (numpy integers,
    0-d integer arrays), but not ``bool``."""
    if isinstance(v, bool | str | bytes):
        return False
    try:
        operator.index(v)  # type: ignore[arg-type]
    except TypeError:  # not integer-like (numpy arrays of several elements have __index__ too)
        return False
    return True


def _as_ints(value: object) -> tuple[int, ...] | None:
    """The integers of a sequence-like ``value`` (list, tuple, numpy array, ``torch.Size``),
    or None if it is not one of integers."""
    if isinstance(value, str | bytes) or not hasattr(value, "__len__"):
        return None
    try:
        values = tuple(value)  # type: ignore[call-overload]
    except TypeError:
        return None
    if not all(_is_int(v) for v in values):
        return None
    return tuple(operator.index(v) for v in values)


def _shape5(name: str, shape: Sequence[int]) -> tuple[int, int, int, int, int]:
    values = _as_ints(shape)
    if values is None or len(values) != 5:
        error = ConvArgumentTypeError if values is None else ConvProblemError
        raise error(f"{name} must be 5 integers, got {shape!r}")
    return values  # type: ignore[return-value]


def _triple(name: str, value: IntOrSeq) -> tuple[int, int, int]:
    if _is_int(value):
        v = operator.index(value)  # type: ignore[arg-type]
        return (v, v, v)
    values = _as_ints(value)
    if values is None or len(values) != 3:
        error = ConvArgumentTypeError if values is None else ConvProblemError
        raise error(f"{name} must be an integer or 3 integers, got {value!r}")
    return values  # type: ignore[return-value]


def normalize_padding(padding: IntOrSeq) -> tuple[int, int, int, int, int, int]:
    """Padding as (front, back, up, down, left, right) from an int, (d, h, w) or 6 values."""
    if _is_int(padding):
        return (operator.index(padding),) * 6  # type: ignore[arg-type]
    values = _as_ints(padding)
    if values is not None:
        if len(values) == 3:
            d, h, w = values
            return (d, d, h, h, w, w)
        if len(values) == 6:
            return values  # type: ignore[return-value]
    raise (ConvArgumentTypeError if values is None else ConvProblemError)(
        f"padding must be an integer, 3 integers (d, h, w) or 6 integers "
        f"(front, back, up, down, left, right), got {padding!r}"
    )


def shape_from_torch_args(
    input_shape: Sequence[int],
    weight_shape: Sequence[int],
    stride: IntOrSeq = 1,
    padding: IntOrSeq = 0,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    dtype: str = "f16",
) -> ConvBpFilterShape:
    """The checked problem record for torch-style arguments; raises :class:`ConvProblemError`."""
    x_shape = _shape5("input shape", input_shape)
    w_shape = _shape5("weight shape", weight_shape)
    if not _is_int(groups):
        raise ConvArgumentTypeError(f"groups must be an integer, got {groups!r}")
    groups = operator.index(groups)
    if dtype not in DTYPES:
        raise ConvProblemError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    problem = ConvBpFilterShape.from_shapes(
        x_shape,
        w_shape,
        _triple("stride", stride),
        normalize_padding(padding),
        _triple("dilation", dilation),
        groups,
        dtype,
    )
    cin, cin_g = x_shape[1], w_shape[1]
    errors = problem.errors()
    if not errors and cin_g * groups != cin:
        errors.append(
            f"weight has Cin/groups = {cin_g}, but input Cin = {cin} with groups = {groups} "
            f"needs {cin // groups}"
        )
    if errors:
        raise ConvProblemError("; ".join(errors))
    return problem


def _single_op_module(name: str, block: Block, conv: Operation, result: str) -> ModuleOp:
    """The verified module of one function ``name`` whose body, ``block``, computes ``conv``
    and returns its result (named ``result``): the op level of either conv."""
    conv.results[0].name_hint = result
    block.add_ops([conv, func.ReturnOp(conv.results[0])])
    signature = (block.arg_types, (conv.results[0].type,))
    module = ModuleOp([func.FuncOp(name, signature, Region(block))])
    module.verify()
    return module


def build_module(problem: ConvBpFilterShape) -> ModuleOp:
    """The op-level module of an already checked problem."""
    et = ELEMENT_TYPES[problem.dtype]
    x_type = MemRefType(et, problem.input_shape)
    dy_type = MemRefType(et, problem.grad_output_shape)
    dw_type = MemRefType(f32, problem.weight_shape)
    block = Block(arg_types=[x_type, dy_type])
    x, dy = block.args
    x.name_hint, dy.name_hint = "x", "dy"
    conv = Conv3DBackpropFilterOp(
        x,
        dy,
        dw_type,
        strides=problem.strides,
        pads=problem.pads,
        dilations=problem.dilations,
        groups=problem.groups,
    )
    return _single_op_module(FUNC_NAME, block, conv, "dw")


def build_conv3d_bp_filter(
    input_shape: Sequence[int],
    weight_shape: Sequence[int],
    stride: IntOrSeq = 1,
    padding: IntOrSeq = 0,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    dtype: str = "f16",
) -> ModuleOp:
    """The op-level module of ``torch.nn.grad.conv3d_weight(input, weight_size, ...)``.

    ``input_shape`` is (N, Cin, D, H, W), ``weight_shape`` (Cout, Cin/groups, kD, kH, kW);
    stride and dilation are an int or (d, h, w); padding an int, (d, h, w) (symmetric) or
    (front, back, up, down, left, right); dtype ``"f16"`` or ``"bf16"``. Raises
    :class:`ConvProblemError` (a ``ValueError``) with a one-line message for a bad problem.
    """
    problem = shape_from_torch_args(
        input_shape, weight_shape, stride, padding, dilation, groups, dtype
    )
    return build_module(problem)


FORWARD_FUNC_NAME = "conv3d"
"""The entry function of a forward module built by :func:`build_conv3d`."""


def build_forward_module(problem: ConvBpFilterShape, bias: bool = False) -> ModuleOp:
    """The op-level module of the forward convolution of an already checked problem:
    ``@conv3d(x, weight[, bias]) -> y``, the bias f16 with f16 inputs and f32 with bf16 (the
    Conv3D API's combinations, ``op_level.BIAS_ELEMENT_TYPE``)."""
    et = ELEMENT_TYPES[problem.dtype]
    types = [MemRefType(et, problem.input_shape), MemRefType(et, problem.weight_shape)]
    if bias:
        types.append(MemRefType(BIAS_ELEMENT_TYPE[et], (problem.cout,)))
    y_type = MemRefType(et, problem.grad_output_shape)
    block = Block(arg_types=types)
    for arg, name in zip(block.args, ("x", "w", "b"), strict=False):
        arg.name_hint = name
    conv = Conv3DOp(
        block.args[0],
        block.args[1],
        block.args[2] if bias else None,
        y_type,
        strides=problem.strides,
        pads=problem.pads,
        dilations=problem.dilations,
        groups=problem.groups,
    )
    return _single_op_module(FORWARD_FUNC_NAME, block, conv, "y")


def build_conv3d(
    input_shape: Sequence[int],
    weight_shape: Sequence[int],
    bias: bool = False,
    stride: IntOrSeq = 1,
    padding: IntOrSeq = 0,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    dtype: str = "f16",
) -> ModuleOp:
    """The op-level module of ``torch.nn.functional.conv3d(input, weight, bias, ...)`` for the
    shapes given, with the same argument conventions and one-line :class:`ConvProblemError`
    as :func:`build_conv3d_bp_filter` (the convolution geometry is the same record)."""
    problem = shape_from_torch_args(
        input_shape, weight_shape, stride, padding, dilation, groups, dtype
    )
    return build_forward_module(problem, bias)


INPUT_GRAD_FUNC_NAME = "conv3d_input"
"""The entry function of a dX module built by :func:`build_conv3d_input`."""


def build_input_grad_module(problem: ConvBpFilterShape) -> ModuleOp:
    """The op-level module of the input gradient of an already checked problem:
    ``@conv3d_input(dy, weight) -> dx``, dx of the problem's input shape and all three of its
    element type (the Conv3DBackpropInput API's combinations, docs table 2)."""
    et = ELEMENT_TYPES[problem.dtype]
    dy_type = MemRefType(et, problem.grad_output_shape)
    w_type = MemRefType(et, problem.weight_shape)
    block = Block(arg_types=[dy_type, w_type])
    for arg, name in zip(block.args, ("dy", "w"), strict=True):
        arg.name_hint = name
    conv = Conv3DBackpropInputOp(
        block.args[0],
        block.args[1],
        MemRefType(et, problem.input_shape),
        input_size=problem.input_shape,
        strides=problem.strides,
        pads=problem.pads,
        dilations=problem.dilations,
        groups=problem.groups,
    )
    return _single_op_module(INPUT_GRAD_FUNC_NAME, block, conv, "dx")


def build_conv3d_input(
    input_size: Sequence[int],
    weight_shape: Sequence[int],
    grad_output_shape: Sequence[int],
    stride: IntOrSeq = 1,
    padding: IntOrSeq = 0,
    dilation: IntOrSeq = 1,
    groups: int = 1,
    dtype: str = "f16",
) -> ModuleOp:
    """The op-level module of ``torch.nn.grad.conv3d_input(input_size, weight, grad_output,
    stride, padding, dilation, groups)`` for the shapes given: ``input_size`` is the forward
    input's (N, Cin, D, H, W), ``weight_shape`` (Cout, Cin/groups, kD, kH, kW) and
    ``grad_output_shape`` dy's, which must be the one the other arguments imply. Argument
    conventions and the one-line :class:`ConvProblemError` are those of
    :func:`build_conv3d_bp_filter`."""
    problem = shape_from_torch_args(
        input_size, weight_shape, stride, padding, dilation, groups, dtype
    )
    dy_shape = _shape5("grad_output shape", grad_output_shape)
    if dy_shape != problem.grad_output_shape:
        raise ConvProblemError(
            f"grad_output shape {list(dy_shape)} does not match "
            f"{list(problem.grad_output_shape)} implied by input_size, weight and the stride, "
            "padding and dilation"
        )
    return build_input_grad_module(problem)
