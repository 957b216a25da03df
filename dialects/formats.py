"""Tensor layouts of the dW kernel: the single place where layout knowledge lives.

The trans_data verifier and interpreter, the fixpipe interpreter, the lowering's GM offset
arithmetic and the tests all use this module, so a layout is defined exactly once. It is plain
numpy with no IR in it. Every conversion is a pad + reshape + transpose (no per-element Python
loops; one, NCDHW → NDC1HWC0, in staged chunks where a transpose in place thrashes the caches).

The GM offset formulas are written once, over an :class:`IndexArith` (the integer operations
they need, passed in): :data:`INT_ARITH` evaluates them on Python ints and numpy integer arrays
(so the simulator computes a whole tile's addresses in one call), and the lowering's
``lowering.index_arith.IDX_ARITH`` evaluates the same functions into ``arith`` ops. An offset is
a sum of coordinate × stride, with the strides those of the C-contiguous storage shape
(:func:`ndc1hwc0_strides`, :func:`fractal_z_3d_strides`): the conversions below produce exactly
that storage, and the lowering reads its per-row, per-plane and per-block strides from the same
records.

Notation: ``⌊a/b⌋`` is floor division, ``C1 = ⌈C/C0⌉``, C0 = 16 for fp16/bf16 (8 for fp32).

GM formats
----------
As defined in hicann/asc-devkit docs ``docs/zh/api/SIMD-API/高阶API/张量变换/TransData.md``:

NDC1HWC0 (x and dy)
    Logical NCDHW ``x[n, c, d, h, w]`` is stored as ``[N, D, C1, H, W, C0]`` (TransData.md,
    scenario 1); the channels ``c ≥ C`` of the last C1 block are zero padding. Element offset::

        ((((n·D + d)·C1 + ⌊c/C0⌋)·H + h)·W + w)·C0 + c mod C0

FRACTAL_Z_3D (dW)
    The weight ``W[co, ci, kd, kh, kw]`` of shape (Cout, Cin/g, kD, kH, kW) is stored as the 4-D
    GE shape ``(real_g·kD·cin1_g·kH·kW, cout1_g, 16, C0)`` = ``[G][kD][C1][kH][kW][Cout1][N0=16
    (cout)][C0 (cin)]`` (TransData.md, scenario 3). Groups are first packed into enlarged groups
    of ``mf`` original groups (:func:`ascend_xdsl.dialects.conv_shape.group_enlargement`):
    original group ``g`` lands in enlarged group ``G = ⌊g/mf⌋`` at ``ci' = (g mod mf)·Cin/g + ci``
    and ``co' = (g mod mf)·Cout/g + co_in_group``; every other entry is zero, so each enlarged
    group is block-diagonal (hicann/ops-nn ``conv/conv3d_backprop_filter_v2/tests/assets/
    golden.py``, ``to_FRACTAL_Z_3D_from_NCDHW``). Element offset, with the enlarged-group axis
    outermost::

        (((((((G·kD + kd)·cin1_g + ⌊ci'/C0⌋)·kH + kh)·kW + kw)·cout1_g + ⌊co'/16⌋)·16
            + co' mod 16)·C0 + ci' mod C0

    One "row" ``(G, kd, c1, kh, kw)`` is a contiguous ``[cout1_g·16][C0]`` block: exactly what
    Fixpipe writes from one 16-wide N block of an Nz L0C tile (``LoadL0c2Gm`` in hicann/asc-devkit
    ``impl/adv_api/detail/conv_backprop/conv3d_backprop_filter/dav_v220/
    conv3d_bp_filter_sub_func.h``: a ``CFG_NZ`` fixpipe whose destination stride is one row).

On-chip fractals (a fractal is 16 × K0 elements, K0 = 32 B / element size)
--------------------------------------------------------------------------
The formats of NPU architecture 2201 in hicann/asc-devkit docs ``docs/zh/api/SIMD-API/基础API/
矩阵计算（ISASI）/矩阵计算分形介绍/关键分形格式详解.md``:

Zz (L0A, the dy matrix A of shape (M, K))
    ``(M1, K1, M0=16, K0)``: fractals in row-major order, each fractal row-major.
    ``A[m, k]`` sits at ``[⌊m/16⌋][⌊k/K0⌋][m mod 16][k mod K0]``.
Zn (L0B, the img2col matrix B of shape (K, N))
    ``(K1, N1, N0=16, K0)``: fractals in row-major order, each fractal column-major.
    ``B[k, n]`` sits at ``[⌊k/K0⌋][⌊n/16⌋][n mod 16][k mod K0]``.
Nz (L0C, the fp32 result C of shape (M, N))
    ``(N1, M1, 16, 16)``: fractals in column-major order, each fractal row-major.
    ``C[m, n]`` sits at ``[⌊n/16⌋][⌊m/16⌋][m mod 16][n mod 16]``.

With these, one Mmad is ``C_nz[n1, m1] += Σ_k1 A_zz[m1, k1] @ B_zn[k1, n1]ᵀ``. Packers zero-pad
each axis up to a whole number of fractals; unpackers slice the padding off again.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from ascend_xdsl.dialects.conv_shape import (
    FRACTAL,
    GroupEnlargement,
    ceil_div,
    group_enlargement,
)

IntOrArray = int | np.ndarray
"""Offset functions accept Python ints or numpy integer arrays (broadcast together)."""

FRACTAL_N0 = FRACTAL
"""Cout rows per FRACTAL_Z_3D fractal, and M0/N0 of the on-chip fractals."""

V = TypeVar("V")
"""The value type an offset formula is evaluated in. Operands may also be plain ``int`` (strides,
shape constants, coordinates known to be 0): both arithmetics take ints."""

Operand = V | int


@dataclass(frozen=True)
class IndexArith(Generic[V]):
    """The integer operations the offset formulas are written in.

    Writing a formula once against this record, rather than once with Python operators and once
    with the lowering's IR builders, is what makes the simulator and the compiled kernel agree
    by construction. All operands are non-negative where ``floordiv`` and ``rem`` are used, so
    floor and truncating division (``arith.remsi``) agree."""

    add: Callable[[Operand[V], Operand[V]], Operand[V]]
    sub: Callable[[Operand[V], Operand[V]], Operand[V]]
    mul: Callable[[Operand[V], Operand[V]], Operand[V]]
    floordiv: Callable[[Operand[V], Operand[V]], Operand[V]]
    rem: Callable[[Operand[V], Operand[V]], Operand[V]]
    max: Callable[[Operand[V], Operand[V]], Operand[V]]
    min: Callable[[Operand[V], Operand[V]], Operand[V]]

    def sum(self, *terms: Operand[V]) -> Operand[V]:
        """``terms[0] + terms[1] + ...`` (0 for no terms)."""
        total: Operand[V] = 0
        for term in terms:
            total = self.add(total, term)
        return total

    def dot(self, coords: Sequence[Operand[V]], strides: Sequence[int]) -> Operand[V]:
        """``Σ coords[i]·strides[i]``: the offset of a coordinate in a strided layout."""
        if len(coords) != len(strides):
            raise ValueError(f"{len(coords)} coordinates for {len(strides)} strides")
        return self.sum(*(self.mul(c, s) for c, s in zip(coords, strides, strict=True)))


def _maximum(a: IntOrArray, b: IntOrArray) -> IntOrArray:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.maximum(a, b)
    return max(a, b)


def _minimum(a: IntOrArray, b: IntOrArray) -> IntOrArray:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.minimum(a, b)
    return min(a, b)


INT_ARITH: IndexArith[IntOrArray] = IndexArith(
    add=operator.add,
    sub=operator.sub,
    mul=operator.mul,
    floordiv=operator.floordiv,
    rem=operator.mod,
    max=_maximum,
    min=_minimum,
)
"""The formulas on Python ints and numpy integer arrays (broadcast together)."""


def _row_major_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Element strides of a C-contiguous array of ``shape``."""
    strides = [1] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    return tuple(strides)


