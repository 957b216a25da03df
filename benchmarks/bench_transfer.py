"""Transfer between layers (tuning/transfer.py): candidates saved, and the result, on the suite.

Layers that differ only in the batch or the input's spatial size form a family (the tuning
cache's ``family_key``). For every layer of a family with another member, this runs the
search as is and, as ``tuned`` does when the family's nearest other member is cached, from that
member's tuned tiling (the plain search's answer for it) rescaled to the layer, trusted
(``search(trust_starts=True)``: when the start beats the heuristic, one descent from it and no
split starts), at the same budget. ``tuned`` uses the start only when the rescale kept the
donor's busy cores (``transfer.keeps_cores``); a layer whose start is not used has the plain
search's row (the search is deterministic). ``--trust all`` uses and trusts every start
instead (what the rule is measured against). It reports both searches' candidates, wall time
and tuned cycles, and whether the start left the result the same, better or worse.

The suite (``--layers``, default benchmarks/layers.json, batch 1) has two families, C3D's
conv3b with R3D-18's layer3 and C3D's conv4b with conv5b. ``--batch N`` adds a copy of the
layers named by ``--batch-layers`` at batch N (``NAME@bN``), each in the family of its batch-1
layer: a network tuned at batch 1 and then at a training batch.

Run: python benchmarks/bench_transfer.py [--workers N] [--budget N] [--trust rule|all]
     [--batch N --batch-layers A,B,...] [--output docs/benchmarks.md]
It prints the table and, with ``--output``, records it as the page's "Transfer between layers"
section (``page_sections.with_section``; bench_tuning.py keeps it when it writes the page).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from page_sections import with_section

from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.runtime.reports.output import write_atomically
from ascend_xdsl.tuning.cache import family_key
from ascend_xdsl.tuning.search import BUDGET, search
from ascend_xdsl.tuning.sweep import Layer, read_layers
from ascend_xdsl.tuning.transfer import distance, keeps_cores, rescaled

ROOT = Path(__file__).resolve().parent.parent
HW = "atlas-a2-910b2"
HEADING = "## Transfer between layers"


def _search(job: tuple[Layer, int, DwTiling | None, bool]) -> dict[str, Any]:
    layer, budget, start, trust = job
    begin = time.perf_counter()
    r = search(
        layer.problem, HW, budget=budget, extra_starts=[start] if start else [], trust_starts=trust
    )
    return {
        "cycles": r.tuned_score.cycles,
        "heuristic": r.heuristic_score.cycles,
        "candidates": r.candidates,
        "seconds": time.perf_counter() - begin,
        "tuned": r.tuned,
    }


def families(layers: list[Layer]) -> dict[str, list[Layer]]:
    """The families with more than one member, in file order."""
    cores = load_hw(HW).aic_count
    groups: dict[str, list[Layer]] = {}
    for layer in layers:
        groups.setdefault(family_key(layer.problem, HW, cores), []).append(layer)
    return {k: v for k, v in groups.items() if len(v) > 1}


def nearest(layer: Layer, members: list[Layer]) -> Layer:
    """The member nearest to ``layer`` (the cache's rule: distance, here then file order)."""
    others = [m for m in members if m is not layer]
    return min(others, key=lambda m: distance(m.problem, layer.problem))


def measure(
    layers: list[Layer], budget: int, workers: int, trust_all: bool = False
) -> list[dict[str, Any]]:
    members = [m for group in families(layers).values() for m in group]
    config = load_hw(HW)
    with ProcessPoolExecutor(max(workers, 1)) as pool:
        plain = dict(
            zip([m.name for m in members],
                pool.map(_search, [(m, budget, None, False) for m in members]), strict=True)
        )  # fmt: skip
        group_of = {m.name: g for g in families(layers).values() for m in g}
        donors = {m.name: nearest(m, group_of[m.name]) for m in members}
        starts = {
            m.name: rescaled(plain[donors[m.name].name]["tuned"], m.problem, config,
                             config.aic_count)
            for m in members
        }  # fmt: skip
        trusted = {
            m.name: (s := starts[m.name]) is not None
            and (trust_all or keeps_cores(plain[donors[m.name].name]["tuned"], s))
            for m in members
        }
        # A start that is not trusted is not used (as in ``tuned``): that search is the plain
        # one, which is deterministic, so its row is the plain search's.
        used = [m for m in members if trusted[m.name]]
        started = dict(plain) | dict(
            zip([m.name for m in used],
                pool.map(_search, [(m, budget, starts[m.name], True) for m in used]), strict=True)
        )  # fmt: skip
    rows = []
    for m in members:
        p, s = plain[m.name], started[m.name]
        verdict = "same" if s["cycles"] == p["cycles"] else (
            "better" if s["cycles"] < p["cycles"] else "worse")  # fmt: skip
        rows.append({
            "layer": m.name, "donor": donors[m.name].name, "start": starts[m.name] is not None,
            "trusted": trusted[m.name],
            "plain": p, "started": s, "verdict": verdict,
        })  # fmt: skip
    return rows


def table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| layer | from | used | candidates | with transfer | saved | tune s | with transfer "
        "| tuned cycles | with transfer | result |",
        "|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|",
    ]
    for r in rows:
        p, s = r["plain"], r["started"]
        donor = r["donor"] if r["start"] else f"{r['donor']} (no legal start)"
        lines.append(
            f"| {r['layer']} | {donor} | {'yes' if r['trusted'] else 'no'} | "
            f"{p['candidates']} | {s['candidates']} | "
            f"{p['candidates'] - s['candidates']} | {p['seconds']:.1f} | {s['seconds']:.1f} | "
            f"{p['cycles']:,.0f} | {s['cycles']:,.0f} | {r['verdict']} |"
        )
    return lines


