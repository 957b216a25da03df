"""The multi-core split of a dW problem: how batch·dout, group, dk, M, N and K are cut over the AI
cores, every such split ranked, and the vendor rule's choice among them.

Where it fits. One enumeration serves both tilers. The heuristic (``dw_tiling_heuristic.py``)
takes the first split of :func:`vendor_split_axes`: its block tiling of the whole problem
(``api_block_tiler.py``) says which GEMM axes may be cut and into how many pieces. The tiling
search (``tuning/search.py``) takes the first few of :func:`split_axes`, where every axis may be
cut into as many pieces as it has granules, as its starting points, and moves its descent between
the splits of that enumeration one cut at a time (:func:`neighbour_splits`). Either way, one
core's share (:func:`core_gemm_view`) is then tiled again by the block tiler.

The rule, as the CANN operator splits (hicann/ops-nn ``conv/conv3d_backprop_filter_v2``, the
host tilings in ``op_host/op_tiling/arch22/`` and the kernel's ``Conv3dDw::Process``). The
whole problem's core-bind direction decides the GEMM axes that may be split across cores:
SPLIT_M_K → M and K (Ho rows), SPLIT_N_K → N (Cin1) and K, SPLIT_M_N → M and N. batch·dout, group
and dk are always splittable (they never shrink a core's GEMM). Each axis is cut into at most as
many pieces as it has basic blocks (batch·dout, group and dk count one block per item), a cut's
per-core share is rounded up to the axis granule (16 for M, one C1 row for N, one Ho row for K),
and a cut is normalised so no core is left without work. Among all cuts whose product of pieces
is ≤ the core count, the first is the one with the smallest per-core work (the product of the
shares: the critical path), then the most used cores, then the largest split on batch·dout,
group, dk, M, N and K, in that order (batch·dout first: it keeps every core's GEMM whole). The
ranking is a total order (a split's pieces fix its shares), so the choice is deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import FRACTAL, DwTiling
from ascend_xdsl.passes.api_block_tiler import SPLIT_M_K, SPLIT_M_N, SPLIT_N_K, BlockState
from ascend_xdsl.passes.dw_gemm_view import GemmView, gemm_view


@dataclass(frozen=True)
class CoreSplit:
    """How the problem is cut over cores, and one core's share of each axis."""

    batch_dim: int = 1
    group_dim: int = 1
    dk_dim: int = 1
    m_dim: int = 1
    n_dim: int = 1
    k_dim: int = 1
    batch_share: int = 1
    group_share: int = 1
    dk_share: int = 1
    cout_share: int = 16
    cin1_share: int = 1
    ho_share: int = 1

    @property
    def dims(self) -> tuple[int, ...]:
        """The pieces of each axis, in the order of :func:`split_axes`."""
        return (self.batch_dim, self.group_dim, self.dk_dim, self.m_dim, self.n_dim, self.k_dim)

    @property
    def cores(self) -> int:
        return math.prod(self.dims)

    @classmethod
    def of_tiling(cls, t: DwTiling) -> CoreSplit:
        """The split ``t`` carries."""
        return cls(
            t.batch_dim, t.group_dim, t.dk_dim, t.m_dim, t.n_dim, t.k_dim,
            t.single_core_batch, t.single_core_group, t.single_core_dk, t.single_core_cout,
            t.single_core_cin // t.channel_size, t.single_core_ho,
        )  # fmt: skip

    def tiling_fields(self, c0: int) -> dict[str, int]:
        """The :class:`DwTiling` fields that say this split (C0 = ``c0`` channels a Cin1 row)."""
        return {
            "batch_dim": self.batch_dim,
            "group_dim": self.group_dim,
            "dk_dim": self.dk_dim,
            "m_dim": self.m_dim,
            "n_dim": self.n_dim,
            "k_dim": self.k_dim,
            "single_core_batch": self.batch_share,
            "single_core_group": self.group_share,
            "single_core_dk": self.dk_share,
            "single_core_cout": self.cout_share,
            "single_core_cin": self.cin1_share * c0,
            "single_core_ho": self.ho_share,
        }

    @property
    def work(self) -> int:
        """One core's share of the work: the product of its shares."""
        return (
            self.batch_share
            * self.group_share
            * self.dk_share
            * self.cout_share
            * self.cin1_share
            * self.ho_share
        )


@dataclass(frozen=True)
class SplitAxis:
    """One axis a split cuts: ``total`` units, shared out in whole ``granule`` s, into at most
    ``max_pieces`` pieces."""

    total: int
    granule: int = 1
    max_pieces: int | None = None
    """None: as many pieces as the axis has granules."""

    def cuts(self) -> list[tuple[int, int]]:
        """Every distinct (pieces, share) cut, fewest pieces first: for d pieces the share is
        ⌈total/d⌉ rounded up to the granule, and the pieces are ⌈total/share⌉ so none is
        empty."""
        granules = ceil_div(self.total, self.granule)
        # More pieces than granules only repeat the one-granule cut.
        most = granules if self.max_pieces is None else min(self.max_pieces, granules)
        cuts: dict[int, int] = {}
        for d in range(1, max(most, 1) + 1):
            share = align_up(ceil_div(self.total, d), self.granule)
            cuts[ceil_div(self.total, share)] = share
        return sorted(cuts.items())


