"""The tiling of a forward Conv3D kernel: the ``TConv3DApiTiling`` fields it uses.

``Conv3DTiling`` is the plain-Python record of the forward convolution's tiling, one field per
``TConv3DApiTiling`` field used here (hicann/asc-devkit
``include/adv_api/conv/conv3d/conv3d_tilingdata.h``, in the vendor's order, in snake_case),
plus the multi-core split of the project's kernel (``batch_dim`` … ``m_dim``: how many cores
share batch, Dout, Cout and M = Ho·Wo; the API itself only sees one core's single shape). The
tiler (``passes/conv3d_tiling_heuristic.py``) produces it, ``#ascend.conv3d_tiling`` carries it
(``dialects/attributes.py``) and :meth:`Conv3DTiling.errors` states its rules.

Left out: the L1 fields (``kAL1``, ``kBL1``, ``nBL1``, ``mAL1`` and their tails and flags),
because the vendor's L1 tiler (``Conv3dTilingAlgorithm::GetL1Tiling``) is not reproduced.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, TypeVar

from ascend_xdsl.dialects.conv_shape import FRACTAL, ConvBpFilterShape, ceil_div

L0C_ELEMENT_BYTES = 4
"""The accumulator in L0C is fp32 whatever the input type."""

INPUT_ELEMENT_BYTES = 2
"""x and the weight are half or bfloat16_t (docs ``Conv3D使用说明.md`` table 2)."""


R = TypeVar("R")


def record_from_dict(cls: type[R], d: dict[str, Any]) -> R:
    """The tiling record ``cls`` (a dataclass of integer fields) of the dict ``d``, read back
    from the tuning cache or a ``fixed:FILE``: unknown or missing fields (those without a
    default) and non-integers are a ``ValueError`` naming the record (the forward's and the
    input gradient's ``from_dict``)."""
    what = cls.__name__
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(d) - names)
    if unknown:
        raise ValueError(f"unknown {what} field(s): {', '.join(unknown)}")
    missing = [f.name for f in fields(cls) if f.default is MISSING and f.name not in d]  # type: ignore[arg-type]
    if missing:
        raise ValueError(f"missing {what} field(s): {', '.join(missing)}")
    for name, value in d.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{what} field {name} must be an integer, got {value!r}")
    return cls(**d)


