"""The tiling search of the forward conv (``ascend.conv3d``), behind its ``strategy=tuned``: find a
``Conv3DTiling`` the cost model scores faster than the heuristic's, and cache it on disk.

Where it fits. ``tuning/search.py`` searches the dW tiling; the descent itself (starts, the
coordinate descent, the pair moves, the budget, the never-slower rule and the verified cache) is
``tuning/descent.py``'s, shared with the input gradient's search
(``tuning/conv3d_bp_input_search.py``). This module is the forward's *space*
(:class:`ForwardSpace`): its knobs, its core splits, its legality and repair rules, and how a
candidate is compiled: ``build_forward_module``, the tiling put on the ``ascend.conv3d``
(``ascend-tile-conv3d`` keeps a tiling that fits), ``compile_levels`` unverified to the hardware
level, then the cost-only mode. The forward tiler reaches :func:`tune_forward` by name, through
``passes/tiling_options.FORWARD_SEARCHES``; ``ascend-tune`` (``tuning/sweep.py``) through its
table of ops.

The space (docs/passes.md, "tuned (forward)", says why it is pruned so):

1. *The knobs* (:data:`KNOBS`): the core split (batch, Dout, Cout, M pieces; every split that
   leaves no core idle, ranked by one core's work, :func:`forward_splits`), mL0, nL0 and kL0
   (balanced multiples of 16 of one core's M, N and K, whole Wo rows for M, whole kernel
   windows for K, the powers of two), L0A/L0B buffering, L0C buffering, then the L1 tiling
   the kernel walks (``lowering/lower_api_to_hw/conv3d_walk.py``): kAL1 and kBL1 (the vendor's
   range, ``GetL1TilingRange``: factors of Cin1 or whole kernel depths, multiples of kL0),
   mAL1 and nBL1 (factor multiples of mL0 / nL0, or the core's whole M / N), the M/N order,
   AL1/BL1 buffering.
2. *Starts*: the heuristic's tiling, then the vendor's tiling of the ``descent.SPLITS``
   least-work splits (:func:`_vendor`).
3. *Repair* (:func:`repaired`): the L1 tiling kept if it still holds for the L0 tile, else
   the vendor's L1 tiling of that L0 tile (:func:`legal_l1`); then single buffering, then a
   smaller kL0, then single L1 buffering; a move that still does not fit is never compiled.
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
from ascend_xdsl.passes.conv3d_tiling_heuristic import (
    ForwardSplit,
    conv3d_tiling,
    l1_depths,
    l1_refreshed,
    problem_of_tiling,
    split_tiling,
    with_l1,
)
from ascend_xdsl.passes.tile_conv3d import tiling_fit_errors
from ascend_xdsl.runtime.cost.cost_only import CycleLimitExceeded
from ascend_xdsl.runtime.cost.model import COST_ONLY
from ascend_xdsl.tuning.descent import BadSearchEntry, OpSearch, run_descent
from ascend_xdsl.tuning.search import SLOWER, Score, SearchResult, balanced

LOG = logging.getLogger("ascend_xdsl.tuning")

OP = "forward"
"""The op name of this search in the cache key and in ``ascend-tune``'s rows."""

BUDGET = 48
"""Candidates scored at most per layer: the forward space has 12 knobs against dW's 13; a
descent of the suite's layers converges within it."""

KNOBS: tuple[str, ...] = (
    "split",
    "m_l0",
    "n_l0",
    "k_l0",
    "l0_buffering",
    "l0c_buffering",
    "k_al1",
    "k_bl1",
    "m_al1",
    "n_bl1",
    "mn_order",
    "l1_buffering",
)
"""The coordinate-descent knobs, in the order a sweep visits them: the split, the L0 tile and
its buffering, then the L1 tiling (A1's and B1's K depth and M / N extent, the M/N order, the
AL1/BL1 buffering), each within the vendor's ranges (``GetL1TilingRange``)."""

