"""The kernel's GM addressing under a tiling: where x, dy and dW live for a tiling's cores.

The strides of the three GM tensors in their formats, the Hi row ``SetInput`` points at, the
offsets of one dy row, one x element and one dW tile, and the fixpipe's destination stride.
Both lowerings (``lowering/convert_conv_to_api.py``, ``lowering/lower_api_to_hw/``) and the
API-level simulation (``runtime/executors/api_sim.py``) address GM through these functions, so
there is one definition: each takes the arithmetic to evaluate in (``formats.INT_ARITH`` for ints
and numpy arrays, ``lowering.index_arith.IDX_ARITH`` for the lowering's IR).
``tests/test_offsets.py`` checks that the int, numpy and IR evaluations agree.
"""

from __future__ import annotations

from ascend_xdsl.dialects.conv_shape import FRACTAL
from ascend_xdsl.dialects.dw_tiling import L0C_ELEMENT_BYTES, DwTiling
from ascend_xdsl.dialects.formats import (
    FractalZ3dStrides,
    IndexArith,
    Ndc1hwc0Strides,
    Operand,
    V,
    fractal_z_3d_strides,
    ndc1hwc0_block_offset,
    ndc1hwc0_strides,
)

GM_BLOCK_BYTES = 32
"""The unit of data_copy and fixpipe strides (one C0 block of x/dy, 8 fp32 of dW)."""


def grad_output_strides(t: DwTiling) -> Ndc1hwc0Strides:
    """NDC1HWC0 strides of dy, logical (batch, cout, dout, ho, wo)."""
    return ndc1hwc0_strides((t.batch, t.cout, t.dout, t.ho, t.wo), t.channel_size)


def input_strides(t: DwTiling) -> Ndc1hwc0Strides:
    """NDC1HWC0 strides of x, logical (batch, cin, di, hi, wi)."""
    return ndc1hwc0_strides((t.batch, t.cin, t.di, t.hi, t.wi), t.channel_size)


def weight_strides(t: DwTiling) -> FractalZ3dStrides:
    """FRACTAL_Z_3D strides of dW, per enlarged group of ``cin1_g`` × ``cout1_g`` blocks."""
    return fractal_z_3d_strides(t.dk, t.hk, t.wk, t.cin1_g, t.cout1_g, t.channel_size)


def input_start_row(ar: IndexArith[V], t: DwTiling, ho_start: Operand[V]) -> Operand[V]:
    """The Hi row ``SetInput`` points at for a K range starting at Ho row ``ho_start``: the
    first row its top output row reads, or row 0 when that lies in the top padding (the API's
    ``hiStartIdx``, clipped at the input)."""
    return ar.max(0, ar.sub(ar.mul(ho_start, t.stride_h), t.pad_up))


def grad_output_element(
    ar: IndexArith[V], t: DwTiling, dy_off: Operand[V], m: Operand[V], p: Operand[V]
) -> Operand[V]:
    """Offset of ``A[m, p]`` of a single shape whose ``SetGradOutput`` offset is ``dy_off``:
    dy row (cout) ``m`` counted from the single shape's first channel block, position ``p``
    counted from its first Ho row (positions are consecutive (h, w) pixels)."""
    s = grad_output_strides(t)
    c0 = t.channel_size
    rel = ndc1hwc0_block_offset(ar, s, 0, 0, ar.floordiv(m, c0), 0, p, ar.rem(m, c0))
    return ar.add(dy_off, rel)


def input_element(
    ar: IndexArith[V],
    t: DwTiling,
    x_off: Operand[V],
    hi_start: Operand[V],
    c1: Operand[V],
    h: Operand[V],
    w: Operand[V],
    c0: Operand[V],
) -> Operand[V]:
    """Offset of x's Cin1 row ``c1`` (counted from the single shape's first), Hi row ``h``
    (absolute; ``h >= hi_start``), column ``w``, channel ``c0`` of a single shape whose
    ``SetInput`` offset is ``x_off`` and whose first row is ``hi_start``
    (:func:`input_start_row`)."""
    s = input_strides(t)
    rel = ndc1hwc0_block_offset(ar, s, 0, 0, c1, ar.sub(h, hi_start), w, c0)
    return ar.add(x_off, rel)


def tensor_c_offset(
    ar: IndexArith[V], t: DwTiling, off_c: Operand[V], m_tile: Operand[V], n_tile: Operand[V]
) -> Operand[V]:
    """dW offset of L0C tile (``m_tile``, ``n_tile``) (in base_m × base_n tiles) of a single
    shape whose ``GetTensorC`` offset is ``off_c``: each 16 columns of N are one FRACTAL_Z_3D
    row, each row of M one cout."""
    s = weight_strides(t)
    rows = (t.base_n // FRACTAL) * s.kw
    return ar.sum(off_c, ar.mul(n_tile, rows), ar.mul(m_tile, t.base_m * s.co))


def fixpipe_dst_stride(t: DwTiling) -> int:
    """Fixpipe's ``dst_stride`` into dW: one FRACTAL_Z_3D row (the next 16 columns of N), in
    32-byte blocks of fp32."""
    return weight_strides(t).kw * L0C_ELEMENT_BYTES // GM_BLOCK_BYTES
