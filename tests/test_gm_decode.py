"""``GmTensor.as_f32`` (runtime/machine/values.py): the float32 decoding the L1 mirror copies
from. A tensor whose channels are at least half padding is decoded from its logical array
straight into the float32 layout; it must give the bits of decoding the stored 16-bit
elements one by one (the plain formula: ``data.astype(float32)``), padding included."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type

from ascend_xdsl.dialects.formats import ncdhw_to_ndc1hwc0
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


@pytest.mark.parametrize("dtype", TYPES)
def test_a_padded_tensor_lays_out_its_data_only_when_read(dtype: str) -> None:
    """A padded tensor (one channel of C0=16) answers its size, bytes and element type and
    decodes its elements without making its 16-bit layout; ``data`` then is the layout of the
    logical array, and a write (``written``) keeps it."""
    np_type, element = TYPES[dtype]
    shape = (1, 1, 4, 6, 6)
    x = np.random.default_rng(7).standard_normal(shape).astype(np_type)
    t = GmTensorType("NDC1HWC0", shape, element)
    tensor = to_gm(t, x)
    size = 4 * 6 * 6 * 16
    assert (tensor.size, tensor.nbytes, tensor.element_bytes) == (size, 2 * size, 2)
    assert tensor.dtype == np_type
    decoded = tensor.as_f32()
    assert tensor._data is None, "decoding made the 16-bit layout"
    layout = ncdhw_to_ndc1hwc0(x, 16).reshape(-1)
    assert tensor.data.tobytes() == layout.tobytes()
    assert decoded.tobytes() == layout.astype(np.float32).tobytes()
    written = to_gm(t, x)
    written.written()  # what it was made from is forgotten: the layout is made first
    assert written._padded_from is None and written.data.tobytes() == layout.tobytes()


def test_a_tensor_of_another_rank_is_refused_as_before() -> None:
    t = GmTensorType("NDC1HWC0", (1, 1, 4, 6, 6), Float16Type())
    with pytest.raises(ValueError, match="expected an NCDHW array"):
        to_gm(t, np.zeros((1, 4, 6, 6), np.float16))
