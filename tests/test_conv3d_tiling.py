"""The forward Conv3D tiler (passes/conv3d_tiling_heuristic.py) against the vendor's own tests
of its L0 tiling (hicann/asc-devkit ``tests/api/adv_api/tiling/conv/test_conv3d_api_tiling.cpp``:
``L0Range_cout_prime``, ``L0Range_m_prime``, ``L0Tiling_larger_cout1``, ``L0Tiling_larger_m``,
``L0Range_normal``), and its whole tilings against the ``#ascend.conv3d_tiling`` rules."""

from __future__ import annotations

import pytest

from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import load
from ascend_xdsl.passes.conv3d_tiling_heuristic import (
    L0Inputs,
    comm_factors_with_powers_of_two,
    conv3d_tiling,
    init_ping_pong,
    l0_decision,
    l0_ranges,
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
