"""``tune``: the cached tiling search of one layer, the search behind ``strategy=tuned``.

:func:`tune` looks the layer up in the on-disk cache (``tuning/cache.py``), else runs the search
(``tuning/search.py``) with an optional progress bar and caches its answer. The tiler's
``strategy=tuned`` names it in ``passes/tiling_options.SEARCHES`` and imports it when the
strategy first runs, so ``--tiling tuned``, ``tiling="tuned"`` in the Python API and
``ascend-tune`` all reach this one function. :func:`cached` reads the cache's answer without
ever searching.

A cache entry is data from disk and is checked before it is used (:func:`verified`); a bad
one is discarded with a one-line warning (the ``ascend_xdsl.tuning`` logger, which prints on
standard error when nothing else is configured) and the search runs again. What it trusts
and what it checks is in docs/runtime.md, "The tuning cache".
"""

from __future__ import annotations

import logging
import math
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from tqdm import tqdm

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.op_level import tiling_problem_mismatch
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.passes.tiling_options import search_workers
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.search import (
    BUDGET,
    SLOWER,
    Score,
    SearchResult,
    TuneResult,
    fits,
    heuristic_candidates,
    score_tiling,
    search,
)
from ascend_xdsl.tuning.transfer import transferred_start

LOG = logging.getLogger("ascend_xdsl.tuning")

RESCORE_TOLERANCE = 1e-9
"""Relative difference allowed between the cycles an entry claims and its re-score (the cost
model is deterministic: the same compiler gives the same cycles)."""


class BadCacheEntry(ValueError):
    """A cache entry whose content does not hold up (see :func:`verified`)."""


def _tiling_error(
    name: str, tiling: DwTiling, problem: ConvBpFilterShape, hw: HwConfig, cores: int
) -> str | None:
    """Why ``tiling`` could not have come out of the search of ``problem``: another layer's,
    or one the search would have dropped (``search.fits``: the buffers, every core busy and
    at most ``cores`` of them)."""
    mismatch = tiling_problem_mismatch(problem, tiling)
    if mismatch is not None:
        return f"{name} {mismatch}"
    errors = tiling.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size)
    if errors:
        return f"{name} tiling is illegal: {errors[0]}"
    if not fits(tiling, hw, cores):
        return f"{name} tiling uses {tiling.core_num} cores, the request has {cores}"
    return None


def _cycles_error(name: str, claimed: Score) -> str | None:
    cycles = claimed.cycles
    number = isinstance(cycles, int | float) and not isinstance(cycles, bool)
    if number and math.isfinite(cycles) and cycles > 0:
        return None
    return f"{name} cycles {cycles!r} are not a positive finite number"


def _rescored(
    name: str, claimed: Score, problem: ConvBpFilterShape, hw: str, tiling: DwTiling
) -> Score:
    """The cost model's score of ``tiling`` if it agrees with the one ``claimed`` (whose
    cycles :func:`_cycles_error` has checked)."""
    limit = claimed.cycles * (1 + RESCORE_TOLERANCE) + 1
    try:
        score = score_tiling(problem, hw, tiling, cycle_limit=limit)
    except Exception as e:  # what the search counts as a rejected candidate
        raise BadCacheEntry(f"{name} tiling cannot be compiled and timed ({e})") from None
    if score is SLOWER or abs(score.cycles - claimed.cycles) > RESCORE_TOLERANCE * score.cycles:
        measured = "more than that" if score is SLOWER else f"{score.cycles:g}"
        raise BadCacheEntry(
            f"{name} claims {claimed.cycles:g} cycles, the cost model gives {measured}"
        )
    return score


