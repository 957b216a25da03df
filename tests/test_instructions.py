"""Tests of the simulated AI Core: core memories, the instruction functions and event flags.

Every instruction is checked against an independent plain computation written here with explicit
Python loops straight from the formulas of docs/hw-level-spec.md (never by calling back into the
runtime's own index arithmetic), on tiny cases, in float16 and bfloat16. The end-to-end test
composes data_copy + load3d (A, transpose) + load3d (B) + mmad + fixpipe into one small dW
computation and compares it with the convolution-gradient formula itself.
"""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl import hw
from ascend_xdsl.runtime.machine import semantics as ins
from ascend_xdsl.runtime.machine.flags import FlagDeadlockError, FlagState
from ascend_xdsl.runtime.machine.memory import CoreMemory, MemoryAccessError, view

CUBE = [np.float16, ml_dtypes.bfloat16]
CUBE_IDS = ["f16", "bf16"]
MARK = 7.0  # marker for "never written" elements


def bits(a: np.ndarray) -> np.ndarray:
    """Bit patterns, so equality is exact (and -0.0 / NaN cannot hide a difference)."""
    return a.view(np.uint16 if a.itemsize == 2 else np.uint32)


def rand(rng: np.random.Generator, size: int, dtype) -> np.ndarray:
    return rng.standard_normal(size).astype(np.float32).astype(dtype)


# ---------------------------------------------------------------------------------------------
# core memory


def test_core_memory_sizes_come_from_hw():
    config = hw.load()
    mem = CoreMemory()
    assert mem["L1"].size == config.l1_size
    assert mem["L0A"].size == config.l0a_size
    assert mem["L0B"].size == config.l0b_size
    assert mem["L0C"].size == config.l0c_size
    assert mem["UB"].size == config.int("ub_size")
    assert (mem["L1"].alignment, mem["L0A"].alignment, mem["L0C"].alignment) == (32, 512, 64)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.int32], ids=str)
def test_view_is_a_view_of_the_bytes(dtype):
    mem = CoreMemory()
    v = view(mem["L0B"], 1024, 8, dtype)
    assert v.dtype == np.dtype(dtype) and v.shape == (8,)
    v[3] = 2
    raw = mem["L0B"].data[1024 + 3 * v.itemsize : 1024 + 4 * v.itemsize]
    assert bits(raw.view(dtype))[0] == bits(np.array([2], dtype))[0]
    # A second, overlapping view sees the write: buffers are bytes, not private arrays.
    assert view(mem["L0B"], 1024, 8, dtype)[3] == 2


def test_view_bounds_error_is_precise():
    mem = CoreMemory()
    with pytest.raises(MemoryAccessError, match=r"^L0A access \[65024, 66048\) out of bounds "):
        view(mem["L0A"], 65024, 512, np.float16)
    with pytest.raises(MemoryAccessError, match=r"L0A access \[65024, 66048\) out of bounds"):
        mem.view("L0A", 65024, 512, np.float16)
    with pytest.raises(MemoryAccessError) as info:
        view(mem["L0C"], -4, 1, np.float32)
    assert str(info.value) == "L0C access [-4, 0) out of bounds (131072 B)"
    view(mem["L0A"], 65024, 256, np.float16)  # exactly to the end is fine


def test_view_rejects_unaligned_and_unknown_types():
    mem = CoreMemory()
    with pytest.raises(MemoryAccessError, match="not aligned to float32"):
        view(mem["L1"], 2, 4, np.float32)
    with pytest.raises(TypeError, match="float64"):
        view(mem["L1"], 0, 4, np.float64)


def test_slot_view_follows_alloc_buffer_rule():
    mem = CoreMemory()
    # 100 f16 = 200 B, aligned up to 512 B in L0A: slot 1 starts at offset + 512.
    s0 = mem.slot_view("L0A", 1024, 0, 2, 100, np.float16)
    s1 = mem.slot_view("L0A", 1024, 1, 2, 100, np.float16)
    s1[0] = 5
    assert view(mem["L0A"], 1024 + 512, 1, np.float16)[0] == 5
    assert s0[0] == 0
    with pytest.raises(MemoryAccessError, match="L0A buffer offset 1000 is not 512-byte aligned"):
        mem.slot_view("L0A", 1000, 0, 1, 100, np.float16)
    with pytest.raises(MemoryAccessError, match="slot 2 out of range"):
        mem.slot_view("L0A", 0, 2, 2, 100, np.float16)
    with pytest.raises(MemoryAccessError, match=r"L0C access \[131072, 135168\)"):
        mem.slot_view("L0C", 126976, 1, 2, 1024, np.float32)