@dataclass(frozen=True)
class Conv3DTiling:
    """One forward kernel's tiling. ``m_l0``/``k_l0``/``n_l0`` are the L0 tile (elements: M =
    Ho·Wo positions, K = Cin1·kD·kH·kW·C0, N = Cout); ``pbuffer_flag`` the vendor's ping-pong
    bits (bit 0 L0A, 1 L0B, 2 L0C, 3 AL1, 4 BL1; ``SetPBufferFlag``)."""

    org_do: int
    org_co: int
    org_ho: int
    org_wo: int
    org_di: int
    org_ci: int
    org_hi: int
    org_wi: int
    kernel_d: int
    kernel_h: int
    kernel_w: int
    single_core_do: int
    single_core_co: int
    single_core_m: int
    groups: int
    stride_h: int
    stride_w: int
    stride_d: int
    dilation_h: int
    dilation_w: int
    dilation_d: int
    pad_head: int
    pad_tail: int
    pad_up: int
    pad_down: int
    pad_left: int
    pad_right: int
    m_l0: int
    k_l0: int
    n_l0: int
    pbuffer_flag: int
    batch: int = 1
    batch_dim: int = 1
    do_dim: int = 1
    co_dim: int = 1
    m_dim: int = 1

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Conv3DTiling:
        """The inverse of :meth:`as_dict` (a tuned tiling read back from the tuning cache or a
        ``fixed:FILE``); rejects unknown or missing fields and non-integers."""
        return record_from_dict(cls, d)

    def buffered(self, bit: int) -> int:
        """1 or 2: the slots of the buffer of ``pbuffer_flag`` bit ``bit``."""
        return 2 if self.pbuffer_flag >> bit & 1 else 1

    @property
    def k_total(self) -> int:
        """K of one group's GEMM: Cin1·kD·kH·kW·C0 (elements)."""
        cin1 = ceil_div(self.org_ci // self.groups, FRACTAL)
        return cin1 * self.kernel_d * self.kernel_h * self.kernel_w * FRACTAL

    def problem_errors(self, problem: ConvBpFilterShape) -> list[str]:
        """The fields that restate ``problem`` with another value."""
        expected = {
            "org_do": problem.dout,
            "org_co": problem.cout,
            "org_ho": problem.ho,
            "org_wo": problem.wo,
            "org_di": problem.di,
            "org_ci": problem.cin,
            "org_hi": problem.hi,
            "org_wi": problem.wi,
            "kernel_d": problem.kd,
            "kernel_h": problem.kh,
            "kernel_w": problem.kw,
            "groups": problem.groups,
            "stride_d": problem.strides[0],
            "stride_h": problem.strides[1],
            "stride_w": problem.strides[2],
            "dilation_d": problem.dilations[0],
            "dilation_h": problem.dilations[1],
            "dilation_w": problem.dilations[2],
            "pad_head": problem.pads[0],
            "pad_tail": problem.pads[1],
            "pad_up": problem.pads[2],
            "pad_down": problem.pads[3],
            "pad_left": problem.pads[4],
            "pad_right": problem.pads[5],
            "batch": problem.batch,
        }
        return [
            f"tiling {name} = {getattr(self, name)} does not match the problem's {value}"
            for name, value in expected.items()
            if getattr(self, name) != value
        ]

    def errors(self, l0a: int, l0b: int, l0c: int) -> list[str]:
        """Every internal rule the tiling breaks (empty if none), against the L0 sizes."""
        errs: list[str] = []
        for f in fields(self):
            v = getattr(self, f.name)
            low = 0 if f.name.startswith("pad") or f.name == "pbuffer_flag" else 1
            if v < low:
                errs.append(f"{f.name} must be at least {low}, got {v}")
        if errs:
            return errs
        for name in ("m_l0", "k_l0", "n_l0"):
            if getattr(self, name) % FRACTAL:
                errs.append(f"{name} ({getattr(self, name)}) must be a multiple of {FRACTAL}")
        if self.pbuffer_flag >= 32:
            errs.append(f"pbuffer_flag has 5 bits, got {self.pbuffer_flag}")
        for name, single, org in (
            ("single_core_do", self.single_core_do, self.org_do),
            ("single_core_co", self.single_core_co, self.org_co),
            ("single_core_m", self.single_core_m, self.org_ho * self.org_wo),
        ):
            if single > org:
                errs.append(f"{name} ({single}) exceeds the whole problem's {org}")
        for name, dim, share, whole in (
            ("batch_dim", self.batch_dim, 1, self.batch),
            ("do_dim", self.do_dim, self.single_core_do, self.org_do),
            ("co_dim", self.co_dim, self.single_core_co, self.org_co),
            ("m_dim", self.m_dim, self.single_core_m, self.org_ho * self.org_wo),
        ):
            if name == "batch_dim":
                if dim > whole:
                    errs.append(f"batch_dim ({dim}) exceeds the batch ({whole})")
            elif dim * share < whole:
                errs.append(f"{name} ({dim}) cores of {share} do not cover {whole}")
        for name, size, limit in (
            ("L0A", self.m_l0 * self.k_l0 * INPUT_ELEMENT_BYTES * self.buffered(0), l0a),
            ("L0B", self.k_l0 * self.n_l0 * INPUT_ELEMENT_BYTES * self.buffered(1), l0b),
            ("L0C", self.m_l0 * self.n_l0 * L0C_ELEMENT_BYTES * self.buffered(2), l0c),
        ):
            if size > limit:
                errs.append(f"the {name} tiles take {size} bytes, more than its {limit}")
        return errs
