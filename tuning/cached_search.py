"""``tune``: the cached tiling search of one layer, the search behind ``strategy=tuned``.

:func:`tune` looks the layer up in the on-disk cache (``tuning/cache.py``), else runs the search
(``tuning/search.py``) with an optional progress bar and caches its answer. The tiler's
``strategy=tuned`` names it in ``passes/tiling_options.SEARCHES`` and imports it when the
strategy first runs, so ``--tiling tuned``, ``tiling="tuned"`` in the Python API and
``ascend-tune`` all reach this one function. :func:`cached` reads the cache's answer without
ever searching.
"""

from __future__ import annotations

import sys

from tqdm import tqdm

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.search import BUDGET, TuneResult, search

PROGRESS_AFTER = 2.0
"""Seconds a search runs before its progress bar appears (on a terminal only)."""


def tune(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
    use_cache: bool = True,
    progress: bool = False,
) -> TuneResult:
    """The heuristic's and the tuned tiling of ``problem`` on ``hw`` with ``cores`` cores (None:
    all), from the cache unless ``use_cache`` is False (the answer is then stored again).

    ``progress`` shows a bar on standard error when it is a terminal and the search lasts over
    :data:`PROGRESS_AFTER` seconds; nothing is ever written to standard output.
    """
    cores = cores or load_hw(hw).aic_count
    key = cache.cache_key(problem, hw, cores, budget)
    if use_cache and (hit := _cached(key)) is not None:
        return hit
    bar = tqdm(
        total=budget,
        desc="tuning",
        unit="candidate",
        file=sys.stderr,
        delay=PROGRESS_AFTER,
        leave=False,
        disable=not (progress and sys.stderr.isatty()),
    )

    def on_candidate(n: int) -> None:
        bar.update(n - bar.n)

    try:
        result = search(problem, hw, cores, budget=budget, on_candidate=on_candidate)
    finally:
        bar.close()
    cache.store(key, result.to_json())
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
    return _cached(cache.cache_key(problem, hw, cores or load_hw(hw).aic_count, budget))


def _cached(key: str) -> TuneResult | None:
    hit = cache.load(key)
    if hit is None:
        return None
    try:
        return TuneResult.from_json(hit, cached=True)
    except (KeyError, TypeError, ValueError):
        return None  # a file from an older layout: a miss (tune searches and overwrites it)
