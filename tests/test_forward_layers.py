"""The forward conv against torch in float64 on the benchmark suite's 27 layers and the extra
layers of tests/suite_layers.py (dilation 2, six-value asymmetric padding with stride 2, odd
sizes with a dilation per axis, groups), each shrunk as that module says (its shrinking and
torch references are shared with the dW and dX tests of tests/test_grad_layers.py).

Two runs per layer on the simulator (``runtime.forward.run_conv3d`` on 4 cores, the
hardware-level program):
integer-valued float16 inputs in {-1, 0, 1}, whose y must equal torch's float64 result exactly
(every partial sum is an integer, at most the layer's K = Cin/g·kD·kH·kW terms, asserted to
stay within float16's integers, 2^11), and standard-normal bfloat16 inputs, whose y must be
within the bound of a float32 sum of exact products rounded once to bfloat16
(:func:`suite_layers.bf16_output_bound`, from torch on |x| and |w|) of torch's float64 result.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("torch")

# After the importorskip: suite_layers imports torch.
from suite_layers import (
    ALL_LAYERS,
    EXTRA_LAYERS,
    LAYERS,
    bf16_output_bound,
    shrunk,
    torch_forward,
)

from ascend_xdsl.runtime.forward import run_conv3d

F16_MAX_INTEGER = 2048


def _run(x: np.ndarray, w: np.ndarray, s: dict) -> np.ndarray:
    args = (s["stride"], s["pads"], s["dilation"], s["groups"])
    return np.asarray(run_conv3d(x, w, None, *args, cores=4, cost=False).output)


def test_the_shrinking_keeps_the_features() -> None:
    """Groups, depthwise, stride 2, dilation 2, six-value asymmetric padding, odd sizes and
    channel tails are all in the shrunk suite and its extras, and every shrunk layer has an
    output."""
    suite = [shrunk(layer) for layer in LAYERS]
    assert len(suite) == 27
    assert any(s["groups"] == 3 and s["weight"][1] == 1 for s in suite)  # depthwise
    assert any(2 in s["stride"] for s in suite) and any(16 in s["stride"] for s in suite)
    assert any(s["pads"][0] != s["pads"][2] for s in suite)  # per-axis padding
    assert any(s["input"][1] % 16 for s in suite)  # a channel tail
    extras = {layer["name"]: shrunk(layer) for layer in EXTRA_LAYERS}
    assert extras["aspp3d-dilation2"]["dilation"] == (2, 2, 2)
    same = extras["tf-same-stride2"]
    assert same["stride"] == (2, 2, 2) and same["pads"] == (0, 1, 0, 1, 0, 1)
    odd = extras["odd-mixed-dilation"]
    assert odd["dilation"] == (1, 2, 3) and all(n % 2 for n in odd["input"][1:])
    assert 1 < extras["resnext3d-grouped"]["groups"] < extras["resnext3d-grouped"]["input"][1]
    for s in suite + list(extras.values()):
        y = torch_forward(np.zeros(s["input"]), np.zeros(s["weight"]), s)  # torch takes them
        assert y.shape == s["output"] and min(s["output"]) > 0


@pytest.mark.parametrize("layer", ALL_LAYERS, ids=[layer["name"] for layer in ALL_LAYERS])
def test_forward_matches_torch_float64(layer: dict) -> None:
    s = shrunk(layer)
    rng = np.random.default_rng(17)
    terms = torch_forward(np.ones(s["input"]), np.ones(s["weight"]), s)
    assert terms.max() <= F16_MAX_INTEGER, terms.max()
    # Integer data: exact.
    x = rng.integers(-1, 2, s["input"]).astype(np.float16)
    w = rng.integers(-1, 2, s["weight"]).astype(np.float16)
    y = _run(x, w, s)
    want = torch_forward(x, w, s)
    assert y.dtype == np.float16 and y.shape == want.shape
    np.testing.assert_array_equal(y.astype(np.float64), want)
    # Random data in bfloat16: the float32 summation bound and one rounding to bfloat16.
    x = rng.standard_normal(s["input"]).astype(ml_dtypes.bfloat16)
    w = rng.standard_normal(s["weight"]).astype(ml_dtypes.bfloat16)
    y = _run(x, w, s).astype(np.float64)
    want = torch_forward(x, w, s)
    magnitude = torch_forward(np.abs(x.astype(np.float64)), np.abs(w.astype(np.float64)), s)
    excess = np.abs(y - want) - bf16_output_bound(want, terms, magnitude)
    assert (excess <= 0).all(), excess.max()