def _pad_axes(x: np.ndarray, sizes: dict[int, int]) -> np.ndarray:
    """Zero-pad the given axes of ``x`` at the end up to ``sizes[axis]``, keeping the dtype.

    ``np.zeros`` + slice assignment rather than ``np.pad`` so any dtype (ml_dtypes.bfloat16
    included) works the same way."""
    shape = list(x.shape)
    for axis, size in sizes.items():
        if size < shape[axis]:
            raise ValueError(f"cannot pad axis {axis} of size {shape[axis]} down to {size}")
        shape[axis] = size
    if tuple(shape) == x.shape:
        return x
    out = np.zeros(shape, dtype=x.dtype)
    out[tuple(slice(0, s) for s in x.shape)] = x
    return out


# --------------------------------------------------------------------------------------------
# NDC1HWC0
# --------------------------------------------------------------------------------------------


def ndc1hwc0_shape(n: int, c: int, d: int, h: int, w: int, c0: int) -> tuple[int, ...]:
    """Storage shape (N, D, C1, H, W, C0) of a logical (N, C, D, H, W) tensor."""
    return (n, d, ceil_div(c, c0), h, w, c0)


_ALIASED_PLANE = 128 << 10
"""Channel planes of a multiple of this many bytes are transposed in staged chunks
(:func:`_staged_blocks`)."""
_STAGE = 1024
"""Positions per staged chunk: C0 rows of this many elements fit the L1 cache."""


