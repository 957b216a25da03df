"""The shape of one Conv3DBackpropFilter problem, and the rules it must obey.

A dW problem is fully described by the input x (N, Cin, Di, Hi, Wi), the weight
(Cout, Cin/groups, kD, kH, kW), strides, pads (front, back, up, down, left, right), dilations and
groups. The gradient dy then has the shape (N, Cout, Do, Ho, Wo) given by the usual convolution
arithmetic. This module is the single place where that arithmetic and the vendor limits live
(the Load3D limits of hicann/asc-devkit ``impl/adv_api/tiling/conv_backprop/
conv3d_bp_filter_tiling_base.cpp`` and ``conv3d_bp_tiling_util.h``; the operator constraints of
hicann/ops-nn ``conv/conv3d_backprop_filter_v2/README.md`` and
``op_host/conv3d_backprop_filter_v2_def.cpp``): the op verifier, the front-door builder, the
tiler and the runtime reference all use it. It is plain Python, with no IR in it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ascend_xdsl.hw import isa
from ascend_xdsl.hw.intmath import align_up as align_up  # re-exported for the layers above
from ascend_xdsl.hw.intmath import ceil_div as ceil_div

# Vendor limits: strides H/W ≤ 63, pads and dilations H/W ≤ 255 and kernel H/W ≤ 511 are Load3D's
# (asc-devkit conv3d_bp_tiling_util.h); stride D ≤ 255, the D pads and dilation ≤ 255 and
# groups ≤ 65535 are the operator's (ops-nn conv/conv3d_backprop_filter_v2/README.md).
# The Load3D ones are read from the instruction model's table (hw/isa.toml), the only copy.
MAX_STRIDE_HW: int = isa.limit("load3d", "stride").hi  # type: ignore[assignment]
MAX_STRIDE_D = 255
MAX_PAD: int = isa.limit("load3d", "pad").hi  # type: ignore[assignment]
MAX_DILATION: int = isa.limit("load3d", "dilation").hi  # type: ignore[assignment]
MAX_KERNEL_HW: int = isa.limit("load3d", "kernel").hi  # type: ignore[assignment]
MAX_GROUPS = 65535
MAX_TENSOR_BYTES = 2**63 - 1
"""The largest tensor a 64-bit (signed, as the IR's i64 offsets are) address space holds."""

FRACTAL = 16
"""Side of the Cube's 16×16 fractal: the granule of M (Cout) and N tiles and of every on-chip
layout (Zz, Zn, Nz, FRACTAL_Z_3D)."""

C0 = 16
"""Channels per 32-byte C0 block of a 2-byte element type (f16, bf16: the types supported)."""

DTYPES = ("f16", "bf16")
"""Element types of x and dy accepted by the Ascend C API (hicann/asc-devkit docs,
``Conv3DBackpropFilter使用说明.md`` tables 1 and 2: half or bfloat16_t)."""


def c0_for(dtype: str) -> int:
    """Channels per 32-byte C0 block: 16 for the 2-byte types."""
    return 16 if dtype in ("f16", "bf16") else 8


# ceil_div and align_up are defined once, for every layer, in hw/intmath.py.


def out_size(size: int, pad_lo: int, pad_hi: int, kernel: int, stride: int, dilation: int) -> int:
    """Output extent of one convolution axis: ⌊(in + pads − dil·(k−1) − 1)/s⌋ + 1."""
    return (size + pad_lo + pad_hi - dilation * (kernel - 1) - 1) // stride + 1


@dataclass(frozen=True)
class GroupEnlargement:
    """``mag_factor`` original groups share one enlarged group of ``cin1_g``×``cout1_g`` C0 blocks;
    there are ``real_g`` enlarged groups. Each enlarged group's dW block is block-diagonal."""

    mag_factor: int
    real_g: int
    cin1_g: int
    cout1_g: int


def group_enlargement(cin_g: int, cout_g: int, groups: int, c0: int) -> GroupEnlargement:
    """How ``groups`` groups of ``cin_g``→``cout_g`` channels are packed into C0-aligned
    "enlarged" groups, the vendor's ``magFactor`` (hicann/asc-devkit
    ``Conv3dBpFilterTilingBase::ShapeInitCalc``; hicann/ops-nn
    ``conv_backprop_filter_context_utils.cpp``). Shared by the shape record, the formats and
    the tiler."""
    mf0 = math.lcm(cin_g, c0) // cin_g
    mf1 = math.lcm(cout_g, 16) // cout_g
    mag = min(math.lcm(mf0, mf1), groups)
    return GroupEnlargement(
        mag_factor=mag,
        real_g=ceil_div(groups, mag),
        cin1_g=ceil_div(mag * cin_g, c0),
        cout1_g=ceil_div(mag * cout_g, c0),
    )


@dataclass(frozen=True)
class ConvBpFilterShape:
    """One dW problem. All sizes in elements; ``pads`` is (front, back, up, down, left, right)."""

    batch: int
    cin: int
    di: int
    hi: int
    wi: int
    cout: int
    kd: int
    kh: int
    kw: int
    strides: tuple[int, int, int] = (1, 1, 1)
    pads: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)
    dilations: tuple[int, int, int] = (1, 1, 1)
    groups: int = 1
    dtype: str = "f16"

    @classmethod
    def from_shapes(
        cls,
        input_shape: Sequence[int],
        weight_shape: Sequence[int],
        strides: Sequence[int] = (1, 1, 1),
        pads: Sequence[int] = (0, 0, 0, 0, 0, 0),
        dilations: Sequence[int] = (1, 1, 1),
        groups: int = 1,
        dtype: str = "f16",
    ) -> ConvBpFilterShape:
        """The problem of x (N, Cin, Di, Hi, Wi) and a weight (Cout, Cin/g, kD, kH, kW)."""
        n, cin, di, hi, wi = input_shape
        cout, _, kd, kh, kw = weight_shape
        return cls(
            batch=n,
            cin=cin,
            di=di,
            hi=hi,
            wi=wi,
            cout=cout,
            kd=kd,
            kh=kh,
            kw=kw,
            strides=tuple(strides),  # type: ignore[arg-type]
            pads=tuple(pads),  # type: ignore[arg-type]
            dilations=tuple(dilations),  # type: ignore[arg-type]
            groups=groups,
            dtype=dtype,
        )

    @property
    def input_shape(self) -> tuple[int, int, int, int, int]:
        return (self.batch, self.cin, self.di, self.hi, self.wi)

    @property
    def weight_shape(self) -> tuple[int, int, int, int, int]:
        return (self.cout, self.cin // self.groups, self.kd, self.kh, self.kw)

    @property
    def dout(self) -> int:
        return out_size(
            self.di, self.pads[0], self.pads[1], self.kd, self.strides[0], self.dilations[0]
        )

    @property
    def ho(self) -> int:
        return out_size(
            self.hi, self.pads[2], self.pads[3], self.kh, self.strides[1], self.dilations[1]
        )

    @property
    def wo(self) -> int:
        return out_size(
            self.wi, self.pads[4], self.pads[5], self.kw, self.strides[2], self.dilations[2]
        )

    @property
    def grad_output_shape(self) -> tuple[int, int, int, int, int]:
        return (self.batch, self.cout, self.dout, self.ho, self.wo)

    def as_json(self) -> dict[str, object]:
        """The problem as reports show it: torch's names, shapes as lists."""
        return {
            "input": list(self.input_shape),
            "weight": list(self.weight_shape),
            "stride": list(self.strides),
            "padding": list(self.pads),
            "dilation": list(self.dilations),
            "groups": self.groups,
            "dtype": self.dtype,
        }

    @property
    def c0(self) -> int:
        return c0_for(self.dtype)

    @property
    def macs(self) -> int:
        """Multiply-adds of the dW formula: every weight element sums over every output
        position of its group (N·Do·Ho·Wo products each)."""
        return math.prod(self.weight_shape) * self.batch * self.dout * self.ho * self.wo

    @property
    def group_enlargement(self) -> GroupEnlargement:
        """How groups are packed into C0-aligned "enlarged" groups (:func:`group_enlargement`)."""
        return group_enlargement(
            self.cin // self.groups, self.cout // self.groups, self.groups, self.c0
        )

    def errors(self) -> list[str]:
        """Every rule this problem breaks, as precise one-line messages (empty if legal)."""
        errs: list[str] = []
        dims = {
            "N": self.batch,
            "Cin": self.cin,
            "Di": self.di,
            "Hi": self.hi,
            "Wi": self.wi,
            "Cout": self.cout,
            "kD": self.kd,
            "kH": self.kh,
            "kW": self.kw,
        }
        for name, value in dims.items():
            if value <= 0:
                errs.append(f"{name} must be positive, got {value}")
        if self.dtype not in DTYPES:
            errs.append(f"element type must be f16 or bf16, got {self.dtype}")
        if self.groups < 1 or self.groups > MAX_GROUPS:
            errs.append(f"groups must be in [1, {MAX_GROUPS}], got {self.groups}")
        elif self.cin % self.groups or self.cout % self.groups:
            errs.append(
                f"Cin ({self.cin}) and Cout ({self.cout}) must be divisible by groups "
                f"({self.groups})"
            )
        limits = (MAX_STRIDE_D, MAX_STRIDE_HW, MAX_STRIDE_HW)
        for axis, s, limit in zip("DHW", self.strides, limits, strict=True):
            if not 1 <= s <= limit:
                errs.append(f"stride {axis} must be in [1, {limit}], got {s}")
        for name, p in zip(
            ("front", "back", "up", "down", "left", "right"), self.pads, strict=True
        ):
            if not 0 <= p <= MAX_PAD:
                errs.append(f"pad {name} must be in [0, {MAX_PAD}], got {p}")
        for axis, d in zip("DHW", self.dilations, strict=True):
            if not 1 <= d <= MAX_DILATION:
                errs.append(f"dilation {axis} must be in [1, {MAX_DILATION}], got {d}")
        for axis, k in (("H", self.kh), ("W", self.kw)):
            if k > MAX_KERNEL_HW:
                errs.append(f"kernel {axis} must be at most {MAX_KERNEL_HW}, got {k}")
        if not errs:
            for axis, o in zip("DHW", (self.dout, self.ho, self.wo), strict=True):
                if o <= 0:
                    errs.append(
                        f"output {axis} is {o}: the dilated kernel does not fit the padded input"
                    )
        if not errs:
            # Every byte of a tensor must have a 64-bit address (and every dimension must fit
            # the i64 the IR spells it in); checked before anything is allocated or printed.
            for name, shape, size in (
                ("x", self.input_shape, 2),
                ("dy", self.grad_output_shape, 2),
                ("dW", self.weight_shape, 4),
            ):
                nbytes = math.prod(shape) * size
                if nbytes > MAX_TENSOR_BYTES:
                    dims = "x".join(map(str, shape))
                    errs.append(
                        f"tensor {name} ({dims}) takes {nbytes:.3g} bytes, beyond 64-bit "
                        f"addressing ({MAX_TENSOR_BYTES:.3g})"
                    )
        return errs
