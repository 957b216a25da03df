"""ir/collector.py: the cycle collector's settings around compiles, runs and candidates."""

import gc
import os
import threading
import time

import pytest

from ascend_xdsl.ir import collector
from ascend_xdsl.lowering.build import shape_from_torch_args

HW = "atlas-a2-910b2"


@pytest.fixture
def default_collector():
    """Python's defaults for the test, then what the process had."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(700, 10, 10)
    gc.enable()
    yield
    gc.set_threshold(*thresholds)
    (gc.enable if enabled else gc.disable)()


def test_fewer_collections_raises_the_young_threshold_and_puts_it_back(default_collector):
    with collector.fewer_collections():
        assert gc.get_threshold() == (collector.YOUNG, 10, 10)
        with collector.fewer_collections():
            assert gc.get_threshold() == (collector.YOUNG, 10, 10)
        assert gc.get_threshold() == (collector.YOUNG, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(RuntimeError), collector.fewer_collections():
        raise RuntimeError
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("young", [0, 10 * collector.YOUNG])
def test_fewer_collections_keeps_a_caller_s_rarer_setting(default_collector, young):
    gc.set_threshold(young, 5, 5)
    with collector.fewer_collections():
        assert gc.get_threshold() == (young, 5, 5)
    assert gc.get_threshold() == (young, 5, 5)


def test_paused_turns_the_collector_off_and_back_as_it_was(default_collector):
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    with collector.paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_overlapping_threads_leave_the_thresholds_as_they_found_them(default_collector):
    """Thread a enters, b enters, a leaves, b leaves: b must not put back a's setting."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen = []

    def a():
        with collector.fewer_collections():
            a_in.set()
            b_in.wait(10)
        a_out.set()

    def b():
        a_in.wait(10)
        with collector.fewer_collections():
            b_in.set()
            a_out.wait(10)
            seen.append(gc.get_threshold()[0])

    threads = [threading.Thread(target=f) for f in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen == [collector.YOUNG]
    assert gc.get_threshold() == (700, 10, 10)


def test_a_forked_child_gets_a_free_lock(default_collector):
    """A search forks its workers; another thread of the parent may hold the lock then."""
    collector._lock.acquire()
    try:
        pid = os.fork()
        if pid == 0:  # the child: must not wait for the parent's holder
            with collector.fewer_collections():
                os._exit(0 if gc.get_threshold()[0] == collector.YOUNG else 1)
    finally:
        collector._lock.release()
    deadline = time.monotonic() + 30
    while not (ended := os.waitpid(pid, os.WNOHANG))[0]:
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child waited for the parent's lock")
        time.sleep(0.01)
    assert os.waitstatus_to_exitcode(ended[1]) == 0


def test_compiles_runs_and_candidates_run_with_fewer_collections(default_collector, monkeypatch):
    """The three places that make IR and simulator objects in bulk: a compile, a data run and
    a tiling candidate (compiled, then timed cost-only)."""
    from ascend_xdsl.hw import load
    from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling
    from ascend_xdsl.passes.insert_sync import InsertSyncPass
    from ascend_xdsl.runtime.api import compiled_levels, interpret, random_inputs
    from ascend_xdsl.runtime.cost.cost_core import CostCore
    from ascend_xdsl.runtime.machine.core import Core
    from ascend_xdsl.tuning.search import score_tiling

    seen: dict[str, list[int]] = {"compile": [], "run": [], "candidate": []}

    def watch(cls, name, what):
        inner = getattr(cls, name)

        def watched(self, *args):
            seen[what].append(gc.get_threshold()[0])
            return inner(self, *args)

        monkeypatch.setattr(cls, name, watched)

    watch(InsertSyncPass, "apply", "compile")
    watch(Core, "finish", "run")
    watch(CostCore, "finish", "candidate")
    problem = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=(0, 1, 1))
    module = compiled_levels(problem, HW, "heuristic", 2, "")["hw"]
    interpret(module, HW, *random_inputs(problem, 0))
    score_tiling(problem, HW, heuristic_tiling(problem, load(HW), 2))
    for what, thresholds in seen.items():
        assert thresholds and set(thresholds) == {collector.YOUNG}, what
    assert gc.get_threshold() == (700, 10, 10)