def _staged_blocks(x: np.ndarray, out: np.ndarray, full: int) -> None:
    """``out[:, :, :full]`` of :func:`ncdhw_to_ndc1hwc0`, chunk by chunk: each chunk's C0 rows
    copied into a small buffer, then transposed from it. Read in place, the C0 rows of a block
    are a channel plane apart; when that is a multiple of :data:`_ALIASED_PLANE` and the array
    lies on huge pages, the rows share cache sets and thrash (unet3d-enc1's dy, planes of
    64³ elements: 0.10 to 0.24 s per conversion in place, 0.011 s staged; other planes do not
    alias and are faster in one pass)."""
    n, _, d, h, w = x.shape
    c0 = out.shape[-1]
    hw = h * w
    planes = x.reshape(n, x.shape[1], d * hw)
    target = out.reshape(n, d, out.shape[2], hw, c0)
    stage = np.empty((c0, min(_STAGE, hw)), x.dtype)
    for i in range(n):
        for k in range(full):
            block = planes[i, k * c0 : (k + 1) * c0]
            for j in range(d):
                for s in range(0, hw, _STAGE):
                    e = min(hw, s + _STAGE)
                    rows = stage[:, : e - s]
                    rows[...] = block[:, j * hw + s : j * hw + e]
                    target[i, j, k, s:e] = rows.T


def ncdhw_to_ndc1hwc0(x: np.ndarray, c0: int) -> np.ndarray:
    """NCDHW → NDC1HWC0; channels are zero-padded up to C1·C0."""
    if x.ndim != 5:
        raise ValueError(f"expected an NCDHW array, got shape {x.shape}")
    n, c, d, h, w = x.shape
    c1 = ceil_div(c, c0)
    # Written into the zeroed result through transposed views, one pass over ``x``: padding
    # ``x`` first and transposing the padded copy moved the padding twice (a thin layer's
    # 8 channels padded to 16 made the conversion 3x slower).
    out = np.zeros((n, d, c1, h, w, c0), dtype=x.dtype)
    full = c // c0
    if full and (d * h * w * x.itemsize) % _ALIASED_PLANE == 0:
        _staged_blocks(x, out, full)
    elif full:
        # (N, C1, C0, D, H, W) -> (N, D, C1, H, W, C0)
        whole = x[:, : full * c0].reshape(n, full, c0, d, h, w)
        out[:, :, :full] = whole.transpose(0, 3, 1, 4, 5, 2)
    if c > full * c0:
        # the last, partial C0 block: (N, C, D, H, W) -> (N, D, H, W, C)
        out[:, :, full, :, :, : c - full * c0] = x[:, full * c0 :].transpose(0, 2, 3, 4, 1)
    return out


