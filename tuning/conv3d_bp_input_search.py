"""The tiling search of the input gradient (``ascend.conv3d_backprop_input``, dX), behind its
``strategy=tuned``: find a ``Conv3DBpInputTiling`` the cost model scores faster than the
heuristic's (the vendor's tiler, capped to the cores by ``fit_cores``), and cache it on disk.

Where it fits. The descent, its budget, the never-slower rule and the verified cache are
``tuning/descent.py``'s, shared with the forward conv's search (``tuning/conv3d_search.py``);
this module is dX's *space* (:class:`InputGradSpace`) and how a candidate is compiled:
``build_input_grad_module``, the tiling put on the ``ascend.conv3d_backprop_input``
(``ascend-tile-conv3d-bp-input`` keeps a tiling that fits), ``compile_levels`` unverified to the
hardware level, then the cost-only mode. The dX tiler reaches :func:`tune_input_grad` by name,
through ``passes/tiling_options.BP_INPUT_SEARCHES``; ``ascend-tune`` (``tuning/sweep.py``)
through its table of ops.

The space (docs/passes.md, "tuned (bp-input)", says why it is pruned so). Of the record's
fields, the problem's restatement is fixed, and so are those the hardware lowering does not read
(``conv3d_bp_input_walk.py``): the L1 steps ``step_m``/``step_n``/``step_ka``/``step_kb`` and
``iterate_order`` (the walk fills L1 with as many Cout1 blocks as fit, ``InputGradPlan.kc1``,
and walks M then N), ``single_core_cout`` (K is never split across cores: no atomic add), and
the constants of ``SetFinalTiling``. What is searched (:data:`KNOBS`):

* the core split: one core's batches, dX depths, dX rows (M in whole rows of Wi) and Cin1
  blocks; every split over at most ``cores`` cores that leaves no core idle, the least work per
  core first (:func:`input_grad_splits`);
* ``base_m``, ``base_n``, ``base_k``: the balanced multiples of 16 of one core's M, N and K
  (whole rows of Wi for M, whole kH·kW·C0 windows for K) and the powers of two;
* the buffering: L0A/L0B, L0C, AL1/BL1 (1 or 2 slots each).

A move that overflows L0 is repaired (single buffering, then a smaller ``base_k``), one that
overflows L1 loses AL1's then BL1's double buffering (:func:`repaired`).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import Conv3DBpInputTilingAttr
from ascend_xdsl.dialects.conv3d_bp_input_tiling import (
    INPUT_ELEMENT_BYTES,
    L0C_ELEMENT_BYTES,
    Conv3DBpInputTiling,
)
from ascend_xdsl.dialects.conv_shape import C0, FRACTAL, ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.op_level import Conv3DBackpropInputOp
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.lowering.build import INPUT_GRAD_FUNC_NAME, build_input_grad_module
from ascend_xdsl.lowering.conv3d_bp_input_api_kernel import kernel_errors
from ascend_xdsl.lowering.lower_api_to_hw.conv3d_bp_input_walk import InputGradPlan
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.passes.conv3d_bp_input_tiling_heuristic import tile_conv3d_bp_input
from ascend_xdsl.passes.tile_conv3d_bp_input import fit_cores, tiling_fit_errors
from ascend_xdsl.runtime.cost.cost_only import CycleLimitExceeded
from ascend_xdsl.runtime.cost.model import COST_ONLY
from ascend_xdsl.tuning.descent import OpSearch, run_descent
from ascend_xdsl.tuning.search import SLOWER, Score, SearchResult, balanced

OP = "bp-input"
"""The op name of this search in the cache key and in ``ascend-tune``'s rows."""

BUDGET = 48
"""Candidates scored at most per layer: the dX space has the forward's 7 knobs (its budget)."""

KNOBS: tuple[str, ...] = (
    "split",
    "base_m",
    "base_n",
    "base_k",
    "l0_buffering",
    "l0c_buffering",
    "l1_buffering",
)
"""The coordinate-descent knobs, in the order a sweep visits them."""

ORDERED = frozenset({"base_m", "base_n", "base_k"})
"""Knobs line-searched from their current value (the others are tried value by value)."""

