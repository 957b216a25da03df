"""Host side of a kernel launch: global-memory allocation (zeroed or not) and the launch on
``block_dim`` cores.

```
%dwf = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%y = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
ascend.launch @conv3d_bp_filter_kernel blocks 24 (%x5, %dy5, %dwf) : !ascend.gm_tensor<...>, ...
```

``alloc_gm`` returns zero-filled memory (``aclrtMalloc`` + ``aclrtMemset``): the dW kernel
accumulates into dW with atomic adds, so dW must start at zero. The vendor operator zero-fills
it inside the kernel followed by a cross-core barrier (``Conv3dDwInitOutput`` in hicann/ops-nn
``conv/conv3d_backprop_filter_v2/op_kernel/arch22/conv3d_backprop_filter_v2.h``); doing it on the
host is equivalent and keeps the kernel free of cross-core synchronisation.

``empty_gm`` returns uninitialised memory (``aclrtMalloc`` alone): for an output the launched
kernel writes whole, as the forward's y and dX are (their kernels store every element once, no
atomic add), zeroing it first would be a MemSet kernel for nothing. Nothing may read it before a
launch writes it: its verifier holds its first use (in program order) to an ``ascend.launch``.
The simulator fills it with NaN (floats) or zero (integers), so an element a kernel forgets to
write shows up as a NaN in the result.

``launch`` runs the ``func.func`` kernel once per block index 0 … blocks−1 (the kernel reads
its index with ``ascend.get_block_idx``), as ``<<<blockDim, nullptr, stream>>>`` does.

``blocks`` is bounded by what the runtime can express, the ``uint32_t blockDim`` of
``aclrtLaunchKernel`` (https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/
appdevgapi/aclcppdevg_03_0151.html), not by the core count of a chip: the IR does not name its
target (``ascend-run --hw`` picks it at run time), and a launch of more blocks than cores is
legal, the blocks running on the cores in turn. A launch that would run for ever is stopped by
the simulator's iteration budget instead (``runtime/machine/budget.py``: each block is one
iteration).

The ``ascend.conv`` attribute of a launch says which convolution the kernel computes (the
reference check and the reports read it). The verifier holds it to the launch: its fields and
their counts, the problem rules (``ConvBpFilterShape.errors``: groups at least 1, strides,
pads and dilations in range) on the launched x and dW, the dy shape those give, the dW's
groups, and, when the kernel hands the API a tiling (``ascend.init``), the tiling's strides,
pads and dilations.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    SymbolRefAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect, MemoryWriteEffect, SymbolTable
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import DwTilingAttr, element_type_name
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.types import GmTensorType

MAX_BLOCKS = 2**32 - 1
"""The most blocks one launch can have (``blockDim`` is a ``uint32_t``, see above)."""

CONV_ATTR = "ascend.conv"
"""Discardable attribute of a launch: ``{strides, pads, dilations, groups}`` of the convolution
the kernel computes (set by ``convert-conv-to-ascend-api``), so a lowered program still says
what it computes."""

FORWARD_CONV_ATTR = "ascend.conv3d"
"""The same record on a forward conv's launch (x, weight -> y; ``convert-conv-to-ascend-api``):
``ascend-run --check`` reads it to check y against the forward reference. Kept apart from
``ascend.conv``, which describes a dW launch (x, dy, dW) and is verified so."""

INPUT_GRAD_CONV_ATTR = "ascend.conv3d_backprop_input"
"""The same record on an input-gradient (dX) launch (dy, weight -> dX;
``convert-conv-to-ascend-api``): ``ascend-run --check`` reads it to check dX against the dX
reference. The launched dX is the forward's x: the record with dX and the weight gives dy."""


