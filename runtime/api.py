"""Python front end of the simulator: ``conv3d_weight`` with ``torch.nn.grad.conv3d_weight``
semantics, computed by compiling the dW kernel to the hardware level and interpreting it.

``lowering/build.py`` / ``lowering/pipeline.py`` (another branch) are used when present;
otherwise this module writes the format-level module itself and runs the passes
(``ascend-tile-conv3d-bp-filter``, ``convert-conv-to-ascend-api``, ``lower-ascend-api-to-hw``,
``ascend-plan-buffers`` and ``ascend-insert-sync`` when that pass exists) with xDSL's
``PassPipeline``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass, PassPipeline

from ascend_xdsl.dialects.ascend import Ascend
from ascend_xdsl.dialects.conv_shape import out_size
from ascend_xdsl.runtime.interpreter import make_interpreter

Triple = tuple[int, int, int]
Pads6 = tuple[int, int, int, int, int, int]
IntOr3 = int | Sequence[int]

LEVELS = ("format", "tiled", "api", "hw")


def make_context() -> Context:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, memref.MemRef, Ascend):
        ctx.load_dialect(dialect)
    return ctx


def _triple(value: IntOr3, what: str) -> Triple:
    if isinstance(value, int):
        return (value, value, value)
    t = tuple(int(v) for v in value)
    if len(t) != 3:
        raise ValueError(f"{what} must be an int or 3 values, got {value!r}")
    return (t[0], t[1], t[2])


def _pads6(padding: IntOr3) -> Pads6:
    if isinstance(padding, int):
        return (padding,) * 6  # type: ignore[return-value]
    t = tuple(int(v) for v in padding)
    if len(t) == 3:
        return (t[0], t[0], t[1], t[1], t[2], t[2])
    if len(t) == 6:
        return t  # type: ignore[return-value]
    raise ValueError(f"padding must be an int, 3 values or 6 values, got {padding!r}")


_ELEM = {
    np.dtype(np.float16): "f16",
    np.dtype(ml_dtypes.bfloat16): "bf16",
}


@dataclass(frozen=True)
class Problem:
    x_shape: tuple[int, ...]
    dy_shape: tuple[int, ...]
    weight_shape: tuple[int, int, int, int, int]
    stride: Triple
    pads: Pads6
    dilation: Triple
    groups: int
    elem: str


def format_level_source(p: Problem) -> str:
    """The format-level module of one dW problem (what ascend-legalize-formats would produce)."""

    def mr(shape: Sequence[int], et: str) -> str:
        return f"memref<{'x'.join(map(str, shape))}x{et}>"

    def gm(fmt: str, shape: Sequence[int], et: str) -> str:
        return f"!ascend.gm_tensor<{fmt}, {'x'.join(map(str, shape))}x{et}>"

    e = p.elem
    xt, dyt, wt = mr(p.x_shape, e), mr(p.dy_shape, e), mr(p.weight_shape, "f32")
    x5 = gm("NDC1HWC0", p.x_shape, e)
    dy5 = gm("NDC1HWC0", p.dy_shape, e)
    wf = gm("FRACTAL_Z_3D", p.weight_shape, "f32")
    if p.groups != 1:
        wf = wf[:-1] + f", groups = {p.groups}>"
    return (
        f"func.func @conv3d_bp_filter(%x: {xt}, %dy: {dyt}) -> {wt} {{\n"
        f"  %x5 = ascend.trans_data %x : {xt} -> {x5}\n"
        f"  %dy5 = ascend.trans_data %dy : {dyt} -> {dy5}\n"
        f"  %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides {list(p.stride)} "
        f"pads {list(p.pads)} dilations {list(p.dilation)} groups {p.groups} : "
        f"{x5}, {dy5} -> {wf}\n"
        f"  %dw = ascend.trans_data %dwf : {wf} -> {wt}\n"
        f"  func.return %dw : {wt}\n"
        f"}}\n"
    )


def _passes(hw: str, tiling: str, cores: int | None, override: str) -> list[list[ModulePass]]:
    from ascend_xdsl.lowering.convert_conv_to_api import ConvertConvToAscendApiPass
    from ascend_xdsl.lowering.lower_api_to_hw import LowerAscendApiToHwPass
    from ascend_xdsl.passes.plan_buffers import PlanBuffersPass
    from ascend_xdsl.passes.tile_conv3d_bp_filter import TileConv3DBpFilterPass

    hw_passes: list[ModulePass] = [LowerAscendApiToHwPass()]
    try:
        sync = importlib.import_module("ascend_xdsl.passes.insert_sync")
        hw_passes.append(sync.InsertSyncPass())
    except ImportError:
        pass
    hw_passes.append(PlanBuffersPass())
    return [
        [TileConv3DBpFilterPass(strategy=tiling, hw=hw, cores=cores or 0, override=override)],
        [ConvertConvToAscendApiPass()],
        hw_passes,
    ]


def compile_levels(
    source: str,
    *,
    hw: str = "atlas-a2-910b2",
    tiling: str = "heuristic",
    cores: int | None = None,
    override: str = "",
) -> dict[str, ModuleOp]:
    """Parse a format-level module and lower it; the module after each stage, by level name."""
    ctx = make_context()
    module = Parser(ctx, source).parse_module()
    levels: dict[str, ModuleOp] = {"format": module.clone()}
    for name, stage in zip(LEVELS[1:], _passes(hw, tiling, cores, override), strict=True):
        PassPipeline(tuple(stage)).apply(ctx, module)
        module.verify()
        levels[name] = module.clone()
    return levels


@dataclass
class Conv3dWeightResult:
    grad_weight: np.ndarray
    modules: dict[str, ModuleOp] = field(default_factory=dict)


_CACHE: dict[tuple[object, ...], dict[str, ModuleOp]] = {}


def _problem(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3,
    padding: IntOr3,
    dilation: IntOr3,
    groups: int,
) -> Problem:
    x = np.asarray(input)
    dy = np.asarray(grad_output)
    if x.dtype not in _ELEM or dy.dtype != x.dtype:
        raise TypeError(
            f"input and grad_output must both be float16 or bfloat16, got {x.dtype}, {dy.dtype}"
        )
    ws = tuple(int(v) for v in weight_size)
    if len(ws) != 5 or x.ndim != 5 or dy.ndim != 5:
        raise ValueError("input/grad_output must be NCDHW and weight_size 5 values")
    s, d, pads = _triple(stride, "stride"), _triple(dilation, "dilation"), _pads6(padding)
    expect = tuple(
        out_size(x.shape[2 + a], pads[2 * a], pads[2 * a + 1], ws[2 + a], s[a], d[a])
        for a in range(3)
    )
    if dy.shape[2:] != expect or dy.shape[:2] != (x.shape[0], ws[0]):
        raise ValueError(f"grad_output shape {dy.shape} does not fit the convolution ({expect})")
    return Problem(
        tuple(x.shape),
        tuple(dy.shape),
        ws,
        s,
        pads,
        d,
        groups,
        _ELEM[x.dtype],  # type: ignore[arg-type]
    )


def run_conv3d_weight(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
    *,
    hw: str = "atlas-a2-910b2",
    tiling: str = "heuristic",
    cores: int | None = None,
    override: str = "",
    level: str = "hw",
) -> Conv3dWeightResult:
    """Compile (cached by problem) and run the dW kernel at ``level`` (default: hardware)."""
    p = _problem(input, weight_size, grad_output, stride, padding, dilation, groups)
    key = (p, hw, tiling, cores, override)
    levels = _CACHE.get(key)
    if levels is None:
        levels = compile_levels(
            format_level_source(p), hw=hw, tiling=tiling, cores=cores, override=override
        )
        _CACHE[key] = levels
    interpreter = make_interpreter(levels[level], hw)
    (dw,) = interpreter.call_op("conv3d_bp_filter", (np.asarray(input), np.asarray(grad_output)))
    return Conv3dWeightResult(np.asarray(dw, dtype=np.float32), levels)


def conv3d_weight(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
    *,
    hw: str = "atlas-a2-910b2",
    tiling: str = "heuristic",
    cores: int | None = None,
) -> np.ndarray:
    """dW (float32, (Cout, Cin/g, kD, kH, kW)) like ``torch.nn.grad.conv3d_weight``."""
    return run_conv3d_weight(
        input,
        weight_size,
        grad_output,
        stride,
        padding,
        dilation,
        groups,
        hw=hw,
        tiling=tiling,
        cores=cores,
    ).grad_weight
