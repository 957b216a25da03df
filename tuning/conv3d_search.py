"""The tiling search of the forward conv (``ascend.conv3d``), behind its ``strategy=tuned``: find a
``Conv3DTiling`` the cost model scores faster than the heuristic's, and cache it on disk.

Where it fits. ``tuning/search.py`` searches the dW tiling; this module is its forward twin and
takes from it what does not depend on the op: the :class:`~ascend_xdsl.tuning.search.Score` and
its ``SLOWER`` cut-off, the balanced block sizes (``search.balanced``), the line search's
patience and the starts' budget share. What differs is the knob space (the forward API's
tiling has no K/M/N steps, no iterate order and no Dk mode) and how a candidate is compiled:
``build_forward_module``, the tiling put on the ``ascend.conv3d`` (``ascend-tile-conv3d`` keeps
a tiling that fits), ``compile_levels`` unverified to the hardware level, then the cost-only
mode. The forward tiler reaches :func:`tune_forward` by name, through
``passes/tiling_options.FORWARD_SEARCHES``; ``ascend-tune`` (``tuning/sweep.py``) through its
table of ops.

The search (docs/passes.md, "tuned (forward)", says why the space is pruned so):

1. *The knobs* (:data:`KNOBS`): the core split (batch, Dout, Cout, M pieces; every split that
   leaves no core idle, ranked by one core's work, :func:`forward_splits`), mL0, nL0 and kL0
   (balanced multiples of 16 of one core's M, N and K, whole Wo rows for M, whole kernel
   windows for K, the powers of two), L0A/L0B buffering, L0C buffering, AL1/BL1 buffering.
   The L1 depth is not a knob: the lowering fills L1 with as many Cin1 blocks as fit
   (``ForwardPlan``), as the vendor's full-load L1 case.
2. *Starts*: the heuristic's tiling (so the result is never slower than it), then the vendor's
   L0 tiling of the :data:`SPLITS` least-work splits, on at most ``START_SHARE`` of the budget.
3. *Coordinate descent* from the best start (and each start within ``START_SLACK`` of it, on
   what is left): ordered knobs line-searched one value past a miss, the others tried in turn,
   the split moved to the next-ranked splits; then pair moves of the L0 tile; a tie keeps the
   incumbent. A move that overflows a buffer is repaired (:func:`repaired`: single buffering,
   then a smaller kL0) rather than dropped; one that does not fit is never compiled.
4. *Budget*: at most ``budget`` candidates are scored (counted, not timed: deterministic), and a
   candidate is timed only until it is sure to be slower than the incumbent.
"""

from __future__ import annotations

import itertools
import logging
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.conv3d_tiling import INPUT_ELEMENT_BYTES, L0C_ELEMENT_BYTES, Conv3DTiling
from ascend_xdsl.dialects.conv_shape import FRACTAL, ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.op_level import Conv3DOp
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.lowering.build import FORWARD_FUNC_NAME, build_forward_module
from ascend_xdsl.lowering.lower_api_to_hw.conv3d_walk import ForwardPlan
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.passes.conv3d_tiling_heuristic import ForwardSplit, conv3d_tiling, split_tiling
from ascend_xdsl.passes.tile_conv3d import tiling_fit_errors
from ascend_xdsl.runtime.cost.cost_only import CycleLimitExceeded
from ascend_xdsl.runtime.cost.model import COST_ONLY
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.cached_search import cached_answer, count_error, with_progress
from ascend_xdsl.tuning.search import (
    PATIENCE,
    SLOWER,
    START_SHARE,
    START_SLACK,
    Score,
    SearchResult,
    balanced,
)

LOG = logging.getLogger("ascend_xdsl.tuning")

OP = "forward"
"""The op name of this search in the cache key and in ``ascend-tune``'s rows."""

BUDGET = 48
"""Candidates scored at most per layer: the forward space has 7 knobs against dW's 13, and a
descent converges in fewer (the suite's layers within 20-40)."""

SPLITS = 6
"""Least-work core splits whose vendor L0 tiling is a starting point beside the heuristic's."""

