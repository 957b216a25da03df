"""The forward convolution ``ascend.conv3d``: the runtime's reference (``conv3d_reference``)
and the op- and format-level runs of the interpreter, against an independent float64 loop
nest written here (out-of-range positions skipped, not padded), on small shapes."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.ir.locations import parse_file
from ascend_xdsl.lowering.legalize_formats import LegalizeFormatsPass
from ascend_xdsl.lowering.pipeline import make_context
from ascend_xdsl.runtime.executors.interpreter import build_interpreter
from ascend_xdsl.runtime.reference import conv3d_reference

Case = tuple[
    tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, bool
]


def loop_conv3d(
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None,
    stride: tuple[int, ...],
    pads6: tuple[int, ...],
    dilation: tuple[int, ...],
    groups: int,
) -> np.ndarray:
    """y[n, co, o] = b[co] + Σ w[co, ci, k] · x[n, g·Cin/g + ci, o·s − p + k·d], in float64."""
    n, _, di, hi, wi = x.shape
    cout, cin_g, kd, kh, kw = w.shape
    outs = [
        (size + pads6[2 * a] + pads6[2 * a + 1] - dilation[a] * (k - 1) - 1) // stride[a] + 1
        for a, (size, k) in enumerate(zip((di, hi, wi), (kd, kh, kw), strict=True))
    ]
    xf, wf = x.astype(np.float64), w.astype(np.float64)
    y = np.zeros((n, cout, *outs), np.float64)
    cout_g = cout // groups
    for nb, co, od, oh, ow in itertools.product(range(n), range(cout), *map(range, outs)):
        g = co // cout_g
        acc = 0.0 if b is None else float(b[co])
        for ci, a, bb, c in itertools.product(range(cin_g), range(kd), range(kh), range(kw)):
            zd = od * stride[0] - pads6[0] + a * dilation[0]
            zh = oh * stride[1] - pads6[2] + bb * dilation[1]
            zw = ow * stride[2] - pads6[4] + c * dilation[2]
            if 0 <= zd < di and 0 <= zh < hi and 0 <= zw < wi:
                acc += wf[co, ci, a, bb, c] * xf[nb, g * cin_g + ci, zd, zh, zw]
        y[nb, co, od, oh, ow] = acc
    return y


CASES: list[Case] = [
    # x shape, weight shape, stride, pads6, dilation, groups, bias
    ((1, 4, 3, 5, 4), (6, 4, 2, 3, 2), (1, 1, 1), (1, 1, 1, 1, 0, 0), (1, 1, 1), 1, True),
    ((2, 4, 5, 6, 5), (4, 2, 3, 2, 2), (2, 1, 2), (0, 1, 1, 0, 1, 1), (1, 2, 1), 2, False),
    ((1, 3, 4, 4, 4), (3, 1, 1, 3, 3), (1, 2, 1), (0, 0, 2, 1, 1, 1), (1, 1, 2), 3, True),
]


def _inputs(
    case: Case, dtype: type, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    xs, ws, *_, bias = case
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(xs).astype(dtype)
    w = rng.standard_normal(ws).astype(dtype)
    b = rng.standard_normal(ws[0]).astype(np.float32 if dtype != np.float16 else dtype)
    return x, w, b if bias else None


@pytest.mark.parametrize("case", CASES)
def test_reference_matches_loops(case: Case) -> None:
    x, w, b = _inputs(case, np.float16)
    _, _, stride, pads6, dilation, groups, _ = case
    want = loop_conv3d(x, w, b, stride, pads6, dilation, groups)
    got = conv3d_reference(x, w, b, stride, pads6, dilation, groups, accumulate=np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def _module(case: Case, et: str) -> str:
    xs, ws, stride, pads6, dilation, groups, bias = case
    y = loop_conv3d(np.zeros(xs), np.zeros(ws), None, stride, pads6, dilation, groups).shape
    shape = lambda s: "x".join(map(str, s))  # noqa: E731
    bt = "f16" if et == "f16" else "f32"
    args = f"%x: memref<{shape(xs)}x{et}>, %w: memref<{shape(ws)}x{et}>"
    types = f"memref<{shape(xs)}x{et}>, memref<{shape(ws)}x{et}>"
    operands = "%x, %w"
    if bias:
        args += f", %b: memref<{ws[0]}x{bt}>"
        types += f", memref<{ws[0]}x{bt}>"
        operands += " bias %b"
    yt = f"memref<{shape(y)}x{et}>"
    attrs = (
        f"strides [{', '.join(map(str, stride))}] pads [{', '.join(map(str, pads6))}] "
        f"dilations [{', '.join(map(str, dilation))}] groups {groups}"
    )
    return (
        f"func.func @fwd({args}) -> {yt} {{\n"
        f"  %y = ascend.conv3d {operands} {attrs} : {types} -> {yt}\n"
        f"  func.return %y : {yt}\n}}\n"
    )


@pytest.mark.parametrize("legalize", [False, True], ids=["op-level", "format-level"])
@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("case", CASES)
def test_interpreter_runs_conv3d(case: Case, dtype: type, legalize: bool) -> None:
    et = "f16" if dtype == np.float16 else "bf16"
    ctx = make_context()
    module = parse_file(ctx, _module(case, et), "fwd.mlir")
    if legalize:
        LegalizeFormatsPass().apply(ctx, module)
    module.verify()
    x, w, b = _inputs(case, dtype)
    interpreter, _ = build_interpreter(module, progress=False)
    args = (x, w) if b is None else (x, w, b)
    (y,) = interpreter.call_op("fwd", args)
    assert y.dtype == dtype
    _, _, stride, pads6, dilation, groups, _ = case
    want = loop_conv3d(x, w, b, stride, pads6, dilation, groups)
    # f32 sums of at most 48 products rounded once to the 16-bit output: within 2 ulps of it.
    eps = 2.0**-10 if dtype == np.float16 else 2.0**-7
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2 * eps, atol=1e-2 * eps)


def test_front_door_builds_and_lowers_to_the_api_level() -> None:
    """build_conv3d (torch's argument conventions) gives a verified op-level module that
    legalizes, tiles and converts into one launch of a Conv3D-API kernel; bad arguments give
    the dW builder's one-line errors."""
    from xdsl.passes import PassPipeline

    from ascend_xdsl.dialects.api_conv3d import Conv3DIterateAllOp
    from ascend_xdsl.dialects.launch import LaunchOp
    from ascend_xdsl.lowering.build import ConvProblemError, build_conv3d
    from ascend_xdsl.lowering.convert_conv_to_api import ConvertConvToAscendApiPass
    from ascend_xdsl.passes.tile_conv3d import TileConv3DPass

    module = build_conv3d((2, 16, 4, 6, 6), (32, 8, 3, 3, 3), True, 1, (1, 1, 0), 1, 2, "bf16")
    (conv,) = [op for op in module.walk() if op.name == "ascend.conv3d"]
    assert [str(o.type) for o in conv.operands][2] == "memref<32xf32>"  # f32 bias with bf16
    assert str(conv.results[0].type) == "memref<2x32x4x6x4xbf16>"
    PassPipeline(
        (LegalizeFormatsPass(), TileConv3DPass(cores=2), ConvertConvToAscendApiPass())
    ).apply(make_context(), module)
    module.verify()
    (launch,) = [op for op in module.walk() if isinstance(op, LaunchOp)]
    assert launch.blocks.value.data == 2  # the two batches on two cores
    assert len([op for op in module.walk() if isinstance(op, Conv3DIterateAllOp)]) == 1
    with pytest.raises(ConvProblemError, match="groups = 2 needs 8"):
        build_conv3d((1, 16, 4, 6, 6), (32, 4, 3, 3, 3), groups=2)
