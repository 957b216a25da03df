"""The instruction specs (hw/instructions/) and what is derived from them.

One spec per hardware instruction holds its pipe, operand binding, effects, timing operands and
cost rule; the dialect, both executors, both machines and the timing backend read it. These
tests check that the derived views agree with the ops they describe and with the numbers the
hand-written tables had, that both machines implement the one Machine interface, and that the
timing state API (snapshot, advance, restore) reproduces the iterations it stands for.
"""

from __future__ import annotations

import math

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, i1

from ascend_xdsl import hw
from ascend_xdsl.dialects import hw_level
from ascend_xdsl.dialects.enums import Pipe
from ascend_xdsl.hw import instructions
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.hw.instructions import DataCopy, Load2d, Load3d, Mmad
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, model_cost
from ascend_xdsl.runtime.cost.cost_core import CostCore
from ascend_xdsl.runtime.cost.model import COST_ONLY
from ascend_xdsl.runtime.cost.timing import Timeline, completion_latency, duration
from ascend_xdsl.runtime.executors import loop_signatures
from ascend_xdsl.runtime.machine.core import Core
from ascend_xdsl.runtime.machine.flags import FlagState
from ascend_xdsl.runtime.machine.machine import Machine

HW = "atlas-a2-910b2"
FIG = cost_figures(HW)


@pytest.mark.parametrize("spec", instructions.INSTRUCTIONS, ids=lambda s: s.name)
def test_each_spec_binds_the_operands_of_its_op(spec):
    op = hw_level.INSTRUCTION_OPS[spec]
    assert op.name == spec.op_name
    assert op.SPEC is spec
    assert tuple(name for name, _ in op.get_irdl_definition().operands) == spec.operands
    for name in spec.properties:
        assert hasattr(op, name), (spec.name, name)
    for access in (*spec.reads, *spec.writes):
        assert {access.buffer, access.slot or access.buffer} <= set(spec.operands)
        assert access.unless_true in (None, *spec.operands)
    assert set(spec.timing_operands) <= set(spec.operands)
    assert set(spec.limits) == set(hw.isa.LIMITS.get(spec.name, {}))


def test_every_instruction_op_has_a_spec_and_the_memory_ops_are_the_data_instructions():
    instruction_ops = {op for op in hw_level.OPS if getattr(op, "SPEC", None) is not None}
    assert instruction_ops == set(hw_level.INSTRUCTION_OPS.values())
    assert {op.SPEC for op in hw_level.MEMORY_OPS} == set(instructions.DATA_INSTRUCTIONS)


def test_the_timing_operands_are_the_ones_the_cost_only_signatures_used():
    # The table compiled.py had by hand before the specs; a change here changes which loop
    # iterations the cost-only mode takes for equal.
    assert {
        hw_level.DataCopyOp: ("block_count", "block_len"),
        hw_level.FillOp: ("repeat", "block_num"),
        hw_level.Load3dOp: ("k_ext", "m_ext"),
        hw_level.Load2dOp: ("repeat",),
        hw_level.LoadBiasOp: ("length",),
        hw_level.MmadOp: ("m", "n", "k"),
        hw_level.FixpipeOp: ("m", "n"),
        hw_level.SetFlagOp: ("event",),
        hw_level.WaitFlagOp: ("event",),
    } == loop_signatures.TIMING_OPERANDS


def _index(v: int):
    return arith.ConstantOp(IntegerAttr(v, IndexType()))


def test_the_pipe_and_the_effects_of_an_op_come_from_its_spec():
    barrier = hw_level.PipeBarrierOp(Pipe.MTE1)
    assert barrier.pipe() == Pipe.MTE1
    zero = _index(0)
    assert hw_level.SetFlagOp(Pipe.MTE2, Pipe.M, zero).pipe() == Pipe.MTE2
    assert hw_level.WaitFlagOp(Pipe.MTE2, Pipe.M, zero).pipe() == Pipe.M
    assert hw_level.GetBlockIdxOp().pipe() == Pipe.S
    # An mmad whose init is the constant true does not read C; with any other init it does.
    ops = [_index(v) for v in (16, 16, 16)]
    for init, reads_c in ((1, False), (0, True)):
        flag = arith.ConstantOp(IntegerAttr(init, i1))
        mmad = hw_level.MmadOp(zero, zero, zero, zero, zero, zero, *ops, flag)
        assert mmad.pipe() == Pipe.M
        assert len(mmad.reads()) == (3 if reads_c else 2)
        assert [a.buffer for a in mmad.writes()] == [mmad.c]


