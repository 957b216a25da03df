"""The coordinate descent over one op's tiling knobs, shared by the forward conv's search
(``tuning/conv3d_search.py``) and the input gradient's (``tuning/conv3d_bp_input_search.py``),
and the cache around it (verified entries, ``--no-cache``).

Where it fits. ``tuning/search.py`` searches the dW tiling with a search of its own (its space
has 13 knobs, two Dk modes and transfer between layers). The forward and the dX tilings are
smaller records of the same kind: a core split, an L0 tile (M, K, N) and buffering flags. What
the two searches do with them is the same and lives here once; what differs is the op's
*space* (:class:`OpSpace`): its knobs and their values, its core splits, its legality and repair
rules, its vendor tiling of a split, and how a candidate is compiled and timed.

The search (docs/passes.md, "tuned (forward)" and "tuned (bp-input)"):

1. *Starts*: the heuristic's tiling (scored whatever the space's legality says: it is the
   baseline, so the result is never slower than it), then the vendor's tiling of the space's
   :data:`SPLITS` least-work splits, on at most ``START_SHARE`` of the budget.
2. *Coordinate descent* from the best start (and each start within ``START_SLACK`` of it, on
   what is left): ordered knobs line-searched one value past a miss (``PATIENCE``), the others
   tried in turn, the split moved to the next-ranked splits (:data:`SPLIT_MOVES`, stopping
   after :data:`SPLIT_PATIENCE` misses in a row); then pair moves of the space's ``pairs``; a
   tie keeps the incumbent. A move that overflows a buffer is repaired (``space.repaired``)
   rather than dropped; one that does not fit is never compiled.
3. *Budget*: at most ``budget`` candidates are scored (counted, not timed: deterministic), and
   a candidate is timed only until it is sure to be slower than the incumbent (``SLOWER``).
   The descent stops early once a sweep of every knob and pair changes nothing.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.cached_search import cached_answer, count_error, with_progress
from ascend_xdsl.tuning.search import (
    PATIENCE,
    SLOWER,
    START_SHARE,
    START_SLACK,
    Score,
    SearchResult,
)

SPLITS = 6
"""Least-work core splits whose vendor tiling is a starting point beside the heuristic's."""

SPLIT_MOVES = 8
"""Splits the ``split`` knob may try: the ones ranked nearest the current one (half above, half
below in the rank order, least work first)."""

SPLIT_PATIENCE = 3
"""Splits in a row that do not improve before the ``split`` knob stops."""

RESCORE_TOLERANCE = 1e-9
"""Relative difference allowed between a cache entry's cycles and their re-score."""

T = TypeVar("T")  # the op's tiling record (a frozen dataclass: hashable, ``replace``-able)
S = TypeVar("S")  # the op's core split


class OpSpace(Protocol[T, S]):
    """One op's tiling space, as the descent sees it."""

    knobs: tuple[str, ...]
    """The coordinate-descent knobs, in the order a sweep visits them (``split`` among them)."""
    ordered: frozenset[str]
    """Knobs line-searched from their current value (the others are tried value by value)."""
    pairs: tuple[tuple[str, str], ...]
    """Ordered knobs moved two at a time once single moves stall."""
    splits: list[S]
    """Every core split the space allows, the least work per core first."""

    def heuristic(self) -> T:
        """The heuristic's tiling: the baseline and the first start."""
        ...

    def score(self, t: T, cycle_limit: float) -> Score:
        """Compile ``t`` and time it, cost only; ``SLOWER`` past ``cycle_limit`` cycles."""
        ...

    def fits(self, t: T) -> bool:
        """``t`` is a candidate: it breaks no rule of the tiling, the kernel or the target."""
        ...

    def repaired(self, t: T) -> T | None:
        """``t`` made to fit with the moved knob kept where it was put, or None."""
        ...

    def knob_values(self, t: T, knob: str) -> Iterator[dict[str, int]]:
        """The field assignments that set ``knob`` (not ``split``) of ``t`` to each of its
        values, ordered knobs in increasing order."""
        ...

    def split_of(self, t: T) -> S:
        """The core split of ``t``."""
        ...

    def with_split(self, t: T, split: S) -> T:
        """``t`` with its core split replaced by ``split`` (its L0 tile kept)."""
        ...

    def vendor(self, split: S) -> T | None:
        """The vendor's tiling of ``split``'s share, or None when the vendor finds none."""
        ...


def better(a: Score | None, b: Score | None) -> bool:
    """``a`` strictly beats ``b`` (a tie keeps the incumbent)."""
    return a is not None and (b is None or a.cycles < b.cycles)


