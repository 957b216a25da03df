"""The tiling of a Conv3DBackpropInput (dX) kernel: the ``TConv3DBackpropInputTiling`` record.

``Conv3DBpInputTiling`` has one field per ``TConv3DBackpropInputTiling`` field (hicann/asc-devkit
``include/adv_api/conv_backprop/conv3d_bp_input_tilingdata.h``, in the vendor's order, in
snake_case). ``#ascend.conv3d_bp_input_tiling`` carries it (``dialects/attributes.py``) and
``ascend.conv3d_bp_input_init`` hands it to the object, the analogue of ``Init(&tiling)``.

What the record states and this module checks:

* the problem, restated: shapes, C0 blocks, the enlarged groups (the vendor's ``ShapeInitCalc``
  of ``impl/adv_api/tiling/conv_backprop/conv3d_bp_input_tiling_base.cpp``, the same packing as
  dW's, ``conv_shape.group_enlargement``), strides, pads, dilations;
* the *backprop pads*, the padding of the stride-dilated dy that turns dX into a plain
  convolution of it with the rotated weight (:func:`backprop_pads`);
* the L0 blocks (``base_m``/``base_k``/``base_n``, with M = Hi·Wi positions of dX,
  K = Cout1·kH·kW·C0 of one kD slice, N = Cin1·C0) fit L0A/L0B/L0C with their ping-pong
  buffers.

The vendor's API tiler takes ``groups = 1`` only (``Conv3DBpInputTilingBase::CheckInputAttr``);
the op level takes torch's groups, and so does this record's ``group`` (enlarged groups).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ascend_xdsl.dialects.conv3d_tiling import record_from_dict
from ascend_xdsl.dialects.conv_shape import FRACTAL, ConvBpFilterShape, ceil_div

INPUT_ELEMENT_BYTES = 2
"""dy and the weight are half or bfloat16_t (docs ``Conv3DBackpropInput使用说明.md`` table 2)."""

L0C_ELEMENT_BYTES = 4
"""The accumulator in L0C is fp32 whatever the input type."""

MAX_BACKPROP_PAD = 255
"""``PAD_DIM_UP`` of ``impl/adv_api/tiling/conv_backprop/conv3d_bp_tiling_util.h``."""


def backprop_pads(problem: ConvBpFilterShape) -> tuple[int, int, int, int, int, int]:
    """(front, back, up, down, left, right) padding of the stride-dilated dy, as the vendor's
    tiler computes it (``Conv3DBpInputTiling::CalModifyBackpropPadD``/``…HW`` and then
    ``SetBackpropPadInfo``, ``impl/adv_api/tiling/conv_backprop/conv3d_bp_input_tiling.cpp``).

    The before pads are ``(k − 1)·dil − pad_before`` (left clamped at 0). The after pads are
    first ``max(0, in − out·s + pad_before)`` and then, when it lies in [0, 255], replaced by
    the exact one, ``in − ((out − 1)·s + 1) + (k − 1)·dil − before``: the length that makes the
    padded, dilated dy exactly ``in + (k − 1)·dil`` long, so that the convolution with the
    dilated kernel gives ``in`` outputs. The vendor's pad after ignores ``pad_back``: the input
    size fixes it."""
    outs = (problem.dout, problem.ho, problem.wo)
    ins = (problem.di, problem.hi, problem.wi)
    ks = (problem.kd, problem.kh, problem.kw)
    result: list[int] = []
    for axis in range(3):
        k, dil, s = ks[axis], problem.dilations[axis], problem.strides[axis]
        pad_before = problem.pads[2 * axis]
        before = (k - 1) * dil - pad_before
        if axis == 2:
            before = max(before, 0)
        after = max(ins[axis] - outs[axis] * s + pad_before, 0)
        exact = ins[axis] - ((outs[axis] - 1) * s + 1) + (k - 1) * dil - before
        if 0 <= exact <= MAX_BACKPROP_PAD:
            after = exact
        result += [before, after]
    return tuple(result)  # type: ignore[return-value]


def backprop_pad_errors(problem: ConvBpFilterShape) -> list[str]:
    """The vendor tiler's limits on the backprop pads (``CalModifyBackpropPadHW``): the H and W
    pads before, ``(k − 1)·dil − pad``, must lie in [0, 255] (a pad larger than the dilated
    kernel reach cannot be undone by padding dy)."""
    errs: list[str] = []
    for axis, name, k, dil, pad in (
        ("H", "up", problem.kh, problem.dilations[1], problem.pads[2]),
        ("W", "left", problem.kw, problem.dilations[2], problem.pads[4]),
    ):
        before = (k - 1) * dil - pad
        if not 0 <= before <= MAX_BACKPROP_PAD:
            errs.append(
                f"backprop pad {name} (k{axis} - 1)·dilation{axis} - pad {name} = {before} must "
                f"be in [0, {MAX_BACKPROP_PAD}]"
            )
    return errs


@dataclass(frozen=True, kw_only=True)
class Conv3DBpInputTiling:
    """One dX kernel's tiling, ``TConv3DBackpropInputTiling`` field by field. Fields the
    vendor's tiler sets to constants (``SetFinalTiling``: ``base_d``, ``base_batch``,
    ``base_group``, ``step_batch``, ``step_group`` 1; ``hf32_flag``, ``reserved`` 0) default
    to them."""

    batch: int
    cin: int
    cout: int
    cout1: int
    cin1: int
    cout1_g: int
    cin1_g: int
    c0: int
    c0_bits: int
    dout: int
    ho: int
    wo: int
    di: int
    hi: int
    wi: int
    dk: int
    hk: int
    wk: int
    group: int
    stride_d: int
    stride_h: int
    stride_w: int
    pad_front: int
    pad_back: int
    pad_up: int
    pad_down: int
    pad_left: int
    pad_right: int
    backprop_pad_tail: int
    backprop_pad_up: int
    backprop_pad_down: int
    backprop_pad_left: int
    backprop_pad_right: int
    dilation_d: int
    dilation_h: int
    dilation_w: int
    al0_pbuffer: int
    bl0_pbuffer: int
    cl0_pbuffer: int
    al1_pbuffer: int
    bl1_pbuffer: int
    single_core_group: int
    single_core_cout: int
    single_core_cout1: int
    single_core_cin1: int
    single_core_din: int
    single_core_ho: int
    base_m: int
    base_k: int
    base_n: int
    base_d: int = 1
    base_batch: int = 1
    base_group: int = 1
    step_m: int
    step_n: int
    step_ka: int
    step_kb: int
    step_batch: int = 1
    step_group: int = 1
    iterate_order: int
    hf32_flag: int = 0
    init_output_flag: int
    reserved: int = 0
    single_core_batch: int
    single_core_m: int
    single_core_cin: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Conv3DBpInputTiling:
        """The inverse of :meth:`as_dict` (a tuned tiling read back from the tuning cache or a
        ``fixed:FILE``); rejects unknown or missing fields and non-integers."""
        return record_from_dict(cls, d)

    def problem_errors(self, problem: ConvBpFilterShape) -> list[str]:
        """The fields that restate ``problem`` (and its backprop pads) with another value."""
        c0 = problem.c0
        ge = problem.group_enlargement
        bp = backprop_pads(problem)
        expected = {
            "batch": problem.batch,
            "cin": problem.cin,
            "cout": problem.cout,
            "cout1": ceil_div(problem.cout, c0),
            "cin1": ceil_div(problem.cin, c0),
            "cout1_g": ge.cout1_g,
            "cin1_g": ge.cin1_g,
            "c0": c0,
            "c0_bits": c0.bit_length() - 1,
            "dout": problem.dout,
            "ho": problem.ho,
            "wo": problem.wo,
            "di": problem.di,
            "hi": problem.hi,
            "wi": problem.wi,
            "dk": problem.kd,
            "hk": problem.kh,
            "wk": problem.kw,
            "group": ge.real_g,
            "stride_d": problem.strides[0],
            "stride_h": problem.strides[1],
            "stride_w": problem.strides[2],
            "pad_front": problem.pads[0],
            "pad_back": problem.pads[1],
            "pad_up": problem.pads[2],
            "pad_down": problem.pads[3],
            "pad_left": problem.pads[4],
            "pad_right": problem.pads[5],
            "backprop_pad_tail": bp[1],
            "backprop_pad_up": bp[2],
            "backprop_pad_down": bp[3],
            "backprop_pad_left": bp[4],
            "backprop_pad_right": bp[5],
            "dilation_d": problem.dilations[0],
            "dilation_h": problem.dilations[1],
            "dilation_w": problem.dilations[2],
        }
        return [
            f"tiling {name} = {getattr(self, name)} does not match the problem's {value}"
            for name, value in expected.items()
            if getattr(self, name) != value
        ]

    def errors(self, l0a: int, l0b: int, l0c: int) -> list[str]:
        """Every internal rule the tiling breaks (empty if none), against the L0 sizes."""
        errs: list[str] = []
        zero_ok = {"hf32_flag", "init_output_flag", "reserved", "iterate_order"}
        for f in fields(self):
            v = getattr(self, f.name)
            low = 0 if f.name.startswith(("pad", "backprop_pad")) or f.name in zero_ok else 1
            if v < low:
                errs.append(f"{f.name} must be at least {low}, got {v}")
        if errs:
            return errs
        for name in ("base_m", "base_k", "base_n"):
            if getattr(self, name) % FRACTAL:
                errs.append(f"{name} ({getattr(self, name)}) must be a multiple of {FRACTAL}")
        for name in ("al0_pbuffer", "bl0_pbuffer", "cl0_pbuffer", "al1_pbuffer", "bl1_pbuffer"):
            if getattr(self, name) not in (1, 2):
                errs.append(f"{name} must be 1 or 2, got {getattr(self, name)}")
        # 1 initialises dX through L0C, 2 through L1, 0 not at all (SetInitOutput's comment).
        if self.init_output_flag > 2:
            errs.append(f"init_output_flag must be 0, 1 or 2, got {self.init_output_flag}")
        if self.iterate_order > 1:
            errs.append(f"iterate_order must be 0 or 1, got {self.iterate_order}")
        # single_core_m is not bounded by Hi·Wi: the vendor's SetSingleCoreInfo rounds one L1
        # M block to whole rows and may pass Hi·Wi (Hi = Wi = 10, baseM 112 gives 110).
        for name, single, whole in (
            ("single_core_batch", self.single_core_batch, self.batch),
            ("single_core_din", self.single_core_din, self.di),
            ("single_core_cin", self.single_core_cin, self.cin1_g * self.c0),
            ("single_core_cout", self.single_core_cout, self.cout1_g * self.c0),
        ):
            if single > whole:
                errs.append(f"{name} ({single}) exceeds the whole problem's {whole}")
        if errs:
            return errs
        for name, size, limit in (
            ("L0A", self.base_m * self.base_k * INPUT_ELEMENT_BYTES * self.al0_pbuffer, l0a),
            ("L0B", self.base_k * self.base_n * INPUT_ELEMENT_BYTES * self.bl0_pbuffer, l0b),
            ("L0C", self.base_m * self.base_n * L0C_ELEMENT_BYTES * self.cl0_pbuffer, l0c),
        ):
            if size > limit:
                errs.append(f"the {name} tiles take {size} bytes, more than its {limit}")
        return errs
