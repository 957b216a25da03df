"""The numpy element types of the simulator, and the one place that knows where bfloat16
comes from.

numpy has float16, float32 and int32; bfloat16 is ml_dtypes'. Importing ml_dtypes 0.7 costs
about 0.57 s (measured with ``python -X importtime``: half of the 1.2 s an ``ascend-conv``
start takes), so it is imported the first time a bfloat16 type is asked for
(:func:`bfloat16`), not when the runtime is: a float16 layer never pays for it. Recognising a
bfloat16 array (:func:`is_bfloat16`) never imports it either: such an array can only exist
once something has imported ml_dtypes.

The conv element types have short names in the IR and on the command line (``f16``,
``bf16``); :func:`of_name` and :func:`name_of` turn them into numpy types and back.
"""

from __future__ import annotations

import sys

import numpy as np

F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
I32 = np.dtype(np.int32)

CONV_NAMES: tuple[str, ...] = ("f16", "bf16")
"""The element types of a convolution's inputs: the Cube's 16-bit types."""


def bfloat16() -> np.dtype:
    """ml_dtypes' bfloat16 (imported here, on the first call)."""
    import ml_dtypes

    return np.dtype(ml_dtypes.bfloat16)


def is_bfloat16(dtype: np.dtype) -> bool:
    """Whether ``dtype`` is ml_dtypes' bfloat16, without importing ml_dtypes."""
    ml_dtypes = sys.modules.get("ml_dtypes")
    return ml_dtypes is not None and dtype == ml_dtypes.bfloat16


def is_cube_type(dtype: np.dtype) -> bool:
    """Whether ``dtype`` is a Cube input type: float16 or bfloat16."""
    return dtype == F16 or is_bfloat16(dtype)


def of_name(name: str) -> np.dtype:
    """The numpy type of ``f16``, ``bf16`` or ``f32``."""
    if name == "f16":
        return F16
    if name == "bf16":
        return bfloat16()
    if name == "f32":
        return F32
    raise ValueError(f"no numpy type for element type {name!r}")


def name_of(dtype: np.dtype) -> str | None:
    """``f16`` or ``bf16`` for a Cube input type, else None."""
    if dtype == F16:
        return "f16"
    if is_bfloat16(dtype):
        return "bf16"
    return None
