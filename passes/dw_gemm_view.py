"""One dW GEMM as the vendor's API tiler sees it, and the buffer capacities it plans within.

Where it fits. The heuristic tiler (``dw_tiling_heuristic.py``) reduces a dW problem, or one
core's share of it (``core_split.py``), to a GEMM per enlarged group: M = cout (cout1_g·C0 for the
whole problem), N = kH·kW·Cin1·C0, K = Ho·Wo rounded up to C0. :class:`GemmView` is that GEMM
together with the convolution geometry the B1 bound needs (Wo, Wi, kH, kW, the H stride and
dilation), the vendor's ``shapeInfo``/``mmInfo``; :class:`BufferCapacities` is what L1, L0A, L0B
and L0C hold. The block tiler (``api_block_tiler.py``) plans one within the other; nothing here
knows about cores.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up
from ascend_xdsl.dialects.dw_tiling import element_bytes
from ascend_xdsl.hw import HwConfig


@dataclass(frozen=True)
class GemmView:
    """One dW GEMM as the API tiler sees it (the ``shapeInfo``/``mmInfo`` of the vendor).

    ``tasks`` multiplies the basic-block count (batch·dout·kD in the vendor's totalCnt).
    """

    m: int
    n: int
    k: int
    wo: int
    wi: int
    kh: int
    kw: int
    stride_h: int
    stride_w: int
    dilation_h: int
    c0: int = 16
    tasks: int = 1

    @property
    def khw(self) -> int:
        return self.kh * self.kw

    @property
    def dtype_bytes(self) -> int:
        return element_bytes(self.c0)


def gemm_view(shape: ConvBpFilterShape, *, cout: int, cin1: int, ho: int, tasks: int) -> GemmView:
    """The API tiler's view of one core's GEMM: ``cout`` elements × (kH·kW·cin1·C0) × ho·Wo."""
    c0 = shape.c0
    return GemmView(
        m=cout,
        n=shape.kh * shape.kw * cin1 * c0,
        k=align_up(ho * shape.wo, c0),
        wo=shape.wo,
        wi=shape.wi,
        kh=shape.kh,
        kw=shape.kw,
        stride_h=shape.strides[1],
        stride_w=shape.strides[2],
        dilation_h=shape.dilations[1],
        c0=c0,
        tasks=tasks,
    )


@dataclass(frozen=True)
class BufferCapacities:
    """The bytes of the on-chip buffers a tiling must fit: L1 (A1 and B1), L0A, L0B, L0C."""

    l1: int
    l0a: int
    l0b: int
    l0c: int

    @classmethod
    def of(cls, hw: HwConfig) -> BufferCapacities:
        return cls(l1=hw.l1_size, l0a=hw.l0a_size, l0b=hw.l0b_size, l0c=hw.l0c_size)