SPLIT_MOVES = 8
"""Splits the ``split`` knob may try: the ones ranked nearest the current one (half above, half
below in the rank order, least work first)."""

SPLIT_PATIENCE = 3
"""Splits in a row that do not improve before the ``split`` knob stops."""

KNOBS: tuple[str, ...] = (
    "split",
    "m_l0",
    "n_l0",
    "k_l0",
    "l0_buffering",
    "l0c_buffering",
    "l1_buffering",
)
"""The coordinate-descent knobs, in the order a sweep visits them."""

ORDERED = frozenset({"m_l0", "n_l0", "k_l0"})
"""Knobs line-searched from their current value (the others are tried value by value)."""

PAIRS: tuple[tuple[str, str], ...] = (("m_l0", "n_l0"), ("m_l0", "k_l0"), ("n_l0", "k_l0"))
"""The L0 tile's sides moved two at a time once single moves stall: L0A holds mL0·kL0, L0B
kL0·nL0 and L0C mL0·nL0, so one side alone can overflow where two moved together fit."""

RESCORE_TOLERANCE = 1e-9
"""Relative difference allowed between a cache entry's cycles and their re-score."""

# pbuffer_flag bits (Conv3DTiling): L0A, L0B, L0C, AL1, BL1.
_L0A, _L0B, _L0C, _AL1, _BL1 = range(5)


@dataclass
class ForwardTuneResult(SearchResult[Conv3DTiling]):
    """The heuristic's and the tuned forward tiling of one problem, with their scores."""

    TILING = Conv3DTiling
    OP = OP  # the module's


