"""How much speed ``--tiling tuned`` leaves: the tuned tiling against a much larger independent
search, on layers of the suite.

For every layer it runs the tiling search (``tuning.search.search``, the default budget, the
cache bypassed) and an independent search scored the same way (compile, then the cost-only
model, ``tuning.search.score_tiling``) with ``--factor`` times the candidates the tuner scored,
at least its budget (10 by default; the tuner's late descent may score up to half the budget
beyond it):

* seeded random legal tilings (half of its budget) drawn from a wider space than the tuner's
  pruned one: any split among the first ``TOP_SPLITS`` of the shared enumeration
  (``passes/core_split.py``) in either Dk mode, every multiple of 16 for base M, N and K up to
  one core's extents (and the buffers), every M/N step up to 8 and K step up to the block count,
  each of L0A, L0B, L0C, A1 and B1 single- or double-buffered, either iterate order; a draw that
  ``DwTiling.errors`` refuses is drawn again and not counted;
* then hill-climbing (the other half, shared evenly) from the heuristic's tiling, the tuned one
  and the three best random ones: moves of 1 to 3 random knobs at once (a base by one or two
  granules or to a random multiple of 16, a step by one, a buffer or the order flipped, or
  another split of the same list with the same knobs), kept when the model times them faster.

It uses none of the tuner's knob lists, repairs or moves. The gap of a layer is tuned cycles
over the best either search found, minus one (never negative: the tuned tiling seeds the
climb). ``--time-layer`` also times the tuner alone on one layer (default i3d-conv1, the
slowest of the suite), with the machine's load average before and after.

Run: python benchmarks/bench_search_gap.py [--layers NAME,...] [--budget 96] [--factor 10]
         [--seed 0] [--workers 2] [--time-layer i3d-conv1|none] [--record docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from page_sections import with_section

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape, align_up, ceil_div
from ascend_xdsl.dialects.dw_tiling import FRACTAL, DwTiling
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.passes.api_block_tiler import TilingError
from ascend_xdsl.passes.core_split import CoreSplit, core_splits, split_axes
from ascend_xdsl.passes.dw_tiling_heuristic import can_fuse_dk, split_tiling
from ascend_xdsl.passes.tile_conv3d_bp_filter import apply_overrides
from ascend_xdsl.runtime.reports.output import write_atomically
from ascend_xdsl.tuning.search import BUDGET, SLOWER, Score, score_tiling, search
from ascend_xdsl.tuning.sweep import read_layers

ROOT = Path(__file__).resolve().parent.parent
HW = "atlas-a2-910b2"
LAYERS = (
    "slowfast-slow-res4",
    "slowfast-lateral",
    "r3d18-layer2-down",
    "c3d-conv5b",
    "i3d-mixed4b-1x1",
    "r3d50-layer4-reduce",
)
"""Suite layers whose candidates are cheap enough for ten times the budget, memory- and
compute-bound, with kD 1, 3 and 5 (both Dk modes)."""

TOP_SPLITS = 48
"""Splits of each Dk mode the independent search draws from, least work per core first."""

TARGET_GAP = 0.02
TARGET_SECONDS = 30.0
SECTION = "## The search against a larger search"
"""The heading of the section ``--record`` writes (the last of docs/benchmarks.md)."""


@dataclass
class Found:
    tiling: DwTiling
    score: Score
    how: str


class Independent:
    """The independent search of one layer: its own space, moves and count of candidates."""

    def __init__(self, problem: ConvBpFilterShape, seed: int) -> None:
        self.problem = problem
        self.hw = load_hw(HW)
        self.cores = self.hw.aic_count
        self.rng = random.Random(seed)
        self.scored: dict[DwTiling, Score | None] = {}
        self.best: Found | None = None
        modes = [False] + ([True] if problem.kd > 1 and can_fuse_dk(problem) is None else [])
        self.splits = [
            (fuse, split)
            for fuse in modes
            for split in core_splits(split_axes(problem, fuse), self.cores)[:TOP_SPLITS]
        ]

    def legal(self, t: DwTiling) -> bool:
        hw = self.hw
        return t.core_num <= self.cores and not t.errors(
            hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size
        )

    def time(self, t: DwTiling, against: Score | None, how: str) -> Score | None:
        """The score of ``t`` (None: rejected or no better than ``against``, timed only that
        far); keeps the best of the whole search."""
        if t in self.scored:
            return self.scored[t]
        limit = against.cycles if against is not None else math.inf
        try:
            score: Score | None = score_tiling(self.problem, HW, t, limit)
        except Exception:  # rejected by the compiler or the model, as the tuner counts it
            score = None
        if score is SLOWER:
            score = None
        self.scored[t] = score
        if score is not None and (self.best is None or score.cycles < self.best.score.cycles):
            self.best = Found(t, score, how)
        return score

    def random_tiling(self) -> DwTiling | None:
        rng = self.rng
        _, split = rng.choice(self.splits)
        try:
            t = split_tiling(self.problem, split, self.hw)
        except TilingError:
            return None
        m, n, k = self.extents(t)
        base_m = FRACTAL * rng.randint(1, min(ceil_div(m, FRACTAL), 16))
        base_n = FRACTAL * rng.randint(1, min(ceil_div(n, FRACTAL), 64))
        base_k = FRACTAL * rng.randint(1, min(ceil_div(k, FRACTAL), 128))
        blocks = ceil_div(k, base_k)
        ka = rng.randint(1, blocks)
        kb = rng.choice([v for v in range(1, blocks + 1) if max(v, ka) % min(v, ka) == 0])
        fields = {
            "base_m": base_m,
            "base_n": base_n,
            "base_k": base_k,
            "step_m": rng.randint(1, min(8, ceil_div(m, base_m))),
            "step_n": rng.randint(1, min(8, ceil_div(n, base_n))),
            "step_ka": ka,
            "step_kb": kb,
            "iterate_order": rng.randint(0, 1),
        }
        for name in ("al0_pbuffer", "bl0_pbuffer", "cl0_pbuffer", "al1_pbuffer", "bl1_pbuffer"):
            fields[name] = rng.randint(1, 2)
        t = apply_overrides(t, fields)
        return t if self.legal(t) else None

    @staticmethod
    def extents(t: DwTiling) -> tuple[int, int, int]:
        return (
            align_up(t.single_core_cout, FRACTAL),
            align_up(t.hk * t.wk * t.single_core_cin, FRACTAL),
            align_up(t.single_core_ho * t.wo, t.k0),
        )

    def moved(self, t: DwTiling) -> DwTiling | None:
        """``t`` with 1 to 3 random knobs moved (None: the result is not legal)."""
        rng = self.rng
        for _ in range(rng.randint(1, 3)):
            knob = rng.choice(
                ("base_m", "base_n", "base_k", "step_m", "step_n", "step_ka", "step_kb",
                 "al0_pbuffer", "bl0_pbuffer", "cl0_pbuffer", "al1_pbuffer", "bl1_pbuffer",
                 "iterate_order", "split")
            )  # fmt: skip
            if knob == "split":
                _, split = rng.choice(self.splits)
                t = apply_overrides(t, split_fields(split, t.channel_size))
            elif knob.startswith("base"):
                step = rng.choice((-2, -1, 1, 2, 0))
                m, n, k = self.extents(t)
                extent = {"base_m": m, "base_n": n, "base_k": k}[knob]
                value = getattr(t, knob) + step * FRACTAL
                if step == 0:
                    value = FRACTAL * rng.randint(1, ceil_div(extent, FRACTAL))
                t = apply_overrides(t, {knob: max(FRACTAL, min(value, extent))})
            elif knob.startswith("step"):
                t = apply_overrides(t, {knob: max(1, getattr(t, knob) + rng.choice((-1, 1)))})
            else:
                flip = {1: 2, 2: 1} if knob != "iterate_order" else {0: 1, 1: 0}
                t = apply_overrides(t, {knob: flip[getattr(t, knob)]})
        return t if self.legal(t) else None

    def run(self, seeds: list[Found], candidates: int) -> None:
        random_share = candidates // 2
        attempts = 0
        while len(self.scored) < random_share and attempts < 50 * candidates:
            attempts += 1
            t = self.random_tiling()
            if t is not None:
                self.time(t, self.best.score if self.best else None, "random")
        ranked = sorted(
            ((t, s) for t, s in self.scored.items() if s is not None), key=lambda ts: ts[1].cycles
        )
        starts = seeds + [Found(t, s, "random") for t, s in ranked[:3]]
        for n, start in enumerate(starts):
            share = (candidates - len(self.scored)) // (len(starts) - n)
            stop, here, attempts = len(self.scored) + share, start, 0
            while len(self.scored) < stop and attempts < 50 * candidates:
                attempts += 1
                t = self.moved(here.tiling)
                if t is None or t in self.scored:
                    continue
                score = self.time(t, here.score, f"climb from {start.how}")
                if score is not None and score.cycles < here.score.cycles:
                    here = Found(t, score, here.how)


def split_fields(split: CoreSplit, c0: int) -> dict[str, int]:
    return split.tiling_fields(c0)


def measure(
    name: str, problem: ConvBpFilterShape, budget: int, factor: int, seed: int
) -> dict[str, object]:
    start, cpu = time.perf_counter(), time.process_time()
    tuned = search(problem, HW, budget=budget)
    tune_wall, tune_cpu = time.perf_counter() - start, time.process_time() - cpu
    other = Independent(problem, seed)
    seeds = [
        Found(tuned.heuristic, tuned.heuristic_score, "heuristic"),
        Found(tuned.tuned, tuned.tuned_score, "tuned"),
    ]
    # At least ``factor`` times what the tuner scored (its late descent may go past the budget).
    other.run(seeds, factor * max(budget, tuned.candidates))
    best = other.best
    assert best is not None
    if tuned.tuned_score.cycles <= best.score.cycles:
        best = Found(tuned.tuned, tuned.tuned_score, "tuned")
    return {
        "name": name,
        "heuristic": tuned.heuristic_score.cycles,
        "tuned": tuned.tuned_score.cycles,
        "tune_candidates": tuned.candidates,
        "tune_wall": tune_wall,
        "tune_cpu": tune_cpu,
        "best": best.score.cycles,
        "how": best.how,
        "candidates": len(other.scored),
        "gap": tuned.tuned_score.cycles / best.score.cycles - 1,
    }


def time_tuner(name: str, problem: ConvBpFilterShape, budget: int) -> str:
    load = os.getloadavg()[0]
    start, cpu = time.perf_counter(), time.process_time()
    r = search(problem, HW, budget=budget)
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return (
        f"{name}: tuned in {wall:.1f} s wall, {used:.1f} s CPU, {r.candidates} candidates, "
        f"{r.speedup:.2f}x over the heuristic; load average {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs"
    )


def table(rows: list[dict[str, object]]) -> list[str]:
    out = [
        "| layer | heuristic cycles | tuned cycles | tuner candidates | tune s | tune s (CPU) "
        "| best found cycles | found by | its candidates | gap |",
        "|---|--:|--:|--:|--:|--:|--:|---|--:|--:|",
    ]
    for r in rows:
        out.append(
            f"| {r['name']} | {r['heuristic']:,.0f} | {r['tuned']:,.0f} | "
            f"{r['tune_candidates']} | {r['tune_wall']:.1f} | {r['tune_cpu']:.1f} | "
            f"{r['best']:,.0f} | {r['how']} | "
            f"{r['candidates']} | {100 * r['gap']:.2f}% |"  # type: ignore[operator]
        )
    return out


def record(path: Path, command: str, lines: list[str]) -> None:
    """Put the section into the page at ``path``: in place of its old one, else at its end."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    body = [
        SECTION,
        "",
        "Written by `benchmarks/bench_search_gap.py --record` (its docstring says what the",
        f"independent search does), on today's cost model, by `{command}`",
        "(hours of CPU: tests/test_benchmarks.py runs it on one small layer instead).",
        "",
        *lines,
    ]
    write_atomically(path, with_section(text, "\n".join(body) + "\n"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default=",".join(LAYERS), help="names in layers.json")
    parser.add_argument("--layers-file", default=str(ROOT / "benchmarks" / "layers.json"))
    parser.add_argument("--budget", type=int, default=BUDGET, help="the tuner's")
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--time-layer", default="i3d-conv1", help="'none': do not")
    parser.add_argument("--record", metavar="PAGE", help="write the section into PAGE")
    args = parser.parse_args()
    layers = {layer.name: layer.problem for layer in read_layers(args.layers_file)}
    names = [n for n in args.layers.split(",") if n]
    wanted = names + ([args.time_layer] if args.time_layer != "none" else [])
    if unknown := [n for n in wanted if n not in layers]:
        sys.exit(f"bench_search_gap: error: no layer {unknown[0]!r} in {args.layers_file}")
    if min(args.budget, args.factor, args.workers) < 1:
        sys.exit("bench_search_gap: error: --budget, --factor and --workers must be at least 1")
    start, load = time.perf_counter(), os.getloadavg()[0]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [
            pool.submit(measure, n, layers[n], args.budget, args.factor, args.seed + i)
            for i, n in enumerate(names)
        ]
        for future in as_completed(futures):  # each row as it comes: the run is long
            print(table([future.result()])[-1], flush=True)
        rows = [f.result() for f in futures]
    lines = table(rows)
    worst = max(rows, key=lambda r: r["gap"])  # type: ignore[arg-type,return-value]
    lines += [
        "",
        f"{len(rows)} layers, {args.factor}x the tuner's candidates (at least its budget of "
        f"{args.budget}), seed "
        f"{args.seed}, {args.workers} workers, {time.perf_counter() - start:.0f} s (load average "
        f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end). Largest gap "
        f"{100 * worst['gap']:.2f}% ({worst['name']}); target <= {100 * TARGET_GAP:.0f}% on "  # type: ignore[operator]
        f"every layer: {'met' if worst['gap'] <= TARGET_GAP else 'not met'}.",  # type: ignore[operator]
    ]
    if args.time_layer != "none":
        lines += ["", time_tuner(args.time_layer, layers[args.time_layer], args.budget) + "."]
    print("\n".join(lines))
    if args.record:
        command = "python benchmarks/bench_search_gap.py " + " ".join(sys.argv[1:])
        record(Path(args.record), command.replace(f" --record {args.record}", ""), lines)


if __name__ == "__main__":
    main()