PAIRS: tuple[tuple[str, str], ...] = (
    ("base_m", "base_n"),
    ("base_m", "base_k"),
    ("base_n", "base_k"),
)
"""The L0 tile's sides moved two at a time once single moves stall (L0A holds M·K, L0B K·N,
L0C M·N: one side alone can overflow where two moved together fit)."""


@dataclass
class InputGradTuneResult(SearchResult[Conv3DBpInputTiling]):
    """The heuristic's and the tuned dX tiling of one problem, with their scores."""

    TILING = Conv3DBpInputTiling
    OP = OP  # the module's


@dataclass(frozen=True)
class InputGradSplit:
    """One core's share of each axis the dX kernel splits: batches, dX depths, dX rows and
    Cin1 blocks (``lowering/conv3d_bp_input_api_kernel.core_dims`` divides by them)."""

    batch: int
    din: int
    rows: int
    cin1: int

    @classmethod
    def of_tiling(cls, t: Conv3DBpInputTiling) -> InputGradSplit:
        return cls(
            t.single_core_batch, t.single_core_din, t.single_core_m // t.wi, t.single_core_cin1
        )


def heuristic_tiling(problem: ConvBpFilterShape, hw: HwConfig, cores: int) -> Conv3DBpInputTiling:
    """The tiling ``ascend-tile-conv3d-bp-input`` gives ``problem`` on ``cores`` cores: the
    vendor's, its shares merged until it uses at most ``cores`` (``fit_cores``)."""
    return fit_cores(tile_conv3d_bp_input(problem), cores)


def input_grad_hw_module(
    problem: ConvBpFilterShape, hw: str, tiling: Conv3DBpInputTiling
) -> ModuleOp:
    """dX of ``problem`` compiled with ``tiling`` to the hardware level, unverified (the
    tuner's inner loop): the tiling is put on the op-level ``ascend.conv3d_backprop_input``,
    which ``ascend-tile-conv3d-bp-input`` keeps when it fits."""
    module = build_input_grad_module(problem)
    for op in module.walk():
        if isinstance(op, Conv3DBackpropInputOp):
            op.properties["tiling"] = Conv3DBpInputTilingAttr(tiling)
    return compile_levels(module, CompileOptions.create(hw=hw), verify=False)["hw"]


def score_input_grad(
    problem: ConvBpFilterShape, hw: str, tiling: Conv3DBpInputTiling, cycle_limit: float = math.inf
) -> Score:
    """Compile dX of ``problem`` with ``tiling`` to the hardware level and time it, cost only;
    :data:`SLOWER` once it is sure to take more than ``cycle_limit`` cycles."""
    options = CompileOptions.create(hw=hw)
    hw_module = input_grad_hw_module(problem, hw, tiling)
    try:
        (report,) = COST_ONLY.predict(
            hw_module,
            options.hw,
            entry=INPUT_GRAD_FUNC_NAME,
            problem=problem,
            cycle_limit=cycle_limit,
        )
    except CycleLimitExceeded:
        return SLOWER
    return Score(report.cycles, report.efficiency, report.bound, report.bottleneck)


