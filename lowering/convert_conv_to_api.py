"""``convert-conv-to-ascend-api``: format level → API level (the per-core dW kernel).

A tiled ``ascend.conv3d_backprop_filter`` on formatted GM tensors becomes what a CANN operator
does around the Ascend C API (``Conv3dDw::Process`` in hicann/ops-nn
``conv/conv3d_backprop_filter_v2/op_kernel/arch22/conv3d_backprop_filter_v2.h``, separate-Dk
mode):

* on the host, ``ascend.alloc_gm`` a zeroed FRACTAL_Z_3D dW and ``ascend.launch`` the kernel on
  ``tiling.core_num`` cores;
* a kernel ``func.func @<name>_kernel(x, dy, dw)`` that splits its block index into
  (group, dk, batch·dout, M, N, K) core coordinates (K fastest), and for each (group,
  batch·dout, dk) of its share computes the clipped GEMM shape M×N×K and the GM offsets, then
  calls ``set_grad_output`` / ``set_input`` / ``set_single_shape`` / ``set_start_position`` and
  ``while (iterate) get_tensor_c(atomic)`` on one ``Conv3DBackpropFilter`` object.

The GEMM of one single shape (hicann/asc-devkit ``conv3d_bp_filter_tiling.cpp``,
``SetBasicBlockAttrsTiling``; the img2col column order of asc-devkit docs ``LoadData_3D.md``):
M = Cout (rows of dy), K = Ho·Wo positions of this core's Ho rows, N = (c1, kh, kw, c0) columns
of img2col(x). Depth is not fused into N: the kd loop is a driver loop, and a depth window that
falls into the padding is skipped. Groups are computed per *enlarged* group (hicann/asc-devkit
``Conv3dBpFilterTilingBase::ShapeInitCalc``; hicann/ops-nn
``conv_backprop_filter_context_utils.cpp``); the off-diagonal blocks land in the part of
FRACTAL_Z_3D that the conversion back to NCDHW ignores, exactly as in the vendor op.

The forward conv (``Conv3DToApi``, kernel in ``lowering/conv3d_api_kernel.py``) and the input
gradient (``Conv3DBpInputToApi``, kernel in ``lowering/conv3d_bp_input_api_kernel.py``) are
lowered the same way around their own APIs, with one difference on the host: their kernels
write every element of y and dX once (no atomic add), so the host allocates them uninitialised
(``ascend.empty_gm``: no MemSet kernel before the launch).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import builtin, func, scf
from xdsl.dialects.builtin import DictionaryAttr, UnitAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.api_level import (
    CreateOp,
    EndOp,
    GetTensorCOp,
    InitOp,
    IterateOp,
    SetGradOutputOp,
    SetInputOp,
    SetSingleShapeOp,
    SetStartPositionOp,
)
from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.conv_shape import C0, ceil_div
from ascend_xdsl.dialects.dw_tiling import (
    DwTiling,
)
from ascend_xdsl.dialects.dw_tiling_offsets import (
    grad_output_strides,
    input_start_row,
    input_strides,
    weight_strides,
)
from ascend_xdsl.dialects.formats import fractal_z_3d_block_offset, ndc1hwc0_block_offset
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.dialects.launch import (
    CONV_ATTR,
    FORWARD_CONV_ATTR,
    INPUT_GRAD_CONV_ATTR,
    AllocGmOp,
    EmptyGmOp,
    LaunchOp,
)
from ascend_xdsl.dialects.op_level import (
    Conv3DBackpropFilterOp,
    Conv3DBackpropInputOp,
    Conv3DOp,
    pads6_attr,
)
from ascend_xdsl.dialects.types import (
    Conv3DApiType,
    Conv3DBpFilterType,
    Conv3DBpInputType,
    GmTensorType,
)
from ascend_xdsl.lowering.conv3d_api_kernel import build_conv3d_kernel_body
from ascend_xdsl.lowering.conv3d_bp_input_api_kernel import (
    build_conv3d_bp_input_kernel_body,
    core_dims,
    kernel_errors,
)
from ascend_xdsl.lowering.index_arith import (
    IDX_ARITH,
    Idx,
    add,
    and_,
    cmp,
    floordiv,
    for_loop,
    if_,
    max_,
    min_,
    mul,
    rem,
    split_index,
    sub,
    sum_,
    value,
)


@dataclass(frozen=True)
class CoreCoordinates:
    """Where one core's share starts on each split axis (in units of that axis' shares)."""

    k: Idx
    n: Idx
    m: Idx
    batch: Idx
    dk: Idx
    group: Idx


def split_block_index(block: Idx, t: DwTiling) -> CoreCoordinates:
    """Block index → core coordinates, K fastest (hicann/ops-nn ``Conv3dDw::Process``,
    ``op_kernel/arch22/conv3d_backprop_filter_v2.h``)."""
    dims = (t.k_dim, t.n_dim, t.m_dim, t.batch_dim, t.dk_dim, t.group_dim)
    return CoreCoordinates(*split_index(block, dims))


def build_kernel_body(kernel: func.FuncOp, t: DwTiling, obj_type: Conv3DBpFilterType) -> None:
    x, dy, dw = kernel.body.block.args
    c1_in, c1_out = ceil_div(t.cin, C0), ceil_div(t.cout, C0)
    hwk = t.hk * t.wk
    with ImplicitBuilder(kernel.body.block):
        block = GetBlockIdxOp().result
        core = split_block_index(block, t)
        obj = CreateOp(obj_type).result
        InitOp(obj, DwTilingAttr(t))
        m_start = mul(core.m, t.single_core_cout)
        n_start = mul(core.n, t.single_core_cin)
        ho_start = mul(core.k, t.single_core_ho)
        k_rows = min_(t.single_core_ho, sub(t.ho, ho_start))
        hi_start = input_start_row(IDX_ARITH, t, ho_start)
        with for_loop(0, t.single_core_group, name="gi") as gi:
            g = add(mul(core.group, t.single_core_group), gi)
            # The last enlarged group may hold fewer channel blocks than cin1_g / cout1_g.
            group_cout = mul(min_(t.cout1_g, sub(c1_out, mul(g, t.cout1_g))), C0)
            group_cin = mul(min_(t.cin1_g, sub(c1_in, mul(g, t.cin1_g))), C0)
            if t.fused_dk:
                group_cin = mul(group_cin, t.dk)  # N rows run over (kd, c1)
            m = min_(t.single_core_cout, sub(group_cout, m_start))
            n = mul(min_(t.single_core_cin, sub(group_cin, n_start)), hwk)
            k = mul(k_rows, t.wo)
            work = and_(and_(cmp("slt", g, t.group), cmp("sgt", m, 0)), cmp("sgt", n, 0))
            with if_(and_(work, cmp("sgt", k, 0))):
                single_shapes = _fused_single_shapes if t.fused_dk else _single_shapes
                single_shapes(
                    t,
                    core,
                    obj,
                    (x, dy, dw),
                    g,
                    (m, n, k),
                    (m_start, n_start),
                    (ho_start, hi_start),
                )
        EndOp(obj)
        func.ReturnOp()


def _single_shapes(
    t: DwTiling,
    core: CoreCoordinates,
    obj: SSAValue,
    tensors: tuple[SSAValue, SSAValue, SSAValue],
    g: Idx,
    mnk: tuple[Idx, Idx, Idx],
    mn_start: tuple[Idx, Idx],
    rows_start: tuple[Idx, Idx],
) -> None:
    """The (batch·dout, dk) driver loops of one group, each calling the API once."""
    m_start, n_start = mn_start
    batch_dout = t.batch * t.dout
    with for_loop(0, t.single_core_batch, name="bdi") as bdi:
        bd = add(mul(core.batch, t.single_core_batch), bdi)
        with if_(cmp("slt", bd, batch_dout)):
            nb, do = floordiv(bd, t.dout), rem(bd, t.dout)
            with for_loop(0, t.single_core_dk, name="dki") as dki:
                kd = add(mul(core.dk, t.single_core_dk), dki)
                din = sum_(mul(do, t.stride_d), -t.pad_front, mul(kd, t.dilation_d))
                inside = and_(cmp("sge", din, 0), cmp("slt", din, t.di))
                with if_(and_(cmp("slt", kd, t.dk), inside)):
                    # Enlarged group g holds the C1 blocks [g·cout1_g, ...) of dy and
                    # [g·cin1_g, ...) of x (group_enlargement makes them C0-aligned).
                    c1_n = floordiv(n_start, C0)
                    _single_shape(
                        t,
                        obj,
                        tensors,
                        Origin(
                            batch=nb,
                            dout=do,
                            dy_c1=add(mul(g, t.cout1_g), floordiv(m_start, C0)),
                            din=din,
                            x_c1=add(mul(g, t.cin1_g), c1_n),
                            group=g,
                            kd=kd,
                            dw_c1=c1_n,
                        ),
                        mnk,
                        m_start,
                        rows_start,
                    )


def _fused_single_shapes(
    t: DwTiling,
    core: CoreCoordinates,
    obj: SSAValue,
    tensors: tuple[SSAValue, SSAValue, SSAValue],
    g: Idx,
    mnk: tuple[Idx, Idx, Idx],
    mn_start: tuple[Idx, Idx],
    rows_start: tuple[Idx, Idx],
) -> None:
    """The batch·dout driver loop with kD fused into N (groups 1, dilation_d 1).

    The kD input depth slices of output depth ``do`` are the consecutive NDC1HWC0 planes
    ``din0 + kd``, so their Cin1 rows form one N axis of (kd, c1) rows, and so do the
    FRACTAL_Z_3D rows of dW. A depth window that reaches into the padding just has fewer rows:
    the single shape starts at the first row inside the input and ends at the last, as the
    depth-padding branch of hicann/ops-nn ``Conv3dDw::Process``
    (``op_kernel/arch22/conv3d_backprop_filter_v2.h``) shrinks N.
    """
    m, _, k = mnk
    m_start, n_start = mn_start
    hwk = t.hk * t.wk
    first_row = floordiv(n_start, C0)
    with for_loop(0, t.single_core_batch, name="bdi") as bdi:
        bd = add(mul(core.batch, t.single_core_batch), bdi)
        with if_(cmp("slt", bd, t.batch * t.dout)):
            nb, do = floordiv(bd, t.dout), rem(bd, t.dout)
            din0 = sub(mul(do, t.stride_d), t.pad_front)
            kd_lo = max_(0, sub(0, din0))
            kd_hi = min_(t.dk, sub(t.di, din0))
            lo = max_(first_row, mul(kd_lo, t.cin1_g))
            hi = min_(add(first_row, t.single_core_cin // C0), mul(kd_hi, t.cin1_g))
            with if_(cmp("sgt", hi, lo)):
                n = mul(sub(hi, lo), hwk * C0)
                # Row r of N is depth din0 + r // cin1_g, Cin1 block r % cin1_g of x (groups 1:
                # C1 = cin1_g) and FRACTAL_Z_3D row (kd, c1) = (r // cin1_g, r % cin1_g): the
                # linear offsets take r as a C1 index that runs on into the next depths.
                origin = Origin(
                    batch=nb,
                    dout=do,
                    dy_c1=floordiv(m_start, C0),
                    din=din0,
                    x_c1=lo,
                    group=0,
                    kd=0,
                    dw_c1=lo,
                )
                _single_shape(t, obj, tensors, origin, (m, n, k), m_start, rows_start)


@dataclass(frozen=True)
class Origin:
    """Where one single shape starts in each GM tensor, in storage coordinates."""

    batch: Idx
    dout: Idx
    dy_c1: Idx
    """dy's C1 block of the first M row."""
    din: Idx
    x_c1: Idx
    """x's C1 block of the first N row."""
    group: Idx
    kd: Idx
    dw_c1: Idx
    """dW's Cin1 row inside the enlarged group ``group``."""


