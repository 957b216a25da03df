"""The arrays the public API takes and gives: numpy arrays or torch tensors, float16 or bfloat16.

``conv3d_weight`` promises torch's conventions, so a notebook may hand it the tensors it has.
torch stays an optional dependency: a tensor is recognised as an instance of
``sys.modules["torch"].Tensor``, which exists only when the caller has imported torch, so this
module never imports it. A tensor (contiguous or not, on any device) is copied to a numpy array
of its dtype (bfloat16 through float32, which holds every bfloat16 exactly, since numpy has no
bfloat16 of its own for torch to convert to); the result goes back as a float32 tensor on the
device of ``input``.

float32 (or any other type) is refused in one line naming the conversion to make, unless the
caller asks for it with ``cast="f16"`` or ``cast="bf16"``: rounding the inputs changes the
answer, so it is never done silently.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from ascend_xdsl.runtime.machine import dtypes

CASTS = dtypes.CONV_NAMES
"""What ``cast=`` may name: the types the inputs can be rounded to (``dtypes.of_name``)."""


def torch_tensor_type() -> type | None:
    """``torch.Tensor`` when the caller has imported torch, else None (torch is not imported
    here: a tensor cannot exist without it)."""
    torch = sys.modules.get("torch")
    tensor = getattr(torch, "Tensor", None)
    return tensor if isinstance(tensor, type) else None


def is_tensor(value: object) -> bool:
    tensor = torch_tensor_type()
    return tensor is not None and isinstance(value, tensor)


def _tensor_to_numpy(name: str, t: Any) -> np.ndarray:
    host = t.detach().cpu()
    kind = str(t.dtype).removeprefix("torch.")
    if kind == "bfloat16":
        return host.float().numpy().astype(dtypes.bfloat16())
    try:
        return np.asarray(host.numpy())
    except TypeError as e:  # a dtype numpy has no type for (complex32, float8, ...)
        raise TypeError(
            f"{name}: a torch.{kind} tensor cannot become a numpy array ({e})"
        ) from None


def _conversion_hint(name: str, kind: str, tensor: bool) -> str:
    if tensor:
        how = f"pass {name}.half() or {name}.bfloat16()"
    else:
        how = f"pass {name}.astype(numpy.float16) or {name}.astype(ml_dtypes.bfloat16)"
    return (
        f"{name} is {kind}: the kernel takes float16 or bfloat16; {how}, or give "
        "cast='f16' or cast='bf16' to round it here"
    )


@dataclass(frozen=True)
class Inputs:
    """x and dy as numpy arrays of one accepted type, and how to give the result back."""

    x: np.ndarray
    dy: np.ndarray
    like: Any = None
    """The torch tensor ``input`` was, or None for numpy."""

    def result(self, grad_weight: np.ndarray) -> Any:
        """dW as the caller gave its inputs: a numpy array, or a float32 torch tensor on the
        device of ``input``."""
        return grad_weight if self.like is None else as_tensor_like(grad_weight, self.like)


def as_tensor_like(array: np.ndarray, like: Any, dtype: Any = None) -> Any:
    """``array`` as a torch tensor on the device of the tensor ``like``, of torch type ``dtype``
    (None: the array's own). The array must be of a type torch takes from numpy (not
    ml_dtypes' bfloat16: convert to float32 first and pass ``dtype``)."""
    torch = sys.modules["torch"]
    out = torch.from_numpy(np.ascontiguousarray(array))
    if dtype is not None:
        out = out.to(dtype)
    return out if str(like.device) == "cpu" else out.to(like.device)


def as_inputs(input: Any, grad_output: Any, cast: str | None = None) -> Inputs:
    """``input`` and ``grad_output`` (numpy arrays, array-likes or torch tensors) as numpy
    arrays of one type, float16 or bfloat16, rounded to ``cast`` when it is given; a
    ``TypeError`` naming the argument and the conversion otherwise."""
    if cast is not None and cast not in CASTS:
        raise ValueError(f"cast must be one of {', '.join(map(repr, CASTS))} or None, got {cast!r}")
    tensors = [is_tensor(input), is_tensor(grad_output)]
    if tensors[0] != tensors[1]:
        raise TypeError(
            "input and grad_output must both be torch tensors or both numpy arrays, got "
            f"{type(input).__name__} and {type(grad_output).__name__}"
        )
    arrays = []
    for name, value, tensor in (
        ("input", input, tensors[0]),
        ("grad_output", grad_output, tensors[1]),
    ):
        array = _tensor_to_numpy(name, value) if tensor else np.asarray(value)
        if cast is not None:
            array = array.astype(dtypes.of_name(cast))
        elif not dtypes.is_cube_type(array.dtype):
            kind = f"a {value.dtype} tensor" if tensor else f"a {array.dtype} array"
            raise TypeError(_conversion_hint(name, kind, tensor))
        arrays.append(array)
    x, dy = arrays
    if x.dtype != dy.dtype:
        raise TypeError(
            f"input and grad_output must have the same type, got {x.dtype} and {dy.dtype}"
        )
    return Inputs(x, dy, input if tensors[0] else None)
