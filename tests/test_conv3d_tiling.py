"""The forward Conv3D tiler (passes/conv3d_tiling_heuristic.py) against the vendor's own tests
of its L0 tiling (hicann/asc-devkit ``tests/api/adv_api/tiling/conv/test_conv3d_api_tiling.cpp``:
``L0Range_cout_prime``, ``L0Range_m_prime``, ``L0Tiling_larger_cout1``, ``L0Tiling_larger_m``,
``L0Range_normal``), against the vendor's code itself (its whole decision, L1 included), and its
whole tilings against the ``#ascend.conv3d_tiling`` rules.

The vendor's tests of the whole tiling (``NetWorks_*``) check invariants only (kAL1 non-zero,
nBL1 and mAL1 multiples of nL0 and mL0 or of 16, ...), which :func:`test_vendor_invariants`
checks too. The golden decisions (:data:`GOLDEN`) are what the vendor's
``Conv3dTilingAlgorithm::Process`` (``impl/adv_api/tiling/conv/conv3d_tiling_algorithm.cpp``
and ``conv3d_tiling_util.cpp`` of mirror-cann/asc-devkit 82b89a1, compiled by g++ against the
stand-in headers of :data:`_STUB_UTIL` and :data:`_STUB_BASE`, as
:func:`test_against_the_vendor_code` does) returns: the README's and the embedded default
layer, three suite layers, and one shape per outcome (which sides are loaded whole, bypass,
M or N first, K split in L1, the buffering) found among 4,000 random shapes.
:func:`test_against_the_vendor_code` compiles that code again when ``ASCEND_XDSL_REAL_CANN``
names an asc-devkit checkout and compares 2,000 random shapes."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import load
from ascend_xdsl.passes.conv3d_tiling_heuristic import (
    L0Inputs,
    L1Inputs,
    L1Result,
    api_tiling,
    comm_factors_with_powers_of_two,
    conv3d_tiling,
    init_ping_pong,
    l0_decision,
    l0_ranges,
    with_l1,
)

HW = load()
# The vendor test's platform (SetPlatFormInfo: L1_SIZE = 524288 - 256, BT_SIZE = 1024).
VENDOR_L1 = 524288 - 256


def vendor_case(single_co1: int, single_m: int) -> L0Inputs:
    """The vendor tests' fixture: Hi = Wi = 32, kH = 3, Wo = 8, bf16 with a bf16 bias."""
    return L0Inputs(
        hi=32,
        wi=32,
        wo=8,
        kh=3,
        stride_h=1,
        dilation_h=1,
        single_co1=single_co1,
        single_m=single_m,
        has_bias=True,
        bias_bytes=2,
        l1=VENDOR_L1,
        l0a=65536,
        l0b=65536,
        l0c=131072,
        bias_table=1024,
    )


@pytest.mark.parametrize(
    ("co1", "m", "m_range", "n_range"),
    [
        # L0Range_cout_prime: Cout1 = 11 is prime, the powers of two fill its range.
        (11, 32, [16, 32], [16, 32, 64, 128, 176]),
        # L0Range_m_prime: M = 11 fractals.
        (2, 11 * 16, [16, 32, 64, 128, 176], [16, 32]),
        # L0Tiling_larger_cout1, L0Tiling_larger_m, L0Range_normal (their stated ranges).
        (64, 4 * 16, [16, 32, 64], [16, 32, 64, 128, 256, 512, 1024]),
        (4, 64 * 16, [16, 32, 64, 128, 256, 512, 1024], [16, 32, 64]),
        (16, 16 * 16, [16, 32, 64, 128, 256], [16, 32, 64, 128, 256]),
    ],
)
def test_vendor_l0_ranges_and_decision(
    co1: int, m: int, m_range: list[int], n_range: list[int]
) -> None:
    p = vendor_case(co1, m)
    pb = init_ping_pong(p)
    assert pb.al1 == 2  # L0Range_cout_prime: EXPECT_EQ(pbAL1, 2)
    assert l0_ranges(p, pb) == (m_range, n_range)
    m_l0, n_l0 = l0_decision(p, pb)
    # The vendor tests only require the decision to be in the ranges; it must also fit.
    assert m_l0 in m_range and n_l0 in n_range
    assert m_l0 * 16 * 2 * 2 <= p.l0a and m_l0 * n_l0 * 4 <= p.l0c and n_l0 * 2 <= p.bias_table


def test_decision_grows_the_smaller_side() -> None:
    # L0Range_normal's square range: the tile grows M and N alternately, M on ties, and
    # steps back once on the axis that overflowed L0 (mL0 = 256 with nL0 = 256 takes all of
    # L0C in fp32: 262144 bytes > 131072), so it ends at 256 x 128.
    p = vendor_case(16, 256)
    assert l0_decision(p, init_ping_pong(p)) == (256, 128)


