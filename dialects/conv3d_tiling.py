"""The tiling of a forward Conv3D kernel: the ``TConv3DApiTiling`` fields it uses.

``Conv3DTiling`` is the plain-Python record of the forward convolution's tiling, one field per
``TConv3DApiTiling`` field used here (hicann/asc-devkit
``include/adv_api/conv/conv3d/conv3d_tilingdata.h``, in the vendor's order, in snake_case),
plus the multi-core split of the project's kernel (``batch_dim`` … ``m_dim``: how many cores
share batch, Dout, Cout and M = Ho·Wo; the API itself only sees one core's single shape). The
tiler (``passes/conv3d_tiling_heuristic.py``) produces it, ``#ascend.conv3d_tiling`` carries it
(``dialects/attributes.py``) and :meth:`Conv3DTiling.errors` states its rules.

The L1 fields (``k_al1`` … ``bias_full_load_flag``, the vendor's ``kAL1`` … ``biasFullLoadFlag``)
follow ``pbuffer_flag``; the vendor's derived products (``nL0xk0``, ``kL0xorgCoAlignN0``,
``orgHixWi`` …) and the fields its tiler sets to constants (``groupOpt``, ``cinOpt``,
``coutOpt``, ``singleCoreGroupOpt``, ``fixpParamsFullLoadFlag``, ``hf32*``, ``offsetx``) are
computed when the host code is emitted (``emit/forward.py``).
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, TypeVar

from ascend_xdsl.dialects.conv_shape import (
    FRACTAL,
    ConvBpFilterShape,
    align_up,
    ceil_div,
    group_enlargement,
)

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
    # L1: how many K columns (Cin1·kH·kW·C0, a whole number of Cin1 blocks or of kernel depths)
    # one A1 / B1 load holds and the last load's (tails), how many M positions / N channels,
    # the K0 counts and the L0 tiles per L1 tile (``SetL1TilingRes``).
    k_al1: int
    k_al1_tail: int
    k_bl1: int
    k_bl1_tail: int
    n_bl1: int
    m_al1: int
    k_bl1_div_k0: int
    k_bl1_tail_div_k0: int
    n_bl1_div_n_l0: int
    m_al1_div_m_l0: int
    cin1_in_al1: int
    cin1_in_al1_tail: int
    bl1_full_load: int
    """1 when B1 holds one core's whole weight (loaded once)."""
    al1_full_load: int
    """1 when A1 holds one core's whole input rows (loaded once per output depth)."""
    bl1_bypass_flag: int
    """1 when the weight skips L1 (GM → L0B); ``k_bl1`` and ``n_bl1`` are then 0."""
    iterate_mn_order: int
    """0: M first (the B1 tile stays while M moves); 1: N first."""
    bias_full_load_flag: int
    """1 when L1 holds one core's whole bias."""
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

    @property
    def cin1_g(self) -> int:
        """Cin1 of one enlarged group (C0-aligned packed groups, as the formats pack them): the
        Cin1 the vendor's tiler sees (``singleCi1``)."""
        cin_g, cout_g = self.org_ci // self.groups, self.org_co // self.groups
        return group_enlargement(cin_g, cout_g, self.groups, FRACTAL).cin1_g

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

    def errors(self, l1: int, l0a: int, l0b: int, l0c: int) -> list[str]:
        """Every internal rule the tiling breaks (empty if none), against the L1 and L0 sizes."""
        errs: list[str] = []
        for f in fields(self):
            v = getattr(self, f.name)
            low = 0 if f.name.startswith("pad") or f.name in _MAY_BE_ZERO else 1
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
        errs += self.l1_errors()
        if not errs and (used := self.l1_bytes()) > l1:
            errs.append(f"the L1 tiles take {used} bytes, more than its {l1}")
        for name, size, limit in (
            ("L0A", self.m_l0 * self.k_l0 * INPUT_ELEMENT_BYTES * self.buffered(0), l0a),
            ("L0B", self.k_l0 * self.n_l0 * INPUT_ELEMENT_BYTES * self.buffered(1), l0b),
            ("L0C", self.m_l0 * self.n_l0 * L0C_ELEMENT_BYTES * self.buffered(2), l0c),
        ):
            if size > limit:
                errs.append(f"the {name} tiles take {size} bytes, more than its {limit}")
        return errs

    def l1_bytes(self) -> int:
        """The L1 the A1 and B1 tiles take, as the vendor's ``CheckL1Buffer`` counts it: x's
        input rows of mAL1 positions (of one core's whole M when loaded whole) for its Cin1
        blocks, the weight's kBL1 × nBL1 (its whole share when loaded whole, none when
        bypassed), each times its buffering. The bias is not counted: the tiling does not say
        whether there is one, nor its type."""
        kh_dilated = (self.kernel_h - 1) * self.dilation_h + 1

        def rows(m: int) -> int:  # InferHiL1 of m // Wo + 2 output rows
            return min((m // self.org_wo + 1) * self.stride_h + kh_dilated, self.org_hi)

        if self.al1_full_load:
            x = self.kernel_d * self.cin1_g * rows(self.single_core_m) * self.org_wi * FRACTAL
        else:
            x = self.cin1_in_al1 * rows(self.m_al1) * self.org_wi * FRACTAL * self.buffered(3)
        cout1 = min(
            ceil_div(self.single_core_co, FRACTAL),
            group_enlargement(
                self.org_ci // self.groups, self.org_co // self.groups, self.groups, FRACTAL
            ).cout1_g,
        )
        k = self.cin1_g * self.kernel_d * self.kernel_h * self.kernel_w * FRACTAL
        if self.bl1_bypass_flag:
            w = 0
        elif self.bl1_full_load:
            w = k * cout1 * FRACTAL
        else:
            w = self.k_bl1 * self.n_bl1 * self.buffered(4)
        return (x + w) * INPUT_ELEMENT_BYTES

    def l1_errors(self) -> list[str]:
        """The rules of the L1 fields, as the vendor's ``GetL1Tiling`` builds them: kAL1/kBL1
        are whole Cin1 blocks of one kernel window (a factor of Cin1, or whole kernel depths),
        multiples of kL0; the tails and ratios are what ``SetL1TilingRes`` derives; mAL1/nBL1
        are multiples of mL0/nL0 (one core's whole M/N when loaded whole); a bypassed weight
        has no B1 tile."""
        errs: list[str] = []
        for name in _FLAGS:
            if getattr(self, name) > 1:
                errs.append(f"{name} must be 0 or 1, got {getattr(self, name)}")
        if errs:
            return errs
        window = self.kernel_h * self.kernel_w * FRACTAL
        cin1 = self.cin1_g
        k = cin1 * self.kernel_d * window  # the vendor's alignCinKhKwKd
        bypass = self.bl1_bypass_flag == 1
        sides = [("k_al1", "k_al1_tail")] + ([] if bypass else [("k_bl1", "k_bl1_tail")])
        for name, tail in sides:
            v = getattr(self, name)
            blocks, rest = divmod(v, window)
            if rest or not (cin1 % blocks == 0 if blocks < cin1 else blocks % cin1 == 0) or v > k:
                errs.append(
                    f"{name} ({v}) must be a factor of Cin1 ({cin1}) or whole kernel depths of "
                    f"Cin1 blocks of {window} columns (kernel_h·kernel_w·16), at most K ({k})"
                )
            elif v % self.k_l0:
                errs.append(f"k_l0 ({self.k_l0}) must divide {name} ({v})")
            elif getattr(self, tail) != (k % v or v):
                errs.append(
                    f"{tail} ({getattr(self, tail)}) must be K mod {name} (or {name} when it "
                    f"divides K): {k % v or v}"
                )
        if errs:
            return errs
        if bypass and (self.k_bl1 or self.n_bl1):
            errs.append(
                f"a bypassed weight (bl1_bypass_flag 1) has no B1 tile: k_bl1 and n_bl1 must be "
                f"0, got {self.k_bl1} and {self.n_bl1}"
            )
        if bypass and (self.k_bl1_tail % FRACTAL or self.k_bl1_tail > k):
            # The vendor derives the tail before it zeroes kBL1 (SetL1TilingRes).
            errs.append(
                f"k_bl1_tail ({self.k_bl1_tail}) of a bypassed weight must be a multiple of "
                f"{FRACTAL} up to K ({k})"
            )
        m_whole = align_up(self.single_core_m, FRACTAL)
        n_whole = align_up(self.single_core_co, FRACTAL)
        for name, v, l0, whole, full in (
            ("m_al1", self.m_al1, self.m_l0, m_whole, self.al1_full_load),
            ("n_bl1", self.n_bl1, self.n_l0, n_whole, self.bl1_full_load),
        ):
            if name == "n_bl1" and bypass:
                continue
            if full:
                if v != whole and (name == "m_al1" or self.groups == 1):
                    errs.append(
                        f"{name} ({v}) of a tile loaded whole must be one core's whole "
                        f"{'M' if name == 'm_al1' else 'N'} in fractals ({whole})"
                    )
            elif v % l0 or v > ceil_div(whole, l0) * l0:
                errs.append(
                    f"{name} ({v}) must be a multiple of {'m_l0' if name == 'm_al1' else 'n_l0'} "
                    f"({l0}) up to one core's {'M' if name == 'm_al1' else 'N'} ({whole})"
                )
        if self.bl1_full_load and not bypass and self.k_bl1 != k:
            errs.append(
                f"a weight loaded whole (bl1_full_load 1) needs k_bl1 = K ({k}), got {self.k_bl1}"
            )
        if errs:
            return errs
        for name, expected in (
            ("k_bl1_div_k0", self.k_bl1 // FRACTAL),
            ("k_bl1_tail_div_k0", self.k_bl1_tail // FRACTAL),
            ("n_bl1_div_n_l0", ceil_div(self.n_bl1, self.n_l0)),
            ("m_al1_div_m_l0", ceil_div(self.m_al1, self.m_l0)),
            ("cin1_in_al1", self.k_al1 // window),
            ("cin1_in_al1_tail", self.k_al1_tail // window),
        ):
            if getattr(self, name) != expected:
                errs.append(f"{name} ({getattr(self, name)}) must be {_DERIVED[name]}: {expected}")
        return errs


_FLAGS = (
    "bl1_full_load",
    "al1_full_load",
    "bl1_bypass_flag",
    "iterate_mn_order",
    "bias_full_load_flag",
)
_MAY_BE_ZERO = frozenset(
    {"pbuffer_flag", "k_bl1", "n_bl1", "k_bl1_div_k0", "n_bl1_div_n_l0", *_FLAGS}
)
"""Fields that may be 0 (the weight's B1 fields when it is bypassed, the flags)."""

_DERIVED = {
    "k_bl1_div_k0": "k_bl1 / 16",
    "k_bl1_tail_div_k0": "k_bl1_tail / 16",
    "n_bl1_div_n_l0": "ceil(n_bl1 / n_l0)",
    "m_al1_div_m_l0": "ceil(m_al1 / m_l0)",
    "cin1_in_al1": "k_al1 / (kernel_h·kernel_w·16)",
    "cin1_in_al1_tail": "k_al1_tail / (kernel_h·kernel_w·16)",
}
