"""The reproduced Conv3DBackpropInput host tiler (``passes/conv3d_bp_input_tiling_heuristic.py``)
against the vendor's own expectations: every half-precision network case of hicann/asc-devkit
``tests/api/adv_api/tiling/conv_backprop/test_conv3d_backprop_input_api_tiling_network.cpp``
(single-core shape, base block, ping-pong buffers, steps, iterate order). The float32 cases of
that file are left out: float32 is not among the API's documented types (docs table 2).

Three cases are strict xfails: there the vendor's expected steps disagree with its own code as
traced (``EqualL1MatchStepMNK`` followed by hand, see ``DISAGREES``)."""

from __future__ import annotations

import pytest

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.passes.conv3d_bp_input_tiling_heuristic import (
    Conv3DBpInputTilingError,
    init_output_flag,
    tile_conv3d_bp_input,
)

# name: (weight (Cout, Cin, kD, kH, kW), input (N, Cin, D, H, W), pads6,
#        single core (M, Cout, Cout1, Cin, Cin1), base (M, K, N),
#        pbuffers (AL0, BL0, CL0, AL1, BL1), steps (M, N, Ka, Kb)); strides and dilations 1.
NETWORKS = {
    "x1_17": ((512, 512, 1, 1, 1), (1, 512, 5, 32, 32), (0,) * 6,
              (1024, 512, 32, 128, 8), (256, 64, 128), (2, 2, 1, 2, 1), (1, 1, 4, 8)),
    "magvit_1": ((3, 64, 3, 3, 3), (16, 64, 22, 130, 130), (0,) * 6,
                 (16900, 16, 1, 64, 4), (336, 48, 64), (2, 2, 1, 2, 2), (1, 1, 3, 3)),
    "magvit_2": ((64, 64, 1, 1, 1), (16, 64, 20, 128, 128), (0,) * 6,
                 (16384, 64, 4, 64, 4), (256, 64, 64), (2, 2, 1, 2, 1), (1, 1, 1, 1)),
    "x1_10": ((256, 128, 3, 3, 3), (1, 128, 11, 128, 128), (0, 0, 1, 1, 1, 1),
              (16384, 256, 16, 128, 8), (256, 48, 128), (2, 2, 1, 2, 2), (1, 1, 21, 3)),
    "x1_12": ((256, 256, 3, 3, 3), (1, 256, 11, 128, 128), (0, 0, 1, 1, 1, 1),
              (16384, 256, 16, 128, 8), (256, 48, 128), (2, 2, 1, 2, 2), (1, 1, 21, 3)),
    "x1_14": ((3, 128, 3, 3, 3), (1, 128, 19, 256, 256), (0, 0, 1, 1, 1, 1),
              (65536, 16, 1, 128, 8), (256, 48, 128), (2, 2, 1, 2, 2), (1, 1, 3, 3)),
    "svd_7": ((1280, 1280, 3, 1, 1), (1, 1280, 25, 5, 8), (1, 1, 0, 0, 0, 0),
              (48, 1280, 80, 256, 16), (48, 64, 256), (2, 2, 1, 2, 2), (1, 1, 18, 3)),
    "x1_bs2_20": ((512, 256, 1, 1, 1), (2, 256, 5, 64, 64), (0,) * 6,
                  (4096, 512, 32, 128, 8), (256, 64, 128), (2, 2, 1, 2, 1), (1, 1, 4, 8)),
    "videogpt_h240_3": ((240, 4, 1, 1, 1), (1, 4, 4, 60, 60), (0,) * 6,
                        (3600, 240, 15, 16, 1), (256, 64, 16), (2, 2, 1, 2, 1), (1, 1, 4, 4)),
}  # fmt: skip