def _single_shape(
    t: DwTiling,
    obj: SSAValue,
    tensors: tuple[SSAValue, SSAValue, SSAValue],
    origin: Origin,
    mnk: tuple[Idx, Idx, Idx],
    m_start: Idx,
    rows_start: tuple[Idx, Idx],
) -> None:
    """The API calls of one single shape: dy and x from the first needed row of their NDC1HWC0
    C1 block planes, dW from its FRACTAL_Z_3D row (the GM offsets of hicann/ops-nn
    ``op_kernel/arch22/conv3d_backprop_filter_v2.h``), with the offsets of
    ``dialects/formats.py``."""
    x, dy, dw = tensors
    o = origin
    m, n, k = mnk
    ho_start, hi_start = rows_start
    ar = IDX_ARITH
    dy_s, x_s, dw_s = grad_output_strides(t), input_strides(t), weight_strides(t)
    off_dy = ndc1hwc0_block_offset(ar, dy_s, o.batch, o.dout, o.dy_c1, ho_start, 0, 0)
    off_x = ndc1hwc0_block_offset(ar, x_s, o.batch, o.din, o.x_c1, hi_start, 0, 0)
    off_c = fractal_z_3d_block_offset(ar, dw_s, o.group, o.kd, o.dw_c1, 0, 0, m_start, 0)
    SetGradOutputOp(obj, dy, value(off_dy))
    SetInputOp(obj, x, value(off_x))
    SetSingleShapeOp(obj, value(m), value(n), value(k))
    SetStartPositionOp(obj, value(ho_start))
    _iterate_loop(obj, dw, value(off_c))


