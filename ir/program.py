"""What a program computes: find the dW problem behind an entry function at any IR level.

At the op and format levels the ``ascend.conv3d_backprop_filter`` says it; below, the
``ascend.launch`` carries the convolution attributes (``ascend.conv``) and the entry function's
signature gives the shapes and the element type. ``ascend-run --check`` uses this to compute the
reference of whatever level it runs. A forward conv (x, weight -> y) is found the same way
(:func:`forward_problem`): ``ascend.conv3d`` above the API level, the launch's
``ascend.conv3d`` record below.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute

from ascend_xdsl.dialects.api_level import InitOp
from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.launch import (
    CONV_ATTR,
    FORWARD_CONV_ATTR,
    INPUT_GRAD_CONV_ATTR,
    LaunchOp,
)
from ascend_xdsl.dialects.op_level import (
    Conv3DBackpropFilterOp,
    Conv3DBackpropInputOp,
    Conv3DOp,
    pads6_attr,
    shape_of_conv_op,
)


def op_count(module: ModuleOp) -> int:
    """The operations of ``module`` besides itself: the "N ops" the tools print per level."""
    return sum(1 for _ in module.walk()) - 1


def tiling_of_module(module: ModuleOp) -> DwTiling | None:
    """The tiling of the first ``ascend.init`` of ``module`` (API level), else of the first
    tiled ``ascend.conv3d_backprop_filter`` (format level); None when there is neither (the
    hardware level keeps no record of it)."""
    for op in module.walk():
        if isinstance(op, InitOp):
            return op.tiling.tiling
        if isinstance(op, Conv3DBackpropFilterOp) and op.tiling is not None:
            return op.tiling.tiling
    return None


def find_function(module: ModuleOp, name: str) -> func.FuncOp | None:
    return next(
        (f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == name), None
    )


def launched_names(module: ModuleOp) -> set[str]:
    """Names of the functions some ``ascend.launch`` of ``module`` runs."""
    return {op.callee.string_value() for op in module.walk() if isinstance(op, LaunchOp)}


def is_kernel(module: ModuleOp, f: func.FuncOp) -> bool:
    """A kernel runs on the AI Cores through an ``ascend.launch``: it carries the
    ``ascend.kernel`` attribute (what the lowering emits) or is the callee of a launch (a
    hand-written kernel need not spell the attribute)."""
    return "ascend.kernel" in f.attributes or f.sym_name.data in launched_names(module)


def entry_functions(module: ModuleOp) -> list[func.FuncOp]:
    """Functions a user can call: defined, and not a kernel (kernels run through a launch)."""
    launched = launched_names(module)
    return [
        f
        for f in module.ops
        if isinstance(f, func.FuncOp)
        and f.body.blocks
        and "ascend.kernel" not in f.attributes
        and f.sym_name.data not in launched
    ]


def conv_problem(entry: func.FuncOp) -> ConvBpFilterShape | None:
    """The dW problem ``entry`` computes, or None if it computes none that is recognisable."""
    for op in entry.walk():
        if isinstance(op, Conv3DBackpropFilterOp):
            return shape_of_conv_op(op)
        if isinstance(op, LaunchOp) and isinstance(op.attributes.get(CONV_ATTR), DictionaryAttr):
            return _from_launch(entry, op.attributes[CONV_ATTR])  # type: ignore[arg-type]
    return None


def forward_problem(entry: func.FuncOp) -> ConvBpFilterShape | None:
    """The forward conv ``entry`` computes (y of its arguments x, the weight and optionally a
    bias, torch's names as for dW), or None if it computes none that is recognisable (another
    signature)."""
    for op in entry.walk():
        if isinstance(op, Conv3DOp):
            attrs = {
                "strides": op.strides,
                "pads": pads6_attr(op.pads),
                "dilations": op.dilations,
                "groups": op.groups,
            }
            return _from_attributes(entry, attrs, weight_argument=True)
        if isinstance(op, LaunchOp) and isinstance(
            op.attributes.get(FORWARD_CONV_ATTR), DictionaryAttr
        ):
            conv = op.attributes[FORWARD_CONV_ATTR]
            return _from_attributes(entry, conv.data, weight_argument=True)  # type: ignore[attr-defined]
    return None


def input_grad_problem(entry: func.FuncOp) -> ConvBpFilterShape | None:
    """The input gradient ``entry`` computes (dX of its two arguments dy and the weight), or
    None if it computes none that is recognisable: its dX (the result) and the weight give the
    problem, with the strides, pads, dilations and groups of its op or its launch's record."""
    for op in entry.walk():
        attrs: Mapping[str, Attribute] | None = None
        if isinstance(op, Conv3DBackpropInputOp):
            attrs = {
                "strides": op.strides,
                "pads": pads6_attr(op.pads),
                "dilations": op.dilations,
                "groups": op.groups,
            }
        elif isinstance(op, LaunchOp) and isinstance(
            op.attributes.get(INPUT_GRAD_CONV_ATTR), DictionaryAttr
        ):
            attrs = op.attributes[INPUT_GRAD_CONV_ATTR].data  # type: ignore[attr-defined]
        if attrs is None:
            continue
        inputs, outputs = entry.function_type.inputs.data, entry.function_type.outputs.data
        if len(inputs) != 2 or len(outputs) != 1:
            return None
        # (dX, weight) in the places of (x, weight): the forward's x is dX's shape.
        problem = _from_shapes(outputs[0], inputs[1], attrs)
        if problem is None or problem.errors():
            return None
        dy = inputs[0]
        if not isinstance(dy, MemRefType) or tuple(dy.get_shape()) != problem.grad_output_shape:
            return None
        return problem
    return None


def _from_launch(entry: func.FuncOp, conv: DictionaryAttr) -> ConvBpFilterShape | None:
    return _from_attributes(entry, conv.data, weight_argument=False)


def _from_attributes(
    entry: func.FuncOp, attrs: Mapping[str, Attribute], *, weight_argument: bool
) -> ConvBpFilterShape | None:
    """The problem of the entry's signature and the conv attributes: x, dy -> dW (the weight's
    shape from the result) or, with ``weight_argument``, x, weight -> y."""
    inputs, outputs = entry.function_type.inputs.data, entry.function_type.outputs.data
    # A forward conv may take a third argument, its bias (Cout,).
    if len(inputs) not in ((2, 3) if weight_argument else (2,)) or len(outputs) != 1:
        return None
    x, dw = inputs[0], inputs[1] if weight_argument else outputs[0]
    return _from_shapes(x, dw, attrs)


def _from_shapes(
    x: Attribute, dw: Attribute, attrs: Mapping[str, Attribute]
) -> ConvBpFilterShape | None:
    """The problem of x's and the weight's (memref) shapes and the conv attributes."""
    if not all(isinstance(t, MemRefType) for t in (x, dw)):
        return None
    strides, pads, dilations = (attrs.get(k) for k in ("strides", "pads", "dilations"))
    groups = attrs.get("groups")
    if not all(isinstance(a, DenseArrayBase) for a in (strides, pads, dilations)):
        return None
    if not isinstance(groups, IntegerAttr):
        return None
    return ConvBpFilterShape.from_shapes(
        x.get_shape(),  # type: ignore[union-attr]
        dw.get_shape(),  # type: ignore[union-attr]
        strides.get_values(),  # type: ignore[union-attr,arg-type]
        pads.get_values(),  # type: ignore[union-attr,arg-type]
        dilations.get_values(),  # type: ignore[union-attr,arg-type]
        groups.value.data,
        element_type_name(x.element_type),  # type: ignore[union-attr]
    )
