"""The tiling search (tuning/search.py), its cache, and strategy=tuned through the pipeline.

The tuned tilings are checked where it matters: they fit the hardware, they are never slower than
the heuristic's (which is always a candidate), the same search gives the same answer, and the
simulator runs them in full with dW equal to the reference.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import replace

import numpy as np
import pytest
from xdsl.utils.exceptions import PassFailedException, VerifyException

from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import CompileError, compile_levels
from ascend_xdsl.passes import tiling_options
from ascend_xdsl.passes.core_split import core_splits, split_axes
from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling
from ascend_xdsl.runtime.api import model_cost, random_inputs, run_compiled
from ascend_xdsl.runtime.reference import conv3d_weight_reference
from ascend_xdsl.tools.conv import ir_text
from ascend_xdsl.tuning import cache, cached_search, search
from ascend_xdsl.tuning.search import KNOBS, knob_values, repaired, score_tiling

HW = "atlas-a2-910b2"
BUDGET = 14

# (input, weight, stride, padding, dilation, groups): small enough to simulate in full.
SMALL = {
    "3x3x3": ((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), 1, 1, 1, 1),
    "wide-cout": ((1, 16, 3, 6, 6), (48, 16, 3, 3, 3), 1, 1, 1, 1),
    "stride-2": ((2, 16, 5, 9, 9), (32, 16, 3, 3, 3), 2, 1, 1, 1),
    "groups-2": ((1, 32, 4, 6, 6), (32, 16, 3, 3, 3), 1, 1, 1, 2),
    "depthwise": ((1, 32, 4, 6, 6), (32, 1, 3, 3, 3), 1, 1, 1, 32),
    "dilated": ((1, 16, 6, 9, 9), (16, 16, 3, 3, 3), 1, 2, 2, 1),
    "rgb-stem": ((1, 3, 4, 16, 16), (16, 3, 3, 7, 7), (1, 2, 2), (1, 3, 3), 1, 1),
    "tubelet": ((1, 3, 4, 32, 32), (32, 3, 2, 16, 16), (2, 16, 16), 0, 1, 1),
}


def problem_of(name: str):
    x, w, s, p, d, g = SMALL[name]
    return shape_from_torch_args(x, w, stride=s, padding=p, dilation=d, groups=g)


@pytest.fixture(scope="module")
def results():
    """One small-budget search per small layer, shared by the tests below."""
    return {name: search.search(problem_of(name), HW, budget=BUDGET) for name in SMALL}


@pytest.mark.parametrize("name", SMALL)
def test_tuned_never_slower_and_heuristic_is_a_candidate(results, name):
    r = results[name]
    problem = problem_of(name)
    assert r.heuristic == heuristic_tiling(problem, load_hw(HW), load_hw(HW).aic_count)
    assert r.heuristic_score == score_tiling(problem, HW, r.heuristic)
    assert r.tuned_score.cycles <= r.heuristic_score.cycles
    assert r.tuned_score == score_tiling(problem, HW, r.tuned)
    # The budget, and the late descent's share beyond it.
    assert 1 <= r.candidates <= BUDGET + math.ceil(BUDGET * search.LATE_SHARE)


@pytest.mark.parametrize("name", SMALL)
def test_tuned_tiling_fits_the_hardware(results, name):
    t, hw = results[name].tuned, load_hw(HW)
    assert t.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size) == []
    assert t.core_num <= hw.aic_count


def test_search_finds_a_faster_tiling_for_the_default_layer():
    """The heuristic's choice is mte1-bound on this layer; the descent beats it by more than
    5 % in the model within 24 candidates (1.08x: a budget this small is shared between the
    descents of the kD-cut and the kD-fused starts; the old single descent reached 1.16x)."""
    problem = shape_from_torch_args((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), padding=1)
    r = search.search(problem, HW, budget=24)
    assert r.speedup > 1.05


def test_pruning_by_the_best_so_far_changes_no_result(results, monkeypatch):
    """Candidates are timed only until they are sure to be slower than the best so far; timing
    every one in full gives the same search."""
    pruned = results["stride-2"]
    full_score = search.score_tiling
    monkeypatch.setattr(search, "score_tiling", lambda p, hw, t, limit=0.0: full_score(p, hw, t))
    unpruned = search.search(problem_of("stride-2"), HW, budget=BUDGET)
    assert (unpruned.tuned, unpruned.tuned_score) == (pruned.tuned, pruned.tuned_score)
    assert unpruned.candidates == pruned.candidates


def test_search_is_deterministic(results):
    problem = problem_of("stride-2")
    again = search.search(problem, HW, budget=BUDGET)
    assert again.tuned == results["stride-2"].tuned
    assert again.tuned_score == results["stride-2"].tuned_score


@pytest.mark.parametrize("name", SMALL)
def test_simulator_runs_the_tuned_tiling_and_matches_the_reference(results, name):
    """The tuned tiling compiled with every level verified, run in full by the simulator: dW
    equals the plain loop nest, and the full run's exact timeline is the cost-only score."""
    problem = problem_of(name)
    modules = compile_levels(
        build_module(problem), CompileOptions.create(hw=HW, tiling=results[name].tuned)
    )
    run = run_compiled(modules, problem, hw=HW, seed=3)
    assert run.check.ok, run.check.describe()
    x, dy = random_inputs(problem, 3)
    expect = conv3d_weight_reference(
        x, dy, problem.weight_shape, problem.strides, problem.pads, problem.dilations,
        problem.groups, accumulate=np.float64,
    )  # fmt: skip
    np.testing.assert_allclose(run.grad_weight, expect, rtol=1e-2, atol=1e-2)
    assert run.cost is not None
    assert run.cost.cycles == pytest.approx(results[name].tuned_score.cycles, rel=0.01)


