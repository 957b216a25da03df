"""The per-core kernel of the input gradient (dX) at the API level (``Conv3DBackpropInput``),
built by ``convert-conv-to-ascend-api`` (``lowering/convert_conv_to_api.py``) for a tiled,
format-legal ``ascend.conv3d_backprop_input``.

It does what the vendor operator does around the API (``Conv3dDx::Process`` and
``CalSingleCoreShape`` in hicann/ops-nn
``conv/conv3d_backprop_input_v2/op_kernel/arch22/conv3d_backprop_input_v2.h``, NDC1HWC0 dX, no
kernel split):

* the block index splits into (N, M, batch, D, group) core coordinates, N fastest; each axis'
  core count is the whole axis over the tiling's single-core share (:func:`core_dims`), so the
  split comes from the tiling as the forward's does. The vendor's K axis (a Cout split, which
  would need an atomic sum of dX across cores) is not split: ``single_core_cout`` must hold a
  whole enlarged group's Cout;
* M is dX positions (Hi·Wi) in whole rows of Wi: the core's first dX row ``m·singleCoreHi``
  maps to the dy row ``curHoStartIdx = m·singleCoreHi − backprop_pad_up`` of the stride-dilated,
  padded dy (``SetStartPosition``); its first real dy row is ``ceil(curHoStartIdx / strideH)``
  (0 when negative), and a core whose first real row lies past Ho has no work;
* for each enlarged group and batch of its share: ``SetGradOutput`` (dy from that batch, the
  group's first Cout1 block, the first real row), ``SetWeight`` (FRACTAL_Z_3D from the group and
  the core's first Cin1 row), ``SetSingleShape`` (M, K = Cout1·kD·kH·kW·C0 of the group, N = the
  core's Cin share), then per dX depth of the core's D share (an ``scf.for``, clipped at Di)
  ``SetStartPosition(depth, H start)`` and ``while (Iterate) GetTensorC`` into dX from (batch,
  the group's Cin1 block plus the core's, the core's first row); one ``End``. Depth and rotation
  of the weight are the API's business (the D offsets are 0 as in the vendor's
  ``CalcBlockOffset``; the depth goes through ``SetStartPosition``).

One ``Iterate`` series computes one dX depth, as in the public API: hicann/asc-devkit's
three-argument ``SetSingleShape`` sets the single shape's Din to 1 and its ``GetTensorC`` adds
the depth ``SetStartPosition`` gave to the offset
(``impl/adv_api/detail/conv_backprop/conv3d_backprop_input/conv3d_bp_input_func.h``). The ops-nn
operator calls an internal four-argument ``SetSingleShape`` whose one series walks
``singleCoreDin`` depths; where the two disagree this level follows asc-devkit's public API,
which the emitted Ascend C (``emit/input_grad.py``) is built against.

Offsets are element offsets of ``dialects/formats.py``. The vendor's shrinking of the last
M/D share when the backprop pad after exceeds the kernel reach
(``ReCalSingleCoreShapeForOutputPad``) is not reproduced: the single shape is clipped to the
dX extent instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import func, scf
from xdsl.ir import Block, SSAValue

from ascend_xdsl.dialects.api_conv3d_bp_input import (
    Conv3DBpInputCreateOp,
    Conv3DBpInputEndOp,
    Conv3DBpInputGetTensorCOp,
    Conv3DBpInputInitOp,
    Conv3DBpInputIterateOp,
    Conv3DBpInputSetGradOutputOp,
    Conv3DBpInputSetSingleShapeOp,
    Conv3DBpInputSetStartPositionOp,
    Conv3DBpInputSetWeightOp,
)
from ascend_xdsl.dialects.attributes import Conv3DBpInputTilingAttr
from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv_shape import C0, ceil_div
from ascend_xdsl.dialects.formats import (
    fractal_z_3d_block_offset,
    fractal_z_3d_strides,
    ndc1hwc0_block_offset,
    ndc1hwc0_strides,
)
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.dialects.types import Conv3DBpInputType
from ascend_xdsl.lowering.index_arith import (
    IDX_ARITH,
    Idx,
    add,
    and_,
    ceildiv,
    cmp,
    for_loop,
    if_,
    max_,
    min_,
    mul,
    split_index,
    static,
    sub,
    value,
)


@dataclass(frozen=True)
class CoreDims:
    """Cores along each split axis of a dX kernel (hicann/ops-nn's ``nDim``, ``mDim``,
    ``batchDim``, ``dDim``, ``groupDim``), N fastest in the block index."""

    n: int
    m: int
    batch: int
    d: int
    group: int

    @property
    def core_num(self) -> int:
        return self.n * self.m * self.batch * self.d * self.group


def core_dims(t: Conv3DBpInputTiling) -> CoreDims:
    """Each axis over the tiling's single-core share of it."""
    return CoreDims(
        n=ceil_div(t.cin1_g, t.single_core_cin1),
        m=ceil_div(t.hi * t.wi, t.single_core_m),
        batch=ceil_div(t.batch, t.single_core_batch),
        d=ceil_div(t.di, t.single_core_din),
        group=ceil_div(t.group, t.single_core_group),
    )