def test_factor_helper() -> None:
    assert comm_factors_with_powers_of_two(12, 64) == [1, 2, 3, 4, 6, 8, 12]
    assert comm_factors_with_powers_of_two(12, 5) == [1, 2, 3, 4]


LAYERS = [
    ((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), (1, 1, 1), (1,) * 6, (1, 1, 1), 1),
    ((1, 32, 9, 17, 16), (16, 8, 3, 3, 2), (2, 2, 2), (0, 1, 2, 1, 1, 0), (1, 2, 1), 4),
    ((1, 48, 4, 7, 7), (48, 1, 3, 3, 3), (1, 1, 1), (1,) * 6, (1, 1, 1), 48),
]


@pytest.mark.parametrize("layer", LAYERS)
@pytest.mark.parametrize("cores", [1, 24])
@pytest.mark.parametrize("bias", [False, True])
def test_heuristic_tilings_verify(layer: tuple, cores: int, bias: bool) -> None:
    x, w, s, p, d, g = layer
    problem = ConvBpFilterShape.from_shapes(x, w, s, p, d, g)
    t = conv3d_tiling(problem, HW, cores, has_bias=bias)
    assert t.errors(HW.l1_size, HW.l0a_size, HW.l0b_size, HW.l0c_size) == []
    assert t.problem_errors(problem) == []
    assert t.batch_dim * t.do_dim * t.co_dim * t.m_dim <= cores
    Conv3DTilingAttr(t).verify()  # the attribute carries it unchanged
    assert Conv3DTilingAttr(t).tiling == t


def test_problem_mismatch_is_named() -> None:
    problem = ConvBpFilterShape.from_shapes((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), pads=(1,) * 6)
    t = conv3d_tiling(problem, HW)
    other = Conv3DTiling(**{**t.as_dict(), "org_hi": 27})
    assert other.problem_errors(problem) == ["tiling org_hi = 27 does not match the problem's 28"]


