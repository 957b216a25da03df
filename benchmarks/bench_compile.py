"""Compile time of the whole pipeline, and proof that it does not depend on the problem size.

Compiles (build → op → format → api → hw, every pass) a tiny layer 1x16x4x8x8 and the large
layer 8x512x16x112x112 (3x3x3, padding 1, all 24 cores of atlas-a2-910b2) and prints the
seconds and ops of each and their ratio (measured in the same run). The lowered IR keeps loops
as loops, so the ratios stay small constants (the large layer has a few more non-trivial loops
and tails than the tiny one, whose loops fold away), however large the layer; the goal for the
large layer is under 1 s.

Run: python benchmarks/bench_compile.py [--repeat N]. Recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import time

from ascend_xdsl.ir.program import op_count
from ascend_xdsl.lowering.build import build_conv3d_bp_filter
from ascend_xdsl.lowering.pipeline import compile_levels

LAYERS = {
    "small 1x16x4x8x8": ((1, 16, 4, 8, 8), (16, 16, 3, 3, 3)),
    "large 8x512x16x112x112": ((8, 512, 16, 112, 112), (512, 512, 3, 3, 3)),
}


def measure(x_shape, w_shape, repeat: int) -> tuple[float, int]:
    best, ops = float("inf"), 0
    for _ in range(repeat):
        module = build_conv3d_bp_filter(x_shape, w_shape, padding=1)
        start = time.perf_counter()
        levels = compile_levels(module)
        best = min(best, time.perf_counter() - start)
        ops = op_count(levels["hw"])  # as the tools' summary counts them
    return best, ops


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    results = {name: measure(*shapes, args.repeat) for name, shapes in LAYERS.items()}
    (small_t, small_ops), (large_t, large_ops) = results.values()
    for name, (t, ops) in results.items():
        print(f"{name:<26} compile {t:.3f} s   hw-level IR {ops} ops")
    print(f"large / small: time {large_t / small_t:.2f}x, ops {large_ops / small_ops:.2f}x")


if __name__ == "__main__":
    main()
