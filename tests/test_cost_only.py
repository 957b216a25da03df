"""The cost-only mode (runtime/cost/cost_only.py) against the exact timeline of a full run.

The full run times every instruction while it simulates the data; the cost-only mode runs no
data and extrapolates or replays loop iterations. Where both can run they must agree within
1 % (here they agree exactly), on a matrix of kernels: both iterate orders, K streaming through
L1, several cores, fused Dk, groups, and tails in every dimension.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from ascend_xdsl.lowering.build import FORWARD_FUNC_NAME, shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, interpret_timed, model_cost, random_inputs
from ascend_xdsl.runtime.cost.cost_only import launches
from ascend_xdsl.runtime.forward import run_conv3d

HW = "atlas-a2-910b2"

MATRIX = {
    "order_m": ((2, 64, 6, 16, 16), (64, 64, 3, 3, 3), {"padding": 1}, 1, "", "separate"),
    "order_n": (
        (2, 64, 6, 16, 16), (64, 64, 3, 3, 3), {"padding": 1}, 1, "iterate_order=1", "separate",
    ),
    "streaming_k": (
        (1, 16, 2, 64, 64), (32, 16, 1, 3, 3), {"padding": (0, 1, 1)}, 1, "step_ka=1 step_kb=1",
        "separate",
    ),
    "cores": ((2, 64, 6, 16, 16), (64, 64, 3, 3, 3), {"padding": 1}, 4, "", "separate"),
    "fused_dk": ((2, 32, 6, 16, 16), (48, 32, 3, 3, 3), {"padding": 1}, 1, "", "fused"),
    "groups": ((2, 64, 4, 16, 16), (64, 16, 2, 3, 3), {"padding": 1, "groups": 4}, 1, "",
               "separate"),
    "tails": ((1, 40, 5, 15, 13), (24, 40, 2, 3, 3), {"padding": 1}, 2, "", "separate"),
    "default_layer": ((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), {"padding": 1}, None, "",
                      "separate"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_cost_only_agrees_with_the_full_run(name):
    x_shape, w, conv, cores, override, dk = MATRIX[name]
    problem = shape_from_torch_args(x_shape, w, **conv)
    levels = compiled_levels(problem, HW, "heuristic", cores, override, dk)
    x, dy = random_inputs(problem, 0)
    _, exact = interpret_timed(levels["hw"], HW, x, dy)
    (cost,) = model_cost(levels["hw"], HW, problem=problem)
    assert exact is not None
    assert cost.cycles == pytest.approx(exact.cycles, rel=0.01)
    for mine, theirs in zip(cost.cores, exact.cores, strict=True):
        assert mine.busy == pytest.approx(theirs.busy, rel=0.01)
        assert mine.instructions == theirs.instructions


FORWARD_MATRIX = {
    "padded": ((1, 128, 4, 16, 16), (64, 128, 3, 3, 3), {"padding": 1}, 1),
    "short_loops_replayed": ((1, 16, 6, 30, 30), (512, 16, 3, 3, 3), {"padding": 1}, 1),
    "cores_tails": ((2, 40, 5, 20, 18), (48, 40, 3, 3, 3), {"padding": 1}, 2),
    "deep_cin": ((1, 256, 3, 14, 14), (128, 256, 3, 3, 3), {"padding": 1}, 1),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(FORWARD_MATRIX))
def test_forward_cost_only_agrees_with_the_full_run(name):
    """The forward conv's walk (lowering/lower_api_to_hw/conv3d_walk.py) nests short loops
    (N tiles, kernel depths, Cin chunks) around its k steps: cost-only replays whole
    iterations of those, and must still agree with the full run's timeline."""
    x_shape, w_shape, conv, cores = FORWARD_MATRIX[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(np.float16)
    w = rng.standard_normal(w_shape).astype(np.float16)
    full = run_conv3d(x, w, None, **conv, hw=HW, cores=cores)
    (cost,) = model_cost(full.modules["hw"], HW, entry=FORWARD_FUNC_NAME, problem=full.problem)
    (exact,) = full.costs
    assert cost.cycles == pytest.approx(exact.cycles, rel=0.01)
    for mine, theirs in zip(cost.cores, exact.cores, strict=True):
        assert mine.busy == pytest.approx(theirs.busy, rel=0.01)
        assert mine.instructions == theirs.instructions
    assert cost.extrapolated > 0  # loop iterations were extrapolated or replayed


def test_a_layer_too_big_to_simulate_is_scored_without_its_data():
    """8x512x16x112x112 with a 512x512x3x3x3 weight: 2 GB of inputs and about 21 M instructions.
    Cost-only allocates none of it, and skips most of the work: loops repeat and cores repeat
    (the time it takes is measured by benchmarks/bench_cost_only.py, not here)."""
    problem = shape_from_torch_args((8, 512, 16, 112, 112), (512, 512, 3, 3, 3), padding=1)
    levels = compiled_levels(problem, HW, "heuristic", None, "")
    tracemalloc.start()
    (cost,) = model_cost(levels["hw"], HW, problem=problem)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 64 * 2**20  # no tensor, no core memory
    counted = sum(sum(core.instructions.values()) for core in cost.cores)
    assert counted > 20_000_000  # every instruction accounted for
    assert cost.extrapolated > 1_000  # loop iterations extrapolated or replayed
    assert 0 < cost.efficiency <= 1


def test_a_launch_inside_a_loop_is_refused():
    from xdsl.dialects import func, scf
    from xdsl.ir import Block, Region

    from ascend_xdsl.dialects.launch import LaunchOp

    problem = shape_from_torch_args((1, 16, 3, 6, 6), (16, 16, 2, 3, 3))
    module = compiled_levels(problem, HW, "heuristic", 1, "")["hw"].clone()
    entry = next(op for op in module.ops if isinstance(op, func.FuncOp))
    launch = next(op for op in entry.walk() if isinstance(op, LaunchOp))
    wrapper = scf.IfOp(_true(launch), [], Region(Block()))  # put the launch in an scf.if
    launch.parent_block().insert_op_before(wrapper, launch)
    launch.detach()
    wrapper.true_region.block.add_ops([launch, scf.YieldOp()])
    with pytest.raises(ValueError, match="top level of the entry function"):
        launches(entry)


def _true(before):
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr, i1

    const = arith.ConstantOp(IntegerAttr(1, i1))
    before.parent_block().insert_op_before(const, before)
    return const.result


def test_a_cycle_limit_stops_a_launch_sure_to_take_longer():
    """The tuner's pruning: a launch timed against a limit below its cycles stops with
    CycleLimitExceeded; against its own cycles (or more) it gives the same report."""
    from ascend_xdsl.runtime.cost.cost_only import CycleLimitExceeded

    problem = shape_from_torch_args((2, 64, 6, 16, 16), (64, 64, 3, 3, 3), padding=1)
    module = compiled_levels(problem, HW, "heuristic", 4, "")["hw"]
    (full,) = model_cost(module, HW, problem=problem)
    with pytest.raises(CycleLimitExceeded):
        model_cost(module, HW, problem=problem, cycle_limit=full.core_cycles * 0.9)
    (limited,) = model_cost(module, HW, problem=problem, cycle_limit=full.core_cycles)
    assert limited.to_json() == full.to_json()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_cycle_collector_is_paused_during_a_run_and_left_as_it_was(enabled, monkeypatch):
    """cost_only pauses Python's cycle collector while it runs (its many small tuples hold no
    cycles; the collections walked the growing heap) and leaves it as the caller had it."""
    import gc

    from ascend_xdsl.runtime.cost.cost_core import CostCore

    seen: list[bool] = []
    finish = CostCore.finish

    def watched(self):
        seen.append(gc.isenabled())
        finish(self)

    monkeypatch.setattr(CostCore, "finish", watched)
    problem = shape_from_torch_args((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), padding=1)
    module = compiled_levels(problem, HW, "heuristic", 1, "")["hw"]
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        model_cost(module, HW, problem=problem)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)