@dataclass
class Descent(Generic[T, S]):
    """The candidates scored so far (memoized, counted against ``budget``) and the moves."""

    space: OpSpace[T, S]
    budget: int
    on_candidate: Callable[[int], None] | None = None
    scores: dict[T, tuple[Score | None, float]] = field(default_factory=dict)
    rejected: int = 0
    cap: int = 0

    @property
    def spent(self) -> bool:
        return len(self.scores) >= min(self.cap or self.budget, self.budget)

    def score(self, t: T, best: Score | None = None, trusted: bool = False) -> Score | None:
        """The score of ``t`` (memoized; timed again against a higher limit when it was cut
        off at a lower one); None when it does not fit or is rejected. ``trusted``: the
        heuristic's own tiling, scored whatever ``space.fits`` says (the forward heuristic's
        batch split may leave a core idle: batch 5 over 4 cores is 2, 2, 1 and none)."""
        limit = best.cycles if best is not None else math.inf
        if t in self.scores:
            known, timed_to = self.scores[t]
            if known is not SLOWER or limit <= timed_to:
                return known
        elif not trusted and not self.space.fits(t):
            return None
        new = t not in self.scores
        try:
            s: Score | None = self.space.score(t, limit)
        except Exception:  # a candidate the compiler or the model rejects is no candidate
            s = None
            self.rejected += new
        self.scores[t] = (s, limit)
        if new and self.on_candidate is not None:
            self.on_candidate(len(self.scores))
        return s

    def improve(self, best: T, best_score: Score, moved: T) -> tuple[T, Score, bool]:
        candidate = self.space.repaired(moved)
        if candidate is None or candidate == best or self.spent:
            return best, best_score, False
        score = self.score(candidate, best_score)
        if better(score, best_score):
            return candidate, score, True  # type: ignore[return-value]
        return best, best_score, False

    def descend(self, knob: str, best: T, best_score: Score) -> tuple[T, Score, bool]:
        """One knob: the split's next-ranked splits (the current L0 tile, and the vendor's
        tiling of that split); an ordered knob line-searched from its value (one value past a
        miss, the other direction only if the first did not improve); others value by value."""
        space = self.space
        if knob == "split":
            here = space.split_of(best)
            rank = space.splits.index(here) if here in space.splits else 0
            others = [s for s in space.splits if s != here]
            window = others[max(0, rank - SPLIT_MOVES // 2) : rank + SPLIT_MOVES // 2]
            moved, misses = False, 0
            for split in window:
                if self.spent or misses >= SPLIT_PATIENCE:
                    break
                m = False
                for t in (space.with_split(best, split), space.vendor(split)):
                    if t is not None:
                        best, best_score, improved = self.improve(best, best_score, t)
                        m = m or improved
                moved, misses = moved or m, 0 if m else misses + 1
            return best, best_score, moved
        values = list(space.knob_values(best, knob))
        if knob not in space.ordered:
            moved = False
            for assignment in values:
                best, best_score, m = self.improve(best, best_score, replace(best, **assignment))  # type: ignore[type-var]
                moved = moved or m
            return best, best_score, moved
        current = getattr(best, knob)
        keys = [a[knob] for a in values]
        for direction in (1, -1):
            if direction == 1:
                i = next((n for n, v in enumerate(keys) if v > current), len(keys))
            else:
                i = max((n for n, v in enumerate(keys) if v < current), default=-1)
            moved, misses = False, 0
            while 0 <= i < len(values) and not self.spent:
                best, best_score, m = self.improve(best, best_score, replace(best, **values[i]))  # type: ignore[type-var]
                misses = 0 if m else misses + 1
                if misses > PATIENCE:
                    break
                moved, i = moved or m, i + direction
            if moved:
                return best, best_score, True
        return best, best_score, False

    def descent(self, best: T, best_score: Score) -> tuple[T, Score, bool]:
        """Sweeps of single-knob moves until one changes nothing, then a sweep of pair moves
        (each side of both knobs to its neighbouring values); converged (True) when that changes
        nothing too, False when the budget ran out first."""
        while not self.spent:
            changed = False
            for knob in self.space.knobs:
                best, best_score, moved = self.descend(knob, best, best_score)
                changed = changed or moved
            if changed:
                continue
            for a, b in self.space.pairs:
                for va, vb in itertools.product(self.adjacent(best, a), self.adjacent(best, b)):
                    if self.spent:
                        break
                    best, best_score, moved = self.improve(
                        best,
                        best_score,
                        replace(best, **va, **vb),  # type: ignore[type-var]
                    )
                    changed = changed or moved
            if not changed:
                return best, best_score, not self.spent
        return best, best_score, False

    def adjacent(self, t: T, knob: str) -> list[dict[str, int]]:
        """The values of an ordered ``knob`` of ``t`` nearest its current one, below and
        above."""
        current = getattr(t, knob)
        values = list(self.space.knob_values(t, knob))
        below = [a for a in values if a[knob] < current][-1:]
        return below + [a for a in values if a[knob] > current][:1]


@dataclass(frozen=True)
class Found(Generic[T]):
    """What :func:`run_descent` found: the heuristic's and the best tiling, their scores, and
    the candidates scored and rejected."""

    heuristic: T
    heuristic_score: Score
    tuned: T
    tuned_score: Score
    candidates: int
    rejected: int


def run_descent(
    space: OpSpace[T, S],
    budget: int,
    on_candidate: Callable[[int], None] | None = None,
    what: str = "the heuristic's tiling",
) -> Found[T]:
    """The search of the module docstring over ``space`` with at most ``budget`` candidates;
    ``ValueError`` naming ``what`` when the heuristic's tiling cannot be compiled and timed."""
    s: Descent[T, S] = Descent(space, max(budget, 1), on_candidate)
    heuristic = space.heuristic()
    baseline = s.score(heuristic, trusted=True)
    if baseline is None:
        raise ValueError(f"{what} could not be compiled and timed")
    starts: list[tuple[T, Score]] = [(heuristic, baseline)]
    best, best_score = heuristic, baseline
    s.cap = math.ceil(s.budget * START_SHARE)
    for split in space.splits[:SPLITS]:
        t = space.vendor(split)
        if s.spent:
            break
        if t is None or t == heuristic:
            continue
        # Timed against the best start so far plus the slack: a start that close still
        # gets a descent of its own.
        limit = Score(best_score.cycles * (1 + START_SLACK), 0.0, "", "")
        score = s.score(t, limit)
        if score is not None and score is not SLOWER:
            starts.append((t, score))
            if better(score, best_score):
                best, best_score = t, score
    s.cap = 0
    firsts = sorted(starts, key=lambda ts: ts[1].cycles)  # stable: the heuristic first on a tie
    firsts = [ts for ts in firsts if ts[1].cycles <= best_score.cycles * (1 + START_SLACK)]
    for t, score in firsts:
        if s.spent:
            break
        t, score, _ = s.descent(t, score)
        if better(score, best_score):
            best, best_score = t, score
    return Found(heuristic, baseline, best, best_score, len(s.scores), s.rejected)


# -- the cache --------------------------------------------------------------------------------
class BadSearchEntry(ValueError):
    """A cache entry of an op's search whose content does not hold up (:func:`verified`)."""


R = TypeVar("R", bound=SearchResult[Any])


@dataclass(frozen=True)
class OpSearch(Generic[T, R]):
    """What the cache needs of one op's search: its result class (which names the op and its
    tiling class), its default budget, the search itself, the heuristic, a candidate's score
    and the two legality checks (the tiler's, for the heuristic's own tiling; the search's,
    for any other)."""

    result: type[R]
    budget: int
    search: Callable[..., R]
    """(problem, hw, cores, *, budget, on_candidate) → the result."""
    heuristic: Callable[[ConvBpFilterShape, HwConfig, int], T]
    score: Callable[[ConvBpFilterShape, str, T, float], Score]
    tiler_errors: Callable[[T, HwConfig, int], list[str]]
    search_errors: Callable[[T, HwConfig, int], list[str]]

    @property
    def op(self) -> str:
        return str(self.result.OP)

    def result_of(self, found: Found[T], start: float) -> R:
        """``found`` as the op's result, timed from ``start`` (``time.perf_counter``)."""
        return self.result(
            heuristic=found.heuristic,
            heuristic_score=found.heuristic_score,
            tuned=found.tuned,
            tuned_score=found.tuned_score,
            candidates=found.candidates,
            rejected=found.rejected,
            seconds=time.perf_counter() - start,
        )

    def cache_key(self, problem: ConvBpFilterShape, hw: str, cores: int, budget: int) -> str:
        """The dW key's request (layer, hw, cores, budget, compiler) with the op's name, so
        two ops never share an entry."""
        return cache.cache_key(problem, hw, cores, budget, op=self.op)

    def _rescored(
        self, name: str, claimed: Score, problem: ConvBpFilterShape, hw: str, tiling: T
    ) -> Score:
        cycles = claimed.cycles
        if not (
            isinstance(cycles, int | float)
            and not isinstance(cycles, bool)
            and math.isfinite(cycles)
            and cycles > 0
        ):
            raise BadSearchEntry(f"{name} cycles {cycles!r} are not a positive finite number")
        try:
            score = self.score(problem, hw, tiling, cycles * (1 + RESCORE_TOLERANCE) + 1)
        except Exception as e:
            raise BadSearchEntry(f"{name} tiling cannot be compiled and timed ({e})") from None
        if score is SLOWER or abs(score.cycles - cycles) > RESCORE_TOLERANCE * score.cycles:
            measured = "more than that" if score is SLOWER else f"{score.cycles:g}"
            raise BadSearchEntry(
                f"{name} claims {cycles:g} cycles, the cost model gives {measured}"
            )
        return score

    def verified(self, data: dict[str, Any], problem: ConvBpFilterShape, hw: str, cores: int) -> R:
        """The cached result ``data`` of ``problem`` if it holds up, else
        :class:`BadSearchEntry` naming the first thing that does not: its layout and counts,
        both tilings are ``problem``'s and legal candidates, the heuristic's is the one the
        heuristic gives now, each claimed cycle count is reproduced by a re-score (the scores
        returned are the re-scores) and the tuned one is not slower."""
        try:
            result = self.result.from_json(data, cached=True)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise BadSearchEntry(f"is not a {self.op} search result ({e})") from None
        if (error := count_error(result)) is not None:
            raise BadSearchEntry(error)
        config = load_hw(hw)
        for name, tiling in (("heuristic", result.heuristic), ("tuned", result.tuned)):
            # The heuristic's tiling is checked as the tiler checks it (it is then compared
            # with today's heuristic); any other tuned tiling must be one the search could
            # score.
            legal = self.tiler_errors if tiling == result.heuristic else self.search_errors
            errors = tiling.problem_errors(problem) or legal(tiling, config, cores)
            if errors:
                raise BadSearchEntry(f"{name} {errors[0]}")
        if result.heuristic != self.heuristic(problem, config, cores):
            raise BadSearchEntry("heuristic tiling is not the one the heuristic gives")
        heuristic = self._rescored(
            "heuristic", result.heuristic_score, problem, hw, result.heuristic
        )
        # The same tiling twice is scored once, if both claim the same cycles.
        claimed = result.tuned_score.cycles
        same = result.tuned == result.heuristic and claimed == result.heuristic_score.cycles
        tuned = (
            heuristic
            if same
            else self._rescored("tuned", result.tuned_score, problem, hw, result.tuned)
        )
        if tuned.cycles > heuristic.cycles:
            raise BadSearchEntry(
                "tuned tiling is slower than the heuristic's, which the search keeps"
            )
        result.heuristic_score, result.tuned_score = heuristic, tuned
        return result

    def cached(
        self,
        problem: ConvBpFilterShape,
        hw: str,
        cores: int | None = None,
        *,
        budget: int | None = None,
    ) -> R | None:
        """The cache's verified answer for ``problem``, or None (a miss, or a bad entry,
        discarded with a one-line warning): never searches."""
        cores = cores or load_hw(hw).aic_count
        key = self.cache_key(problem, hw, cores, self.budget if budget is None else budget)
        return cached_answer(
            key, lambda hit: self.verified(hit, problem, hw, cores), BadSearchEntry
        )

    def tune(
        self,
        problem: ConvBpFilterShape,
        hw: str,
        cores: int | None = None,
        *,
        budget: int | None = None,
        use_cache: bool = True,
        progress: bool = False,
        on_candidate: Callable[[int], None] | None = None,
    ) -> R:
        """The heuristic's and the tuned tiling of ``problem`` on ``hw`` with ``cores`` cores
        (None: all), from the cache unless ``use_cache`` is False (the answer is then stored
        again). ``progress``: a bar on standard error when it is a terminal and the search
        lasts over ``cached_search.PROGRESS_AFTER`` seconds. ``on_candidate(n)`` after the
        n-th candidate."""
        budget = self.budget if budget is None else budget
        cores = cores or load_hw(hw).aic_count
        if use_cache and (hit := self.cached(problem, hw, cores, budget=budget)) is not None:
            return hit
        result = with_progress(
            lambda scored: self.search(problem, hw, cores, budget=budget, on_candidate=scored),
            budget,
            f"tuning {self.op}",
            progress,
            on_candidate,
        )
        cache.store(self.cache_key(problem, hw, cores, budget), result.to_json())
        return result
