"""``GmTensor.as_f32`` (runtime/machine/values.py): the float32 decoding the L1 mirror copies
from. A tensor whose channels are at least half padding is decoded from its logical array
straight into the float32 layout; it must give the bits of decoding the stored 16-bit
elements one by one (the plain formula: ``data.astype(float32)``), padding included."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type

from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.runtime.machine.values import to_gm

TYPES = {"f16": (np.float16, Float16Type()), "bf16": (ml_dtypes.bfloat16, BFloat16Type())}


@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("c", [1, 3, 8, 9, 16, 17, 40])
def test_decoding_gives_the_stored_elements_bits(c: int, dtype: str) -> None:
    np_type, element = TYPES[dtype]
    shape = (2, c, 3, 4, 5)
    rng = np.random.default_rng(c)
    x = rng.standard_normal(shape).astype(np_type)
    x.reshape(-1)[::7] = np.array(-0.0, np_type)  # signed zeros survive the decoding
    x.reshape(-1)[1::11] = np.array(np.inf, np_type)
    tensor = to_gm(GmTensorType("NDC1HWC0", shape, element), x)
    padded = tensor._padded_from is not None
    assert padded == (c <= 8), "decoded from the logical array when at least half padding"
    expected = tensor.data.astype(np.float32)
    decoded = tensor.as_f32()
    assert decoded.dtype == np.float32 and decoded.shape == expected.shape
    assert decoded.tobytes() == expected.tobytes()
    assert tensor.as_f32() is decoded  # once
    tensor.written()
    assert tensor._padded_from is None and tensor.as_f32().tobytes() == expected.tobytes()
