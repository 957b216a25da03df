"""The hardware instructions of one AI Core, as numpy functions on memory views.

One function per hw-level op of docs/hw-level-spec.md (the contract; each docstring quotes the
formula it implements): :func:`data_copy` (MTE2, GM -> L1), :func:`load3d` and :func:`load2d`
(MTE1, L1 -> L0A/L0B), :func:`mmad` (M, L0A x L0B -> L0C) and :func:`fixpipe` (FIX, L0C -> GM).
The interpreter functions for those ops resolve their operands (slots, offsets, sizes) to
integers and to views from :mod:`ascend_xdsl.runtime.core_memory`, then call these; nothing here
knows about xDSL.

Conventions shared by all functions:
* Buffers are flat (1-D, contiguous) numpy arrays: GM tensors as their physical (formatted)
  element array, local buffers as the typed view of one slot. Offsets and sizes are in elements
  of the array's type, strides in the units the spec gives (32-byte blocks, fractals, rows).
* Every instruction limit of the spec is checked on every call and violations raise
  ``ValueError`` with a one-line message naming the op, the operand and the value. An access
  outside the given view raises :class:`~ascend_xdsl.runtime.core_memory.MemoryAccessError`: a
  slot view ends where the buffer's slot ends, so an instruction that would run into the
  neighbouring buffer is reported instead of silently reading it.
* Work is vectorised at tile granularity: strided views (``as_strided``) for the block/fractal
  repeats, one cached index array and one gather for img2col, one float32 matmul per mmad.
"""

from __future__ import annotations

from functools import lru_cache

import ml_dtypes
import numpy as np
from numpy.lib.stride_tricks import as_strided

from ascend_xdsl.dialects import formats
from ascend_xdsl.dialects.conv_shape import C0, FRACTAL
from ascend_xdsl.runtime.core_memory import MemoryAccessError

BLOCK_BYTES = 32  # the unit of data_copy/fixpipe strides ("block", spec conventions)
FRACTAL_ELEMS = FRACTAL * FRACTAL

#: Cube input types: the 2-byte types whose C0 is 16 (the only layouts the spec defines).
CUBE_TYPES: tuple[np.dtype, ...] = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))
F32 = np.dtype(np.float32)


# ---------------------------------------------------------------------------------------------
# checks


def _check_range(op: str, what: str, value: int, lo: int, hi: int | None = None) -> None:
    if hi is not None and not lo <= value <= hi:
        raise ValueError(f"{op} {what} {value} is not in [{lo}, {hi}]")
    if value < lo:
        raise ValueError(f"{op} {what} {value} is " + ("negative" if lo == 0 else f"below {lo}"))


def _check_multiple(op: str, what: str, value: int, of: int) -> None:
    if value % of:
        raise ValueError(f"{op} {what} {value} is not a multiple of {of}")


def _check_flat(op: str, what: str, array: np.ndarray) -> None:
    # A non-contiguous array would make the strided views below address the wrong elements.
    if array.ndim != 1 or not array.flags.c_contiguous:
        raise ValueError(f"{op} {what} must be a flat contiguous array, got shape {array.shape}")


def _check_extent(op: str, what: str, start: int, length: int, size: int) -> None:
    if start < 0 or start + length > size:
        raise MemoryAccessError(
            f"{op} {what} elements [{start}, {start + length}) out of bounds ({size} elements)"
        )


def _check_same_type(op: str, src: np.ndarray, dst: np.ndarray) -> None:
    if src.dtype != dst.dtype:
        raise ValueError(f"{op} element types differ: source {src.dtype}, destination {dst.dtype}")


def _check_cube_type(op: str, array: np.ndarray) -> None:
    if array.dtype not in CUBE_TYPES:
        raise ValueError(f"{op} element type {array.dtype} is not float16 or bfloat16")


def _check_f32(op: str, what: str, array: np.ndarray) -> None:
    if array.dtype != F32:
        raise ValueError(f"{op} {what} element type {array.dtype} is not float32")


