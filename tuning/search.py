"""The tiling search behind ``strategy=tuned``: find a dW tiling the cost model scores faster than
the heuristic's.

Where it fits. The heuristic (``passes/dw_tiling_heuristic.py``) re-derives the vendor's host
tiler; this module searches the space that tiler picks from, and scores every candidate the way
the user would measure it: compile it to the hardware level (``lowering.pipeline.compile_levels``
with the :class:`DwTiling` itself, unverified: no text, no copies of the levels) and time the
launch with the cost model (``runtime/cost/model.COST_ONLY``, the cost-only mode). It sits
above the runtime, so the tiler pass reaches it by name, through the table of searches in
``passes/tiling_options.py``.

What is searched, and how it is pruned (docs/passes.md, "tuned", says why):

1. *The space.* Base M, N and K over the *balanced* multiples of 16 of one core's extents
   (:func:`balanced`: per block count, the smallest block that covers the extent in that many;
   the whole per-core K is one), plus whole Ho rows for K, whole kernel windows for N and the
   vendor's values; K steps Ka and Kb over the balanced step counts and the powers of two (one
   a multiple of the other); M/N steps 1-8; L0A and L0B buffering set independently
   (:func:`canonical` folds one double-buffered alone into single buffering: the lowering
   compiles them the same); L1 and L0C buffering; the iterate order; the core split. In the
   late descent also the K walk (:func:`k_walk`): base K at every multiple of k0 that fits L0
   with the current base M/N, whole rows among them, the L1 depth of K kept.
2. *Starting points.* The heuristic's tiling, with kD separate and (when the problem allows it)
   fused into N, is always a candidate: the result is never slower than the heuristic by
   construction. Then the multi-core splits of ``passes/core_split.py``, the enumeration the
   heuristic picks from, but with every axis free (``split_axes``), ranked by one core's work:
   the best :data:`SPLITS` of each Dk mode (:data:`DK_MODES`, :func:`split_starts`) with the
   vendor's block tiling of its per-core GEMM, each timed against its own mode's best.
3. *Coordinate descent* from the best start, then from each other mode's best start within
   :data:`START_SLACK` of it (:meth:`_Search.descent`):
   sweeps of one knob at a time in the order of :data:`KNOBS`, the split moving to its
   neighbours (``core_split.neighbour_splits``: one or two cuts); an unordered knob is set to
   each of its values, an ordered one (:data:`ORDERED`) line-searched from its current value in
   the direction that improves, one value past the first miss (:data:`PATIENCE`). When a sweep
   changes nothing, pair moves (:data:`PAIRS`, :func:`pair_moves`); any that improves starts
   the sweeps again. A tie keeps the current value. A value that overflows a buffer is repaired
   (:func:`repaired`) rather than dropped.
4. *Validity before cost.* A candidate that does not fit L1/L0A/L0B/L0C or leaves a core idle
   (``DwTiling.errors``, the tiler's own check) is dropped without compiling it; one that the
   compiler or the cost model rejects (an ISA limit) is counted as rejected and dropped.
5. *Budget.* At most ``budget`` candidates are scored (:data:`BUDGET`), counted, not timed, so
   the search is deterministic: the same problem, hardware and compiler give the same tiling.
   The starts may take :data:`START_SHARE` of it; the first descent (from the best start) all
   of what is left, until it converges; the others (:data:`START_SLACK`) an even share of what
   it leaves; one cut short resumes at the end. Giving the first descent only half cost the
   README's two layers 5-7 % (28,146 against 23,858 cycles on the default layer): the larger
   space's sweeps need the budget to converge, and the best start is where they pay most.
6. *The late descent* (:meth:`_Search.late_descent`): once those descents stall, one more from
   the best of them on up to :data:`LATE_SHARE` of the budget beyond it: the K walk, the usual
   knobs, then :data:`LATE_PAIRS` (the K walk with base M and N, and :data:`PAIRS`).
7. *The incumbent bounds the timing.* A candidate is timed by cost-only only until one of its
   cores is sure to take longer than its descent's incumbent (:data:`SLOWER`): that changes no
   decision, and the many losing candidates cost less. One cut off against a lower limit is
   timed again if a later descent compares it with a slower incumbent.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import FRACTAL, DwTiling
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.ir import collector
from ascend_xdsl.lowering.build import build_module
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.passes.api_block_tiler import TilingError
from ascend_xdsl.passes.core_split import CoreSplit, core_splits, neighbour_splits, split_axes
from ascend_xdsl.passes.dw_tiling_heuristic import can_fuse_dk, heuristic_tiling, split_tiling
from ascend_xdsl.passes.tile_conv3d_bp_filter import apply_overrides
from ascend_xdsl.runtime.cost.cost_only import CycleLimitExceeded
from ascend_xdsl.runtime.cost.model import COST_ONLY
from ascend_xdsl.tuning.speculate import Scorer

T = TypeVar("T")

BUDGET = 96
"""Candidates scored at most per layer (about 0.1 s each on a large layer, less on small)."""

SPLITS = 6
"""Multi-core splits kept as starting points, the least work per core first."""

KNOBS: tuple[str, ...] = (
    "split",
    "iterate_order",
    "step_k",
    "step_ka",
    "step_kb",
    "base_k",
    "base_m",
    "base_n",
    "step_m",
    "step_n",
    "l1_buffering",
    "l0_buffering",
    "l0c_buffering",
)
"""The coordinate-descent knobs, in the order a sweep visits them (``split``: the core split,
moved to its neighbours, :func:`split_moves`; the others: :func:`knob_values`)."""

ORDERED = frozenset(
    {"split", "step_k", "step_ka", "step_kb", "base_k", "base_m", "base_n", "step_m", "step_n"}
)
"""Knobs whose values are ordered, searched by a line search rather than exhaustively (the
splits by the rule's rank, least work per core first)."""

PAIRS: tuple[tuple[str, str], ...] = (
    ("base_k", "step_k"),
    ("base_k", "step_ka"),
    ("base_k", "step_kb"),
    ("step_ka", "step_kb"),
    ("base_k", "base_n"),
    ("base_k", "base_m"),
    ("base_m", "base_n"),
    ("base_m", "step_m"),
    ("base_n", "step_n"),
)
"""The knobs moved two at a time once single moves stall (:func:`pair_moves`): each pair shares
a buffer or a loop (the K walk: base K times its steps; L0A/L0B/L0C: the bases), so one alone
can lose where both together win."""

PATIENCE = 1
"""Values a line search tries past one that does not improve before it stops."""

HORIZON = 2
"""Candidates planned ahead per worker (:meth:`_Search.plan`): enough to keep every worker busy
from one request to the next; more is mostly thrown away when a move improves."""

LATE_SHARE = 1 / 2
"""Candidates the late descent (:meth:`_Search.late_descent`) may score beyond the budget, as a
share of it: it runs once the budget's descents have stalled, from the best they found."""

LATE_PAIRS: tuple[tuple[str, str], ...] = (
    ("k_walk", "base_m"),
    ("k_walk", "base_n"),
    *PAIRS,
)
"""The late descent's pair moves: the K walk with the L0 tile it shares (base M for L0A, base N
for L0B), then :data:`PAIRS`."""

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
class SearchResult(Generic[T]):
    """The heuristic's and the tuned tiling of one problem, with their scores, whatever the
    op: the dW search's :class:`TuneResult`, the forward's ``conv3d_search.ForwardTuneResult``
    (each names its tiling class, and the forward its op in the cache entry)."""

    heuristic: T
    heuristic_score: Score
    tuned: T
    tuned_score: Score
    candidates: int
    """Candidates scored (compiled and timed)."""
    rejected: int
    """Candidates the compiler or the cost model rejected."""
    seconds: float
    """Wall time of the search (of the original search when read from the cache)."""
    cached: bool = False

    TILING: ClassVar[Any]
    """The tiling class (``from_dict`` reads a cache entry's tilings)."""
    OP: ClassVar[str | None] = None
    """The op an entry names under ``op`` (written first, checked on reading); None: none."""

    @property
    def speedup(self) -> float:
        return self.heuristic_score.cycles / self.tuned_score.cycles

    def to_json(self) -> dict[str, Any]:
        return {
            **({} if self.OP is None else {"op": self.OP}),
            "heuristic": {"tiling": self.heuristic.as_dict(), **self.heuristic_score.as_dict()},
            "tuned": {"tiling": self.tuned.as_dict(), **self.tuned_score.as_dict()},
            "candidates": self.candidates,
            "rejected": self.rejected,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], cached: bool = False) -> Self:
        if cls.OP is not None and data.get("op") != cls.OP:
            raise ValueError(f"op is {data.get('op')!r}, not {cls.OP!r}")

        def side(key: str) -> tuple[T, Score]:
            d = dict(data[key])
            tiling = cls.TILING.from_dict(d.pop("tiling"))
            return tiling, Score(**d)

        h, hs = side("heuristic")
        t, ts = side("tuned")
        return cls(h, hs, t, ts, data["candidates"], data["rejected"], data["seconds"], cached)


