"""Our implementation of the vendor's host tiler for the forward Conv3D API.

The Ascend C Conv3D API's host tiler (DEVKIT ``Conv3dTilingAlgorithm::Process``, hicann/asc-devkit
``impl/adv_api/tiling/conv/conv3d_tiling_algorithm.cpp``, with the helpers of
``conv3d_tiling_util.cpp``) picks the ping-pong buffering (``InitPingPong``), the mL0/nL0 tile
(``GetL0TilingRange``, ``L0TilingDecision``, ``CheckL0CDoubleBuffer``), then the L1 tiling, kL0
and the final buffering (``GetL1Tiling``). This module reproduces all of it step by step
(:func:`l1_tiling` for ``GetL1Tiling``: which of x and the weight is loaded to L1 whole, how many
Cin1·kH·kW·C0 columns of each an L1 load holds (kAL1, kBL1), how many M positions and N channels
(mAL1, nBL1), the M/N iteration order, the weight bypass, the bias in L1, kL0 and which L0 and L1
buffers are double-buffered), checked against the vendor's own code compiled on the vendor's
sources (tests/test_conv3d_tiling.py says how).

The multi-core split (``conv3d_tiling``) is the project's own: whole batches first, then Dout,
then Cout in C0 blocks (groups 1 only), then M in 16-row blocks, each cut so that no core is
idle; the API only ever sees one core's single shape (``SetSingleOutputShape``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

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


POSTK_LIMIT = 65535
"""The load3d v2 instruction's largest K position (``POSTK_LIMIT``, conv3d_tiling_util.h): it
bounds how many columns one A1 load may hold."""

ITER_M_FIRST, ITER_N_FIRST = 0, 1
"""``IterateMNOrder``: the kernel walks M first (the weight tile stays) or N first (the input
tile stays)."""


@dataclass(frozen=True)
class L1Inputs:
    """What the L1 decision reads beyond :class:`L0Inputs`: the kernel's depth and width, one
    group's Cin1, and one core's output depths and channels."""

    kd: int
    kw: int
    cin1: int
    single_do: int
    single_co: int


@dataclass(frozen=True)
class L1Result:
    """``GetL1Tiling``'s outcome: the ``TConv3DApiTiling`` L1 fields, kL0 and the buffering."""

    k_al1: int
    k_al1_tail: int
    k_bl1: int
    k_bl1_tail: int
    n_bl1: int
    m_al1: int
    k_bl1_div_k0: int
    k_bl1_tail_div_k0: int
    n_bl1_div_n_l0: int
    m_al1_div_m_l0: int
    cin1_in_al1: int
    cin1_in_al1_tail: int
    bl1_full_load: int
    al1_full_load: int
    bl1_bypass_flag: int
    iterate_mn_order: int
    bias_full_load_flag: int
    k_l0: int
    pbuffer_flag: int

    def fields(self) -> dict[str, int]:
        """The L1 fields of ``Conv3DTiling`` (everything but kL0 and the buffering)."""
        d = dict(self.__dict__)
        del d["k_l0"], d["pbuffer_flag"]
        return d


# L1TilingMode: which of x (A) and the weight (B) one core's L1 holds whole.
_FULL_B, _FULL_A, _FULL_AB, _FULL_NONE = range(4)


