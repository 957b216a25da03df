"""The benchmark suite's layers shrunk for numerics tests, and torch's float64 results of the
three conv ops on them: what tests/test_forward_layers.py (forward) and tests/test_grad_layers.py
(dW and dX) share, imported by name like ``cli_helpers``.

``LAYERS`` are the 27 layers of ``benchmarks/layers.json``; ``EXTRA_LAYERS`` add, in the same
format, what the suite has none of: dilation 2 (a 3-D ASPP branch), six-value asymmetric
padding with stride 2 (TensorFlow's SAME padding of an even input), odd sizes everywhere with
a different dilation per axis, and groups that are neither 1 nor depthwise.

:func:`shrunk` keeps each layer's kernel, stride, dilation, padding (one, three or six values,
so asymmetric padding stays) and groups kind, and shrinks the rest so that a simulator run takes
well under a second:

* batch 1;
* channels: Cin/g and Cout/g at most 24 (odd counts such as 3 and 54 -> 24 keep a channel tail
  of the 16-wide block), and a depthwise layer (groups = C) keeps 3 groups of one channel;
  other groups keep theirs;
* each spatial axis cropped to the input that gives at most 3 output positions (fewer if the
  layer had fewer), from ``(n - 1)·stride + (k - 1)·dilation + 1 - padding``, never below one
  element or above the layer's own size.

The references are torch's own ops in float64 (``torch.nn.functional.conv3d``,
``torch.nn.grad.conv3d_weight`` and ``torch.nn.grad.conv3d_input``), never this project's
code. torch pads symmetrically only, so each reference runs on the explicitly zero-padded
input with no padding (dX: the gradient of the padded input, cropped back).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

LAYERS: list[dict] = json.loads(
    (Path(__file__).parent.parent / "benchmarks" / "layers.json").read_text()
)
EXTRA_LAYERS: list[dict] = [
    # DeepLab's atrous spatial pyramid pooling in 3-D: a 3x3x3 branch with dilation 2.
    {
        "name": "aspp3d-dilation2",
        "input": [1, 64, 8, 16, 16],
        "weight": [64, 64, 3, 3, 3],
        "padding": 2,
        "dilation": 2,
    },
    # TensorFlow's SAME padding of an even input with stride 2 pads one more at the end.
    {
        "name": "tf-same-stride2",
        "input": [1, 32, 8, 10, 12],
        "weight": [48, 32, 3, 3, 3],
        "stride": 2,
        "padding": [0, 1, 0, 1, 0, 1],
    },
    # Odd sizes on every axis, channel counts off the 16-block, a different dilation per axis.
    {
        "name": "odd-mixed-dilation",
        "input": [1, 5, 7, 9, 11],
        "weight": [7, 5, 3, 3, 3],
        "stride": [1, 2, 1],
        "padding": [1, 2, 3],
        "dilation": [1, 2, 3],
    },
    # ResNeXt-style grouped conv: groups neither 1 nor the channel count.
    {
        "name": "resnext3d-grouped",
        "input": [1, 32, 8, 14, 14],
        "weight": [32, 8, 3, 3, 3],
        "stride": [1, 2, 2],
        "padding": 1,
        "groups": 4,
    },
]
ALL_LAYERS = LAYERS + EXTRA_LAYERS
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
    """The layer shrunk as the module docstring says: ``input`` and ``weight`` shapes, the
    output's ``output``, ``stride``, six ``pads``, ``dilation`` and ``groups``."""
    spatial = layer["input"][2:]
    cout, cin_g, *kernel = layer["weight"]
    groups = layer.get("groups", 1)
    stride, dilation = _three(layer.get("stride"), 1), _three(layer.get("dilation"), 1)
    pads = _pads6(layer.get("padding"))
    if groups > 1 and cin_g == 1 and cout == groups:  # depthwise
        groups, cin_g, cout_g = 3, 1, 1
    else:
        cin_g, cout_g = min(cin_g, MAX_CHANNELS), min(cout // groups, MAX_CHANNELS)
    sizes, outs = [], []
    for axis in range(3):
        span = (kernel[axis] - 1) * dilation[axis] + 1
        pad = pads[2 * axis] + pads[2 * axis + 1]
        whole = (spatial[axis] + pad - span) // stride[axis] + 1
        keep = min(whole, OUT_POSITIONS)
        size = min(spatial[axis], max((keep - 1) * stride[axis] + span - pad, 1))
        sizes.append(size)
        outs.append((size + pad - span) // stride[axis] + 1)
    return {
        "input": (1, cin_g * groups, *sizes),
        "weight": (cout_g * groups, cin_g, *kernel),
        "output": (1, cout_g * groups, *outs),
        "stride": tuple(stride),
        "pads": tuple(pads),
        "dilation": tuple(dilation),
        "groups": groups,
    }


def _t(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.asarray(a).astype(np.float64))


def _padded(x: torch.Tensor, p: tuple[int, ...]) -> torch.Tensor:
    return torch.nn.functional.pad(x, (p[4], p[5], p[2], p[3], p[0], p[1]))


def torch_forward(x: np.ndarray, w: np.ndarray, s: dict) -> np.ndarray:
    """y of ``s`` (a :func:`shrunk` layer), torch float64."""
    y = torch.nn.functional.conv3d(
        _padded(_t(x), s["pads"]), _t(w), None, s["stride"], 0, s["dilation"], s["groups"]
    )
    return y.numpy()


def torch_weight_grad(x: np.ndarray, dy: np.ndarray, s: dict) -> np.ndarray:
    """dW of ``s``, ``torch.nn.grad.conv3d_weight`` in float64."""
    return torch.nn.grad.conv3d_weight(
        _padded(_t(x), s["pads"]), s["weight"], _t(dy), s["stride"], 0, s["dilation"], s["groups"]
    ).numpy()


def torch_input_grad(w: np.ndarray, dy: np.ndarray, s: dict) -> np.ndarray:
    """dX of ``s``, ``torch.nn.grad.conv3d_input`` in float64: the gradient of the padded
    input, cropped to the input."""
    p, (n, c, d, h, wd) = s["pads"], s["input"]
    padded = (n, c, d + p[0] + p[1], h + p[2] + p[3], wd + p[4] + p[5])
    dx = torch.nn.grad.conv3d_input(
        padded, _t(w), _t(dy), s["stride"], 0, s["dilation"], s["groups"]
    ).numpy()
    return dx[:, :, p[0] : p[0] + d, p[2] : p[2] + h, p[4] : p[4] + wd]


F32_UNIT = 2.0**-24
"""float32's unit roundoff (round to nearest, 24-bit significand)."""
BF16_UNIT = 2.0**-8
"""bfloat16's unit roundoff (8-bit significand)."""


def summation_bound(terms: np.ndarray, magnitude: np.ndarray) -> np.ndarray:
    """The error bound of a float32 sum of ``terms`` exact products whose magnitudes add up to
    ``magnitude`` (both per output element), in any order or tree: γ(n)·Σ|a·b| with
    γ(n) = n·u / (1 - n·u), u = 2^-24 (Higham, *Accuracy and Stability of Numerical
    Algorithms*, 2nd ed., §4.2; n - 1 additions suffice, n keeps the bound simple). A product of
    two bfloat16 or float16 values is exact in float32 (8+8 or 11+11 significand bits fit in
    24), so the sum is the only error; an added zero (padding, a channel tail) is exact and
    does not count."""
    n = terms * F32_UNIT
    return n / (1.0 - n) * magnitude


def bf16_output_bound(want: np.ndarray, terms: np.ndarray, magnitude: np.ndarray) -> np.ndarray:
    """The bound of a float32 sum rounded once to bfloat16 (nearest): the summation bound ``e``
    plus half an ulp of the rounded value, 2^-8·(|want| + e)."""
    e = summation_bound(terms, magnitude)
    return e + BF16_UNIT * (np.abs(want) + e)