def _iterate_loop(obj: SSAValue, dw: SSAValue, off_c: SSAValue) -> None:
    before, after = Block(), Block()
    with ImplicitBuilder(before):
        scf.ConditionOp(IterateOp(obj).more)
    with ImplicitBuilder(after):
        GetTensorCOp(obj, dw, off_c, atomic=True)
        scf.YieldOp()
    scf.WhileOp([], [], [before], [after])


class ConvToApi(RewritePattern):
    def __init__(self, module: builtin.ModuleOp):
        self.module = module

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv3DBackpropFilterOp, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op.x.type, GmTensorType):
            raise PassFailedException(
                "convert-conv-to-ascend-api needs the format level: run ascend-legalize-formats"
            )
        if op.tiling is None:
            raise PassFailedException(
                "convert-conv-to-ascend-api needs a tiling: run ascend-tile-conv3d-bp-filter"
            )
        t = op.tiling.tiling
        host = op.parent_op()
        while host is not None and not isinstance(host, func.FuncOp):
            host = host.parent_op()
        base = host.sym_name.data if isinstance(host, func.FuncOp) else "conv3d_bp_filter"
        name = _fresh_symbol(self.module, f"{base}_kernel")
        arg_types = [op.x.type, op.dy.type, op.result.type]
        kernel = func.FuncOp(name, (arg_types, []))
        kernel.attributes["ascend.kernel"] = UnitAttr()
        obj_type = Conv3DBpFilterType.for_element_type(op.x.type.element_type)
        build_kernel_body(kernel, t, obj_type)
        anchor = host if isinstance(host, func.FuncOp) else op
        rewriter.insert(kernel, InsertPoint.after(anchor))
        dw = AllocGmOp(op.result.type)
        launch = LaunchOp(name, t.core_num, [op.x, op.dy, dw.result])
        # Provenance for tools that check a lowered program against the formula (ascend-run
        # --check): the convolution attributes the kernel was compiled for.
        launch.attributes[CONV_ATTR] = DictionaryAttr(
            {
                "strides": op.strides,
                "pads": pads6_attr(op.pads),
                "dilations": op.dilations,
                "groups": op.groups,
            }
        )
        rewriter.replace(op, [dw, launch], [dw.result])