@irdl_op_definition
class AllocGmOp(IRDLOperation):
    """Allocate a zero-filled tensor in global memory."""

    name = "ascend.alloc_gm"
    result = result_def(GmTensorType)
    traits = traits_def(MemoryAllocEffect())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class EmptyGmOp(IRDLOperation):
    """Allocate an uninitialised tensor in global memory, for a launch to write whole."""

    name = "ascend.empty_gm"
    result = result_def(GmTensorType)
    traits = traits_def(MemoryAllocEffect())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        block = self.parent_block()
        if block is None:
            return
        # The first use in program order: each use's ancestor in this op's block (a use nested
        # in a region runs where that ancestor does).
        first: Operation | None = None
        for use in self.result.uses:
            user = block.find_ancestor_op_in_block(use.operation)
            if user is not None and (first is None or user.is_before_in_block(first)):
                first = user
        if first is not None and not isinstance(first, LaunchOp):
            raise VerifyException(
                f"ascend.empty_gm is uninitialised, yet its first use, {first.name}, is not an "
                "ascend.launch that writes it"
            )


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """Run a kernel function on ``blocks`` AI Cores."""

    name = "ascend.launch"
    callee = prop_def(SymbolRefAttr)
    blocks = prop_def(IntegerAttr[I64])
    args = var_operand_def(GmTensorType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$callee `blocks` $blocks ` ` `(` $args `)` attr-dict `:` type($args)"

    def __init__(self, callee: str, blocks: int, args: Sequence[SSAValue]):
        super().__init__(
            operands=[args],
            properties={"callee": SymbolRefAttr(callee), "blocks": IntegerAttr(blocks, i64)},
        )

    def verify_(self) -> None:
        if self.blocks.value.data < 1:
            raise VerifyException(f"launch needs at least 1 block, got {self.blocks.value.data}")
        if self.blocks.value.data > MAX_BLOCKS:
            raise VerifyException(
                f"launch of {self.blocks.value.data} blocks, beyond the {MAX_BLOCKS} a "
                "launch's uint32 blockDim can hold"
            )
        module = self.get_toplevel_object()
        if not isinstance(module, ModuleOp):
            return
        name = self.callee.string_value()
        kernel = SymbolTable.lookup_symbol(module, self.callee)
        if kernel is None:
            raise VerifyException(f"launch of '{name}', which is not defined in the module")
        if not isinstance(kernel, func.FuncOp):
            raise VerifyException(f"launch of '{name}', which is a {kernel.name}, not a func.func")
        expected = tuple(kernel.function_type.inputs.data)
        given = tuple(a.type for a in self.args)
        if len(expected) != len(given):
            raise VerifyException(
                f"launch of '{name}' passes {len(given)} arguments, "
                f"the kernel takes {len(expected)}"
            )
        for i, (e, g) in enumerate(zip(expected, given, strict=True)):
            if e != g:
                raise VerifyException(
                    f"launch of '{name}': argument {i} has type {g}, the kernel expects {e}"
                )
        conv = self.attributes.get(CONV_ATTR)
        if conv is not None:
            _verify_conv(conv, given, kernel)
        forward = self.attributes.get(FORWARD_CONV_ATTR)
        if forward is not None:
            _verify_forward_conv(forward, given)
        input_grad = self.attributes.get(INPUT_GRAD_CONV_ATTR)
        if input_grad is not None:
            _verify_input_grad_conv(input_grad, given)


_CONV_ARRAYS = (("strides", 3), ("pads", 6), ("dilations", 3))
_TILING_FIELDS = {
    "strides": ("stride_d", "stride_h", "stride_w"),
    "pads": ("pad_front", "pad_back", "pad_up", "pad_down", "pad_left", "pad_right"),
    "dilations": ("dilation_d", "dilation_h", "dilation_w"),
}
"""The tiling fields that restate the convolution's own (its ``group`` does not: it counts the
enlarged groups, ``ConvBpFilterShape.group_enlargement``)."""


def _conv_values(conv: Attribute, name: str) -> dict[str, tuple[int, ...]]:
    """The fields of a launch's conv record ``name`` (``ascend.conv``, ``ascend.conv3d``), or
    a :class:`VerifyException` naming the one that is malformed."""
    what = "{strides, pads, dilations, groups}"
    if not isinstance(conv, DictionaryAttr):
        raise VerifyException(f"{name} must be a dictionary {what}")
    values: dict[str, tuple[int, ...]] = {}
    for key, count in _CONV_ARRAYS:
        field = conv.data.get(key)
        if not isinstance(field, DenseArrayBase) or len(field) != count:
            raise VerifyException(f"{name} {key} must be an array of {count} integers")
        values[key] = tuple(int(v) for v in field.get_values())
    groups = conv.data.get("groups")
    if not isinstance(groups, IntegerAttr):
        raise VerifyException(f"{name} groups must be an integer")
    values["groups"] = (groups.value.data,)
    return values


def _checked_problem(
    attr: str,
    values: dict[str, tuple[int, ...]],
    x: GmTensorType,
    weight: GmTensorType,
    output: tuple[GmTensorType, str],
    inputs: str,
) -> ConvBpFilterShape:
    """The conv a record (``attr``'s ``values``) describes on the launched x and weight (dW's
    shape for a dW launch), checked, and the launched ``output`` (y of the forward, dy of dW:
    the tensor the other two determine) of the shape it gives."""
    problem = ConvBpFilterShape.from_shapes(
        x.get_shape(),
        weight.get_shape(),
        values["strides"],
        values["pads"],
        values["dilations"],
        values["groups"][0],
        element_type_name(x.element_type),
    )
    errors = problem.errors()
    if errors:
        raise VerifyException(f"{attr}: {errors[0]}")
    tensor, name = output
    if tuple(tensor.get_shape()) != problem.grad_output_shape:
        expected = "x".join(map(str, problem.grad_output_shape))
        got = "x".join(map(str, tensor.get_shape()))
        raise VerifyException(
            f"{attr} gives {name} {expected} for the launched {inputs}, the launched {name} is "
            f"{got}: its strides, pads or dilations contradict the tensors"
        )
    return problem


def _verify_forward_conv(conv: Attribute, types: Sequence[Attribute]) -> None:
    """The ``ascend.conv3d`` record agrees with the launched x, weight (bias) and y: y's shape
    is the one the record's strides, pads and dilations give x and the weight."""
    values = _conv_values(conv, FORWARD_CONV_ATTR)
    if len(types) not in (3, 4) or not all(isinstance(t, GmTensorType) for t in types):
        raise VerifyException(
            f"{FORWARD_CONV_ATTR} needs a launch of the GM tensors x, weight, (bias,) y"
        )
    x, w, y = types[0], types[1], types[-1]
    assert isinstance(x, GmTensorType) and isinstance(w, GmTensorType)
    assert isinstance(y, GmTensorType)
    _checked_problem(FORWARD_CONV_ATTR, values, x, w, (y, "y"), "x and weight")


def _verify_input_grad_conv(conv: Attribute, types: Sequence[Attribute]) -> None:
    """The ``ascend.conv3d_backprop_input`` record agrees with the launched dy, weight and dX:
    dy's shape is the one the record's strides, pads and dilations give dX and the weight."""
    values = _conv_values(conv, INPUT_GRAD_CONV_ATTR)
    if len(types) != 3 or not all(isinstance(t, GmTensorType) for t in types):
        raise VerifyException(
            f"{INPUT_GRAD_CONV_ATTR} needs a launch of the three GM tensors dy, weight, dX"
        )
    dy, w, dx = types
    assert isinstance(dy, GmTensorType) and isinstance(w, GmTensorType)
    assert isinstance(dx, GmTensorType)
    _checked_problem(INPUT_GRAD_CONV_ATTR, values, dx, w, (dy, "dy"), "dX and weight")


def _verify_conv(conv: Attribute, types: Sequence[Attribute], kernel: func.FuncOp) -> None:
    """The ``ascend.conv`` attribute agrees with the launched tensors and the kernel's tiling
    (see the module docstring)."""
    values = _conv_values(conv, CONV_ATTR)
    if len(types) != 3 or not all(isinstance(t, GmTensorType) for t in types):
        raise VerifyException(f"{CONV_ATTR} needs a launch of the three GM tensors x, dy, dW")
    x, dy, dw = types
    assert isinstance(x, GmTensorType) and isinstance(dy, GmTensorType)
    assert isinstance(dw, GmTensorType)
    problem = _checked_problem(CONV_ATTR, values, x, dw, (dy, "dy"), "x and dW")
    if dw.conv_format == ConvFormat.FRACTAL_Z_3D and dw.groups.data != problem.groups:
        raise VerifyException(
            f"{CONV_ATTR} groups {problem.groups} differ from the launched dW's groups "
            f"{dw.groups.data}"
        )
    for op in kernel.walk():
        tiling = op.properties.get("tiling")
        if not isinstance(tiling, DwTilingAttr):
            continue
        record = tiling.tiling
        for key, names in _TILING_FIELDS.items():
            in_tiling = tuple(getattr(record, n) for n in names)
            if in_tiling != values[key]:
                raise VerifyException(
                    f"{CONV_ATTR} {key} {list(values[key])} differ from the kernel's tiling "
                    f"({', '.join(names)} = {list(in_tiling)})"
                )


OPS = (AllocGmOp, EmptyGmOp, LaunchOp)
