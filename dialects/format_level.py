"""Format level: explicit layout changes between what a user holds and what the Cube reads.

``ascend.trans_data`` converts a tensor between a plain NCDHW ``memref`` and an
``!ascend.gm_tensor`` in an Ascend storage format (TransData in Ascend C / CANN):

* x and dy: NCDHW → NDC1HWC0 (C0 = 16 for the 2-byte types; channels zero-padded to C1·C0);
* dW: FRACTAL_Z_3D → NCDHW (Cout, Cin/g, kD, kH, kW) — and the reverse of both; the forward
  weight NCDHW → FRACTAL_Z_3D in its own (16-bit) type;
* the forward bias: a plain (Cout,) vector into ND, the layout the Conv3D API reads it in
  (hicann/asc-devkit docs ``Conv3D使用说明.md`` table 1): the same elements, only the type
  changes.

The exact index maps live in ``formats.py``; the runtime executes them from there, and the
lowering computes its GM offsets from the same functions. The op allocates its result.

```
%x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16>
        -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.types import GmTensorType

CONVERTIBLE_FORMATS = (ConvFormat.NDC1HWC0, ConvFormat.FRACTAL_Z_3D, ConvFormat.ND)


@irdl_op_definition
class TransDataOp(IRDLOperation):
    """Convert a GM tensor between NCDHW (a memref) and NDC1HWC0 or FRACTAL_Z_3D, or a plain
    vector (a memref) and ND."""

    name = "ascend.trans_data"

    source = operand_def(MemRefType | GmTensorType)
    result = result_def(MemRefType | GmTensorType)

    traits = traits_def(MemoryReadEffect(), MemoryAllocEffect())

    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, result_type: Attribute):
        super().__init__(operands=[source], result_types=[result_type])

    @property
    def formatted_type(self) -> GmTensorType:
        """The side of the conversion that is in an Ascend storage format."""
        t = self.result.type if isinstance(self.result.type, GmTensorType) else self.source.type
        assert isinstance(t, GmTensorType)
        return t

    def verify_(self) -> None:
        src, dst = self.source.type, self.result.type
        if isinstance(src, MemRefType) == isinstance(dst, MemRefType):
            raise VerifyException(
                "trans_data converts between an NCDHW memref and an !ascend.gm_tensor; "
                "exactly one side must be a memref"
            )
        plain = src if isinstance(src, MemRefType) else dst
        assert isinstance(plain, MemRefType)
        fmt = self.formatted_type
        if fmt.conv_format not in CONVERTIBLE_FORMATS:
            raise VerifyException(
                "trans_data converts to or from NDC1HWC0, FRACTAL_Z_3D or ND, not "
                f"{fmt.conv_format}"
            )
        if tuple(plain.get_shape()) != fmt.get_shape():
            raise VerifyException(
                f"trans_data changes the layout, not the logical shape: {list(plain.get_shape())} "
                f"vs {list(fmt.get_shape())}"
            )
        if plain.element_type != fmt.element_type:
            raise VerifyException(
                f"trans_data keeps the element type: {element_type_name(plain.element_type)} vs "
                f"{element_type_name(fmt.element_type)}"
            )


OPS = (TransDataOp,)
