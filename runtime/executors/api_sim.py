"""The API level simulated at tile granularity: one ``Conv3DBackpropFilter`` object.

The API-level kernel (output of ``convert-conv-to-ascend-api``) calls the Ascend C
``Conv3DBackpropFilter`` API op by op: ``create``, ``init``, ``set_grad_output``,
``set_input``, ``set_single_shape``, ``set_start_position``, then ``while (iterate())
get_tensor_c(...)`` and ``end``. This module is what those calls do, on the GM tensors of
``runtime/machine/values.py``: ``iterate`` builds the single shape's A (dy rows) and B (img2col of
x) in float32 once and computes one base_m x base_n tile per call, in the tiling's iterate order;
``get_tensor_c`` writes the tile with the fixpipe of the numpy backend, as the API does. Both
executors call these functions (the interpreter from its op implementations, the compiled
executor directly).

A hand-written API-level kernel can pass anything, so each call checks its operands against
the object's tiling and tensors when it is made (:class:`ApiCallError`, one line naming the
call; the executors add the op's location): a single shape of 1 to the core's share of M, N
and K, a start row inside Ho, offsets inside their tensor; the first ``iterate`` checks that
the single shape's rows and elements, from the start row and offsets, stay inside Ho and the
tensors, instead of failing in numpy's indexing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ascend_xdsl.dialects import formats
from ascend_xdsl.dialects.conv_shape import C0, ceil_div
from ascend_xdsl.dialects.dw_tiling import (
    ITERATE_ORDER_M,
    DwTiling,
)
from ascend_xdsl.dialects.dw_tiling_offsets import (
    fixpipe_dst_stride,
    grad_output_element,
    input_element,
    input_start_row,
    tensor_c_offset,
)
from ascend_xdsl.dialects.formats import INT_ARITH
from ascend_xdsl.runtime.machine import semantics as instructions
from ascend_xdsl.runtime.machine.values import GmTensor


class ApiCallError(ValueError):
    """An API call whose operands the object cannot take (the message names the call)."""


@dataclass(eq=False)
class ApiObject:
    """State of one ``Conv3DBackpropFilter`` object (API level)."""

    tiling: DwTiling | None = None
    dy: GmTensor | None = None
    dy_off: int = 0
    x: GmTensor | None = None
    x_off: int = 0
    m: int = 0
    n: int = 0
    k: int = 0
    ho_start: int = 0
    tiles: list[tuple[int, int]] = field(default_factory=list)
    next_tile: int = 0
    current: tuple[int, int] | None = None
    c_nz: np.ndarray | None = None
    a_mat: np.ndarray | None = None
    b_mat: np.ndarray | None = None

    def new_shape(self) -> None:
        """Forget the single shape's matrices and tiles (any ``set_*`` call starts a new one)."""
        self.tiles, self.next_tile, self.current, self.a_mat, self.b_mat = [], 0, None, None, None


def init(obj: ApiObject, tiling: DwTiling) -> None:
    obj.tiling = tiling


def _tiling(obj: ApiObject, call: str) -> DwTiling:
    if obj.tiling is None:
        raise ApiCallError(f"ascend.{call} before ascend.init: the object has no tiling")
    return obj.tiling


def _check_offset(call: str, what: str, tensor: GmTensor, offset: int) -> None:
    size = tensor.data.size
    if not 0 <= offset < size:
        raise ApiCallError(f"ascend.{call}: offset {offset} is outside {what} ({size} elements)")


def set_grad_output(obj: ApiObject, dy: GmTensor, offset: int) -> None:
    _check_offset("set_grad_output", "dy", dy, offset)
    obj.dy, obj.dy_off = dy, offset
    obj.new_shape()


def set_input(obj: ApiObject, x: GmTensor, offset: int) -> None:
    _check_offset("set_input", "x", x, offset)
    obj.x, obj.x_off = x, offset
    obj.new_shape()


def set_single_shape(obj: ApiObject, m: int, n: int, k: int) -> None:
    t = _tiling(obj, "set_single_shape")
    limits = (
        ("M", m, t.single_core_cout, "single_core_cout"),
        ("N", n, t.hk * t.wk * t.single_core_cin, "hk*wk*single_core_cin"),
        ("K", k, t.single_core_ho * t.wo, "single_core_ho*wo"),
    )
    for name, value, high, what in limits:
        if not 1 <= value <= high:
            raise ApiCallError(
                f"ascend.set_single_shape: {name} = {value} is outside 1 to {high} "
                f"(the tiling's {what})"
            )
    obj.m, obj.n, obj.k = m, n, k
    obj.new_shape()


def set_start_position(obj: ApiObject, ho_start: int) -> None:
    t = _tiling(obj, "set_start_position")
    if not 0 <= ho_start < t.ho:
        raise ApiCallError(
            f"ascend.set_start_position: hoStartIdx {ho_start} is outside 0 to {t.ho - 1} "
            "(the rows of Ho)"
        )
    obj.ho_start = ho_start
    obj.new_shape()