# -- legality and repair ----------------------------------------------------------------------
def _axes(t: Conv3DBpInputTiling) -> tuple[tuple[str, int, int], ...]:
    """(name, whole, one core's share) of each split axis."""
    return (
        ("single_core_batch", t.batch, t.single_core_batch),
        ("single_core_din", t.di, t.single_core_din),
        ("single_core_m", t.hi, max(t.single_core_m // t.wi, 1)),
        ("single_core_cin1", t.cin1_g, t.single_core_cin1),
    )


def idle_error(t: Conv3DBpInputTiling) -> str | None:
    """Why ``t`` leaves a core without work (a share larger than its piece count needs, so a
    smaller one would cover the axis in as many pieces), or None."""
    for name, whole, share in _axes(t):
        pieces = ceil_div(whole, share)
        if share > whole or ceil_div(whole, pieces) != share:
            return f"{name} share {share} of {whole} is not the even share of {pieces} pieces"
    return None


def fit_errors(t: Conv3DBpInputTiling, hw: HwConfig, cores: int) -> list[str]:
    """Every reason ``t`` is no candidate on ``cores`` cores of ``hw``: the tiling's own rules
    and the core count (what ``ascend-tile-conv3d-bp-input`` checks), the kernel's
    (``kernel_errors``), a core left idle, ``single_core_cin`` not its Cin1 blocks, and L1 (the
    lowering's plan, ``InputGradPlan``)."""
    errors = tiling_fit_errors(t, hw, cores) or kernel_errors(t)
    if errors:
        return errors
    if t.single_core_cin != t.single_core_cin1 * C0:
        return [f"single_core_cin {t.single_core_cin} is not single_core_cin1·C0"]
    if (idle := idle_error(t)) is not None:
        return [idle]
    try:
        InputGradPlan.of(t, hw.l1_size)
    except PassFailedException as e:
        return [str(e)]
    return []


def fits(t: Conv3DBpInputTiling, hw: HwConfig, cores: int) -> bool:
    return not fit_errors(t, hw, cores)


def _l0_over(t: Conv3DBpInputTiling, hw: HwConfig) -> tuple[bool, bool, bool]:
    """Whether the L0A, L0B and L0C tiles of ``t`` overflow."""
    b = INPUT_ELEMENT_BYTES
    return (
        t.base_m * t.base_k * b * t.al0_pbuffer > hw.l0a_size,
        t.base_k * t.base_n * b * t.bl0_pbuffer > hw.l0b_size,
        t.base_m * t.base_n * L0C_ELEMENT_BYTES * t.cl0_pbuffer > hw.l0c_size,
    )


def repaired(t: Conv3DBpInputTiling, hw: HwConfig, cores: int) -> Conv3DBpInputTiling | None:
    """``t`` made to fit, or None: an overflowing L0 buffer first loses its double buffering,
    then ``base_k`` shrinks to the largest multiple of 16 that fits L0A and L0B; an L1 that
    overflows loses AL1's double buffering, then BL1's. The knob that was moved stays where it
    was put (unless it is ``base_k`` itself), so the move is still the one tried."""
    for _ in range(8):
        a, b, c = _l0_over(t, hw)
        if a and t.al0_pbuffer == 2:
            t = replace(t, al0_pbuffer=1)
        elif b and t.bl0_pbuffer == 2:
            t = replace(t, bl0_pbuffer=1)
        elif c and t.cl0_pbuffer == 2:
            t = replace(t, cl0_pbuffer=1)
        elif a or b:
            k = min(
                hw.l0a_size // (t.base_m * INPUT_ELEMENT_BYTES * t.al0_pbuffer),
                hw.l0b_size // (t.base_n * INPUT_ELEMENT_BYTES * t.bl0_pbuffer),
            )
            k = k // FRACTAL * FRACTAL
            if k < FRACTAL:
                return None
            t = replace(t, base_k=k)
        elif c:
            return None
        else:
            break
    errors = fit_errors(t, hw, cores)
    if errors and any("do not fit L1" in e for e in errors):  # InputGradPlan's L1 message
        for name in ("al1_pbuffer", "bl1_pbuffer"):
            if getattr(t, name) == 2:
                t = replace(t, **{name: 1})
                if fits(t, hw, cores):
                    return t
        return None
    return None if errors else t


# -- the knob space ---------------------------------------------------------------------------
def _shares(whole: int, most: int) -> list[tuple[int, int]]:
    """(pieces, share) of every even cut of ``whole`` into at most ``most`` pieces that leaves
    no piece empty."""
    out = []
    for pieces in range(1, min(whole, most) + 1):
        share = ceil_div(whole, pieces)
        if ceil_div(whole, share) == pieces:
            out.append((pieces, share))
    return out


def input_grad_splits(problem: ConvBpFilterShape, cores: int) -> list[InputGradSplit]:
    """Every split of batch, dX depth, dX rows and Cin1 blocks over at most ``cores`` cores that
    leaves no core idle, the least work per core first (its M rounded up to whole fractals),
    then the fewest cores, then the pieces (a stable order)."""
    cin1 = problem.group_enlargement.cin1_g
    out: dict[InputGradSplit, tuple[int, int, tuple[int, ...]]] = {}
    for bp, bs in _shares(problem.batch, cores):
        for dp, ds in _shares(problem.di, cores // bp):
            for np_, ns in _shares(cin1, cores // (bp * dp)):
                for mp, ms in _shares(problem.hi, cores // (bp * dp * np_)):
                    work = bs * ds * align_up(ms * problem.wi, FRACTAL) * ns
                    split = InputGradSplit(bs, ds, ms, ns)
                    out[split] = (work, bp * dp * np_ * mp, (bp, dp, mp, np_))
    return sorted(out, key=lambda s: out[s])


def extents(t: Conv3DBpInputTiling) -> tuple[int, int, int]:
    """One core's GEMM M and N rounded up to fractals, and the K of one kernel depth
    (Cout1·kH·kW·C0)."""
    return (
        align_up(min(t.single_core_m, t.hi * t.wi), FRACTAL),
        t.single_core_cin1 * C0,
        t.cout1_g * t.hk * t.wk * C0,
    )


def with_split(t: Conv3DBpInputTiling, split: InputGradSplit) -> Conv3DBpInputTiling:
    """``t`` with ``split``'s shares, its L0 M and N tile clipped to one core's M and N (a
    larger tile computes nothing more and takes more L1)."""
    t = replace(
        t,
        single_core_batch=split.batch,
        single_core_din=split.din,
        single_core_m=split.rows * t.wi,
        single_core_cin1=split.cin1,
        single_core_cin=split.cin1 * C0,
    )
    m, n, _ = extents(t)
    return replace(t, base_m=min(t.base_m, m), base_n=min(t.base_n, n))


def _powers_of_two(limit: int) -> set[int]:
    return {FRACTAL << i for i in range(20) if FRACTAL << i <= limit}


def knob_values(t: Conv3DBpInputTiling, knob: str) -> Iterator[dict[str, int]]:
    """The field assignments that set ``knob`` (every knob but ``split``) of ``t`` to each of
    its values, ordered knobs in increasing order."""
    m_extent, n_extent, k_extent = extents(t)
    if knob == "base_m":
        rows = {r * t.wi for r in range(1, m_extent // t.wi + 1)}
        values = balanced(m_extent, FRACTAL) | _powers_of_two(m_extent)
        values |= {v for v in rows if v % FRACTAL == 0 and v <= m_extent}
        yield from ({"base_m": v} for v in sorted(values))
    elif knob == "base_n":
        values = balanced(n_extent, FRACTAL) | _powers_of_two(n_extent)
        yield from ({"base_n": v} for v in sorted(values))
    elif knob == "base_k":
        window = t.hk * t.wk * FRACTAL  # one Cout1 block of every tap
        values = balanced(k_extent, FRACTAL) | balanced(k_extent, window)
        values |= _powers_of_two(k_extent)
        yield from ({"base_k": v} for v in sorted(values))
    elif knob in ("l0_buffering", "l1_buffering"):
        names = ("al0_pbuffer", "bl0_pbuffer") if knob == "l0_buffering" else (
            "al1_pbuffer", "bl1_pbuffer")  # fmt: skip
        for a, b in itertools.product((1, 2), (1, 2)):
            yield {names[0]: a, names[1]: b}
    elif knob == "l0c_buffering":
        yield from ({"cl0_pbuffer": slots} for slots in (1, 2))
    else:
        raise ValueError(f"unknown bp-input tiling knob '{knob}'")


@dataclass
class InputGradSpace:
    """dX's tiling space for the shared descent (``tuning/descent.OpSpace``)."""

    problem: ConvBpFilterShape
    hw: HwConfig
    cores: int
    splits: list[InputGradSplit] = field(default_factory=list)
    knobs: tuple[str, ...] = KNOBS
    ordered: frozenset[str] = ORDERED
    pairs: tuple[tuple[str, str], ...] = PAIRS

    def __post_init__(self) -> None:
        self._heuristic = heuristic_tiling(self.problem, self.hw, self.cores)

    def heuristic(self) -> Conv3DBpInputTiling:
        return self._heuristic

    def score(self, t: Conv3DBpInputTiling, cycle_limit: float) -> Score:
        return score_input_grad(self.problem, self.hw.name, t, cycle_limit)

    def fits(self, t: Conv3DBpInputTiling) -> bool:
        return fits(t, self.hw, self.cores)

    def repaired(self, t: Conv3DBpInputTiling) -> Conv3DBpInputTiling | None:
        return repaired(t, self.hw, self.cores)

    def knob_values(self, t: Conv3DBpInputTiling, knob: str) -> Iterator[dict[str, int]]:
        return knob_values(t, knob)

    def split_of(self, t: Conv3DBpInputTiling) -> InputGradSplit:
        return InputGradSplit.of_tiling(t)

    def with_split(self, t: Conv3DBpInputTiling, split: InputGradSplit) -> Conv3DBpInputTiling:
        return with_split(t, split)

    def vendor(self, split: InputGradSplit) -> Conv3DBpInputTiling | None:
        """The vendor's L0 tile and buffering (its tiler has no core split: one core's share
        is the whole problem to it) on ``split``, clipped to one core's M and N."""
        return with_split(self._heuristic, split)


def search_input_grad(
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None = None,
    *,
    budget: int = BUDGET,
    on_candidate: Callable[[int], None] | None = None,
) -> InputGradTuneResult:
    """Search the dX tiling of ``problem`` (one group: the dX lowering takes groups 1) on ``hw``
    over ``cores`` cores (None: all). ``ValueError`` when the problem is grouped, ``cores`` is
    out of range, the vendor's tiler refuses the problem or its tiling cannot be compiled and
    timed."""
    start = time.perf_counter()
    config = load_hw(hw)
    cores = cores or config.aic_count
    if not 1 <= cores <= config.aic_count:
        raise ValueError(f"cores must be in [1, {config.aic_count}] for {hw}, got {cores}")
    if problem.groups != 1:
        raise ValueError(
            f"the bp-input search takes one group's problem (groups 1), got groups {problem.groups}"
        )
    space = InputGradSpace(problem, config, cores, input_grad_splits(problem, cores))
    found = run_descent(space, budget, on_candidate, "the heuristic's bp-input tiling")
    return BP_INPUT.result_of(found, start)


BP_INPUT: OpSearch[Conv3DBpInputTiling, InputGradTuneResult] = OpSearch(
    result=InputGradTuneResult,
    budget=BUDGET,
    search=search_input_grad,
    heuristic=heuristic_tiling,
    score=score_input_grad,
    tiler_errors=tiling_fit_errors,
    search_errors=fit_errors,
)
"""The dX search as the shared cache sees it (``tuning/descent.OpSearch``)."""


def cache_key(problem: ConvBpFilterShape, hw: str, cores: int, budget: int) -> str:
    """The dX search's key: the dW key's request with ``op`` bp-input."""
    return BP_INPUT.cache_key(problem, hw, cores, budget)


def cached_input_grad(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int | None = None,
) -> InputGradTuneResult | None:
    """The cache's verified answer for the dX search of ``problem`` (``budget`` as
    :func:`tune_input_grad`), or None: never searches."""
    return BP_INPUT.cached(problem, hw, cores, budget=budget)


def tune_input_grad(
    problem: ConvBpFilterShape,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    *,
    budget: int | None = None,
    use_cache: bool = True,
    progress: bool = False,
    on_candidate: Callable[[int], None] | None = None,
) -> InputGradTuneResult:
    """The heuristic's and the tuned dX tiling of ``problem`` on ``hw`` with ``cores`` cores
    (None: all), from the cache unless ``use_cache`` is False (the answer is then stored again);
    ``budget`` None: :data:`BP_INPUT`'s (:data:`BUDGET`, read when called); ``progress`` and
    ``on_candidate`` as ``conv3d_search.tune_forward``."""
    return BP_INPUT.tune(
        problem,
        hw,
        cores,
        budget=budget,
        use_cache=use_cache,
        progress=progress,
        on_candidate=on_candidate,
    )
