"""``ascend-legalize-formats``: op level → format level.

The first conversion of the pipeline (``lowering/pipeline.py``). The Cube reads x and dy in
NDC1HWC0 and writes dW in FRACTAL_Z_3D, while a user hands in plain NCDHW memrefs. This pass
makes the layout changes explicit: for every op-level ``ascend.conv3d_backprop_filter`` it
inserts ``ascend.trans_data`` of x and dy into ``!ascend.gm_tensor<NDC1HWC0, ...>``, rewrites
the conv onto those tensors with a ``!ascend.gm_tensor<FRACTAL_Z_3D, ..., groups = g>`` result,
and converts that result back into the original NCDHW memref::

    %x5  = ascend.trans_data %x  : memref<...> -> !ascend.gm_tensor<NDC1HWC0, ...>
    %dy5 = ascend.trans_data %dy : memref<...> -> !ascend.gm_tensor<NDC1HWC0, ...>
    %dwf = ascend.conv3d_backprop_filter %x5, %dy5 ... -> !ascend.gm_tensor<FRACTAL_Z_3D, ...>
    %dw  = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, ...> -> memref<...>

Logical shapes never change (the formats' index maps are in ``dialects/formats.py``); the
strides, pads, dilations, groups and an already attached tiling are carried over unchanged.
The forward ``ascend.conv3d`` gets the same treatment with the Conv3D API's formats
(hicann/asc-devkit docs ``Conv3D使用说明.md`` table 1): x into NDC1HWC0, the weight into
FRACTAL_Z_3D (in its 16-bit type, with the groups), the bias into ND, and y from NDC1HWC0 back
into its NCDHW memref. The input gradient ``ascend.conv3d_backprop_input`` gets the formats of
the Conv3DBackpropInput API (docs ``Conv3DBackpropInput使用说明.md`` table 1): dy into
NDC1HWC0, the weight into FRACTAL_Z_3D (with the groups), dX from NDC1HWC0 back into its NCDHW
memref (the table's GradInput format; the API also writes NCDHW, through a workspace, which the
compiler does not use).
A conv that is already on ``!ascend.gm_tensor`` operands is left alone, so the pass is
idempotent. The next pass is ``ascend-tile-conv3d-bp-filter``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp, Conv3DBackpropInputOp, Conv3DOp
from ascend_xdsl.dialects.types import GmTensorType


def _hint(value: SSAValue, suffix: str) -> str | None:
    return None if value.name_hint is None else value.name_hint + suffix


def _to_format(value: SSAValue, fmt: ConvFormat, groups: int = 1) -> TransDataOp:
    t = value.type
    assert isinstance(t, MemRefType)
    op = TransDataOp(value, GmTensorType(fmt, t.get_shape(), t.element_type, groups))
    op.result.name_hint = _hint(value, "5")
    return op


def _replace_in_format(
    rewriter: PatternRewriter,
    op: Operation,
    converts: Sequence[Operation],
    conv: Operation,
    suffix: str,
) -> None:
    """Replace the op-level conv ``op`` by ``conv``, its format-level twin on the trans_data
    ``converts`` of its operands, and a trans_data of the result back to ``op``'s type (the
    converted result's name is ``op``'s with ``suffix``)."""
    conv.results[0].name_hint = _hint(op.results[0], suffix)
    back = TransDataOp(conv.results[0], op.results[0].type)
    back.result.name_hint = op.results[0].name_hint
    rewriter.replace(op, [*converts, conv, back], [back.result])


class LegalizeConvFormats(RewritePattern):
    """Wrap an op-level conv3d_backprop_filter in trans_data to and from the Ascend formats."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv3DBackpropFilterOp, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op.result.type, MemRefType):
            return  # already at the format level
        dw_type = op.result.type
        groups = op.groups.value.data
        x5 = _to_format(op.x, ConvFormat.NDC1HWC0)
        dy5 = _to_format(op.dy, ConvFormat.NDC1HWC0)
        conv = Conv3DBackpropFilterOp(
            x5.result,
            dy5.result,
            GmTensorType(
                ConvFormat.FRACTAL_Z_3D, dw_type.get_shape(), dw_type.element_type, groups
            ),
            strides=op.strides.get_values(),
            pads=op.pads.get_values(),
            dilations=op.dilations.get_values(),
            groups=groups,
            tiling=op.tiling,
        )
        _replace_in_format(rewriter, op, [x5, dy5], conv, "f")


class LegalizeConv3DFormats(RewritePattern):
    """Wrap an op-level (forward) conv3d in trans_data to and from the Conv3D API's formats."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv3DOp, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op.result.type, MemRefType):
            return  # already at the format level
        y_type = op.result.type
        groups = op.groups.value.data
        converts = [
            _to_format(op.x, ConvFormat.NDC1HWC0),
            _to_format(op.weight, ConvFormat.FRACTAL_Z_3D, groups),
        ]
        if op.bias is not None:
            converts.append(_to_format(op.bias, ConvFormat.ND))
        conv = Conv3DOp(
            converts[0].result,
            converts[1].result,
            converts[2].result if op.bias is not None else None,
            GmTensorType(ConvFormat.NDC1HWC0, y_type.get_shape(), y_type.element_type),
            strides=op.strides.get_values(),
            pads=op.pads.get_values(),
            dilations=op.dilations.get_values(),
            groups=groups,
            tiling=op.tiling,
        )
        _replace_in_format(rewriter, op, converts, conv, "5")


class LegalizeConv3DInputFormats(RewritePattern):
    """Wrap an op-level conv3d_backprop_input in trans_data to and from the
    Conv3DBackpropInput API's formats."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv3DBackpropInputOp, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op.result.type, MemRefType):
            return  # already at the format level
        dx_type = op.result.type
        groups = op.groups.value.data
        dy5 = _to_format(op.dy, ConvFormat.NDC1HWC0)
        w5 = _to_format(op.weight, ConvFormat.FRACTAL_Z_3D, groups)
        conv = Conv3DBackpropInputOp(
            dy5.result,
            w5.result,
            GmTensorType(ConvFormat.NDC1HWC0, dx_type.get_shape(), dx_type.element_type),
            input_size=op.input_size.get_values(),
            strides=op.strides.get_values(),
            pads=op.pads.get_values(),
            dilations=op.dilations.get_values(),
            groups=groups,
            tiling=op.tiling,
        )
        _replace_in_format(rewriter, op, [dy5, w5], conv, "5")


@dataclass(frozen=True)
class LegalizeFormatsPass(ModulePass):
    """Op level → format level: explicit trans_data around every conv (dW, forward, dX)."""

    name = "ascend-legalize-formats"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [LegalizeConvFormats(), LegalizeConv3DFormats(), LegalizeConv3DInputFormats()]
            ),
            apply_recursively=False,
        ).rewrite_module(op)
