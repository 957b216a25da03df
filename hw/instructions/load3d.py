"""``load3d`` (MTE1, A1 -> A2 or B1 -> B2): img2col, Ascend C ``LoadData`` with
``LoadData3DParamsV2``.

The geometry (:class:`Load3d`: a ``[C1][l1_h][l1_w][C0]`` feature map, a window of its
columns and rows, pads, kernel, stride, dilation) and the spec (:data:`LOAD3D`). The gather
itself is ``runtime/machine/semantics.py`` (``load3d_matrix``); the exact index maps
docs/hw-level-spec.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions.base import Access, Bound, BufferOperand, DataInstruction
from ascend_xdsl.hw.isa import Effects, InstructionError, Pipe, Span, Work, check

FRACTAL_POSITIONS = 16
"""Output positions (img2col rows) of one fractal, whose row switches set Load3D's rate."""


def row_switches(wout: int) -> int:
    """Times the output positions of one 16-position fractal switch to the next output row,
    for ``wout`` positions a row: the vendor's dW tiler's reading of Table 4's ``n``
    (CycleCalculator::GetMte1BCycle: 16 / W, (16 - 1) / W when W divides 16; docs/cost-model.md
    says why W is the output width here)."""
    if wout >= FRACTAL_POSITIONS:
        return 0
    if FRACTAL_POSITIONS % wout == 0:
        return (FRACTAL_POSITIONS - 1) // wout
    return FRACTAL_POSITIONS // wout


def out_width(l1_w: int, pad_left: int, pad_right: int, kw: int, sw: int, dw: int) -> int:
    """``Wout`` of load3d: output positions per feature-map row."""
    return (l1_w + pad_left + pad_right - dw * (kw - 1) - 1) // sw + 1


_PAD_SIDES = ("top", "bottom", "left", "right")


@dataclass(frozen=True, slots=True)
class Load3d:
    """img2col of a ``[C1][l1_h][l1_w][C0]`` feature map (docs/hw-level-spec.md): reads
    ``fmap_bytes`` from the source address, writes ``out_bytes`` from the destination slot."""

    l1_h: int
    l1_w: int
    channels: int
    k_start: int
    k_ext: int
    m_start: int
    m_ext: int
    pad: tuple[int, int, int, int]
    kernel: tuple[int, int]
    stride: tuple[int, int]
    dilation: tuple[int, int]
    transpose: bool
    element_bytes: int
    wout: int
    a_side: bool = False
    """The destination is L0A: the matrix is written Zz (as A), of ``X`` (positions x columns,
    the forward's img2col) or with ``transpose`` of ``X.T`` (dW's dy); else Zn (as B)."""

    pipe = Pipe.MTE1

    @staticmethod
    @lru_cache(maxsize=4096)
    def decode(
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
        element_bytes: int,
        a_side: bool = False,
    ) -> Load3d:
        for field, values in (("kernel", kernel), ("stride", stride), ("dilation", dilation)):
            for axis, v in zip("hw", values, strict=True):
                check("load3d", field, v, f"{field} {axis}")
        for side, v in zip(_PAD_SIDES, pad, strict=True):
            check("load3d", "pad", v, f"pad {side}")
        for field, v in (
            ("m_ext", m_ext),
            ("k_ext", k_ext),
            ("channels", channels),
            ("l1_h", l1_h),
            ("l1_w", l1_w),
            ("k_start", k_start),
            ("m_start", m_start),
        ):
            check("load3d", field, v)
        kh, kw = kernel
        wout = out_width(l1_w, pad[2], pad[3], kw, stride[1], dilation[1])
        if wout < 1:
            raise InstructionError(
                f"load3d kernel w extent {dilation[1] * (kw - 1) + 1} exceeds the padded width "
                f"{l1_w + pad[2] + pad[3]} (Wout {wout})"
            )
        columns = channels * kh * kw
        if k_start + k_ext > columns:
            raise InstructionError(
                f"load3d columns [{k_start}, {k_start + k_ext}) exceed channels*kh*kw = {columns}"
            )
        return Load3d(
            l1_h,
            l1_w,
            channels,
            k_start,
            k_ext,
            m_start,
            m_ext,
            pad,
            kernel,
            stride,
            dilation,
            transpose,
            element_bytes,
            wout,
            a_side,
        )

    @property
    def fmap_elems(self) -> int:
        return self.channels * self.l1_h * self.l1_w

    @property
    def out_elems(self) -> int:
        return self.m_ext * self.k_ext

    @property
    def fmap_bytes(self) -> int:
        return self.fmap_elems * self.element_bytes

    def effects(self, src_memory: str, src: int, dst_memory: str, dst: int) -> Effects:
        eb = self.element_bytes
        out = self.out_elems * eb
        return Effects(
            self.pipe,
            (Span(src_memory, src, src + self.fmap_elems * eb),),
            (Span(dst_memory, dst, dst + out),),
            Work(
                bytes=out,
                m=self.m_ext,
                k=self.k_ext,
                rows=row_switches(self.wout),
                stride=self.stride,
                kernel=self.kernel,
            ),
            "load3d",
        )


class Load3dInstruction(DataInstruction):
    name = "load3d"
    pipe = Pipe.MTE1
    operands = (
        "src",
        "src_slot",
        "src_offset",
        "dst",
        "dst_slot",
        "l1_h",
        "l1_w",
        "channels",
        "k_start",
        "k_ext",
        "m_start",
        "m_ext",
        "pad_top",
        "pad_bottom",
        "pad_left",
        "pad_right",
    )
    properties = ("kernel_hw", "stride_hw", "dilation_hw", "is_transposed")
    reads = (Access("src", "src_slot"),)
    writes = (Access("dst", "dst_slot"),)
    roles: ClassVar[dict[str, str]] = {"src": "source", "dst": "destination"}
    timing_operands = ("k_ext", "m_ext")
    msprof_pipe = "mte1"
    colour = "#DD8452"

    def bind(
        self,
        kernel: tuple[int, int],
        stride: tuple[int, int],
        dilation: tuple[int, int],
        transpose: bool,
        src: BufferOperand,
        src_slot: int,
        src_off: int,
        dst: BufferOperand,
        dst_slot: int,
        *window: int,
    ) -> Bound:
        """``window``: l1_h, l1_w, channels, k_start, k_ext, m_start, m_ext and the pads top,
        bottom, left, right."""
        eb = src.element_bytes
        # Into L0A the gather is laid out Zz (the A side), into L0B Zn (LoadData3DParamsV2 writes
        # the fractal layout of its destination; asc-devkit LoadData_3D.md).
        a_side = dst.memory == "L0A"
        g = Load3d.decode(*window[:7], window[7:], kernel, stride, dilation, transpose, eb, a_side)
        s_addr = src.address(src_slot) + src_off * eb
        return Bound(g, (src.memory, s_addr, dst.memory, dst.address(dst_slot)))

    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        # Table 4: the rate depends on the destination, strideW and the row switches inside a
        # fractal (Work.rows); the next load issues one cycle after this one's last write.
        work = effects.work
        rate = figures.load3d_bytes_per_cycle(effects.writes[0].memory, work.stride[1], work.rows)
        return work.bytes / rate + figures.mte1_issue_gap_cycles

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        # A lone load completes LOADPERF's 50 cycles after its bytes are written.
        return float(max(0, figures.load3d_latency_cycles - figures.mte1_issue_gap_cycles))


LOAD3D = Load3dInstruction()