def one_group(problem: ConvBpFilterShape) -> ConvBpFilterShape:
    """The problem of one group's launch (the runtime runs a grouped forward conv as one
    launch per group on its channels, ``runtime/forward.py``)."""
    g = problem.groups
    return replace(problem, cin=problem.cin // g, cout=problem.cout // g, groups=1)


def forward_hw_module(problem: ConvBpFilterShape, hw: str, tiling: Conv3DTiling) -> ModuleOp:
    """The forward conv of ``problem`` compiled with ``tiling`` to the hardware level,
    unverified (the tuner's inner loop): the tiling is put on the op-level ``ascend.conv3d``,
    which ``ascend-tile-conv3d`` keeps when it fits."""
    module = build_forward_module(problem)
    for op in module.walk():
        if isinstance(op, Conv3DOp):
            op.properties["tiling"] = Conv3DTilingAttr(tiling)
    return compile_levels(module, CompileOptions.create(hw=hw), verify=False)["hw"]


def score_forward(
    problem: ConvBpFilterShape, hw: str, tiling: Conv3DTiling, cycle_limit: float = math.inf
) -> Score:
    """Compile the forward ``problem`` with ``tiling`` to the hardware level and time it, cost
    only; :data:`SLOWER` once it is sure to take more than ``cycle_limit`` cycles."""
    options = CompileOptions.create(hw=hw)
    hw_module = forward_hw_module(problem, hw, tiling)
    try:
        (report,) = COST_ONLY.predict(
            hw_module, options.hw, entry=FORWARD_FUNC_NAME, problem=problem, cycle_limit=cycle_limit
        )
    except CycleLimitExceeded:
        return SLOWER
    return Score(report.cycles, report.efficiency, report.bound, report.bottleneck)


# -- legality and repair ----------------------------------------------------------------------
def _pieces(whole: int, share: int) -> int:
    return ceil_div(whole, share)


def idle_error(t: Conv3DTiling) -> str | None:
    """Why ``t`` leaves a core without work (a piece count its share does not need), or None."""
    batch_share = ceil_div(t.batch, t.batch_dim)
    for name, dim, whole, share in (
        ("batch_dim", t.batch_dim, t.batch, batch_share),
        ("do_dim", t.do_dim, t.org_do, t.single_core_do),
        ("co_dim", t.co_dim, t.org_co, t.single_core_co),
        ("m_dim", t.m_dim, t.org_ho * t.org_wo, t.single_core_m),
    ):
        if _pieces(whole, share) != dim:
            return f"{name} {dim} leaves a core idle (shares of {share} cover {whole} in fewer)"
    return None


def fit_errors(t: Conv3DTiling, hw: HwConfig, cores: int) -> list[str]:
    """Every reason ``t`` is no candidate on ``cores`` cores of ``hw``: the tiling's own rules
    and the core count (what ``ascend-tile-conv3d`` checks), a core left idle, and L1 (the
    lowering's plan of A1 and B1, ``ForwardPlan``)."""
    errors = tiling_fit_errors(t, hw, cores)
    if errors:
        return errors
    if (idle := idle_error(t)) is not None:
        return [idle]
    try:
        ForwardPlan.of(t, hw)
    except PassFailedException as e:
        return [str(e)]
    return []


def fits(t: Conv3DTiling, hw: HwConfig, cores: int) -> bool:
    return not fit_errors(t, hw, cores)


def _with_buffer(t: Conv3DTiling, bit: int, slots: int) -> Conv3DTiling:
    flag = t.pbuffer_flag | (1 << bit) if slots == 2 else t.pbuffer_flag & ~(1 << bit)
    return replace(t, pbuffer_flag=flag)


def _l0_over(t: Conv3DTiling, hw: HwConfig) -> tuple[bool, bool, bool]:
    """Whether the L0A, L0B and L0C tiles of ``t`` overflow."""
    b = INPUT_ELEMENT_BYTES
    return (
        t.m_l0 * t.k_l0 * b * t.buffered(_L0A) > hw.l0a_size,
        t.k_l0 * t.n_l0 * b * t.buffered(_L0B) > hw.l0b_size,
        t.m_l0 * t.n_l0 * L0C_ELEMENT_BYTES * t.buffered(_L0C) > hw.l0c_size,
    )


def repaired(t: Conv3DTiling, hw: HwConfig, cores: int) -> Conv3DTiling | None:
    """``t`` made to fit, or None: an overflowing L0 buffer first loses its double buffering,
    then kL0 shrinks to the largest multiple of 16 that fits L0A and L0B; an overflowing L1
    loses AL1's double buffering, then BL1's. The knob that was moved stays where it was put
    (unless it is kL0 itself), so the move is still the one tried."""
    for _ in range(8):
        a, b, c = _l0_over(t, hw)
        if a and t.buffered(_L0A) == 2:
            t = _with_buffer(t, _L0A, 1)
        elif b and t.buffered(_L0B) == 2:
            t = _with_buffer(t, _L0B, 1)
        elif c and t.buffered(_L0C) == 2:
            t = _with_buffer(t, _L0C, 1)
        elif a or b:
            k = min(
                hw.l0a_size // (t.m_l0 * INPUT_ELEMENT_BYTES * t.buffered(_L0A)),
                hw.l0b_size // (t.n_l0 * INPUT_ELEMENT_BYTES * t.buffered(_L0B)),
            )
            k = k // FRACTAL * FRACTAL
            if k < FRACTAL:
                return None
            t = replace(t, k_l0=k)
        elif c:
            return None
        else:
            break
    errors = fit_errors(t, hw, cores)
    if errors and any("do not fit L1" in e for e in errors):  # ForwardPlan's L1 message
        for bit in (_AL1, _BL1):
            if t.buffered(bit) == 2:
                t = _with_buffer(t, bit, 1)
                if fits(t, hw, cores):
                    return t
        return None
    return None if errors else t


# -- the knob space ---------------------------------------------------------------------------
def _cut(whole: int, pieces: int, granule: int) -> tuple[int, int]:
    share = min(align_up(ceil_div(whole, pieces), granule), whole)
    return _pieces(whole, share), share


def forward_splits(problem: ConvBpFilterShape, cores: int) -> list[ForwardSplit]:
    """Every split of batch, Dout, Cout (in C0 blocks) and M = Ho·Wo (in 16-row blocks) over at
    most ``cores`` cores that leaves no core idle, the least work per core first (its M and N
    rounded up to whole fractals), then the fewest cores (the same work on fewer cores
    leaves the L2 to fewer readers), then the pieces (a stable order)."""
    m_whole = problem.ho * problem.wo
    out: dict[ForwardSplit, tuple[int, int, tuple[int, ...]]] = {}
    for bd in range(1, min(problem.batch, cores) + 1):
        if _pieces(problem.batch, ceil_div(problem.batch, bd)) != bd:
            continue
        for dd in range(1, min(problem.dout, cores // bd) + 1):
            d_pieces, d_share = _cut(problem.dout, dd, 1)
            if d_pieces != dd:
                continue
            co_max = cores // (bd * dd) if problem.groups == 1 else 1
            for cd in range(1, min(ceil_div(problem.cout, FRACTAL), co_max) + 1):
                c_pieces, c_share = _cut(problem.cout, cd, FRACTAL)
                if c_pieces != cd:
                    continue
                for md in range(1, min(ceil_div(m_whole, FRACTAL), cores // (bd * dd * cd)) + 1):
                    m_pieces, m_share = _cut(m_whole, md, FRACTAL)
                    if m_pieces != md:
                        continue
                    split = ForwardSplit(bd, dd, cd, md, d_share, c_share, m_share)
                    work = (
                        ceil_div(problem.batch, bd)
                        * d_share
                        * align_up(c_share, FRACTAL)
                        * align_up(m_share, FRACTAL)
                    )
                    out[split] = (work, split.cores, (bd, dd, cd, md))
    return sorted(out, key=lambda s: out[s])


def with_split(t: Conv3DTiling, split: ForwardSplit) -> Conv3DTiling:
    return replace(
        t,
        batch_dim=split.batch_dim,
        do_dim=split.do_dim,
        co_dim=split.co_dim,
        m_dim=split.m_dim,
        single_core_do=split.single_do,
        single_core_co=split.single_co,
        single_core_m=split.single_m,
    )


def extents(t: Conv3DTiling) -> tuple[int, int, int]:
    """One core's GEMM M and N rounded up to fractals, and the K of one kernel depth (the
    lowering's k steps walk one kd's Cin1·kH·kW·C0 columns at a time)."""
    cin1 = ceil_div(t.org_ci // t.groups, FRACTAL)
    return (
        align_up(t.single_core_m, FRACTAL),
        align_up(t.single_core_co, FRACTAL),
        cin1 * t.kernel_h * t.kernel_w * FRACTAL,
    )


def _powers_of_two(limit: int) -> set[int]:
    return {FRACTAL << i for i in range(20) if FRACTAL << i <= limit}


def knob_values(t: Conv3DTiling, knob: str) -> Iterator[dict[str, int]]:
    """The field assignments that set ``knob`` (every knob but ``split``) of ``t`` to each of
    its values, ordered knobs in increasing order."""
    m_extent, n_extent, k_extent = extents(t)
    if knob == "m_l0":
        rows = {r * t.org_wo for r in range(1, m_extent // t.org_wo + 1)}
        values = balanced(m_extent, FRACTAL) | _powers_of_two(m_extent)
        values |= {v for v in rows if v % FRACTAL == 0 and v <= m_extent}
        yield from ({"m_l0": v} for v in sorted(values))
    elif knob == "n_l0":
        values = balanced(n_extent, FRACTAL) | _powers_of_two(n_extent)
        yield from ({"n_l0": v} for v in sorted(values))
    elif knob == "k_l0":
        window = t.kernel_h * t.kernel_w * FRACTAL  # one Cin1 block of one kernel window
        values = balanced(k_extent, FRACTAL) | balanced(k_extent, window)
        values |= _powers_of_two(k_extent)
        yield from ({"k_l0": v} for v in sorted(values))
    elif knob in ("l0_buffering", "l1_buffering"):
        bits = (_L0A, _L0B) if knob == "l0_buffering" else (_AL1, _BL1)
        for a, b in itertools.product((1, 2), (1, 2)):
            flag = t.pbuffer_flag & ~(1 << bits[0] | 1 << bits[1])
            flag |= (a == 2) << bits[0] | (b == 2) << bits[1]
            yield {"pbuffer_flag": flag}
    elif knob == "l0c_buffering":
        for slots in (1, 2):
            yield {"pbuffer_flag": _with_buffer(t, _L0C, slots).pbuffer_flag}
    else:
        raise ValueError(f"unknown forward tiling knob '{knob}'")


def better(a: Score | None, b: Score | None) -> bool:
    """``a`` strictly beats ``b`` (a tie keeps the incumbent)."""
    return a is not None and (b is None or a.cycles < b.cycles)


@dataclass
class _Search:
    problem: ConvBpFilterShape
    hw: HwConfig
    cores: int
    budget: int
    on_candidate: Callable[[int], None] | None = None
    scores: dict[Conv3DTiling, tuple[Score | None, float]] = field(default_factory=dict)
    rejected: int = 0
    cap: int = 0
    splits: list[ForwardSplit] = field(default_factory=list)

    @property
    def spent(self) -> bool:
        return len(self.scores) >= min(self.cap or self.budget, self.budget)

    def score(
        self, t: Conv3DTiling, best: Score | None = None, trusted: bool = False
    ) -> Score | None:
        """The score of ``t`` (memoized; timed again against a higher limit when it was cut
        off at a lower one); None when it does not fit or is rejected. ``trusted``: the
        heuristic's own tiling, scored whatever :func:`fits` says (its batch split may leave a
        core idle: batch 5 over 4 cores is 2, 2, 1 and none)."""
        limit = best.cycles if best is not None else math.inf
        if t in self.scores:
            known, timed_to = self.scores[t]
            if known is not SLOWER or limit <= timed_to:
                return known
        elif not trusted and not fits(t, self.hw, self.cores):
            return None
        new = t not in self.scores
        try:
            s: Score | None = score_forward(self.problem, self.hw.name, t, limit)
        except Exception:  # a candidate the compiler or the model rejects is no candidate
            s = None
            self.rejected += new
        self.scores[t] = (s, limit)
        if new and self.on_candidate is not None:
            self.on_candidate(len(self.scores))
        return s

    def improve(
        self, best: Conv3DTiling, best_score: Score, moved: Conv3DTiling
    ) -> tuple[Conv3DTiling, Score, bool]:
        candidate = repaired(moved, self.hw, self.cores)
        if candidate is None or candidate == best or self.spent:
            return best, best_score, False
        score = self.score(candidate, best_score)
        if better(score, best_score):
            return candidate, score, True  # type: ignore[return-value]
        return best, best_score, False

    def descend(
        self, knob: str, best: Conv3DTiling, best_score: Score
    ) -> tuple[Conv3DTiling, Score, bool]:
        """One knob: the split's next-ranked splits (the current L0 tile, and the vendor's L0
        tile of that split); an ordered knob line-searched from its value (one value past a
        miss, the other direction only if the first did not improve); others value by value."""
        if knob == "split":
            here = ForwardSplit.of_tiling(best)
            rank = self.splits.index(here) if here in self.splits else 0
            others = [s for s in self.splits if s != here]
            window = others[max(0, rank - SPLIT_MOVES // 2) : rank + SPLIT_MOVES // 2]
            moved, misses = False, 0
            for split in window:
                if self.spent or misses >= SPLIT_PATIENCE:
                    break
                m = False
                for t in (with_split(best, split), _vendor(self.problem, self.hw, split)):
                    if t is not None:
                        best, best_score, improved = self.improve(best, best_score, t)
                        m = m or improved
                moved, misses = moved or m, 0 if m else misses + 1
            return best, best_score, moved
        values = list(knob_values(best, knob))
        if knob not in ORDERED:
            moved = False
            for assignment in values:
                best, best_score, m = self.improve(best, best_score, replace(best, **assignment))
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
                best, best_score, m = self.improve(best, best_score, replace(best, **values[i]))
                misses = 0 if m else misses + 1
                if misses > PATIENCE:
                    break
                moved, i = moved or m, i + direction
            if moved:
                return best, best_score, True
        return best, best_score, False

    def descent(self, best: Conv3DTiling, best_score: Score) -> tuple[Conv3DTiling, Score, bool]:
        """Sweeps of single-knob moves until one changes nothing, then a sweep of pair moves
        (each side of both knobs to its neighbouring values); converged (True) when that changes
        nothing too, False when the budget ran out first."""
        while not self.spent:
            changed = False
            for knob in KNOBS:
                best, best_score, moved = self.descend(knob, best, best_score)
                changed = changed or moved
            if changed:
                continue
            for a, b in PAIRS:
                for va, vb in itertools.product(_adjacent(best, a), _adjacent(best, b)):
                    if self.spent:
                        break
                    best, best_score, moved = self.improve(
                        best, best_score, replace(best, **va, **vb)
                    )
                    changed = changed or moved
            if not changed:
                return best, best_score, not self.spent
        return best, best_score, False


def _adjacent(t: Conv3DTiling, knob: str) -> list[dict[str, int]]:
    """The values of an ordered ``knob`` of ``t`` nearest its current one, below and above."""
    current = getattr(t, knob)
    values = list(knob_values(t, knob))
    return [a for a in values if a[knob] < current][-1:] + [a for a in values if a[knob] > current][
        :1
    ]


def _vendor(problem: ConvBpFilterShape, hw: HwConfig, split: ForwardSplit) -> Conv3DTiling | None:
    """The vendor's L0 tiling of ``split``'s share, or None when its L0 decision finds none."""
    try:
        return split_tiling(problem, hw, split)
    except (ValueError, IndexError):
        return None


def search_forward(
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
    on_candidate: Callable[[int], None] | None = None,
) -> ForwardTuneResult:
    """Search the forward tiling of ``problem`` (one group: the forward lowering takes groups
    1) on ``hw`` over ``cores`` cores (None: all). ``ValueError`` when the problem is grouped,
    ``cores`` is out of range or the heuristic's own tiling cannot be compiled and timed."""
    start = time.perf_counter()
    config = load_hw(hw)
    cores = cores or config.aic_count
    if not 1 <= cores <= config.aic_count:
        raise ValueError(f"cores must be in [1, {config.aic_count}] for {hw}, got {cores}")
    if problem.groups != 1:
        raise ValueError(
            f"the forward search takes one group's problem (groups 1), got groups {problem.groups}"
        )
    s = _Search(problem, config, cores, max(budget, 1), on_candidate)
    s.splits = forward_splits(problem, cores)
    heuristic = conv3d_tiling(problem, config, cores)
    baseline = s.score(heuristic, trusted=True)
    if baseline is None:
        raise ValueError("the heuristic's forward tiling could not be compiled and timed")
    starts: list[tuple[Conv3DTiling, Score]] = [(heuristic, baseline)]
    best, best_score = heuristic, baseline
    s.cap = math.ceil(s.budget * START_SHARE)
    for split in s.splits[:SPLITS]:
        t = _vendor(problem, config, split)
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
    return ForwardTuneResult(
        heuristic=heuristic,
        heuristic_score=baseline,
        tuned=best,
        tuned_score=best_score,
        candidates=len(s.scores),
        rejected=s.rejected,
        seconds=time.perf_counter() - start,
    )


# -- the cache --------------------------------------------------------------------------------
class BadForwardEntry(ValueError):
    """A forward cache entry whose content does not hold up (see :func:`verified`)."""


def _rescored(
    name: str, claimed: Score, problem: ConvBpFilterShape, hw: str, tiling: Conv3DTiling
) -> Score:
    cycles = claimed.cycles
    if not (
        isinstance(cycles, int | float)
        and not isinstance(cycles, bool)
        and math.isfinite(cycles)
        and cycles > 0
    ):
        raise BadForwardEntry(f"{name} cycles {cycles!r} are not a positive finite number")
    try:
        score = score_forward(problem, hw, tiling, cycles * (1 + RESCORE_TOLERANCE) + 1)
    except Exception as e:
        raise BadForwardEntry(f"{name} tiling cannot be compiled and timed ({e})") from None
    if score is SLOWER or abs(score.cycles - cycles) > RESCORE_TOLERANCE * score.cycles:
        measured = "more than that" if score is SLOWER else f"{score.cycles:g}"
        raise BadForwardEntry(f"{name} claims {cycles:g} cycles, the cost model gives {measured}")
    return score


def verified(
    data: dict[str, Any], problem: ConvBpFilterShape, hw: str, cores: int
) -> ForwardTuneResult:
    """The cached forward search result ``data`` of ``problem`` if it holds up, else
    :class:`BadForwardEntry` naming the first thing that does not: its layout and counts, both
    tilings are ``problem``'s and legal candidates (:func:`fit_errors`), the heuristic's is the
    one the heuristic gives now, each claimed cycle count is reproduced by a re-score (the
    scores returned are the re-scores) and the tuned one is not slower."""
    try:
        result = ForwardTuneResult.from_json(data, cached=True)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise BadForwardEntry(f"is not a forward search result ({e})") from None
    if (error := count_error(result)) is not None:
        raise BadForwardEntry(error)
    config = load_hw(hw)
    for name, tiling in (("heuristic", result.heuristic), ("tuned", result.tuned)):
        # The heuristic's tiling is checked as the tiler checks it (it is then compared with
        # today's heuristic); any other tuned tiling must be one the search could score.
        legal = tiling_fit_errors if tiling == result.heuristic else fit_errors
        errors = tiling.problem_errors(problem) or legal(tiling, config, cores)
        if errors:
            raise BadForwardEntry(f"{name} {errors[0]}")
    if result.heuristic != conv3d_tiling(problem, config, cores):
        raise BadForwardEntry("heuristic tiling is not the one the heuristic gives")
    heuristic = _rescored("heuristic", result.heuristic_score, problem, hw, result.heuristic)
    # The same tiling twice is scored once, if both claim the same cycles.
    claimed = result.tuned_score.cycles
    same = result.tuned == result.heuristic and claimed == result.heuristic_score.cycles
    tuned = heuristic if same else _rescored("tuned", result.tuned_score, problem, hw, result.tuned)
    if tuned.cycles > heuristic.cycles:
        raise BadForwardEntry("tuned tiling is slower than the heuristic's, which the search keeps")
    result.heuristic_score, result.tuned_score = heuristic, tuned
    return result


def cache_key(problem: ConvBpFilterShape, hw: str, cores: int, budget: int) -> str:
    """The forward search's key: the dW key's request (layer, hw, cores, budget, compiler)
    with ``op`` forward, so the two ops never share an entry."""
    return cache.cache_key(problem, hw, cores, budget, op=OP)


def cached_forward(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
) -> ForwardTuneResult | None:
    """The cache's verified answer for the forward search of ``problem``, or None (a miss, or a
    bad entry, discarded with a one-line warning): never searches."""
    cores = cores or load_hw(hw).aic_count
    key = cache_key(problem, hw, cores, budget)
    return cached_answer(key, lambda hit: verified(hit, problem, hw, cores), BadForwardEntry)


def tune_forward(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
    use_cache: bool = True,
    progress: bool = False,
    on_candidate: Callable[[int], None] | None = None,
) -> ForwardTuneResult:
    """The heuristic's and the tuned forward tiling of ``problem`` on ``hw`` with ``cores``
    cores (None: all), from the cache unless ``use_cache`` is False (the answer is then stored
    again). ``progress``: a bar on standard error when it is a terminal and the search lasts
    over ``cached_search.PROGRESS_AFTER`` seconds. ``on_candidate(n)`` after the n-th candidate."""
    cores = cores or load_hw(hw).aic_count
    if use_cache and (hit := cached_forward(problem, hw, cores, budget=budget)) is not None:
        return hit
    result = with_progress(
        lambda scored: search_forward(problem, hw, cores, budget=budget, on_candidate=scored),
        budget,
        "tuning forward",
        progress,
        on_candidate,
    )
    cache.store(cache_key(problem, hw, cores, budget), result.to_json())
    return result