ORDERED = frozenset({"m_l0", "n_l0", "k_l0", "k_al1", "k_bl1", "m_al1", "n_bl1"})
"""Knobs line-searched from their current value (the others are tried value by value)."""

PAIRS: tuple[tuple[str, str], ...] = (
    ("m_l0", "n_l0"),
    ("m_l0", "k_l0"),
    ("n_l0", "k_l0"),
    ("k_l0", "k_bl1"),
)
"""Knobs moved two at a time once single moves stall: L0A holds mL0·kL0, L0B kL0·nL0 and L0C
mL0·nL0, so one side alone can overflow where two moved together fit; kL0 divides kBL1, so a
shallower B1 needs a smaller kL0 with it."""

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


def legal_l1(t: Conv3DTiling, hw: HwConfig) -> Conv3DTiling:
    """``t`` with its L1 fields' derived values refreshed (``l1_refreshed``) when its L1 tiling
    still holds for its L0 tile (the rules of ``Conv3DTiling.l1_errors`` and L1's size), else
    with the vendor's L1 tiling of its L0 tile (``with_l1``): an L1 knob's move is kept, an L0
    move that breaks the L1 tiling gets the one the vendor's tiler would pair with it. kL0 is
    lowered to divide the L1 depths, and a weight tiled in L1 double-buffered when both slots
    fit (the vendor's ``UpdateL1DoubleBuffer``)."""
    t = l1_refreshed(t)
    depths = [t.k_al1] + ([] if t.bl1_bypass_flag else [t.k_bl1])
    common = math.gcd(*depths) if all(d % FRACTAL == 0 and d > 0 for d in depths) else 0
    if common and common % t.k_l0:
        # kL0 lowered to the largest K0 multiple dividing the L1 depths (the vendor's kL0 range).
        blocks = common // FRACTAL
        t = replace(
            t, k_l0=FRACTAL * max(f for f in range(1, blocks + 1) if blocks % f == 0
                                  and f * FRACTAL <= t.k_l0) if t.k_l0 >= FRACTAL else FRACTAL,
        )  # fmt: skip
    if t.l1_errors() or t.l1_bytes() > hw.l1_size:
        return with_l1(t, problem_of_tiling(t), hw)
    if not t.bl1_bypass_flag and not t.bl1_full_load and t.buffered(_BL1) == 1:
        # UpdateL1DoubleBuffer: a weight tiled in L1 is double-buffered when both slots fit.
        double = _with_buffer(t, _BL1, 2)
        if double.l1_bytes() <= hw.l1_size:
            t = double
    return t


def repaired(t: Conv3DTiling, hw: HwConfig, cores: int) -> Conv3DTiling | None:
    """``t`` made to fit, or None: an overflowing L0 buffer first loses its double buffering,
    then kL0 shrinks to the largest multiple of 16 that fits L0A and L0B; an overflowing L1
    loses AL1's double buffering, then BL1's. The knob that was moved stays where it was put
    (unless it is kL0 itself), so the move is still the one tried. The L1 tiling is made legal
    (:func:`legal_l1`) before and after."""
    try:
        t = legal_l1(t, hw)
    except ValueError:  # the vendor's L1 decision finds none for this L0 tile
        return None
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
    try:
        t = legal_l1(t, hw)  # kL0 or the buffering may have moved
    except ValueError:
        return None
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
    elif knob in ("k_al1", "k_bl1"):
        if knob == "k_bl1" and t.bl1_bypass_flag:
            return
        # kL0 need not divide a value: the repair lowers kL0 to a common factor (legal_l1).
        yield from ({knob: v} for v in l1_depths(t, postk_limit=knob == "k_al1"))
    elif knob in ("m_al1", "n_bl1"):
        if knob == "n_bl1" and t.bl1_bypass_flag:
            return
        l0 = t.m_l0 if knob == "m_al1" else t.n_l0
        whole = align_up(t.single_core_m if knob == "m_al1" else t.single_core_co, FRACTAL)
        top = ceil_div(whole, l0)
        values = {f * l0 for f in range(1, top + 1) if top % f == 0} | {whole}
        yield from ({knob: v} for v in sorted(values))
    elif knob == "mn_order":
        yield from ({"iterate_mn_order": v} for v in (0, 1))
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