DISAGREES = {
    # EqualL1MatchStepMNK with baseM 256, baseN 128, baseK 48, lenHkWkC0 144, both L1 halves
    # 128 KiB (double buffered): cout1B1 = 131072 // (144·128·2) = 3, cout1A1 = 131072 //
    # (2·CalFmapH(256) = 4 · Wo 128 · 16) = 8; AlignCout1(8, 3) makes cout1B1 the largest
    # divisor of 8 below 3, 2; stepKa = 8·144/48 = 24, stepKb = 2·144/48 = 6. It beats the
    # ladder's (9, 9) and fits L1 (409,600 bytes), so the code gives Ka 24, Kb 6; the test
    # expects 21, 3.
    "x1_10": "vendor test expects stepKa/Kb 21/3; its EqualL1MatchStepMNK traces to 24/6",
    "x1_12": "vendor test expects stepKa/Kb 21/3; its EqualL1MatchStepMNK traces to 24/6",
    # baseM 48 (Hi·Wi 40 aligned), baseN 256, baseK 64, lenHkWkC0 16: cout1B1 = 131072 // 8192
    # = 16, cout1A1 = min(131072 // (2·5·8·16), Cout1G 80) = 80; AlignCout1 keeps 16 (it
    # divides 80): Ka 80·16/64 = 20, Kb 16·16/64 = 4, valid in L1; the test expects 18, 3.
    "svd_7": "vendor test expects stepKa/Kb 18/3; its EqualL1MatchStepMNK traces to 20/4",
}


def _problem(w: tuple[int, ...], x: tuple[int, ...], pads: tuple[int, ...]) -> ConvBpFilterShape:
    return ConvBpFilterShape.from_shapes(x, w, (1, 1, 1), pads, (1, 1, 1), 1, "f16")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=DISAGREES[n]))
        if n in DISAGREES
        else n
        for n in NETWORKS
    ],
)
def test_vendor_network_cases(name: str) -> None:
    w, x, pads, single, base, pbuffers, steps = NETWORKS[name]
    t = tile_conv3d_bp_input(_problem(w, x, pads))
    got = (
        (t.single_core_m, t.single_core_cout, t.single_core_cout1, t.single_core_cin,
         t.single_core_cin1),
        (t.base_m, t.base_k, t.base_n),
        (t.al0_pbuffer, t.bl0_pbuffer, t.cl0_pbuffer, t.al1_pbuffer, t.bl1_pbuffer),
        (t.step_m, t.step_n, t.step_ka, t.step_kb),
    )  # fmt: skip
    assert got == (single, base, pbuffers, steps)
    # TestOtherResult(1, 0): iterate order N, no HF32; and SetFinalTiling's constants.
    assert (t.iterate_order, t.hf32_flag) == (1, 0)
    assert (t.single_core_batch, t.single_core_group, t.single_core_din, t.single_core_ho) == (
        1,
        1,
        1,
        1,
    )


@pytest.mark.parametrize("name", list(NETWORKS))
def test_vendor_cases_restate_their_problem_and_fit(name: str) -> None:
    """Whatever the steps, the tiling restates the problem and fits the A2's L0 buffers."""
    w, x, pads, *_ = NETWORKS[name]
    problem = _problem(w, x, pads)
    t = tile_conv3d_bp_input(problem)
    assert t.problem_errors(problem) == []
    assert t.errors(65536, 65536, 131072) == []


def test_groups_other_than_one_are_refused() -> None:
    problem = ConvBpFilterShape.from_shapes((1, 32, 4, 8, 8), (32, 16, 3, 3, 3), groups=2)
    with pytest.raises(Conv3DBpInputTilingError, match="takes groups = 1 only, got 2"):
        tile_conv3d_bp_input(problem)


@pytest.mark.parametrize(
    ("input_size", "stride", "pads", "dilation", "flag"),
    [
        ((1, 16, 10, 10, 10), (2, 2, 2), (1,) * 6, (1, 1, 1), 0),
        ((1, 16, 10, 10, 10), (2, 2, 2), (1, 1, 0, 0, 1, 1), (1, 1, 1), 1),  # (10 - 3) mod 2 > 0
        ((1, 16, 10, 10, 10), (1, 4, 1), (1,) * 6, (1, 1, 1), 1),  # stride H > kH
        ((1, 16, 10, 10, 10), (1, 1, 1), (1,) * 6, (2, 1, 1), 1),  # D dilation
    ],
)
def test_init_output_flag(
    input_size: tuple[int, ...],
    stride: tuple[int, ...],
    pads: tuple[int, ...],
    dilation: tuple[int, ...],
    flag: int,
) -> None:
    problem = ConvBpFilterShape.from_shapes(input_size, (16, 16, 3, 3, 3), stride, pads, dilation)
    assert init_output_flag(problem) == flag