# ---------------------------------------------------------------------------------------------
# data_copy


@pytest.mark.parametrize(
    "dtype", [np.float16, ml_dtypes.bfloat16, np.float32], ids=["f16", "bf16", "f32"]
)
def test_data_copy_strided(dtype):
    rng = np.random.default_rng(1)
    block = 32 // np.dtype(dtype).itemsize
    gm = rand(rng, 4000, dtype)
    dst = np.full(1500, MARK, dtype)
    count, length, ss, ds, src_off, dst_off = 5, 3, 4, 2, 37, 11
    ins.data_copy(gm, src_off, dst, dst_off, count, length, ss, ds)
    expected = np.full(1500, MARK, dtype)
    for i in range(count):
        s = src_off + i * (length + ss) * block
        d = dst_off + i * (length + ds) * block
        for e in range(length * block):
            expected[d + e] = gm[s + e]
    assert np.array_equal(bits(dst), bits(expected))


def test_data_copy_errors():
    gm = np.zeros(1024, np.float16)
    dst = np.zeros(512, np.float16)
    for args, message in [
        ((0, 1, 0, 0), "data_copy count 0 is not in [1, 4095]"),
        ((4096, 1, 0, 0), "data_copy count 4096 is not in [1, 4095]"),
        ((1, 65536, 0, 0), "data_copy len 65536 is not in [1, 65535]"),
        ((1, 1, -1, 0), "data_copy src_stride -1 is not in [0, 65535]"),
        ((1, 1, 0, 65536), "data_copy dst_stride 65536 is not in [0, 65535]"),
    ]:
        with pytest.raises(ValueError) as info:
            ins.data_copy(gm, 0, dst, 0, *args)
        assert str(info.value) == message
    with pytest.raises(ValueError, match="element types differ: source float16"):
        ins.data_copy(gm, 0, dst.view(ml_dtypes.bfloat16), 0, 1, 1, 0, 0)
    # 4 runs of 2 blocks, 2 blocks apart: the last run ends at 16 + (3*4 + 2)*16 = 240 elements.
    with pytest.raises(MemoryAccessError) as info:
        ins.data_copy(gm, 0, dst[:200], 16, 4, 2, 0, 2)
    assert (
        str(info.value) == "data_copy destination elements [16, 240) out of bounds (200 elements)"
    )
    with pytest.raises(MemoryAccessError, match=r"GM source elements \[1000, 1032\)"):
        ins.data_copy(gm, 1000, dst, 0, 1, 2, 0, 0)


# ---------------------------------------------------------------------------------------------
# load3d