@dataclass
class ForwardSpace:
    """The forward tiling's space for the shared descent (``tuning/descent.OpSpace``)."""

    problem: ConvBpFilterShape
    hw: HwConfig
    cores: int
    splits: list[ForwardSplit] = field(default_factory=list)
    knobs: tuple[str, ...] = KNOBS
    ordered: frozenset[str] = ORDERED
    pairs: tuple[tuple[str, str], ...] = PAIRS

    def heuristic(self) -> Conv3DTiling:
        return conv3d_tiling(self.problem, self.hw, self.cores)

    def score(self, t: Conv3DTiling, cycle_limit: float) -> Score:
        return score_forward(self.problem, self.hw.name, t, cycle_limit)

    def fits(self, t: Conv3DTiling) -> bool:
        return fits(t, self.hw, self.cores)

    def repaired(self, t: Conv3DTiling) -> Conv3DTiling | None:
        return repaired(t, self.hw, self.cores)

    def knob_values(self, t: Conv3DTiling, knob: str) -> Iterator[dict[str, int]]:
        return knob_values(t, knob)

    def split_of(self, t: Conv3DTiling) -> ForwardSplit:
        return ForwardSplit.of_tiling(t)

    def with_split(self, t: Conv3DTiling, split: ForwardSplit) -> Conv3DTiling:
        return with_split(t, split)

    def vendor(self, split: ForwardSplit) -> Conv3DTiling | None:
        return _vendor(self.problem, self.hw, split)


def _vendor(problem: ConvBpFilterShape, hw: HwConfig, split: ForwardSplit) -> Conv3DTiling | None:
    """The vendor's tiling of ``split``'s share, or None when its decision finds none."""
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
    space = ForwardSpace(problem, config, cores, forward_splits(problem, cores))
    found = run_descent(space, budget, on_candidate, "the heuristic's forward tiling")
    return FORWARD.result_of(found, start)


# -- the cache --------------------------------------------------------------------------------
BadForwardEntry = BadSearchEntry
"""A forward cache entry whose content does not hold up (the shared descent's class)."""

FORWARD: OpSearch[Conv3DTiling, ForwardTuneResult] = OpSearch(
    result=ForwardTuneResult,
    budget=BUDGET,
    search=search_forward,
    heuristic=conv3d_tiling,
    score=score_forward,
    tiler_errors=tiling_fit_errors,
    search_errors=fit_errors,
)
"""The forward search as the shared cache sees it (``tuning/descent.OpSearch``)."""


def verified(
    data: dict[str, Any], problem: ConvBpFilterShape, hw: str, cores: int
) -> ForwardTuneResult:
    """The cached forward search result ``data`` of ``problem`` if it holds up, else
    :class:`BadForwardEntry` (``descent.OpSearch.verified``)."""
    return FORWARD.verified(data, problem, hw, cores)


def cache_key(problem: ConvBpFilterShape, hw: str, cores: int, budget: int) -> str:
    """The forward search's key: the dW key's request (layer, hw, cores, budget, compiler)
    with ``op`` forward, so the two ops never share an entry."""
    return FORWARD.cache_key(problem, hw, cores, budget)


def cached_forward(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
) -> ForwardTuneResult | None:
    """The cache's verified answer for the forward search of ``problem``, or None (a miss, or a
    bad entry, discarded with a one-line warning): never searches."""
    return FORWARD.cached(problem, hw, cores, budget=budget)


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
    return FORWARD.tune(
        problem,
        hw,
        cores,
        budget=budget,
        use_cache=use_cache,
        progress=progress,
        on_candidate=on_candidate,
    )
