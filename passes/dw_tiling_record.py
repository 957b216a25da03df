"""The tiling record of a block tiling and a core split: the ``DwTiling`` the tiler attaches.

Where it fits. The last step of the heuristic (``dw_tiling_heuristic.py``): the block tiler's
state for one core's GEMM (``api_block_tiler.py``) and the split it belongs to
(``core_split.py``) become the fields of
:class:`~ascend_xdsl.dialects.dw_tiling.DwTiling`, the vendor's ``TConv3DBpFilterTiling``, which
``ascend-tile-conv3d-bp-filter`` attaches to the op and the lowering and the runtime read.

Our conventions. ``single_core_{batch,group,dk,cout,ho,cin}`` are the per-core *shares of the
whole problem* (see ``DwTiling``); the vendor's API instead writes its basic block into them (and
1 into batch/group/dk) because its caller loops over the basic blocks itself. The basic block is
kept in ``single_core_m/n/k``, which is what the vendor's unit tests check. With groups, the
GEMM is that of one enlarged group (``ConvBpFilterShape.group_enlargement``) and ``group`` is
real_g. One deviation from the vendor: when ShrinkBaseBlock has grown baseM so that two L0C
tiles no longer fit, the record has one L0C buffer (the operator tiler's CheckDbL0C rule) where
the vendor keeps cl0Pbuffer = 2; no vendor unit-test tiling is affected.
"""

from __future__ import annotations

from dataclasses import replace

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import FRACTAL, DwTiling
from ascend_xdsl.passes.api_block_tiler import L0_DOUBLE_BUFFER, BlockState
from ascend_xdsl.passes.core_split import CoreSplit
from ascend_xdsl.passes.dw_gemm_view import BufferCapacities


def l0c_buffering(state: BlockState, capacities: BufferCapacities) -> int:
    """The block's L0C buffering: the tiler's, unless its tiles do not fit twice."""
    # L0C holds f32 accumulators, 4 bytes an element.
    if state.base_m * state.base_n * 4 * state.db_l0c > capacities.l0c:
        return 1
    return state.db_l0c


def to_dw_tiling(
    shape: ConvBpFilterShape, state: BlockState, split: CoreSplit, capacities: BufferCapacities
) -> DwTiling:
    """The record of ``shape`` tiled as ``state`` on every core of ``split``."""
    ge = shape.group_enlargement
    c0 = shape.c0
    pads = shape.pads
    tiling = DwTiling(
        batch=shape.batch,
        cin=shape.cin,
        cout=shape.cout,
        cin1_g=ge.cin1_g,
        cout1_g=ge.cout1_g,
        dout=shape.dout,
        ho=shape.ho,
        wo=shape.wo,
        di=shape.di,
        hi=shape.hi,
        wi=shape.wi,
        dk=shape.kd,
        hk=shape.kh,
        wk=shape.kw,
        group=ge.real_g,
        stride_d=shape.strides[0],
        stride_h=shape.strides[1],
        stride_w=shape.strides[2],
        pad_front=pads[0],
        pad_back=pads[1],
        pad_up=pads[2],
        pad_down=pads[3],
        pad_left=pads[4],
        pad_right=pads[5],
        dilation_d=shape.dilations[0],
        dilation_h=shape.dilations[1],
        dilation_w=shape.dilations[2],
        channel_size=c0,
        al0_pbuffer=L0_DOUBLE_BUFFER,
        bl0_pbuffer=L0_DOUBLE_BUFFER,
        cl0_pbuffer=l0c_buffering(state, capacities),
        al1_pbuffer=state.db_l1a,
        bl1_pbuffer=state.db_l1b,
        base_m=state.base_m,
        base_k=state.base_k,
        base_n=state.base_n,
        m0=FRACTAL,
        k0=c0,
        n0=FRACTAL,
        step_m=state.step_m,
        step_n=state.step_n,
        step_ka=state.step_ka,
        step_kb=state.step_kb,
        iterate_order=state.iterate_order,
        bl1_bound=0,  # follows from the fields, below
        hf32_flag=0,
        **split.tiling_fields(c0),
        single_core_m=state.single_core_m,
        single_core_n=state.single_core_n,
        single_core_k=state.single_core_k,
    )
    return replace(tiling, bl1_bound=tiling.required_bl1_bound)
