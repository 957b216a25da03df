"""The tiling search behind ``strategy=tuned``: find a dW tiling the cost model scores faster than
the heuristic's.

Where it fits. The heuristic (``passes/dw_tiling_heuristic.py``) re-derives the vendor's host
tiler; this module searches the space that tiler picks from, and scores every candidate the way
the user would measure it: compile it to the hardware level (``lowering.pipeline.compile_levels``
with the :class:`DwTiling` itself, unverified: no text, no copies of the levels) and time the
launch with the cost model (``runtime/cost/model.COST_ONLY``, the cost-only mode). It sits
above the runtime, so the tiler pass reaches it by name, through the table of searches in
``passes/tiling_options.py``.

What is searched, and how it is pruned (docs/passes.md, "tuned"):

1. *Starting points.* The heuristic's tiling, with kD separate and (when the problem allows it)
   fused into N, is always a candidate: the result is never slower than the heuristic by
   construction. Then the multi-core splits of ``passes/core_split.py``, the enumeration the
   heuristic picks from, but with every axis free (``split_axes``) where the heuristic's rule
   bounds M, N and K by its core-bind direction and basic block: every cut of batch·dout,
   group, dk, M (16 granules), N (Cin1 rows) and K (Ho rows) over at most ``cores`` cores,
   ranked by one core's work (the product of its shares, the critical path of the cube), then
   by the cores used; the best :data:`SPLITS` of them, each with the vendor's block tiling of
   its per-core GEMM (``split_tiling``), in both Dk modes. Splits with more work per core than
   the best are the pruned part of this axis.
2. *Coordinate descent* from the best starting point, one tiling knob at a time, in the order
   of :data:`KNOBS`: iterate order; step Ka/Kb (together, as they must divide one another);
   base K, M and N; step M and N; the L1 buffering of A1 and B1; the L0A/L0B buffering (one
   knob: the lowering ping-pongs L0 only when both are 2); the L0C buffering. An unordered knob
   is set to each of its values with the others fixed; an ordered one (:data:`ORDERED`: the
   bases and the M/N steps) is line-searched from its current value, one value at a time in
   the direction that improves and one value past the first miss (:data:`PATIENCE`). The best
   is kept (a tie keeps the current value). A value that overflows a buffer is repaired
   (:func:`repaired`) rather than dropped. Sweeps repeat until one changes nothing or the
   budget is spent.
3. *Validity before cost.* A candidate that does not fit L1/L0A/L0B/L0C or leaves a core idle
   (``DwTiling.errors``, the tiler's own check) is dropped without compiling it; one that the
   compiler or the cost model rejects (an ISA limit) is counted as rejected and dropped.
4. *Budget.* At most ``budget`` candidates are scored (:data:`BUDGET`), counted, not timed, so
   the search is deterministic: the same problem, hardware and compiler give the same tiling.
5. *The best so far bounds the timing.* A candidate is timed by cost-only only until one of
   its cores is sure to take longer than the best so far (:data:`SLOWER`): the best only
   improves, so that changes no decision, and the many losing candidates cost less.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import FRACTAL, DwTiling
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.lowering.build import build_module
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.passes.api_block_tiler import TilingError
from ascend_xdsl.passes.core_split import core_splits, split_axes
from ascend_xdsl.passes.dw_tiling_heuristic import can_fuse_dk, heuristic_tiling, split_tiling
from ascend_xdsl.passes.tile_conv3d_bp_filter import apply_overrides
from ascend_xdsl.runtime.cost.cost_only import CycleLimitExceeded
from ascend_xdsl.runtime.cost.model import COST_ONLY

BUDGET = 96
"""Candidates scored at most per layer (about 0.1 s each on a large layer, less on small)."""

SPLITS = 6
"""Multi-core splits kept as starting points, the least work per core first."""

KNOBS: tuple[str, ...] = (
    "iterate_order",
    "step_k",
    "base_k",
    "base_m",
    "base_n",
    "step_m",
    "step_n",
    "l1_buffering",
    "l0_buffering",
    "l0c_buffering",
)
"""The coordinate-descent knobs, in the order a sweep visits them."""

ORDERED = frozenset({"base_k", "base_m", "base_n", "step_m", "step_n"})
"""Knobs whose values are ordered, searched by a line search rather than exhaustively."""

PATIENCE = 1
"""Values a line search tries past one that does not improve before it stops."""

_BASES = (16, 32, 48, 64, 96, 128, 192, 256)
_K_BASES = (16, 32, 64, 96, 128, 192, 256, 384, 512)
_K_STEPS = (1, 2, 4, 8, 16)
_MAX_STEP = 8


@dataclass(frozen=True)
class Score:
    """The cost model's verdict on one tiling."""

    cycles: float
    efficiency: float
    bound: str
    bottleneck: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "cycles": self.cycles,
            "efficiency": self.efficiency,
            "bound": self.bound,
            "bottleneck": self.bottleneck,
        }