# -- the L1 tiling against the vendor's code -------------------------------------------------
GOLDEN = [
    (
        "readme",
        (8, 8, 8, 3, 1, 1, 1, 64, 0, 2),
        (3, 3, 1, 2, 16),
        (64, 432, 16, 432, 0, 64, 0, 1, 0, 3, 432, 3, 0, 432, 27, 0, 0, 1, 1, 1, 4),
    ),
    (
        "default",
        (28, 28, 28, 3, 1, 1, 4, 784, 0, 2),
        (3, 3, 4, 1, 64),
        (512, 32, 64, 1728, 1728, 784, 64, 2, 1, 12, 1728, 12, 108, 1728, 108, 0, 0, 0, 1, 1, 3),
    ),
    (
        "c3d-conv5b",
        (7, 7, 7, 3, 1, 1, 3, 49, 0, 2),
        (3, 3, 32, 1, 48),
        (64, 256, 48, 13824, 2304, 64, 48, 1, 1, 96, 13824, 96, 144, 2304, 144, 1, 0, 0, 1, 0, 7),
    ),
    (
        "r3d50-stem",
        (112, 112, 56, 7, 2, 1, 4, 3136, 0, 2),
        (3, 7, 1, 1, 64),
        (512, 16, 64, 784, 2352, 512, 64, 1, 1, 1, 784, 1, 147, 2352, 147, 0, 0, 0, 0, 1, 11),
    ),
    (
        "i3d-mixed4b-1x1",
        (14, 14, 14, 1, 1, 1, 4, 196, 0, 2),
        (1, 1, 30, 1, 64),
        (208, 48, 64, 480, 480, 208, 64, 1, 1, 30, 480, 30, 30, 480, 30, 0, 0, 0, 1, 1, 7),
    ),
    (
        "sig00000113",
        (64, 112, 36, 7, 3, 1, 2, 525, 0, 2),
        (3, 5, 4, 16, 32),
        (528, 16, 32, 560, 560, 528, 32, 1, 1, 1, 560, 1, 35, 560, 35, 0, 0, 0, 0, 0, 27),
    ),
    (
        "sig00001103",
        (224, 128, 127, 2, 1, 2, 64, 14844, 0, 2),
        (3, 2, 1, 16, 1024),
        (256, 64, 128, 128, 192, 256, 1024, 1, 8, 2, 64, 1, 12, 192, 12, 0, 0, 0, 0, 1, 11),
    ),
    (
        "sig10010003",
        (4, 56, 55, 1, 1, 2, 128, 152, 0, 4),
        (1, 2, 8, 16, 2048),
        (160, 64, 128, 256, 256, 160, 512, 1, 4, 8, 256, 8, 16, 256, 16, 1, 0, 0, 1, 0, 3),
    ),
    (
        "sig01001103",
        (128, 16, 10, 1, 1, 1, 1, 521, 1, 2),
        (3, 7, 16, 2, 16),
        (528, 16, 16, 448, 5376, 528, 16, 1, 1, 4, 448, 4, 336, 5376, 336, 0, 1, 0, 0, 1, 15),
    ),
    (
        "sig00111000",
        (16, 32, 11, 3, 3, 1, 1, 55, 0, 2),
        (1, 1, 2, 2, 16),
        (64, 96, 16, 96, 0, 64, 0, 1, 0, 2, 96, 2, 0, 96, 6, 0, 0, 1, 1, 1, 4),
    ),
    (
        "sig01000113",
        (7, 112, 36, 3, 3, 1, 4, 35, 1, 4),
        (3, 7, 128, 1, 64),
        (48, 224, 64, 672, 672, 48, 64, 1, 1, 2, 672, 2, 42, 672, 42, 0, 1, 0, 0, 0, 31),
    ),
    (
        "sig00011003",
        (224, 7, 7, 3, 1, 1, 1, 953, 0, 4),
        (1, 1, 1, 2, 16),
        (960, 16, 16, 48, 48, 960, 16, 1, 1, 1, 48, 1, 3, 48, 3, 0, 0, 0, 1, 1, 7),
    ),
    (
        "sig11010013",
        (128, 32, 26, 1, 1, 1, 64, 1724, 1, 4),
        (3, 7, 2, 1, 1024),
        (144, 112, 128, 672, 224, 1728, 128, 12, 1, 6, 672, 6, 14, 224, 14, 1, 1, 0, 1, 0, 3),
    ),
    (
        "sig01111000",
        (128, 112, 37, 1, 3, 2, 1, 300, 1, 2),
        (1, 2, 2, 8, 16),
        (304, 64, 16, 64, 0, 304, 0, 1, 0, 2, 64, 2, 0, 64, 4, 0, 1, 1, 1, 1, 4),
    ),
    (
        "sig11010003",
        (7, 7, 3, 3, 2, 1, 8, 4, 1, 4),
        (7, 3, 2, 16, 128),
        (16, 1008, 16, 2016, 2016, 16, 64, 1, 4, 14, 2016, 14, 126, 2016, 126, 1, 1, 0, 1, 0, 7),
    ),
    (
        "sig00011002",
        (8, 32, 11, 3, 3, 2, 4, 10, 0, 2),
        (3, 2, 3, 16, 64),
        (16, 864, 16, 864, 864, 16, 64, 1, 4, 9, 864, 9, 54, 864, 54, 0, 0, 0, 1, 1, 6),
    ),
    (
        "sig00000103",
        (28, 64, 64, 3, 1, 1, 16, 999, 0, 4),
        (2, 1, 16, 2, 256),
        (144, 96, 128, 192, 1536, 144, 128, 1, 1, 4, 192, 4, 96, 1536, 96, 0, 0, 0, 0, 0, 11),
    ),
    (
        "sig11110003",
        (112, 7, 1, 1, 3, 2, 2, 11, 1, 4),
        (3, 5, 20, 16, 32),
        (16, 800, 16, 4800, 0, 16, 0, 1, 0, 60, 4800, 60, 0, 800, 50, 1, 1, 1, 1, 0, 7),
    ),
    (
        "sig01011002",
        (4, 4, 2, 1, 1, 2, 4, 4, 1, 4),
        (3, 3, 4, 4, 64),
        (16, 576, 16, 576, 576, 16, 64, 1, 4, 12, 576, 12, 36, 576, 36, 0, 1, 0, 1, 1, 6),
    ),
    (
        "sig01001003",
        (224, 112, 110, 3, 1, 1, 16, 23518, 1, 2),
        (1, 3, 2, 16, 256),
        (160, 96, 128, 288, 288, 1120, 256, 7, 2, 2, 288, 2, 18, 288, 18, 0, 1, 0, 0, 1, 11),
    ),
    (
        "sig10110003",
        (28, 32, 30, 5, 1, 1, 32, 528, 0, 4),
        (1, 3, 20, 8, 512),
        (176, 80, 128, 4800, 0, 528, 0, 3, 0, 20, 4800, 20, 0, 240, 15, 1, 0, 1, 1, 0, 3),
    ),
    (
        "sig10010013",
        (8, 32, 26, 5, 1, 1, 16, 95, 0, 2),
        (1, 7, 20, 8, 256),
        (96, 112, 128, 11200, 1120, 96, 128, 1, 1, 20, 11200, 20, 70, 1120, 70, 1, 0, 0, 1, 0, 7),
    ),
    (
        "sig01000103",
        (224, 64, 21, 3, 3, 1, 16, 1504, 1, 2),
        (3, 3, 3, 2, 256),
        (256, 48, 128, 144, 1296, 256, 128, 1, 1, 1, 144, 1, 81, 1296, 81, 0, 1, 0, 0, 0, 11),
    ),
    (
        "sig01011003",
        (7, 56, 54, 1, 1, 2, 1, 279, 1, 2),
        (7, 3, 4, 16, 16),
        (288, 48, 16, 1344, 1344, 288, 16, 1, 1, 28, 1344, 28, 84, 1344, 84, 0, 1, 0, 1, 1, 7),
    ),
    (
        "sig11010002",
        (28, 7, 1, 1, 3, 1, 128, 5, 1, 2),
        (2, 5, 6, 8, 2048),
        (16, 960, 16, 960, 960, 16, 128, 1, 8, 12, 960, 12, 60, 960, 60, 1, 1, 0, 1, 0, 6),
    ),
    (
        "sig11100003",
        (112, 64, 32, 2, 2, 1, 64, 514, 1, 2),
        (1, 1, 8, 2, 1024),
        (176, 64, 128, 256, 0, 176, 0, 1, 0, 8, 256, 8, 0, 64, 4, 1, 1, 1, 0, 0, 11),
    ),
    (
        "sig10000013",
        (128, 32, 30, 2, 1, 1, 64, 1783, 0, 4),
        (5, 3, 4, 2, 1024),
        (224, 64, 128, 1920, 192, 224, 128, 1, 1, 20, 1920, 20, 12, 192, 12, 1, 0, 0, 0, 0, 27),
    ),
    (
        "sig01000003",
        (224, 28, 26, 2, 1, 1, 64, 4670, 1, 2),
        (5, 3, 1, 16, 1024),
        (256, 48, 128, 480, 480, 256, 256, 1, 2, 5, 480, 5, 30, 480, 30, 0, 1, 0, 0, 0, 11),
    ),
    (
        "sig00001003",
        (128, 64, 63, 1, 1, 1, 8, 4465, 0, 4),
        (1, 2, 4, 16, 128),
        (256, 64, 128, 128, 128, 1536, 128, 6, 1, 4, 128, 4, 8, 128, 8, 0, 0, 0, 0, 1, 11),
    ),
    (
        "sig01100103",
        (128, 224, 74, 7, 3, 2, 4, 632, 1, 4),
        (3, 3, 8, 16, 64),
        (512, 16, 64, 336, 0, 512, 0, 1, 0, 1, 336, 1, 0, 336, 21, 0, 1, 1, 0, 0, 11),
    ),
    (
        "sig11000003",
        (128, 56, 56, 3, 1, 2, 128, 6792, 1, 2),
        (3, 1, 3, 4, 2048),
        (256, 48, 128, 432, 432, 256, 128, 1, 1, 9, 432, 9, 27, 432, 27, 1, 1, 0, 0, 0, 11),
    ),
    (
        "sig11000013",
        (112, 64, 60, 3, 1, 2, 32, 3782, 1, 2),
        (5, 5, 2, 8, 512),
        (256, 48, 128, 2400, 240, 256, 128, 1, 1, 10, 2400, 10, 15, 240, 15, 1, 1, 0, 0, 0, 11),
    ),
    (
        "sig10010002",
        (64, 56, 19, 1, 3, 2, 32, 165, 0, 4),
        (1, 1, 8, 2, 512),
        (176, 128, 128, 128, 128, 176, 256, 1, 2, 8, 128, 8, 8, 128, 8, 1, 0, 0, 1, 0, 2),
    ),
    (
        "sig00000003",
        (112, 128, 126, 3, 1, 2, 32, 12350, 0, 2),
        (5, 3, 1, 16, 512),
        (256, 48, 128, 720, 720, 256, 128, 1, 1, 5, 720, 5, 45, 720, 45, 0, 0, 0, 0, 0, 11),
    ),
    (
        "sig10000003",
        (224, 64, 62, 1, 1, 2, 32, 7317, 0, 2),
        (7, 3, 2, 2, 512),
        (256, 48, 128, 672, 672, 256, 128, 1, 1, 14, 672, 14, 42, 672, 42, 1, 0, 0, 0, 0, 11),
    ),
    (
        "sig01101001",
        (56, 112, 112, 1, 1, 2, 8, 4076, 1, 2),
        (1, 1, 4, 8, 128),
        (256, 64, 128, 64, 0, 1024, 0, 4, 0, 4, 64, 4, 0, 64, 4, 0, 1, 1, 0, 1, 9),
    ),
    (
        "sig10100003",
        (32, 112, 56, 2, 2, 1, 128, 725, 0, 4),
        (1, 1, 6, 1, 2048),
        (256, 32, 128, 192, 0, 256, 0, 1, 0, 6, 192, 6, 0, 32, 2, 1, 0, 1, 0, 0, 11),
    ),
    (
        "sig11110001",
        (128, 224, 224, 1, 1, 2, 4, 15916, 1, 2),
        (1, 1, 1, 2, 64),
        (512, 16, 64, 16, 0, 15920, 0, 32, 0, 1, 16, 1, 0, 16, 1, 1, 1, 1, 1, 0, 1),
    ),
    (
        "sig00100103",
        (112, 224, 75, 3, 3, 2, 64, 253, 0, 2),
        (7, 1, 32, 8, 1024),
        (256, 48, 128, 96, 0, 256, 0, 1, 0, 2, 96, 2, 0, 48, 3, 0, 0, 1, 0, 0, 11),
    ),
    (
        "sig00111001",
        (112, 64, 64, 1, 1, 2, 2, 1632, 0, 4),
        (1, 1, 1, 4, 32),
        (1024, 16, 32, 16, 0, 1632, 0, 2, 0, 1, 16, 1, 0, 16, 1, 0, 0, 1, 1, 1, 1),
    ),
    (
        "sig10110103",
        (8, 8, 1, 3, 2, 1, 4, 2, 0, 2),
        (2, 7, 128, 16, 64),
        (16, 1024, 16, 43008, 0, 16, 0, 1, 0, 128, 43008, 128, 0, 336, 21, 1, 0, 1, 1, 0, 7),
    ),
]
"""(name, L0Inputs (hi, wi, wo, kh, stride_h, dilation_h, single_co1, single_m, has_bias,
bias_bytes), L1Inputs (kd, kw, cin1, single_do, single_co), the vendor's decision: mL0, kL0,
nL0, kAL1, kBL1, mAL1, nBL1, mAL1DivmL0, nBL1DivnL0, cin1InAL1, kAL1Tail, cin1InAL1Tail,
kBL1DivK0, kBL1Tail, kBL1TailDivK0, iterateMNOrder, biasFullLoadFlag, bl1BypassFlag,
al1FullLoad, bl1FullLoad, pBufferFlag) on the Atlas A2's L1 (512 KiB), L0 and bias table."""