def ref_img2col(fmap, l1_h, l1_w, channels, pad, kernel, stride, dilation, rows):
    """img2col with explicit loops: X[p][q], q enumerated in (c1, kh, kw, c0) order."""
    pt, _pb, pl, pr = pad  # pb enters nothing (no Hout bound)
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    f = fmap.reshape(channels // 16, l1_h, l1_w, 16)
    wout = 0  # count the window positions along W that fit in the padded row
    while wout * sw + dw * (kw - 1) <= l1_w + pl + pr - 1:
        wout += 1
    columns = [
        (c1, i, j, c0)
        for c1 in range(channels // 16)
        for i in range(kh)
        for j in range(kw)
        for c0 in range(16)
    ]
    x = []
    for p in range(rows):
        oh, ow = p // wout, p % wout
        row = []
        for c1, i, j, c0 in columns:
            h = oh * sh - pt + i * dh
            w = ow * sw - pl + j * dw
            row.append(f[c1, h, w, c0] if 0 <= h < l1_h and 0 <= w < l1_w else 0)
        x.append(row)
    return np.array(x, dtype=fmap.dtype)


def ref_zn(x, m_start, m_ext, k_start, k_ext):
    """dst[k1][n1][n0][k0] = X[m_start + k1*16 + k0, k_start + n1*16 + n0]."""
    out = np.zeros((m_ext // 16, k_ext // 16, 16, 16), x.dtype)
    for k1, n1, n0, k0 in itertools.product(
        range(m_ext // 16), range(k_ext // 16), range(16), range(16)
    ):
        out[k1, n1, n0, k0] = x[m_start + k1 * 16 + k0, k_start + n1 * 16 + n0]
    return out.reshape(-1)


GEOMETRIES = {
    # pad, stride 2, dilation 2, kernel 3x3, window offsets in both directions
    "pad-s2-d2-k3": dict(
        l1_h=9, l1_w=10, channels=32, pad=(1, 2, 2, 1), kernel=(3, 3), stride=(2, 2),
        dilation=(2, 2), k_start=48, k_ext=160, m_start=5, m_ext=32,
    ),
    # asymmetric kernel/stride/dilation, window reaching past Hout*Wout
    "asym-past-end": dict(
        l1_h=6, l1_w=7, channels=16, pad=(0, 0, 1, 0), kernel=(2, 3), stride=(1, 2),
        dilation=(2, 1), k_start=16, k_ext=80, m_start=10, m_ext=32,
    ),
    "k1-plain": dict(
        l1_h=3, l1_w=11, channels=48, pad=(0, 0, 0, 0), kernel=(1, 1), stride=(1, 1),
        dilation=(1, 1), k_start=0, k_ext=48, m_start=0, m_ext=32,
    ),
}  # fmt: skip


@pytest.mark.parametrize("dtype", CUBE, ids=CUBE_IDS)
@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_load3d_b_side_img2col_zn(name, dtype):
    g = GEOMETRIES[name]
    rng = np.random.default_rng(2)
    size = g["channels"] * g["l1_h"] * g["l1_w"]
    src_off = 64
    src = rand(rng, src_off + size + 100, dtype)
    dst = np.full(g["m_ext"] * g["k_ext"] + 300, MARK, dtype)
    ins.load3d(src, src_off, dst, transpose=False, **g)
    x = ref_img2col(
        src[src_off : src_off + size], g["l1_h"], g["l1_w"], g["channels"], g["pad"],
        g["kernel"], g["stride"], g["dilation"], g["m_start"] + g["m_ext"],
    )  # fmt: skip
    expected = ref_zn(x, g["m_start"], g["m_ext"], g["k_start"], g["k_ext"])
    n = expected.size
    assert np.array_equal(bits(dst[:n]), bits(expected))
    assert np.all(dst[n:] == MARK)  # nothing written past the tile


@pytest.mark.parametrize("dtype", CUBE, ids=CUBE_IDS)
def test_load3d_a_side_transpose_zz(dtype):
    rng = np.random.default_rng(3)
    cout1, kl1 = 3, 21  # dy in A1 as [cout1][kl1][C0]
    dy = rand(rng, cout1 * kl1 * 16, dtype)
    m_start, m_ext = 5, 32  # positions 5..36: 5..20 real, 21..36 past the map
    k_start, k_ext = 16, 32  # Cout columns 16..47
    dst = np.full(m_ext * k_ext, MARK, dtype)
    ins.load3d(
        dy, 0, dst, l1_h=1, l1_w=kl1, channels=cout1 * 16, k_start=k_start, k_ext=k_ext,
        m_start=m_start, m_ext=m_ext, pad=(0, 0, 0, 0), kernel=(1, 1), stride=(1, 1),
        dilation=(1, 1), transpose=True,
    )  # fmt: skip
    a1 = dy.reshape(cout1, kl1, 16)
    expected = np.zeros((k_ext // 16, m_ext // 16, 16, 16), dtype)  # Zz (M1, K1, 16, 16)
    for m1, k1, m0, k0 in itertools.product(
        range(k_ext // 16), range(m_ext // 16), range(16), range(16)
    ):
        cout, pos = k_start + m1 * 16 + m0, m_start + k1 * 16 + k0
        if pos < kl1:
            expected[m1, k1, m0, k0] = a1[cout // 16, pos, cout % 16]
    assert np.array_equal(bits(dst), bits(expected.reshape(-1)))


def test_load3d_positions_past_hout_wout_are_not_clipped():
    # Spec: no Hout bound. l1_h 6, kernel h 2, dilation h 2: Hout = 4, Wout = 4, and position
    # 16 (oh = 4) still reads map row 4 through ikh = 0.
    src = np.ones(16 * 6 * 4, np.float16)
    dst = np.zeros(32 * 32, np.float16)
    ins.load3d(
        src, 0, dst, l1_h=6, l1_w=4, channels=16, k_start=0, k_ext=32, m_start=0, m_ext=32,
        pad=(0, 0, 0, 0), kernel=(2, 1), stride=(1, 1), dilation=(2, 1), transpose=False,
    )  # fmt: skip
    x = dst.reshape(2, 2, 16, 16).transpose(0, 3, 1, 2).reshape(32, 32)  # Zn -> X[p, q]
    assert np.all(x[16, :16] == 1)  # ikh = 0: h = 4 < l1_h
    assert np.all(x[16, 16:] == 0)  # ikh = 1: h = 6, outside the map
    assert np.all(x[24:] == 0)  # oh = 6: h >= 6 for every column


def test_load3d_reads_current_data_not_cached():
    src = np.zeros(16 * 4 * 4, np.float16)
    dst = np.zeros(16 * 16, np.float16)
    geometry = dict(
        l1_h=4, l1_w=4, channels=16, k_start=0, k_ext=16, m_start=0, m_ext=16, pad=(0, 0, 0, 0),
        kernel=(1, 1), stride=(1, 1), dilation=(1, 1), transpose=False,
    )  # fmt: skip
    ins.load3d(src, 0, dst, **geometry)
    assert not dst.any()
    src[:] = 1
    ins.load3d(src, 0, dst, **geometry)
    assert np.all(dst == 1)


LOAD3D_OK = dict(
    l1_h=4, l1_w=4, channels=16, k_start=0, k_ext=16, m_start=0, m_ext=16, pad=(0, 0, 0, 0),
    kernel=(1, 1), stride=(1, 1), dilation=(1, 1), transpose=False,
)  # fmt: skip


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(m_ext=20), "load3d m_ext 20 is not a multiple of 16"),
        (dict(k_ext=8), "load3d k_ext 8 is below 16"),
        (dict(channels=24), "load3d channels 24 is not a multiple of 16"),
        (dict(kernel=(512, 1)), "load3d kernel h 512 is not in [1, 511]"),
        (dict(stride=(1, 64)), "load3d stride w 64 is not in [1, 63]"),
        (dict(dilation=(0, 1)), "load3d dilation h 0 is not in [1, 255]"),
        (dict(pad=(0, 0, 256, 0)), "load3d pad left 256 is not in [0, 255]"),
        (dict(m_start=-1), "load3d m_start -1 is negative"),
        (dict(k_start=16), "load3d columns [16, 32) exceed channels*kh*kw = 16"),
        (dict(kernel=(1, 9)), "load3d kernel w extent 9 exceeds the padded width 4 (Wout -4)"),
    ],
)
def test_load3d_limits(change, message):
    src = np.zeros(1024, np.float16)
    dst = np.zeros(1024, np.float16)
    with pytest.raises(ValueError) as info:
        ins.load3d(src, 0, dst, **{**LOAD3D_OK, **change})
    assert str(info.value) == message


def test_load3d_bounds_and_types():
    src = np.zeros(256, np.float16)
    with pytest.raises(MemoryAccessError) as info:
        ins.load3d(src, 16, np.zeros(256, np.float16), **LOAD3D_OK)
    assert str(info.value) == "load3d source elements [16, 272) out of bounds (256 elements)"
    with pytest.raises(MemoryAccessError, match=r"destination elements \[0, 256\)"):
        ins.load3d(src, 0, np.zeros(255, np.float16), **LOAD3D_OK)
    with pytest.raises(ValueError, match="load3d element type float32 is not float16 or bf"):
        ins.load3d(src.astype(np.float32), 0, np.zeros(256, np.float32), **LOAD3D_OK)


# ---------------------------------------------------------------------------------------------
# load2d


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("dtype", CUBE, ids=CUBE_IDS)
def test_load2d(dtype, transpose):
    rng = np.random.default_rng(4)
    src = rand(rng, 4096, dtype)
    dst = np.full(2048, MARK, dtype)
    src_off, dst_off, repeat, ss = 32, 256, 5, 3
    ins.load2d(src, src_off, dst, dst_off, repeat, ss, transpose)
    expected = np.full(2048, MARK, dtype)
    for i in range(repeat):
        for r in range(16):
            for c in range(16):
                s = src_off + i * ss * 256 + (c * 16 + r if transpose else r * 16 + c)
                expected[dst_off + i * 256 + r * 16 + c] = src[s]
    assert np.array_equal(bits(dst), bits(expected))


def test_load2d_errors():
    src, dst = np.zeros(1024, np.float16), np.zeros(1024, np.float16)
    with pytest.raises(ValueError, match=r"^load2d repeat 256 is not in \[1, 255\]$"):
        ins.load2d(src, 0, dst, 0, 256, 1, False)
    with pytest.raises(ValueError, match=r"^load2d src_stride -1 is negative$"):
        ins.load2d(src, 0, dst, 0, 1, -1, False)
    with pytest.raises(MemoryAccessError, match=r"load2d source elements \[0, 1280\)"):
        ins.load2d(src, 0, dst, 0, 3, 2, False)


# ---------------------------------------------------------------------------------------------
# mmad


def pack_zz(a):
    m, k = a.shape
    m1, k1 = -(-m // 16), -(-k // 16)
    out = np.zeros((m1, k1, 16, 16), a.dtype)
    for r in range(m):
        for t in range(k):
            out[r // 16, t // 16, r % 16, t % 16] = a[r, t]
    return out.reshape(-1)


def pack_zn(b):
    k, n = b.shape
    k1, n1 = -(-k // 16), -(-n // 16)
    out = np.zeros((k1, n1, 16, 16), b.dtype)
    for t in range(k):
        for c in range(n):
            out[t // 16, c // 16, c % 16, t % 16] = b[t, c]
    return out.reshape(-1)


def nz_index(r, j, m):
    """Element of C[r, j] in an Nz slot of an m-row tile: c[j//16][r//16][r%16][j%16]."""
    return ((j // 16) * -(-m // 16) + r // 16) * 256 + (r % 16) * 16 + j % 16


def unpack_nz(c, m, n):
    return np.array([[c[nz_index(r, j, m)] for j in range(n)] for r in range(m)])


@pytest.mark.parametrize("dtype", CUBE, ids=CUBE_IDS)
@pytest.mark.parametrize("m, n, k", [(20, 37, 45), (16, 16, 16), (1, 5, 3), (48, 32, 17)])
def test_mmad_init_and_accumulate(dtype, m, n, k):
    rng = np.random.default_rng(5)
    a = rand(rng, m * k, dtype).reshape(m, k)
    b = rand(rng, k * n, dtype).reshape(k, n)
    m1, n1 = -(-m // 16), -(-n // 16)
    c = np.full(n1 * m1 * 256 + 64, MARK, np.float32)
    ins.mmad(pack_zz(a), pack_zn(b), c, m, n, k, init=True)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(unpack_nz(c, m, n), exact, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(unpack_nz(c, m, n), a.astype(np.float32) @ b.astype(np.float32))
    # Everything outside the m x n window is untouched, padding rows/cols and the tail alike.
    window = np.zeros(c.size, bool)
    for r in range(m):
        for j in range(n):
            window[nz_index(r, j, m)] = True
    assert np.all(c[~window] == MARK)
    ins.mmad(pack_zz(a), pack_zn(b), c, m, n, k, init=False)
    np.testing.assert_allclose(unpack_nz(c, m, n), 2 * exact, rtol=1e-5, atol=1e-5)
    assert np.all(c[~window] == MARK)


def test_mmad_uses_only_the_k_columns():
    # Garbage in A/B past k must not leak into C: only the used m x k, k x n parts count.
    rng = np.random.default_rng(6)
    a = rand(rng, 16 * 32, np.float16)
    b = rand(rng, 32 * 16, np.float16)
    c = np.zeros(256, np.float32)
    ins.mmad(a, b, c, 16, 16, 10, init=True)
    a_mat = a.reshape(1, 2, 16, 16).transpose(0, 2, 1, 3).reshape(16, 32)[:, :10]
    b_mat = b.reshape(2, 1, 16, 16).transpose(0, 3, 1, 2).reshape(32, 16)[:10]
    np.testing.assert_allclose(
        unpack_nz(c, 16, 16), a_mat.astype(np.float64) @ b_mat, rtol=1e-5, atol=1e-5
    )


def test_mmad_errors():
    a = np.zeros(256, np.float16)
    c = np.zeros(256, np.float32)
    with pytest.raises(ValueError, match=r"^mmad m 0 is not in \[1, 4095\]$"):
        ins.mmad(a, a, c, 0, 16, 16, True)
    with pytest.raises(ValueError, match=r"^mmad k 4096 is not in \[1, 4095\]$"):
        ins.mmad(a, a, c, 16, 16, 4096, True)
    with pytest.raises(ValueError, match="mmad element types differ: A float16, B bfloat16"):
        ins.mmad(a, a.view(ml_dtypes.bfloat16), c, 16, 16, 16, True)
    with pytest.raises(ValueError, match="mmad C element type float16 is not float32"):
        ins.mmad(a, a, a, 16, 16, 16, True)
    with pytest.raises(MemoryAccessError, match=r"^mmad A elements \[0, 512\) out of bounds"):
        ins.mmad(a, np.zeros(512, np.float16), np.zeros(512, np.float32), 16, 16, 17, True)
    with pytest.raises(MemoryAccessError, match=r"^mmad C elements \[0, 512\) out of bounds"):
        ins.mmad(a, np.zeros(512, np.float16), c, 16, 32, 16, True)


# ---------------------------------------------------------------------------------------------
# fixpipe


def ref_fixpipe(c, gm, dst_off, m, n, ss, ds, atomic):
    gm = gm.copy()
    for j in range(n // 16):
        for r in range(m):
            for c0 in range(16):
                g = dst_off + j * ds * 8 + r * 16 + c0
                v = c[(j * ss + r) * 16 + c0]
                gm[g] = gm[g] + v if atomic else v
    return gm


@pytest.mark.parametrize("atomic", [False, True], ids=["store", "atomic"])
@pytest.mark.parametrize(
    "m, n, ss, ds, dst_off",
    [
        (20, 48, 32, 96, 40),  # dW-like: ss = ceil16(m), ds = cout1*32 with cout1 = 3
        (7, 32, 9, 14, 0),  # N blocks packed just past m rows
        (20, 48, 32, 20, 8),  # destination blocks overlap: in-order semantics
        (5, 32, 5, 0, 16),  # all N blocks onto one place
    ],
)
def test_fixpipe(m, n, ss, ds, dst_off, atomic):
    rng = np.random.default_rng(7)
    c = rng.standard_normal(2048).astype(np.float32)
    gm = rng.standard_normal(3000).astype(np.float32)
    expected = ref_fixpipe(c, gm, dst_off, m, n, ss, ds, atomic)
    ins.fixpipe(c, gm, dst_off, m, n, ss, ds, atomic)
    np.testing.assert_array_equal(gm, expected) if not atomic else np.testing.assert_allclose(
        gm, expected, rtol=1e-6, atol=1e-6
    )


def test_fixpipe_errors():
    c, gm = np.zeros(1024, np.float32), np.zeros(1024, np.float32)
    for args, message in [
        ((20, 1, 0), "fixpipe n 20 is not a multiple of 16"),
        ((0, 1, 0), "fixpipe n 0 is not in [16, 4095]"),
        ((4096, 1, 0), "fixpipe n 4096 is not in [16, 4095]"),
    ]:
        with pytest.raises(ValueError) as info:
            ins.fixpipe(c, gm, 0, 16, args[0], args[1], args[2], False)
        assert str(info.value) == message
    with pytest.raises(ValueError, match=r"^fixpipe m 65536 is not in \[1, 65535\]$"):
        ins.fixpipe(c, gm, 0, 65536, 16, 1, 1, False)
    with pytest.raises(ValueError, match="fixpipe GM destination element type int32"):
        ins.fixpipe(c, gm.astype(np.int32), 0, 16, 16, 16, 32, False)
    with pytest.raises(ValueError, match="fixpipe: no atomic add into float16"):
        ins.fixpipe(c, gm.astype(np.float16), 0, 16, 16, 16, 32, True)
    with pytest.raises(MemoryAccessError) as info:
        ins.fixpipe(c, gm, 512, 16, 32, 16, 64, True)  # 2nd block at 512 + 512 + 256 > 1024
    assert (
        str(info.value)
        == "fixpipe GM destination elements [512, 1280) out of bounds (1024 elements)"
    )


def test_fixpipe_quantises_to_nearest_even():
    """Into a 16-bit GM tensor the float32 accumulator is rounded to nearest even (F322F16 /
    F322BF16); ``dst_stride`` then counts 32-byte blocks of 16 elements."""
    vals = np.array([1 + 2**-11, 1 + 3 * 2**-11, 2049.0, -(1 + 2**-11)], np.float32)
    c = np.zeros(2 * 16 * 16, np.float32)  # Nz: 2 N blocks of 16 rows of 16
    c[: vals.size] = vals
    c[256 : 256 + vals.size] = vals * 2
    for dtype in (np.float16, ml_dtypes.bfloat16):
        gm = np.zeros(2 * 16 * 16 + 64, dtype)
        ins.fixpipe(c, gm, 0, 16, 32, 16, 17, False)  # blocks 17*16 elements apart
        np.testing.assert_array_equal(gm[: vals.size], vals.astype(dtype))
        np.testing.assert_array_equal(gm[272 : 272 + vals.size], (vals * 2).astype(dtype))
        if dtype == np.float16:  # the ties, written out: to the even neighbour
            assert gm[: vals.size].tolist() == [1.0, 1 + 2**-9, 2048.0, -1.0]


# ---------------------------------------------------------------------------------------------
# flags


def test_flags_protocol():
    flags = FlagState()
    flags.set("MTE2", "MTE1", 1)
    flags.set("MTE2", "MTE1", 1)
    flags.wait("MTE2", "MTE1", 1)
    assert flags.pending() == {("MTE2", "MTE1", 1): 1}
    flags.wait("MTE2", "MTE1", 1)
    assert flags.pending() == {}
    with pytest.raises(FlagDeadlockError) as info:
        flags.wait("MTE2", "MTE1", 1)
    assert str(info.value) == "wait_flag MTE2->MTE1 event 1 has no matching set_flag (deadlock)"
    flags.set("M", "MTE1", 0)
    with pytest.raises(FlagDeadlockError, match="wait_flag MTE1->M event 0"):
        flags.wait("MTE1", "M", 0)  # direction matters
    with pytest.raises(FlagDeadlockError, match="wait_flag M->MTE1 event 1"):
        flags.wait("M", "MTE1", 1)  # the id matters


def test_flags_errors():
    flags = FlagState()
    # Ids 6 and 7 are the framework's (user_event_ids), though the hardware has 8.
    with pytest.raises(ValueError, match=r"^set_flag MTE2->MTE1 event 6 is not in \[0, 6\)$"):
        flags.set("MTE2", "MTE1", 6)
    with pytest.raises(ValueError, match="source and destination pipe are the same"):
        flags.wait("M", "M", 0)
    with pytest.raises(ValueError, match="pipe 'ALL' is not one of"):
        flags.set("ALL", "M", 0)


# ---------------------------------------------------------------------------------------------
# end to end: one GEMM-shaped dW slice


def run_dw_slice(dtype, b_pad=(1, 1, 1, 1)):
    """dW of a small conv over 2 batch samples through the instructions, as real memories.

    Cin 20 (cin1 2), Cout 24 (cout1 2), x 9x9, kernel 3x3, stride 2, dilation (1, 2), pad 1:
    Ho = 5, Wo = 4, K = 20 positions in two K steps (16 + 4), N = 2*3*3*16 = 288 columns in two
    N tiles of 144, the batch reduced by fixpipe's atomic add.
    """
    rng = np.random.default_rng(8)
    batch, cin, cout, hi, wi, kh, kw = 2, 20, 24, 9, 9, 3, 3
    sh, sw, dh, dw, pt, pl = 2, 2, 1, 2, 1, 1
    ho, wo = 5, 4
    cin1, cout1, positions = 2, 2, ho * wo
    x = np.zeros((batch, cin1 * 16, hi, wi), np.float32)
    x[:, :cin] = rng.standard_normal((batch, cin, hi, wi))
    dy = np.zeros((batch, cout1 * 16, ho, wo), np.float32)
    dy[:, :cout] = rng.standard_normal((batch, cout, ho, wo))
    x, dy = x.astype(dtype), dy.astype(dtype)
    # GM in NDC1HWC0 (D = 1) and FRACTAL_Z_3D (Dk = 1), zero-filled like the kernel does.
    gm_x = x.reshape(batch, cin1, 16, hi, wi).transpose(0, 1, 3, 4, 2).reshape(-1).copy()
    gm_dy = dy.reshape(batch, cout1, 16, ho * wo).transpose(0, 1, 3, 2).reshape(-1).copy()
    gm_dw = np.zeros(cin1 * kh * kw * cout1 * 256, np.float32)

    mem = CoreMemory()
    a1 = mem.slot_view("L1", 0, 0, 1, cout1 * positions * 16, dtype)
    b1 = mem.slot_view("L1", 2048, 0, 1, cin1 * hi * wi * 16, dtype)
    n_tile, k_step = 144, 16
    for sample in range(batch):
        ins.data_copy(gm_dy, sample * cout1 * positions * 16, a1, 0, cout1, positions, 0, 0)
        ins.data_copy(gm_x, sample * cin1 * hi * wi * 16, b1, 0, cin1, hi * wi, 0, 0)
        for tile in range(2):
            c = mem.slot_view("L0C", 0, tile, 2, n_tile * cout1 * 16, np.float32)
            for step in range(2):
                a2 = mem.slot_view("L0A", 0, step, 2, k_step * cout1 * 16, dtype)
                b2 = mem.slot_view("L0B", 0, step, 2, k_step * n_tile, dtype)
                ins.load3d(
                    a1, 0, a2, l1_h=1, l1_w=positions, channels=cout1 * 16, k_start=0,
                    k_ext=cout1 * 16, m_start=step * k_step, m_ext=k_step, pad=(0, 0, 0, 0),
                    kernel=(1, 1), stride=(1, 1), dilation=(1, 1), transpose=True,
                )  # fmt: skip
                ins.load3d(
                    b1, 0, b2, l1_h=hi, l1_w=wi, channels=cin1 * 16, k_start=tile * n_tile,
                    k_ext=n_tile, m_start=step * k_step, m_ext=k_step, pad=b_pad,
                    kernel=(kh, kw), stride=(sh, sw), dilation=(dh, dw), transpose=False,
                )  # fmt: skip
                use_k = min(k_step, positions - step * k_step)
                ins.mmad(a2, b2, c, cout, n_tile, use_k, init=step == 0)
            dst_off = (tile * n_tile // 16) * cout1 * 256
            ins.fixpipe(c, gm_dw, dst_off, cout, n_tile, -(-cout // 16) * 16, cout1 * 32, True)

    expected = np.zeros((cout1 * 16, cin1 * 16, kh, kw))
    xf, dyf = x.astype(np.float64), dy.astype(np.float64)
    for n, i, j, oh, ow in itertools.product(
        range(batch), range(kh), range(kw), range(ho), range(wo)
    ):
        h, w = oh * sh - pt + i * dh, ow * sw - pl + j * dw
        if 0 <= h < hi and 0 <= w < wi:
            expected[:, :, i, j] += np.outer(dyf[n, :, oh, ow], xf[n, :, h, w])
    # FRACTAL_Z_3D [c1][kh][kw][cout1][cout0][cin0] -> [cout][cin][kh][kw]
    got = gm_dw.reshape(cin1, kh, kw, cout1, 16, 16).transpose(3, 4, 0, 5, 1, 2)
    return got.reshape(cout1 * 16, cin1 * 16, kh, kw), expected


@pytest.mark.parametrize("dtype", CUBE, ids=CUBE_IDS)
def test_end_to_end_dw_slice(dtype):
    got, expected = run_dw_slice(dtype)
    assert np.abs(expected).max() > 1  # the case is not trivially zero
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_end_to_end_detects_a_wrong_geometry():
    # The same pipeline with the B-side padding off by one must not pass the comparison.
    got, expected = run_dw_slice(np.float16, b_pad=(0, 1, 1, 1))
    assert not np.allclose(got, expected, rtol=1e-5, atol=1e-5)
