"""Speed and memory of ``ascend_xdsl.runtime.conv3d_weight`` on the default layer.

The simulator interprets the lowered hardware-level program (every data_copy, load3d, mmad,
fixpipe and flag of every core). Its baseline, measured in the same run, is a plain numpy dW:
im2col of x (one strided view per kernel tap, stacked) and one float32 matmul with dy per group
— the fastest straightforward way to compute the same numbers. Printed: seconds of each and
the ratio simulator / baseline (target: at most 3, stretch 2), for the first call (including
compilation) and for a warm call (compiled module cached), single- and multi-core; and the
peak memory the simulator allocates (tracemalloc) as a multiple of the bytes of x, dy and dW.

Run: python benchmarks/bench_conv3d_weight.py [--repeat N]. Results are recorded in
docs/performance.md. Timings take the best of N runs because this machine is shared.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from ascend_xdsl.runtime.api import compiled_levels, conv3d_weight, run_conv3d_weight

X_SHAPE = (2, 64, 8, 28, 28)
W_SHAPE = (64, 64, 3, 3, 3)
PAD = 1


def im2col_matmul(x: np.ndarray, dy: np.ndarray, pad: int) -> np.ndarray:
    """The baseline: plain numpy im2col + matmul, float32 (stride 1, dilation 1, groups 1)."""
    _n, cin, _d, _h, _w = x.shape
    cout, _, kd, kh, kw = W_SHAPE
    do, ho, wo = dy.shape[2:]
    xp = np.pad(x.astype(np.float32), ((0, 0), (0, 0), (pad, pad), (pad, pad), (pad, pad)))
    cols = np.stack(
        [
            xp[:, :, a : a + do, b : b + ho, c : c + wo]
            for a in range(kd)
            for b in range(kh)
            for c in range(kw)
        ],
        axis=2,
    )  # (n, cin, taps, do, ho, wo)
    cols = cols.transpose(1, 2, 0, 3, 4, 5).reshape(cin * kd * kh * kw, -1)
    dym = dy.astype(np.float32).transpose(1, 0, 2, 3, 4).reshape(cout, -1)
    return (dym @ cols.T).reshape(W_SHAPE)


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal(X_SHAPE).astype(np.float16)
    dy = rng.standard_normal(X_SHAPE).astype(np.float16)  # stride 1, pad 1: dy has x's shape

    baseline = best(lambda: im2col_matmul(x, dy, PAD), args.repeat)
    got = conv3d_weight(x, W_SHAPE, dy, padding=PAD)
    assert np.abs(got - im2col_matmul(x, dy, PAD)).max() < 1e-2, "simulator disagrees"

    rows = []
    for cores in (None, 1):
        label = "all cores" if cores is None else f"{cores} core"
        compiled_levels.cache_clear()
        start = time.perf_counter()
        run_conv3d_weight(x, W_SHAPE, dy, padding=PAD, cores=cores)
        first = time.perf_counter() - start
        warm = best(
            lambda c=cores: run_conv3d_weight(x, W_SHAPE, dy, padding=PAD, cores=c), args.repeat
        )
        rows.append((label, first, warm))

    tracemalloc.start()
    run_conv3d_weight(x, W_SHAPE, dy, padding=PAD)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    data = x.nbytes + dy.nbytes + int(np.prod(W_SHAPE)) * 4

    print(f"default layer x {X_SHAPE}, weight {W_SHAPE}, padding {PAD}, f16")
    print(f"baseline numpy im2col + matmul: {baseline:.3f} s")
    print(f"{'conv3d_weight':<24}{'first call':>12}{'ratio':>8}{'warm call':>12}{'ratio':>8}")
    for label, first, warm in rows:
        print(
            f"{label:<24}{first:>11.3f}s{first / baseline:>8.2f}{warm:>11.3f}s"
            f"{warm / baseline:>8.2f}"
        )
    print(
        f"peak allocation of a warm call: {peak / 2**20:.1f} MiB = {peak / data:.2f}x the "
        f"{data / 2**20:.1f} MiB of x, dy and dW"
    )


if __name__ == "__main__":
    main()
