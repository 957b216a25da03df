"""Tests of runtime/reference.py: the fast reference against a loop nest, hand cases, im2col."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_xdsl.runtime.reference import (
    conv3d_weight_reference,
    conv3d_weight_reference_direct,
)

RNG = np.random.default_rng(1)


def _out(size, lo, hi, k, s, d):
    return (size + lo + hi - d * (k - 1) - 1) // s + 1


def _problem(n, cin, cout, groups, spatial, k, stride, pads, dil, dtype, rng=RNG):
    dims = [
        _out(spatial[i], pads[2 * i], pads[2 * i + 1], k[i], stride[i], dil[i]) for i in range(3)
    ]
    x = rng.integers(-3, 4, (n, cin, *spatial)).astype(dtype)
    dy = rng.integers(-3, 4, (n, cout, *dims)).astype(dtype)
    return x, dy, (cout, cin // groups, *k)


def _im2col_matmul(x, dy, wshape, stride, pads, dil, groups):
    """An independent float32 formulation: gather columns by index arithmetic, then matmul."""
    x = x.astype(np.float32)
    dy = dy.astype(np.float32)
    cout, cin_g, kd, kh, kw = wshape
    n, cin, di, hi, wi = x.shape
    do, ho, wo = dy.shape[2:]
    # Input coordinates read by (output position, tap), per axis; out-of-range → padding.
    zd = np.arange(do)[:, None] * stride[0] - pads[0] + np.arange(kd)[None] * dil[0]
    zh = np.arange(ho)[:, None] * stride[1] - pads[2] + np.arange(kh)[None] * dil[1]
    zw = np.arange(wo)[:, None] * stride[2] - pads[4] + np.arange(kw)[None] * dil[2]
    xz = np.zeros((n, cin, di + 1, hi + 1, wi + 1), np.float32)  # index -1 → the zero slab
    xz[:, :, :di, :hi, :wi] = x
    zd = np.where((zd >= 0) & (zd < di), zd, di)
    zh = np.where((zh >= 0) & (zh < hi), zh, hi)
    zw = np.where((zw >= 0) & (zw < wi), zw, wi)
    cols = xz[
        :,
        :,
        zd[:, None, None, :, None, None],
        zh[None, :, None, None, :, None],
        zw[None, None, :, None, None, :],
    ]  # (n, cin, do, ho, wo, kd, kh, kw)
    out = np.zeros(wshape, np.float32)
    cg = cout // groups
    for g in range(groups):
        a = dy[:, g * cg : (g + 1) * cg].transpose(1, 0, 2, 3, 4).reshape(cg, -1)  # (M, K)
        b = cols[:, g * cin_g : (g + 1) * cin_g].transpose(0, 2, 3, 4, 1, 5, 6, 7)
        b = b.reshape(n * do * ho * wo, cin_g * kd * kh * kw)  # (K, N)
        out[g * cg : (g + 1) * cg] = (a @ b).reshape(cg, cin_g, kd, kh, kw)
    return out


CASES = [
    # (n, cin, cout, groups, spatial, k, stride, pads, dilation)
    (1, 3, 4, 1, (3, 4, 5), (1, 2, 2), (1, 1, 1), (0,) * 6, (1, 1, 1)),
    (2, 4, 6, 1, (5, 6, 7), (2, 3, 3), (2, 2, 2), (0,) * 6, (1, 1, 1)),
    (1, 2, 3, 1, (4, 5, 6), (2, 2, 3), (1, 2, 1), (1, 0, 2, 1, 0, 2), (1, 1, 1)),
    (1, 2, 2, 1, (5, 6, 7), (2, 2, 2), (1, 1, 2), (0, 1, 1, 1, 2, 0), (2, 2, 3)),
    (2, 4, 6, 2, (3, 5, 5), (1, 3, 2), (1, 2, 1), (0, 0, 1, 1, 0, 1), (1, 1, 2)),
    (1, 5, 5, 5, (4, 4, 4), (3, 3, 3), (1, 1, 1), (1,) * 6, (1, 1, 1)),  # depthwise
    (1, 4, 8, 4, (3, 6, 6), (2, 2, 2), (2, 2, 2), (1, 0, 0, 1, 1, 0), (1, 2, 1)),  # multiplier 2
]


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
@pytest.mark.parametrize("case", CASES)
def test_fast_matches_direct(case, dtype):
    n, cin, cout, groups, spatial, k, stride, pads, dil = case
    x, dy, wshape = _problem(n, cin, cout, groups, spatial, k, stride, pads, dil, dtype)
    fast = conv3d_weight_reference(x, dy, wshape, stride, pads, dil, groups)
    slow = conv3d_weight_reference_direct(x, dy, wshape, stride, pads, dil, groups)
    assert fast.dtype == np.float32 and fast.shape == wshape
    # Small-integer data: every partial sum is exact in float32, so equality must be exact.
    np.testing.assert_array_equal(fast, slow)
    assert np.abs(fast).sum() > 0


@pytest.mark.parametrize("case", CASES)
def test_fast_matches_im2col_float32(case):
    n, cin, cout, groups, spatial, k, stride, pads, dil = case
    x, dy, wshape = _problem(n, cin, cout, groups, spatial, k, stride, pads, dil, np.float32)
    x = RNG.standard_normal(x.shape).astype(np.float32)
    dy = RNG.standard_normal(dy.shape).astype(np.float32)
    fast = conv3d_weight_reference(x, dy, wshape, stride, pads, dil, groups)
    np.testing.assert_allclose(
        fast, _im2col_matmul(x, dy, wshape, stride, pads, dil, groups), rtol=1e-5, atol=1e-5
    )


def test_hand_computed_2d():
    # x = [[0,1,2],[3,4,5],[6,7,8]], dy = ones(2,2), kernel 2×2: each tap sums a 2×2 window.
    x = np.arange(9, dtype=np.float16).reshape(1, 1, 1, 3, 3)
    dy = np.ones((1, 1, 1, 2, 2), np.float16)
    dw = conv3d_weight_reference(x, dy, (1, 1, 1, 2, 2))
    np.testing.assert_array_equal(dw[0, 0, 0], [[8, 12], [20, 24]])


def test_hand_computed_stride_pad():
    # x = [1,2,3,4] padded to [0,1,2,3,4,0]; k = 3, stride 2 → windows [0,1,2] and [2,3,4];
    # dy = [1, 10] → dW[kw] = 1·xp[kw] + 10·xp[2 + kw] = [20, 31, 42].
    x = np.array([1, 2, 3, 4], ml_dtypes.bfloat16).reshape(1, 1, 1, 1, 4)
    dy = np.array([1, 10], ml_dtypes.bfloat16).reshape(1, 1, 1, 1, 2)
    dw = conv3d_weight_reference(x, dy, (1, 1, 1, 1, 3), (1, 1, 2), (0, 0, 0, 0, 1, 1))
    np.testing.assert_array_equal(dw.ravel(), [20, 31, 42])


def test_hand_computed_groups_dilation():
    # Two groups of one channel each, dilation 2 along W: x_g = [a0, _, a2], k = 2 → one output.
    x = np.array([[1, 5, 2], [3, 7, 4]], np.float16).reshape(1, 2, 1, 1, 3)
    dy = np.array([10, 100], np.float16).reshape(1, 2, 1, 1, 1)
    dw = conv3d_weight_reference(x, dy, (2, 1, 1, 1, 2), dilation=(1, 1, 2), groups=2)
    np.testing.assert_array_equal(dw.reshape(2, 2), [[10, 20], [300, 400]])


def test_float32_accumulation():
    # 4096 products of 1·(1 + 2^-10) would round in f16 accumulation; float32 keeps them.
    x = np.full((1, 1, 1, 64, 64), 1 + 2**-10, np.float16)
    dy = np.ones((1, 1, 1, 64, 64), np.float16)
    dw = conv3d_weight_reference(x, dy, (1, 1, 1, 1, 1))
    assert dw.item() == pytest.approx(4096 * (1 + 2**-10), rel=1e-6)


def test_rejects_inconsistent_shapes():
    x = np.zeros((1, 2, 3, 3, 3), np.float16)
    with pytest.raises(ValueError):
        conv3d_weight_reference(x, np.zeros((1, 2, 2, 2, 3), np.float16), (2, 2, 2, 2, 2))
    with pytest.raises(ValueError):
        conv3d_weight_reference(x, np.zeros((1, 2, 2, 2, 2), np.float16), (2, 2, 2, 2, 2), groups=2)


@st.composite
def problems(draw):
    groups = draw(st.integers(1, 3))
    cin = groups * draw(st.integers(1, 2))
    cout = groups * draw(st.integers(1, 2))
    k = tuple(draw(st.integers(1, 2)) for _ in range(3))
    stride = tuple(draw(st.integers(1, 2)) for _ in range(3))
    dil = tuple(draw(st.integers(1, 2)) for _ in range(3))
    pads = tuple(draw(st.integers(0, 1)) for _ in range(6))
    # Smallest input for which the dilated kernel fits, plus a little.
    spatial = tuple(
        max(1, dil[i] * (k[i] - 1) + 1 - pads[2 * i] - pads[2 * i + 1]) + draw(st.integers(0, 2))
        for i in range(3)
    )
    n = draw(st.integers(1, 2))
    seed = draw(st.integers(0, 2**32 - 1))
    return n, cin, cout, groups, spatial, k, stride, pads, dil, seed


@settings(max_examples=60, deadline=None)
@given(problems(), st.sampled_from([np.float16, ml_dtypes.bfloat16]))
def test_property_fast_matches_direct(problem, dtype):
    *case, seed = problem
    x, dy, wshape = _problem(*case, dtype, rng=np.random.default_rng(seed))
    *_, groups, _spatial, _k, stride, pads, dil = case
    np.testing.assert_array_equal(
        conv3d_weight_reference(x, dy, wshape, stride, pads, dil, groups),
        conv3d_weight_reference_direct(x, dy, wshape, stride, pads, dil, groups),
    )
