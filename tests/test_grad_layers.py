"""dW and dX against torch in float64 on the benchmark suite's 27 layers and the extra layers of
tests/suite_layers.py (dilation 2, six-value asymmetric padding with stride 2, odd sizes with a
dilation per axis, groups), each shrunk as that module says.

dW is ``runtime.api.conv3d_weight`` (every AI core of the default target), dX
``runtime.input_grad.conv3d_input``; the references are ``torch.nn.grad.conv3d_weight`` and
``torch.nn.grad.conv3d_input`` in float64. Two runs of each op per layer:

* float16 inputs holding small integers, whose result must equal torch's exactly. Every
  product is an integer, and so is every partial sum, in any order, as long as it stays below
  2^24 (float32's integers); the result must also be representable in the output type.
  dW's output is float32: x and dy in [-16, 16] give at most 27 terms (3 output positions per
  axis) of at most 256, far below 2^24. dX's output is float16, exact for integers up to
  2^11 = 2048: the weight in [-1, 1] and dy in [-3, 3] give at most 3·T where T, the most
  terms any dX element sums (torch's dX of all-ones tensors, 648 on the suite: 24 channels
  times 27 taps), is asserted to keep 3·T <= 2048.
* standard-normal bfloat16 inputs, whose result must be within the bound of a float32 sum of
  exact products (:func:`suite_layers.summation_bound`: γ(n)·Σ|a·b| per element, with n the
  element's count of terms and Σ|a·b| both from torch in float64 on |a| and |b|), plus, for
  dX's bfloat16 output, one rounding to nearest (2^-8 of the value,
  :func:`suite_layers.bf16_output_bound`).

An element no term reaches (dX at an input row a stride skips) has a bound of zero: it must be
exactly zero.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("torch")

# After the importorskip: suite_layers imports torch.
from suite_layers import (
    ALL_LAYERS,
    bf16_output_bound,
    shrunk,
    summation_bound,
    torch_input_grad,
    torch_weight_grad,
)

from ascend_xdsl.runtime.api import conv3d_weight
from ascend_xdsl.runtime.input_grad import conv3d_input

F16_MAX_INTEGER = 2048
IDS = [layer["name"] for layer in ALL_LAYERS]


def _args(s: dict) -> tuple:
    return s["stride"], s["pads"], s["dilation"], s["groups"]


@pytest.mark.parametrize("layer", ALL_LAYERS, ids=IDS)
def test_weight_grad_matches_torch_float64(layer: dict) -> None:
    s = shrunk(layer)
    rng = np.random.default_rng(6)
    # Integer data: exact (float32 output; every partial sum far below 2^24).
    x = rng.integers(-16, 17, s["input"]).astype(np.float16)
    dy = rng.integers(-16, 17, s["output"]).astype(np.float16)
    terms = torch_weight_grad(np.ones(s["input"]), np.ones(s["output"]), s)
    assert terms.max() * 16 * 16 < 2**24
    dw = np.asarray(conv3d_weight(x, s["weight"], dy, *_args(s)))
    want = torch_weight_grad(x, dy, s)
    assert dw.dtype == np.float32 and dw.shape == want.shape == s["weight"]
    np.testing.assert_array_equal(dw.astype(np.float64), want)
    # Random bfloat16 data: the float32 summation bound.
    x = rng.standard_normal(s["input"]).astype(ml_dtypes.bfloat16)
    dy = rng.standard_normal(s["output"]).astype(ml_dtypes.bfloat16)
    dw = np.asarray(conv3d_weight(x, s["weight"], dy, *_args(s))).astype(np.float64)
    want = torch_weight_grad(x, dy, s)
    magnitude = torch_weight_grad(np.abs(x.astype(np.float64)), np.abs(dy.astype(np.float64)), s)
    excess = np.abs(dw - want) - summation_bound(terms, magnitude)
    assert (excess <= 0).all(), excess.max()


@pytest.mark.parametrize("layer", ALL_LAYERS, ids=IDS)
def test_input_grad_matches_torch_float64(layer: dict) -> None:
    s = shrunk(layer)
    rng = np.random.default_rng(7)
    # Integer data: exact (float16 output; every |dX| at most 3·T <= 2048).
    w = rng.integers(-1, 2, s["weight"]).astype(np.float16)
    dy = rng.integers(-3, 4, s["output"]).astype(np.float16)
    terms = torch_input_grad(np.ones(s["weight"]), np.ones(s["output"]), s)
    assert terms.max() * 1 * 3 <= F16_MAX_INTEGER, terms.max()
    dx = np.asarray(conv3d_input(s["input"], w, dy, *_args(s)))
    want = torch_input_grad(w, dy, s)
    assert dx.dtype == np.float16 and dx.shape == want.shape == s["input"]
    np.testing.assert_array_equal(dx.astype(np.float64), want)
    # Random bfloat16 data: the float32 summation bound and one rounding to bfloat16.
    w = rng.standard_normal(s["weight"]).astype(ml_dtypes.bfloat16)
    dy = rng.standard_normal(s["output"]).astype(ml_dtypes.bfloat16)
    dx = np.asarray(conv3d_input(s["input"], w, dy, *_args(s)))
    assert dx.dtype == ml_dtypes.bfloat16
    want = torch_input_grad(w, dy, s)
    magnitude = torch_input_grad(np.abs(w.astype(np.float64)), np.abs(dy.astype(np.float64)), s)
    excess = np.abs(dx.astype(np.float64) - want) - bf16_output_bound(want, terms, magnitude)
    assert (excess <= 0).all(), excess.max()
