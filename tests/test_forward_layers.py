"""The forward conv against torch in float64 on the benchmark suite's 27 layers, shrunk.

Each layer of ``benchmarks/layers.json`` keeps its kernel, stride, dilation, padding (one, three
or six values, so asymmetric padding stays) and groups kind, and is shrunk so that the whole
test takes seconds instead of hours:

* batch 1;
* channels: Cin/g and Cout/g at most 24 (odd counts such as 3 and 54 -> 24 keep a channel tail
  of the 16-wide block), and a depthwise layer (groups = C) keeps 3 groups of one channel;
  other groups keep theirs;
* each spatial axis cropped to the input that gives at most 3 output positions (fewer if the
  layer had fewer), from ``(n - 1)·stride + (k - 1)·dilation + 1 - padding``, never below one
  element or above the layer's own size.

Two runs per layer on the simulator (``runtime.forward.run_conv3d`` on 4 cores, the
hardware-level program):
integer-valued float16 inputs in {-1, 0, 1}, whose y must equal torch's float64 result exactly
(every partial sum is an integer far below 2^11), and standard-normal bfloat16 inputs, whose y
must be within two units in the last place of bfloat16 plus the float32 reordering bound of a
K-term sum (|x|·|w|, from torch too) of torch's float64 result.
"""

from __future__ import annotations

import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.runtime.forward import run_conv3d

torch = pytest.importorskip("torch")

LAYERS = json.loads((Path(__file__).parent.parent / "benchmarks" / "layers.json").read_text())
MAX_CHANNELS = 24
OUT_POSITIONS = 3


def _three(value: int | list[int] | None, default: int) -> list[int]:
    if value is None:
        return [default] * 3
    return [value] * 3 if isinstance(value, int) else list(value)


def _pads6(value: int | list[int] | None) -> list[int]:
    """front, back, up, down, left, right."""
    if value is None or isinstance(value, int):
        return [value or 0] * 6
    if len(value) == 3:
        return [p for p in value for _ in range(2)]
    return list(value)


def shrunk(layer: dict) -> dict:
    """The layer shrunk as the module docstring says."""
    spatial = layer["input"][2:]
    cout, cin_g, *kernel = layer["weight"]
    groups = layer.get("groups", 1)
    stride, dilation = _three(layer.get("stride"), 1), _three(layer.get("dilation"), 1)
    pads = _pads6(layer.get("padding"))
    if groups > 1 and cin_g == 1 and cout == groups:  # depthwise
        groups, cin_g, cout_g = 3, 1, 1
    else:
        cin_g, cout_g = min(cin_g, MAX_CHANNELS), min(cout // groups, MAX_CHANNELS)
    sizes = []
    for axis in range(3):
        span = (kernel[axis] - 1) * dilation[axis] + 1
        pad = pads[2 * axis] + pads[2 * axis + 1]
        whole = (spatial[axis] + pad - span) // stride[axis] + 1
        keep = min(whole, OUT_POSITIONS)
        size = (keep - 1) * stride[axis] + span - pad
        sizes.append(min(spatial[axis], max(size, 1)))
    return {
        "input": (1, cin_g * groups, *sizes),
        "weight": (cout_g * groups, cin_g, *kernel),
        "stride": tuple(stride),
        "pads": tuple(pads),
        "dilation": tuple(dilation),
        "groups": groups,
    }


def _torch_y(x: np.ndarray, w: np.ndarray, s: dict) -> np.ndarray:
    """torch's conv3d in float64, the padding applied first (torch's own takes symmetric
    padding only)."""
    p = s["pads"]
    xt = torch.nn.functional.pad(
        torch.from_numpy(x.astype(np.float64)), (p[4], p[5], p[2], p[3], p[0], p[1])
    )
    wt = torch.from_numpy(w.astype(np.float64))
    y = torch.nn.functional.conv3d(xt, wt, None, s["stride"], 0, s["dilation"], s["groups"])
    return y.numpy()


def _run(x: np.ndarray, w: np.ndarray, s: dict) -> np.ndarray:
    args = (s["stride"], s["pads"], s["dilation"], s["groups"])
    return np.asarray(run_conv3d(x, w, None, *args, cores=4, cost=False).output)


def test_the_shrinking_keeps_the_features() -> None:
    """Groups, depthwise, stride 2, dilation-free and asymmetric padding are all still in the
    shrunk suite, and every shrunk layer has an output."""
    suite = [shrunk(layer) for layer in LAYERS]
    assert len(suite) == 27
    assert any(s["groups"] == 3 and s["weight"][1] == 1 for s in suite)  # depthwise
    assert any(2 in s["stride"] for s in suite) and any(16 in s["stride"] for s in suite)
    assert any(s["pads"][0] != s["pads"][2] for s in suite)  # per-axis padding
    assert any(s["input"][1] % 16 for s in suite)  # a channel tail
    for s in suite:
        _torch_y(np.zeros(s["input"]), np.zeros(s["weight"]), s)  # torch accepts the shapes


@pytest.mark.parametrize("layer", LAYERS, ids=[layer["name"] for layer in LAYERS])
def test_forward_matches_torch_float64(layer: dict) -> None:
    s = shrunk(layer)
    rng = np.random.default_rng(17)
    # Integer data: exact.
    x = rng.integers(-1, 2, s["input"]).astype(np.float16)
    w = rng.integers(-1, 2, s["weight"]).astype(np.float16)
    y = _run(x, w, s)
    want = _torch_y(x, w, s)
    assert y.dtype == np.float16 and y.shape == want.shape
    np.testing.assert_array_equal(y.astype(np.float64), want)
    # Random data in bfloat16: two ulps plus float32 reordering.
    x = rng.standard_normal(s["input"]).astype(ml_dtypes.bfloat16)
    w = rng.standard_normal(s["weight"]).astype(ml_dtypes.bfloat16)
    y = _run(x, w, s).astype(np.float64)
    want = _torch_y(x, w, s)
    bound = _torch_y(np.abs(x.astype(np.float64)), np.abs(w.astype(np.float64)), s)
    tolerance = 2.0 * 2.0**-7 * np.abs(want) + 1e-5 * bound + 1e-6
    assert (np.abs(y - want) <= tolerance).all(), np.abs(y - want).max()
