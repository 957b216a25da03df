"""Our implementation of the vendor's host tiling heuristic for Conv3DBackpropFilter (dW).

What it is. The Ascend C high-level API ships a host-side tiler (DEVKIT
``Conv3dBpFilterTiling``, hicann/asc-devkit
``impl/adv_api/tiling/conv_backprop/conv3d_bp_filter_tiling.cpp``) that picks the L0 base tile,
the L1 steps, the buffering and the basic block of one dW GEMM. The heuristic re-implements it
and extends it the way the CANN operator does (hicann/ops-nn ``conv/conv3d_backprop_filter_v2``)
to groups, to kD fused into N, and to a multi-core split. The
``ascend-tile-conv3d-bp-filter{strategy=heuristic}`` pass calls :func:`heuristic_tiling` and
attaches the resulting :class:`~ascend_xdsl.dialects.dw_tiling.DwTiling` to the op; the lowering
and the runtime read the tiling from there. The vendor facts it relies on are listed in
docs/architecture.md, "Sources".

How it works, one concept per module:

1. ``dw_gemm_view.py``: the problem as the API tiler sees it, one GEMM per enlarged group
   (M = cout1_g·C0, N = kH·kW·cin1_g·C0, K = ⌈Ho·Wo⌉_C0), and the buffer capacities of ``hw``.
2. ``api_block_tiler.py``: the vendor's single-core tiler, run on the whole problem; its
   core-bind direction and basic block bound the split.
3. ``core_split.py``: the multi-core split (``core_num > 1``) chosen by the vendor rule among
   every split (the tiling search takes its starting points from the same enumeration).
4. ``api_block_tiler.py`` again, on one core's share (:func:`split_tiling`), so the L1/L0 blocks
   fit what that core computes; with one core the share is the whole problem.
5. ``dw_tiling_record.py``: the block tiling and the split as a ``DwTiling``.

With ``core_num == 1`` and kD separate the base/step/basic-block fields are exactly those of the
DEVKIT API tiler.
"""

from __future__ import annotations

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.passes.api_block_tiler import TilingError, block_tiling
from ascend_xdsl.passes.core_split import (
    CoreSplit,
    choose_core_split,
    core_gemm_view,
    whole_problem,
)
from ascend_xdsl.passes.dw_gemm_view import BufferCapacities
from ascend_xdsl.passes.dw_tiling_record import to_dw_tiling


def can_fuse_dk(shape: ConvBpFilterShape) -> str | None:
    """Why kD cannot be fused into N for ``shape`` (None: it can).

    The operator fuses unless groups > 1 or dilation_d > 1 (``seperateDk`` in hicann/ops-nn
    ``op_kernel/arch22/conv3d_backprop_filter_v2.h``):
    only then are the kD input depth slices of one output depth consecutive Cin1 rows.
    """
    if shape.groups != 1:
        return f"groups is {shape.groups} (the kD slices of a group are not consecutive rows)"
    if shape.dilations[0] != 1:
        return f"dilation D is {shape.dilations[0]} (the kD slices are not consecutive)"
    return None


def heuristic_tiling(
    shape: ConvBpFilterShape, hw: HwConfig, core_num: int = 1, fuse_dk: bool = False
) -> DwTiling:
    """The vendor-style heuristic tiling of ``shape`` on ``hw`` using at most ``core_num`` cores.

    With ``fuse_dk`` the kD slices are fused into N, as the operator does when it can
    (``can_fuse_dk``): N = kD·kH·kW·Cin1·C0 and no dk driver loop (``DwTiling.fused_dk``);
    otherwise the per-core driver loop iterates the dk slices. Raises :class:`TilingError` for
    an illegal shape or when nothing fits the buffers.
    """
    errs = shape.errors()
    if errs:
        raise TilingError("illegal dW problem: " + "; ".join(errs))
    if core_num < 1:
        raise TilingError(f"core_num must be at least 1, got {core_num}")
    fuse_dk = fuse_dk and shape.kd > 1
    if fuse_dk and (reason := can_fuse_dk(shape)) is not None:
        raise TilingError(f"kD cannot be fused into N: {reason}")
    whole = block_tiling(
        core_gemm_view(shape, whole_problem(shape, fuse_dk)), BufferCapacities.of(hw)
    )
    return split_tiling(shape, choose_core_split(shape, whole, core_num, fuse_dk), hw)


def split_tiling(shape: ConvBpFilterShape, split: CoreSplit, hw: HwConfig) -> DwTiling:
    """The tiling of ``split``: the vendor's block tiling of one core's share of the GEMM.
    Raises :class:`TilingError` when nothing fits."""
    capacities = BufferCapacities.of(hw)
    state = block_tiling(core_gemm_view(shape, split), capacities)
    return to_dw_tiling(shape, state, split, capacities)