def _inputs(p: tuple, q: tuple) -> tuple[L0Inputs, L1Inputs]:
    hi, wi, wo, kh, sh, dh, co1, m, bias, bias_bytes = p
    l0 = L0Inputs(
        hi=hi, wi=wi, wo=wo, kh=kh, stride_h=sh, dilation_h=dh, single_co1=co1, single_m=m,
        has_bias=bool(bias), bias_bytes=bias_bytes, l1=HW.l1_size, l0a=HW.l0a_size,
        l0b=HW.l0b_size, l0c=HW.l0c_size, bias_table=HW.bias_table_size,
    )  # fmt: skip
    kd, kw, cin1, single_do, single_co = q
    return l0, L1Inputs(kd=kd, kw=kw, cin1=cin1, single_do=single_do, single_co=single_co)


def _decision(m_l0: int, n_l0: int, r: L1Result) -> tuple[int, ...]:
    """Our decision in the order the vendor harness prints it."""
    return (
        m_l0, r.k_l0, n_l0, r.k_al1, r.k_bl1, r.m_al1, r.n_bl1, r.m_al1_div_m_l0,
        r.n_bl1_div_n_l0, r.cin1_in_al1, r.k_al1_tail, r.cin1_in_al1_tail, r.k_bl1_div_k0,
        r.k_bl1_tail, r.k_bl1_tail_div_k0, r.iterate_mn_order, r.bias_full_load_flag,
        r.bl1_bypass_flag, r.al1_full_load, r.bl1_full_load, r.pbuffer_flag,
    )  # fmt: skip


