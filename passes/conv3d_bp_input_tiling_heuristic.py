"""The vendor's host tiler of Conv3DBackpropInput (dX), reproduced: problem → tiling.

A transcription of the decisions of ``Conv3DBpInputTiling::Compute`` (hicann/asc-devkit
``impl/adv_api/tiling/conv_backprop/conv3d_bp_input_tiling.cpp``), step by step, with the
vendor's function names in the comments so each can be checked against it:

1. ``ShapeInitCalc``/``SetBasicBlockAttrsTiling``: the GEMM of one kD slice, M = Hi·Wi (C0
   aligned), N = Cin1G·C0, K = kH·kW·Cout1G·C0; ``lenHkWkC0`` = kH·kW·C0;
2. the backprop pads and ``SetInitOutput`` (``conv3d_bp_input_tiling.backprop_pads``);
3. ``MultiCoreSplitMN``: ``InitBaseMNK``/``AdjustBaseMNK`` (the L0 block), ``CalStepMNK`` (the
   L1 steps: full load of the weight, or the better of ``EqualL1MatchStepMNK`` and
   ``LadderMatchStepMNK``), ``LegalProtection``/``ShrinkBasicBlock`` (shrink until L1 fits,
   then close double buffers), ``SetSingleCoreInfo`` (merge M rows while L2 holds them).

The vendor's buffer sizes are constants of that file (L0A/L0B 64 KiB, L0C 128 KiB, L1 512 KiB),
not the platform's, and its core count stays 1 (``coreNum_`` is never set by the API's tiler);
both are kept. Only 2-byte types (the API's half and bfloat16_t) are handled.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling, backprop_pads
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up, ceil_div

# conv3d_bp_input_tiling.cpp, anonymous namespace.
L0_AB_SIZE = 65536
L0C_SIZE = 128 * 1024
L1_SIZE = 512 * 1024
DB_ON, DB_OFF = 2, 1
BASIC_BLOCK_SIZE_256 = 256
BASIC_BLOCK_SIZE_128 = 128
W_MERGE_THRESHOLD = 64
L2_CACHE_SIZE_THRESHOLD = 144 * 1024 * 1024
FMAP_H_NUM = 2  # conv3d_bp_tiling_util.h
UINT16_MAX = 65535
DTYPE_BYTES = 2
BLOCK = 16  # C0 of a 2-byte type: 32 bytes / 2


class Conv3DBpInputTilingError(ValueError):
    """The vendor's tiler refuses the problem (its one-line reason)."""


def _max_divisor(a: int, b: int, step: int) -> int:
    """``GetMaxDivisor``: the largest b' ≤ b, b' ≡ b (mod step), dividing a; 0 if none."""
    while b >= step:
        if a % b == 0:
            return b
        b -= step
    return 0