def section(rows: list[dict[str, Any]], args: argparse.Namespace, wall: float) -> str:
    plain = sum(r["plain"]["candidates"] for r in rows)
    started = sum(r["started"]["candidates"] for r in rows)
    seconds = (sum(r["plain"]["seconds"] for r in rows), sum(r["started"]["seconds"] for r in rows))
    same = sum(r["verdict"] == "same" for r in rows)
    better = sum(r["verdict"] == "better" for r in rows)
    worse = [r["layer"] for r in rows if r["verdict"] == "worse"]
    flags = f"--workers {args.workers} --budget {args.budget} --trust {args.trust}"
    if args.batch_layers:
        flags += f" --batch {args.batch} --batch-layers {args.batch_layers}"
    lines = [
        HEADING,
        "",
        'Written by `benchmarks/bench_transfer.py` (`tuning/transfer.py`; docs/runtime.md, "The',
        f'tuning cache"), one run on {platform.machine()} with {os.cpu_count()} CPUs shared with '
        f"other jobs, in {wall:.0f} s: `python benchmarks/bench_transfer.py {flags}`. Each layer",
        "is searched as is and, as `tuned` does, from the tuned tiling of the nearest other",
        "layer of its family (same but for batch or spatial size; `from`) rescaled, trusted",
        "(`search(trust_starts=True)`: when it beats the heuristic, one descent from it and no",
        "core-split starts), at the same budget. The start is used only when the rescale kept",
        "the donor's busy cores (*used*; `transfer.keeps_cores`; `--trust all`: always); a layer",
        "whose start is not used repeats the plain row. *saved* is the candidates the start",
        "saved; the seconds are wall time on a shared machine.",
        "",
        *table(rows),
        "",
        f"In all, {started} candidates with transfer against {plain} without "
        f"({plain - started} saved, {(plain - started) / max(plain, 1):.1%}); "
        f"{seconds[1]:.0f} s of search against {seconds[0]:.0f} s; the result is the same on "
        f"{same} of {len(rows)} layers, better on {better}, worse on "
        f"{len(worse)}{': ' + ', '.join(worse) if worse else ''}.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default=str(ROOT / "benchmarks" / "layers.json"))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument(
        "--trust",
        choices=("rule", "all"),
        default="rule",
        help="use a start as tuned does (rule: when it kept the donor's cores) or always (all)",
    )
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--batch-layers", default="", help="comma-separated layer names")
    parser.add_argument("--output", help="record the section on this page (docs/benchmarks.md)")
    args = parser.parse_args()
    layers = read_layers(args.layers)
    names = [n for n in args.batch_layers.split(",") if n]
    by_name = {layer.name: layer for layer in layers}
    missing = [n for n in names if n not in by_name]
    if missing:
        parser.error(f"--batch-layers: no layer {', '.join(missing)} in {args.layers}")
    for n in names:
        layer = by_name[n]
        batched = replace(layer.problem, batch=layer.problem.batch * args.batch)
        layers.append(replace(layer, name=f"{n}@b{args.batch}", problem=batched))
    begin = time.perf_counter()
    rows = measure(layers, args.budget, args.workers, trust_all=args.trust == "all")
    wall = time.perf_counter() - begin
    text = section(rows, args, wall)
    print(text, end="")
    if args.output:
        out = Path(args.output)
        old = out.read_text(encoding="utf-8") if out.exists() else ""
        write_atomically(out, with_section(old, text))


if __name__ == "__main__":
    main()