@dataclass
class TuneResult(SearchResult[DwTiling]):
    """The heuristic's and the tuned dW tiling of one problem, with their scores."""

    TILING = DwTiling


def score_tiling(
    problem: ConvBpFilterShape, hw: str, tiling: DwTiling, cycle_limit: float = math.inf
) -> Score:
    """Compile ``problem`` with ``tiling`` to the hardware level and time it, cost only. A
    tiling sure to take more than ``cycle_limit`` cycles is timed only that far and scores
    :data:`SLOWER` (it cannot beat the best so far, which is all the search asks)."""
    options = CompileOptions.create(hw=hw, tiling=tiling)
    try:
        with collector.fewer_collections():  # the candidate's IR is garbage once it is timed
            module = compile_levels(build_module(problem), options, verify=False)["hw"]
            (report,) = COST_ONLY.predict(
                module, options.hw, problem=problem, cycle_limit=cycle_limit
            )
    except CycleLimitExceeded:
        return SLOWER
    return Score(report.cycles, report.efficiency, report.bound, report.bottleneck)


# -- the candidates ---------------------------------------------------------------------------
def balanced(extent: int, granule: int) -> set[int]:
    """For each count of blocks that can cover ``extent``, the smallest multiple of ``granule``
    that covers it in that many: every other block size of that count only makes the full blocks
    larger and the tail smaller, for the same trip count and more buffer per block."""
    blocks = ceil_div(extent, granule)
    return {align_up(ceil_div(extent, n), granule) for n in range(1, blocks + 1)}


