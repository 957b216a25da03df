"""Transfer: start a layer's tiling search from the tuned tiling of a layer like it.

Layers of one network, or of one network at another batch or resolution, often differ only in
the batch or the input's spatial size (C3D's conv4b and conv5b, a model tuned at batch 1 and
trained at batch 8). Their best tilings are alike: the same GEMM's M and N (the channels and the
kernel are the same), the same buffers, only a longer or shorter K and another batch·dout. So a
layer whose search is not cached starts from the tuned tiling of the nearest such layer that is
(``tuning/cache.py``, :func:`~ascend_xdsl.tuning.cache.family_key`), rescaled to its shape
(:func:`rescaled`), as one more starting point of the search (``search(extra_starts=...)``).

The rescale keeps what does not depend on the batch and the spatial size, and recomputes the
rest as the heuristic would:

* the core split is the new layer's split (``passes/core_split.core_splits``, over the same
  cores) whose per-core shares are nearest to the donor's, so each core's GEMM is as near as
  the new shape allows to the one the donor's knobs were tuned for (a layer at twice the batch
  takes twice the batch·dout pieces where the cores allow, else twice the share of another
  axis); ties go to the split rule's order; the Dk mode (separate or fused) stays;
* the per-core shares and the vendor's block tiling of them come from ``split_tiling``, as for
  any split the search starts from;
* the donor's knobs are set on it: base M/N/K, step M/N/Ka/Kb, the iterate order and every
  buffering; an M or N step whose L1 block held the donor's whole per-core M or N grows or
  shrinks to hold the new one (at most 8); base K and the K steps are cut to the new per-core
  K (a shorter layer has fewer K blocks), keeping the K steps one a multiple of the other;
* the result is legalised by the search's own repair rule (``search.repaired``: L0 or L0C
  single-buffered, a shorter base K, fewer L1 steps) and kept only if it then passes the
  search's legality check (``search.fits``); otherwise there is no transferred start.

The search scores the transferred tiling like any other start, so the answer is never slower
than the heuristic's, and *trusts* it (``search(trust_starts=True)``: when it beats the
heuristic's tilings, one descent from it and no core-split starts, which is where candidates
are saved). Only a start that keeps the donor's number of busy cores is used
(:attr:`Transfer.trusted`, :func:`keeps_cores`). The cost model gives every busy core its
share of HBM and L2 bandwidth (docs/cost-model.md), so the donor's knobs were balanced for that
many cores; a rescale that doubles or halves them (a layer at batch 2 taking twice the
batch·dout pieces, or at batch 1 half of them) moves every core's share, and the descent from
such a start was measured to miss the plain search's answer, trusted or not (an untrusted
start that beats the heuristic by more than the search's start slack replaces the heuristic's
own descent). benchmarks/bench_transfer.py measures the candidates saved and the result on
the suite (docs/benchmarks.md, "Transfer between layers").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.op_level import tiling_problem_mismatch
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.passes.api_block_tiler import TilingError
from ascend_xdsl.passes.core_split import CoreSplit, core_splits, split_axes
from ascend_xdsl.passes.dw_tiling_heuristic import split_tiling
from ascend_xdsl.passes.tile_conv3d_bp_filter import apply_overrides
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.search import fits, repaired

KNOBS = (
    "base_m",
    "base_k",
    "base_n",
    "step_m",
    "step_n",
    "step_ka",
    "step_kb",
    "iterate_order",
    "al1_pbuffer",
    "bl1_pbuffer",
    "al0_pbuffer",
    "bl0_pbuffer",
    "cl0_pbuffer",
)
"""The DwTiling fields a transfer copies from the donor: the search's knobs."""

MAX_STEP = 8
"""The largest M or N step a rescale sets (the search's own bound on them)."""


def distance(a: ConvBpFilterShape, b: ConvBpFilterShape) -> float:
    """How far apart two layers of one family are: the sum of the |log2| ratios of their batch
    and spatial sizes (0 for the same layer; batch 1 to 2 and 112 to 56 wide are 1 each)."""
    return sum(abs(math.log2(getattr(a, k) / getattr(b, k))) for k in cache.SCALED)


def donor_problem(t: DwTiling, like: ConvBpFilterShape) -> ConvBpFilterShape:
    """The problem ``t`` was tuned for, read from its batch and input sizes; the rest of the
    family's fields are ``like``'s."""
    return replace(like, batch=t.batch, di=t.di, hi=t.hi, wi=t.wi)


