"""Tuning time per layer and the huge layer's cost-only time, against a baseline tree.

What one tuning candidate costs is a compile to the hardware level and a cost-only run
(``tuning/search.py``, ``score_tiling``). This measures, in CPU seconds (``time.process_time``,
which a loaded machine inflates less than wall time):

* the whole tiling search (``tuning.search.search``, no cache) of the suite's slowest layers
  (default r3d50-stem and i3d-conv1 of ``benchmarks/layers.json``), with its candidates and
  the tuned tiling's cycles;
* the cost-only run (``runtime.api.model_cost``) of the huge layer 8x512x16x112x112, weight
  512x512x3x3x3, padding 1 (heuristic tiling), best of ``--repeat``: dW (``huge``) and the
  forward conv of the same layer (``huge-forward``, issue 17: under 1 s for each op).

Each measurement runs in a fresh process of this tree's Python and, with ``--baseline DIR``
(a checkout with its own ``.venv``, e.g. main's), of that tree's, one after the other in
``--rounds`` rounds, so both see the same load; it prints the seconds, their ratio
(this / baseline) and whether the cycles are the same (they must be: the work only makes
each candidate cheaper).

Run: python benchmarks/bench_tune_time.py [--baseline DIR] [--layers A,B] [--rounds N]
Recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HW = "atlas-a2-910b2"
SLOWEST = "r3d50-stem,i3d-conv1"
HUGE = ((8, 512, 16, 112, 112), (512, 512, 3, 3, 3), 1)


def measure_layer(name: str) -> dict[str, object]:
    """The search of one suite layer, in this process: CPU s, candidates, tuned cycles."""
    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.tuning.search import search

    rows = {r["name"]: r for r in json.loads((HERE / "layers.json").read_text())}
    row = rows[name]
    problem = shape_from_torch_args(
        row["input"],
        row["weight"],
        stride=row.get("stride", 1),
        padding=row.get("padding", 0),
        dilation=row.get("dilation", 1),
        groups=row.get("groups", 1),
    )
    start = time.process_time()
    result = search(problem, HW)
    seconds = time.process_time() - start
    return {
        "seconds": seconds,
        "candidates": result.candidates,
        "cycles": repr(result.tuned_score.cycles),
    }


def measure_huge(repeat: int, forward: bool = False) -> dict[str, object]:
    """The huge layer's cost-only run (dW, or with ``forward`` the forward conv), best of
    ``repeat``, in this process."""
    from ascend_xdsl.lowering.build import FORWARD_FUNC_NAME, FUNC_NAME, shape_from_torch_args
    from ascend_xdsl.runtime.api import compiled_levels, model_cost
    from ascend_xdsl.runtime.forward import forward_levels

    x, w, padding = HUGE
    problem = shape_from_torch_args(x, w, padding=padding)
    if forward:
        module, entry = forward_levels(problem, HW)["hw"], FORWARD_FUNC_NAME
    else:
        module, entry = compiled_levels(problem, HW, "heuristic", None, "")["hw"], FUNC_NAME
    best, cycles = math.inf, 0.0
    for _ in range(repeat):
        start = time.process_time()
        (report, *_) = model_cost(module, HW, entry=entry, problem=problem)
        best = min(best, time.process_time() - start)
        cycles = report.cycles
    return {"seconds": best, "candidates": 0, "cycles": repr(cycles)}


def run_one(python: str, cwd: Path, what: str, repeat: int) -> dict[str, object]:
    """One measurement in a fresh process of ``python`` (its tree's ascend_xdsl)."""
    argv = [python, str(Path(__file__).resolve()), "--measure", what, "--repeat", str(repeat)]
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed under {python}:\n{done.stderr.strip()}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(got["tree"]) != cwd:  # the baseline must time its own tree's code
        raise SystemExit(f"{python} imports ascend_xdsl from {got['tree']}, not from {cwd}")
    return got


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", type=Path, help="a checkout with its own .venv")
    parser.add_argument("--layers", default=SLOWEST, help="comma-separated suite layers")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--huge",
        default="huge,huge-forward",
        help="huge-layer cost-only cases: huge (dW), huge-forward (comma-separated)",
    )
    parser.add_argument("--repeat", type=int, default=6, help="huge layer: best of N")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        if args.measure in ("huge", "huge-forward"):
            out = measure_huge(args.repeat, forward=args.measure == "huge-forward")
        else:
            out = measure_layer(args.measure)
        import ascend_xdsl.runtime

        out["tree"] = str(Path(ascend_xdsl.runtime.__file__).resolve().parent.parent)
        print(json.dumps(out))
        return
    trees = [("this", sys.executable, HERE.parent)]
    if args.baseline is not None:
        base = args.baseline.resolve()
        trees.append(("baseline", str(base / ".venv" / "bin" / "python"), base))
    cases = [*[n for n in args.layers.split(",") if n], *[n for n in args.huge.split(",") if n]]
    best: dict[tuple[str, str], float] = {}
    seen: dict[tuple[str, str], dict[str, object]] = {}
    ratios: dict[str, list[float]] = {case: [] for case in cases}
    for _ in range(args.rounds):
        for case in cases:
            now = {}
            for tree, python, cwd in trees:
                got = run_one(python, cwd, case, args.repeat)
                now[tree] = float(got["seconds"])  # type: ignore[arg-type]
                best[tree, case] = min(best.get((tree, case), math.inf), now[tree])
                seen[tree, case] = got
            if "baseline" in now:
                ratios[case].append(now["this"] / now["baseline"])
    head = f"{'case':22s} {'this CPU s':>10s}"
    if len(trees) > 1:
        head += f" {'base CPU s':>10s} {'ratio':>6s}  rounds          same cycles"
    print(head + "  candidates  cycles")
    for case in cases:
        label = {"huge": "huge cost-only", "huge-forward": "huge forward cost-only"}.get(
            case, f"tune {case}"
        )
        mine = seen["this", case]
        line = f"{label:22s} {best['this', case]:10.2f}"
        if len(trees) > 1:
            base = seen["baseline", case]
            ratio = best["this", case] / best["baseline", case]
            rounds = ", ".join(f"{r:.2f}" for r in ratios[case])
            same = "yes" if base["cycles"] == mine["cycles"] else f"NO ({base['cycles']})"
            line += f" {best['baseline', case]:10.2f} {ratio:6.2f}  {rounds:15s} {same:11s}"
        print(f"{line}  {mine['candidates']:>10}  {float(mine['cycles']):,.0f}")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
