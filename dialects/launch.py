"""Host side of a kernel launch: global-memory allocation and the launch on ``block_dim`` cores.

```
%dwf = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
ascend.launch @conv3d_bp_filter_kernel blocks 24 (%x5, %dy5, %dwf) : !ascend.gm_tensor<...>, ...
```

``alloc_gm`` returns zero-filled memory (``aclrtMalloc`` + ``aclrtMemset``): the dW kernel
accumulates into dW with atomic adds, so dW must start at zero. The vendor operator zero-fills
it inside the kernel followed by a cross-core barrier (``Conv3dDwInitOutput`` in hicann/ops-nn
``conv/conv3d_backprop_filter_v2/op_kernel/arch22/conv3d_backprop_filter_v2.h``); doing it on the
host is equivalent and keeps the kernel free of cross-core synchronisation.

``launch`` runs the ``func.func`` kernel once per block index 0 … blocks−1 (the kernel reads
its index with ``ascend.get_block_idx``), as ``<<<blockDim, nullptr, stream>>>`` does.

``blocks`` is bounded by what the runtime can express, the ``uint32_t blockDim`` of
``aclrtLaunchKernel`` (https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/
appdevgapi/aclcppdevg_03_0151.html), not by the core count of a chip: the IR does not name its
target (``ascend-run --hw`` picks it at run time), and a launch of more blocks than cores is
legal, the blocks running on the cores in turn. A launch that would run for ever is stopped by
the simulator's iteration budget instead (``runtime/machine/budget.py``: each block is one
iteration).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import I64, IntegerAttr, ModuleOp, SymbolRefAttr, i64
from xdsl.ir import Attribute, SSAValue
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

from ascend_xdsl.dialects.types import GmTensorType

MAX_BLOCKS = 2**32 - 1
"""The most blocks one launch can have (``blockDim`` is a ``uint32_t``, see above)."""

CONV_ATTR = "ascend.conv"
"""Discardable attribute of a launch: ``{strides, pads, dilations, groups}`` of the convolution
the kernel computes (set by ``convert-conv-to-ascend-api``), so a lowered program still says
what it computes."""


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


OPS = (AllocGmOp, LaunchOp)