def split_axes(shape: ConvBpFilterShape, fuse_dk: bool) -> tuple[SplitAxis, ...]:
    """The six axes of ``shape`` a split cuts, each as finely as its granule allows: batch·dout,
    group (enlarged groups), dk, M (cout1_g·C0 in 16s), N (Cin1 rows) and K (Ho rows). With
    ``fuse_dk`` the kD slices are rows of N, cut with Cin1, and dk has one unit."""
    ge = shape.group_enlargement
    return (
        SplitAxis(shape.batch * shape.dout),
        SplitAxis(ge.real_g),
        SplitAxis(1 if fuse_dk else shape.kd),
        SplitAxis(ge.cout1_g * shape.c0, FRACTAL),
        SplitAxis(ge.cin1_g * (shape.kd if fuse_dk else 1)),
        SplitAxis(shape.ho),
    )


def vendor_split_axes(
    shape: ConvBpFilterShape, whole: BlockState, fuse_dk: bool
) -> tuple[SplitAxis, ...]:
    """:func:`split_axes` bounded by the vendor rule: ``whole``, the block tiling of the whole
    problem, gives the core-bind direction (which of M, N and K may be cut at all) and the basic
    block (into how many pieces)."""
    bd, group, dk, m, n, k = split_axes(shape, fuse_dk)
    c1_per_block = max(whole.single_core_n // (shape.kh * shape.kw * shape.c0), 1)
    rows_per_block = max(whole.single_core_k // shape.wo, 1)

    def bounded(axis: SplitAxis, splittable: bool, per_block: int) -> SplitAxis:
        return replace(axis, max_pieces=ceil_div(axis.total, per_block) if splittable else 1)

    direction = whole.direction
    return (
        bd,
        group,
        dk,
        bounded(m, direction in (SPLIT_M_K, SPLIT_M_N), whole.single_core_m),
        bounded(n, direction in (SPLIT_N_K, SPLIT_M_N), c1_per_block),
        bounded(k, direction in (SPLIT_M_K, SPLIT_N_K), rows_per_block),
    )


def core_splits(axes: Sequence[SplitAxis], cores: int) -> list[CoreSplit]:
    """Every split that cuts ``axes`` (in :func:`split_axes`' order) over at most ``cores``
    cores, in the order of the rule (the module docstring): least work per core first, then most
    cores, then the largest cut of batch·dout, group, dk, M, N and K."""
    partial: list[tuple[tuple[tuple[int, int], ...], int]] = [((), 1)]
    for cuts in [axis.cuts() for axis in axes]:
        partial = [
            ((*chosen, (pieces, share)), used * pieces)
            for chosen, used in partial
            for pieces, share in cuts
            if used * pieces <= cores
        ]
    splits = [
        CoreSplit(*(pieces for pieces, _ in chosen), *(share for _, share in chosen))
        for chosen, _ in partial
    ]
    return sorted(splits, key=_rank)


def _rank(split: CoreSplit) -> tuple[int, ...]:
    """The order of the rule: least work per core, most cores, largest cuts in axis order."""
    return (split.work, -split.cores, *(-d for d in split.dims))


def neighbour_splits(axes: Sequence[SplitAxis], split: CoreSplit, cores: int) -> list[CoreSplit]:
    """The splits of :func:`core_splits` one step from ``split``: one axis, or two at once, moved
    to the next cut of its list (one piece count up or down), in the order of the rule. Two
    at once because the core count binds: more pieces on one axis often need fewer on another.
    """
    cut_lists = [axis.cuts() for axis in axes]
    at: list[int] = []
    for cuts, pieces in zip(cut_lists, split.dims, strict=True):
        index = next((i for i, (p, _) in enumerate(cuts) if p == pieces), None)
        if index is None:  # not a split of these axes
            return []
        at.append(index)
    steps = [(a, d) for a in range(len(axes)) for d in (-1, 1)]
    moves = [(s,) for s in steps] + [
        (s, u) for i, s in enumerate(steps) for u in steps[i + 1 :] if s[0] != u[0]
    ]
    out: set[CoreSplit] = set()
    for move in moves:
        index = list(at)
        for axis, d in move:
            index[axis] += d
        if any(not 0 <= i < len(c) for i, c in zip(index, cut_lists, strict=True)):
            continue
        chosen = [c[i] for i, c in zip(index, cut_lists, strict=True)]
        candidate = CoreSplit(*(p for p, _ in chosen), *(s for _, s in chosen))
        if candidate.cores <= cores:
            out.add(candidate)
    return sorted(out, key=_rank)


def choose_core_split(
    shape: ConvBpFilterShape, whole: BlockState, core_num: int, fuse_dk: bool = False
) -> CoreSplit:
    """The vendor rule's split of ``shape`` over at most ``core_num`` cores, given ``whole``, the
    block tiling of the whole problem."""
    return core_splits(vendor_split_axes(shape, whole, fuse_dk), core_num)[0]


def whole_problem(shape: ConvBpFilterShape, fuse_dk: bool) -> CoreSplit:
    """The split of one core computing everything: every share is its whole axis."""
    bd, group, dk, m, n, k = (axis.total for axis in split_axes(shape, fuse_dk))
    return CoreSplit(
        batch_share=bd, group_share=group, dk_share=dk, cout_share=m, cin1_share=n, ho_share=k
    )


def core_gemm_view(shape: ConvBpFilterShape, split: CoreSplit) -> GemmView:
    """The GEMM one core of ``split`` computes per task (``tasks``: its batch·dout items times
    its kd slices, the factor of the vendor's totalCnt)."""
    return gemm_view(
        shape,
        cout=split.cout_share,
        cin1=split.cin1_share,
        ho=split.ho_share,
        tasks=split.batch_share * split.dk_share,
    )