def extents(t: DwTiling) -> tuple[int, int, int]:
    """One core's GEMM M, N and K, each rounded up to its granule."""
    return (
        align_up(t.single_core_cout, FRACTAL),
        align_up(t.hk * t.wk * t.single_core_cin, FRACTAL),
        align_up(t.single_core_ho * t.wo, t.k0),
    )


def _k_bases(t: DwTiling, k_extent: int) -> set[int]:
    """Base K values: the balanced multiples of k0, whole Ho rows (the balanced row counts whose
    Wo multiple is a multiple of k0) and the vendor's list, up to the per-core K."""
    rows = {
        r * t.wo
        for r in {ceil_div(t.single_core_ho, n) for n in range(1, t.single_core_ho + 1)}
        if (r * t.wo) % t.k0 == 0
    }
    return {v for v in (balanced(k_extent, t.k0) | rows | set(_K_BASES)) if v <= k_extent}


def _k_steps(k_blocks: int) -> list[int]:
    """K steps for ``k_blocks`` base K blocks: the balanced counts (the smallest step for each
    number of L1 loads, so 6 for 6 blocks where a power of two would load twice) and the vendor's
    powers of two, up to the block count."""
    return sorted({v for v in (balanced(k_blocks, 1) | set(_K_STEPS)) if v <= k_blocks} or {1})


def knob_values(t: DwTiling, knob: str) -> Iterator[dict[str, int]]:
    """The field assignments that set ``knob`` of ``t`` to each of its values (every knob but
    ``split``, which :func:`split_moves` moves), ordered knobs in increasing order."""
    m_extent, n_extent, k_extent = extents(t)
    if knob == "iterate_order":
        yield from ({"iterate_order": v} for v in (0, 1))
    elif knob in ("step_k", "step_ka", "step_kb"):
        steps = _k_steps(ceil_div(k_extent, t.base_k))
        if knob == "step_k":
            yield from ({"step_ka": v, "step_kb": v} for v in steps)
        else:
            # The K walk needs one step a multiple of the other (DwTiling.errors).
            other = t.step_kb if knob == "step_ka" else t.step_ka
            yield from ({knob: v} for v in steps if max(v, other) % min(v, other) == 0)
    elif knob == "base_m":
        values = balanced(m_extent, FRACTAL) | {v for v in _BASES if v <= m_extent}
        yield from ({knob: v} for v in sorted(values))
    elif knob == "base_n":
        # Whole kernel windows of Cin rows (kH·kW·C0) as well as 16s.
        window = t.hk * t.wk * t.channel_size
        values = balanced(n_extent, FRACTAL) | balanced(n_extent, window)
        values |= {v for v in _BASES if v <= n_extent}
        yield from ({knob: v} for v in sorted(v for v in values if v % FRACTAL == 0))
    elif knob == "base_k":
        yield from ({"base_k": v} for v in sorted(_k_bases(t, max(k_extent, t.k0))))
    elif knob in ("step_m", "step_n"):
        base, extent = (t.base_m, m_extent) if knob == "step_m" else (t.base_n, n_extent)
        yield from ({knob: v} for v in range(1, min(_MAX_STEP, ceil_div(extent, base)) + 1))
    elif knob == "l1_buffering":
        for a, b in itertools.product((1, 2), (1, 2)):
            yield {"al1_pbuffer": a, "bl1_pbuffer": b}
    elif knob == "l0_buffering":
        for a, b in itertools.product((1, 2), (1, 2)):
            yield {"al0_pbuffer": a, "bl0_pbuffer": b}
    elif knob == "l0c_buffering":
        yield from ({"cl0_pbuffer": v} for v in (1, 2))
    else:
        raise ValueError(f"unknown tiling knob '{knob}'")