def count_error(result: SearchResult[Any]) -> str | None:
    """What is wrong with a cached result's counts (candidates, rejected) or its seconds, or
    None: the first check of both ops' entries."""
    for name in ("candidates", "rejected"):
        value = getattr(result, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"{name} {value!r} is not a count"
    if not isinstance(result.seconds, int | float) or not 0 <= result.seconds < math.inf:
        return f"seconds {result.seconds!r} is not a duration"
    return None


def verified(data: dict[str, Any], problem: ConvBpFilterShape, hw: str, cores: int) -> TuneResult:
    """The cached result ``data`` of the search of ``problem`` on ``hw`` over ``cores``, if it
    holds up; :class:`BadCacheEntry` naming the first thing that does not.

    Checked: the layout and kinds of every field; both tilings are tilings of ``problem`` that
    pass the search's own legality check; the heuristic's is the one the heuristic gives now;
    the tuned one is not slower; each claimed cycle count is a positive finite number that a
    re-score by the cost-only mode reproduces (the scores returned are the re-scores). Not
    checked: that the tuned tiling is the best the search would find (that takes the search).
    """
    try:
        result = TuneResult.from_json(data, cached=True)
    except (KeyError, TypeError, ValueError) as e:
        raise BadCacheEntry(f"is not a search result ({e})") from None
    if (error := count_error(result)) is not None:
        raise BadCacheEntry(error)
    config = load_hw(hw)
    sides = (
        ("heuristic", result.heuristic, result.heuristic_score),
        ("tuned", result.tuned, result.tuned_score),
    )
    for name, tiling, claimed in sides:  # the cheap checks first, the re-scores last
        error = _cycles_error(name, claimed) or _tiling_error(name, tiling, problem, config, cores)
        if error is not None:
            raise BadCacheEntry(error)
    if result.heuristic != heuristic_candidates(problem, config, cores)[0]:
        raise BadCacheEntry("heuristic tiling is not the one the heuristic gives")
    heuristic = _rescored("heuristic", result.heuristic_score, problem, hw, result.heuristic)
    same = result.tuned == result.heuristic and result.tuned_score == result.heuristic_score
    tuned = heuristic if same else _rescored("tuned", result.tuned_score, problem, hw, result.tuned)
    if tuned.cycles > heuristic.cycles:
        raise BadCacheEntry("tuned tiling is slower than the heuristic's, which the search keeps")
    result.heuristic_score, result.tuned_score = heuristic, tuned
    return result


PROGRESS_AFTER = 2.0
"""Seconds a search runs before its progress bar appears (on a terminal only)."""

R = TypeVar("R")


def with_progress(
    run: Callable[[Callable[[int], None]], R],
    budget: int,
    desc: str,
    progress: bool,
    on_candidate: Callable[[int], None] | None,
) -> R:
    """``run(scored)``, a search that calls ``scored(n)`` after its n-th candidate, with a bar
    of ``budget`` candidates named ``desc`` on standard error when ``progress`` is on, it is a
    terminal and the search lasts over :data:`PROGRESS_AFTER` seconds; ``on_candidate(n)`` is
    called after each candidate too. The dW :func:`tune` and the forward ``tune_forward``."""
    bar = tqdm(
        total=budget,
        desc=desc,
        unit="candidate",
        file=sys.stderr,
        delay=PROGRESS_AFTER,
        leave=False,
        disable=not (progress and sys.stderr.isatty()),
    )

    def scored(n: int) -> None:
        bar.update(n - bar.n)
        if on_candidate is not None:
            on_candidate(n)

    try:
        return run(scored)
    finally:
        bar.close()


def tune(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
    use_cache: bool = True,
    progress: bool = False,
    on_candidate: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> TuneResult:
    """The heuristic's and the tuned tiling of ``problem`` on ``hw`` with ``cores`` cores (None:
    all), from the cache unless ``use_cache`` is False (the answer is then stored again). A
    search with the cache on also starts from the tuned tiling of the nearest cached layer that
    differs only in batch or spatial size, rescaled (``tuning/transfer.py``).

    ``progress`` shows a bar on standard error when it is a terminal and the search lasts over
    :data:`PROGRESS_AFTER` seconds; nothing is ever written to standard output.
    ``on_candidate(n)`` is called after the n-th candidate is scored (``ascend-tune``'s bar).
    ``workers``: the processes the search scores in (``search.search``); None: the process's
    setting (``tiling_options.using_search_workers``), else 1.
    """
    cores = cores or load_hw(hw).aic_count
    key = cache.cache_key(problem, hw, cores, budget)
    if use_cache and (hit := _cached(key, problem, hw, cores)) is not None:
        return hit
    # With the cache on, the search starts from the nearest cached layer of the family, trusted
    # (tuning/transfer.py), when the rescale kept the donor's busy cores. A start that moved the
    # cores is not used at all: trusted, it changed the answer of 2 of 8 layers; as one more
    # start, of 1 (its descent took the place of the heuristic's; docs/benchmarks.md,
    # "Transfer between layers"). --no-cache searches as if the cache were empty.
    starts: list[DwTiling] = []
    if use_cache and (moved := transferred_start(problem, load_hw(hw), cores, key)) is not None:
        starts = [moved.start] if moved.trusted else []
    result = with_progress(
        lambda scored: search(
            problem,
            hw,
            cores,
            budget=budget,
            on_candidate=scored,
            extra_starts=starts,
            trust_starts=bool(starts),
            workers=workers if workers is not None else search_workers(),
        ),
        budget,
        "tuning",
        progress,
        on_candidate,
    )
    cache.store(key, result.to_json(), family=cache.family_key(problem, hw, cores))
    return result


def cached(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
) -> TuneResult | None:
    """What :func:`tune` would answer from the cache, or None when the cache has no answer:
    never searches (the summary's "--tiling tuned gives" line asks only this)."""
    cores = cores or load_hw(hw).aic_count
    return _cached(cache.cache_key(problem, hw, cores, budget), problem, hw, cores)


def _cached(key: str, problem: ConvBpFilterShape, hw: str, cores: int) -> TuneResult | None:
    """The cache's answer for ``key`` once :func:`verified`, or None: a miss, or a bad entry,
    discarded with a one-line warning (the caller searches and overwrites it)."""
    return cached_answer(key, lambda hit: verified(hit, problem, hw, cores), BadCacheEntry)


def cached_answer(
    key: str, verify: Callable[[dict[str, Any]], R], bad: type[Exception]
) -> R | None:
    """The cache's entry under ``key`` once ``verify`` accepts it, or None: a miss, or an
    entry the cache cannot read or ``verify`` refuses (raising ``bad``), discarded with a
    one-line warning (the caller searches and overwrites it). Both ops' lookups."""
    try:
        hit = cache.load(key)
        if hit is not None:
            return verify(hit)
    except cache.CacheEntryError as e:
        LOG.warning("ascend-xdsl: warning: %s; discarded, searching again", e)
    except bad as e:
        LOG.warning(
            "ascend-xdsl: warning: tuning cache entry %s: %s; discarded, searching again",
            cache.entry_path(key),
            e,
        )
    return None