@pytest.mark.parametrize("limited", [False, True], ids=["finished", "stopped_by_a_cycle_limit"])
def test_a_run_leaves_no_core_behind_for_the_cycle_collector(limited):
    """Each core is released by the launch loop as soon as its cost is taken (or its run
    stops): its memos and handlers go, so reference counting frees it. A core is a reference
    cycle (its handlers are its bound methods), and the run pauses the cycle collector, so
    without the release every core of the run, with its memos, stayed alive for the next
    collection to walk; and the exception that stops a run carries no traceback into it. With
    the collector off throughout, no CostCore may be left."""
    import gc

    from ascend_xdsl.runtime.cost.cost_core import CostCore
    from ascend_xdsl.runtime.cost.cost_only import CycleLimitExceeded

    problem = shape_from_torch_args((2, 64, 6, 16, 16), (64, 64, 3, 3, 3), padding=1)
    module = compiled_levels(problem, HW, "heuristic", 4, "")["hw"]
    (full,) = model_cost(module, HW, problem=problem)
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, CostCore)]
    was = gc.isenabled()
    gc.disable()
    try:
        if limited:
            # the exception kept, as a caller may: its traceback must not hold the run
            with pytest.raises(CycleLimitExceeded) as stopped:
                model_cost(module, HW, problem=problem, cycle_limit=full.core_cycles * 0.9)
        else:
            (report,) = model_cost(module, HW, problem=problem)
            assert report.to_json() == full.to_json()
        left = sum(isinstance(o, CostCore) for o in gc.get_objects())
        if limited:
            assert "exceeds" in str(stopped.value)
    finally:
        if was:
            gc.enable()
    assert left == 0


def test_the_flag_counts_stay_sorted_as_events_are_added():
    """FlagState.sorted_counts (the cost-only snapshot's flags) sorts its events again only
    when one is added: it must equal the plain sorted counts after every set and wait."""
    from ascend_xdsl.runtime.machine.flags import FlagState

    flags = FlagState(8)
    steps = [
        ("set", "MTE2", "MTE1", 3), ("set", "M", "MTE1", 0), ("wait", "MTE2", "MTE1", 3),
        ("set", "FIX", "M", 1), ("set", "M", "MTE1", 0), ("set", "MTE1", "MTE2", 2),
        ("wait", "M", "MTE1", 0), ("set", "MTE2", "MTE1", 0),
    ]  # fmt: skip
    for kind, src, dst, event in steps:
        (flags.set if kind == "set" else flags.wait)(src, dst, event)
        plain = flags.counts()
        assert flags.sorted_counts() == (
            tuple(k for k, _ in plain),
            tuple(n for _, n in plain),
        )
    flags.add((((("M", "MTE1", 0)), 2),), times=3)
    assert flags.sorted_counts()[1] == tuple(n for _, n in flags.counts())