def ndc1hwc0_to_ncdhw(x5: np.ndarray, c: int) -> np.ndarray:
    """NDC1HWC0 → NCDHW with ``c`` real channels (the padding channels are dropped)."""
    if x5.ndim != 6:
        raise ValueError(f"expected an NDC1HWC0 array, got shape {x5.shape}")
    n, d, c1, h, w, c0 = x5.shape
    if not (c1 - 1) * c0 < c <= c1 * c0:
        raise ValueError(f"{c} channels do not fit C1={c1} blocks of C0={c0}")
    # (N, D, C1, H, W, C0) -> (N, C1, C0, D, H, W)
    x = x5.transpose(0, 2, 5, 1, 3, 4).reshape(n, c1 * c0, d, h, w)
    return np.ascontiguousarray(x[:, :c])


@dataclass(frozen=True)
class Ndc1hwc0Strides:
    """Elements between neighbours along each NDC1HWC0 storage axis; C0's stride is 1.

    ``h`` is the elements of one H row, ``c1`` of one C1 block plane (H·W·C0), ``d`` of one
    depth (all C1 blocks)."""

    n: int
    d: int
    c1: int
    h: int
    w: int


def ndc1hwc0_strides(dims: tuple[int, int, int, int, int], c0: int) -> Ndc1hwc0Strides:
    """Strides of NDC1HWC0 storage of a logical (N, C, D, H, W) tensor ``dims``."""
    n, d, c1, h, w, _ = _row_major_strides(ndc1hwc0_shape(*dims, c0))
    return Ndc1hwc0Strides(n=n, d=d, c1=c1, h=h, w=w)


def ndc1hwc0_block_offset(
    ar: IndexArith[V],
    s: Ndc1hwc0Strides,
    n: Operand[V],
    d: Operand[V],
    c1: Operand[V],
    h: Operand[V],
    w: Operand[V],
    c0: Operand[V],
) -> Operand[V]:
    """Element offset of storage coordinate ``[n, d, c1, h, w, c0]`` (NDC1HWC0), in ``ar``.

    The single definition of the NDC1HWC0 offset. Being linear, it also holds for a coordinate
    that runs past its axis into the next one: ``w`` = a position p of consecutive (h, w)
    pixels (``s.h`` = W·``s.w``), or ``c1`` = a (d, c1) row when C1 blocks of consecutive depths
    are read as one axis (fused Dk)."""
    return ar.add(ar.dot((n, d, c1, h, w), (s.n, s.d, s.c1, s.h, s.w)), c0)