def k_walk(t: DwTiling, hw: HwConfig) -> list[dict[str, int]]:
    """The K walk of ``t``: base K at every multiple of k0 up to one core's K that fits L0A and
    L0B with ``t``'s base M and N single-buffered (the repair gives up double buffering where
    it must), whole output rows among them, in increasing order; each with the K steps that keep
    the depth of K one L1 load holds (step times base K) as near as the block count allows.

    The base K line search (:func:`knob_values`) only sees the balanced values and keeps the
    steps, so moving base K also moves the L1 tile; here the L1 tile stays and only the L0 one
    changes, which is the move that finds a base K between two balanced values (the issue's
    c3d-conv4a: 8 whole rows of Wo 14, 112) or one whose tail is better placed."""
    k_extent = max(extents(t)[2], t.k0)
    nbytes = 32 // t.channel_size
    limit = min(hw.l0a_size // (t.base_m * nbytes), hw.l0b_size // (t.base_n * nbytes))
    out: list[dict[str, int]] = []
    for v in range(t.k0, min(k_extent, limit) + 1, t.k0):
        blocks = ceil_div(k_extent, v)
        ka = min(blocks, max(1, round(t.step_ka * t.base_k / v)))
        kb = min(blocks, max(1, round(t.step_kb * t.base_k / v)))
        # One step a multiple of the other (the kernel's K walk, DwTiling.errors): the larger
        # rounded down to a multiple of the smaller.
        if ka >= kb:
            ka -= ka % kb
        else:
            kb -= kb % ka
        out.append({"base_k": v, "step_ka": ka, "step_kb": kb})
    return out


def canonical(t: DwTiling) -> DwTiling:
    """The tiling ``t`` compiles as: the lowering ping-pongs L0A and L0B only when both are
    double-buffered (``lower_api_to_hw/buffers.py``), so one double-buffered alone is single
    buffering, which fits wherever it does. Folding the two keeps the search from scoring one
    program twice."""
    if t.al0_pbuffer != t.bl0_pbuffer:
        return apply_overrides(t, {"al0_pbuffer": 1, "bl0_pbuffer": 1})
    return t


def with_split(t: DwTiling, split: CoreSplit) -> DwTiling:
    """``t``'s knobs on ``split``: its bases and M/N steps clipped to the new share (a base
    wider than the share only pads it), its K steps to the new K blocks."""
    moved = apply_overrides(t, split.tiling_fields(t.channel_size))
    m_extent, n_extent, k_extent = extents(moved)
    fields = {
        "base_m": min(t.base_m, m_extent),
        "base_n": min(t.base_n, n_extent),
        "base_k": min(t.base_k, max(k_extent, t.k0)),
    }
    k_blocks = ceil_div(k_extent, fields["base_k"])
    ka, kb = min(t.step_ka, k_blocks), min(t.step_kb, k_blocks)
    if max(ka, kb) % min(ka, kb):
        ka = kb = min(ka, kb)
    fields |= {
        "step_ka": ka,
        "step_kb": kb,
        "step_m": min(t.step_m, ceil_div(m_extent, fields["base_m"])),
        "step_n": min(t.step_n, ceil_div(n_extent, fields["base_n"])),
    }
    return apply_overrides(moved, fields)


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
SPLIT_PATIENCE = 3
"""Neighbouring splits a sweep tries past the last that improved, in the rule's order."""

START_SHARE = 1 / 4
"""Share of the budget the starting points may take (all of them at the default budget)."""

START_SLACK = 0.05
"""A Dk mode's best start gets a descent of its own when it is at most this much slower than
the best start (the nnU-Net bottleneck's best tiling comes from a start 0.9 % behind)."""

DK_MODES = ("cut", "looped", "fused")
"""How a tiling handles kD (:func:`dk_mode`). Each mode has its own best split: cutting kD over
cores is free by the work per core, so the least-work splits all cut it, and the splits that
loop kD on every core (reusing one core's x rows over the kd slices) would never start."""


@dataclass
class _Search:
    problem: ConvBpFilterShape
    hw: HwConfig
    cores: int
    budget: int
    on_candidate: Callable[[int], None] | None = None
    scores: dict[DwTiling, tuple[Score | None, float]] = field(default_factory=dict)
    """Each candidate's score and the cycle limit it was timed against."""
    rejected: int = 0
    cap: int = 0
    """Candidates the current descent may bring the count to (at most ``budget``)."""
    scorer: Scorer | None = None
    """Scores the candidates with workers speculating ahead (``tuning/speculate.py``); None:
    in this process only."""

    @property
    def spent(self) -> bool:
        return len(self.scores) >= min(self.cap or self.budget, self.budget)

    def score(self, t: DwTiling, best: Score | None = None) -> Score | None:
        """The score of ``t`` (memoized); None when it does not fit or is rejected; SLOWER
        when it is sure to be slower than ``best``. A tiling once timed only until it was
        slower than a limit is timed again against a higher one (a second start's incumbent):
        that is no new candidate."""
        limit = best.cycles if best is not None else math.inf
        if t in self.scores:
            known, timed_to = self.scores[t]
            if known is not SLOWER or limit <= timed_to:
                return known
        elif not fits(t, self.hw, self.cores):
            return None
        new = t not in self.scores
        s: Score | None
        if self.scorer is None:
            try:
                s = score_tiling(self.problem, self.hw.name, t, limit)
            except Exception:  # a candidate the compiler or the model rejects is no candidate
                s = None
        else:
            kind, s = self.scorer.outcome(t, limit)
            s = SLOWER if kind == "slower" else s
        if s is None:
            self.rejected += new
        self.scores[t] = (s, limit)
        if new and self.on_candidate is not None:
            self.on_candidate(len(self.scores))
        return s

    def known(self, t: DwTiling) -> Score | None:
        """The full score of ``t`` if it has one (scored, not cut off), else None."""
        score = self.scores.get(t, (None, 0.0))[0]
        return None if score is None or score is SLOWER else score

    def times(self, t: DwTiling, limit: float) -> bool:
        """Whether :meth:`score` would time ``t`` against ``limit`` (not answer it from the
        memo, nor drop it as not fitting)."""
        if t in self.scores:
            known, timed_to = self.scores[t]
            return known is SLOWER and limit > timed_to
        return fits(t, self.hw, self.cores)

    def plan(self, jobs: Iterable[tuple[DwTiling, float]]) -> None:
        """Tell the scorer the (tiling, limit) requests expected after the current one, those
        :meth:`score` would time, within what is left of the budget: its workers score them
        ahead (``tuning/speculate.py``). Only a guess: it changes what is computed early, never
        what the search decides."""
        if self.scorer is None or self.scorer.workers <= 1:
            return
        room = min(self.cap or self.budget, self.budget) - len(self.scores)
        out: list[tuple[DwTiling, float]] = []
        for t, limit in jobs:
            if len(out) >= HORIZON * self.scorer.workers or room <= 0:
                break
            if (t, limit) not in out and self.times(t, limit):
                room -= t not in self.scores
                out.append((t, limit))
        self.scorer.plan(out)

    def plan_moves(
        self, best: DwTiling, best_score: Score, moves: Iterable[dict[str, int] | CoreSplit]
    ) -> None:
        """:meth:`plan` the candidates of ``moves`` from ``best``, as if none improved."""
        limit = best_score.cycles
        self.plan((c, limit) for move in moves for c in moved_candidates(self, best, move))

    def quiet_moves(self, knob: str, t: DwTiling) -> Iterator[dict[str, int] | CoreSplit]:
        """The moves :meth:`descend` makes on ``knob`` from ``t`` when none improves."""
        values = self.moves(knob, t)
        if knob == "split":
            yield from (m for _, m in values[:SPLIT_PATIENCE])
        elif knob not in ORDERED:
            yield from (m for _, m in values)
        else:
            current = t.step_ka if knob == "step_k" else getattr(t, knob)
            up = [m for k, m in values if k > current][: PATIENCE + 1]
            down = [m for k, m in values if k < current][::-1][: PATIENCE + 1]
            yield from up + down

    def later_moves(
        self, knobs: Sequence[str], t: DwTiling
    ) -> Iterator[dict[str, int] | CoreSplit]:
        """:meth:`quiet_moves` of each of ``knobs`` in turn."""
        for knob in knobs:
            yield from self.quiet_moves(knob, t)

    def moves(self, knob: str, t: DwTiling) -> list[tuple[int, dict[str, int] | CoreSplit]]:
        """``knob``'s values for ``t`` with their order keys: field assignments, or for the
        split its neighbours (ranked by the rule: the key is the rank)."""
        if knob == "split":
            axes = split_axes(self.problem, t.fused_dk)
            here = CoreSplit.of_tiling(t)
            return list(enumerate(neighbour_splits(axes, here, self.cores)))
        if knob == "k_walk":
            # Every legal base K is tried (the cycles are jagged along K: a tail block, an
            # L1 load more or less), the nearest the current one first.
            walk = k_walk(t, self.hw)
            return sorted(((abs(a["base_k"] - t.base_k), a) for a in walk), key=lambda m: m[0])
        key = "step_ka" if knob == "step_k" else knob
        return [(a.get(key, 0), a) for a in knob_values(t, knob)]

    def descend(
        self, knob: str, best: DwTiling, best_score: Score, later: Sequence[str] = ()
    ) -> tuple[DwTiling, Score, bool]:
        """One knob of the coordinate descent: every value of an unordered knob; for an ordered
        one (:data:`ORDERED`) a line search, from the current value one step at a time in the
        direction that improves, while it does or for :data:`PATIENCE` values more (the other
        direction only if the first did not). The split tries its neighbours in the rule's
        order until :data:`SPLIT_PATIENCE` in a row do not improve. ``later``: the knobs the
        sweep visits next (their moves are planned ahead, :meth:`plan_moves`)."""
        values = self.moves(knob, best)

        def ahead(rest: Iterable[dict[str, int] | CoreSplit]) -> None:
            self.plan_moves(best, best_score, itertools.chain(rest, self.later_moves(later, best)))

        if knob == "split":
            moved, misses = False, 0
            for n, (_, split) in enumerate(values):
                if self.spent or misses >= SPLIT_PATIENCE:
                    break
                ahead(m for _, m in values[n + 1 : n + SPLIT_PATIENCE - misses])
                best, best_score, m = _improve(self, best, best_score, split)
                moved, misses = moved or m, 0 if m else misses + 1
            return best, best_score, moved
        if knob not in ORDERED:  # the K walk too: every value, the nearest first
            moved = False
            for n, (_, assignment) in enumerate(values):
                ahead(m for _, m in values[n + 1 :])
                best, best_score, m = _improve(self, best, best_score, assignment)
                moved = moved or m
            return best, best_score, moved
        current = best.step_ka if knob == "step_k" else getattr(best, knob)
        keys = [k for k, _ in values]
        for direction in (1, -1):
            if direction == 1:
                i = next((n for n, v in enumerate(keys) if v > current), len(keys))
            else:
                i = max((n for n, v in enumerate(keys) if v < current), default=-1)
            moved, misses = False, 0
            while 0 <= i < len(values) and not self.spent:
                # If this misses: the rest of this direction, then the other one (if nothing
                # moved), then the next knobs.
                more = PATIENCE - misses
                if direction == 1:
                    rest = values[i + 1 : i + 1 + more]
                else:
                    rest = values[max(i - more, 0) : i][::-1]
                if direction == 1 and not moved:
                    rest += [v for v in values if v[0] < current][::-1][: PATIENCE + 1]
                ahead(m for _, m in rest)
                best, best_score, m = _improve(self, best, best_score, values[i][1])
                # Look one value past a miss: divisibility makes the cycles jagged (a base M
                # of 192 that leaves a tail can lose where 256 wins).
                misses = 0 if m else misses + 1
                if misses > PATIENCE:
                    break
                moved, i = moved or m, i + direction
            if moved:
                return best, best_score, True
        return best, best_score, False

    def descent(
        self,
        best: DwTiling,
        best_score: Score,
        knobs: Sequence[str] = KNOBS,
        pairs: Sequence[tuple[str, str]] = PAIRS,
    ) -> tuple[DwTiling, Score, bool]:
        """Sweeps of single-knob moves (``knobs``) until one changes nothing, then a sweep of
        pair moves (``pairs``), and single sweeps again after any pair move that improved;
        stops when a pair sweep changes nothing too (converged: True) or :attr:`spent`."""
        while not self.spent:
            changed = False
            for n, knob in enumerate(knobs):
                best, best_score, moved = self.descend(knob, best, best_score, knobs[n + 1 :])
                changed = changed or moved
            if changed:
                continue
            for n, (a, b) in enumerate(pairs):
                moves = pair_moves(best, a, b, self.hw)
                for k, assignment in enumerate(moves):
                    if self.spent:
                        break
                    rest = itertools.chain(
                        moves[k + 1 :],
                        *(pair_moves(best, c, d, self.hw) for c, d in pairs[n + 1 : n + 3]),
                    )
                    self.plan_moves(best, best_score, rest)
                    best, best_score, moved = _improve(self, best, best_score, assignment)
                    changed = changed or moved
            if not changed:
                return best, best_score, not self.spent
        return best, best_score, False

    def late_descent(self, best: DwTiling, best_score: Score) -> tuple[DwTiling, Score]:
        """One more descent from ``best`` once the budget's descents have stalled: the K walk
        (:func:`k_walk`) first, then the usual knobs, and :data:`LATE_PAIRS`."""
        best, best_score, _ = self.descent(best, best_score, ("k_walk", *KNOBS), LATE_PAIRS)
        return best, best_score


def pair_moves(t: DwTiling, a: str, b: str, hw: HwConfig) -> list[dict[str, int]]:
    """Knobs ``a`` and ``b`` of ``t`` moved at once, each to the value next to its current one
    on either side (``b``'s values as they are once ``a`` has moved: a base K that changes the
    block count changes the K steps there are)."""
    out: list[dict[str, int]] = []
    for va in _adjacent(t, a, _current(t, a), hw):
        moved = apply_overrides(t, va)
        out += [va | vb for vb in _adjacent(moved, b, _current(t, b), hw)]
    return out


def _key(knob: str) -> str:
    """The field an ordered knob's values are ordered by."""
    return {"step_k": "step_ka", "k_walk": "base_k"}.get(knob, knob)


def _current(t: DwTiling, knob: str) -> int:
    return int(getattr(t, _key(knob)))


def _adjacent(t: DwTiling, knob: str, current: int, hw: HwConfig) -> list[dict[str, int]]:
    """The values of an ordered tiling ``knob`` of ``t`` nearest ``current`` below and above."""
    key = _key(knob)
    values = k_walk(t, hw) if knob == "k_walk" else list(knob_values(t, knob))
    below = [a for a in values if a[key] < current][-1:]
    above = [a for a in values if a[key] > current][:1]
    return below + above


def moved_candidates(
    s: _Search, best: DwTiling, move: dict[str, int] | CoreSplit
) -> list[DwTiling]:
    """The candidates :func:`_improve` scores for ``move`` from ``best`` when none improves."""
    moved_to = (
        with_split(best, move) if isinstance(move, CoreSplit) else apply_overrides(best, move)
    )
    return [c for v in repaired(moved_to, s.hw, s.cores) if (c := canonical(v)) != best]


def _improve(
    s: _Search, best: DwTiling, best_score: Score, move: dict[str, int] | CoreSplit
) -> tuple[DwTiling, Score, bool]:
    """Score the repaired variants of ``best`` moved by ``move`` (field assignments, or a
    split); keep the best of them."""
    moved_to = (
        with_split(best, move) if isinstance(move, CoreSplit) else apply_overrides(best, move)
    )
    moved = False
    for candidate in repaired(moved_to, s.hw, s.cores):
        candidate = canonical(candidate)
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
    workers: int | None = None,
    trust_starts: bool = False,
) -> TuneResult:
    """Search the tiling of ``problem`` on ``hw`` over ``cores`` cores (None: all of them).

    ``workers``: processes that score candidates (``tuning/speculate.py``: this one and
    ``workers - 1`` forked ones scoring ahead; None or 1: this process only). The
    result is the same for every count.

    ``on_candidate(n)`` is called after the n-th candidate is scored (a progress bar).
    ``extra_starts``: tilings of ``problem`` scored as starting points before the splits' (a
    transferred tiling, ``tuning/transfer.py``); one that does not fit is skipped. With
    ``trust_starts``, when the best of them beats the heuristic's tilings the search descends
    from it alone (:func:`_run`). Raises
    :class:`TilingError` when not even the heuristic finds a tiling, ``ValueError`` when the
    heuristic's own tiling cannot be compiled and timed.
    """
    start = time.perf_counter()
    config = load_hw(hw)
    cores = cores or config.aic_count
    if not 1 <= cores <= config.aic_count:
        raise ValueError(f"cores must be in [1, {config.aic_count}] for {hw}, got {cores}")
    workers = 1 if workers is None else workers
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")

    def score(t: DwTiling, limit: float) -> Score:
        return score_tiling(problem, hw, t, limit)

    with Scorer(score, workers) as scorer:
        s = _Search(problem, config, cores, max(budget, 1), on_candidate, scorer=scorer)
        result = _run(s, problem, extra_starts, trust_starts)
    result.seconds = time.perf_counter() - start
    return result


