"""Unit tests of the hardware-level accessors that the lowering, runtime and sanitizer call."""

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, scf, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, f16, f32, i1
from xdsl.parser import Parser
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from ascend_xdsl.dialects import hw_level as hw
from ascend_xdsl.dialects.ascend import Ascend
from ascend_xdsl.dialects.enums import PhysicalMemory, Pipe
from ascend_xdsl.dialects.types import LocalTensorType

EXAMPLE = Path(__file__).parents[1] / "examples" / "hw_level.mlir"


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, test.Test, Ascend):
        ctx.load_dialect(d)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def test_alignment_capacity_and_slot_stride():
    assert hw.alignment_of(PhysicalMemory.L1) == 32
    assert hw.alignment_of(PhysicalMemory.L0A) == hw.alignment_of(PhysicalMemory.L0B) == 512
    assert hw.alignment_of(PhysicalMemory.L0C) == 64
    assert hw.alignment_of(PhysicalMemory.UB) == 32
    assert hw.capacity_of(PhysicalMemory.L1) == 524288
    assert hw.capacity_of(PhysicalMemory.L0C) == 131072
    with pytest.raises(ValueError, match="GM is not an on-chip memory"):
        hw.alignment_of(PhysicalMemory.GM)
    assert hw.slot_stride(LocalTensorType("A1", [17], f16)) == 64  # 34 B -> 64 B
    assert hw.slot_stride(LocalTensorType("A2", [17], f16)) == 512
    assert hw.slot_stride(LocalTensorType("CO1", [256], f32)) == 1024


def test_constant_value():
    c = arith.ConstantOp(IntegerAttr(42, IndexType()))
    t = arith.ConstantOp(IntegerAttr(-1, i1))  # how `arith.constant true` is stored
    f = arith.ConstantOp(IntegerAttr(0, i1))
    assert hw.constant_value(c.result) == 42
    assert hw.constant_value(t.result) == 1
    assert hw.constant_value(f.result) == 0
    assert hw.constant_value(test.TestOp(result_types=[IndexType()]).results[0]) is None


def test_example_pipes_reads_writes():
    module = parse(EXAMPLE.read_text())
    ops = [op for op in module.walk() if isinstance(op, hw.HwOp)]
    name = {}
    for op in module.walk():
        for r in op.results:
            name[r] = r.name_hint
    func_op = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    for arg in func_op.body.block.args:
        name[arg] = arg.name_hint

    def accesses(lst: list[hw.Access]) -> list[tuple[str, str | None]]:
        return [(name[a.buffer], None if a.slot is None else name[a.slot]) for a in lst]

    seen = {}
    for op in ops:
        seen.setdefault(op.name, (hw.pipe_of(op), accesses(hw.reads(op)), accesses(hw.writes(op))))
    assert seen["ascend.alloc_buffer"] == (None, [], [])
    assert seen["ascend.data_copy"] == (Pipe.MTE2, [("dy", None)], [("a1", "c0")])
    assert seen["ascend.load3d"] == (Pipe.MTE1, [("a1", "c0")], [("a2", "c0")])
    # init is the constant true: C is not read
    assert seen["ascend.mmad"] == (Pipe.M, [("a2", "c0"), ("b2", "c0")], [("co1", "c0")])
    assert seen["ascend.fixpipe"] == (Pipe.FIX, [("co1", "c0")], [("dw", None)])
    first_set = next(op for op in ops if isinstance(op, hw.SetFlagOp))
    first_wait = next(op for op in ops if isinstance(op, hw.WaitFlagOp))
    assert (first_set.src_pipe, first_set.dst_pipe, hw.pipe_of(first_set)) == (
        Pipe.MTE1,
        Pipe.MTE2,
        Pipe.MTE1,
    )
    assert hw.pipe_of(first_wait) == Pipe.MTE2
    assert hw.pipe_of(func_op) is None and hw.reads(func_op) == []


def test_pipe_barrier_and_block_idx_and_dce():
    module = parse(
        """
        %i = "test.op"() : () -> index
        ascend.pipe_barrier MTE1
        %b = ascend.get_block_idx : index
        ascend.set_flag M -> FIX event %i
        """
    )
    barrier, block_idx, set_flag = list(module.body.block.ops)[1:]
    assert hw.pipe_of(barrier) == Pipe.MTE1
    assert hw.pipe_of(block_idx) == Pipe.S
    # DCE keeps every op that touches memory or synchronises, drops an unused block index.
    assert is_trivially_dead(block_idx)
    assert not is_trivially_dead(barrier) and not is_trivially_dead(set_flag)


def test_accumulating_mmad_reads_c():
    a2, b2, co1 = (
        "!ascend.local_tensor<A2, 256xf16>",
        "!ascend.local_tensor<B2, 256xf16>",
        "!ascend.local_tensor<CO1, 256xf32>",
    )
    module = parse(
        f"""
        %a, %b, %c, %i, %init = "test.op"() : () -> ({a2}, {b2}, {co1}, index, i1)
        ascend.mmad %a[%i], %b[%i] -> %c[%i] m %i n %i k %i init %init : {a2}, {b2} -> {co1}
        """
    )
    mmad = next(op for op in module.walk() if isinstance(op, hw.MmadOp))
    assert [a.buffer for a in hw.reads(mmad)] == [mmad.a, mmad.b, mmad.c]
    assert not is_trivially_dead(mmad)


def test_builders_verify():
    a1 = hw.AllocBufferOp(LocalTensorType("A1", [256], f16), slots=2, offset=0)
    a2 = hw.AllocBufferOp(LocalTensorType("A2", [256], f16))
    c = arith.ConstantOp(IntegerAttr(16, IndexType()))
    z = arith.ConstantOp(IntegerAttr(0, IndexType()))
    load = hw.Load3dOp(
        a1, z, z, a2, z, (c, c, c), (z, c, z, c), (z, z, z, z), (1, 1), (1, 1), transpose=True
    )
    for op in (a1, a2, load, hw.SetFlagOp(Pipe.MTE2, Pipe.MTE1, z), hw.PipeBarrierOp(Pipe.M)):
        op.verify()
    assert load.kernel_hw == (1, 1) and load.is_transposed
    assert hw.pipe_of(hw.WaitFlagOp(Pipe.MTE2, Pipe.MTE1, z)) == Pipe.MTE1
