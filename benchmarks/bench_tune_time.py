"""Tuning time per layer and the huge layer's cost-only time, against a baseline tree.

What one tuning candidate costs is a compile to the hardware level and a cost-only run
(``tuning/search.py``, ``score_tiling``). This measures, in CPU seconds (``time.process_time``,
which a loaded machine inflates less than wall time):

* the whole tiling search (``tuning.search.search``, no cache) of the suite's slowest layers
  (default r3d50-stem and i3d-conv1 of ``benchmarks/layers.json``), with its candidates and
  the tuned tiling's cycles: in one process (``workers=1``, CPU seconds), and with
  ``--workers N`` processes (default: this machine's CPUs; ``tuning/speculate.py``) in wall
  seconds, next to the CPU seconds of all of them and the load average when it ended (the
  wall time is what a user waits, and what other work on the machine inflates most);
* the cost-only run (``runtime.api.model_cost``) of the huge layer 8x512x16x112x112, weight
  512x512x3x3x3, padding 1 (heuristic tiling), best of ``--repeat``: dW (``huge``), the
  forward conv (``huge-forward``) and dX (``huge-bp-input``) of the same layer (issue 17:
  under 1 s for each op).

Each measurement runs in a fresh process of this tree's Python and, with ``--baseline DIR``
(a checkout with its own ``.venv``, e.g. main's, searched as it searches: in one process),
of that tree's, one after the other in ``--rounds`` rounds, so both see the same load; it
prints the seconds, their ratio (this / baseline) and whether the cycles and the candidates
are the same (they must be: the workers and the work only make the search faster).

Run: python benchmarks/bench_tune_time.py [--baseline DIR] [--layers A,B] [--rounds N]
[--workers N]
Recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HW = "atlas-a2-910b2"
SLOWEST = "r3d50-stem,i3d-conv1"
HUGE = ((8, 512, 16, 112, 112), (512, 512, 3, 3, 3), 1)


def measure_layer(name: str, workers: int) -> dict[str, object]:
    """The search of one suite layer: this process's CPU s, wall s, its workers' CPU s,
    candidates, tuned cycles and tiling. ``workers`` 0: the tree's default call (a tree
    without the workers option)."""
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
    kwargs = {"workers": workers} if workers else {}
    before, start, wall = os.times(), time.process_time(), time.perf_counter()
    result = search(problem, HW, **kwargs)
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    after = os.times()
    children = (after.children_user + after.children_system) - (
        before.children_user + before.children_system
    )
    return {
        "seconds": seconds,
        "wall": wall,
        "children": children,
        "load": os.getloadavg()[0],
        "candidates": result.candidates,
        "cycles": repr(result.tuned_score.cycles),
        "tiling": repr(result.tuned),
    }


def measure_huge(repeat: int, case: str) -> dict[str, object]:
    """The huge layer's cost-only run of ``case`` (``huge``: dW, ``huge-forward``: the forward
    conv, ``huge-bp-input``: dX), best of ``repeat``, in this process."""
    from ascend_xdsl.lowering.build import (
        FORWARD_FUNC_NAME,
        FUNC_NAME,
        INPUT_GRAD_FUNC_NAME,
        shape_from_torch_args,
    )
    from ascend_xdsl.runtime.api import compiled_levels, model_cost
    from ascend_xdsl.runtime.forward import forward_levels
    from ascend_xdsl.runtime.input_grad import input_grad_levels

    x, w, padding = HUGE
    problem = shape_from_torch_args(x, w, padding=padding)
    if case == "huge-forward":
        module, entry = forward_levels(problem, HW)["hw"], FORWARD_FUNC_NAME
    elif case == "huge-bp-input":
        module, entry = input_grad_levels(problem, HW)["hw"], INPUT_GRAD_FUNC_NAME
    else:
        module, entry = compiled_levels(problem, HW, "heuristic", None, "")["hw"], FUNC_NAME
    best, cycles = math.inf, 0.0
    for _ in range(repeat):
        start = time.process_time()
        (report, *_) = model_cost(module, HW, entry=entry, problem=problem)
        best = min(best, time.process_time() - start)
        cycles = report.cycles
    return {"seconds": best, "candidates": 0, "cycles": repr(cycles), "tiling": ""}


def run_one(python: str, cwd: Path, what: str, repeat: int, workers: int) -> dict[str, object]:
    """One measurement in a fresh process of ``python`` (its tree's ascend_xdsl)."""
    argv = [python, str(Path(__file__).resolve()), "--measure", what, "--repeat", str(repeat)]
    argv += ["--measure-workers", str(workers)]
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed under {python}:\n{done.stderr.strip()}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(got["tree"]) != cwd:  # the baseline must time its own tree's code
        raise SystemExit(f"{python} imports ascend_xdsl from {got['tree']}, not from {cwd}")
    return got


HUGE_CASES = ("huge", "huge-forward", "huge-bp-input")


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", type=Path, help="a checkout with its own .venv")
    parser.add_argument("--layers", default=SLOWEST, help="comma-separated suite layers")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--huge",
        default="huge,huge-forward,huge-bp-input",
        help="huge-layer cost-only cases: huge (dW), huge-forward, huge-bp-input (comma-separated)",
    )
    parser.add_argument("--repeat", type=int, default=6, help="huge layer: best of N")
    parser.add_argument(
        "--workers", type=int, default=default_workers(), help="the parallel search's processes"
    )
    parser.add_argument("--no-huge", action="store_true", help="the layers' searches only")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--measure-workers", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        if args.measure in HUGE_CASES:
            out = measure_huge(args.repeat, args.measure)
        else:
            out = measure_layer(args.measure, args.measure_workers)
        import ascend_xdsl.runtime

        out["tree"] = str(Path(ascend_xdsl.runtime.__file__).resolve().parent.parent)
        print(json.dumps(out))
        return
    # (label, python, tree, workers): this tree in one process and with the workers; the
    # baseline as it searches (its default call).
    runs = [
        ("this", sys.executable, HERE.parent, 1),
        ("par", sys.executable, HERE.parent, args.workers),
    ]
    if args.baseline is not None:
        base = args.baseline.resolve()
        runs.append(("baseline", str(base / ".venv" / "bin" / "python"), base, 0))
    layers = [n for n in args.layers.split(",") if n]
    cases = layers + ([] if args.no_huge else [n for n in args.huge.split(",") if n])
    best: dict[tuple[str, str], dict[str, float]] = {}
    seen: dict[tuple[str, str], dict[str, object]] = {}
    for _ in range(args.rounds):
        for case in cases:
            for label, python, cwd, workers in runs:
                if case in HUGE_CASES and label == "par":
                    continue  # one cost-only run: nothing to share
                got = run_one(python, cwd, case, args.repeat, workers)
                seen[label, case] = got
                old = best.get((label, case))
                if old is None or float(got.get("wall", got["seconds"])) < old["wall"]:  # type: ignore[arg-type]
                    best[label, case] = {
                        k: float(got.get(k, 0.0))  # type: ignore[arg-type]
                        for k in ("seconds", "wall", "children", "load")
                    }
                    best[label, case]["wall"] = float(got.get("wall", got["seconds"]))  # type: ignore[arg-type]
    has_base = args.baseline is not None
    print(f"parallel search: {args.workers} processes; best of {args.rounds} round(s) each")
    head = f"{'case':22s} {'CPU s':>7s}"
    if has_base:
        head += f" {'base CPU s':>10s} {'ratio':>6s} {'base wall':>9s}"
    head += f" {'wall, ' + str(args.workers) + ' proc':>12s} {'CPU s all':>9s} {'load':>5s}"
    if has_base:
        head += f" {'wall ratio':>10s} same result"
    print(head + "  candidates  cycles")
    for case in cases:
        label = {
            "huge": "huge cost-only",
            "huge-forward": "huge forward cost-only",
            "huge-bp-input": "huge dX cost-only",
        }.get(case, f"tune {case}")
        mine = seen["this", case]
        one = best["this", case]
        line = f"{label:22s} {one['seconds']:7.2f}"
        if has_base:
            b = best["baseline", case]
            line += f" {b['seconds']:10.2f} {one['seconds'] / b['seconds']:6.2f} {b['wall']:9.2f}"
        if case in HUGE_CASES:
            line += f" {'':>12s} {'':>9s} {'':>5s}"
        else:
            p = best["par", case]
            line += f" {p['wall']:12.2f} {p['seconds'] + p['children']:9.2f} {p['load']:5.2f}"
        results = {
            mine["cycles"],
            *(seen[k, case]["cycles"] for k in ("par", "baseline") if (k, case) in seen),
        }
        tilings = {
            mine["tiling"],
            *(seen[k, case]["tiling"] for k in ("par", "baseline") if (k, case) in seen),
        }
        counts = {
            mine["candidates"],
            *(seen[k, case]["candidates"] for k in ("par", "baseline") if (k, case) in seen),
        }
        if has_base:
            ratio = (
                ""
                if case in HUGE_CASES
                else f"{best['par', case]['wall'] / best['baseline', case]['wall']:10.2f}"
            )
            same = "yes" if len(results) == len(tilings) == len(counts) == 1 else "NO"
            line += f" {ratio:>10s} {same:11s}"
        print(f"{line}  {mine['candidates']:>10}  {float(mine['cycles']):,.0f}")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
