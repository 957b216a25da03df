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

The L1 mirror holds the Cube's 16-bit inputs widened to float32 (every float16 and bfloat16 is
exactly a float32). :func:`widened` does that widening for a whole GM tensor in integer
arithmetic: numpy's own float16 cast converts element by element (1.3 ms for 0.8 M elements
on the build machine; the integer passes take 0.22 ms), and a thin layer's data run spends a
tenth of its time there.
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


_F16_TO_F32_SCALE = np.float32(2.0**112)
"""2**(127 - 15): a float16's exponent and mantissa bits moved into a float32's, read as a
float32, are the float16's magnitude divided by this (normal and subnormal alike)."""


def widened(array: np.ndarray) -> np.ndarray:
    """``array`` (float16 or bfloat16) as a new float32 array of the same shape, bit for bit
    what ``array.astype(np.float32)`` gives (NaN payloads included; ``tests/test_dtypes.py``
    checks all 65 536 values of each type)."""
    if is_bfloat16(array.dtype):
        # bfloat16 is the upper half of a float32
        wide = array.view(np.uint16).astype(np.uint32)
        wide <<= 16
        return wide.view(np.float32)
    if array.dtype != F16:
        return array.astype(np.float32)
    # Sign-extended to 32 bits and shifted by 13, the float16's sign lands in bit 31 (bits
    # 28 to 30 are copies of it, cleared) and its exponent and mantissa in a float32's
    # exponent and mantissa; scaling by 2**112 rebiases the exponent, and float32 arithmetic
    # normalises a float16 subnormal on the way. Only infinities and NaNs (exponent 31)
    # need their exponent set to all ones.
    bits = array.view(np.int16).astype(np.int32).view(np.uint32)
    bits <<= 13
    bits &= np.uint32(0x8FFFE000)
    wide = bits.view(np.float32)
    wide *= _F16_TO_F32_SCALE
    if (array.view(np.uint16) & 0x7C00).max(initial=0) == 0x7C00:
        bits[np.abs(wide) >= 65536] |= np.uint32(0x7F800000)
    return wide


def name_of(dtype: np.dtype) -> str | None:
    """``f16`` or ``bf16`` for a Cube input type, else None."""
    if dtype == F16:
        return "f16"
    if is_bfloat16(dtype):
        return "bf16"
    return None