SLOWER = Score(math.inf, 0.0, "slower", "slower")
"""The score of a candidate timed only until it was sure to be slower than the best so far."""


@dataclass
class TuneResult:
    """The heuristic's and the tuned tiling of one problem, with their scores."""

    heuristic: DwTiling
    heuristic_score: Score
    tuned: DwTiling
    tuned_score: Score
    candidates: int
    """Candidates scored (compiled and timed)."""
    rejected: int
    """Candidates the compiler or the cost model rejected."""
    seconds: float
    """Wall time of the search (of the original search when read from the cache)."""
    cached: bool = False

    @property
    def speedup(self) -> float:
        return self.heuristic_score.cycles / self.tuned_score.cycles

    def to_json(self) -> dict[str, Any]:
        return {
            "heuristic": {"tiling": self.heuristic.as_dict(), **self.heuristic_score.as_dict()},
            "tuned": {"tiling": self.tuned.as_dict(), **self.tuned_score.as_dict()},
            "candidates": self.candidates,
            "rejected": self.rejected,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], cached: bool = False) -> TuneResult:
        def side(key: str) -> tuple[DwTiling, Score]:
            d = dict(data[key])
            tiling = DwTiling.from_dict(d.pop("tiling"))
            return tiling, Score(**d)

        h, hs = side("heuristic")
        t, ts = side("tuned")
        return cls(h, hs, t, ts, data["candidates"], data["rejected"], data["seconds"], cached)


def score_tiling(
    problem: ConvBpFilterShape, hw: str, tiling: DwTiling, cycle_limit: float = math.inf
) -> Score:
    """Compile ``problem`` with ``tiling`` to the hardware level and time it, cost only. A
    tiling sure to take more than ``cycle_limit`` cycles is timed only that far and scores
    :data:`SLOWER` (it cannot beat the best so far, which is all the search asks)."""
    options = CompileOptions.create(hw=hw, tiling=tiling)
    module = compile_levels(build_module(problem), options, verify=False)["hw"]
    try:
        (report,) = COST_ONLY.predict(module, options.hw, problem=problem, cycle_limit=cycle_limit)
    except CycleLimitExceeded:
        return SLOWER
    return Score(report.cycles, report.efficiency, report.bound, report.bottleneck)


# -- the candidates --------------------------------------------------------------------------
def knob_values(t: DwTiling, knob: str) -> Iterator[dict[str, int]]:
    """The field assignments that set ``knob`` of ``t`` to each of its values."""
    m_extent = align_up(t.single_core_cout, FRACTAL)
    n_extent = align_up(t.hk * t.wk * t.single_core_cin, FRACTAL)
    k_extent = align_up(t.single_core_ho * t.wo, t.k0)
    if knob == "iterate_order":
        yield from ({"iterate_order": v} for v in (0, 1))
    elif knob == "step_k":
        k_blocks = ceil_div(k_extent, t.base_k)
        steps = [s for s in _K_STEPS if s <= k_blocks] or [1]
        for ka, kb in itertools.product(steps, steps):
            # One side up to 4x the other: the nesting the vendor's UpdateStepMNK produces.
            if max(ka, kb) % min(ka, kb) == 0 and max(ka, kb) <= 4 * min(ka, kb):
                yield {"step_ka": ka, "step_kb": kb}
    elif knob in ("base_m", "base_n"):
        extent = m_extent if knob == "base_m" else n_extent
        values = sorted({v for v in _BASES if v <= extent} | ({extent} if extent <= 256 else set()))
        yield from ({knob: v} for v in values)
    elif knob == "base_k":
        rows = {r * t.wo for r in (1, 2, 4) if (r * t.wo) % t.k0 == 0}
        values = sorted({v for v in (*_K_BASES, *rows) if v <= max(k_extent, t.k0)})
        yield from ({"base_k": v} for v in values)
    elif knob in ("step_m", "step_n"):
        base, extent = (t.base_m, m_extent) if knob == "step_m" else (t.base_n, n_extent)
        yield from ({knob: v} for v in range(1, min(_MAX_STEP, ceil_div(extent, base)) + 1))
    elif knob == "l1_buffering":
        for a, b in itertools.product((1, 2), (1, 2)):
            yield {"al1_pbuffer": a, "bl1_pbuffer": b}
    elif knob == "l0_buffering":
        yield from ({"al0_pbuffer": v, "bl0_pbuffer": v} for v in (1, 2))
    elif knob == "l0c_buffering":
        yield from ({"cl0_pbuffer": v} for v in (1, 2))
    else:
        raise ValueError(f"unknown tiling knob '{knob}'")


