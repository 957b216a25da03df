"""Tests of the vendor-style host tiler (passes/dw_tiling_heuristic.py and the modules it
chains: the block tiler, the core split, the tiling record) and of DwTiling.errors.

The golden values are the 24 DEVKIT API tiling unit tests (hicann/asc-devkit
tests/api/adv_api/tiling/conv_backprop/test_conv3d_backprop_filter_api_tiling_network.cpp), the
worked example NetWorks_001 and the vendor's ShrinkBlockBaseMN functional tests
(test_conv3d_backprop_filter_api_tiling_func.cpp); the rest checks our own
conventions (per-core shares, multi-core split) and the verifier's messages.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_xdsl import hw
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import (
    DwTiling,
    bl1_bound_for,
    cin1_copy_len,
    ho_rows_bound,
    rows_to_copy,
)
from ascend_xdsl.passes.api_block_tiler import SPLIT_M_K, ApiBlockTiler, BlockState, TilingError
from ascend_xdsl.passes.dw_gemm_view import BufferCapacities, GemmView, gemm_view
from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling

A2 = hw.load("atlas-a2-910b2")
SIZES = (A2.l1_size, A2.l0a_size, A2.l0b_size, A2.l0c_size)


def _pad_for(size: int, kernel: int, stride: int, out: int) -> tuple[int, int]:
    """(lo, hi) pads that make an axis of ``size`` produce ``out`` outputs (dilation 1)."""
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


def _shape(
    weight: tuple[int, int, int, int, int],
    x: tuple[int, int, int, int, int],
    dy_dhw: tuple[int, int, int],
    strides: tuple[int, int, int],
    pads: tuple[int, int, int, int, int, int] | None = None,
) -> ConvBpFilterShape:
    """The problem of one vendor UT. ``weight`` is (Cout, effective Cin, kD, kH, kW).

    ``pads=None`` derives the pads that reproduce the dy extents the tiler was given while
    keeping the x extents and strides it saw (case 002's fixture is inconsistent otherwise)."""
    cout, cin, kd, kh, kw = weight
    n, _, di, hi, wi = x
    if pads is None:
        pads = (
            *_pad_for(di, kd, strides[0], dy_dhw[0]),
            *_pad_for(hi, kh, strides[1], dy_dhw[1]),
            *_pad_for(wi, kw, strides[2], dy_dhw[2]),
        )
    shape = ConvBpFilterShape(
        batch=n, cin=cin, di=di, hi=hi, wi=wi, cout=cout, kd=kd, kh=kh, kw=kw,
        strides=strides, pads=pads,
    )  # fmt: skip
    assert (shape.dout, shape.ho, shape.wo) == dy_dhw
    return shape


ZERO = (0, 0, 0, 0, 0, 0)
THREE = (3, 3, 3, 3, 3, 3)
# The 24 DEVKIT network cases (asc-devkit test_conv3d_backprop_filter_api_tiling_network.cpp):
# (weight with the effective Ci, x, dy (D, H, W), strides, pads, expected M/N/K).
# 001: the fixture sets Ci 17 on the weight, then 128 on x; the tiler uses 128.
# 002: x H/W 130 with stride 2 cannot give dy 128; the tiler sees Hi=Wi=130, Ho=Wo=128, sH=sW=2,
#      which the derived pads (63, 64) reproduce exactly.
# 011: dy N/C (16, 3) disagree with x N (1) and weight Cout (16); neither changes the tiling.
# 009/010/014 are batch 1 or 2 (batch does not change the single-core tiling).
CASE_001 = ((128, 128, 1, 3, 3), (1, 128, 17, 257, 257), (17, 128, 128), (1, 2, 2), ZERO)
CASE_003 = ((240, 3, 4, 4, 4), (1, 3, 16, 240, 240), (10, 122, 122), (2, 2, 2), THREE)
CASE_004 = ((256, 3, 4, 4, 4), (1, 3, 240, 256, 256), (122, 130, 130), (2, 2, 2), THREE)
CASE_007 = ((1152, 4, 1, 2, 2), (1, 4, 120, 32, 32), (120, 16, 16), (1, 2, 2), ZERO)
CASE_015 = ((256, 128, 1, 1, 1), (1, 128, 1, 128, 128), (1, 128, 128), (1, 1, 1), ZERO)
CASE_016 = ((2, 48, 1, 1, 1), (8, 48, 96, 96, 96), (96, 96, 96), (1, 1, 1), ZERO)
CASE_017 = ((256, 128, 1, 1, 1), (16, 128, 20, 64, 64), (20, 64, 64), (1, 1, 1), ZERO)
CASE_018 = ((1152, 4, 1, 2, 2), (1, 4, 96, 20, 28), (96, 10, 14), (1, 2, 2), ZERO)
CASE_009_N2 = ((128, 128, 1, 3, 3), (2, 128, 17, 257, 257), (17, 128, 128), (1, 2, 2), ZERO)
DEVKIT_CASES = {
    "001": (*CASE_001, (128, 1152, 512)),
    "002": ((3, 64, 3, 3, 3), (16, 64, 22, 130, 130), (20, 128, 128), (1, 2, 2), None,
            (16, 576, 512)),
    "003": (*CASE_003, (240, 256, 14896)),
    "004": (*CASE_004, (256, 256, 16912)),
    "005": ((50, 14, 20, 1, 1), (1, 14, 6, 404, 1027), (3, 202, 514), (2, 2, 2),
            (9, 9, 0, 0, 0, 0), (64, 16, 103840)),
    "006": ((64, 186, 3, 1, 1), (2, 186, 3, 727, 1071), (1, 727, 1071), (2, 1, 1), ZERO,
            (64, 192, 1071)),
    "007": (*CASE_007, (256, 64, 256)),
    "008": (*CASE_007, (256, 64, 256)),
    "009": (*CASE_001, (128, 1152, 512)),
    "010": (*CASE_009_N2, (128, 1152, 512)),
    "011": ((16, 64, 3, 3, 3), (1, 64, 22, 130, 130), (20, 128, 128), (1, 1, 1), ZERO,
            (16, 576, 512)),
    "012": (*CASE_003, (240, 256, 14896)),
    "013": (*CASE_004, (256, 256, 16912)),
    "014": (*CASE_009_N2, (128, 1152, 512)),
    "015": (*CASE_015, (256, 128, 512)),
    "016": (*CASE_016, (16, 48, 1152)),
    "017": (*CASE_017, (256, 128, 512)),
    "018": (*CASE_018, (256, 64, 144)),
    "019": (*CASE_015, (256, 128, 512)),
    "020": (*CASE_016, (16, 48, 1152)),
    "021": (*CASE_017, (256, 128, 512)),
    "022": (*CASE_018, (256, 64, 144)),
    "023": ((36, 58, 18, 1, 1), (1, 58, 55, 67, 3180), (19, 34, 1590), (2, 2, 2), ZERO,
            (48, 16, 54064)),
    "024": ((64, 56, 2, 1, 1), (21, 56, 150, 2, 753), (75, 1, 753), (2, 2, 1), ZERO,
            (64, 64, 768)),
}  # fmt: skip


def _case_shape(name: str) -> ConvBpFilterShape:
    weight, x, dy, strides, pads, _ = DEVKIT_CASES[name]
    return _shape(weight, x, dy, strides, pads)


def test_there_are_24_devkit_cases() -> None:
    assert sorted(DEVKIT_CASES) == [f"{i:03d}" for i in range(1, 25)]


@pytest.mark.parametrize("name", sorted(DEVKIT_CASES))
def test_devkit_network_case_basic_block(name: str) -> None:
    tiling = heuristic_tiling(_case_shape(name), A2)
    got = (tiling.single_core_m, tiling.single_core_n, tiling.single_core_k)
    assert got == DEVKIT_CASES[name][-1]


@pytest.mark.parametrize("name", sorted(DEVKIT_CASES))
def test_devkit_network_case_is_consistent(name: str) -> None:
    shape = _case_shape(name)
    tiling = heuristic_tiling(shape, A2)
    assert tiling.errors(*SIZES) == []
    # One core: no split, and the shares are the whole problem.
    assert tiling.core_num == 1
    ge = shape.group_enlargement
    assert tiling.single_core_batch == shape.batch * shape.dout
    assert tiling.single_core_cout == ge.cout1_g * 16
    assert tiling.single_core_cin == ge.cin1_g * 16
    assert tiling.single_core_ho == shape.ho
    assert tiling.single_core_dk == shape.kd
    assert tiling.single_core_group == ge.real_g == tiling.group


def test_worked_example_of_section_4_2() -> None:
    """NetWorks_001: SplitK/SPLIT_M_K, depth (8,8) overflows L1, depth (8,4) fits."""
    tiling = heuristic_tiling(_case_shape("001"), A2)
    assert (tiling.base_m, tiling.base_k, tiling.base_n) == (128, 128, 128)
    assert (tiling.step_m, tiling.step_n, tiling.step_ka, tiling.step_kb) == (1, 1, 4, 2)
    assert tiling.bl1_bound == 41120 == 5 * 257 * 2 * 16
    assert tiling.iterate_order == 0
    assert (tiling.al1_pbuffer, tiling.bl1_pbuffer, tiling.cl0_pbuffer) == (2, 2, 2)
    assert (tiling.m0, tiling.k0, tiling.n0, tiling.channel_size) == (16, 16, 16, 16)
    assert tiling.hf32_flag == 0
    # The rejected depth (8, 8) rung: stepKb 4 needs bl1Bound 9·257·2·16 and overflows L1.
    rejected = dataclasses.replace(tiling, step_kb=4, bl1_bound=74016)
    assert rejected.errors(*SIZES) == [
        "L1 overflow: A1 needs 131072 B x2 + B1 needs 148032 B x2 = 558208 B, L1 has 524288 B"
    ]


def test_problem_fields_are_copied() -> None:
    shape = _case_shape("005")
    t = heuristic_tiling(shape, A2)
    assert (t.batch, t.cin, t.cout, t.cin1_g, t.cout1_g) == (1, 14, 50, 1, 4)
    assert (t.dout, t.ho, t.wo, t.di, t.hi, t.wi) == (3, 202, 514, 6, 404, 1027)
    assert (t.dk, t.hk, t.wk) == (20, 1, 1)
    assert (t.stride_d, t.stride_h, t.stride_w) == (2, 2, 2)
    pads = (t.pad_front, t.pad_back, t.pad_up, t.pad_down, t.pad_left, t.pad_right)
    assert pads == (9, 9, 0, 0, 0, 0)
    assert (t.dilation_d, t.dilation_h, t.dilation_w) == (1, 1, 1)


@pytest.mark.parametrize("name", ["006", "023"])
def test_shrink_base_block_cases_need_the_fallback(name: str) -> None:
    """Even the 1/1 L1 depth at the initial base tile overflows L1 (very wide Wi)."""
    shape = _case_shape(name)
    ge = shape.group_enlargement
    view = gemm_view(shape, cout=ge.cout1_g * 16, cin1=ge.cin1_g, ho=shape.ho, tasks=1)
    tiler = ApiBlockTiler(view, BufferCapacities.of(A2))
    tiler.state.direction = SPLIT_M_K
    tiler.init_base_mnk()
    tiler.state.depth_a1 = tiler.state.depth_b1 = 1
    tiler.update_step_mnk()
    assert tiler.is_invalid()
    assert heuristic_tiling(shape, A2).errors(*SIZES) == []


def test_shrink_block_base_mn_equalises_down_to_one_fractal() -> None:
    """DEVKIT Check_ShrinkBlockBaseMN: (17, 16, 17) with 1000-deep K steps ends at 16/16."""
    view = GemmView(m=1, n=1, k=1, wo=1, wi=1, kh=1, kw=1, stride_h=1, stride_w=1, dilation_h=1)
    tiler = ApiBlockTiler(view, BufferCapacities.of(A2))
    tiler.state = BlockState(base_m=17, base_n=16, base_k=17, step_ka=1000, step_kb=1000)
    tiler.shrink_block_base_mn()
    assert (tiler.state.base_m, tiler.state.base_n) == (16, 16)


def test_shrink_block_base_mn_follows_with_base_n_when_it_saves_a_c1_row() -> None:
    """DEVKIT Check_ShrinkBlockBaseMN_ShouldFurtherAdjustBlockBaseM: 16384/16385 → 1008/1008.

    The vendor test leaves Wi, strides and dilations at their default of 1."""
    view = GemmView(m=1, n=1, k=1, wo=4, wi=1, kh=3, kw=3, stride_h=1, stride_w=1, dilation_h=1)
    tiler = ApiBlockTiler(view, BufferCapacities.of(A2))
    tiler.state = BlockState(base_m=16384, base_n=16385, base_k=2, step_kb=4)
    tiler.shrink_block_base_mn()
    assert (tiler.state.base_m, tiler.state.base_n) == (1008, 1008)


# -- shared formulas ---------------------------------------------------------------------------
def test_bl1_bound_formula_examples() -> None:
    common = dict(base_n=128, step_n=1, wo=128, wi=257, kh=3, kw=3, stride_h=2, dilation_h=1)
    assert bl1_bound_for(base_k=128, step_kb=2, **common) == 41120
    assert bl1_bound_for(base_k=128, step_kb=4, **common) == 74016
    assert ho_rows_bound(256, 128) == 2
    assert ho_rows_bound(300, 128) == 4  # straddles: ⌊300/128⌋ + 2
    assert ho_rows_bound(100, 128) == 2
    assert cin1_copy_len(128, 9) == 2  # 8 columns < 9, 9 % 8 != 0
    assert cin1_copy_len(144, 9) == 1  # one whole C1 row of 9 columns
    assert cin1_copy_len(1152, 9) == 8


@given(st.integers(1, 4096), st.integers(1, 2048))
def test_kernel_rows_never_exceed_the_host_bound(kbl1: int, wo: int) -> None:
    assert 1 <= rows_to_copy(kbl1, wo) <= ho_rows_bound(kbl1, wo)


# -- multi-core -------------------------------------------------------------------------------
DEFAULT_LAYER = ConvBpFilterShape(
    batch=2, cin=64, di=8, hi=28, wi=28, cout=64, kd=3, kh=3, kw=3, pads=(1, 1, 1, 1, 1, 1)
)


def _dims(t: DwTiling) -> tuple[int, ...]:
    return (t.batch_dim, t.group_dim, t.dk_dim, t.m_dim, t.n_dim, t.k_dim)


def test_multicore_default_layer_uses_all_24_cores() -> None:
    t = heuristic_tiling(DEFAULT_LAYER, A2, core_num=24)
    assert t.core_num > 1
    assert t.core_num <= 24
    # batch·dout = 16 and dk = 3 are the free axes: 8 x 3 uses every core.
    assert _dims(t) == (8, 1, 3, 1, 1, 1)
    assert t.batch_dim * t.single_core_batch >= DEFAULT_LAYER.batch * DEFAULT_LAYER.dout
    assert t.dk_dim * t.single_core_dk >= DEFAULT_LAYER.kd
    assert t.m_dim * t.single_core_cout >= t.cout1_g * 16
    assert t.n_dim * t.single_core_cin >= t.cin1_g * 16
    assert t.k_dim * t.single_core_ho >= t.ho
    assert t.group_dim * t.single_core_group >= t.group
    assert t.errors(*SIZES) == []
    assert heuristic_tiling(DEFAULT_LAYER, A2, core_num=24) == t  # deterministic


def test_multicore_tie_break_prefers_batch_dout() -> None:
    """On 20 cores, 6x3 (bd x dk) and 3x3x2 (bd x dk x Ho) both give 18 cores and the same
    per-core work; the larger batch·dout split wins, and no cut of 19-20 cores exists."""
    t = heuristic_tiling(DEFAULT_LAYER, A2, core_num=20)
    assert _dims(t) == (6, 1, 3, 1, 1, 1)
    assert (t.single_core_batch, t.single_core_dk, t.single_core_ho) == (3, 1, 28)
    assert t.errors(*SIZES) == []


def test_multicore_split_k_respects_core_bind_direction() -> None:
    """001 is SPLIT_M_K with M one block: only batch·dout and Ho rows may be split."""
    t = heuristic_tiling(_case_shape("001"), A2, core_num=20)
    assert t.n_dim == 1 and t.m_dim == 1
    assert _dims(t) == (2, 1, 1, 1, 1, 10)
    assert (t.single_core_batch, t.single_core_ho) == (9, 13)
    assert t.errors(*SIZES) == []


def test_multicore_re_derives_the_block_for_the_share() -> None:
    """A core's K share is 13 Ho rows, so its basic block K never exceeds 13·128 positions."""
    t = heuristic_tiling(_case_shape("001"), A2, core_num=20)
    assert t.single_core_k <= t.single_core_ho * t.wo
    one = heuristic_tiling(_case_shape("001"), A2, core_num=1)
    assert (one.single_core_ho, one.k_dim) == (128, 1)


def test_multicore_split_m_n_splits_m() -> None:
    """007 is SplitMN (stride 2, 2x2 kernel): M = 1152 may be cut into its 256-row blocks."""
    t = heuristic_tiling(_case_shape("007"), A2, core_num=1000)
    assert t.k_dim == 1
    assert t.batch_dim == 120
    assert t.m_dim == 5  # ⌈1152/256⌉ basic blocks
    assert t.single_core_cout == 240  # ⌈1152/5⌉ rounded up to 16
    assert t.errors(*SIZES) == []


@pytest.mark.parametrize("groups", [2, 4, 64])
def test_groups_use_the_enlarged_group_gemm(groups: int) -> None:
    shape = dataclasses.replace(DEFAULT_LAYER, groups=groups)
    ge = shape.group_enlargement
    one = heuristic_tiling(shape, A2)
    assert one.group == ge.real_g == one.single_core_group
    assert one.single_core_cout == ge.cout1_g * 16
    assert one.single_core_n <= 9 * ge.cin1_g * 16
    assert one.errors(*SIZES) == []
    many = heuristic_tiling(shape, A2, core_num=24)
    assert 1 < many.core_num <= 24
    assert many.errors(*SIZES) == []


def test_illegal_problem_is_rejected() -> None:
    with pytest.raises(
        TilingError,
        match=r"illegal dW problem: Cin \(64\) and Cout \(64\) must be divisible by groups \(3\)",
    ):
        heuristic_tiling(dataclasses.replace(DEFAULT_LAYER, groups=3), A2)
    with pytest.raises(TilingError, match="core_num must be at least 1"):
        heuristic_tiling(DEFAULT_LAYER, A2, core_num=0)


@settings(max_examples=150, deadline=None)
@given(
    batch=st.integers(1, 4),
    cin=st.integers(1, 300),
    cout=st.integers(1, 300),
    d=st.integers(1, 12),
    h=st.integers(1, 300),
    w=st.integers(1, 600),
    kd=st.integers(1, 3),
    kh=st.integers(1, 5),
    kw=st.integers(1, 5),
    sh=st.integers(1, 3),
    sw=st.integers(1, 3),
    pad=st.integers(0, 2),
    core_num=st.sampled_from([1, 2, 7, 20, 24]),
)
def test_every_tiling_is_consistent(
    batch, cin, cout, d, h, w, kd, kh, kw, sh, sw, pad, core_num
) -> None:
    shape = ConvBpFilterShape(
        batch=batch, cin=cin, di=d, hi=h, wi=w, cout=cout, kd=kd, kh=kh, kw=kw,
        strides=(1, sh, sw), pads=(pad,) * 6,
    )  # fmt: skip
    if shape.errors():
        return
    t = heuristic_tiling(shape, A2, core_num)
    assert t.errors(*SIZES) == []
    assert t.core_num <= core_num


# -- DwTiling.errors negative tests and dict round trip -----------------------------------------
@pytest.fixture
def good() -> DwTiling:
    return heuristic_tiling(_case_shape("001"), A2)


def test_errors_domain_messages(good: DwTiling) -> None:
    bad = dataclasses.replace(
        good, base_m=100, base_k=124, al1_pbuffer=3, step_ka=0, iterate_order=2, k0=8
    )
    assert bad.errors(*SIZES) == [
        "k0 must equal channel_size 16, got 8",
        "base_m must be a multiple of 16, got 100",
        "base_k must be a multiple of k0 (8), got 124",
        "al1_pbuffer must be 1 or 2, got 3",
        "step_ka must be at least 1, got 0",
        "iterate_order must be 0 (ORDER_M) or 1 (ORDER_N), got 2",
    ]
    assert dataclasses.replace(good, channel_size=8, k0=8).errors(*SIZES) == [
        "channel_size (C0) must be 16 for 2-byte types, got 8"
    ]


def test_errors_buffer_overflow_messages(good: DwTiling) -> None:
    big = dataclasses.replace(good, base_m=256)
    assert big.errors(*SIZES) == [
        "L0A overflow: base_m 256 x base_k 128 (16-aligned) x 2 B = 65536 B x2 = 131072 B, "
        "L0A has 65536 B",
        "L0C overflow: base_m 256 x base_n 128 x 4 B = 131072 B x2 = 262144 B, L0C has 131072 B",
        "L1 overflow: A1 needs 262144 B x2 + B1 needs 82240 B x2 = 688768 B, L1 has 524288 B",
    ]
    assert dataclasses.replace(good, base_n=256, cl0_pbuffer=1).errors(*SIZES) == [
        "L0B overflow: base_n 256 x base_k 128 (16-aligned) x 2 B = 65536 B x2 = 131072 B, "
        "L0B has 65536 B",
        "bl1_bound 41120 is below the 61680 elements one B1 block can need "
        "(base_k 128 x step_kb 2, base_n 256 x step_n 1)",
    ]
    assert good.errors(*SIZES) == []
    assert good.errors(300000, *SIZES[1:]) == [
        "L1 overflow: A1 needs 131072 B x2 + B1 needs 82240 B x2 = 426624 B, L1 has 300000 B"
    ]


def test_errors_share_messages(good: DwTiling) -> None:
    assert dataclasses.replace(good, m_dim=2).errors(*SIZES) == [
        "m_dim 2 leaves a core idle: 1 x single_core_cout 128 already covers cout1_g*C0 = 128"
    ]
    assert dataclasses.replace(good, single_core_ho=64).errors(*SIZES) == [
        "k_dim 1 x single_core_ho 64 = 64 does not cover ho = 128"
    ]
    assert dataclasses.replace(good, single_core_ho=3, k_dim=43, single_core_k=2048).errors(
        *SIZES
    ) == [
        "single_core_k 2048 exceeds the per-core single_core_ho*wo (C0-aligned) = 384 rounded up "
        "to whole L1 blocks of 512 (512)"
    ]
    assert dataclasses.replace(good, single_core_batch=8, batch_dim=2, single_core_n=2000).errors(
        *SIZES
    ) == [
        "batch_dim 2 x single_core_batch 8 = 16 does not cover batch*dout = 17",
        "single_core_n 2000 exceeds the per-core hk*wk*single_core_cin = 1152 rounded up to "
        "whole L1 blocks of 128 (1152)",
    ]
    assert dataclasses.replace(good, single_core_cout=120, single_core_m=256).errors(*SIZES) == [
        "m_dim 1 x single_core_cout 120 = 120 does not cover cout1_g*C0 = 128",
        "single_core_cout must be a multiple of 16, got 120",
        "single_core_m 256 exceeds the per-core single_core_cout = 120 rounded up to whole L1 "
        "blocks of 128 (128)",
    ]


def test_from_dict_round_trip(good: DwTiling) -> None:
    assert DwTiling.from_dict(good.as_dict()) == good
    d = good.as_dict()
    del d["base_m"]
    with pytest.raises(ValueError, match="missing DwTiling field"):
        DwTiling.from_dict(d)
    with pytest.raises(ValueError, match="unknown DwTiling field"):
        DwTiling.from_dict({**good.as_dict(), "base_x": 1})
    with pytest.raises(ValueError, match="must be an integer"):
        DwTiling.from_dict({**good.as_dict(), "base_m": 128.0})
    # Fields with a default (the multi-core split, the basic block) may be left out.
    partial = {k: v for k, v in good.as_dict().items() if not k.endswith("_dim")}
    assert DwTiling.from_dict(partial) == good


def test_k_steps_must_nest():
    """step_ka and step_kb are multiples of one another (the kernel's K walk relies on it)."""
    a2 = hw.load()
    base = heuristic_tiling(
        ConvBpFilterShape(1, 16, 1, 40, 40, 32, 1, 3, 3, pads=(0, 0, 1, 1, 1, 1)), a2
    )
    sizes = (a2.l1_size, a2.l0a_size, a2.l0b_size, a2.l0c_size)
    nested = dataclasses.replace(base, step_ka=4, step_kb=2).errors(*sizes)
    assert not [e for e in nested if "multiples" in e]
    bad = dataclasses.replace(base, step_ka=2, step_kb=3).errors(*sizes)
    assert "step_ka (2) and step_kb (3) must be multiples of one another" in bad
