"""Our implementation of the vendor's host tiler for the forward Conv3D API: its L0 part.

The Ascend C Conv3D API's host tiler (DEVKIT ``Conv3dTilingAlgorithm``, hicann/asc-devkit
``impl/adv_api/tiling/conv/conv3d_tiling_algorithm.cpp``, with the helpers of
``conv3d_tiling_util.cpp``) picks the ping-pong buffering (``InitPingPong``), the mL0/nL0 tile
(``GetL0TilingRange``, ``L0TilingDecision``, ``CheckL0CDoubleBuffer``), then the L1 tiling and
kL0 (``GetL1Tiling``). This module reproduces the first three step by step. The L1 tiling is not
reproduced: kL0 is chosen by ``GetKL0TilingDecision``'s rule (the largest common factor of the
K loops that fits L0A and L0B) with the whole K of one GEMM as the L1 depth, which is the L1
tiling's full-load case.

The multi-core split (``conv3d_tiling``) is the project's own: whole batches first, then Dout,
then Cout in C0 blocks (groups 1 only), then M in 16-row blocks, each cut so that no core is
idle; the API only ever sees one core's single shape (``SetSingleOutputShape``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ascend_xdsl.dialects.conv3d_tiling import INPUT_ELEMENT_BYTES, L0C_ELEMENT_BYTES, Conv3DTiling
from ascend_xdsl.dialects.conv_shape import FRACTAL, ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.hw import HwConfig

DOUBLE_BUFFER = 2
M0 = N0 = K0 = FRACTAL


def comm_factors(num: int, num_max: int) -> list[int]:
    """The factors of ``num`` up to ``num_max``, ascending (``CalcCommFactor``)."""
    found = set()
    for i in range(1, math.isqrt(num) + 1):
        if num % i == 0:
            found.update(f for f in (i, num // i) if f <= num_max)
    return sorted(found)


def comm_factors_with_powers_of_two(num: int, num_max: int) -> list[int]:
    """:func:`comm_factors` plus every power of two from 2 up to min(num, num_max)
    (``CalcCommFactorWithPowerOfTwo``): a prime ``num`` still gets several tile sizes."""
    found = set(comm_factors(num, num_max))
    p = 2
    while p <= min(num, num_max):
        found.add(p)
        p *= 2
    return sorted(found)


@dataclass(frozen=True)
class L0Inputs:
    """What the L0 decision reads of the problem and of one core's share."""

    hi: int
    wi: int
    wo: int
    kh: int
    stride_h: int
    dilation_h: int
    single_co1: int
    single_m: int
    has_bias: bool
    bias_bytes: int
    l1: int
    l0a: int
    l0b: int
    l0c: int
    bias_table: int


@dataclass
class PingPong:
    al1: int
    bl1: int
    al0: int
    bl0: int
    cl0: int

    @property
    def flag(self) -> int:
        """``SetPBufferFlag``: bits BL1, AL1, CL0, BL0, AL0 from high to low."""
        flag = 0
        for pb in (self.bl1, self.al1, self.cl0, self.bl0, self.al0):
            flag = flag << 1 | (1 if pb == DOUBLE_BUFFER else 0)
        return flag


def infer_hi_l1(ho_l1: int, p: L0Inputs) -> int:
    """Input rows that ``ho_l1`` output rows read, capped at Hi (``InferHiL1``)."""
    kh_dilated = (p.kh - 1) * p.dilation_h + 1
    return min((ho_l1 - 1) * p.stride_h + kh_dilated, p.hi)


