"""The tiling search with workers scoring ahead (tuning/speculate.py) decides exactly as the
sequential search: the same tuned tiling, cycles, counts and candidates in the same order,
whatever order the workers finish in."""

from __future__ import annotations

import math
import os
import random
import time

import pytest

from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.tuning import search, speculate
from ascend_xdsl.tuning.search import Score

HW = "atlas-a2-910b2"
BUDGET = 16

# (input, weight, stride, padding): small layers with different searches (kD cut and fused,
# a strided stem, a 1x1x1 GEMM).
LAYERS = {
    "3x3x3": ((2, 32, 6, 14, 14), (32, 32, 3, 3, 3), 1, 1),
    "rgb-stem": ((1, 3, 4, 32, 32), (16, 3, 3, 7, 7), (1, 2, 2), (1, 3, 3)),
    "1x1x1": ((1, 96, 4, 14, 14), (64, 96, 1, 1, 1), 1, 0),
}


def problem_of(name: str):
    x, w, s, p = LAYERS[name]
    return shape_from_torch_args(x, w, stride=s, padding=p)


def recorded_search(monkeypatch, problem, workers: int):
    """The search's result and its candidates in the order the search first scored them."""
    order: list[DwTiling] = []
    score = search._Search.score

    def recording(self, t, best=None):
        if t not in self.scores and search.fits(t, self.hw, self.cores):
            order.append(t)
        return score(self, t, best)

    with monkeypatch.context() as m:
        m.setattr(search._Search, "score", recording)
        result = search.search(problem, HW, budget=BUDGET, workers=workers)
    return result, order


def shuffled_completion(monkeypatch, seed: int) -> None:
    """Make the workers (forked processes, not this one) finish in a scrambled order: each
    result is held back a random time, different in each worker."""
    parent = os.getpid()
    outcome_of = speculate.outcome_of
    rng = random.Random(seed)

    def delayed(score, tiling, limit):
        if os.getpid() != parent:
            time.sleep(random.Random(hash((rng.random(), os.getpid()))).random() * 0.03)
        return outcome_of(score, tiling, limit)

    monkeypatch.setattr(speculate, "outcome_of", delayed)


@pytest.fixture(scope="module")
def sequential():
    mp = pytest.MonkeyPatch()
    try:
        return {name: recorded_search(mp, problem_of(name), 1) for name in LAYERS}
    finally:
        mp.undo()


@pytest.mark.parametrize("name", LAYERS)
@pytest.mark.parametrize("workers", [2, 3])
def test_parallel_search_is_the_sequential_search(monkeypatch, sequential, name, workers):
    shuffled_completion(monkeypatch, seed=workers)
    seq, seq_order = sequential[name]
    par, par_order = recorded_search(monkeypatch, problem_of(name), workers)
    assert (par.tuned, par.tuned_score) == (seq.tuned, seq.tuned_score)
    assert (par.heuristic, par.heuristic_score) == (seq.heuristic, seq.heuristic_score)
    assert (par.candidates, par.rejected) == (seq.candidates, seq.rejected)
    assert par_order == seq_order
    assert len(par_order) == seq.candidates


def test_workers_must_be_positive():
    with pytest.raises(ValueError, match="workers must be at least 1"):
        search.search(problem_of("1x1x1"), HW, budget=2, workers=0)


# -- the scorer alone, on a score function whose answers are known -------------------------
def _cycles(t: int) -> float:
    return float(1000 + (t * 7919) % 997)


def synthetic(t: int, limit: float) -> Score:
    """A score function with the cost model's limit semantics: sure to exceed the limit (the
    cycles are the only check) gives infinite cycles; every 13th tiling is rejected."""
    if t % 13 == 0:
        raise ValueError("rejected")
    if _cycles(t) > limit:
        return search.SLOWER
    return Score(_cycles(t), 0.5, "cube", "cube")


