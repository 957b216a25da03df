"""How the simulator's ratio to plain numpy scales with the layer, one factor at a time.

Around the default layer (x 2x64x8x28x28, weight 64x64x3x3x3, padding 1, f16, all cores) it
varies N (1, 2, 4), C = Cin = Cout (16, 64, 128), D (4, 8, 16), H = W (7, 14, 28, 56), the kernel
(1x1x1, 3x3x3, 1x7x7 with padding (0, 3, 3), 5x5x5 with padding 2) and the core count (1, 4, 24
through ``run_conv3d_weight(cores=)``), and prints per case the warm simulator time, the
baseline (the faster of the two numpy float32 references of ``bench_conv3d_weight.py``), their
ratio and, when ``import torch`` works, torch's CPU time; then names the case with the worst
ratio. Every case is checked against the baseline first. Timings are the best of ``--repeat``
warm calls (fewer for slow cases: a measurement stops after ``--budget`` seconds), with BLAS on
one thread as in ``bench_conv3d_weight.py``.

Run: python benchmarks/bench_scaling.py [--repeat N] [--quick] [--executor interp|compiled]
[--tiny]. ``--quick`` is one call per measurement; ``--tiny`` a tiny matrix (for the tests).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from bench_conv3d_weight import (
    REFERENCES,
    best_of,
    blas_description,
    close,
    executor_label,
    grad_output_shape,
    one_blas_thread,
    simulator,
    threads_note,
    torch_call,
    torch_one_thread,
)

from ascend_xdsl.runtime.runner import clear_compile_cache


@dataclass(frozen=True)
class Case:
    n: int = 2
    c: int = 64
    d: int = 8
    hw: int = 28
    kernel: tuple[int, int, int] = (3, 3, 3)
    padding: tuple[int, int, int] = (1, 1, 1)
    cores: int | None = None

    @property
    def x_shape(self) -> tuple[int, int, int, int, int]:
        return (self.n, self.c, self.d, self.hw, self.hw)

    @property
    def w_shape(self) -> tuple[int, int, int, int, int]:
        return (self.c, self.c, *self.kernel)

    def macs(self) -> int:
        """Multiply-adds of dW: every weight element times every output position."""
        dy = grad_output_shape(self.x_shape, self.w_shape, 1, self.padding, 1)
        return int(np.prod(self.w_shape)) * dy[0] * int(np.prod(dy[2:]))


KERNELS = {
    "1x1x1": ((1, 1, 1), (0, 0, 0)),
    "3x3x3": ((3, 3, 3), (1, 1, 1)),
    "1x7x7": ((1, 7, 7), (0, 3, 3)),
    "5x5x5": ((5, 5, 5), (2, 2, 2)),
}


def matrix(base: Case, tiny: bool) -> list[tuple[str, Case]]:
    """(label, case) for each value of each factor, the base case included in every group."""
    if tiny:
        factors = {"N": [1, 2], "C": [16, 32], "D": [4], "H=W": [8], "cores": [1, 4]}
        kernels = ["1x1x1", "3x3x3"]
    else:
        factors = {
            "N": [1, 2, 4],
            "C": [16, 64, 128],
            "D": [4, 8, 16],
            "H=W": [7, 14, 28, 56],
            "cores": [1, 4, 24],
        }
        kernels = list(KERNELS)
    fields = {"N": "n", "C": "c", "D": "d", "H=W": "hw", "cores": "cores"}
    rows: list[tuple[str, Case]] = []
    for name in ("N", "C", "D", "H=W"):
        rows += [(f"{name}={v}", replace(base, **{fields[name]: v})) for v in factors[name]]
    for k in kernels:
        kernel, padding = KERNELS[k]
        rows.append((f"kernel {k}", replace(base, kernel=kernel, padding=padding)))
    rows += [(f"cores={v}", replace(base, cores=v)) for v in factors["cores"]]
    return rows


@dataclass
class Result:
    sim: float
    baseline: float
    baseline_name: str
    torch: float | None

    @property
    def ratio(self) -> float:
        return self.sim / self.baseline


def measure(case: Case, repeat: int, budget: float, executor: str | None, torch: object) -> Result:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(case.x_shape, dtype=np.float32).astype(np.float16)
    dy_shape = grad_output_shape(case.x_shape, case.w_shape, 1, case.padding, 1)
    dy = rng.standard_normal(dy_shape, dtype=np.float32).astype(np.float16)
    conv = dict(stride=1, padding=case.padding, dilation=1, groups=1)

    ref_times: dict[str, float] = {}
    expect = None
    for name, ref in REFERENCES.items():
        got = ref(x, case.w_shape, dy, **conv)  # also the warm-up
        if expect is None:
            expect = got
        assert close(got, expect, 1e-4), f"the numpy references disagree on {case}"
        ref_times[name] = best_of(lambda r=ref: r(x, case.w_shape, dy, **conv), repeat, budget)
    baseline_name = min(ref_times, key=ref_times.__getitem__)

    sim = simulator(x, case.w_shape, dy, executor=executor, cores=case.cores, **conv)
    assert close(sim(), expect, 1e-3), f"the simulator disagrees with numpy on {case}"  # compiles
    sim_time = best_of(sim, repeat, budget)

    torch_time = None
    if torch is not None:
        tcall = torch_call(torch, x, case.w_shape, dy, **conv)
        tcall()
        torch_time = best_of(tcall, repeat, budget)
    return Result(sim_time, ref_times[baseline_name], baseline_name, torch_time)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N warm calls (default 3)")
    parser.add_argument(
        "--budget", type=float, default=3.0, help="seconds after which a measurement stops early"
    )
    parser.add_argument("--quick", action="store_true", help="one call per measurement")
    parser.add_argument("--executor", choices=("interp", "compiled"), default=None)
    parser.add_argument("--tiny", action="store_true", help="a tiny matrix: checks the script runs")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    base = Case(n=1, c=16, d=4, hw=8) if args.tiny else Case()

    start = time.perf_counter()
    print(f"base layer x {base.x_shape}, weight {base.w_shape}, padding {base.padding}, f16")
    print(f"executor: {executor_label(args.executor)}")
    print(f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}")
    results: dict[Case, Result] = {}
    rows = matrix(base, args.tiny)
    with one_blas_thread(), torch_one_thread() as torch:
        print(f"BLAS: {blas_description()}")
        print(f"best of {repeat} warm calls (at most {args.budget:g} s each), {threads_note()}")
        has_torch = torch is not None
        header = f"{'case':<14}{'GMAC':>8}{'simulator s':>13}{'baseline s':>12}{'ratio':>8}"
        print(header + (f"{'torch s':>10}{'sim/torch':>11}" if has_torch else ""))
        for label, case in rows:
            if case not in results:
                clear_compile_cache()  # keep memory flat over the matrix
                results[case] = measure(case, repeat, args.budget, args.executor, torch)
            r = results[case]
            line = (
                f"{label:<14}{case.macs() / 1e9:>8.3f}{r.sim:>13.4f}{r.baseline:>12.4f}"
                f"{r.ratio:>8.2f}"
            )
            if r.torch is not None:
                line += f"{r.torch:>10.4f}{r.sim / r.torch:>11.2f}"
            print(line, flush=True)
    worst_label, worst_case = max(rows, key=lambda row: results[row[1]].ratio)
    worst = results[worst_case]
    print(
        f"worst ratio: {worst.ratio:.2f} at {worst_label} (x {worst_case.x_shape}, weight "
        f"{worst_case.w_shape}, cores {worst_case.cores or 'all'}; baseline {worst.baseline_name})"
    )
    best_label, best_case = min(rows, key=lambda row: results[row[1]].ratio)
    print(f"best ratio:  {results[best_case].ratio:.2f} at {best_label}")
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