def _run(
    s: _Search,
    problem: ConvBpFilterShape,
    extra_starts: Sequence[DwTiling],
    trust_starts: bool = False,
) -> TuneResult:
    """The search itself (:func:`search`), on ``s``.

    ``trust_starts``: the extra starts are tuned tilings of layers like this one, rescaled
    (``tuning/transfer.py``). They and the heuristic's tilings are scored first; when the best
    extra start beats every heuristic tiling, the split starts are not scored and only one
    descent runs, from it (then the late descent): the start is already the neighbourhood the
    other layer's search converged to, and the split starts and the other Dk modes' descents
    are what a transfer saves. The result can differ from the search without the start
    (docs/benchmarks.md, "Transfer between layers", measures how often)."""
    config, cores = s.hw, s.cores
    heuristics = heuristic_candidates(problem, config, cores)
    baseline = s.score(heuristics[0])
    if baseline is None:
        raise ValueError("the heuristic's tiling could not be compiled and timed")
    # Each Dk mode's best starting point, each timed against its own mode's best so far (so
    # each is known exactly: a descent starts from each).
    mode_best: dict[str, tuple[DwTiling, Score]] = {
        dk_mode(heuristics[0]): (heuristics[0], baseline)
    }
    s.cap = math.ceil(s.budget * START_SHARE)
    starts = [*extra_starts, *heuristics[1:]]
    if not trust_starts:
        starts += split_starts(problem, config, cores, len(heuristics) > 1)

    def limit(t: DwTiling) -> float:
        incumbent = mode_best.get(dk_mode(t))
        return incumbent[1].cycles if incumbent else math.inf

    for n, t in enumerate(starts):
        if s.spent:
            break
        s.plan((u, limit(u)) for u in starts[n + 1 :])
        incumbent = mode_best.get(mode := dk_mode(t))
        score = s.score(t, incumbent[1] if incumbent else None)
        if score is not None and (incumbent is None or _better(score, incumbent[1])):
            mode_best[mode] = (t, score)
    if trust_starts:
        transferred = [(t, sc) for t in extra_starts if (sc := s.known(t)) is not None]
        top = min(transferred, key=lambda ts: ts[1].cycles, default=None)
        beaten = [sc for t in heuristics if (sc := s.known(t)) is not None]
        if top is not None and all(_better(top[1], sc) for sc in beaten):
            mode_best = {"transferred": top}
        else:  # no start worth trusting: the usual starts, as without the transfer
            splits = split_starts(problem, config, cores, len(heuristics) > 1)
            for n, t in enumerate(splits):
                if s.spent:
                    break
                s.plan((u, limit(u)) for u in splits[n + 1 :])
                incumbent = mode_best.get(mode := dk_mode(t))
                score = s.score(t, incumbent[1] if incumbent else None)
                if score is not None and (incumbent is None or _better(score, incumbent[1])):
                    mode_best[mode] = (t, score)
    # The best start first (stable: the heuristic's mode first on a tie), then each mode's best
    # start within START_SLACK of it; the first descent may spend all that is left, the others
    # an even share of what it leaves, and what one leaves goes to the next.
    firsts = sorted(mode_best.values(), key=lambda ts: ts[1].cycles)
    best, best_score = firsts[0]
    firsts = [ts for ts in firsts if ts[1].cycles <= best_score.cycles * (1 + START_SLACK)]
    unconverged: list[tuple[DwTiling, Score]] = []
    for n, (t, score) in enumerate(firsts):
        s.cap = 0
        if s.spent:
            break
        left = s.budget - len(s.scores)
        share = left if n == 0 else left / (len(firsts) - n)
        s.cap = len(s.scores) + math.ceil(share)
        t, score, converged = s.descent(t, score)
        if not converged:
            unconverged.append((t, score))
        if _better(score, best_score):
            best, best_score = t, score
    s.cap = 0
    # A descent cut short for the next resumes with what is left, the best first.
    for t, score in sorted(unconverged, key=lambda ts: ts[1].cycles):
        if s.spent:
            break
        t, score, _ = s.descent(t, score)
        if _better(score, best_score):
            best, best_score = t, score
    # The late descent: from the best of all, the K walk and its pair moves beside the usual
    # knobs, on candidates beyond the budget (LATE_SHARE of it); what it scored before is free.
    s.budget += math.ceil(s.budget * LATE_SHARE)
    best, best_score = s.late_descent(best, best_score)
    return TuneResult(
        heuristic=heuristics[0],
        heuristic_score=baseline,
        tuned=best,
        tuned_score=best_score,
        candidates=len(s.scores),
        rejected=s.rejected,
        seconds=0.0,
    )


