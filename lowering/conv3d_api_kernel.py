"""The per-core kernel of the forward convolution at the API level (``Conv3D``), built by
``convert-conv-to-ascend-api`` (``lowering/convert_conv_to_api.py``) for a tiled
``ascend.conv3d``.

The kernel follows the Conv3D docs' usage (hicann/asc-devkit
``docs/zh/api/SIMD-API/高阶API/卷积计算/Conv3D-Kernel侧接口/Conv3D使用说明.md``): one object,
``Init`` with the tiling, ``SetWeight`` and ``SetBias`` (when there is one), the core's
``SetInputStartPosition`` and ``SetSingleOutputShape``, then for each batch of the core's share
``SetInput``, ``IterateAll`` and ``End`` — the API computes one batch per ``IterateAll`` (docs
``IterateAll``). The block index is split into (batch, Dout, Cout, M) core coordinates, M
fastest: the project's split of ``passes/conv3d_tiling_heuristic.py``. The GM offsets are
element offsets of ``dialects/formats.py``: x from its batch, the weight from the core's first
Cout block inside a FRACTAL_Z_3D row, the bias from the core's first channel, y from the
core's (batch, Dout, Cout block, M position) in NDC1HWC0 (H and W as one axis of M positions,
the API's "M 合轴" output, docs ``SetSingleOutputShape``).
"""

from __future__ import annotations

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import func

from ascend_xdsl.dialects.api_conv3d import (
    Conv3DCreateOp,
    Conv3DEndOp,
    Conv3DInitOp,
    Conv3DIterateAllOp,
    Conv3DSetBiasOp,
    Conv3DSetInputOp,
    Conv3DSetInputStartPositionOp,
    Conv3DSetSingleOutputShapeOp,
    Conv3DSetWeightOp,
)
from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import C0, ceil_div
from ascend_xdsl.dialects.formats import (
    fractal_z_3d_block_offset,
    fractal_z_3d_strides,
    ndc1hwc0_block_offset,
    ndc1hwc0_strides,
)
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.dialects.types import Conv3DApiType
from ascend_xdsl.lowering.index_arith import (
    IDX_ARITH,
    Idx,
    and_,
    cmp,
    floordiv,
    for_loop,
    if_,
    min_,
    mul,
    split_index,
    sub,
    sum_,
    value,
)


def split_block_index(block: Idx, t: Conv3DTiling) -> tuple[Idx, Idx, Idx, Idx]:
    """Block index → (batch, Dout, Cout, M) core coordinates, M fastest."""
    m, co, do, batch = split_index(block, (t.m_dim, t.co_dim, t.do_dim, t.batch_dim))
    return batch, do, co, m


def build_conv3d_kernel_body(kernel: func.FuncOp, t: Conv3DTiling, obj_type: Conv3DApiType) -> None:
    """Fill ``kernel`` (arguments x, weight, [bias,] y) with the API calls of ``t``."""
    args = kernel.body.block.args
    x, w, y = args[0], args[1], args[-1]
    bias = args[2] if obj_type.has_bias else None
    m_whole = t.org_ho * t.org_wo
    cin_g = t.org_ci // t.groups
    x_s = ndc1hwc0_strides((t.batch, t.org_ci, t.org_di, t.org_hi, t.org_wi), C0)
    y_s = ndc1hwc0_strides((t.batch, t.org_co, t.org_do, t.org_ho, t.org_wo), C0)
    cout1 = ceil_div(t.org_co, C0)
    w_s = fractal_z_3d_strides(t.kernel_d, t.kernel_h, t.kernel_w, ceil_div(cin_g, C0), cout1, C0)
    batch_share = ceil_div(t.batch, t.batch_dim)
    with ImplicitBuilder(kernel.body.block):
        block = GetBlockIdxOp().result
        cb, cd, cc, cm = split_block_index(block, t)
        obj = Conv3DCreateOp(obj_type).result
        Conv3DInitOp(obj, Conv3DTilingAttr(t))
        co_start = mul(cc, t.single_core_co)
        do_start = mul(cd, t.single_core_do)
        m_start = mul(cm, t.single_core_m)
        co = min_(t.single_core_co, sub(t.org_co, co_start))
        do = min_(t.single_core_do, sub(t.org_do, do_start))
        m = min_(t.single_core_m, sub(m_whole, m_start))
        work = and_(and_(cmp("sgt", co, 0), cmp("sgt", do, 0)), cmp("sgt", m, 0))
        with if_(work):
            co1_start = floordiv(co_start, C0)
            off_w = fractal_z_3d_block_offset(IDX_ARITH, w_s, 0, 0, 0, 0, 0, co_start, 0)
            Conv3DSetWeightOp(obj, w, value(off_w))
            if bias is not None:
                Conv3DSetBiasOp(obj, bias, value(co_start))
            di_start = sub(mul(do_start, t.stride_d), t.pad_head)
            Conv3DSetInputStartPositionOp(obj, value(di_start), value(m_start))
            Conv3DSetSingleOutputShapeOp(obj, value(co), value(do), value(m))
            with for_loop(0, batch_share, name="bi") as bi:
                n = sum_(mul(cb, batch_share), bi)
                with if_(cmp("slt", n, t.batch)):
                    off_x = ndc1hwc0_block_offset(IDX_ARITH, x_s, n, 0, 0, 0, 0, 0)
                    # M positions run over (h, w) rows: w = m_start with the W stride.
                    off_y = ndc1hwc0_block_offset(
                        IDX_ARITH, y_s, n, do_start, co1_start, 0, m_start, 0
                    )
                    Conv3DSetInputOp(obj, x, value(off_x))
                    Conv3DIterateAllOp(obj, y, value(off_y))
                    Conv3DEndOp(obj)
        func.ReturnOp()
