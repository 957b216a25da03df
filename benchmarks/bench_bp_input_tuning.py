"""The input gradient's (dX) tiling search against its heuristic on layers of
``benchmarks/layers.json``: the table of docs/benchmarks.md, "The input gradient (bp-input),
tuned".

For each layer (one group's problem, as ``ascend-tune`` tunes a ``bp-input`` row), the dX search
of ``tuning/conv3d_bp_input_search.py`` from an empty cache (``search_input_grad``: no cache is
read or written) on atlas-a2-910b2 with all its cores and the default budget, and one markdown
row: the heuristic's and the tuned tiling's cost-only cycles, the ratio, the candidates scored,
the search's CPU seconds and the tuned tiling in one line (``tuning/sweep.input_grad_summary``).

    .venv/bin/python benchmarks/bench_bp_input_tuning.py [--layers NAME,...] [--budget N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.tuning.conv3d_bp_input_search import BUDGET, search_input_grad
from ascend_xdsl.tuning.conv3d_search import one_group
from ascend_xdsl.tuning.sweep import input_grad_summary

HW = "atlas-a2-910b2"
LAYERS = Path(__file__).parent / "layers.json"
DEFAULT = (
    "c3d-conv4b",
    "c3d-conv5b",
    "r3d50-layer2-3x3",
    "i3d-mixed4b-1x1",
    "unet3d-enc3",
    "slowfast-slow-res4",
)
"""Six layers whose dX runs at the cost model's pace in a few seconds a candidate."""

HEADER = (
    "| layer | heuristic cycles | tuned cycles | speedup | candidates | CPU s | "
    "tuned tiling |\n|---|--:|--:|--:|--:|--:|---|"
)


def row(name: str, record: dict, budget: int) -> str:
    problem = shape_from_torch_args(
        record["input"],
        record["weight"],
        record.get("stride", 1),
        record.get("padding", 0),
        record.get("dilation", 1),
        record.get("groups", 1),
    )
    single = one_group(problem) if problem.groups > 1 else problem
    start = time.process_time()
    r = search_input_grad(single, HW, budget=budget)
    cpu = time.process_time() - start
    h, t = r.heuristic_score.cycles, r.tuned_score.cycles
    return (
        f"| {name} | {h:,.0f} | {t:,.0f} | {h / t:.2f}x | {r.candidates} | {cpu:.1f} | "
        f"{input_grad_summary(r.tuned)} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default=",".join(DEFAULT), help="layer names, comma-separated")
    parser.add_argument("--budget", type=int, default=BUDGET, help=f"candidates ({BUDGET})")
    args = parser.parse_args(argv)
    records = {r["name"]: r for r in json.loads(LAYERS.read_text())}
    names = [n for n in args.layers.split(",") if n]
    unknown = [n for n in names if n not in records]
    if unknown:
        parser.error(f"unknown layer(s) {', '.join(unknown)} (see {LAYERS.name})")
    print(HEADER, flush=True)
    for name in names:
        print(row(name, records[name], args.budget), flush=True)
    load = os.getloadavg()[0]
    print(f"\nload average at the end: {load:.1f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