def _strided(
    base: np.ndarray, offset: int, shape: tuple[int, ...], steps: tuple[int, ...]
) -> np.ndarray:
    """View of ``base`` from element ``offset`` with element ``steps`` (caller checked bounds)."""
    size = base.itemsize
    return as_strided(base[offset:], shape=shape, strides=tuple(s * size for s in steps))


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# ---------------------------------------------------------------------------------------------
# MTE2


def data_copy(
    src: np.ndarray,
    src_off: int,
    dst: np.ndarray,
    dst_off: int,
    count: int,
    length: int,
    src_stride: int,
    dst_stride: int,
) -> None:
    """``ascend.data_copy``: ``count`` runs of ``length`` 32-byte blocks from GM into a slot.

    For ``i in [0, count)``: copy ``length * B`` contiguous elements from ``src`` element
    ``src_off + i * (length + src_stride) * B`` to ``dst`` element
    ``dst_off + i * (length + dst_stride) * B``, with ``B = 32 / itemsize``.
    """
    op = "data_copy"
    _check_range(op, "count", count, 1, 4095)
    _check_range(op, "len", length, 1, 65535)
    _check_range(op, "src_stride", src_stride, 0, 65535)
    _check_range(op, "dst_stride", dst_stride, 0, 65535)
    _check_flat(op, "source", src)
    _check_flat(op, "destination", dst)
    _check_same_type(op, src, dst)
    block = BLOCK_BYTES // src.itemsize
    run = length * block
    src_step = (length + src_stride) * block
    dst_step = (length + dst_stride) * block
    _check_extent(op, "GM source", src_off, (count - 1) * src_step + run, src.size)
    _check_extent(op, "destination", dst_off, (count - 1) * dst_step + run, dst.size)
    # dst_step >= run, so the destination runs never overlap and one assignment is exact.
    target = _strided(dst, dst_off, (count, run), (dst_step, 1))
    target[...] = _strided(src, src_off, (count, run), (src_step, 1))


# ---------------------------------------------------------------------------------------------
# MTE1

_PAD_SIDES = ("top", "bottom", "left", "right")


def out_width(l1_w: int, pad_left: int, pad_right: int, kw: int, sw: int, dw: int) -> int:
    """``Wout`` of load3d: output positions per feature-map row."""
    return (l1_w + pad_left + pad_right - dw * (kw - 1) - 1) // sw + 1