def ndc1hwc0_offset(
    n: IntOrArray,
    c: IntOrArray,
    d: IntOrArray,
    h: IntOrArray,
    w: IntOrArray,
    dims: tuple[int, int, int, int, int],
    c0: int,
) -> IntOrArray:
    """Element offset of logical ``x[n, c, d, h, w]`` in NDC1HWC0 storage (TransData.md).

    ``dims`` is the logical (N, C, D, H, W) shape; N itself does not enter the formula."""
    s = ndc1hwc0_strides(dims, c0)
    return ndc1hwc0_block_offset(INT_ARITH, s, n, d, c // c0, h, w, c % c0)


# --------------------------------------------------------------------------------------------
# FRACTAL_Z_3D
# --------------------------------------------------------------------------------------------


def _fz3d_enlargement(cout: int, cin_g: int, groups: int, c0: int) -> GroupEnlargement:
    if c0 != FRACTAL_N0:
        # fp32 (C0 = 8) uses a channel-split layout (the kernel writes [Cout_aligned16][8] blocks)
        # whose GE storage shapes in the hicann/ops-nn tiling UTs (e.g. {144, 16, 16, 8} for
        # Cout = Cin = 128, k = 1×3×3) do not match that count; refuse rather than guess.
        raise ValueError(f"FRACTAL_Z_3D is modelled for C0 = 16 only, got C0 = {c0}")
    if groups < 1 or cout % groups:
        raise ValueError(f"Cout ({cout}) must be divisible by groups ({groups})")
    return group_enlargement(cin_g, cout // groups, groups, c0)


def fractal_z_3d_shape(
    cout: int, cin_g: int, kd: int, kh: int, kw: int, groups: int, c0: int
) -> tuple[int, int, int, int]:
    """GE storage shape ``(real_g·kD·cin1_g·kH·kW, cout1_g, 16, C0)`` of a weight
    (Cout, Cin/g = ``cin_g``, kD, kH, kW) with ``groups`` groups."""
    ge = _fz3d_enlargement(cout, cin_g, groups, c0)
    return (ge.real_g * kd * ge.cin1_g * kh * kw, ge.cout1_g, FRACTAL_N0, c0)


def enlarged_group_index(
    co: IntOrArray, ci: IntOrArray, cout_g: int, cin_g: int, mag_factor: int
) -> tuple[IntOrArray, IntOrArray, IntOrArray]:
    """Map weight indices (output channel ``co`` in [0, Cout), in-group input channel ``ci`` in
    [0, Cin/g)) to (enlarged group, cout inside it, cin inside it) (hicann/ops-nn
    ``tests/assets/golden.py``, ``to_FRACTAL_Z_3D_from_NCDHW``)."""
    g = co // cout_g
    slot = g % mag_factor
    return g // mag_factor, slot * cout_g + co % cout_g, slot * cin_g + ci


@dataclass(frozen=True)
class FractalZ3dStrides:
    """Elements between neighbours along each FRACTAL_Z_3D axis; C0's (cin mod C0) stride is 1.

    ``kw`` is the stride of one row ``(G, kd, c1, kh, kw)``: the ``[cout1_g·16][C0]`` block that
    one 16-wide N block of an L0C tile fills. The (Cout1, N0) axes are one axis of
    ``cout1_g·16`` channels, stride ``co`` = C0."""

    g: int
    kd: int
    c1: int
    kh: int
    kw: int
    co: int


def fractal_z_3d_strides(
    kd: int, kh: int, kw: int, cin1_g: int, cout1_g: int, c0: int
) -> FractalZ3dStrides:
    """Strides of FRACTAL_Z_3D storage ``[G][kD][cin1_g][kH][kW][cout1_g·16][C0]``."""
    g, d, c1, h, w, co, _ = _row_major_strides((1, kd, cin1_g, kh, kw, cout1_g * FRACTAL_N0, c0))
    return FractalZ3dStrides(g=g, kd=d, c1=c1, kh=h, kw=w, co=co)


def fractal_z_3d_block_offset(
    ar: IndexArith[V],
    s: FractalZ3dStrides,
    g: Operand[V],
    kd: Operand[V],
    c1: Operand[V],
    kh: Operand[V],
    kw: Operand[V],
    co: Operand[V],
    ci0: Operand[V],
) -> Operand[V]:
    """Element offset of enlarged group ``g``'s row ``(kd, c1, kh, kw)``, cout ``co`` (inside the
    enlarged group) and cin ``c1·C0 + ci0`` (FRACTAL_Z_3D), in ``ar``.

    The single definition of the FRACTAL_Z_3D offset. Linear like
    :func:`ndc1hwc0_block_offset`, so ``kw`` may count whole rows of (c1, kh, kw) and ``c1``
    whole (kd, c1) rows."""
    return ar.add(ar.dot((g, kd, c1, kh, kw, co), (s.g, s.kd, s.c1, s.kh, s.kw, s.co)), ci0)


def fractal_z_3d_offset(
    co: IntOrArray,
    ci: IntOrArray,
    kd: IntOrArray,
    kh: IntOrArray,
    kw: IntOrArray,
    weight_shape: tuple[int, int, int, int, int],
    groups: int,
    c0: int,
) -> IntOrArray:
    """Element offset of ``W[co, ci, kd, kh, kw]`` in FRACTAL_Z_3D storage (TransData.md).

    ``weight_shape`` is the logical (Cout, Cin/g, kD, kH, kW); the enlarged-group axis is
    outermost."""
    cout, cin_g, dk, hk, wk = weight_shape
    ge = _fz3d_enlargement(cout, cin_g, groups, c0)
    g_e, co_e, ci_e = enlarged_group_index(co, ci, cout // groups, cin_g, ge.mag_factor)
    s = fractal_z_3d_strides(dk, hk, wk, ge.cin1_g, ge.cout1_g, c0)
    return fractal_z_3d_block_offset(INT_ARITH, s, g_e, kd, ci_e // c0, kh, kw, co_e, ci_e % c0)


def oihw_to_fractal_z_3d(w: np.ndarray, groups: int, c0: int) -> np.ndarray:
    """Weight (Cout, Cin/g, kD, kH, kW) → FRACTAL_Z_3D (real_g·kD·cin1_g·kH·kW, cout1_g, 16, C0).

    Each enlarged group is block-diagonal: original group ``g`` fills the diagonal block
    ``g mod mf`` of enlarged group ``⌊g/mf⌋``; everything else is zero."""
    if w.ndim != 5:
        raise ValueError(f"expected a (Cout, Cin/g, kD, kH, kW) array, got shape {w.shape}")
    cout, cin_g, kd, kh, kw = w.shape
    ge = _fz3d_enlargement(cout, cin_g, groups, c0)
    mf, rg = ge.mag_factor, ge.real_g
    cout_g = cout // groups
    # Pad the group axis to real_g·mf (the last enlarged group may be partly empty).
    wg = _pad_axes(w.reshape(groups, cout_g, cin_g, kd, kh, kw), {0: rg * mf})
    wg = wg.reshape(rg, mf, cout_g, cin_g, kd, kh, kw)
    blocks = np.zeros((rg, mf, cout_g, mf, cin_g, kd, kh, kw), dtype=w.dtype)
    slot = np.arange(mf)
    # Two separated advanced indices put the slot axis first: (mf, rg, cout_g, cin_g, ...).
    blocks[:, slot, :, slot] = wg.transpose(1, 0, 2, 3, 4, 5, 6)
    dense = blocks.reshape(rg, mf * cout_g, mf * cin_g, kd, kh, kw)
    dense = _pad_axes(dense, {1: ge.cout1_g * FRACTAL_N0, 2: ge.cin1_g * c0})
    # (G, Cout1, N0, Cin1, C0, kD, kH, kW) -> (G, kD, Cin1, kH, kW, Cout1, N0, C0)
    fz = dense.reshape(rg, ge.cout1_g, FRACTAL_N0, ge.cin1_g, c0, kd, kh, kw)
    fz = fz.transpose(0, 5, 3, 6, 7, 1, 2, 4)
    return np.ascontiguousarray(fz).reshape(fractal_z_3d_shape(cout, cin_g, kd, kh, kw, groups, c0))


def fractal_z_3d_to_oihw(
    wf: np.ndarray, cout: int, cin_g: int, kd: int, kh: int, kw: int, groups: int
) -> np.ndarray:
    """FRACTAL_Z_3D → weight (Cout, Cin/g, kD, kH, kW): picks each group's diagonal block.

    C0 is read from the last axis of ``wf``; the off-diagonal entries are ignored."""
    c0 = wf.shape[-1]
    expected = fractal_z_3d_shape(cout, cin_g, kd, kh, kw, groups, c0)
    if wf.shape != expected:
        raise ValueError(f"FRACTAL_Z_3D shape {wf.shape} does not match the weight: {expected}")
    ge = _fz3d_enlargement(cout, cin_g, groups, c0)
    mf, rg = ge.mag_factor, ge.real_g
    cout_g = cout // groups
    fz = wf.reshape(rg, kd, ge.cin1_g, kh, kw, ge.cout1_g, FRACTAL_N0, c0)
    # (G, kD, Cin1, kH, kW, Cout1, N0, C0) -> (G, Cout1, N0, Cin1, C0, kD, kH, kW)
    dense = fz.transpose(0, 5, 6, 2, 7, 1, 3, 4).reshape(
        rg, ge.cout1_g * FRACTAL_N0, ge.cin1_g * c0, kd, kh, kw
    )
    blocks = dense[:, : mf * cout_g, : mf * cin_g].reshape(rg, mf, cout_g, mf, cin_g, kd, kh, kw)
    slot = np.arange(mf)
    diag = blocks[:, slot, :, slot]  # (mf, G, cout_g, cin_g, kD, kH, kW)
    w = diag.transpose(1, 0, 2, 3, 4, 5, 6).reshape(rg * mf * cout_g, cin_g, kd, kh, kw)
    return np.ascontiguousarray(w[:cout])


# ND (the forward's bias)
# --------------------------------------------------------------------------------------------

ND_BLOCK_BYTES = 64
"""An ND tensor's rows are stored in whole 64-byte blocks, zeros past their end: the forward
walk reads the bias in whole blocks (GM -> C1 in 32-byte ``DataCopy`` blocks, C1 -> the bias
table in 64-byte ones, ``hw/instructions/load_bias.py``), and a device allocation covers
that (``aclrtMalloc`` rounds a size up to 32 bytes and adds 32). The simulator's GM tensors
and an emitted project's host buffers and data files have this layout."""


def nd_row_length(length: int, itemsize: int) -> int:
    """Elements of an ND row of ``length`` elements of ``itemsize`` bytes, in whole blocks."""
    per_block = ND_BLOCK_BYTES // itemsize
    return -(-length // per_block) * per_block


def nd_pad(x: np.ndarray) -> np.ndarray:
    """``x`` in ND: each row (the last axis) padded with zeros to whole blocks."""
    phys = np.zeros((*x.shape[:-1], nd_row_length(x.shape[-1], x.dtype.itemsize)), x.dtype)
    phys[..., : x.shape[-1]] = x
    return phys


# Per-group files: a grouped layer compiled per group (one launch each, as the runtime runs it
# and an emitted project's host launches it) keeps each group's tensor in its own layout, its
# channels padded on their own, the groups back to back. An emitted project's data.py writes
# and reads its files so.


def grouped_ncdhw_to_ndc1hwc0(x: np.ndarray, groups: int, c0: int) -> np.ndarray:
    """NCDHW ``x`` as its ``groups`` channel groups' NDC1HWC0 tensors back to back, flat."""
    cg = x.shape[1] // groups
    parts = [x[:, g * cg : (g + 1) * cg] for g in range(groups)]
    return np.concatenate([ncdhw_to_ndc1hwc0(np.ascontiguousarray(a), c0).ravel() for a in parts])


def grouped_oihw_to_fractal_z_3d(w: np.ndarray, groups: int, c0: int) -> np.ndarray:
    """A weight (Cout, Cin/g, kD, kH, kW) as its ``groups`` output-channel groups'
    FRACTAL_Z_3D tensors (each of one group) back to back, flat."""
    cg = w.shape[0] // groups
    parts = [w[g * cg : (g + 1) * cg] for g in range(groups)]
    return np.concatenate([oihw_to_fractal_z_3d(a, 1, c0).ravel() for a in parts])


def grouped_nd(bias: np.ndarray, groups: int) -> np.ndarray:
    """A bias (Cout,) as its ``groups`` groups' ND tensors back to back, each padded with zeros
    to whole blocks on its own (:func:`nd_row_length`), flat."""
    cg = bias.shape[0] // groups
    parts = [bias[g * cg : (g + 1) * cg] for g in range(groups)]
    return np.concatenate([nd_pad(p) for p in parts])


def grouped_ndc1hwc0_to_ncdhw(
    flat: np.ndarray, groups: int, shape: tuple[int, int, int, int, int], c0: int
) -> np.ndarray:
    """The NCDHW tensor of ``shape`` whose ``groups`` channel groups' NDC1HWC0 tensors lie back
    to back in ``flat`` (:func:`grouped_ncdhw_to_ndc1hwc0`'s layout); a ``ValueError`` saying
    how many elements it expected when ``flat`` has another size."""
    n, c, d, h, w = shape
    cg = c // groups
    part = ndc1hwc0_shape(n, cg, d, h, w, c0)
    expected = groups * int(np.prod(part))
    if flat.size != expected:
        raise ValueError(f"expected {expected} elements, got {flat.size}")
    parts = flat.reshape(groups, *part)
    return np.concatenate([ndc1hwc0_to_ncdhw(p, cg) for p in parts], axis=1)


# --------------------------------------------------------------------------------------------
# On-chip fractals (tile level)
# --------------------------------------------------------------------------------------------


def _check_matrix(mat: np.ndarray) -> None:
    if mat.ndim != 2:
        raise ValueError(f"expected a 2-D matrix, got shape {mat.shape}")


def to_zz(mat: np.ndarray, m_align: int = 16, k_align: int = 16) -> np.ndarray:
    """L0A Zz: (M, K) → (M1, K1, M0, K0) with M0 = ``m_align``, K0 = ``k_align`` (zero-padded)."""
    _check_matrix(mat)
    m1, k1 = ceil_div(mat.shape[0], m_align), ceil_div(mat.shape[1], k_align)
    mp = _pad_axes(mat, {0: m1 * m_align, 1: k1 * k_align})
    return np.ascontiguousarray(mp.reshape(m1, m_align, k1, k_align).transpose(0, 2, 1, 3))


def from_zz(z: np.ndarray, m: int, k: int, dtype: np.dtype | type | None = None) -> np.ndarray:
    """Inverse of :func:`to_zz`: (M1, K1, M0, K0) → the (m, k) matrix; with ``dtype``, cast in
    the same pass (the result may then be a view of a padded matrix)."""
    m1, k1, m0, k0 = z.shape
    if dtype is not None:
        return z.transpose(0, 2, 1, 3).astype(dtype, order="C").reshape(m1 * m0, k1 * k0)[:m, :k]
    return np.ascontiguousarray(z.transpose(0, 2, 1, 3).reshape(m1 * m0, k1 * k0)[:m, :k])


def to_zn(mat: np.ndarray, k_align: int = 16, n_align: int = 16) -> np.ndarray:
    """L0B Zn: (K, N) → (K1, N1, N0, K0) with K0 = ``k_align``, N0 = ``n_align``; each fractal
    is column-major (the k index runs fastest), i.e. ``[k1][n1][n0][k0]``."""
    _check_matrix(mat)
    k1, n1 = ceil_div(mat.shape[0], k_align), ceil_div(mat.shape[1], n_align)
    mp = _pad_axes(mat, {0: k1 * k_align, 1: n1 * n_align})
    return np.ascontiguousarray(mp.reshape(k1, k_align, n1, n_align).transpose(0, 2, 3, 1))


def from_zn(z: np.ndarray, k: int, n: int, dtype: np.dtype | type | None = None) -> np.ndarray:
    """Inverse of :func:`to_zn`: (K1, N1, N0, K0) → the (k, n) matrix; with ``dtype``, cast in
    the same pass (the result may then be a view of a padded matrix)."""
    k1, n1, n0, k0 = z.shape
    if dtype is not None:
        return z.transpose(0, 3, 1, 2).astype(dtype, order="C").reshape(k1 * k0, n1 * n0)[:k, :n]
    return np.ascontiguousarray(z.transpose(0, 3, 1, 2).reshape(k1 * k0, n1 * n0)[:k, :n])


def to_nz(mat: np.ndarray, m_align: int = 16, n_align: int = 16) -> np.ndarray:
    """L0C Nz: (M, N) → (N1, M1, M0, N0); fractals ordered N-major, each fractal row-major."""
    _check_matrix(mat)
    m1, n1 = ceil_div(mat.shape[0], m_align), ceil_div(mat.shape[1], n_align)
    mp = _pad_axes(mat, {0: m1 * m_align, 1: n1 * n_align})
    return np.ascontiguousarray(mp.reshape(m1, m_align, n1, n_align).transpose(2, 0, 1, 3))


def from_nz(z: np.ndarray, m: int, n: int) -> np.ndarray:
    """Inverse of :func:`to_nz`: (N1, M1, M0, N0) → the (m, n) matrix."""
    n1, m1, m0, n0 = z.shape
    return np.ascontiguousarray(z.transpose(1, 2, 0, 3).reshape(m1 * m0, n1 * n0)[:m, :n])