@dataclass
class _State:
    """The vendor's ``tilingParams`` while the tiler runs, and the problem's GEMM sizes."""

    problem: ConvBpFilterShape
    cout1_g: int
    cin1_g: int
    m_value: int
    n_value: int
    k_value: int
    len_hkwkc0: int
    base_m: int = 0
    base_n: int = 0
    base_k: int = 0
    step_m: int = 1
    step_n: int = 1
    step_ka: int = 1
    step_kb: int = 1
    al0_pbuffer: int = DB_ON
    bl0_pbuffer: int = DB_ON
    cl0_pbuffer: int = DB_OFF
    al1_pbuffer: int = DB_ON
    bl1_pbuffer: int = DB_OFF
    single_core_m: int = 0
    single_core_cin: int = 0

    def fmap_h(self, m_l1: int) -> int:
        """``CalFmapH``: the dy rows (dilated) an M block of ``m_l1`` dX positions reads."""
        p = self.problem
        if m_l1 == 0:
            return 0
        if m_l1 % p.wi == 0 or p.wi % m_l1 == 0:
            hi_cal = ceil_div(m_l1, p.wi)
        elif m_l1 > p.wi:
            hi_cal = m_l1 // p.wi + FMAP_H_NUM
        else:
            hi_cal = FMAP_H_NUM
        kh_dilation = (p.kh - 1) * p.dilations[1] + 1
        ho_cal = hi_cal - 1 + kh_dilation
        ho_expand = (p.ho - 1) * p.strides[1] + 1
        return min(ho_cal, ho_expand)

    def step_l1_valid(self, step_ka: int, step_kb: int) -> bool:
        """``IsStepL1Valid``: both K steps whole kH·kW·C0 multiples, AL1 + BL1 ≤ L1."""
        p = self.problem
        lk = self.len_hkwkc0
        if step_ka * self.base_k % lk or step_kb * self.base_k % lk:
            return False
        kbl1 = step_kb * self.base_k
        if kbl1 == 0:
            return False
        if kbl1 % lk == 0 or lk % kbl1 == 0:
            copy_line = ceil_div(kbl1, lk)
        elif kbl1 > lk:
            copy_line = kbl1 // lk + 2
        else:
            copy_line = 2
        bl1 = self.bl1_pbuffer * DTYPE_BYTES * self.step_n * self.base_n * copy_line * lk
        cout_num = max(step_ka * self.base_k // (p.kh * p.kw), 1)
        a1_pixels = self.fmap_h(self.step_m * self.base_m) * p.wo * p.strides[2] * cout_num
        al1 = a1_pixels * DTYPE_BYTES * self.al1_pbuffer
        return al1 + bl1 <= L1_SIZE

    def init_base_mnk(self) -> None:
        """``InitBaseMNK``: a 256 × 128 (or 128 × 256) block with K 64, then ``AdjustBaseMNK``."""
        self.al0_pbuffer, self.bl0_pbuffer, self.cl0_pbuffer = DB_ON, DB_ON, DB_OFF
        wide_m = self.m_value >= self.n_value
        self.base_m = BASIC_BLOCK_SIZE_256 if wide_m else BASIC_BLOCK_SIZE_128
        self.base_n = BASIC_BLOCK_SIZE_128 if wide_m else BASIC_BLOCK_SIZE_256
        self.base_k = BASIC_BLOCK_SIZE_128 // DTYPE_BYTES
        self._adjust_base_mnk(self.al0_pbuffer, self.cl0_pbuffer)

    def _adjust_base_mnk(self, l0ab_pingpong: int, l0c_pingpong: int) -> None:
        l0ab_max = L0_AB_SIZE // l0ab_pingpong // DTYPE_BYTES
        l0c_max = L0C_SIZE // l0c_pingpong // 4
        aligned_m = align_up(self.m_value, BLOCK)
        lk = self.len_hkwkc0
        base_k = min(self.base_k, self.k_value)
        while base_k > BLOCK:
            if base_k % lk == 0 or lk % base_k == 0:
                break
            base_k = max(base_k - BLOCK, BLOCK)
        base_n = min(self.base_n, self.n_value)
        base_m = min(self.base_m, aligned_m)
        self.base_m, self.base_n, self.base_k = base_m, base_n, base_k
        if base_k == 0 or base_n == 0 or base_m == 0:
            return
        mn_l0_max = max(l0ab_max // base_k // BLOCK, 1) * BLOCK
        small_k = base_k < BASIC_BLOCK_SIZE_128 // DTYPE_BYTES
        if base_n < BASIC_BLOCK_SIZE_256 and small_k:
            m_l0c_max = max(l0c_max // base_n // BLOCK, 1) * BLOCK
            base_m = min(mn_l0_max, m_l0c_max, aligned_m)
        if base_m < BASIC_BLOCK_SIZE_256 and small_k:
            n_l0c_max = max(l0c_max // base_m // BLOCK, 1) * BLOCK
            base_n = min(mn_l0_max, n_l0c_max, self.n_value)
        max_base_k = max(l0ab_max // max(base_m, base_n) // BLOCK, 1) * BLOCK
        max_base_k = min(max_base_k, self.k_value)
        while max_base_k > BLOCK:
            if max_base_k % lk == 0 or lk % max_base_k == 0:
                base_k = max_base_k
                break
            max_base_k = max(max_base_k - BLOCK, BLOCK)
        self.base_m, self.base_n, self.base_k = base_m, base_n, base_k

    def _align_cout1(self, cout1_a: int, cout1_b: int) -> tuple[int, int]:
        """``AlignCout1`` (the 2-byte case, ``adaptFP32`` false): one divides the other."""
        if cout1_a == cout1_b:
            return cout1_a, cout1_b
        if cout1_b > cout1_a:
            return _max_divisor(cout1_b, cout1_a, 1), cout1_b
        return cout1_a, _max_divisor(cout1_a, cout1_b, 1)

    def equal_l1_match(self, step_ka: int, step_kb: int) -> tuple[int, int]:
        """``EqualL1MatchStepMNK``: half of L1 each for dy and the weight."""
        p = self.problem
        lk = self.len_hkwkc0
        ho_cal = self.fmap_h(self.base_m)
        base_n_size = lk * self.base_n * DTYPE_BYTES
        l1b = L1_SIZE // 2 // self.bl1_pbuffer
        l1a = L1_SIZE // 2 // self.al1_pbuffer
        if base_n_size == 0:
            return step_ka, step_kb
        cout1_b1 = max(1, l1b // base_n_size)
        hiwi_size = DTYPE_BYTES * ho_cal * p.wo * p.strides[2] * BLOCK
        if hiwi_size == 0:
            return step_ka, step_kb
        cout1_a1 = min(max(1, l1a // hiwi_size), self.cout1_g)
        cout1_b1 = min(cout1_b1, self.cout1_g)
        cout1_a1, cout1_b1 = self._align_cout1(cout1_a1, cout1_b1)
        step_ka = max(1, ceil_div(cout1_a1 * lk, self.base_k))
        step_ka = min(step_ka, UINT16_MAX // self.base_k)
        step_kb = max(1, ceil_div(cout1_b1 * lk, self.base_k))
        if step_ka > step_kb:
            step_ka = step_ka // step_kb * step_kb
        else:
            step_kb = step_kb // step_ka * step_ka
        return step_ka, step_kb

    def ladder_match(self) -> tuple[int, int]:
        """``LadderMatchStepMNK``: equal steps from kH·kW down until L1 fits."""
        p = self.problem
        step_ka = min(ceil_div(self.k_value, self.base_k), p.kh * p.kw)
        step_kb = step_ka
        while step_ka > 1 and step_kb > 1:
            if self.step_l1_valid(step_ka, step_kb):
                break
            step_ka -= 1
            step_kb -= 1
        return step_ka, step_kb

    def ladder_match_full_load(self, step_kb: int) -> int:
        """``LadderMatchStepKWithFullLoad``: the largest dy step dividing the full weight's."""
        step_ka = min(ceil_div(self.k_value, self.base_k), step_kb)
        while step_ka > 1:
            if self.step_l1_valid(step_ka, step_kb) and step_kb % step_ka == 0:
                break
            step_ka -= 1
        return step_ka

    def cal_step_mnk(self) -> None:
        """``CalStepMNK``."""
        self.step_m = self.step_n = 1
        self.al1_pbuffer, self.bl1_pbuffer = DB_ON, DB_OFF
        k_iter = ceil_div(self.k_value, self.base_k)
        if self.step_l1_valid(1, k_iter) and self.problem.kd == 1:
            step_ka = self.ladder_match_full_load(k_iter)
            if self.step_l1_valid(step_ka, k_iter):
                self.step_ka, self.step_kb = step_ka, k_iter
                return
        self.bl1_pbuffer = DB_ON
        s1 = self.equal_l1_match(1, 1)
        s2 = self.ladder_match()
        if self.step_l1_valid(*s1) and sum(s1) > sum(s2):
            self.step_ka, self.step_kb = s1
        else:
            self.step_ka, self.step_kb = s2

    def shrink_basic_block(self) -> None:
        """``ShrinkBasicBlock``: smaller M/N blocks, then smaller K, until L1 fits; else undo."""
        original = (self.base_m, self.base_n, self.base_k)
        m_start, n_start, k_start = original
        min_base_m = max(self.problem.wi, BLOCK)
        while m_start > min_base_m or n_start > BLOCK:
            if m_start > min_base_m and m_start > n_start:
                m_start = max(m_start - BLOCK, BLOCK)
            else:
                n_start = max(n_start - BLOCK, BLOCK)
            self.base_m, self.base_n, self.base_k = m_start, n_start, k_start
            self.step_ka, self.step_kb = self.ladder_match()
            if self.step_l1_valid(self.step_ka, self.step_kb):
                break
            self.step_ka, self.step_kb = self.equal_l1_match(self.step_ka, self.step_kb)
            if self.step_l1_valid(self.step_ka, self.step_kb):
                break
        l0_max_k = L0_AB_SIZE // self.al0_pbuffer // DTYPE_BYTES // max(m_start, n_start)
        k_start = min(max(l0_max_k // BLOCK, 1) * BLOCK, self.k_value)
        lk = self.len_hkwkc0
        while k_start > BLOCK:
            k_start = max(k_start - BLOCK, BLOCK)
            self.base_k = k_start
            if k_start % lk and lk % k_start:
                continue
            self.step_ka, self.step_kb = self.ladder_match()
            if self.step_l1_valid(self.step_ka, self.step_kb):
                return
            self.step_ka, self.step_kb = self.equal_l1_match(self.step_ka, self.step_kb)
            if self.step_l1_valid(self.step_ka, self.step_kb):
                return
        self.base_m, self.base_n, self.base_k = original

    def legal_protection(self) -> None:
        """``LegalProtection``: shrink the block, then close the L1 double buffers right to
        left (the vendor's recursion, transcribed as it is)."""
        if self.step_l1_valid(self.step_ka, self.step_kb):
            return
        self.shrink_basic_block()
        if self.step_l1_valid(self.step_ka, self.step_kb):
            return
        if self.al1_pbuffer == DB_ON and self.bl1_pbuffer == DB_ON:
            self.bl1_pbuffer = DB_OFF
            self.legal_protection()
        if self.al1_pbuffer == DB_ON and self.bl1_pbuffer == DB_OFF:
            self.al1_pbuffer, self.bl1_pbuffer = DB_OFF, DB_ON
            self.legal_protection()
        if self.al1_pbuffer == DB_OFF and self.bl1_pbuffer == DB_ON:
            self.bl1_pbuffer = DB_OFF
            self.legal_protection()

    def l2_efficient(self, single_m: int, single_n: int, single_k: int, workspace: int) -> bool:
        """``IsL2Efficient`` (one core)."""
        p = self.problem
        dout_lines = max(p.kd // p.strides[0], 1)
        hout_lines = max(self.fmap_h(single_m) // p.strides[1], 1)
        input_l2 = hout_lines * p.wo * dout_lines * self.cout1_g * BLOCK
        size = input_l2 + single_n * single_k * dout_lines + single_m * single_n + workspace
        return size * DTYPE_BYTES * CORE_NUM <= L2_CACHE_SIZE_THRESHOLD

    def set_single_core_info(self) -> None:
        """``SetSingleCoreInfo``: N is one L1 step; M merges whole dX rows while L2 holds."""
        p = self.problem
        self.single_core_cin = self.step_n * self.base_n
        batch_depth = p.batch * p.di
        hw_i = p.hi * p.wi
        m_al1 = self.step_m * self.base_m
        n_cnt = ceil_div(p.cin, self.single_core_cin)
        single_k = p.kh * p.kw * self.cout1_g * BLOCK
        self.single_core_m = max(m_al1 // p.wi, 1) * p.wi
        workspace = self.base_m * self.base_n
        if p.wi > W_MERGE_THRESHOLD and m_al1 % p.wi and p.wi % m_al1:
            for i in range(1, ceil_div(hw_i, m_al1) + 1):
                single_hw = ceil_div(p.hi, i) * p.wi
                cnt = ceil_div(hw_i, single_hw) * batch_depth * n_cnt
                if cnt % CORE_NUM and cnt < CORE_NUM * CORE_NUM:
                    continue
                if not self.l2_efficient(single_hw, self.single_core_cin, single_k, workspace):
                    continue
                self.single_core_m = single_hw
                break
        else:
            single_m = m_al1
            single_hw = self.single_core_m
            while single_hw < hw_i and batch_depth % CORE_NUM == 0:
                single_m += m_al1
                single_hw = min(max(single_m // p.wi, 1) * p.wi, hw_i)
                if hw_i % single_hw:
                    continue
                if not self.l2_efficient(single_hw, self.single_core_cin, single_k, workspace):
                    continue
                self.single_core_m = single_hw


CORE_NUM = 1
"""The vendor API tiler's ``coreNum_``: initialised to 1 and never set
(``include/adv_api/conv_backprop/conv3d_bp_input_tiling_base.h``)."""


def init_output_flag(problem: ConvBpFilterShape) -> int:
    """``SetInitOutput``: 1 (zero dX through L0C first) when some dX rows get no
    contribution (the stride leaves D or H input rows unread beyond the back/down pad, a
    stride H larger than the kernel) or with a D dilation; else 0."""
    p = problem
    pf, pb, pu, pd, _, _ = p.pads
    fmap_d = p.di + pf + pb
    fmap_h = p.hi + pu + pd
    filter_d = (p.kd - 1) * p.dilations[0] + 1
    filter_h = (p.kh - 1) * p.dilations[1] + 1
    do_mod = (fmap_d - filter_d) % p.strides[0]
    ho_mod = (fmap_h - filter_h) % p.strides[1]
    if do_mod > pb or ho_mod > pd or p.strides[1] > p.kh or p.dilations[0] > 1:
        return 1
    return 0


def tile_conv3d_bp_input(problem: ConvBpFilterShape) -> Conv3DBpInputTiling:
    """The vendor's tiling of ``problem`` (x of the forward conv = dX's shape). Raises
    :class:`Conv3DBpInputTilingError` where the vendor's tiler fails."""
    if problem.groups != 1:
        # Conv3DBpInputTilingBase::CheckInputAttr.
        raise Conv3DBpInputTilingError(
            f"the Conv3DBackpropInput API's tiler takes groups = 1 only, got {problem.groups}"
        )
    if problem.dtype not in ("f16", "bf16"):
        raise Conv3DBpInputTilingError(f"element type must be f16 or bf16, got {problem.dtype}")
    ge = problem.group_enlargement
    lk = problem.kh * problem.kw * BLOCK
    s = _State(
        problem=problem,
        cout1_g=ge.cout1_g,
        cin1_g=ge.cin1_g,
        m_value=align_up(problem.hi * problem.wi, BLOCK),
        n_value=ge.cin1_g * BLOCK,
        k_value=problem.kh * problem.kw * ge.cout1_g * BLOCK,
        len_hkwkc0=lk,
    )
    s.init_base_mnk()
    s.cal_step_mnk()
    s.legal_protection()
    if not s.step_l1_valid(s.step_ka, s.step_kb):
        raise Conv3DBpInputTilingError("params exceed max L1 limit size")
    s.set_single_core_info()
    bp = backprop_pads(problem)
    return Conv3DBpInputTiling(
        batch=problem.batch,
        cin=problem.cin,
        cout=problem.cout,
        cout1=ceil_div(problem.cout, BLOCK),
        cin1=ceil_div(problem.cin, BLOCK),
        cout1_g=ge.cout1_g,
        cin1_g=ge.cin1_g,
        c0=BLOCK,
        c0_bits=4,
        dout=problem.dout,
        ho=problem.ho,
        wo=problem.wo,
        di=problem.di,
        hi=problem.hi,
        wi=problem.wi,
        dk=problem.kd,
        hk=problem.kh,
        wk=problem.kw,
        group=ge.real_g,
        stride_d=problem.strides[0],
        stride_h=problem.strides[1],
        stride_w=problem.strides[2],
        pad_front=problem.pads[0],
        pad_back=problem.pads[1],
        pad_up=problem.pads[2],
        pad_down=problem.pads[3],
        pad_left=problem.pads[4],
        pad_right=problem.pads[5],
        backprop_pad_tail=bp[1],
        backprop_pad_up=bp[2],
        backprop_pad_down=bp[3],
        backprop_pad_left=bp[4],
        backprop_pad_right=bp[5],
        dilation_d=problem.dilations[0],
        dilation_h=problem.dilations[1],
        dilation_w=problem.dilations[2],
        al0_pbuffer=s.al0_pbuffer,
        bl0_pbuffer=s.bl0_pbuffer,
        cl0_pbuffer=s.cl0_pbuffer,
        al1_pbuffer=s.al1_pbuffer,
        bl1_pbuffer=s.bl1_pbuffer,
        # SetFinalTiling: one batch, group, D and H row per core call.
        single_core_group=1,
        single_core_cout=ge.cout1_g * BLOCK,
        single_core_cout1=ge.cout1_g,
        single_core_cin1=ceil_div(s.single_core_cin, BLOCK),
        single_core_din=1,
        single_core_ho=1,
        base_m=s.base_m,
        base_k=s.base_k,
        base_n=s.base_n,
        step_m=s.step_m,
        step_n=s.step_n,
        step_ka=s.step_ka,
        step_kb=s.step_kb,
        iterate_order=1,  # SetSingleCoreInfo: "Default orderN"
        init_output_flag=init_output_flag(problem),
        single_core_batch=1,
        single_core_m=s.single_core_m,
        single_core_cin=s.single_core_cin,
    )
