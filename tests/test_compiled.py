"""The compiled executor (runtime/executors/compiled.py): what it generates, its cache, its errors.

That it computes the same bits as the interpreter is tested on the correctness matrix
(tests/test_runtime.py) and the property tests (tests/test_properties.py); here are the parts
that belong to the translation itself.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i64

from ascend_xdsl import hw
from ascend_xdsl.dialects.hw_level import AllocBufferOp, Load3dOp
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, random_inputs
from ascend_xdsl.runtime.executors.compiled import UnsupportedOpError, kernel_of
from ascend_xdsl.runtime.executors.interpreter import make_interpreter
from ascend_xdsl.runtime.machine.memory import MemoryAccessError

HW = "atlas-a2-910b2"
TARGET = hw.load(HW)
KERNEL = "conv3d_bp_filter_kernel"


def _module(cores: int = 2):
    problem = shape_from_torch_args((1, 32, 3, 8, 8), (32, 32, 2, 3, 3), padding=1)
    levels = compiled_levels(problem, HW, "heuristic", cores, "")
    x, dy = random_inputs(problem, 3)
    return levels["hw"].clone(), x, dy


def test_loops_stay_loops_and_constants_are_folded():
    module, _, _ = _module()
    source = kernel_of(module, KERNEL, TARGET).source
    n_for = sum(1 for op in module.walk() if op.name == "scf.for")
    assert source.count(" in range(") == n_for
    assert "arith" not in source and "K[" in source
    # Every constant is a literal: no generated line computes an expression of literals only.
    assert not any(line.strip().startswith("v") and "= 8 *" in line for line in source.split("\n"))


def test_translation_is_cached_until_the_kernel_changes():
    module, _, _ = _module()
    first = kernel_of(module, KERNEL, TARGET)
    assert kernel_of(module, KERNEL, TARGET) is first
    # Change one attribute: the next run must use a new translation.
    alloc = next(op for op in module.walk() if isinstance(op, AllocBufferOp))
    alloc.offset = IntegerAttr(alloc.offset_bytes + 512, i64)  # type: ignore[operator]
    second = kernel_of(module, KERNEL, TARGET)
    assert second is not first
    # Erase an op: new translation again.
    load = next(op for op in module.walk() if isinstance(op, Load3dOp))
    load.detach()
    load.erase()
    assert kernel_of(module, KERNEL, TARGET) is not second


def test_the_error_names_the_failing_op():
    module, x, dy = _module()
    co1 = next(
        op
        for op in module.walk()
        if isinstance(op, AllocBufferOp) and str(op.buffer_type.tposition) == "CO1"
    )
    co1.offset = IntegerAttr(131072 - 64, i64)  # the CO1 slots run past the end of L0C
    with pytest.raises(MemoryAccessError) as info:
        make_interpreter(module, executor="compiled").call_op("conv3d_bp_filter", (x, dy))
    assert info.value.ascend_op is co1  # type: ignore[attr-defined]


def test_an_unknown_op_is_named():
    module, x, dy = _module()
    kernel = next(
        op for op in module.ops if getattr(op, "sym_name", None) and op.sym_name.data == KERNEL
    )
    kernel.body.block.insert_op_before(
        arith.ConstantOp.from_int_and_width(1, 32), kernel.body.block.first_op
    )
    kernel.body.block.first_op.results[0].name_hint = "unused"
    with pytest.raises(UnsupportedOpError, match="index and i1 constants"):
        make_interpreter(module, executor="compiled").call_op("conv3d_bp_filter", (x, dy))
    # The interpreter runs it.
    (dw,) = make_interpreter(module, executor="interp").call_op("conv3d_bp_filter", (x, dy))
    assert np.isfinite(np.asarray(dw)).all()
