"""``ascend-tile-conv3d-bp-input``: attach a ``#ascend.conv3d_bp_input_tiling`` to every
format-level ``ascend.conv3d_backprop_input`` (dX; the analogue of ``ascend-tile-conv3d``).

The tiling is the vendor's, reproduced in ``passes/conv3d_bp_input_tiling_heuristic.py``. It
has no target option: the vendor's API tiler uses its own constant buffer sizes and one core
(see there), so the pass checks the result against the target's L0 sizes instead. A conv that
already has a tiling keeps it if it fits the target, and fails the pass with the first rule it
breaks otherwise. A problem the vendor's tiler refuses (groups other than 1) fails the pass with
its reason.

``cores`` caps the kernel's core count (the forward tiler's option; None: the vendor's split of
one batch and one dX depth a core): :func:`fit_cores` merges the single-core shares, batch
first, then D, M (whole rows) and N, until the split fits. ``cores=1`` gives one core the whole
problem, which the tests compare with the vendor's split.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import Conv3DBpInputTilingAttr
from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv_shape import C0, ceil_div
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
    cores: int | None = None
    """The most cores the kernel may use (None: the vendor's split)."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if self.cores is not None and self.cores < 1:
            raise PassFailedException(f"cores must be at least 1, got {self.cores}")
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
                if self.cores is not None:
                    tiling = fit_cores(tiling, self.cores)
                conv.properties["tiling"] = Conv3DBpInputTilingAttr(tiling)
            errors = conv.tiling.tiling.errors(hw.l0a_size, hw.l0b_size, hw.l0c_size)
            if errors:
                raise PassFailedException(f"tiling does not fit {hw.name}: {errors[0]}")


def _split(t: Conv3DBpInputTiling) -> list[int]:
    """Cores along batch, D, M and N (the group axis is one share: single_core_group is
    the whole of the vendor's one group)."""
    return [
        ceil_div(t.batch, t.single_core_batch),
        ceil_div(t.di, t.single_core_din),
        ceil_div(t.hi * t.wi, t.single_core_m),
        ceil_div(t.cin1_g, t.single_core_cin1),
    ]


def fit_cores(t: Conv3DBpInputTiling, cores: int) -> Conv3DBpInputTiling:
    """``t`` with its single-core shares merged, batch first, then D, M and N, until the
    kernel's (batch × D × M × N) core split is at most ``cores``."""
    for axis in range(4):
        split = _split(t)
        total = split[0] * split[1] * split[2] * split[3]
        if total <= cores:
            break
        allowed = max(1, cores // (total // split[axis]))
        if axis == 0:
            t = replace(t, single_core_batch=ceil_div(t.batch, allowed))
        elif axis == 1:
            t = replace(t, single_core_din=ceil_div(t.di, allowed))
        elif axis == 2:
            t = replace(t, single_core_m=ceil_div(t.hi, allowed) * t.wi)
        else:
            cin1 = ceil_div(t.cin1_g, allowed)
            t = replace(t, single_core_cin1=cin1, single_core_cin=cin1 * C0)
    return t