def kernel_errors(t: Conv3DBpInputTiling) -> list[str]:
    """What the kernel needs of a tiling beyond its own rules (empty if nothing)."""
    errs: list[str] = []
    if t.single_core_cout < t.cout1_g * C0:
        errs.append(
            f"single_core_cout ({t.single_core_cout}) splits an enlarged group's Cout "
            f"({t.cout1_g * C0}): the dX kernel does not split K across cores"
        )
    if t.single_core_m % t.wi:
        errs.append(f"single_core_m ({t.single_core_m}) is not whole rows of Wi ({t.wi})")
    if t.c0 != C0:
        errs.append(f"tiling c0 = {t.c0}, the dX kernel handles C0 = {C0}")
    return errs


def build_conv3d_bp_input_kernel_body(
    kernel: func.FuncOp, t: Conv3DBpInputTiling, obj_type: Conv3DBpInputType
) -> None:
    """Fill ``kernel`` (arguments dy, weight, dX) with the API calls of ``t``."""
    dy, w, dx = kernel.body.block.args
    dims = core_dims(t)
    dy_s = ndc1hwc0_strides((t.batch, t.cout, t.dout, t.ho, t.wo), C0)
    dx_s = ndc1hwc0_strides((t.batch, t.cin, t.di, t.hi, t.wi), C0)
    w_s = fractal_z_3d_strides(t.dk, t.hk, t.wk, t.cin1_g, t.cout1_g, C0)
    single_hi = t.single_core_m // t.wi
    kdhw = t.dk * t.hk * t.wk
    with ImplicitBuilder(kernel.body.block):
        block = GetBlockIdxOp().result
        cn, cm, cb, cd, cg = split_index(block, (dims.n, dims.m, dims.batch, dims.d, dims.group))
        obj = Conv3DBpInputCreateOp(obj_type).result
        Conv3DBpInputInitOp(obj, Conv3DBpInputTilingAttr(t))
        m = min_(t.single_core_m, sub(t.hi * t.wi, mul(cm, t.single_core_m)))
        hi_start = mul(cm, single_hi)
        # The first row in the stride-dilated, padded dy, and the first real dy row at or after
        # it (ceil; a negative row lies in the padding, so real rows start at 0).
        ho_start = sub(hi_start, t.backprop_pad_up)
        real_ho = max_(0, ceildiv(ho_start, t.stride_h))
        din_start = mul(cd, t.single_core_din)
        din = min_(t.single_core_din, sub(t.di, din_start))
        c1_start = mul(cn, t.single_core_cin1)
        work = and_(and_(cmp("sgt", m, 0), cmp("sgt", din, 0)), cmp("slt", real_ho, t.ho))
        with if_(work), for_loop(0, t.single_core_group, name="gi") as gi:
            g = add(mul(cg, t.single_core_group), gi)
            # The last enlarged group may hold fewer channel blocks than cin1_g / cout1_g.
            group_cin = min_(t.cin1_g * C0, sub(t.cin, mul(g, t.cin1_g * C0)))
            n = min_(t.single_core_cin1 * C0, sub(group_cin, mul(c1_start, C0)))
            k = mul(min_(t.cout1_g, sub(t.cout1, mul(g, t.cout1_g))), kdhw * C0)
            active = and_(cmp("slt", g, t.group), cmp("sgt", n, 0))
            with if_(active), for_loop(0, t.single_core_batch, name="bi") as bi:
                nb = add(mul(cb, t.single_core_batch), bi)
                with if_(cmp("slt", nb, t.batch)):
                    ar = IDX_ARITH
                    dy_c1 = mul(g, t.cout1_g)
                    dx_c1 = add(mul(g, t.cin1_g), c1_start)
                    off_dy = ndc1hwc0_block_offset(ar, dy_s, nb, 0, dy_c1, real_ho, 0, 0)
                    off_w = fractal_z_3d_block_offset(ar, w_s, g, 0, c1_start, 0, 0, 0, 0)
                    off_dx = ndc1hwc0_block_offset(ar, dx_s, nb, 0, dx_c1, hi_start, 0, 0)
                    Conv3DBpInputSetGradOutputOp(obj, dy, value(off_dy))
                    Conv3DBpInputSetWeightOp(obj, w, value(off_w))
                    Conv3DBpInputSetSingleShapeOp(obj, value(m), value(k), value(n))
                    _depth_series(obj, dx, value(off_dx), din_start, din, value(ho_start), t)
        Conv3DBpInputEndOp(obj)
        func.ReturnOp()


