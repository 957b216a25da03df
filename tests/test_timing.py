"""The timing backend (runtime/cost/timing.py) and the cost report (runtime/cost/report.py).

Hand-built instruction streams check the model's rules: pipes overlap unless a flag orders
them, a flag arrives after its source pipe's earlier work, the critical path adds up to the
makespan. Compiled kernels check that both executors time the same program the same way and
that the report answers sensibly (never above peak, more work costs more).
"""

from __future__ import annotations

import pytest

from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.hw.instructions import DataCopy, Mmad
from ascend_xdsl.hw.isa import Pipe
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, interpret_timed, random_inputs
from ascend_xdsl.runtime.cost.timing import (
    Timeline,
    completion_latency,
    duration,
    l2_share,
    mmad_cycles,
)
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS

HW = "atlas-a2-910b2"
FIG = cost_figures(HW)
COPY = DataCopy.decode(4, 512, 0, 0).effects(0, "L1", 0)  # 64 KiB GM -> L1
BIG_COPY = DataCopy.decode(16, 1024, 0, 0).effects(0, "L1", 0)  # 512 KiB GM -> L1
MMAD = Mmad.decode(128, 128, 128, 2).effects(("L0A", 0), ("L0B", 0), ("L0C", 0), True)


def test_mmad_cycles_are_fractals_over_the_cube():
    # 16-bit: one 16x16x16 step per cycle (4096 MACs), plus the head overhead.
    assert mmad_cycles(FIG, 128, 128, 128, 2) == 8 * 8 * 8 + FIG.mmad_overhead_cycles
    assert mmad_cycles(FIG, 17, 16, 16, 2) == 2 + FIG.mmad_overhead_cycles  # whole fractals
    # float32: a quarter of the MACs, so four times the K steps.
    assert mmad_cycles(FIG, 16, 16, 16, 4) == 4 + FIG.mmad_overhead_cycles


def test_copies_share_the_chips_l2_between_the_cores_of_a_launch():
    # hicann/runtime Ascend910B2.ini: l2_rate 110 B/cycle per core, 24 cores; the chip's total
    # divides among the cores running at once.
    assert l2_share(FIG, 24) == pytest.approx(110)
    assert l2_share(FIG, 48) == pytest.approx(110)  # at most every core runs at once
    assert l2_share(FIG, 2) == pytest.approx(110 * 12)
    # msKPP's single-core curve: 176.28 GiB/s = 105.2 B/cycle at 64 KB, below the 24-core share,
    # so the curve binds there; 261.86 GiB/s = 156.2 B/cycle at 512 KB, above it
    alone = FIG.mte2_bytes_per_cycle(64 * 1024)
    assert alone == pytest.approx(176.28 * 2**30 / 1.8e9)
    assert duration(FIG, COPY) == pytest.approx(64 * 1024 / alone)
    assert duration(FIG, COPY, l2_share(FIG, 24)) == duration(FIG, COPY)
    big = 512 * 1024
    assert duration(FIG, BIG_COPY) == pytest.approx(big / FIG.mte2_bytes_per_cycle(big))
    assert duration(FIG, BIG_COPY, l2_share(FIG, 24)) == pytest.approx(big / 110)
    assert duration(FIG, BIG_COPY, l2_share(FIG, 2)) == duration(FIG, BIG_COPY)
    assert Timeline(FIG, l2_share(FIG, 24)).cost_of(BIG_COPY)[1] == pytest.approx(big / 110)


def test_pipes_overlap_without_a_flag():
    t = Timeline(FIG)
    t.instruction(None, COPY)
    t.instruction(None, MMAD)
    copy, mmad = duration(FIG, COPY), duration(FIG, MMAD)
    # each completes its latency after its occupancy: the makespan is the later completion
    copy_done = copy + completion_latency(FIG, COPY)
    mmad_done = mmad + completion_latency(FIG, MMAD)
    assert t.cycles < copy_done + mmad_done
    assert t.cycles == pytest.approx(max(copy_done, mmad_done) + FIG.scalar_op_cycles, abs=2)


def test_latency_is_not_occupancy_back_to_back_loads_overlap_it():
    """pypto's pipe model (CalcLoad3d): the next load issues right after the previous one's
    occupancy; only the last one's latency shows in the makespan."""
    from ascend_xdsl.hw.instructions import Load3d

    load = Load3d.decode(8, 32, 16, 0, 144, 0, 256, (1, 1, 1, 1), (3, 3), (1, 1), (1, 1),
                         False, 2).effects("L1", 0, "L0B", 0)  # fmt: skip
    t = Timeline(FIG)
    for _ in range(4):
        t.instruction(None, load)
    occupancy = duration(FIG, load)
    assert t.busy[Pipe.MTE1] == pytest.approx(4 * occupancy)
    assert t.slices[1].start == pytest.approx(t.slices[0].end)
    assert t.cycles == pytest.approx(4 * occupancy + completion_latency(FIG, load))