# Occupancy is bytes over the rate plus the one-cycle issue gap; the fixed latency goes to
# completion. The load3d's 8-wide map with pads 1, 1, a 3-wide kernel and strideW 2 has Wout 4:
# a 16-position fractal switches rows 3 times (15 // 4), so n = 3, not the kernel height.
@pytest.mark.parametrize(
    ("effects", "expected", "latency"),
    [
        (Load3d.decode(4, 8, 32, 0, 64, 0, 32, (1, 1, 1, 1), (3, 3), (2, 2), (1, 1), False, 2)
         .effects("L1", 0, "L0B", 0),
         64 * 32 * 2 / FIG.load3d_bytes_per_cycle("L0B", 2, 3) + FIG.mte1_issue_gap_cycles,
         FIG.load3d_latency_cycles - FIG.mte1_issue_gap_cycles),
        (Load2d.decode(4, 1, False, 2).effects("L1", 0, "L0A", 0),
         4 * 256 * 2 / FIG.load2d_bytes_per_cycle("L0A") + FIG.mte1_issue_gap_cycles,
         FIG.load2d_latency_cycles - FIG.mte1_issue_gap_cycles),
        (Mmad.decode(32, 48, 64, 2).effects(("L0A", 0), ("L0B", 0), ("L0C", 0), True),
         2 * 3 * 4 + FIG.mmad_overhead_cycles,
         FIG.mmad_startup_latency_cycles - FIG.mmad_overhead_cycles),
    ],
    ids=["load3d", "load2d", "mmad"],
)  # fmt: skip
def test_an_instructions_cycles_are_its_cost_rule(effects, expected, latency):
    assert duration(FIG, effects) == pytest.approx(expected)
    assert completion_latency(FIG, effects) == pytest.approx(latency)


def test_both_machines_are_machines():
    target = hw.load(HW)
    cores = [Core(0, target), CostCore(0, target, timeline=Timeline(FIG))]
    for core in cores:
        machine: Machine = core
        assert callable(machine.handler(instructions.DATA_COPY))
        assert list(machine.loop(lambda i: (), 0, 4, 2, ())) in ([0, 2], [])
    with pytest.raises(ValueError, match="needs a timeline"):
        CostCore(0, target)


def _iteration(t: Timeline, flags: FlagState, copy, mmad) -> None:
    t.instruction(None, copy)
    flags.set(Pipe.MTE2, Pipe.M, 0)
    t.set_flag(Pipe.MTE2, Pipe.M, 0)
    flags.wait(Pipe.MTE2, Pipe.M, 0)
    t.wait_flag(Pipe.MTE2, Pipe.M, 0)
    t.instruction(None, mmad)
    t.scalar(3)


def test_advancing_by_a_steady_change_is_running_the_iterations():
    copy = DataCopy.decode(4, 64, 0, 0).effects(0, "L1", 0)
    mmad = Mmad.decode(128, 128, 128, 2).effects(("L0A", 0), ("L0B", 0), ("L0C", 0), True)
    warm = 3 * FIG.pipe_queue_depth  # until the queues are full and the issue stalls on them
    exact, exact_flags = Timeline(FIG), FlagState(6)
    for _ in range(warm + 4):
        _iteration(exact, exact_flags, copy, mmad)
    fast, fast_flags = Timeline(FIG), FlagState(6)
    states = []
    for _ in range(warm):
        _iteration(fast, fast_flags, copy, mmad)
        states.append(fast.snapshot())
    change = states[-1].minus(states[-2])
    assert change is not None and change.close_to(states[-2].minus(states[-3]))
    fast.advance(change, "4 iterations extrapolated", times=4)
    assert fast.snapshot().close_to(exact.snapshot())
    assert math.isclose(fast.cycles, exact.cycles)
    assert fast.slices[-1].label == "4 iterations extrapolated"
    assert fast_flags.counts() == exact_flags.counts()


def test_restoring_a_record_replays_what_it_recorded():
    copy = DataCopy.decode(4, 64, 0, 0).effects(0, "L1", 0)
    mmad = Mmad.decode(64, 64, 64, 2).effects(("L0A", 0), ("L0B", 0), ("L0C", 0), True)
    t, flags = Timeline(FIG), FlagState(6)
    for _ in range(3):
        _iteration(t, flags, copy, mmad)
    entry = t.snapshot()
    _iteration(t, flags, copy, mmad)
    record = t.snapshot().relative_to(entry)
    replayed, replayed_flags = Timeline(FIG), FlagState(6)
    for _ in range(3):
        _iteration(replayed, replayed_flags, copy, mmad)
    assert replayed.snapshot().clocks.key() == entry.clocks.key()
    replayed.restore(record, "replayed")
    assert replayed.snapshot().close_to(t.snapshot())
    growth = ((("MTE2", "M", 0), 1),)
    replayed_flags.add(growth, 2)
    assert replayed_flags.counts() == ((("MTE2", "M", 0), 2),)


def test_the_cost_model_interface_is_what_model_cost_calls():
    problem = shape_from_torch_args((1, 16, 2, 8, 8), (16, 16, 1, 3, 3), padding=(0, 1, 1))
    module = compiled_levels(problem, HW, "heuristic", 2, "")["hw"]
    (predicted,) = COST_ONLY.predict(module, hw.load(HW))
    (reported,) = model_cost(module, HW)
    # model_cost (the runner) also costs the whole operator around the launch; the launch's
    # own report is the same
    whole = reported.to_json()
    assert [k["name"] for k in whole.pop("kernels")][3] == "conv3d_bp_filter_kernel"
    assert whole.pop("end_to_end_seconds") > reported.seconds
    assert predicted.to_json() == whole
    with pytest.raises(ValueError, match="no function @nowhere"):
        COST_ONLY.predict(module, hw.load(HW), entry="nowhere")