class Conv3DToApi(RewritePattern):
    """The forward conv: a kernel launch on ``batch_dim·do_dim·co_dim·m_dim`` cores writing a
    y allocated on the host (``lowering/conv3d_api_kernel.py`` builds the kernel)."""

    def __init__(self, module: builtin.ModuleOp):
        self.module = module

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv3DOp, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op.x.type, GmTensorType):
            raise PassFailedException(
                "convert-conv-to-ascend-api needs the format level: run ascend-legalize-formats"
            )
        if op.tiling is None:
            raise PassFailedException(
                "convert-conv-to-ascend-api needs a tiling on ascend.conv3d: run ascend-tile-conv3d"
            )
        t = op.tiling.tiling
        host = _host_function(op)
        base = host.sym_name.data if host is not None else "conv3d"
        name = _fresh_symbol(self.module, f"{base}_kernel")
        operands = [op.x, op.weight, *([op.bias] if op.bias is not None else [])]
        kernel = func.FuncOp(name, ([*(v.type for v in operands), op.result.type], []))
        kernel.attributes["ascend.kernel"] = UnitAttr()
        obj_type = Conv3DApiType.for_element_type(op.x.type.element_type, op.bias is not None)
        build_conv3d_kernel_body(kernel, t, obj_type)
        rewriter.insert(kernel, InsertPoint.after(host if host is not None else op))
        # The kernel's IterateAll writes every element of y: no zeroing (no MemSet kernel).
        y = EmptyGmOp(op.result.type)
        cores = t.batch_dim * t.do_dim * t.co_dim * t.m_dim
        launch = LaunchOp(name, cores, [*operands, y.result])
        # Provenance for ascend-run --check, under a name of its own: ascend.conv describes a
        # dW launch (x, dy, dW) and its verifier reads it so.
        launch.attributes[FORWARD_CONV_ATTR] = DictionaryAttr(
            {
                "strides": op.strides,
                "pads": pads6_attr(op.pads),
                "dilations": op.dilations,
                "groups": op.groups,
            }
        )
        rewriter.replace(op, [y, launch], [y.result])