def test_a_flag_orders_two_pipes_and_the_critical_path_says_so():
    t = Timeline(FIG)
    t.instruction(None, COPY)
    t.set_flag(Pipe.MTE2, Pipe.M, 0)
    t.wait_flag(Pipe.MTE2, Pipe.M, 0)
    t.instruction(None, MMAD)
    copy_done = t.slices[0].end + FIG.mte2_latency_cycles  # the flag fires on completion
    mmad = t.slices[1]
    assert mmad.start == pytest.approx(copy_done + FIG.flag_latency_cycles)
    path = t.critical_path()
    assert sum(path.values()) == pytest.approx(t.cycles)
    # an instruction's latency is its pipe's time on the path
    assert path["MTE2"] == pytest.approx(duration(FIG, COPY) + FIG.mte2_latency_cycles)
    assert path["M"] == pytest.approx(duration(FIG, MMAD) + completion_latency(FIG, MMAD))
    assert path["flag"] == pytest.approx(FIG.flag_latency_cycles)


def test_a_set_fires_after_the_wait_that_precedes_it_on_its_pipe():
    """wait MTE2->M then set M->FIX with no M work between: FIX may start only after the
    MTE2 work arrived, plus two flag latencies."""
    t = Timeline(FIG)
    t.instruction(None, COPY)
    t.set_flag(Pipe.MTE2, Pipe.M, 0)
    t.wait_flag(Pipe.MTE2, Pipe.M, 0)
    t.set_flag(Pipe.M, Pipe.FIX, 0)
    t.wait_flag(Pipe.M, Pipe.FIX, 0)
    fix = Mmad.decode(16, 16, 16, 2)  # any instruction; only its start matters
    t.instruction(
        None, fix.effects(("L0A", 0), ("L0B", 0), ("L0C", 0), True)._replace(pipe=Pipe.FIX)
    )
    copy_done = t.slices[0].end + FIG.mte2_latency_cycles
    assert t.slices[-1].start == pytest.approx(copy_done + 2 * FIG.flag_latency_cycles)


def test_a_stall_on_a_full_queue_stays_on_the_critical_path():
    """The scalar unit waits for room in MTE2's full queue; the Cube instruction issued after
    that starts when issued, so it waited, through the issue, for the copy that freed the
    slot: the critical path follows it to the copies, not to the scalar unit."""
    t = Timeline(FIG)
    depth = FIG.pipe_queue_depth
    for _ in range(depth + 2):  # the last waits for the second to start
        t.instruction(None, COPY)
    t.instruction(None, MMAD)
    mmad = t.slices[-1]
    assert mmad.start == pytest.approx(t.slices[1].start + FIG.scalar_op_cycles)
    assert mmad.cause == 1 and mmad.cause_pipe == Pipe.S
    path = t.critical_path()
    assert sum(path.values()) == pytest.approx(t.cycles)
    # before: the MMAD's issue ended the chain and the copies' time counted as "S"
    assert path["S"] < 3 * FIG.scalar_op_cycles
    assert path["MTE2"] >= duration(FIG, COPY)


def _cost(x_shape, w_shape, executor="compiled", cores=1, **conv):
    problem = shape_from_torch_args(x_shape, w_shape, **conv)
    levels = compiled_levels(problem, HW, "heuristic", cores, "")
    x, dy = random_inputs(problem, 0)
    _, cost = interpret_timed(levels["hw"], HW, x, dy, executor)
    assert cost is not None
    cost.flops = 2.0 * problem.macs
    return cost


def test_both_executors_time_the_same_program_the_same_way():
    costs = [_cost((1, 32, 3, 8, 8), (32, 32, 2, 3, 3), e, cores=2, padding=1) for e in EXECUTORS]
    assert costs[0].to_json() == costs[1].to_json()


def test_the_report_is_sane():
    cost = _cost((2, 64, 4, 14, 14), (64, 64, 3, 3, 3), padding=1)
    assert 0 < cost.efficiency <= 1
    report = cost.to_json()
    for key in ("cycles", "seconds", "flops", "tflops", "peak_tflops", "efficiency", "bound",
                "bottleneck", "pipes", "cores"):  # fmt: skip
        assert key in report
    assert report["pipes"]["cube"]["busy_cycles"] > 0
    assert cost.slowest.cycles == pytest.approx(sum(cost.slowest.critical.values()))
    doubled = _cost((4, 64, 4, 14, 14), (64, 64, 3, 3, 3), padding=1)
    assert 1.6 < doubled.cycles / cost.cycles < 2.4  # twice the batch on one core


def test_no_pipe_waits_on_the_path_for_longer_than_it_is_busy_on_a_dx_kernel():
    """dX's default-like layer (its queues fill and its replayed loops stall the issue):
    the scalar unit's share of the critical path cannot exceed the cycles it is busy. Before
    the issue stalls were followed, 89% of the path was charged to the scalar unit, which is
    busy a third of the time, and the summary said "latency bound (waits on scalar)"."""
    from ascend_xdsl.lowering.build import INPUT_GRAD_FUNC_NAME, build_input_grad_module
    from ascend_xdsl.lowering.options import CompileOptions
    from ascend_xdsl.lowering.pipeline import compile_levels
    from ascend_xdsl.runtime.cost.model import COST_ONLY

    problem = shape_from_torch_args((1, 64, 8, 28, 28), (64, 64, 3, 3, 3), padding=1)
    options = CompileOptions.create(hw=HW)
    module = compile_levels(build_input_grad_module(problem), options, verify=False)["hw"]
    (report,) = COST_ONLY.predict(module, options.hw, problem=problem, entry=INPUT_GRAD_FUNC_NAME)
    for pipe, figures in report.pipes.items():
        assert figures["critical_cycles"] <= figures["busy_cycles"] * 1.5 + 500, pipe
    assert report.bottleneck == "cube"
