"""``ascend-tile-conv3d-bp-input``: attach a ``#ascend.conv3d_bp_input_tiling`` to every
format-level ``ascend.conv3d_backprop_input`` (dX; the analogue of ``ascend-tile-conv3d``).

The tiling is the vendor's, reproduced in ``passes/conv3d_bp_input_tiling_heuristic.py``. It
has no target option: the vendor's API tiler uses its own constant buffer sizes and one core
(see there), so the pass checks the result against the target's L0 sizes instead. A conv that
already has a tiling keeps it if it fits the target, and fails the pass with the first rule it
breaks otherwise. A problem the vendor's tiler refuses (groups other than 1) fails the pass with
its reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import Conv3DBpInputTilingAttr
from ascend_xdsl.dialects.op_level import Conv3DBackpropInputOp, shape_of_conv3d_input_op
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.passes.conv3d_bp_input_tiling_heuristic import (
    Conv3DBpInputTilingError,
    tile_conv3d_bp_input,
)
from ascend_xdsl.passes.hardware import load_hw


@dataclass(frozen=True)
class TileConv3DBpInputPass(ModulePass):
    """Attach a ``#ascend.conv3d_bp_input_tiling`` to every format-level dX conv."""

    name = "ascend-tile-conv3d-bp-input"

    hw: str = DEFAULT_HW

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        hw = load_hw(self.hw)
        for conv in [o for o in op.walk() if isinstance(o, Conv3DBackpropInputOp)]:
            if not isinstance(conv.dy.type, GmTensorType):
                raise PassFailedException(
                    "ascend-tile-conv3d-bp-input runs on the format level: run "
                    "ascend-legalize-formats first"
                )
            if conv.tiling is None:
                try:
                    tiling = tile_conv3d_bp_input(shape_of_conv3d_input_op(conv))
                except Conv3DBpInputTilingError as e:
                    raise PassFailedException(str(e)) from None
                conv.properties["tiling"] = Conv3DBpInputTilingAttr(tiling)
            errors = conv.tiling.tiling.errors(hw.l0a_size, hw.l0b_size, hw.l0c_size)
            if errors:
                raise PassFailedException(f"tiling does not fit {hw.name}: {errors[0]}")
