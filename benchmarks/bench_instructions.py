"""Micro-benchmark: simulator cost of load3d and mmad on one realistic dW tile.

baseM = baseN = baseK = 128, float16: the A side loads a 128 (Cout) x 128 (positions) dy tile
from a [cout1][kl1][C0] map with the transposing load3d, the B side does the img2col of a
3x3 / stride 1 / pad 1 window over a [2][6][32][16] x block (4 Wo rows of 32 = 128 positions,
128 columns), and mmad multiplies the two. Each time is printed per call and as a ratio to a
plain numpy float32 matmul of a 128x128x128 tile timed in the same run, so the figures stay
comparable across machines. The interpreter will issue one such call per hw-level op, so these
ratios are the simulator's per-tile overhead over the bare arithmetic.

Run: python benchmarks/bench_instructions.py. On a small shared machine the multi-threaded BLAS
makes the 128^3 baseline noisy; OPENBLAS_NUM_THREADS=1 gives steadier ratios.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable

import numpy as np

from ascend_xdsl.runtime.machine import semantics as ins
from ascend_xdsl.runtime.machine.memory import CoreMemory

BASE = 128


def best_time(fn: Callable[[], object], number: int = 200, repeat: int = 7) -> float:
    """Best-of-``repeat`` mean seconds per call (the minimum filters scheduler noise)."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main() -> None:
    rng = np.random.default_rng(0)
    mem = CoreMemory()
    f16 = np.float16

    # A side: dy tile [cout1 = 8][kl1 = 128][16] in A1, transposing load3d into L0A (Zz).
    a1 = mem.view("L1", 0, BASE * BASE, f16)
    a1[:] = rng.standard_normal(a1.size)
    a2 = mem.view("L0A", 0, BASE * BASE, f16)
    a_args = dict(
        l1_h=1, l1_w=BASE, channels=BASE, k_start=0, k_ext=BASE, m_start=0, m_ext=BASE,
        pad=(0, 0, 0, 0), kernel=(1, 1), stride=(1, 1), dilation=(1, 1), transpose=True,
    )  # fmt: skip

    # B side: x block [c1 = 2][6 rows][32][16] in B1, img2col 3x3 pad 1 into L0B (Zn).
    b1 = mem.view("L1", 65536, 2 * 6 * 32 * 16, f16)
    b1[:] = rng.standard_normal(b1.size)
    b2 = mem.view("L0B", 0, BASE * BASE, f16)
    b_args = dict(
        l1_h=6, l1_w=32, channels=32, k_start=0, k_ext=BASE, m_start=0, m_ext=BASE,
        pad=(1, 1, 1, 1), kernel=(3, 3), stride=(1, 1), dilation=(1, 1), transpose=False,
    )  # fmt: skip

    c = mem.view("L0C", 0, BASE * BASE, np.float32)

    x = rng.standard_normal((BASE, BASE)).astype(np.float32)
    y = rng.standard_normal((BASE, BASE)).astype(np.float32)
    x16, y16 = x.astype(f16), y.astype(f16)

    ins._img2col_plan.cache_clear()
    cold = best_time(lambda: ins.load3d(b1, 0, b2, **b_args), number=1, repeat=1)
    timings = {
        "numpy f32 matmul 128^3 (baseline)": best_time(lambda: x @ y),
        "numpy f16->f32 cast + matmul": best_time(lambda: x16.astype(np.float32) @ y16),
        "load3d A (transpose, 128x128)": best_time(lambda: ins.load3d(a1, 0, a2, **a_args)),
        "load3d B (img2col 3x3, 128x128)": best_time(lambda: ins.load3d(b1, 0, b2, **b_args)),
        "mmad 128x128x128 init": best_time(
            lambda: ins.mmad(a2, b2, c, BASE, BASE, BASE, init=True)
        ),
        "mmad 128x128x128 accumulate": best_time(
            lambda: ins.mmad(a2, b2, c, BASE, BASE, BASE, init=False)
        ),
    }
    base = timings["numpy f32 matmul 128^3 (baseline)"]
    print(f"{'operation':36s} {'us/call':>9s} {'x matmul':>9s}")
    for name, seconds in timings.items():
        print(f"{name:36s} {seconds * 1e6:9.1f} {seconds / base:9.2f}")
    print(f"{'load3d B first call (builds plan)':36s} {cold * 1e6:9.1f} {cold / base:9.2f}")


if __name__ == "__main__":
    main()