def dk_mode(t: DwTiling) -> str:
    """``fused`` (kD in N), ``cut`` (separate, kD cut over cores) or ``looped`` (separate, every
    core loops over its kd slices; also every layer with kD 1)."""
    if t.fused_dk:
        return "fused"
    return "cut" if t.dk_dim > 1 else "looped"


def split_starts(
    problem: ConvBpFilterShape, hw: HwConfig, cores: int, both_modes: bool
) -> list[DwTiling]:
    """The vendor's block tiling of the :data:`SPLITS` splits with the least work per core of
    each Dk mode (:data:`DK_MODES`; fused only when ``both_modes``): the starting points beside
    the heuristic's, round robin over the modes (the least work first in each), so a budget too
    small to time them all still starts every mode."""
    families: list[list[CoreSplit]] = []
    for fuse in [False] + ([True] if both_modes else []):
        splits = core_splits(split_axes(problem, fuse), cores)
        if fuse:
            families.append(splits[:SPLITS])
        else:
            families.append([sp for sp in splits if sp.dk_dim > 1][:SPLITS])
            families.append([sp for sp in splits if sp.dk_dim == 1][:SPLITS])
    out: list[DwTiling] = []
    for row in itertools.zip_longest(*families):
        for split in row:
            if split is not None:
                with contextlib.suppress(TilingError):  # a share no block fits is no start
                    out.append(split_tiling(problem, split, hw))
    return out
