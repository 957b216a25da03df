"""The numpy data backend: what each hardware instruction does to the bytes of the memories.

One function per hw-level op of docs/hw-level-spec.md: :func:`data_copy` (MTE2, GM -> L1),
:func:`load3d` and :func:`load2d` (MTE1, L1 -> L0A/L0B), :func:`mmad` (M, L0A x L0B -> L0C) and
:func:`fixpipe` (FIX, L0C -> GM). Each takes the instruction's geometry from the instruction
model (``hw/instructions/``, which checks the ISA limits and gives the steps and extents)
and moves the data; nothing here re-derives a limit or an extent. Both executors reach these
functions through the per-core machine (``runtime/machine/core.py``); nothing here knows about xDSL.

Two entry points per instruction:

* ``data_copy(src, src_off, dst, dst_off, count, len, ...)`` and friends take the operand
  integers, decode them (``hw/instructions/``) and execute; tests and tools use these;
* the ``*_g`` / matrix functions take an already decoded geometry; the machine uses those, so
  that a geometry is decoded (and checked) once per distinct set of operands.

Conventions:

* Buffers are flat (1-D, contiguous) numpy arrays: GM tensors as their physical (formatted)
  element array, local buffers as the typed view of one slot. Offsets and sizes are in elements
  of the array's type, strides in the units the spec gives (32-byte blocks, fractals, rows).
* A limit violation raises :class:`~ascend_xdsl.hw.isa.InstructionError` (a ``ValueError``)
  naming the op, the field and the value. An access outside the given view raises
  :class:`~ascend_xdsl.runtime.machine.memory.MemoryAccessError`: a slot view ends where the
  buffer's slot ends, so an instruction that would run into the neighbouring buffer is reported
  instead of silently reading it.
* Work is vectorised at tile granularity: strided views for the block/fractal
  repeats, one cached index array and one gather for img2col, one float32 matmul per mmad.
  The img2col gather produces the L0 matrix in matrix order (:func:`load3d_matrix`); its
  fractal byte layout is :func:`l0_layout`, the Zz / Zn maps of ``dialects/formats.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np

from ascend_xdsl.dialects import formats
from ascend_xdsl.hw.instructions import (
    DataCopy,
    Fill,
    Fixpipe,
    Load2d,
    Load3d,
    LoadBias,
    Mmad,
)
from ascend_xdsl.hw.isa import FRACTAL
from ascend_xdsl.runtime.machine import dtypes
from ascend_xdsl.runtime.machine.memory import MemoryAccessError

F32 = dtypes.F32


# ---------------------------------------------------------------------------------------------
# checks (element types and bounds; the ISA limits are the instruction model's)


def _check_flat(op: str, what: str, array: np.ndarray) -> None:
    # A non-contiguous array would make the strided views below address the wrong elements.
    if array.ndim != 1 or not array.flags.c_contiguous:
        raise ValueError(f"{op} {what} must be a flat contiguous array, got shape {array.shape}")


def check_extent(op: str, what: str, start: int, length: int, size: int) -> None:
    if start < 0 or start + length > size:
        raise MemoryAccessError(
            f"{op} {what} elements [{start}, {start + length}) out of bounds ({size} elements)"
        )


class Typed(Protocol):
    """An array, or a GM tensor (``GmTensor``): anything with an element type."""

    @property
    def dtype(self) -> np.dtype: ...


def check_same_type(op: str, src: Typed, dst: Typed) -> None:
    if src.dtype != dst.dtype:
        raise ValueError(f"{op} element types differ: source {src.dtype}, destination {dst.dtype}")


def _check_cube_type(op: str, array: np.ndarray) -> None:
    if not dtypes.is_cube_type(array.dtype):
        raise ValueError(f"{op} element type {array.dtype} is not float16 or bfloat16")


def _check_f32(op: str, what: str, array: np.ndarray) -> None:
    if array.dtype != F32:
        raise ValueError(f"{op} {what} element type {array.dtype} is not float32")


def _strided(
    base: np.ndarray, offset: int, shape: tuple[int, ...], steps: tuple[int, ...]
) -> np.ndarray:
    """View of the flat contiguous ``base`` from element ``offset`` with element ``steps``
    (the caller checked the bounds). The ``ndarray`` constructor is ten times cheaper than
    ``as_strided`` for the many small views the instructions take."""
    size = base.itemsize
    return np.ndarray(shape, base.dtype, base, offset * size, tuple(s * size for s in steps))


# ---------------------------------------------------------------------------------------------
# MTE2


def data_copy_g(
    src: np.ndarray,
    src_off: int,
    dst: np.ndarray,
    dst_off: int,
    g: DataCopy,
    element_bytes: int | None = None,
    check_only: bool = False,
) -> None:
    """:func:`data_copy` with a decoded geometry (steps in bytes, see ``DataCopy``).

    ``element_bytes`` is the size of the instruction's element type when ``src`` and ``dst``
    are float32 decodings of it (the machine's mirrors); offsets are in elements either way.
    With ``check_only``, only the checks (a dry run's, ``runtime/machine/core.py``)."""
    op = "data_copy"
    _check_flat(op, "source", src)
    _check_flat(op, "destination", dst)
    check_same_type(op, src, dst)
    eb = element_bytes or src.itemsize
    run, src_step, dst_step = g.run // eb, g.src_step // eb, g.dst_step // eb
    check_extent(op, "GM source", src_off, g.src_bytes // eb, src.size)
    check_extent(op, "destination", dst_off, g.dst_bytes // eb, dst.size)
    if check_only:
        return
    # dst_step >= run, so the destination runs never overlap and one assignment is exact.
    if g.count == 1 or (src_step == run and dst_step == run):
        dst[dst_off : dst_off + g.count * run] = src[src_off : src_off + g.count * run]
        return
    target = _strided(dst, dst_off, (g.count, run), (dst_step, 1))
    target[...] = _strided(src, src_off, (g.count, run), (src_step, 1))


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
    data_copy_g(src, src_off, dst, dst_off, DataCopy.decode(count, length, src_stride, dst_stride))


def fill_g(
    dst: np.ndarray,
    dst_off: int,
    g: Fill,
    element_bytes: int | None = None,
    check_only: bool = False,
) -> None:
    """``ascend.fill``: zero ``g.repeat`` runs of ``g.run`` bytes, ``g.step`` bytes apart, from
    ``dst`` element ``dst_off``. ``element_bytes`` is the instruction's element size when
    ``dst`` is the float32 decoding of it (the machine's L1 mirror); offsets are in elements.
    With ``check_only``, only the checks (a dry run's)."""
    op = "fill"
    _check_flat(op, "destination", dst)
    eb = element_bytes or dst.itemsize
    run, step = g.run // eb, g.step // eb
    check_extent(op, "destination", dst_off, g.dst_bytes // eb, dst.size)
    if check_only:
        return
    if g.repeat == 1 or step == run:
        dst[dst_off : dst_off + g.repeat * run] = 0
        return
    _strided(dst, dst_off, (g.repeat, run), (step, 1))[...] = 0


# ---------------------------------------------------------------------------------------------
# MTE1


@lru_cache(maxsize=512)
def _img2col_plan(g: Load3d) -> tuple[np.ndarray, int, int, np.ndarray | None, int]:
    """Gather plan of one load3d geometry: ``(index, lo, span, pad, unit)``.

    The img2col matrix ``X`` (positions x columns) is gathered in units of ``unit`` elements:
    whole C0 rows ``fmap[c1, h, w, :]`` (``unit`` = 16) when the column window starts on a C0
    boundary, as every load the lowering emits does, so that one gather moves 64-byte rows and
    its index is 16 times smaller; single elements (``unit`` = 1) otherwise. ``index[p, b]``
    is the unit of the feature map that ``X[p, b*unit : (b+1)*unit]`` reads, minus ``lo``;
    all of them lie in ``[lo, lo + span)``. ``pad`` lists the flat positions in ``index`` that
    read padding (clipped there, to be zeroed by the caller), or is None.
    """
    pt, _pb, pl, _pr = g.pad  # pb enters nothing: there is no Hout bound (spec)
    kh, kw = g.kernel
    sh, sw = g.stride
    dh, dw = g.dilation
    c0 = FRACTAL
    unit = c0 if g.k_start % c0 == 0 else 1
    p = g.m_start + np.arange(g.m_ext)  # img2col rows (output positions)
    q = g.k_start + np.arange(0, g.k_ext, unit)  # first column of each unit, order (c1, kh, kw, c0)
    oh, ow = np.divmod(p, g.wout)
    c1 = q // (kh * kw * c0)
    ikh = (q // (kw * c0)) % kh
    ikw = (q // c0) % kw
    qc0 = q % c0
    h = (oh * sh - pt)[:, None] + (ikh * dh)[None, :]
    w = (ow * sw - pl)[:, None] + (ikw * dw)[None, :]
    valid = (h >= 0) & (h < g.l1_h) & (w >= 0) & (w < g.l1_w)
    flat = (((c1[None, :] * g.l1_h + h) * g.l1_w + w) * c0 + qc0[None, :]) // unit
    if valid.any():
        lo, hi = int(flat[valid].min()), int(flat[valid].max())
    else:
        lo, hi = 0, 0
    index = np.ascontiguousarray(np.where(valid, flat - lo, 0), dtype=np.intp)
    index.setflags(write=False)  # shared through the cache
    pad = None if valid.all() else np.flatnonzero(~valid)
    return index, lo, hi - lo + 1, pad, unit


_PLANS: dict[int, tuple[Load3d, tuple[np.ndarray, int, int, np.ndarray | None, int]]] = {}


def _plan_of(g: Load3d) -> tuple[np.ndarray, int, int, np.ndarray | None, int]:
    """:func:`_img2col_plan` looked up by the geometry's identity (decoding interns it):
    ``lru_cache`` hashes the geometry's fields at every gather. The entry keeps the geometry
    alive, so its identity is not reused while the entry lives."""
    hit = _PLANS.get(id(g))
    if hit is not None and hit[0] is g:
        return hit[1]
    if len(_PLANS) >= 512:
        _PLANS.clear()
    plan = _img2col_plan(g)
    _PLANS[id(g)] = (g, plan)
    return plan


def load3d_matrix(src: np.ndarray, src_off: int, g: Load3d) -> np.ndarray:
    """The L0 matrix a load3d produces, in the source's element type: B (K = m_ext positions,
    N = k_ext columns), or with ``transpose`` A (M = k_ext columns, K = m_ext positions; a
    transposed view). ``src`` may also be the float32 decoding of the feature map (the
    machine's L1 mirror)."""
    op = "load3d"
    _check_flat(op, "source", src)
    if src.dtype != F32:
        _check_cube_type(op, src)
    check_extent(op, "source", src_off, g.fmap_elems, src.size)
    return load3d_gather(src, src_off, g)


def load3d_gather(src: np.ndarray, src_off: int, g: Load3d) -> np.ndarray:
    """:func:`load3d_matrix` without its checks, for a caller that made them once for many
    gathers of the same operands: ``src`` flat, in a Cube type or float32, with the feature
    map's ``g.fmap_elems`` elements from ``src_off`` inside it."""
    index, lo, span, pad, unit = _plan_of(g)
    if g.fmap_elems == 0:  # an empty map (l1_h 0): every position is padding
        matrix = np.zeros((g.m_ext, g.k_ext), src.dtype)
    else:
        window = src[src_off + lo * unit : src_off + (lo + span) * unit].reshape(span, unit)
        rows = window.take(index, axis=0, mode="clip")  # (m_ext, k_ext / unit, unit)
        if pad is not None:
            rows.reshape(-1, unit)[pad] = 0
        matrix = rows.reshape(g.m_ext, g.k_ext)
    return matrix.T if g.transpose else matrix


MergedGathers = tuple[np.ndarray, np.ndarray | None, list[tuple[int, int, Load3d]]]
"""One take's worth of img2col gathers (:func:`merge_gathers`): the rows' index, the padding
rows, and each gather's rows and geometry."""


def merge_gathers(gathers: Sequence[tuple[int, Load3d]]) -> MergedGathers | None:
    """The plan of the gathers ``load3d_gather(src, first, g)`` for each ``(first, g)`` of
    ``gathers`` from one unchanged ``src``, as one take of whole C0 rows
    (:func:`merged_gathers`); None if one of them does not gather whole C0 rows from a C0
    boundary (or gathers an empty map)."""
    index, pads, spans = [], [], []
    row = 0
    for first, g in gathers:
        plan, lo, _, pad, unit = _plan_of(g)
        if unit != FRACTAL or g.fmap_elems == 0 or first % FRACTAL:
            return None
        index.append(plan.reshape(-1) + (first // FRACTAL + lo))
        if pad is not None:
            pads.append(pad + row)
        spans.append((row, row + plan.size, g))
        row += plan.size
    merged, padding = np.concatenate(index), np.concatenate(pads) if pads else None
    for array in (merged, padding):
        if array is not None:
            array.setflags(write=False)  # a plan may be shared (replay.merged_steps)
    return merged, padding, spans


def merged_gathers(
    src: np.ndarray, plan: MergedGathers, out: np.ndarray | None = None
) -> list[np.ndarray]:
    """The matrices of the gathers of ``plan`` (:func:`merge_gathers`) from the flat ``src``:
    the same values, shapes and strides as :func:`load3d_gather` gives one by one (each
    matrix is a view of the one take's rows, written into ``out`` when given: an
    ``(len(index), 16)`` array of ``src``'s type)."""
    return merged_matrices(merged_take(src, plan, out), plan)


def merged_take(src: np.ndarray, plan: MergedGathers, out: np.ndarray | None = None) -> np.ndarray:
    """The rows of the gathers of ``plan`` from the flat ``src``, padding rows zeroed (into
    ``out`` when given, which is then what it returns): the take of :func:`merged_gathers`."""
    index, pad, _ = plan
    rows = src[: src.size - src.size % FRACTAL].reshape(-1, FRACTAL)
    rows = rows.take(index, 0, out=out, mode="clip")
    if pad is not None:
        rows[pad] = 0
    return rows


def merged_matrices(rows: np.ndarray, plan: MergedGathers) -> list[np.ndarray]:
    """Each gather's matrix of ``plan``: a view of the take's ``rows`` (:func:`merged_take`),
    so the views of one ``out`` array stay the matrices of every take into it."""
    matrices = []
    for start, end, g in plan[2]:
        matrix = rows[start:end].reshape(g.m_ext, g.k_ext)
        matrices.append(matrix.T if g.transpose else matrix)
    return matrices


def l0_layout(matrix: np.ndarray, transpose: bool, dtype: np.dtype | None = None) -> np.ndarray:
    """The fractal layout of an L0 matrix (whole fractals): Zz for the A side (``transpose``),
    Zn for the B side, flattened; cast to ``dtype`` when given."""
    out = (formats.to_zz(matrix) if transpose else formats.to_zn(matrix)).reshape(-1)
    return out if dtype is None else out.astype(dtype)


def load3d(
    src: np.ndarray,
    src_off: int,
    dst: np.ndarray,
    *,
    pad: tuple[int, int, int, int],
    kernel: tuple[int, int],
    stride: tuple[int, int],
    dilation: tuple[int, int],
    transpose: bool,
    a_side: bool | None = None,
    **fmap_and_window: int,
) -> None:
    """``ascend.load3d``: img2col window of a ``[C1][l1_h][l1_w][C0]`` feature map into L0.

    ``fmap_and_window`` are the integer operands ``l1_h``, ``l1_w``, ``channels``, ``k_start``,
    ``k_ext``, ``m_start``, ``m_ext`` (the fields of ``Load3d``).
    ``X[p, q]`` for ``p in [m_start, m_start + m_ext)``, ``q in [k_start, k_start + k_ext)``:
    ``(oh, ow) = divmod(p, Wout)``, ``q -> (c1, ikh, ikw, c0)`` (c1 outermost),
    ``h = oh*sh - pt + ikh*dh``, ``w = ow*sw - pl + ikw*dw``, ``X = fmap[c1, h, w, c0]`` inside
    the map, else 0. Written from dst element 0 as Zn ``dst[k1][n1][n0][k0] = X[k1*16+k0,
    n1*16+n0]`` (B side) or, with ``transpose``, as Zz ``dst[m1][k1][m0][k0] = X[k1*16+k0,
    m1*16+m0]`` (A side). ``a_side`` without ``transpose`` (the forward's img2col into L0A)
    writes Zz of ``X`` itself: ``dst[m1][k1][m0][k0] = X[m1*16+m0, k1*16+k0]``; it defaults to
    ``transpose``. ``pad = (top, bottom, left, right)``.
    """
    g = Load3d.decode(
        **fmap_and_window,
        pad=tuple(pad),  # type: ignore[arg-type]
        kernel=tuple(kernel),  # type: ignore[arg-type]
        stride=tuple(stride),  # type: ignore[arg-type]
        dilation=tuple(dilation),  # type: ignore[arg-type]
        transpose=bool(transpose),
        element_bytes=src.itemsize,
        a_side=bool(transpose) if a_side is None else a_side,
    )
    _check_flat("load3d", "destination", dst)
    check_same_type("load3d", src, dst)
    _check_cube_type("load3d", src)
    check_extent("load3d", "destination", 0, g.out_elems, dst.size)
    matrix = load3d_matrix(src, src_off, g)
    dst[: g.out_elems] = l0_layout(matrix, g.a_side)


def load2d_g(src: np.ndarray, src_off: int, dst: np.ndarray, dst_off: int, g: Load2d) -> None:
    """:func:`load2d` with a decoded geometry. ``src`` may also be the float32 decoding of
    the source's 16-bit values (the machine's L1 mirror); they are written back exactly."""
    op = "load2d"
    _check_flat(op, "source", src)
    _check_flat(op, "destination", dst)
    if src.dtype != F32 or dst.dtype == F32:
        check_same_type(op, src, dst)
    check_extent(op, "source", src_off, g.src_elems, src.size)
    check_extent(op, "destination", dst_off, g.dst_elems, dst.size)
    fractals = _strided(src, src_off, (g.repeat, FRACTAL, FRACTAL), (g.src_step, FRACTAL, 1))
    if g.transpose:
        fractals = fractals.transpose(0, 2, 1)
    target = dst[dst_off : dst_off + g.dst_elems].reshape(g.repeat, FRACTAL, FRACTAL)
    target[...] = fractals


FractalsKey = tuple[tuple[int, ...], bool, bool, int, int]
"""What :func:`fractals_index` takes: each fractal's first source element, whether the
load2d's transposed them, whether the operand is Zz (A) or Zn (B), and its fractal rows and
columns."""


@lru_cache(maxsize=256)
def fractals_index(key: FractalsKey) -> np.ndarray:
    """The source element of each element of the ``(rows * 16, cols * 16)`` matrix an mmad
    reads from fractals that load2d's copied (``key``: :data:`FractalsKey`; fractal ``p`` of
    the operand, row-major over the grid, copied from the 256 elements at ``bases[p]``), so
    that ``src.take(index)`` is what :func:`unpack_a` (Zz) or :func:`unpack_b` (Zn) reads from
    the bytes the load2d's would have written, in the same C order.

    A Zz fractal holds ``X[i*16 + r, j*16 + c]`` at its ``[r][c]``, a Zn one
    ``X[i*16 + c, j*16 + r]``; a fractal copied as it is has ``[r][c]`` at source element
    ``r*16 + c``, a transposed one at ``c*16 + r``."""
    bases, transpose, zz, rows, cols = key
    a = np.arange(FRACTAL)
    by_rows = a[:, None] * FRACTAL + a[None, :]  # X's row a, column b at a*16 + b
    within = by_rows if zz != transpose else by_rows.T
    base = np.array(bases, np.intp).reshape(rows, cols)
    index = (base[:, None, :, None] + within[None, :, None, :]).reshape(rows * FRACTAL, -1)
    index.setflags(write=False)  # shared through the cache
    return index


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
    g = Load2d.decode(repeat, src_stride, bool(transpose), src.itemsize)
    load2d_g(src, src_off, dst, dst_off, g)


# ---------------------------------------------------------------------------------------------
# M


def mmad_operands(a: np.ndarray, b: np.ndarray, c: np.ndarray, g: Mmad) -> None:
    """Type and bound checks of an mmad on the byte layouts of its three slots."""
    op = "mmad"
    for what, array in (("A", a), ("B", b), ("C", c)):
        _check_flat(op, what, array)
    _check_cube_type(op, a)
    if b.dtype != a.dtype:
        raise ValueError(f"mmad element types differ: A {a.dtype}, B {b.dtype}")
    _check_f32(op, "C", c)
    check_extent(op, "A", 0, g.a_elems, a.size)
    check_extent(op, "B", 0, g.b_elems, b.size)
    check_extent(op, "C", 0, g.c_elems, c.size)


def unpack_a(a: np.ndarray, g: Mmad) -> np.ndarray:
    """A[:m, :k] in float32 from its Zz bytes (transposed and cast in one pass)."""
    a4 = a[: g.a_elems].reshape(g.m1, g.k1, FRACTAL, FRACTAL)
    return formats.from_zz(a4, g.m, g.k, F32)


def unpack_b(b: np.ndarray, g: Mmad) -> np.ndarray:
    """B[:k, :n] in float32 from its Zn bytes."""
    b4 = b[: g.b_elems].reshape(g.k1, g.n1, FRACTAL, FRACTAL)
    return formats.from_zn(b4, g.k, g.n, F32)


def accumulate(c: np.ndarray, product: np.ndarray, g: Mmad, init: bool) -> None:
    """``C[:m, :n] (+)= product`` on the Nz float32 layout of L0C."""
    m, n = g.m, g.n
    # Nz viewed as (N1, M1*16, 16): c3[col // 16, row, col % 16] -- rows of one N block are
    # contiguous, so the m x n window is one slice per whole N block plus one for a tail block.
    c3 = c[: g.c_elems].reshape(g.n1, g.m1 * FRACTAL, FRACTAL)
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


def load_bias_g(src: np.ndarray, src_off: int, dst: np.ndarray, g: LoadBias) -> None:
    """``ascend.load_bias``: ``dst[i] = float32(src[src_off + i])`` for ``i < g.elems`` (the
    ``len`` 64-byte blocks of the half or float source, widened into the bias table)."""
    op = "load_bias"
    _check_flat(op, "source", src)
    _check_flat(op, "destination", dst)
    if src.dtype not in (dtypes.F16, F32):
        raise ValueError(f"{op} source element type {src.dtype} is not float16 or float32")
    _check_f32(op, "destination", dst)
    check_extent(op, "source", src_off, g.elems, src.size)
    check_extent(op, "destination", 0, g.elems, dst.size)
    dst[: g.elems] = src[src_off : src_off + g.elems]


def bias_row(bias: np.ndarray, g: Mmad) -> np.ndarray:
    """The ``n1 * 16`` floats of the bias table slot ``bias`` an mmad's bias-init reads."""
    op = "mmad"
    _check_flat(op, "bias", bias)
    _check_f32(op, "bias", bias)
    check_extent(op, "bias", 0, g.bias_elems, bias.size)
    return bias[: g.bias_elems]


def mmad(
    a: np.ndarray,
    b: np.ndarray,
    c: np.ndarray,
    m: int,
    n: int,
    k: int,
    init: bool,
    bias: np.ndarray | None = None,
) -> None:
    """``ascend.mmad``: ``C[:m, :n] = (init ? 0 : C[:m, :n]) + A[:m, :k] @ B[:k, :n]`` in float32;
    with ``bias`` (the bias table slot) and ``init``, ``C[:m, :n] = bias[:n] + A @ B``.

    A is Zz ``(M1, K1, 16, 16)``: ``A[r, t] = a[r//16][t//16][r%16][t%16]``; B is Zn
    ``(K1, N1, 16, 16)``: ``B[t, c] = b[t//16][c//16][c%16][t%16]``; C is Nz ``(N1, M1, 16, 16)``
    float32: ``C[r, c] = c[c//16][r//16][r%16][c%16]``. Elements of C outside ``m x n`` are left
    as they are.
    """
    g = Mmad.decode(m, n, k, a.itemsize)
    mmad_operands(a, b, c, g)
    product = unpack_a(a, g) @ unpack_b(b, g)
    if init and bias is not None:
        product = product + bias_row(bias, g)[: product.shape[1]]
    accumulate(c, product, g, bool(init))


# ---------------------------------------------------------------------------------------------
# FIX


def fixpipe_g(
    c: np.ndarray,
    gm: np.ndarray,
    dst_off: int,
    g: Fixpipe,
    values: np.ndarray | None = None,
    check_only: bool = False,
) -> None:
    """:func:`fixpipe` with a decoded geometry. ``values``, when given, are the
    ``(blocks, m, 16)`` float32 values the instruction reads from ``c`` (the machine's owed
    L0C tile holds them as a matrix, so its bytes need not be written first). With
    ``check_only``, only the checks (a dry run's: it never writes GM)."""
    op = "fixpipe"
    _check_flat(op, "source", c)
    _check_flat(op, "GM destination", gm)
    _check_f32(op, "source", c)
    if g.dst_bytes == F32.itemsize:
        _check_f32(op, "GM destination", gm)
    else:
        # The quantising mode (F322F16 / F322BF16): the values are rounded to nearest even
        # by the cast of the assignment below; there is no atomic add in a 16-bit type.
        _check_cube_type(op, gm)
        if g.atomic:
            raise ValueError(f"{op}: no atomic add into {gm.dtype}, only into float32")
    check_extent(op, "source", 0, g.src_elems, c.size)
    check_extent(op, "GM destination", dst_off, g.dst_elems, gm.size)
    if check_only:
        return
    blocks, run, rows = g.blocks, g.run, FRACTAL
    if values is None:
        values = _strided(c, 0, (blocks, g.m, rows), (g.src_step, rows, 1))
    if blocks == 1 or g.dst_step >= run:
        target = _strided(gm, dst_off, (blocks, g.m, rows), (g.dst_step, rows, 1))
        if g.atomic:
            target += values
        else:
            target[...] = values
        return
    # Destination N blocks overlap (dst_stride*8 < m*16): the hardware writes them in order, so
    # an add accumulates every block and a store keeps the last block's value. A strided
    # in-place update would lose that, hence explicit indices.
    index = (
        dst_off
        + np.arange(blocks)[:, None, None] * g.dst_step
        + np.arange(g.m)[None, :, None] * rows
        + np.arange(rows)[None, None, :]
    ).reshape(-1)
    flat_values = values.reshape(-1)
    if g.atomic:
        np.add.at(gm, index, flat_values)
    else:
        last = index.size - 1 - np.unique(index[::-1], return_index=True)[1]
        gm[index[last]] = flat_values[last]


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
    """``ascend.fixpipe`` (CFG_NZ): N blocks of ``m`` rows of 16 float32 from L0C to GM (a
    16-bit ``gm`` receives them rounded to nearest even, ``dst_stride`` then counts 16 elements).

    For ``j in [0, n/16)``, ``r in [0, m)``, ``c0 in [0, 16)``:
    ``gm[dst_off + j*dst_stride*8 + r*16 + c0] (+)= c[(j*src_stride + r)*16 + c0]``, added with
    ``atomic`` (fp32 atomic add), stored otherwise. ``src_stride`` is in 16-element rows,
    ``dst_stride`` in 32-byte blocks (8 float32).
    """
    g = Fixpipe.decode(m, n, src_stride, dst_stride, bool(atomic), gm.itemsize)
    fixpipe_g(c, gm, dst_off, g)