def test_fused_dk_tiling_runs_in_full():
    """A Dk-fused candidate (the heuristic's with kD in N) through the simulator."""
    problem = problem_of("3x3x3")
    fused = heuristic_tiling(problem, load_hw(HW), 24, fuse_dk=True)
    assert fused.fused_dk
    run = run_compiled(
        compile_levels(build_module(problem), CompileOptions.create(hw=HW, tiling=fused)),
        problem,
        hw=HW,
    )
    assert run.check.ok


def test_core_splits_cover_the_problem_and_rank_by_work():
    problem = problem_of("stride-2")
    splits = core_splits(split_axes(problem, fuse_dk=False), 24)
    assert len({s for s in splits}) == len(splits)
    works = [
        s.batch_share * s.group_share * s.dk_share * s.cout_share * s.cin1_share * s.ho_share
        for s in splits
    ]
    assert works == sorted(works)
    assert all(s.cores <= 24 for s in splits)
    b, g, d, m, n, k = (
        problem.batch * problem.dout, 1, problem.kd, 32, 1, problem.ho
    )  # fmt: skip
    for s in splits:
        assert s.batch_dim * s.batch_share >= b and s.group_dim * s.group_share >= g
        assert s.dk_dim * s.dk_share >= d and s.m_dim * s.cout_share >= m
        assert s.n_dim * s.cin1_share >= n and s.k_dim * s.ho_share >= k


def test_every_knob_has_values_and_repair_makes_them_fit(results):
    t, hw = results["wide-cout"].tuned, load_hw(HW)
    for knob in [k for k in KNOBS if k != "split"]:  # the split's moves: test_search_space.py
        values = list(knob_values(t, knob))
        assert values, knob
        for assignment in values:
            for v in repaired(search.apply_overrides(t, assignment), hw, 24):
                assert v.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size) == []
    with pytest.raises(ValueError, match="unknown tiling knob"):
        list(knob_values(t, "nope"))


def test_search_rejects_bad_cores():
    with pytest.raises(ValueError, match=r"cores must be in \[1, 24\]"):
        search.search(problem_of("3x3x3"), HW, cores=99)


# -- compile_levels with a DwTiling, and strategy=tuned ---------------------------------------
def test_compile_with_a_dwtiling_is_the_fixed_file(tmp_path, results):
    problem = problem_of("groups-2")
    t = results["groups-2"].tuned
    path = tmp_path / "t.mlir"
    from ascend_xdsl.dialects.attributes import DwTilingAttr

    path.write_text(str(DwTilingAttr(t)))
    by_file = compile_levels(
        build_module(problem), CompileOptions.create(hw=HW, tiling=f"fixed:{path}")
    )
    direct = compile_levels(build_module(problem), CompileOptions.create(hw=HW, tiling=t))
    fast = compile_levels(
        build_module(problem), CompileOptions.create(hw=HW, tiling=t), verify=False
    )
    assert set(fast) == {"hw"}
    assert ir_text(direct["hw"]) == ir_text(by_file["hw"]) == ir_text(fast["hw"])