def l1_size_for_l0(m_l0: int, n_l0: int, p: L0Inputs, pb: PingPong) -> int:
    """The L1 an mL0 × nL0 tile needs at least (``CalcL1SizeForL0Tiling``): the input rows of
    mL0 positions plus two rows, one C0 deep, and the bias of nL0 channels."""
    hi_l1 = infer_hi_l1(m_l0 // p.wo + 2, p)
    used = hi_l1 * p.wi * K0 * INPUT_ELEMENT_BYTES * pb.al1
    return used + (n_l0 * p.bias_bytes if p.has_bias else 0)


def init_ping_pong(p: L0Inputs) -> PingPong:
    """``InitPingPong``: L0A/L0B double-buffered, L0C single, AL1 double when its minimum fits."""
    pb = PingPong(al1=DOUBLE_BUFFER, bl1=1, al0=DOUBLE_BUFFER, bl0=DOUBLE_BUFFER, cl0=1)
    if l1_size_for_l0(M0, N0, p, pb) > p.l1:
        pb.al1 = 1
    return pb


def l0_ranges(p: L0Inputs, pb: PingPong) -> tuple[list[int], list[int]]:
    """``GetL0TilingRange``: the candidate mL0 and nL0 (elements), ascending."""
    n_max = min(
        p.l0b // (K0 * pb.bl0 * INPUT_ELEMENT_BYTES), p.l0c // (M0 * pb.cl0 * L0C_ELEMENT_BYTES)
    )
    m_max = min(
        p.l0a // (K0 * pb.al0 * INPUT_ELEMENT_BYTES), p.l0c // (N0 * pb.cl0 * L0C_ELEMENT_BYTES)
    )
    n_range = [f * N0 for f in comm_factors_with_powers_of_two(p.single_co1, n_max // N0)]
    m_range = [
        f * M0 for f in comm_factors_with_powers_of_two(ceil_div(p.single_m, M0), m_max // M0)
    ]
    return m_range, n_range


def _fits_l0(m: int, k: int, n: int, p: L0Inputs, pb: PingPong) -> bool:
    """``CheckL0Buffer``."""
    return (
        m * k * pb.al0 * INPUT_ELEMENT_BYTES <= p.l0a
        and k * n * pb.bl0 * INPUT_ELEMENT_BYTES <= p.l0b
        and m * n * pb.cl0 * L0C_ELEMENT_BYTES <= p.l0c
    )


def l0_decision(p: L0Inputs, pb: PingPong) -> tuple[int, int]:
    """``L0TilingDecision``: grow mL0 and nL0 alternately (the smaller one, M on a tie or once
    N is at its end) while the tile fits L0, L1 and the bias table, then step back once on the
    axis that grew last. Returns (mL0, nL0)."""
    m_range, n_range = l0_ranges(p, pb)
    mi = ni = 0
    k = K0
    m, n = m_range[0], n_range[0]
    grow_m = False

    def fits(m: int, n: int) -> bool:
        bias = n * p.bias_bytes if p.has_bias else 0
        return (
            _fits_l0(m, k, n, p, pb) and l1_size_for_l0(m, n, p, pb) <= p.l1
        ) and bias <= p.bias_table

    ok = fits(m, n)
    while ok:
        grow_m = m <= n or ni == len(n_range) - 1
        if grow_m:
            mi += 1
        else:
            ni += 1
        if mi < len(m_range) and ni < len(n_range):
            m, n = m_range[mi], n_range[ni]
            ok = fits(m, n)
        else:
            break
    if grow_m:
        mi = max(mi - 1, 0)
    else:
        ni = max(ni - 1, 0)
    return m_range[mi], n_range[ni]


def k_l0_decision(m_l0: int, n_l0: int, k_total: int, p: L0Inputs, pb: PingPong) -> int:
    """kL0 by ``GetKL0TilingDecision``'s rule with the whole K in L1: the largest factor of
    K/K0 (times K0) with which mL0 × kL0 × nL0 still fits L0 (at least K0)."""
    k_range = [f * K0 for f in comm_factors(k_total // K0, k_total // K0)]
    best = k_range[0]
    for k in k_range:
        if not _fits_l0(m_l0, k, n_l0, p, pb):
            break
        best = k
    return best


def _cut(whole: int, cores: int, granule: int) -> tuple[int, int]:
    """(pieces, share): ``whole`` cut into at most ``cores`` shares that are multiples of
    ``granule`` (the last may be shorter), with no empty piece."""
    share = min(align_up(ceil_div(whole, max(cores, 1)), granule), whole)
    return ceil_div(whole, share), share


@dataclass(frozen=True)
class ForwardSplit:
    """How the forward problem is cut over cores: the pieces of batch, Dout, Cout and M =
    Ho·Wo, and one core's share of Dout, Cout and M (of the batch: ceil(batch / batch_dim))."""

    batch_dim: int
    do_dim: int
    co_dim: int
    m_dim: int
    single_do: int
    single_co: int
    single_m: int

    @property
    def cores(self) -> int:
        return self.batch_dim * self.do_dim * self.co_dim * self.m_dim

    @classmethod
    def of_tiling(cls, t: Conv3DTiling) -> ForwardSplit:
        """The split ``t`` carries."""
        return cls(
            t.batch_dim, t.do_dim, t.co_dim, t.m_dim,
            t.single_core_do, t.single_core_co, t.single_core_m,
        )  # fmt: skip


def heuristic_split(problem: ConvBpFilterShape, cores: int) -> ForwardSplit:
    """The project's split over ``cores`` cores: whole batches first, then Dout, then Cout in
    C0 blocks (groups 1 only), then M in 16-row blocks, each cut so that no core is idle."""
    batch_dim = min(problem.batch, cores)
    left = cores // batch_dim
    do_dim, single_do = _cut(problem.dout, min(problem.dout, left), 1)
    left //= do_dim
    # Grouped weights are stored per enlarged group (FRACTAL_Z_3D): Cout is then not split.
    co_dim, single_co = _cut(problem.cout, left if problem.groups == 1 else 1, FRACTAL)
    left //= co_dim
    m_dim, single_m = _cut(problem.ho * problem.wo, left, FRACTAL)
    return ForwardSplit(batch_dim, do_dim, co_dim, m_dim, single_do, single_co, single_m)


def conv3d_tiling(
    problem: ConvBpFilterShape, hw: HwConfig, cores: int = 1, has_bias: bool = False
) -> Conv3DTiling:
    """The heuristic tiling of the forward ``problem`` on ``cores`` cores of ``hw``; a bias
    (f16 with f16 inputs, f32 with bf16) takes L1 and the bias table, which bounds nL0."""
    return split_tiling(problem, hw, heuristic_split(problem, cores), has_bias)


def split_tiling(
    problem: ConvBpFilterShape, hw: HwConfig, split: ForwardSplit, has_bias: bool = False
) -> Conv3DTiling:
    """The vendor's L0 tiling of one core's share under ``split`` (the tuner's starting
    points use it for splits other than the heuristic's)."""
    batch_dim, do_dim, co_dim, m_dim = split.batch_dim, split.do_dim, split.co_dim, split.m_dim
    single_do, single_co, single_m = split.single_do, split.single_co, split.single_m
    # A group's GEMM has N = Cout/g channels (C0-aligned enlarged groups, as the formats pack
    # them); a core's share of Cout bounds it too.
    cout1_g = problem.group_enlargement.cout1_g
    single_co1 = min(ceil_div(single_co, FRACTAL), cout1_g)
    p = L0Inputs(
        hi=problem.hi,
        wi=problem.wi,
        wo=problem.wo,
        kh=problem.kh,
        stride_h=problem.strides[1],
        dilation_h=problem.dilations[1],
        single_co1=single_co1,
        single_m=single_m,
        has_bias=has_bias,
        bias_bytes=2 if problem.dtype == "f16" else 4,
        l1=hw.l1_size,
        l0a=hw.l0a_size,
        l0b=hw.l0b_size,
        l0c=hw.l0c_size,
        bias_table=hw.bias_table_size,
    )
    pb = init_ping_pong(p)
    m_l0, n_l0 = l0_decision(p, pb)
    # CheckL0CDoubleBuffer: L0C double-buffered when one tile takes at most half of it.
    if m_l0 * n_l0 * pb.cl0 * L0C_ELEMENT_BYTES <= hw.l0c_size // DOUBLE_BUFFER:
        pb.cl0 = DOUBLE_BUFFER
    cin1_g = problem.group_enlargement.cin1_g
    k_total = cin1_g * problem.kd * problem.kh * problem.kw * K0
    k_l0 = k_l0_decision(m_l0, n_l0, k_total, p, pb)
    sd, sh, sw = problem.strides
    dd, dh, dw = problem.dilations
    pf, pk, pu, pdn, pl, pr = problem.pads
    return Conv3DTiling(
        org_do=problem.dout,
        org_co=problem.cout,
        org_ho=problem.ho,
        org_wo=problem.wo,
        org_di=problem.di,
        org_ci=problem.cin,
        org_hi=problem.hi,
        org_wi=problem.wi,
        kernel_d=problem.kd,
        kernel_h=problem.kh,
        kernel_w=problem.kw,
        single_core_do=single_do,
        single_core_co=single_co,
        single_core_m=single_m,
        groups=problem.groups,
        stride_h=sh,
        stride_w=sw,
        stride_d=sd,
        dilation_h=dh,
        dilation_w=dw,
        dilation_d=dd,
        pad_head=pf,
        pad_tail=pk,
        pad_up=pu,
        pad_down=pdn,
        pad_left=pl,
        pad_right=pr,
        m_l0=m_l0,
        k_l0=k_l0,
        n_l0=n_l0,
        pbuffer_flag=pb.flag,
        batch=problem.batch,
        batch_dim=batch_dim,
        do_dim=do_dim,
        co_dim=co_dim,
        m_dim=m_dim,
    )