class _L1Tiler:
    """``Conv3dTilingAlgorithm``'s L1 state (ranges, indices, flags, buffering) and its steps,
    one method per vendor function; indices into the ranges as the vendor keeps them."""

    def __init__(
        self, p: L0Inputs, q: L1Inputs, pb: PingPong, m_l0: int, n_l0: int, k_l0: int | None
    ):
        self.p, self.q, self.pb, self.m_l0, self.n_l0 = p, q, pb, m_l0, n_l0
        self.k_l0_given = k_l0
        self.mode = _FULL_NONE
        self.order = ITER_M_FIRST
        self.ka_full = self.kb_full = self.kab_full = False
        self.bias_full = self.bypass = False
        self.ka = self.kb = self.ma = self.nb = 0  # range indices
        self.k_l0 = K0

    # -- PreProcessingL1Tiling ----------------------------------------------------------------
    def init_calc(self) -> None:
        """``InitCalcL1Params``: the per-column, whole, K-whole and minimum sizes of x and the
        weight in L1 (bytes), sized with the buffering as it stands."""
        p, q, pb = self.p, self.q, self.pb
        self.ci0_hk_wk = p.kh * q.kw * K0
        self.k_whole = q.cin1 * K0 * p.kh * q.kw * q.kd  # alignCinKhKwKd
        hi_whole = infer_hi_l1(p.single_m // p.wo + 2, p)
        self.input_full = q.kd * q.cin1 * hi_whole * p.wi * K0 * INPUT_ELEMENT_BYTES
        self.weight_full = q.kd * q.cin1 * self.ci0_hk_wk * p.single_co1 * N0 * INPUT_ELEMENT_BYTES
        hi_min = infer_hi_l1(self.m_l0 // p.wo + 2, p)
        self.input_min = K0 * hi_min * p.wi * INPUT_ELEMENT_BYTES * pb.al1
        self.input_k_full = q.kd * q.cin1 * K0 * hi_min * p.wi * pb.al1 * INPUT_ELEMENT_BYTES
        self.weight_min = self.ci0_hk_wk * self.n_l0 * pb.bl1 * INPUT_ELEMENT_BYTES
        self.weight_k_full = (
            q.kd * q.cin1 * self.ci0_hk_wk * self.n_l0 * pb.bl1 * INPUT_ELEMENT_BYTES
        )
        self.bias_min = self.n_l0 * p.bias_bytes if p.has_bias else 0

    def ranges(self) -> None:
        """``GetL1TilingRange``: kAL1 and kBL1 are Cin1 factors or whole kernel depths (d·Cin1,
        d = 2…kD) of Cin1·kH·kW·C0 columns, kAL1 cut at the load3d limit; mAL1 and nBL1 are
        factor multiples of mL0 and nL0 up to one core's M and N."""
        p, q = self.p, self.q
        k_blocks = comm_factors(q.cin1, q.cin1) + [d * q.cin1 for d in range(2, q.kd + 1)]
        limit = (POSTK_LIMIT + K0) // self.ci0_hk_wk
        self.ka_range = [k * self.ci0_hk_wk for k in k_blocks if k <= limit]
        self.kb_range = [k * self.ci0_hk_wk for k in k_blocks]
        if not self.ka_range:
            raise ValueError(
                f"one Cin1 block of a {p.kh}x{q.kw} kernel ({self.ci0_hk_wk} columns) exceeds "
                f"load3d's K limit ({POSTK_LIMIT})"
            )
        n_max = ceil_div(p.single_co1 * N0, self.n_l0)
        self.nb_range = [f * self.n_l0 for f in comm_factors(n_max, n_max)]
        m_max = ceil_div(align_up(p.single_m, M0), self.m_l0)
        self.ma_range = [f * self.m_l0 for f in comm_factors(m_max, m_max)]

    def init_mode(self) -> None:
        """``InitL1Tiling`` / ``InitABL1TilingMode``: both whole if they fit (x single-buffered),
        else x whole, else the weight whole beside x's minimum, else neither; each mode starts
        its whole sides at the top of their ranges."""
        l1 = self.p.l1
        if self.input_full + self.weight_full + self.bias_min <= l1:
            self.mode, self.pb.al1 = _FULL_AB, 1
        elif self.input_full + self.bias_min <= l1:
            self.mode, self.pb.al1 = _FULL_A, 1
        elif self.weight_full + self.input_min + self.bias_min <= l1:
            self.mode = _FULL_B
        else:
            self.mode = _FULL_NONE
        a_whole = self.mode in (_FULL_A, _FULL_AB)
        b_whole = self.mode in (_FULL_B, _FULL_AB)
        self.ka = len(self.ka_range) - 1 if a_whole else 0
        self.ma = len(self.ma_range) - 1 if a_whole else 0
        self.kb = len(self.kb_range) - 1 if b_whole else 0
        self.nb = len(self.nb_range) - 1 if b_whole else 0

    # -- the L1 size check and the index walks ----------------------------------------------
    def fits_l1(self) -> bool:
        """``CheckL1Buffer``: x's rows of mAL1 positions for kAL1 columns, the weight's kBL1 ×
        nBL1 (none when bypassed), the bias (whole or one nL0), with the whole sides' sizes."""
        p, pb = self.p, self.pb
        hi = infer_hi_l1(self.ma_range[self.ma] // p.wo + 2, p)
        fm = (
            self.ka_range[self.ka] // self.ci0_hk_wk * hi * p.wi * INPUT_ELEMENT_BYTES * pb.al1 * K0
        )
        wt = self.kb_range[self.kb] * pb.bl1 * self.nb_range[self.nb] * INPUT_ELEMENT_BYTES
        bias = 0
        if p.has_bias:
            bias = (p.single_co1 * N0 if self.bias_full else self.n_l0) * p.bias_bytes
        if self.mode in (_FULL_A, _FULL_AB):
            fm = self.input_full
        if self.mode in (_FULL_B, _FULL_AB):
            wt = self.weight_full
        if self.bypass:
            wt = 0
        return fm + wt + bias <= p.l1

    def grow(self, attr: str, size: int) -> None:
        """The vendor's index walk: step ``attr`` up while L1 still fits, then one back."""
        while getattr(self, attr) < size and self.fits_l1():
            setattr(self, attr, getattr(self, attr) + 1)
        setattr(self, attr, max(getattr(self, attr) - 1, 0))

    def grow_peek(self, attr: str, size: int) -> int:
        """``KABL1FullLoadIterN`` / ``IterM``: where :meth:`grow` would end, index restored."""
        start = getattr(self, attr)
        self.grow(attr, size)
        end = getattr(self, attr)
        setattr(self, attr, start)
        return end

    def try_bl1_double(self) -> None:
        self.pb.bl1 = DOUBLE_BUFFER
        if not self.fits_l1():
            self.pb.bl1 = 1

    # -- CoreL1TilingDecision -----------------------------------------------------------------
    def core_decision(self) -> None:
        """``CoreL1TilingDecision``: both whole: M first; x whole: N first, the weight's K then N
        grown (bypassed when not even its minimum fits); weight whole: M first, x's K then M
        grown; neither: by which K can stay whole (``InitKL1LoadFlag``, ``L1NoFullLoadIter``)."""
        if self.mode == _FULL_AB:
            self.order = ITER_M_FIRST
        elif self.mode == _FULL_A:
            self.order = ITER_N_FIRST
            # CoreL1TilingMinWeightBypass
            if self.input_full + self.weight_min + self.bias_min > self.p.l1:
                self.bypass = True
                return
            # InputL1FullLoadIter
            self.grow("kb", len(self.kb_range))
            if self.kb == len(self.kb_range) - 1:
                self.grow("nb", len(self.nb_range))
        elif self.mode == _FULL_B:
            self.order = ITER_M_FIRST
            # WeightL1FullLoadIter
            self.grow("ka", len(self.ka_range))
            if self.ka == len(self.ka_range) - 1:
                self.grow("ma", len(self.ma_range))
        else:
            self.k_load_flags()
            self.no_full_load()

    def k_load_flags(self) -> None:
        """``InitKL1LoadFlag``: whether x's and the weight's whole K (one mL0 / nL0 wide) fit
        together, or each beside the other's minimum."""
        l1 = self.p.l1
        if self.input_k_full + self.weight_k_full + self.bias_min <= l1:
            self.ka_full = self.kb_full = self.kab_full = True
            return
        self.ka_full = self.input_k_full + self.weight_min + self.bias_min <= l1
        self.kb_full = self.input_min + self.weight_k_full + self.bias_min <= l1

    def ka_full_iter(self) -> None:
        """``KAL1FullLoadIter``: N first; the weight's K, then x's M grown."""
        self.order = ITER_N_FIRST
        self.grow("kb", len(self.kb_range))
        self.grow("ma", len(self.ma_range))

    def kb_full_iter(self) -> None:
        """``KBL1FullLoadIter``: M first; x's K, then the weight's N grown."""
        self.order = ITER_M_FIRST
        self.grow("ka", len(self.ka_range))
        self.grow("nb", len(self.nb_range))

    def no_full_load(self) -> None:
        """``L1NoFullLoadIter``: keep whole the K that fits, or, when either could, the one whose
        GM → L1 traffic (``*Mte2Size``) is smaller; when neither, grow both Ks together
        (``NoneKABL1FullLoadIter``), bypassing the weight if even the minimums overflow."""
        p, q = self.p, self.q
        last_ka, last_kb = len(self.ka_range) - 1, len(self.kb_range) - 1
        if self.ka_full and not self.kb_full:
            self.ka = last_ka
            self.try_bl1_double()
            self.ka_full_iter()
            return
        if self.kb_full and not self.ka_full:
            self.kb = last_kb
            self.kb_full_iter()
            return
        # L1NoFullLoadInputSize: one core's x rows, every Cin1 and kernel depth (elements).
        hi_core = infer_hi_l1(p.single_m // p.wo + 2, p)
        x_load = q.cin1 * hi_core * p.wi * K0 * q.kd
        w_load = self.weight_k_full
        if (self.ka_full or self.kb_full) and not self.kab_full:
            a_traffic = x_load * q.single_do + w_load * q.single_do * ceil_div(
                p.single_m, self.m_l0
            )
            b_traffic = x_load * q.single_do * ceil_div(q.single_co, self.n_l0) + w_load
            if a_traffic < b_traffic:
                self.ka = last_ka
                self.try_bl1_double()
                self.ka_full_iter()
            else:
                self.kb = last_kb
                self.kb_full_iter()
            return
        if self.kab_full:
            self.ka, self.kb = last_ka, last_kb
            ma = self.grow_peek("ma", len(self.ma_range))
            nb = self.grow_peek("nb", len(self.nb_range))
            n_traffic = x_load * q.single_do + w_load * q.single_do * ceil_div(
                p.single_m, self.ma_range[ma]
            )
            m_traffic = x_load * q.single_do * ceil_div(q.single_co, self.nb_range[nb]) + w_load
            if n_traffic < m_traffic:
                self.order, self.ma = ITER_N_FIRST, ma
            else:
                self.order, self.nb = ITER_M_FIRST, nb
            return
        # NoneKABL1FullLoadIter
        if self.input_min + self.weight_min + self.bias_min > p.l1:
            self.bypass, self.order = True, ITER_M_FIRST
            return
        self.try_bl1_double()
        while self.ka < len(self.ka_range) and self.fits_l1():
            self.ka += 1
            self.kb += 1
        self.order = ITER_M_FIRST
        self.ka, self.kb = max(self.ka - 1, 0), max(self.kb - 1, 0)

    # -- after the core decision --------------------------------------------------------------
    def bias_decision(self) -> None:
        """``BiasL1TilingDecision``: the whole bias in L1 when it still fits."""
        if not self.p.has_bias or self.bias_full:
            return
        self.bias_full = True
        if not self.fits_l1():
            self.bias_full = False

    def k_l0_decision(self) -> None:
        """``GetKL0TilingDecision``: kL0 ranges over the factors of the common K0 count of kAL1
        and kBL1 (kAL1's alone when bypassed); ``FixL0PingpongDecision`` takes the whole K with
        single-buffered L0A/L0B when one side's L0 tile is the core's whole M or N; else the
        largest kL0 that fits L0."""
        ka_loops = ceil_div(self.ka_range[self.ka], K0)
        kb_loops = ka_loops if self.bypass else ceil_div(self.kb_range[self.kb], K0)
        factor = math.gcd(ka_loops, kb_loops)
        k_range = [f * K0 for f in comm_factors(factor, factor)]
        if self.k_l0_given is not None:
            # A given kL0 (a tuned L0 tile): the largest of the range not above it.
            self.k_l0 = max([k for k in k_range if k <= self.k_l0_given], default=K0)
            return
        if self.fix_l0_pingpong(k_range):
            return
        i = 0
        while i < len(k_range) and _fits_l0(self.m_l0, k_range[i], self.n_l0, self.p, self.pb):
            i += 1
        self.k_l0 = k_range[max(i - 1, 0)]

    def fix_l0_pingpong(self, k_range: list[int]) -> bool:
        """``FixL0PingpongDecision``."""
        p, pb = self.p, self.pb
        k_max = k_range[-1]
        a_bytes = k_max * self.m_l0 * INPUT_ELEMENT_BYTES
        b_bytes = k_max * self.n_l0 * INPUT_ELEMENT_BYTES
        if k_max != self.k_whole or a_bytes > p.l0a or b_bytes > p.l0b:
            return False
        m_whole = align_up(p.single_m, M0) == self.m_l0
        n_whole = p.single_co1 * N0 == self.n_l0
        if m_whole and n_whole:
            pb.al0 = pb.bl0 = 1
        elif m_whole and b_bytes * DOUBLE_BUFFER <= p.l0b:
            pb.al0 = 1
        elif n_whole and a_bytes * DOUBLE_BUFFER <= p.l0a:
            pb.bl0 = 1
        else:
            return False
        self.k_l0 = k_max
        return True

    def bypass_decision(self) -> None:
        """``WeightBypassDecision``: the weight skips L1 (loaded GM → L0B) when its L1 tile is
        one L0 tile; x's K then grows back from the top to the largest multiple of kL0 that
        fits, and, if that is the whole K, its M grows."""
        if not self.bypass and (
            self.kb_range[self.kb] == self.k_l0 and self.nb_range[self.nb] == self.n_l0
        ):
            self.bypass = True
        if not self.bypass:
            return
        self.pb.bl1 = 1
        floor = self.ka
        for ka in range(len(self.ka_range) - 1, floor - 1, -1):
            self.ka = ka  # fits_l1 reads the index
            if self.ka_range[ka] % self.k_l0 == 0 and self.fits_l1():
                break
        else:
            if floor == 0:
                # The vendor's unsigned index would run off its range here.
                raise ValueError(
                    "no kAL1 that is a multiple of kL0 fits L1 with the weight bypassed"
                )
            self.ka = floor - 1  # where the vendor's loop leaves its index
        if self.ka == len(self.ka_range) - 1:
            self.grow("ma", len(self.ma_range))
        self.bias_decision()

    def update_bl1_double(self) -> None:
        """``UpdateL1DoubleBuffer``: BL1 double-buffered when the weight is tiled in L1 and both
        slots fit."""
        if not self.bypass and self.mode not in (_FULL_B, _FULL_AB):
            self.try_bl1_double()

    def result(self) -> L1Result:
        """``SetKAL1KBL1TailRes``, ``SetL1TilingRes`` and ``SetPBufferFlag``."""
        p = self.p
        k_al1, k_bl1 = self.ka_range[self.ka], self.kb_range[self.kb]
        k_al1_tail = self.k_whole % k_al1 or k_al1
        k_bl1_tail = self.k_whole % k_bl1 or k_bl1
        n_bl1, m_al1 = self.nb_range[self.nb], self.ma_range[self.ma]
        if self.mode in (_FULL_B, _FULL_AB):
            n_bl1 = p.single_co1 * N0
        if self.mode in (_FULL_A, _FULL_AB):
            m_al1 = align_up(p.single_m, M0)
        if self.bypass:
            # The tails keep the range's value: the vendor sets them before the bypass.
            n_bl1 = k_bl1 = 0
        return L1Result(
            k_al1=k_al1,
            k_al1_tail=k_al1_tail,
            k_bl1=k_bl1,
            k_bl1_tail=k_bl1_tail,
            n_bl1=n_bl1,
            m_al1=m_al1,
            k_bl1_div_k0=k_bl1 // K0,
            k_bl1_tail_div_k0=k_bl1_tail // K0,
            n_bl1_div_n_l0=ceil_div(n_bl1, self.n_l0),
            m_al1_div_m_l0=ceil_div(m_al1, self.m_l0),
            cin1_in_al1=k_al1 // self.ci0_hk_wk,
            cin1_in_al1_tail=k_al1_tail // self.ci0_hk_wk,
            bl1_full_load=int(self.mode in (_FULL_B, _FULL_AB)),
            al1_full_load=int(self.mode in (_FULL_A, _FULL_AB)),
            bl1_bypass_flag=int(self.bypass),
            iterate_mn_order=self.order,
            bias_full_load_flag=int(self.bias_full),
            k_l0=self.k_l0,
            pbuffer_flag=self.pb.flag,
        )


def l1_tiling(
    p: L0Inputs, q: L1Inputs, pb: PingPong, m_l0: int, n_l0: int, k_l0: int | None = None
) -> L1Result:
    """``GetL1Tiling`` after the L0 decision (mL0, nL0, and ``pb`` as ``CheckL0CDoubleBuffer``
    left it), step by step: ``PreProcessingL1Tiling`` (``InitCalcL1Params``,
    ``GetL1TilingRange``, ``InitL1Tiling``), ``CoreL1TilingDecision``,
    ``BiasL1TilingDecision``, ``GetKL0TilingDecision``, ``WeightBypassDecision``,
    ``UpdateL1DoubleBuffer``, ``SetL1TilingRes``. ``pb`` is not changed.

    With ``k_l0`` (a tuned tile's), kL0 is not decided but kept, lowered to the largest of the
    vendor's kL0 range not above it (a K0 multiple dividing kAL1 and kBL1), and the L0
    buffering of ``pb`` is kept (``FixL0PingpongDecision`` is the kL0 decision's)."""
    t = _L1Tiler(p, q, PingPong(pb.al1, pb.bl1, pb.al0, pb.bl0, pb.cl0), m_l0, n_l0, k_l0)
    t.init_calc()
    t.ranges()
    t.init_mode()
    t.core_decision()
    t.bias_decision()
    t.k_l0_decision()
    t.bypass_decision()
    t.update_bl1_double()
    return t.result()


def api_tiling(p: L0Inputs, q: L1Inputs) -> tuple[int, int, L1Result]:
    """The vendor's whole decision (``Conv3dTilingAlgorithm::Process``) of one core's single
    shape: (mL0, nL0, the L1 result with kL0 and the final buffering)."""
    pb = init_ping_pong(p)
    m_l0, n_l0 = l0_decision(p, pb)
    # CheckL0CDoubleBuffer: L0C double-buffered when one tile takes at most half of it.
    if m_l0 * n_l0 * pb.cl0 * L0C_ELEMENT_BYTES <= p.l0c // DOUBLE_BUFFER:
        pb.cl0 = DOUBLE_BUFFER
    return m_l0, n_l0, l1_tiling(p, q, pb, m_l0, n_l0)


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
    """The vendor's tiling (L0 and L1) of one core's share under ``split`` (the tuner's
    starting points use it for splits other than the heuristic's)."""
    # A group's GEMM has N = Cout/g channels (C0-aligned enlarged groups, as the formats pack
    # them); a core's share of Cout bounds it too.
    p, q = _inputs(problem, hw, split, has_bias)
    m_l0, n_l0, l1 = api_tiling(p, q)
    return _tiling(problem, split, m_l0, n_l0, l1)


def _inputs(
    problem: ConvBpFilterShape, hw: HwConfig, split: ForwardSplit, has_bias: bool
) -> tuple[L0Inputs, L1Inputs]:
    """What the vendor's tiler reads of ``problem`` and one core's share under ``split``."""
    single_do, single_co, single_m = split.single_do, split.single_co, split.single_m
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
    q = L1Inputs(
        kd=problem.kd,
        kw=problem.kw,
        cin1=problem.group_enlargement.cin1_g,
        single_do=single_do,
        single_co=min(single_co, single_co1 * FRACTAL),
    )
    return p, q


def _tiling(
    problem: ConvBpFilterShape, split: ForwardSplit, m_l0: int, n_l0: int, l1: L1Result
) -> Conv3DTiling:
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
        single_core_do=split.single_do,
        single_core_co=split.single_co,
        single_core_m=split.single_m,
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
        k_l0=l1.k_l0,
        n_l0=n_l0,
        pbuffer_flag=l1.pbuffer_flag,
        **l1.fields(),
        batch=problem.batch,
        batch_dim=split.batch_dim,
        do_dim=split.do_dim,
        co_dim=split.co_dim,
        m_dim=split.m_dim,
    )


def with_l1(
    t: Conv3DTiling, problem: ConvBpFilterShape, hw: HwConfig, has_bias: bool = False
) -> Conv3DTiling:
    """``t`` (a tuned or hand-written L0 tile and split) with the vendor's L1 tiling of its L0
    tile: ``GetL1Tiling`` run on mL0 and nL0 from the buffering ``InitPingPong`` starts L1 with
    and ``t``'s L0 buffering, ``t``'s kL0 kept (lowered to the largest of the vendor's kL0
    range not above it). The L1 buffering (pbuffer_flag bits 3 and 4) is the decision's: the
    L1 fields are sized with it."""
    split = ForwardSplit.of_tiling(t)
    p, q = _inputs(problem, hw, split, has_bias)
    pb = init_ping_pong(p)
    pb.al0, pb.bl0, pb.cl0 = t.buffered(0), t.buffered(1), t.buffered(2)
    l1 = l1_tiling(p, q, pb, t.m_l0, t.n_l0, k_l0=t.k_l0)
    return replace(t, k_l0=l1.k_l0, pbuffer_flag=l1.pbuffer_flag, **l1.fields())


def problem_of_tiling(t: Conv3DTiling, dtype: str = "f16") -> ConvBpFilterShape:
    """The forward problem ``t`` restates (its batch, shapes and attributes)."""
    return ConvBpFilterShape.from_shapes(
        (t.batch, t.org_ci, t.org_di, t.org_hi, t.org_wi),
        (t.org_co, t.org_ci // t.groups, t.kernel_d, t.kernel_h, t.kernel_w),
        (t.stride_d, t.stride_h, t.stride_w),
        (t.pad_head, t.pad_tail, t.pad_up, t.pad_down, t.pad_left, t.pad_right),
        (t.dilation_d, t.dilation_h, t.dilation_w),
        t.groups,
        dtype,
    )


def vendor_tiling_of(
    t: Conv3DTiling, hw: HwConfig, dtype: str = "f16", has_bias: bool = False
) -> Conv3DTiling:
    """The tiling the vendor's ``GetTiling`` returns for ``t``'s problem and single-core shape
    (``t``'s core split kept): ``t`` itself when ``t`` is the heuristic's."""
    return split_tiling(problem_of_tiling(t, dtype), hw, ForwardSplit.of_tiling(t), has_bias)


def l1_refreshed(t: Conv3DTiling) -> Conv3DTiling:
    """``t`` with the L1 fields that follow from its primary ones (kAL1, kBL1, mAL1, nBL1, the
    bypass) recomputed as ``SetL1TilingRes`` derives them: the tails, the ratios, ``cin1InAL1``
    and the full-load flags (a side is loaded whole when its tile is the whole K and the core's
    whole M or N). For a tiling whose L1 fields were moved one at a time (the tuner's L1 knobs)."""
    window = t.kernel_h * t.kernel_w * K0
    k_whole = t.cin1_g * t.kernel_d * window
    k_al1_tail = k_whole % t.k_al1 or t.k_al1 if t.k_al1 else 0
    m_whole = align_up(t.single_core_m, M0)
    fields: dict[str, int] = {
        "k_al1_tail": k_al1_tail,
        "cin1_in_al1": t.k_al1 // window,
        "cin1_in_al1_tail": k_al1_tail // window,
        "m_al1_div_m_l0": ceil_div(t.m_al1, t.m_l0),
        "al1_full_load": int(t.k_al1 >= k_whole and t.m_al1 == m_whole),
    }
    if t.bl1_bypass_flag:
        fields |= {"k_bl1": 0, "n_bl1": 0, "k_bl1_div_k0": 0, "n_bl1_div_n_l0": 0}
    else:
        k_bl1_tail = k_whole % t.k_bl1 or t.k_bl1 if t.k_bl1 else 0
        fields |= {
            "k_bl1_tail": k_bl1_tail,
            "k_bl1_div_k0": t.k_bl1 // K0,
            "k_bl1_tail_div_k0": k_bl1_tail // K0,
            "n_bl1_div_n_l0": ceil_div(t.n_bl1, t.n_l0),
            "bl1_full_load": int(t.k_bl1 == k_whole and t.n_bl1 == align_up(t.single_core_co, N0)),
        }
    return replace(t, **fields)


def l1_depths(t: Conv3DTiling, postk_limit: bool) -> list[int]:
    """The vendor's kAL1 / kBL1 range of ``t``'s problem (``GetL1TilingRange``): factors of
    Cin1 and whole kernel depths of Cin1 blocks, in columns; kAL1's (``postk_limit``) cut at
    load3d's K limit."""
    window = t.kernel_h * t.kernel_w * K0
    cin1 = t.cin1_g
    blocks = comm_factors(cin1, cin1) + [d * cin1 for d in range(2, t.kernel_d + 1)]
    if postk_limit:
        blocks = [b for b in blocks if b <= (POSTK_LIMIT + K0) // window]
    return [b * window for b in blocks]