class Conv3DBpInputToApi(RewritePattern):
    """The input gradient (dX): a kernel launch on the tiling's core split writing a dX
    allocated on the host (``lowering/conv3d_bp_input_api_kernel.py`` builds the kernel)."""

    def __init__(self, module: builtin.ModuleOp):
        self.module = module

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Conv3DBackpropInputOp, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op.dy.type, GmTensorType):
            raise PassFailedException(
                "convert-conv-to-ascend-api needs the format level: run ascend-legalize-formats"
            )
        if op.tiling is None:
            raise PassFailedException(
                "convert-conv-to-ascend-api needs a tiling on ascend.conv3d_backprop_input: run "
                "ascend-tile-conv3d-bp-input"
            )
        t = op.tiling.tiling
        errors = kernel_errors(t)
        if errors:
            raise PassFailedException(f"convert-conv-to-ascend-api: {errors[0]}")
        host = _host_function(op)
        base = host.sym_name.data if host is not None else "conv3d_bp_input"
        name = _fresh_symbol(self.module, f"{base}_kernel")
        operands = [op.dy, op.weight]
        kernel = func.FuncOp(name, ([op.dy.type, op.weight.type, op.result.type], []))
        kernel.attributes["ascend.kernel"] = UnitAttr()
        obj_type = Conv3DBpInputType.for_element_type(op.dy.type.element_type)
        build_conv3d_bp_input_kernel_body(kernel, t, obj_type)
        rewriter.insert(kernel, InsertPoint.after(host if host is not None else op))
        # The kernel writes every element of dX once (no atomic add): no zeroing.
        dx = EmptyGmOp(op.result.type)
        launch = LaunchOp(name, core_dims(t).core_num, [*operands, dx.result])
        # Provenance for ascend-run --check, under a name of its own (ascend.conv describes a
        # dW launch: x, dy, dW).
        launch.attributes[INPUT_GRAD_CONV_ATTR] = DictionaryAttr(
            {
                "strides": op.strides,
                "pads": pads6_attr(op.pads),
                "dilations": op.dilations,
                "groups": op.groups,
            }
        )
        rewriter.replace(op, [dx, launch], [dx.result])


def _host_function(op: Operation) -> func.FuncOp | None:
    host = op.parent_op()
    while host is not None and not isinstance(host, func.FuncOp):
        host = host.parent_op()
    return host


def _fresh_symbol(module: builtin.ModuleOp, name: str) -> str:
    taken = {o.sym_name.data for o in module.ops if isinstance(o, func.FuncOp)}
    candidate, i = name, 0
    while candidate in taken:
        i += 1
        candidate = f"{name}_{i}"
    return candidate


@dataclass(frozen=True)
class ConvertConvToAscendApiPass(ModulePass):
    """Replace each tiled format-level conv (dW, forward or dX) by a kernel launch written against
    its API."""

    name = "convert-conv-to-ascend-api"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([ConvToApi(op), Conv3DToApi(op), Conv3DBpInputToApi(op)]),
            apply_recursively=False,
        ).rewrite_module(op)
