"""Conv3DBackpropInput (dX): the backprop pads of its tiling and the transposed-convolution
view they give, the tiling record's problem check, the runtime's reference
``conv3d_input_reference`` against ``torch.nn.grad.conv3d_input`` in float64, and the
front-door builder ``build_conv3d_input`` (its module, its shape checks and their one-line
messages)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from ascend_xdsl.dialects.conv3d_bp_input_tiling import (
    Conv3DBpInputTiling,
    backprop_pad_errors,
    backprop_pads,
)
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.op_level import Conv3DBackpropInputOp
from ascend_xdsl.lowering.build import ConvProblemError, build_conv3d_input
from ascend_xdsl.runtime.reference import conv3d_input_reference, conv3d_reference

# (input_size, weight shape, stride, pads6, dilation, groups)
CASES = [
    ((2, 4, 5, 6, 7), (3, 4, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1),
    ((1, 6, 9, 10, 11), (4, 3, 3, 2, 3), (2, 2, 3), (1, 1, 0, 0, 2, 2), (1, 2, 1), 2),
    # Stride 2 with an input row no output reads (10 and 9 give the same dy).
    ((1, 2, 10, 10, 10), (2, 2, 3, 3, 3), (2, 2, 2), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1),
    ((1, 2, 9, 9, 9), (2, 2, 3, 3, 3), (2, 2, 2), (1, 1, 1, 1, 1, 1), (1, 1, 1), 1),
    # Depthwise, dilation 2 everywhere.
    ((2, 4, 7, 7, 7), (4, 1, 3, 3, 3), (1, 1, 1), (2, 2, 2, 2, 2, 2), (2, 2, 2), 4),
    # Asymmetric pads (torch has none: checked through a pre-padded input, below).
    ((1, 3, 4, 4, 4), (3, 1, 1, 3, 3), (1, 2, 1), (0, 0, 2, 1, 1, 1), (1, 1, 2), 3),
    ((1, 2, 6, 5, 4), (4, 2, 2, 2, 2), (3, 2, 1), (0, 1, 1, 0, 0, 1), (2, 1, 1), 1),
]


def _dy_shape(case: tuple) -> tuple[int, ...]:
    size, w, stride, pads6, dilation, _ = case
    outs = [
        (size[2 + a] + pads6[2 * a] + pads6[2 * a + 1] - dilation[a] * (w[2 + a] - 1) - 1)
        // stride[a]
        + 1
        for a in range(3)
    ]
    return (size[0], w[0], *outs)


def _torch_dx(case: tuple, w: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """torch's dX, float64. Asymmetric padding: dX of the zero-padded input with no padding,
    cropped (torch pads symmetrically only)."""
    size, _, stride, p, dilation, groups = case
    padded = (size[0], size[1], size[2] + p[0] + p[1], size[3] + p[2] + p[3], size[4] + p[4] + p[5])
    got = torch.nn.grad.conv3d_input(
        padded, torch.from_numpy(w), torch.from_numpy(dy), stride, 0, dilation, groups
    ).numpy()
    return got[:, :, p[0] : p[0] + size[2], p[2] : p[2] + size[3], p[4] : p[4] + size[4]]


@pytest.mark.parametrize("case", CASES)
def test_reference_matches_torch_float64(case: tuple) -> None:
    size, ws, stride, pads6, dilation, groups = case
    rng = np.random.default_rng(1)
    w = rng.standard_normal(ws)
    dy = rng.standard_normal(_dy_shape(case))
    want = _torch_dx(case, w, dy)
    got = conv3d_input_reference(size, w, dy, stride, pads6, dilation, groups, np.float64)
    assert got.shape == size
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_symmetric_padding_matches_torch_directly() -> None:
    """The same through torch's own padding argument, not the pre-padded detour."""
    rng = np.random.default_rng(2)
    w = rng.standard_normal((4, 2, 3, 3, 3))
    dy = rng.standard_normal((2, 4, 3, 4, 5))
    want = torch.nn.grad.conv3d_input(
        (2, 4, 6, 8, 10), torch.from_numpy(w), torch.from_numpy(dy), 2, 1, 1, 2
    ).numpy()
    got = conv3d_input_reference(
        (2, 4, 6, 8, 10), w, dy, (2, 2, 2), (1,) * 6, (1, 1, 1), 2, np.float64
    )
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_float16_inputs_accumulate_in_float32() -> None:
    rng = np.random.default_rng(3)
    w = rng.standard_normal((8, 8, 3, 3, 3)).astype(np.float16)
    dy = rng.standard_normal((1, 8, 4, 4, 4)).astype(np.float16)
    got = conv3d_input_reference((1, 8, 4, 4, 4), w, dy, padding6=(1,) * 6)
    assert got.dtype == np.float32
    want = torch.nn.grad.conv3d_input(
        (1, 8, 4, 4, 4),
        torch.from_numpy(w.astype(np.float64)),
        torch.from_numpy(dy.astype(np.float64)),
        padding=1,
    ).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_reference_rejects_a_dy_the_input_size_does_not_give() -> None:
    with pytest.raises(ValueError, match="dy spatial axis 2 is 4, input_size 5 gives 5"):
        conv3d_input_reference(
            (1, 2, 5, 5, 5), np.zeros((2, 2, 1, 1, 1)), np.zeros((1, 2, 5, 5, 4))
        )


