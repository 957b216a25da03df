"""runtime/machine/dtypes.py: the element types, and ml_dtypes imported only for bfloat16."""

import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.runtime.machine import dtypes


def test_names_and_types() -> None:
    assert dtypes.of_name("f16") == np.float16
    assert dtypes.of_name("bf16") == ml_dtypes.bfloat16
    assert dtypes.of_name("f32") == np.float32
    for name in dtypes.CONV_NAMES:
        assert dtypes.name_of(dtypes.of_name(name)) == name
        assert dtypes.is_cube_type(dtypes.of_name(name))
    assert dtypes.name_of(np.dtype(np.float32)) is None
    assert not dtypes.is_cube_type(np.dtype(np.float32))
    assert not dtypes.is_cube_type(np.dtype(np.int16))
    assert not dtypes.is_bfloat16(np.dtype(np.float16))
    with pytest.raises(ValueError, match="no numpy type for element type 'i8'"):
        dtypes.of_name("i8")


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
def test_widened_is_the_cast_bit_for_bit(dtype: type) -> None:
    """Every one of the 65 536 values (zeros, subnormals, infinities and NaN payloads
    included) widens to the bits numpy's own cast gives, in a strided view too."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype)
    expected = every.astype(np.float32).view(np.uint32)
    wide = dtypes.widened(every)
    assert wide.dtype == np.float32
    assert np.array_equal(wide.view(np.uint32), expected)
    grid = every.reshape(256, 256)[::3, 1::2]
    assert np.array_equal(
        dtypes.widened(grid).view(np.uint32), grid.astype(np.float32).view(np.uint32)
    )
    finite = every[np.isfinite(every)]
    assert np.array_equal(dtypes.widened(finite), finite.astype(np.float32))


def test_a_float16_run_does_not_import_ml_dtypes() -> None:
    """Importing ml_dtypes costs about half a second of every start of the tools: the main job
    on a float16 layer (compiled, simulated, timed and checked to the precision standard) does
    without it. A bfloat16 layer brings it in."""
    code = "\n".join(
        [
            "import sys",
            "import numpy as np",
            "from ascend_xdsl.tools.conv import main",
            "from ascend_xdsl.runtime import conv3d_weight",
            "assert main(['bp-filter', '--input', '1,16,2,4,4', '--weight', '16,16,1,1,1']) == 0",
            "assert 'ml_dtypes' not in sys.modules, 'a float16 run imported ml_dtypes'",
            "from ascend_xdsl.lowering.build import shape_from_torch_args",
            "from ascend_xdsl.runtime.api import random_inputs",
            "p = shape_from_torch_args((1, 16, 2, 4, 4), (16, 16, 1, 1, 1), dtype='bf16')",
            "x, dy = random_inputs(p)",
            "assert 'ml_dtypes' in sys.modules",
            "assert conv3d_weight(x, (16, 16, 1, 1, 1), dy).shape == (16, 16, 1, 1, 1)",
        ]
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
