"""``ascend-tile-conv3d``: attach a ``#ascend.conv3d_tiling`` to every format-level forward
``ascend.conv3d`` (the analogue for the forward op of ``ascend-tile-conv3d-bp-filter``).

The tiling is the heuristic of ``passes/conv3d_tiling_heuristic.py`` (the vendor's L0 tiler
and the project's core split) for the target ``hw`` and ``cores`` cores (0: all of the
target's). A conv that already has a tiling keeps it if it fits the target (``fixed`` use: a
hand-written tiling), and fails the pass with the first rule it breaks otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.op_level import Conv3DOp, shape_of_conv3d_op
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.passes.conv3d_tiling_heuristic import conv3d_tiling
from ascend_xdsl.passes.hardware import cores_error, load_hw


@dataclass(frozen=True)
class TileConv3DPass(ModulePass):
    """Attach a ``#ascend.conv3d_tiling`` to every format-level forward conv."""

    name = "ascend-tile-conv3d"

    hw: str = DEFAULT_HW
    cores: int = 0

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        hw = load_hw(self.hw)
        cores = self.cores or hw.aic_count
        if (error := cores_error(cores, hw)) is not None:
            raise PassFailedException(error)
        for conv in [o for o in op.walk() if isinstance(o, Conv3DOp)]:
            if not isinstance(conv.x.type, GmTensorType):
                raise PassFailedException(
                    "ascend-tile-conv3d runs on the format level: run ascend-legalize-formats first"
                )
            if conv.tiling is not None:
                t = conv.tiling.tiling
                errors = t.errors(hw.l0a_size, hw.l0b_size, hw.l0c_size)
                used = t.batch_dim * t.do_dim * t.co_dim * t.m_dim
                if not errors and used > cores:
                    errors = [f"tiling uses {used} cores, more than {cores}"]
                if errors:
                    raise PassFailedException(f"tiling does not fit {hw.name}: {errors[0]}")
                continue
            problem = shape_of_conv3d_op(conv)
            tiling = conv3d_tiling(problem, hw, cores, has_bias=conv.bias is not None)
            conv.properties["tiling"] = Conv3DTilingAttr(tiling)