def test_builder_module() -> None:
    module = build_conv3d_input(
        (1, 32, 9, 17, 16),
        (16, 8, 3, 3, 2),
        (1, 16, 4, 8, 8),
        2,
        (0, 1, 2, 1, 1, 0),
        (1, 2, 1),
        4,
        "bf16",
    )
    ops = [op for op in module.walk() if isinstance(op, Conv3DBackpropInputOp)]
    assert len(ops) == 1
    text = str(module)
    assert (
        "func.func @conv3d_input(%dy: memref<1x16x4x8x8xbf16>, %w: memref<16x8x3x3x2xbf16>)" in text
    )
    assert (
        "input_size [1, 32, 9, 17, 16] strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] "
        "dilations [1, 2, 1] groups 4" in text
    )
    assert "-> memref<1x32x9x17x16xbf16>" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ((1, 16, 10, 10, 10), (16, 16, 3, 3, 3), (1, 16, 5, 5, 4), 2, 1),
            "grad_output shape [1, 16, 5, 5, 4] does not match [1, 16, 5, 5, 5] implied by "
            "input_size, weight and the stride, padding and dilation",
        ),
        (
            ((1, 16, 10, 10, 10), (16, 8, 3, 3, 3), (1, 16, 8, 8, 8)),
            "weight has Cin/groups = 8, but input Cin = 16 with groups = 1 needs 16",
        ),
        (
            ((1, 16, 10, 10), (16, 16, 3, 3, 3), (1, 16, 8, 8, 8)),
            "input shape must be 5 integers, got (1, 16, 10, 10)",
        ),
        (
            ((1, 16, 10, 10, 10), (16, 16, 3, 3, 3), (1, 16, 8, 8)),
            "grad_output shape must be 5 integers, got (1, 16, 8, 8)",
        ),
        (
            ((1, 16, 2, 10, 10), (16, 16, 3, 3, 3), (1, 16, 0, 8, 8)),
            "output D is 0: the dilated kernel does not fit the padded input",
        ),
    ],
)
def test_builder_rejects(args: tuple, message: str) -> None:
    with pytest.raises(ConvProblemError) as info:
        build_conv3d_input(*args)
    assert str(info.value) == message


# Problems for the backprop pads: (input_size, weight shape, stride, pads6, dilation), groups 1
# (the vendor's API tiler takes no other).
PAD_CASES = [
    ((1, 3, 4, 8, 8), (2, 3, 3, 3, 3), (1, 1, 1), (1, 1, 1, 1, 1, 1), (1, 1, 1)),
    ((1, 2, 10, 10, 10), (2, 2, 3, 3, 3), (2, 2, 2), (1, 1, 1, 1, 1, 1), (1, 1, 1)),
    ((1, 2, 9, 9, 9), (2, 2, 3, 3, 3), (2, 2, 2), (1, 1, 1, 1, 1, 1), (1, 1, 1)),
    ((1, 2, 7, 9, 11), (3, 2, 2, 3, 3), (3, 2, 2), (0, 1, 2, 0, 1, 2), (2, 1, 2)),
    ((2, 2, 6, 6, 6), (2, 2, 1, 1, 1), (2, 2, 2), (0, 0, 0, 0, 0, 0), (1, 1, 1)),
]


