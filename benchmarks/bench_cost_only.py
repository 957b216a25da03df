"""Cost-only scoring time, against the full (simulated and timed) run measured in the same run.

Scores three layers with the cost-only mode (``runtime.api.model_cost``: no data, loops
extrapolated or replayed, cores with the same work timed once) and, where it can run, the full
run that simulates the data and times every instruction (``interpret_timed``), and prints the
seconds, the ratio and the modelled cycles of both (they must agree: the full run is the exact
timeline). The large layer (8x512x16x112x112, weight 512x512x3x3x3: 2 GB of inputs, about
21 M instructions) is too big to simulate here; its goal is well under 1 s.

Run: python benchmarks/bench_cost_only.py [--repeat N]. Recorded in docs/cost-model.md.
"""

from __future__ import annotations

import argparse
import time

from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, interpret_timed, model_cost, random_inputs

HW = "atlas-a2-910b2"
LAYERS = {
    "small 1x16x4x8x8": ((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), True),
    "default 2x64x8x28x28": ((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), True),
    "large 8x512x16x112x112": ((8, 512, 16, 112, 112), (512, 512, 3, 3, 3), False),
}


def best(repeat: int, fn) -> tuple[float, object]:
    fastest, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'layer':24s} {'cost-only s':>11s} {'full run s':>10s} {'ratio':>7s}  cycles")
    for name, (x_shape, w_shape, simulate) in LAYERS.items():
        problem = shape_from_torch_args(x_shape, w_shape, padding=1)
        hw_module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
        t_cost, reports = best(
            args.repeat, lambda m=hw_module, p=problem: model_cost(m, HW, problem=p)
        )
        cycles = reports[0].cycles  # type: ignore[index]
        if simulate:
            x, dy = random_inputs(problem, 0)
            t_full, (_, exact) = best(
                args.repeat, lambda m=hw_module, x=x, dy=dy: interpret_timed(m, HW, x, dy)
            )
            same = abs(exact.cycles - cycles) <= 1e-6 * cycles
            agree = "same as the full run" if same else f"full run: {exact.cycles:,.0f}"
            ratio = t_full / t_cost
            print(
                f"{name:24s} {t_cost:11.3f} {t_full:10.3f} {ratio:6.1f}x  {cycles:,.0f} ({agree})"
            )
        else:
            verdict = "under 1 s" if t_cost < 1 else "NOT under 1 s"
            print(f"{name:24s} {t_cost:11.3f} {'-':>10s} {'-':>7s}  {cycles:,.0f} ({verdict})")


if __name__ == "__main__":
    main()