def _nearest_split(donor: DwTiling, problem: ConvBpFilterShape, cores: int) -> CoreSplit:
    """The split of ``problem`` over at most ``cores`` cores whose per-core shares are nearest
    to ``donor``'s (the sum of the |log2| ratios over the six axes), then the first in the
    split rule's order (least work per core first): the per-core GEMM the donor's knobs were
    tuned for, as far as the new shape allows."""
    wanted = (
        donor.single_core_batch,
        donor.single_core_group,
        donor.single_core_dk,
        donor.single_core_cout,
        donor.single_core_cin // donor.channel_size,
        donor.single_core_ho,
    )
    splits = core_splits(split_axes(problem, donor.fused_dk), cores)

    def far(split: CoreSplit) -> float:
        shares = (split.batch_share, split.group_share, split.dk_share, split.cout_share,
                  split.cin1_share, split.ho_share)  # fmt: skip
        return sum(abs(math.log2(s / w)) for s, w in zip(shares, wanted, strict=True))

    return min(splits, key=far)  # min keeps the first of equals: the rule's order


def rescaled(
    donor: DwTiling, problem: ConvBpFilterShape, hw: HwConfig, cores: int
) -> DwTiling | None:
    """The tiling ``donor`` (tuned for a layer of ``problem``'s family) rescaled to ``problem``
    over at most ``cores`` cores, legalised; None when no legal tiling comes of it."""
    split = _nearest_split(donor, problem, cores)
    try:
        base = split_tiling(problem, split, hw)
    except TilingError:  # a share no block fits
        return None
    knobs = {k: getattr(donor, k) for k in KNOBS}
    # An L1 block that held the donor's whole per-core M (or N) holds the new one whole too.
    for step, base_knob, old_extent, new_extent in (
        ("step_m", "base_m", donor.single_core_cout, base.single_core_cout),
        ("step_n", "base_n", donor.hk * donor.wk * donor.single_core_cin,
         base.hk * base.wk * base.single_core_cin),
    ):  # fmt: skip
        if knobs[step] * knobs[base_knob] >= old_extent:
            knobs[step] = min(ceil_div(new_extent, knobs[base_knob]), MAX_STEP)
    k_extent = align_up(base.single_core_ho * base.wo, base.k0)
    base_k = max(min(knobs["base_k"], k_extent // base.k0 * base.k0), base.k0)
    k_blocks = ceil_div(k_extent, base_k)
    ka, kb = min(knobs["step_ka"], k_blocks), min(knobs["step_kb"], k_blocks)
    if max(ka, kb) % min(ka, kb):  # cut steps must still nest
        ka = kb = min(ka, kb)
    knobs.update(base_k=base_k, step_ka=ka, step_kb=kb)
    variants = repaired(apply_overrides(base, knobs), hw, cores)
    return variants[0] if variants and fits(variants[0], hw, cores) else None


@dataclass(frozen=True)
class Transfer:
    """A transferred start: the rescaled tiling, and whether the search may trust it."""

    start: DwTiling
    trusted: bool
    """The rescale kept the donor's number of busy cores (:func:`keeps_cores`)."""


def keeps_cores(donor: DwTiling, start: DwTiling) -> bool:
    """Whether ``start`` (``donor`` rescaled) keeps as many cores busy as ``donor``: the
    condition under which the search trusts it (the module docstring says why)."""
    return CoreSplit.of_tiling(start).cores == CoreSplit.of_tiling(donor).cores


def transferred_start(
    problem: ConvBpFilterShape, hw: HwConfig, cores: int, exclude: str = ""
) -> Transfer | None:
    """The tuned tiling of the nearest cached member of ``problem``'s family (:func:`distance`,
    then the key: deterministic for one cache content), rescaled to ``problem``, with whether it
    is trusted (:func:`keeps_cores`); None when the family has no cached member (but
    ``exclude``, the request's own key) that rescales.

    A member's entry is used only this far: its tuned tiling must restate a legal problem of
    the family and pass the search's legality check (the rescale takes its knobs and per-core
    shares, nothing else), and the search then scores what comes of it like any candidate;
    :func:`cache.load` has checked the file."""
    ranked: list[tuple[float, str, DwTiling]] = []
    for key in cache.family_members(cache.family_key(problem, hw.name, cores)):
        if key == exclude:
            continue
        try:
            entry = cache.load(key)
            tiling = DwTiling.from_dict(entry["tuned"]["tiling"]) if entry else None
        except (cache.CacheEntryError, AttributeError, KeyError, TypeError, ValueError):
            continue
        if tiling is None:
            continue
        donor = donor_problem(tiling, problem)
        if (
            donor.errors()
            or tiling_problem_mismatch(donor, tiling) is not None
            or not fits(tiling, hw, cores)
        ):
            continue
        ranked.append((distance(donor, problem), key, tiling))
    for _, _, tiling in sorted(ranked, key=lambda r: r[:2]):
        if (start := rescaled(tiling, problem, hw, cores)) is not None:
            return Transfer(start, keeps_cores(tiling, start))
    return None