def _check_indices(call: str, what: str, tensor: GmTensor, idx: np.ndarray) -> None:
    """The elements a single shape reads lie in ``tensor`` (else the call that placed it)."""
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= tensor.data.size):
        raise ApiCallError(
            f"ascend.iterate: the single shape reads {what} elements {int(idx.min())} to "
            f"{int(idx.max())}, outside its {tensor.data.size} (check ascend.{call} and "
            "ascend.set_single_shape)"
        )


def _matrices(obj: ApiObject) -> None:
    """A (M x K, dy rows) and B (K x N, img2col of x) of the single shape, in float32.

    The offsets are the lowering's own formulas (``dialects/dw_tiling_offsets.py``:
    ``grad_output_element``, ``input_start_row``, ``input_element``, ``tensor_c_offset``),
    evaluated on numpy arrays. dy: the slice starts at ``dy_off`` (channel block of the M
    start, row ``ho_start``). x: the slice starts at row ``input_start_row`` of the channel
    block of the N start;
    position ``p`` is output row ``ho_start + p // Wo``, column ``p % Wo``; column ``q`` is
    (c1, kh, kw, c0) as in load3d."""
    t = _tiling(obj, "iterate")
    if obj.dy is None or obj.x is None:
        raise ApiCallError("ascend.iterate before ascend.set_grad_output and ascend.set_input")
    m, n, k = obj.m, obj.n, obj.k
    if m == 0:
        raise ApiCallError("ascend.iterate before ascend.set_single_shape")
    if obj.ho_start * t.wo + k > t.ho * t.wo:
        raise ApiCallError(
            f"ascend.iterate: K = {k} positions from hoStartIdx {obj.ho_start} run past the "
            f"{t.ho} x {t.wo} positions of Ho x Wo (check ascend.set_start_position and "
            "ascend.set_single_shape)"
        )
    rows = np.arange(m)
    pos = np.arange(k)
    a_idx = grad_output_element(INT_ARITH, t, obj.dy_off, rows[:, None], pos[None, :])
    _check_indices("set_grad_output", "dy", obj.dy, a_idx)
    obj.a_mat = obj.dy.data[a_idx].astype(np.float32)
    hi, wi, wo = t.hi, t.wi, t.wo
    hi_start = input_start_row(INT_ARITH, t, obj.ho_start)
    q = np.arange(n)
    c1 = q // (t.hk * t.wk * C0)
    ikh = (q // (t.wk * C0)) % t.hk
    ikw = (q // C0) % t.wk
    c0 = q % C0
    oh = obj.ho_start + pos // wo
    ow = pos % wo
    h = (oh * t.stride_h - t.pad_up)[:, None] + (ikh * t.dilation_h)[None, :]
    w = (ow * t.stride_w - t.pad_left)[:, None] + (ikw * t.dilation_w)[None, :]
    valid = (h >= 0) & (h < hi) & (w >= 0) & (w < wi)
    b_idx = input_element(INT_ARITH, t, obj.x_off, hi_start, c1[None, :], h, w, c0[None, :])
    b_idx = np.where(valid, b_idx, 0)
    _check_indices("set_input", "x", obj.x, b_idx)
    obj.b_mat = np.where(valid, obj.x.data[b_idx].astype(np.float32), np.float32(0))
    bm, bn = t.base_m, t.base_n
    mt, nt = range(ceil_div(m, bm)), range(ceil_div(n, bn))
    if t.iterate_order == ITERATE_ORDER_M:
        obj.tiles = [(i * bm, j * bn) for i in mt for j in nt]
    else:
        obj.tiles = [(i * bm, j * bn) for j in nt for i in mt]


def iterate(obj: ApiObject) -> bool:
    """``Iterate()``: compute the next base_m x base_n tile; False when there is none."""
    if obj.a_mat is None:
        _matrices(obj)
    if obj.next_tile >= len(obj.tiles):
        obj.current = None
        return False
    obj.current = obj.tiles[obj.next_tile]
    obj.next_tile += 1
    t = obj.tiling
    assert t is not None and obj.a_mat is not None and obj.b_mat is not None
    m0, n0 = obj.current
    tile = obj.a_mat[m0 : m0 + t.base_m] @ obj.b_mat[:, n0 : n0 + t.base_n]
    obj.c_nz = formats.to_nz(tile)  # (N1, M1, 16, 16), rows padded to whole fractals
    return True


def get_tensor_c(obj: ApiObject, dw: GmTensor, offset: int, atomic: bool) -> None:
    """``GetTensorC(dw[offset])``: the current tile into FRACTAL_Z_3D through the fixpipe."""
    t = obj.tiling
    if obj.current is None or obj.c_nz is None or t is None:
        raise RuntimeError("ascend.get_tensor_c without a tile from ascend.iterate")
    m0, n0 = obj.current
    m = min(t.base_m, obj.m - m0)
    n = min(t.base_n, obj.n - n0)
    m16 = obj.c_nz.shape[1] * 16
    dst = tensor_c_offset(INT_ARITH, t, offset, m0 // t.base_m, n0 // t.base_n)
    instructions.fixpipe(
        obj.c_nz.reshape(-1), dw.data, dst, m, n, m16, fixpipe_dst_stride(t), atomic
    )


def end(obj: ApiObject) -> None:
    obj.new_shape()
