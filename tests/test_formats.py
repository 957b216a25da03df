"""Tests of dialects/formats.py: round trips, offsets against conversions, fractal shapes."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_xdsl.dialects import formats as F
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape

RNG = np.random.default_rng(0)


def _ints(shape, dtype=np.float16) -> np.ndarray:
    # Small distinct-ish integers: exact in f16 and bf16, and nonzero so padding is visible.
    return RNG.integers(1, 100, size=shape).astype(dtype)


# ---------------------------------------------------------------- NDC1HWC0


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32])
@pytest.mark.parametrize("c", [1, 4, 15, 16, 17, 40])
def test_ndc1hwc0_round_trip(c, dtype):
    x = _ints((2, c, 3, 4, 5), dtype)
    x5 = F.ncdhw_to_ndc1hwc0(x, 16)
    assert x5.shape == F.ndc1hwc0_shape(2, c, 3, 4, 5, 16) == (2, 3, -(-c // 16), 4, 5, 16)
    assert x5.dtype == x.dtype
    np.testing.assert_array_equal(F.ndc1hwc0_to_ncdhw(x5, c), x)
    # Padding channels are zero.
    flat = x5.transpose(0, 2, 5, 1, 3, 4).reshape(2, -1, 3, 4, 5)
    assert not flat[:, c:].any()


def test_ndc1hwc0_explicit_element():
    x = np.zeros((1, 20, 2, 3, 4), np.float16)
    x[0, 17, 1, 2, 3] = 7
    x5 = F.ncdhw_to_ndc1hwc0(x, 16)
    assert x5[0, 1, 1, 2, 3, 1] == 7  # (n, d, c1, h, w, c0) = (0, 1, 1, 2, 3, 17 % 16)
    assert np.count_nonzero(x5) == 1


@pytest.mark.parametrize("c0", [16, 8])
def test_ndc1hwc0_offset_matches_conversion(c0):
    dims = (3, 37, 4, 5, 6)
    x = RNG.standard_normal(dims).astype(np.float32)
    flat = F.ncdhw_to_ndc1hwc0(x, c0).ravel()
    idx = [RNG.integers(0, s, size=500) for s in dims]
    off = F.ndc1hwc0_offset(*idx, dims=dims, c0=c0)
    np.testing.assert_array_equal(flat[off], x[tuple(idx)])
    # Scalar ints give the same answer as the array form.
    assert F.ndc1hwc0_offset(*(int(i[0]) for i in idx), dims=dims, c0=c0) == off[0]


def test_ndc1hwc0_offset_formula_by_hand():
    # ((((n·D + d)·C1 + c1)·H + h)·W + w)·C0 + c0 with D=2, C1=2, H=3, W=4.
    assert F.ndc1hwc0_offset(1, 17, 1, 2, 3, dims=(2, 20, 2, 3, 4), c0=16) == (
        ((((1 * 2 + 1) * 2 + 1) * 3 + 2) * 4 + 3) * 16 + 1
    )


def test_ndc1hwc0_rejects_bad_channel_count():
    x5 = np.zeros((1, 1, 2, 1, 1, 16), np.float16)
    with pytest.raises(ValueError):
        F.ndc1hwc0_to_ncdhw(x5, 16)  # needs 17..32
    with pytest.raises(ValueError):
        F.ndc1hwc0_to_ncdhw(x5, 33)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 2),
    c=st.integers(1, 40),
    d=st.integers(1, 3),
    h=st.integers(1, 4),
    w=st.integers(1, 4),
    c0=st.sampled_from([8, 16]),
)
def test_ndc1hwc0_property(n, c, d, h, w, c0):
    x = np.arange(1, n * c * d * h * w + 1, dtype=np.float32).reshape(n, c, d, h, w)
    x5 = F.ncdhw_to_ndc1hwc0(x, c0)
    np.testing.assert_array_equal(F.ndc1hwc0_to_ncdhw(x5, c), x)
    grid = np.indices(x.shape).reshape(5, -1)
    off = F.ndc1hwc0_offset(*grid, dims=x.shape, c0=c0)
    np.testing.assert_array_equal(x5.ravel()[off], x.ravel())
    # Every other storage element is padding.
    rest = np.delete(x5.ravel(), off)
    assert not rest.any()


# ---------------------------------------------------------------- FRACTAL_Z_3D


def _fz_check(cout, cin_g, k, groups, dtype=np.float16):
    kd, kh, kw = k
    w = _ints((cout, cin_g, kd, kh, kw), dtype)
    wf = F.oihw_to_fractal_z_3d(w, groups, 16)
    assert wf.shape == F.fractal_z_3d_shape(cout, cin_g, kd, kh, kw, groups, 16)
    assert wf.dtype == w.dtype
    np.testing.assert_array_equal(F.fractal_z_3d_to_oihw(wf, cout, cin_g, kd, kh, kw, groups), w)
    # The offset formula agrees with the conversion, and nothing else is nonzero.
    grid = np.indices(w.shape).reshape(5, -1)
    off = F.fractal_z_3d_offset(*grid, weight_shape=w.shape, groups=groups, c0=16)
    assert len(np.unique(off)) == w.size
    np.testing.assert_array_equal(wf.ravel()[off], w.ravel())
    assert not np.delete(wf.ravel(), off).any()
    return w, wf


def test_fz3d_groups1():
    _fz_check(40, 20, (2, 3, 2), 1)


def test_fz3d_groups2_cin_g_8():
    # Cin/g = 8, Cout/g = 16: mf0 = 2, mf1 = 1 → mf = 2, one enlarged group of 16 channels.
    w, wf = _fz_check(32, 8, (1, 2, 2), 2)
    shape = ConvBpFilterShape(1, 16, 1, 4, 4, 32, 1, 2, 2, groups=2)
    ge = shape.group_enlargement
    assert (ge.mag_factor, ge.real_g, ge.cin1_g, ge.cout1_g) == (2, 1, 1, 2)
    assert wf.shape == (1 * 1 * 1 * 2 * 2, 2, 16, 16)
    # Block diagonal: group 0 is cout rows 0..15 × cin 0..7, group 1 cout 16..31 × cin 8..15.
    rows = wf.reshape(4, 32, 16)  # (kh·kw rows, cout', cin')
    np.testing.assert_array_equal(
        rows[:, :16, :8], w[:16, :, 0].reshape(16, 8, 4).transpose(2, 0, 1)
    )
    np.testing.assert_array_equal(
        rows[:, 16:, 8:], w[16:, :, 0].reshape(16, 8, 4).transpose(2, 0, 1)
    )
    assert not rows[:, :16, 8:].any()
    assert not rows[:, 16:, :8].any()


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32])
def test_fz3d_depthwise(dtype):
    # groups = Cin = Cout = 40: mf = 16 → real_g = 3, the last enlarged group holds 8 groups.
    _, wf = _fz_check(40, 1, (3, 3, 3), 40, dtype)
    assert wf.shape == (3 * 3 * 1 * 3 * 3, 1, 16, 16)
    # Each (row) 16×16 block is diagonal.
    blocks = wf.reshape(-1, 16, 16)
    assert not (blocks * (1 - np.eye(16, dtype=np.float32))).astype(np.float32).any()


def test_fz3d_uneven_groups():
    # Cin/g = 3, Cout/g = 5: mf = lcm(16, 16) = 16 capped by groups = 6 → mf 6, real_g 1.
    _fz_check(30, 3, (1, 2, 1), 6)
    # Cin/g = 24, Cout/g = 24 → mf0 = 2, mf1 = 2, groups 3 → real_g 2, last group half empty.
    _fz_check(72, 24, (1, 1, 2), 3)


# Layer shapes from the hicann/ops-nn host tiling UTs (conv/conv3d_backprop_filter_v2/tests/ut/
# op_host/test_conv3d_backprop_filter_v2_tiling.cpp) and the FRACTAL_Z_3D storage shape those
# UTs give their y (dW) tensor; the comments name the UT cases.
@pytest.mark.parametrize(
    ("cout", "cin_g", "k", "groups", "expected"),
    [
        (1152, 4, (1, 2, 2), 1, (4, 72, 16, 16)),  # stdit_01_fp16 / _bf16
        (128, 128, (1, 3, 3), 1, (72, 8, 16, 16)),  # 01_b16
        (256, 1, (3, 3, 3), 256, (16 * 27, 1, 16, 16)),  # c256_case (depthwise), real_g = 16
        (512, 512, (3, 3, 3), 1, (27 * 32, 32, 16, 16)),  # 25_b16
    ],
)
def test_fz3d_shapes_of_real_layers(cout, cin_g, k, groups, expected):
    assert F.fractal_z_3d_shape(cout, cin_g, *k, groups, 16) == expected


def test_fz3d_offset_formula_by_hand():
    # groups = 1, Cout = 40 (cout1 = 3), Cin = 20 (cin1 = 2), k = (2, 3, 2).
    co, ci, kd, kh, kw = 37, 18, 1, 2, 1
    row = (((0 * 2 + kd) * 2 + ci // 16) * 3 + kh) * 2 + kw
    expect = ((row * 3 + co // 16) * 16 + co % 16) * 16 + ci % 16
    assert F.fractal_z_3d_offset(co, ci, kd, kh, kw, (40, 20, 2, 3, 2), 1, 16) == expect


def test_fz3d_rejects_c0_8_and_bad_shape():
    with pytest.raises(ValueError):
        F.fractal_z_3d_shape(16, 16, 1, 1, 1, 1, 8)
    with pytest.raises(ValueError):
        F.fractal_z_3d_to_oihw(np.zeros((2, 1, 16, 16)), 16, 16, 1, 1, 1, 1)


@settings(max_examples=40, deadline=None)
@given(
    groups=st.integers(1, 6),
    cin_g=st.integers(1, 20),
    cout_g=st.integers(1, 20),
    kd=st.integers(1, 2),
    kh=st.integers(1, 3),
    kw=st.integers(1, 3),
)
def test_fz3d_property(groups, cin_g, cout_g, kd, kh, kw):
    _fz_check(groups * cout_g, cin_g, (kd, kh, kw), groups, np.float32)


# ---------------------------------------------------------------- on-chip fractals


@pytest.mark.parametrize(("m", "k"), [(16, 16), (5, 7), (33, 40)])
def test_zz_round_trip_and_layout(m, k):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    z = F.to_zz(a)
    assert z.shape == (-(-m // 16), -(-k // 16), 16, 16)
    np.testing.assert_array_equal(F.from_zz(z, m, k), a)
    i, j = m - 1, k - 1
    assert z[i // 16, j // 16, i % 16, j % 16] == a[i, j]


@pytest.mark.parametrize(("k", "n"), [(16, 16), (7, 5), (40, 33)])
def test_zn_round_trip_and_layout(k, n):
    b = RNG.standard_normal((k, n)).astype(np.float32)
    z = F.to_zn(b)
    assert z.shape == (-(-k // 16), -(-n // 16), 16, 16)
    np.testing.assert_array_equal(F.from_zn(z, k, n), b)
    i, j = k - 1, n - 1
    assert z[i // 16, j // 16, j % 16, i % 16] == b[i, j]  # column-major fractal


@pytest.mark.parametrize(("m", "n"), [(16, 16), (5, 7), (33, 40)])
def test_nz_round_trip_and_layout(m, n):
    c = RNG.standard_normal((m, n)).astype(np.float32)
    z = F.to_nz(c)
    assert z.shape == (-(-n // 16), -(-m // 16), 16, 16)
    np.testing.assert_array_equal(F.from_nz(z, m, n), c)
    i, j = m - 1, n - 1
    assert z[j // 16, i // 16, i % 16, j % 16] == c[i, j]


def test_fractal_k0_8():
    a = RNG.standard_normal((20, 12)).astype(np.float32)
    z = F.to_zz(a, 16, 8)
    assert z.shape == (2, 2, 16, 8)
    np.testing.assert_array_equal(F.from_zz(z, 20, 12), a)
    zn = F.to_zn(a, 8, 16)
    assert zn.shape == (3, 1, 16, 8)
    np.testing.assert_array_equal(F.from_zn(zn, 20, 12), a)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_zz_zn_matmul_is_dense_matmul(dtype):
    m, k, n = 37, 50, 29
    a = RNG.integers(-4, 5, (m, k)).astype(dtype)
    b = RNG.integers(-4, 5, (k, n)).astype(dtype)
    dense = a.astype(np.float32) @ b.astype(np.float32)
    za, zb = F.to_zz(a), F.to_zn(b)
    # Through the unpackers.
    np.testing.assert_array_equal(
        F.from_zz(za, m, k).astype(np.float32) @ F.from_zn(zb, k, n).astype(np.float32), dense
    )
    # Directly on fractals, as the cube does it: C_nz[n1, m1] = Σ_k1 A[m1, k1] · B[k1, n1]ᵀ.
    c_nz = np.einsum("akij,knlj->nail", za.astype(np.float32), zb.astype(np.float32))
    np.testing.assert_array_equal(c_nz, F.to_nz(dense))
    np.testing.assert_array_equal(F.from_nz(c_nz, m, n), dense)


def test_nz_block_is_fz3d_row():
    # Fixpipe writes each 16-wide N block of an Nz tile as one contiguous [Cout_aligned][16] row
    # of FRACTAL_Z_3D: check that reading FZ3D rows back as an Nz tile gives the GEMM C matrix.
    cout, cin, kh, kw = 32, 16, 2, 2
    w = _ints((cout, cin, 1, kh, kw), np.float32)
    wf = F.oihw_to_fractal_z_3d(w, 1, 16)  # (kh·kw, cout1, 16, 16)
    c_nz = wf.reshape(kh * kw, cout // 16, 16, 16)  # (N1, M1, 16, 16) with n = (kh, kw, c0)
    c = F.from_nz(c_nz, cout, kh * kw * 16)
    # GEMM column n = ((c1·kH + kh)·kW + kw)·16 + c0 (the img2col column order of asc-devkit
    # docs LoadData_3D.md), row m = co; FRACTAL_Z_3D rows (c1, kh, kw) of [Cout][16] as in
    # TransData.md, scenario 3.
    expect = w[:, :, 0].transpose(0, 2, 3, 1).reshape(cout, -1)
    np.testing.assert_array_equal(c, expect)


# ---------------------------------------------------------------- the offset arithmetic


def test_int_arith_takes_ints_and_arrays():
    ar = F.INT_ARITH
    assert ar.max(-3, 0) == 0 and isinstance(ar.max(-3, 0), int)
    np.testing.assert_array_equal(ar.max(np.array([-1, 3]), 0), [0, 3])
    np.testing.assert_array_equal(ar.min(5, np.array([2, 9])), [2, 5])
    assert ar.sum() == 0
    assert ar.dot((2, np.int64(3)), (10, 100)) == 320


def test_dot_needs_one_stride_per_coordinate():
    with pytest.raises(ValueError, match="2 coordinates for 3 strides"):
        F.INT_ARITH.dot((1, 2), (1, 2, 3))


def test_strides_are_those_of_the_storage_shape():
    s = F.ndc1hwc0_strides((2, 20, 3, 4, 5), 16)
    assert (s.n, s.d, s.c1, s.h, s.w) == (3 * 2 * 4 * 5 * 16, 2 * 4 * 5 * 16, 4 * 5 * 16, 80, 16)
    fz = F.fractal_z_3d_strides(kd=2, kh=3, kw=2, cin1_g=2, cout1_g=3, c0=16)
    row = 3 * 16 * 16
    assert (fz.g, fz.kd, fz.c1, fz.kh, fz.kw, fz.co) == (
        2 * 2 * 3 * 2 * row, 2 * 3 * 2 * row, 3 * 2 * row, 2 * row, row, 16
    )  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
@pytest.mark.parametrize("c", [16, 17])
def test_ndc1hwc0_staged_blocks_match_the_plain_transpose(c, dtype):
    """Planes of a multiple of 128 KB go through the staged chunks (``_staged_blocks``); the
    result must be the plain pad + transpose, bit for bit (here: 128 x 32 x 48 elements a
    plane, whose rows of 1536 positions end in a partial chunk)."""
    shape = (1, c, 128, 32, 48)
    x = _ints(shape, dtype)
    assert (128 * 32 * 48 * x.itemsize) % F._ALIASED_PLANE == 0 and (32 * 48) % F._STAGE
    c1 = -(-c // 16)
    padded = np.zeros((1, c1 * 16, *shape[2:]), dtype)
    padded[:, :c] = x
    plain = np.ascontiguousarray(padded.reshape(1, c1, 16, *shape[2:]).transpose(0, 3, 1, 4, 5, 2))
    assert F.ncdhw_to_ndc1hwc0(x, 16).tobytes() == plain.tobytes()
    as_f32 = F.ncdhw_to_ndc1hwc0(x.astype(np.float32), 16)
    assert as_f32.tobytes() == plain.astype(np.float32).tobytes()


def test_grouped_files_are_each_groups_layout_back_to_back():
    """The per-group layout of an emitted project's files: each group's channels in their own
    NDC1HWC0 / FRACTAL_Z_3D tensor (padded on their own), the groups one after another; read
    back whole, and a file of another size named by its element count."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 40, 3, 4, 5)).astype(np.float16)  # 2 groups of 20 channels
    w = rng.standard_normal((32, 20, 1, 3, 3)).astype(np.float16)
    flat = F.grouped_ncdhw_to_ndc1hwc0(x, 2, 16)
    one = F.ndc1hwc0_shape(2, 20, 3, 4, 5, 16)
    halves = flat.reshape(2, *one)
    for g in range(2):
        assert np.array_equal(halves[g], F.ncdhw_to_ndc1hwc0(x[:, 20 * g : 20 * g + 20], 16))
    assert np.array_equal(F.grouped_ndc1hwc0_to_ncdhw(flat, 2, x.shape, 16), x)
    with pytest.raises(ValueError, match=f"expected {flat.size} elements, got {flat.size - 1}"):
        F.grouped_ndc1hwc0_to_ncdhw(flat[1:], 2, x.shape, 16)
    wf = F.grouped_oihw_to_fractal_z_3d(w, 2, 16).reshape(2, -1)
    for g in range(2):
        part = F.oihw_to_fractal_z_3d(w[16 * g : 16 * g + 16], 1, 16).ravel()
        assert np.array_equal(wf[g], part)