def _depth_series(
    obj: SSAValue,
    dx: SSAValue,
    off_dx: SSAValue,
    din_start: Idx,
    din: Idx,
    ho_start: SSAValue,
    t: Conv3DBpInputTiling,
) -> None:
    """One ``SetStartPosition`` and ``while (Iterate) GetTensorC`` series per dX depth of the
    core's share ``[din_start, din_start + din)``: asc-devkit's three-argument
    ``SetSingleShape`` sets the single shape's Din to 1, so one series computes the depth
    ``SetStartPosition`` names, and ``GetTensorC`` adds that depth's offset to the tensor it is
    given (``conv3d_bp_input_func.h``, ``dav_v220/conv3d_bp_input_sub_func.h``). The loop
    counts ``dl`` from 0 (the depth is ``din_start + dl``); its trip count is static when the
    shares divide Di (a core with work then has a whole one); a share of one depth is no
    loop."""
    depths: Idx = t.single_core_din if t.di % t.single_core_din == 0 else din
    if static(depths) == 1:
        Conv3DBpInputSetStartPositionOp(obj, value(din_start), ho_start)
        _iterate_loop(obj, dx, off_dx)
        return
    # Counted from 0 (the depth is start + dl), not from the start: cost-only times a loop
    # with a constant lower bound faster (0.70 against 0.85 CPU s on the huge layer).
    with for_loop(0, depths, name="dl") as dl:
        cur_din = value(add(din_start, dl))
        if cur_din is not dl:
            cur_din.name_hint = "curDin"
        Conv3DBpInputSetStartPositionOp(obj, cur_din, ho_start)
        _iterate_loop(obj, dx, off_dx)


def _iterate_loop(obj: SSAValue, dx: SSAValue, off_c: SSAValue) -> None:
    """``while (Iterate()) GetTensorC(dx[off_c])``: the API walks its own tiles."""
    before, after = Block(), Block()
    with ImplicitBuilder(before):
        scf.ConditionOp(Conv3DBpInputIterateOp(obj).more)
    with ImplicitBuilder(after):
        Conv3DBpInputGetTensorCOp(obj, dx, off_c)
        scf.YieldOp()
    scf.WhileOp([], [], [before], [after])