def test_answers_is_the_limit_rule():
    score = ("score", Score(10.0, 0.5, "cube", "cube"))
    assert speculate.answers(20.0, score, 30.0)  # no check passed 20, so none passes 30
    assert not speculate.answers(20.0, score, 10.0)  # with 10 a check might have
    assert speculate.answers(20.0, ("slower", None), 15.0)
    assert not speculate.answers(20.0, ("slower", None), 25.0)
    assert speculate.answers(math.inf, ("rejected", None), math.inf)
    assert not speculate.answers(math.inf, ("rejected", None), 5.0)


@pytest.mark.parametrize("seed", range(3))
def test_scorer_answers_every_request_as_a_direct_score(monkeypatch, seed):
    """Random plans that are often wrong (other tilings, other limits), requests in between:
    every answer is what scoring the request directly gives, in whatever order the workers
    finish; and some are answered from the workers' results."""
    shuffled_completion(monkeypatch, seed)
    rng = random.Random(seed)
    limits = [math.inf, 1200.0, 1500.0, 1800.0]
    requests = [(rng.randrange(60), rng.choice(limits)) for _ in range(80)]
    with speculate.Scorer(synthetic, workers=3) as scorer:  # type: ignore[arg-type]
        for n, (t, limit) in enumerate(requests):
            plan = requests[n + 1 : n + 5]
            if rng.random() < 0.3:  # a wrong guess
                plan = [(rng.randrange(60), rng.choice(limits)) for _ in range(4)]
            scorer.plan(plan)  # type: ignore[arg-type]
            assert scorer.outcome(t, limit) == speculate.outcome_of(synthetic, t, limit)  # type: ignore[arg-type]
        assert scorer.used > 0


# -- the worker count from the tools and the API ---------------------------------------------
@pytest.fixture
def seen_workers(monkeypatch, tmp_path):
    """The ``workers`` each search is started with (the real search, run with them)."""
    from ascend_xdsl.tuning import cached_search

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # a cache that holds nothing yet
    seen: list[int | None] = []
    real = cached_search.search

    def spy(*args, workers=None, **kwargs):
        seen.append(workers)
        return real(*args, workers=workers, **kwargs)

    monkeypatch.setattr(cached_search, "search", spy)
    return seen


TINY = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1"]


def test_ascend_conv_tune_workers_reach_the_search(seen_workers, capsys):
    from ascend_xdsl.tools import conv

    flags = ["bp-filter", *TINY, "--tiling", "tuned", "--no-cache", "--emit", "tiling"]
    assert conv.main([*flags, "--tune-workers", "2"]) == 0
    with_two = capsys.readouterr().out
    assert conv.main(flags) == 0  # the default: the search's own (1)
    assert conv.main([*flags, "--tune-workers", "1"]) == 0
    assert seen_workers == [2, None, 1]
    assert capsys.readouterr().out == with_two * 2  # the same tiling for every count


def test_ascend_tune_search_workers_reach_the_search(seen_workers, tmp_path, capsys):
    from ascend_xdsl.tools import tune as tune_cli

    layers = tmp_path / "layers.json"
    layers.write_text('[{"input": [1, 16, 2, 6, 6], "weight": [16, 16, 1, 3, 3]}]')
    args = [str(layers), "--no-cache", "--budget", "4", "--format", "json"]
    assert tune_cli.main([*args, "--search-workers", "3"]) == 0
    assert seen_workers == [3]


def test_api_tune_workers_reach_the_search(seen_workers):
    import numpy as np

    from ascend_xdsl.passes import tiling_options
    from ascend_xdsl.runtime.api import conv3d_weight

    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 16, 2, 7, 7)).astype(np.float16)
    dy = rng.standard_normal((1, 16, 2, 7, 7)).astype(np.float16)
    conv3d_weight(x, (16, 16, 1, 3, 3), dy, padding=(0, 1, 1), tiling="tuned", tune_workers=1)
    assert seen_workers == [1]
    assert tiling_options.search_workers() is None  # the setting ends with the call
    with pytest.raises(ValueError, match="tune workers must be at least 1"):
        conv3d_weight(x, (16, 16, 1, 3, 3), dy, padding=(0, 1, 1), tiling="tuned", tune_workers=0)