def fits(t: DwTiling, hw: HwConfig, cores: int) -> bool:
    return t.core_num <= cores and not t.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size)


def _shrink_steps(t: DwTiling, hw: HwConfig, cores: int) -> DwTiling | None:
    """``t`` with its L1 steps cut until it fits (the larger K step first, then N and M)."""
    while not fits(t, hw, cores):
        ka, kb = t.step_ka, t.step_kb
        if max(ka, kb) > 1:
            if ka >= kb:
                ka = max(ka // 2, 1)
                kb = kb if kb % ka == 0 and kb >= ka else ka
            else:
                kb = max(kb // 2, 1)
                ka = ka if ka % kb == 0 and ka >= kb else kb
            t = apply_overrides(t, {"step_ka": ka, "step_kb": kb})
        elif t.step_n > 1:
            t = apply_overrides(t, {"step_n": t.step_n // 2})
        elif t.step_m > 1:
            t = apply_overrides(t, {"step_m": t.step_m // 2})
        else:
            return None
    return t


def _l0_base_k(t: DwTiling, hw: HwConfig) -> int:
    """The largest base K (a multiple of k0, at most ``t``'s) whose L0A and L0B tiles fit with
    ``t``'s L0 buffering."""
    nbytes = 32 // t.channel_size
    k = t.base_k
    while k > t.k0 and (
        t.base_m * align_up(k, FRACTAL) * nbytes * t.al0_pbuffer > hw.l0a_size
        or t.base_n * align_up(k, FRACTAL) * nbytes * t.bl0_pbuffer > hw.l0b_size
    ):
        k -= t.k0
    return k


def repaired(t: DwTiling, hw: HwConfig, cores: int) -> list[DwTiling]:
    """``[t]`` if it fits; else its fitting variants: without L0 double buffering, with the base
    K that keeps it, without L0C double buffering, and with fewer L1 steps (each at most once).

    A knob moved alone often overflows a buffer that a second knob would free (a wider base N
    fits L0B with a shorter base K, or single-buffered); this keeps such moves in the descent.
    """
    if fits(t, hw, cores):
        return [t]
    out: list[DwTiling] = []
    for fix in (
        {"al0_pbuffer": 1, "bl0_pbuffer": 1},
        {"base_k": _l0_base_k(t, hw)},
        {"cl0_pbuffer": 1},
        {"al0_pbuffer": 1, "bl0_pbuffer": 1, "cl0_pbuffer": 1},
        {"base_k": _l0_base_k(t, hw), "cl0_pbuffer": 1},
    ):
        v = apply_overrides(t, fix)
        if v not in out and fits(v, hw, cores):
            out.append(v)
    if not out and (v := _shrink_steps(t, hw, cores)) is not None:
        out.append(v)
    return out


# -- the search ------------------------------------------------------------------------------
@dataclass
class _Search:
    problem: ConvBpFilterShape
    hw: HwConfig
    cores: int
    budget: int
    on_candidate: Callable[[int], None] | None = None
    scores: dict[DwTiling, Score | None] = field(default_factory=dict)
    rejected: int = 0

    def descend(self, knob: str, best: DwTiling, best_score: Score) -> tuple[DwTiling, Score, bool]:
        """One knob of the coordinate descent: every value of an unordered knob; for an ordered
        one (:data:`ORDERED`) a line search, from the current value one step at a time in the
        direction that improves, while it does or for :data:`PATIENCE` values more (the other
        direction only if the first did not)."""
        values = list(knob_values(best, knob))
        if knob not in ORDERED:
            moved = False
            for assignment in values:
                best, best_score, m = _improve(self, best, best_score, assignment)
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
                best, best_score, m = _improve(self, best, best_score, values[i])
                # Look one value past a miss: divisibility makes the cycles jagged (a base M
                # of 192 that leaves a tail can lose where 256 wins).
                misses = 0 if m else misses + 1
                if misses > PATIENCE:
                    break
                moved, i = moved or m, i + direction
            if moved:
                return best, best_score, True
        return best, best_score, False

    @property
    def spent(self) -> bool:
        return len(self.scores) >= self.budget

    def score(self, t: DwTiling, best: Score | None = None) -> Score | None:
        """The score of ``t`` (memoized); None when it does not fit or is rejected; SLOWER
        when it is sure to be slower than ``best``. The best only improves during a search,
        so a tiling once slower than it stays slower."""
        if t in self.scores:
            return self.scores[t]
        if not fits(t, self.hw, self.cores):
            return None
        limit = best.cycles if best is not None else math.inf
        try:
            s: Score | None = score_tiling(self.problem, self.hw.name, t, limit)
        except Exception:  # a candidate the compiler or the model rejects is no candidate
            s = None
            self.rejected += 1
        self.scores[t] = s
        if self.on_candidate is not None:
            self.on_candidate(len(self.scores))
        return s


def _improve(
    s: _Search, best: DwTiling, best_score: Score, assignment: dict[str, int]
) -> tuple[DwTiling, Score, bool]:
    """Score the repaired variants of ``best`` with ``assignment``; keep the best of them."""
    moved = False
    for candidate in repaired(apply_overrides(best, assignment), s.hw, s.cores):
        if s.spent or candidate == best:
            continue
        if _better(score := s.score(candidate, best_score), best_score):
            best, best_score, moved = candidate, score, True  # type: ignore[assignment]
    return best, best_score, moved


def _better(a: Score | None, b: Score | None) -> bool:
    """``a`` strictly beats ``b`` (ties keep the incumbent: determinism and stability)."""
    return a is not None and (b is None or a.cycles < b.cycles)


def heuristic_candidates(problem: ConvBpFilterShape, hw: HwConfig, cores: int) -> list[DwTiling]:
    """The heuristic's tiling with kD separate (the default, first) and fused when allowed."""
    out = [heuristic_tiling(problem, hw, cores)]
    if problem.kd > 1 and can_fuse_dk(problem) is None:
        with contextlib.suppress(TilingError):
            out.append(heuristic_tiling(problem, hw, cores, fuse_dk=True))
    return out


def search(
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
    on_candidate: Callable[[int], None] | None = None,
    extra_starts: Sequence[DwTiling] = (),
) -> TuneResult:
    """Search the tiling of ``problem`` on ``hw`` over ``cores`` cores (None: all of them).

    ``on_candidate(n)`` is called after the n-th candidate is scored (a progress bar).
    ``extra_starts``: tilings of ``problem`` scored as starting points before the splits' (a
    transferred tiling, ``tuning/transfer.py``); one that does not fit is skipped. Raises
    :class:`TilingError` when not even the heuristic finds a tiling, ``ValueError`` when the
    heuristic's own tiling cannot be compiled and timed.
    """
    start = time.perf_counter()
    config = load_hw(hw)
    cores = cores or config.aic_count
    if not 1 <= cores <= config.aic_count:
        raise ValueError(f"cores must be in [1, {config.aic_count}] for {hw}, got {cores}")
    s = _Search(problem, config, cores, max(budget, 1), on_candidate)
    heuristics = heuristic_candidates(problem, config, cores)
    baseline = s.score(heuristics[0])
    if baseline is None:
        raise ValueError("the heuristic's tiling could not be compiled and timed")
    best, best_score = heuristics[0], baseline
    starts: list[DwTiling] = [*extra_starts, *heuristics[1:]]
    modes = [False] + ([True] if len(heuristics) > 1 else [])
    for fuse in modes:
        for split in core_splits(split_axes(problem, fuse), cores)[:SPLITS]:
            with contextlib.suppress(TilingError):  # a share no block fits is no start
                starts.append(split_tiling(problem, split, config))
    for t in starts:
        if s.spent:
            break
        if _better(score := s.score(t, best_score), best_score):
            best, best_score = t, score  # type: ignore[assignment]
    changed = True
    while changed and not s.spent:
        changed = False
        for knob in KNOBS:
            best, best_score, moved = s.descend(knob, best, best_score)
            changed = changed or moved
    return TuneResult(
        heuristic=heuristics[0],
        heuristic_score=baseline,
        tuned=best,
        tuned_score=best_score,
        candidates=len(s.scores),
        rejected=s.rejected,
        seconds=time.perf_counter() - start,
    )