@pytest.mark.parametrize("case", PAD_CASES)
def test_backprop_pads_make_dx_a_convolution_of_the_dilated_dy(case: tuple) -> None:
    """dX is the stride-1 convolution (dilation as the forward's) of dy dilated by the stride
    and padded by ``backprop_pads``, with the weight rotated by 180° in space and its Cin and
    Cout swapped: the transposed-convolution view the hardware level will load through Load3D.
    Checked against torch, so the pads are the ones that give exactly ``input_size``."""
    size, ws, stride, pads6, dilation = case
    problem = ConvBpFilterShape.from_shapes(size, ws, stride, pads6, dilation)
    rng = np.random.default_rng(4)
    w = rng.standard_normal(ws)
    dy = rng.standard_normal(problem.grad_output_shape)
    bp = backprop_pads(problem)
    dilated = np.zeros(
        (*dy.shape[:2], *((o - 1) * s + 1 for o, s in zip(dy.shape[2:], stride, strict=True)))
    )
    dilated[:, :, :: stride[0], :: stride[1], :: stride[2]] = dy
    rotated = np.ascontiguousarray(w[:, :, ::-1, ::-1, ::-1].transpose(1, 0, 2, 3, 4))
    got = conv3d_reference(dilated, rotated, None, (1, 1, 1), bp, dilation, 1, np.float64)
    want = _torch_dx((size, ws, stride, pads6, dilation, 1), w, dy)
    assert got.shape == want.shape == size
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_tiling_problem_errors_name_the_field() -> None:
    problem = ConvBpFilterShape.from_shapes(
        (1, 16, 10, 10, 10), (16, 16, 3, 3, 3), (2, 2, 2), (1,) * 6
    )
    tiling = _tiling_of(problem)
    assert tiling.problem_errors(problem) == []
    wrong = dataclasses.replace(tiling, backprop_pad_down=1)
    assert wrong.problem_errors(problem) == [
        "tiling backprop_pad_down = 1 does not match the problem's 2"
    ]


def _tiling_of(problem: ConvBpFilterShape) -> Conv3DBpInputTiling:
    """A tiling restating ``problem`` (what the heuristic will produce; the blocks here are
    only the smallest legal ones)."""
    bp = backprop_pads(problem)
    ge = problem.group_enlargement
    return Conv3DBpInputTiling(
        batch=problem.batch, cin=problem.cin, cout=problem.cout, cout1=1, cin1=1,
        cout1_g=ge.cout1_g, cin1_g=ge.cin1_g, c0=16, c0_bits=4, dout=problem.dout,
        ho=problem.ho, wo=problem.wo, di=problem.di, hi=problem.hi, wi=problem.wi,
        dk=problem.kd, hk=problem.kh, wk=problem.kw, group=ge.real_g,
        stride_d=problem.strides[0], stride_h=problem.strides[1], stride_w=problem.strides[2],
        pad_front=problem.pads[0], pad_back=problem.pads[1], pad_up=problem.pads[2],
        pad_down=problem.pads[3], pad_left=problem.pads[4], pad_right=problem.pads[5],
        backprop_pad_tail=bp[1], backprop_pad_up=bp[2], backprop_pad_down=bp[3],
        backprop_pad_left=bp[4], backprop_pad_right=bp[5],
        dilation_d=problem.dilations[0], dilation_h=problem.dilations[1],
        dilation_w=problem.dilations[2], al0_pbuffer=2, bl0_pbuffer=2, cl0_pbuffer=1,
        al1_pbuffer=2, bl1_pbuffer=1, single_core_group=1, single_core_cout=16,
        single_core_cout1=1, single_core_cin1=1, single_core_din=problem.di,
        single_core_ho=problem.ho, base_m=16, base_k=16, base_n=16, step_m=1, step_n=1,
        step_ka=1, step_kb=1, iterate_order=0, init_output_flag=0, single_core_batch=1,
        single_core_m=16, single_core_cin=16,
    )  # fmt: skip


def test_backprop_pad_errors() -> None:
    problem = ConvBpFilterShape.from_shapes(
        (1, 16, 8, 8, 8), (16, 16, 1, 3, 3), (1, 1, 1), (0, 0, 3, 3, 0, 0)
    )
    assert backprop_pad_errors(problem) == [
        "backprop pad up (kH - 1)·dilationH - pad up = -1 must be in [0, 255]"
    ]