def test_compile_with_a_dwtiling_checks_it_against_the_hardware(results):
    t = replace(results["3x3x3"].tuned, base_m=512, base_n=512)
    with pytest.raises((PassFailedException, VerifyException), match=r"L0[AC] overflow"):
        compile_levels(build_module(problem_of("3x3x3")), CompileOptions.create(hw=HW, tiling=t))


def test_strategy_tuned_goes_through_the_search_table():
    problem = problem_of("3x3x3")
    expect = cached_search.tune(problem, HW, 2).tuned
    modules = compile_levels(
        build_module(problem), CompileOptions.create(hw=HW, tiling="tuned", cores=2)
    )
    (op,) = [o for o in modules["api"].walk() if o.name == "ascend.init"]
    assert op.tiling.tiling == expect  # type: ignore[attr-defined]


def test_strategy_tuned_with_a_search_that_cannot_load(monkeypatch):
    monkeypatch.setitem(tiling_options.SEARCHES, "tuned", ("ascend_xdsl.tuning.nope", "tune"))
    with pytest.raises(CompileError, match=r"strategy=tuned needs its search .*cannot be loaded"):
        compile_levels(
            build_module(problem_of("3x3x3")), CompileOptions.create(hw=HW, tiling="tuned")
        )


# -- the cache --------------------------------------------------------------------------------
def test_cache_hit_bypass_and_keys(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    problem = problem_of("3x3x3")
    first = cached_search.tune(problem, HW, 4, budget=6)
    assert not first.cached
    (path,) = (tmp_path / "ascend-xdsl" / "tuning").glob("*.json")
    second = cached_search.tune(problem, HW, 4, budget=6)
    assert second.cached and second.tuned == first.tuned
    assert second.tuned_score == first.tuned_score
    assert not cached_search.tune(problem, HW, 4, budget=6, use_cache=False).cached
    path.write_text("{ not json")
    assert not cached_search.tune(problem, HW, 4, budget=6).cached  # an unreadable file is a miss
    keys = {
        cache.cache_key(problem, HW, 4, 6),
        cache.cache_key(problem, "atlas-a2-910b1", 4, 6),
        cache.cache_key(problem, HW, 8, 6),
        cache.cache_key(problem, HW, 4, 7),
        cache.cache_key(replace(problem, dtype="bf16"), HW, 4, 6),
        cache.cache_key(problem_of("stride-2"), HW, 4, 6),
    }
    assert len(keys) == 6
    assert cache.compiler_version().count("+") == 1


def test_unwritable_cache_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file, so no folder can be made
    assert not cached_search.tune(problem_of("3x3x3"), HW, 2, budget=3).cached


def test_result_json_round_trip(results):
    r = results["dilated"]
    back = search.TuneResult.from_json(json.loads(json.dumps(r.to_json())))
    assert back.tuned == r.tuned and back.heuristic == r.heuristic
    assert back.tuned_score == r.tuned_score and back.candidates == r.candidates
    assert isinstance(back.tuned, DwTiling)


# -- the progress bar -------------------------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cached_search, "PROGRESS_AFTER", 0.0)
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    cached_search.tune(problem_of("3x3x3"), HW, 3, budget=4, progress=True)
    assert "tuning" in terminal.getvalue()
    pipe = io.StringIO()
    monkeypatch.setattr("sys.stderr", pipe)
    cached_search.tune(problem_of("3x3x3"), HW, 3, budget=4, progress=True, use_cache=False)
    assert pipe.getvalue() == ""


def test_cost_only_of_a_tuned_tiling_is_its_score(results):
    problem = problem_of("wide-cout")
    modules = compile_levels(
        build_module(problem), CompileOptions.create(hw=HW, tiling=results["wide-cout"].tuned)
    )
    (report,) = model_cost(modules["hw"], HW, problem=problem)
    assert report.cycles == results["wide-cout"].tuned_score.cycles