@pytest.mark.parametrize(("name", "p", "q", "vendor"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_decisions(name: str, p: tuple, q: tuple, vendor: tuple) -> None:
    assert _decision(*api_tiling(*_inputs(p, q))) == vendor


def test_golden_cases_cover_every_outcome() -> None:
    """The golden set is no one-case sample: it has both orders, the three load modes of each
    side, a bypassed weight, a K split in L1 on both sides and every L0 buffering."""
    outcomes = {v[15:20] for _, _, _, v in GOLDEN}
    assert {o[0] for o in outcomes} == {0, 1}  # M first, N first
    assert {o[2] for o in outcomes} == {0, 1}  # bypass
    assert {(o[3], o[4]) for o in outcomes} == {(0, 0), (0, 1), (1, 0), (1, 1)}  # whole A / B
    k_split = {(v[3] < q[0] * q[1] * q[2] * p[3] * 16) for _, p, q, v in GOLDEN}
    assert k_split == {False, True}
    assert {v[20] & 3 for _, _, _, v in GOLDEN} == {0, 1, 2, 3}  # L0A/L0B single or double


@pytest.mark.parametrize(("name", "p", "q", "vendor"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_vendor_invariants(name: str, p: tuple, q: tuple, vendor: tuple) -> None:
    """``TestTilingResult`` of the vendor's test file, on our decision."""
    m_l0, n_l0, r = api_tiling(*_inputs(p, q))
    assert r.k_al1 != 0 and r.m_al1 != 0
    if r.bl1_bypass_flag:
        assert r.k_bl1 == 0 and r.n_bl1 == 0
    else:
        assert r.k_bl1 != 0 and (r.n_bl1 % n_l0 == 0 or r.n_bl1 % 16 == 0)
    assert r.m_al1 % m_l0 == 0 or r.m_al1 % 16 == 0
    assert m_l0 % 16 == 0 and r.k_l0 % 16 == 0 and n_l0 % 16 == 0


@pytest.mark.parametrize("layer", LAYERS)
def test_with_l1_of_the_heuristic_tiling_is_itself(layer: tuple) -> None:
    """The tuner's L1 derivation of a tiling the vendor's decision made changes nothing; of a
    smaller kL0 it keeps it (a factor of the L1 depths), with the L1 fields still legal."""
    x, w, s, p, d, g = layer
    problem = ConvBpFilterShape.from_shapes(x, w, s, p, d, g)
    t = conv3d_tiling(problem, HW, 24)
    assert with_l1(t, problem, HW) == t
    smaller = with_l1(replace(t, k_l0=16), problem, HW)
    assert smaller.k_l0 == 16
    assert smaller.errors(HW.l1_size, HW.l0a_size, HW.l0b_size, HW.l0c_size) == []


REAL_TREE = os.environ.get("ASCEND_XDSL_REAL_CANN", "")
_ALGORITHM = Path("impl/adv_api/tiling/conv")

_STUB_UTIL = """// Stand-in for conv3d_tiling_util.h: what the algorithm uses of it.
#pragma once
#include <cstdint>
#include <map>
#include <vector>
#include <cmath>
#include <algorithm>
namespace ConvCommonApi {
enum class ConvDtype : uint32_t { FLOAT16 = 0, FLOAT32, BF16, INT4, INT8, UINT8, INT32, INT64,
    UINT64, CONVDTYPEMAX };
}
namespace Conv3dTilingApi {
enum class IterateMNOrder : uint32_t { ITER_M_FST = 0, ITER_N_FST, INVALID };
const std::map<ConvCommonApi::ConvDtype, uint32_t> g_dtypeSizeTab = {
    {ConvCommonApi::ConvDtype::FLOAT16, 2}, {ConvCommonApi::ConvDtype::FLOAT32, 4},
    {ConvCommonApi::ConvDtype::BF16, 2}};
constexpr uint64_t DOUBLE_BUFFER_NUM = 2;
constexpr uint32_t MKN_VALUE_DEFAULT = 16;
constexpr uint32_t CONST_VALUE_2 = 2;
constexpr uint32_t POSTK_LIMIT = 65535;
int64_t LCM(int64_t numL, int64_t numR);
uint64_t CeilDiv(uint64_t a, uint64_t b);
uint64_t AlignB(uint64_t a, uint64_t b);
uint64_t Gcd(uint64_t a, uint64_t b);
void CalcCommFactorWithPowerOfTwo(const uint64_t num, const uint64_t numMax,
    std::vector<uint64_t>& resList);
void CalcCommFactor(const uint64_t num, const uint64_t numMax, std::vector<uint64_t>& resList);
void CalcFactorPointWise(uint64_t numMax, std::vector<uint64_t>& resList);
void VectorElementMultip(std::vector<uint64_t>& range, const uint64_t value);
bool IsArrayEqual(const std::vector<ConvCommonApi::ConvDtype>& arr1,
    const std::vector<ConvCommonApi::ConvDtype>& arr2, uint32_t size);
uint64_t InferHiL1(uint64_t inputHoL1, uint64_t hi, uint64_t singlekH, uint32_t dilationH,
    uint32_t strideH);
}
"""

_STUB_BASE = """// Stand-in for conv3d_tiling_base.h: the Conv3dTilingBase members it uses.
#pragma once
#include "../../../../impl/adv_api/tiling/conv/conv3d_tiling_util.h"
namespace Conv3dTilingApi {
using ConvCommonApi::ConvDtype;
struct Typed { ConvDtype dtype; };
struct Desc { Typed fMapType{ConvDtype::FLOAT16}, weightType{ConvDtype::FLOAT16},
    biasType{ConvDtype::FLOAT16}; };
struct L1Info { uint64_t kAL1 = 0, kBL1 = 0, mAL1Value = 0, nBL1Value = 0, mAL1DivmL0 = 0,
    nBL1DivnL0 = 0, cin1InAL1 = 0, kAL1Tail = 0, cin1InAL1Tail = 0, kBL1DivK0 = 0,
    kBL1Tail = 0, kBL1TailDivK0 = 0; IterateMNOrder iterateMNOrder = IterateMNOrder::INVALID;
    bool isWeightBypass = false, biasFullLoadFlag = false, fixpParamsFullLoadFlag = false,
    al1FullLoad = false, bl1FullLoad = false; };
struct L0Info { uint64_t mL0 = 0, kL0 = 0, nL0 = 0, nL0xk0 = 0, kL0xorgCoAlignN0 = 0; };
struct Shape { int64_t orgkH, orgkW, orgkD, orgCo, orgCi, orgDi, orgHi, orgWi, singlekH,
    singlekW, singlekD, singleCi, singleCo, singleDo, singleM; };
struct Calc { uint64_t singleCi1, singleCo1, singleM1, orgHo, orgWo, orgDo; };
struct Attr { int64_t strideH = 1, dilationH = 1; };
struct Cube { uint32_t m0 = 16, k0 = 16, n0 = 16; ConvDtype madType = ConvDtype::FLOAT32; };
struct Db { uint8_t pbAL1 = 1, pbBL1 = 1, pbAL0 = 2, pbBL0 = 2, pbCL0 = 1;
    uint64_t pBufferFlag = 0; };
struct Platform { uint64_t l1Size, l0ASize, l0BSize, l0CSize, btSize; };
class Conv3dTilingBase { public:
    Desc descInfo; Shape shapeInfo; Calc shapeCalc; Attr attrInfo; Cube cubeInfo;
    L1Info l1TilingInfo; L0Info l0TilingInfo; Db dbValue; Platform platformInfo;
    bool hasBias = false; };
}
"""

_MAIN = """// One problem per line on stdin; prints Process()'s decision.
#include <cstdio>
#include "impl/adv_api/tiling/conv/conv3d_tiling_algorithm.h"
using namespace Conv3dTilingApi;
int main() {
    long long v[20];
    while (true) {
        for (int i = 0; i < 20; ++i) if (scanf("%lld", &v[i]) != 1) return 0;
        // l1 l0a l0b l0c bt bias biasBytes kd kh kw hi wi wo cin1 co1 do co m strideH dilationH
        Conv3dTilingBase b;
        b.platformInfo = {(uint64_t)v[0], (uint64_t)v[1], (uint64_t)v[2], (uint64_t)v[3],
            (uint64_t)v[4]};
        b.hasBias = v[5];
        b.descInfo.biasType.dtype = v[6] == 4 ? ConvDtype::FLOAT32 : ConvDtype::FLOAT16;
        b.shapeInfo = {v[8], v[9], v[7], v[14] * 16, v[13] * 16, 0, v[10], v[11], v[8], v[9],
            v[7], v[13] * 16, v[16], v[15], v[17]};
        b.shapeCalc = {(uint64_t)v[13], (uint64_t)v[14], (uint64_t)((v[17] + 15) / 16), 0,
            (uint64_t)v[12], 0};
        b.attrInfo.strideH = v[18];
        b.attrInfo.dilationH = v[19];
        Conv3dTilingAlgorithm a(&b);
        long long r = a.Process();
        auto& l = b.l1TilingInfo;
        auto& z = b.l0TilingInfo;
        printf("%lld %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu "
            "%u %d %d %d %d %lu\\n",
            r, z.mL0, z.kL0, z.nL0, l.kAL1, l.kBL1, l.mAL1Value, l.nBL1Value, l.mAL1DivmL0,
            l.nBL1DivnL0, l.cin1InAL1, l.kAL1Tail, l.cin1InAL1Tail, l.kBL1DivK0, l.kBL1Tail,
            l.kBL1TailDivK0, (unsigned)l.iterateMNOrder, l.biasFullLoadFlag, l.isWeightBypass,
            l.al1FullLoad, l.bl1FullLoad, b.dbValue.pBufferFlag);
    }
}
"""


def _vendor_binary(tree: Path, work: Path) -> Path:
    """The vendor's algorithm from ``tree``, compiled with the stand-in headers."""
    conv = work / _ALGORITHM
    conv.mkdir(parents=True)
    for name in ("conv3d_tiling_algorithm.cpp", "conv3d_tiling_algorithm.h",
                 "conv3d_tiling_util.cpp"):  # fmt: skip
        shutil.copy(tree / _ALGORITHM / name, conv / name)
    (conv / "conv3d_tiling_util.h").write_text(_STUB_UTIL)
    (work / "impl/adv_api/detail").mkdir(parents=True)
    (work / "impl/adv_api/detail/host_log.h").write_text(
        "#pragma once\n#define TILING_LOG_WARNING(...)\n#define TILING_LOG_ERROR(...)\n"
        "#define TILING_LOG_DEBUG(...)\n"
    )
    base = work / "include/adv_api/conv/conv3d"
    base.mkdir(parents=True)
    (base / "conv3d_tiling_base.h").write_text(_STUB_BASE)
    (work / "main.cpp").write_text(_MAIN)
    binary = work / "vendor_tiler"
    sources = [work / "main.cpp", conv / "conv3d_tiling_algorithm.cpp",
               conv / "conv3d_tiling_util.cpp"]  # fmt: skip
    subprocess.run(
        ["g++", "-O1", "-std=c++17", f"-I{work}", "-o", str(binary), *map(str, sources)],
        check=True, timeout=300,
    )  # fmt: skip
    return binary


def _random_shapes(n: int, seed: int) -> list[tuple[tuple, tuple]]:
    rng = random.Random(seed)
    out: list[tuple[tuple, tuple]] = []
    while len(out) < n:
        kd, kh, kw = (rng.choice([1, 1, 2, 3, 3, 5, 7]) for _ in range(3))
        sh, dh = rng.choice([1, 1, 2, 3]), rng.choice([1, 1, 2])
        hi, wi = (rng.choice([4, 7, 8, 14, 16, 28, 32, 56, 64, 112, 224]) for _ in range(2))
        ho, wo = (hi - (kh - 1) * dh - 1) // sh + 1, (wi - kw) // sh + 1
        if ho < 1 or wo < 1:
            continue
        cin1 = rng.choice([1, 2, 3, 4, 6, 8, 16, 20, 32, 64, 128])
        co = rng.choice([16, 32, 64, 100, 128, 256, 512, 1024, 2048])
        single_co = min(co, rng.choice([co, max(16, co // 2)]))
        p = (hi, wi, wo, kh, sh, dh, -(-single_co // 16), rng.randint(1, ho * wo),
             rng.choice([0, 1]), rng.choice([2, 4]))  # fmt: skip
        q = (kd, kw, cin1, rng.choice([1, 2, 4, 8, 16]), single_co)
        out.append((p, q))
    return out


@pytest.mark.skipif(
    not REAL_TREE
    or not (Path(REAL_TREE) / _ALGORITHM / "conv3d_tiling_algorithm.cpp").is_file()
    or shutil.which("g++") is None,
    reason="set ASCEND_XDSL_REAL_CANN to an asc-devkit checkout (and install g++)",
)
def test_against_the_vendor_code(tmp_path: Path) -> None:
    """The vendor's ``Conv3dTilingAlgorithm::Process`` compiled from the tree, on 2,000 random
    single-core shapes and on the golden ones: every decision is ours."""
    binary = _vendor_binary(Path(REAL_TREE), tmp_path)
    shapes = _random_shapes(2000, 17) + [(p, q) for _, p, q, _ in GOLDEN]
    lines = []
    for p, q in shapes:
        hi, wi, wo, kh, sh, dh, co1, m, bias, bias_bytes = p
        kd, kw, cin1, single_do, single_co = q
        lines.append(
            f"{HW.l1_size} {HW.l0a_size} {HW.l0b_size} {HW.l0c_size} {HW.bias_table_size} "
            f"{bias} {bias_bytes} {kd} {kh} {kw} {hi} {wi} {wo} {cin1} {co1} {single_do} "
            f"{single_co} {m} {sh} {dh}"
        )
    done = subprocess.run(
        [str(binary)], input="\n".join(lines) + "\n", capture_output=True, text=True,
        check=True, timeout=300,
    )  # fmt: skip
    answers = [tuple(map(int, line.split())) for line in done.stdout.splitlines()]
    assert len(answers) == len(shapes)
    for (p, q), answer in zip(shapes, answers, strict=True):
        assert answer[0] == 0, (p, q)  # Process succeeded
        assert _decision(*api_tiling(*_inputs(p, q))) == answer[1:], (p, q)
    golden = {(p, q): v for _, p, q, v in GOLDEN}
    for (p, q), answer in zip(shapes, answers, strict=True):
        if (p, q) in golden:
            assert golden[p, q] == answer[1:]