@lru_cache(maxsize=256)  # <= 256 KB of indices per entry (an L0B-sized tile)
def _img2col_plan(
    l1_h: int,
    l1_w: int,
    channels: int,
    k_start: int,
    k_ext: int,
    m_start: int,
    m_ext: int,
    pad: tuple[int, int, int, int],
    kernel: tuple[int, int],
    stride: tuple[int, int],
    dilation: tuple[int, int],
    transpose: bool,
) -> tuple[np.ndarray, int, int, bool]:
    """Gather plan of one load3d geometry: ``(index, lo, span, has_pad)``.

    ``index[e]`` is, for destination element ``e`` (in the dst fractal order), the feature-map
    element it reads minus ``lo``; padding reads the sentinel ``span`` (one past the referenced
    span ``[lo, lo + span)``), where the caller places a zero. Rebasing on the span keeps the
    per-call copy that carries the sentinel as small as the window, not the whole map.
    """
    pt, _pb, pl, pr = pad  # pb enters nothing: there is no Hout bound (spec)
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    wout = out_width(l1_w, pl, pr, kw, sw, dw)
    p = m_start + np.arange(m_ext)  # img2col rows (output positions)
    q = k_start + np.arange(k_ext)  # img2col columns, order (c1, kh, kw, c0)
    oh, ow = np.divmod(p, wout)
    c1 = q // (kh * kw * C0)
    ikh = (q // (kw * C0)) % kh
    ikw = (q // C0) % kw
    c0 = q % C0
    h = (oh * sh - pt)[:, None] + (ikh * dh)[None, :]
    w = (ow * sw - pl)[:, None] + (ikw * dw)[None, :]
    valid = (h >= 0) & (h < l1_h) & (w >= 0) & (w < l1_w)
    flat = ((c1[None, :] * l1_h + h) * l1_w + w) * C0 + c0[None, :]  # X[p, q] as an fmap index
    if valid.any():
        lo, hi = int(flat[valid].min()), int(flat[valid].max())
    else:
        lo, hi = 0, -1
    span = hi - lo + 1
    index = np.where(valid, flat - lo, span)
    # X is (p1, p0, q1, q0). B side Zn: dst[p1][q1][q0][p0]; A side (transpose) Zz:
    # dst[q1][p1][q0][p0] -- in both the position is the innermost (k0) axis.
    x4 = index.reshape(m_ext // FRACTAL, FRACTAL, k_ext // FRACTAL, FRACTAL)
    order = (2, 0, 3, 1) if transpose else (0, 2, 3, 1)
    index = np.ascontiguousarray(x4.transpose(order)).reshape(-1).astype(np.intp)
    index.setflags(write=False)  # shared through the cache
    return index, lo, span, not bool(valid.all())


def load3d(
    src: np.ndarray,
    src_off: int,
    dst: np.ndarray,
    *,
    l1_h: int,
    l1_w: int,
    channels: int,
    k_start: int,
    k_ext: int,
    m_start: int,
    m_ext: int,
    pad: tuple[int, int, int, int],
    kernel: tuple[int, int],
    stride: tuple[int, int],
    dilation: tuple[int, int],
    transpose: bool,
) -> None:
    """``ascend.load3d``: img2col window of a ``[C1][l1_h][l1_w][C0]`` feature map into L0.

    ``X[p, q]`` for ``p in [m_start, m_start + m_ext)``, ``q in [k_start, k_start + k_ext)``:
    ``(oh, ow) = divmod(p, Wout)``, ``q -> (c1, ikh, ikw, c0)`` (c1 outermost),
    ``h = oh*sh - pt + ikh*dh``, ``w = ow*sw - pl + ikw*dw``, ``X = fmap[c1, h, w, c0]`` inside
    the map, else 0. Written from dst element 0 as Zn ``dst[k1][n1][n0][k0] = X[k1*16+k0,
    n1*16+n0]`` (B side) or, with ``transpose``, as Zz ``dst[m1][k1][m0][k0] = X[k1*16+k0,
    m1*16+m0]`` (A side). ``pad = (top, bottom, left, right)``.
    """
    op = "load3d"
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    for what, value, lo, hi in (
        ("kernel h", kh, 1, 511),
        ("kernel w", kw, 1, 511),
        ("stride h", sh, 1, 63),
        ("stride w", sw, 1, 63),
        ("dilation h", dh, 1, 255),
        ("dilation w", dw, 1, 255),
        *((f"pad {side}", v, 0, 255) for side, v in zip(_PAD_SIDES, pad, strict=True)),
    ):
        _check_range(op, what, value, lo, hi)
    for what, value in (("m_ext", m_ext), ("k_ext", k_ext), ("channels", channels)):
        _check_range(op, what, value, FRACTAL)
        _check_multiple(op, what, value, FRACTAL)
    # l1_h 0 is an empty feature map: the K block's rows all lie in the padding, so every
    # position reads zeros (the lowering copies nothing for such a block).
    _check_range(op, "l1_h", l1_h, 0)
    _check_range(op, "l1_w", l1_w, 1)
    _check_range(op, "k_start", k_start, 0)
    _check_range(op, "m_start", m_start, 0)
    wout = out_width(l1_w, pad[2], pad[3], kw, sw, dw)
    if wout < 1:
        raise ValueError(
            f"load3d kernel w extent {dw * (kw - 1) + 1} exceeds the padded width "
            f"{l1_w + pad[2] + pad[3]} (Wout {wout})"
        )
    columns = channels * kh * kw
    if k_start + k_ext > columns:
        raise ValueError(
            f"load3d columns [{k_start}, {k_start + k_ext}) exceed channels*kh*kw = {columns}"
        )
    _check_flat(op, "source", src)
    _check_flat(op, "destination", dst)
    _check_same_type(op, src, dst)
    _check_cube_type(op, src)
    fmap_size = channels * l1_h * l1_w
    _check_extent(op, "source", src_off, fmap_size, src.size)
    out_size = m_ext * k_ext
    _check_extent(op, "destination", 0, out_size, dst.size)

    index, lo, span, has_pad = _img2col_plan(
        l1_h,
        l1_w,
        channels,
        k_start,
        k_ext,
        m_start,
        m_ext,
        tuple(pad),
        tuple(kernel),
        tuple(stride),
        tuple(dilation),
        bool(transpose),
    )
    window = src[src_off + lo : src_off + lo + span]
    if has_pad:
        # The zero sentinel sits right after the referenced span, so padding is part of the
        # same single gather.
        window = np.concatenate([window, np.zeros(1, src.dtype)])
    np.take(window, index, out=dst[:out_size], mode="clip")  # indices are in range by plan


def load2d(
    src: np.ndarray,
    src_off: int,
    dst: np.ndarray,
    dst_off: int,
    repeat: int,
    src_stride: int,
    transpose: bool,
) -> None:
    """``ascend.load2d``: ``repeat`` whole fractals, optionally each transposed.

    For ``i in [0, repeat)``: the 256-element fractal at src element ``src_off + i*src_stride*256``
    goes to dst element ``dst_off + i*256``; with ``transpose`` each 16x16 fractal is transposed.
    """
    op = "load2d"
    _check_range(op, "repeat", repeat, 1, 255)
    _check_range(op, "src_stride", src_stride, 0)
    _check_flat(op, "source", src)
    _check_flat(op, "destination", dst)
    _check_same_type(op, src, dst)
    step = src_stride * FRACTAL_ELEMS
    _check_extent(op, "source", src_off, (repeat - 1) * step + FRACTAL_ELEMS, src.size)
    _check_extent(op, "destination", dst_off, repeat * FRACTAL_ELEMS, dst.size)
    fractals = _strided(src, src_off, (repeat, FRACTAL, FRACTAL), (step, FRACTAL, 1))
    if transpose:
        fractals = fractals.transpose(0, 2, 1)
    target = dst[dst_off : dst_off + repeat * FRACTAL_ELEMS].reshape(repeat, FRACTAL, FRACTAL)
    target[...] = fractals


# ---------------------------------------------------------------------------------------------
# M


def mmad(a: np.ndarray, b: np.ndarray, c: np.ndarray, m: int, n: int, k: int, init: bool) -> None:
    """``ascend.mmad``: ``C[:m, :n] = (init ? 0 : C[:m, :n]) + A[:m, :k] @ B[:k, :n]`` in float32.

    A is Zz ``(M1, K1, 16, 16)``: ``A[r, t] = a[r//16][t//16][r%16][t%16]``; B is Zn
    ``(K1, N1, 16, 16)``: ``B[t, c] = b[t//16][c//16][c%16][t%16]``; C is Nz ``(N1, M1, 16, 16)``
    float32: ``C[r, c] = c[c//16][r//16][r%16][c%16]``. Elements of C outside ``m x n`` are left
    as they are.
    """
    op = "mmad"
    _check_range(op, "m", m, 1, 4095)
    _check_range(op, "n", n, 1, 4095)
    _check_range(op, "k", k, 1, 4095)
    for what, array in (("A", a), ("B", b), ("C", c)):
        _check_flat(op, what, array)
    _check_cube_type(op, a)
    if b.dtype != a.dtype:
        raise ValueError(f"mmad element types differ: A {a.dtype}, B {b.dtype}")
    _check_f32(op, "C", c)
    m1, k1, n1 = _ceil_div(m, FRACTAL), _ceil_div(k, FRACTAL), _ceil_div(n, FRACTAL)
    _check_extent(op, "A", 0, m1 * k1 * FRACTAL_ELEMS, a.size)
    _check_extent(op, "B", 0, k1 * n1 * FRACTAL_ELEMS, b.size)
    _check_extent(op, "C", 0, n1 * m1 * FRACTAL_ELEMS, c.size)

    # Unpack into float32 matrices with the layout maps of dialects/formats.py (transpose and
    # cast in one pass).
    a4 = a[: m1 * k1 * FRACTAL_ELEMS].reshape(m1, k1, FRACTAL, FRACTAL)
    b4 = b[: k1 * n1 * FRACTAL_ELEMS].reshape(k1, n1, FRACTAL, FRACTAL)
    product = formats.from_zz(a4, m, k, F32) @ formats.from_zn(b4, k, n, F32)

    # Nz viewed as (N1, M1*16, 16): c3[col // 16, row, col % 16] -- rows of one N block are
    # contiguous, so the m x n window is one slice per whole N block plus one for a tail block.
    c3 = c[: n1 * m1 * FRACTAL_ELEMS].reshape(n1, m1 * FRACTAL, FRACTAL)
    full, tail = divmod(n, FRACTAL)
    by_block = product[:, : full * FRACTAL].reshape(m, full, FRACTAL).transpose(1, 0, 2)
    parts = [(c3[:full, :m, :], by_block)]
    if tail:
        parts.append((c3[full, :m, :tail], product[:, full * FRACTAL :]))
    for target, values in parts:
        if init:
            target[...] = values
        else:
            target += values


# ---------------------------------------------------------------------------------------------
# FIX


def fixpipe(
    c: np.ndarray,
    gm: np.ndarray,
    dst_off: int,
    m: int,
    n: int,
    src_stride: int,
    dst_stride: int,
    atomic: bool,
) -> None:
    """``ascend.fixpipe`` (CFG_NZ): N blocks of ``m`` rows of 16 float32 from L0C to GM.

    For ``j in [0, n/16)``, ``r in [0, m)``, ``c0 in [0, 16)``:
    ``gm[dst_off + j*dst_stride*8 + r*16 + c0] (+)= c[(j*src_stride + r)*16 + c0]``, added with
    ``atomic`` (fp32 atomic add), stored otherwise. ``src_stride`` is in 16-element rows,
    ``dst_stride`` in 32-byte blocks (8 float32).
    """
    op = "fixpipe"
    _check_range(op, "n", n, FRACTAL, 4095)
    _check_multiple(op, "n", n, FRACTAL)
    _check_range(op, "m", m, 1, 65535)
    _check_range(op, "src_stride", src_stride, 0)
    _check_range(op, "dst_stride", dst_stride, 0)
    _check_flat(op, "source", c)
    _check_flat(op, "GM destination", gm)
    _check_f32(op, "source", c)
    _check_f32(op, "GM destination", gm)
    blocks = n // FRACTAL
    row_elems = FRACTAL
    src_step = src_stride * row_elems
    dst_step = dst_stride * (BLOCK_BYTES // F32.itemsize)
    run = m * row_elems
    _check_extent(op, "source", 0, (blocks - 1) * src_step + run, c.size)
    _check_extent(op, "GM destination", dst_off, (blocks - 1) * dst_step + run, gm.size)
    values = _strided(c, 0, (blocks, m, row_elems), (src_step, row_elems, 1))
    if blocks == 1 or dst_step >= run:
        target = _strided(gm, dst_off, (blocks, m, row_elems), (dst_step, row_elems, 1))
        if atomic:
            target += values
        else:
            target[...] = values
        return
    # Destination N blocks overlap (dst_stride*8 < m*16): the hardware writes them in order, so
    # an add accumulates every block and a store keeps the last block's value. A strided
    # in-place update would lose that, hence explicit indices.
    index = (
        dst_off
        + np.arange(blocks)[:, None, None] * dst_step
        + np.arange(m)[None, :, None] * row_elems
        + np.arange(row_elems)[None, None, :]
    ).reshape(-1)
    flat_values = values.reshape(-1)
    if atomic:
        np.add.at(gm, index, flat_values)
    else:
        last = index.size - 1 - np.unique(index[::-1], return_index=True)[1]
        gm[index[last]] = flat_values[last]
