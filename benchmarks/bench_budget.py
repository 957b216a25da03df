"""What the iteration budget (runtime/machine/budget.py) costs a run, measured in the same run.

* compiled executor: the generated kernel calls ``take`` once per loop entry (and once per
  ``scf.while`` iteration). The run is timed as is; the calls are counted, and the cost of one
  call (``take(len(range(lb, ub, step)), op)``, what the generated line does) is timed in a
  loop of a million; their product over the run's time is the budget's share.
* interp executor: the budget is in the interpreter's ``scf.for`` and ``scf.condition``
  (``BudgetedScfFunctions``); the run is timed with them and with xDSL's own (the baseline),
  best of N each.

Both on the embedded default layer (2x64x8x28x28, 3x3x3, padding 1, 24 cores), untimed (no cost
model: the simulator's hot path alone).

Run: python benchmarks/bench_budget.py [--repeat N]. Recorded in docs/runtime.md.
"""

from __future__ import annotations

import argparse
import time

from threadpoolctl import threadpool_limits
from xdsl.dialects import scf
from xdsl.interpreters.scf import ScfFunctions

from ascend_xdsl.lowering.build import FUNC_NAME, shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, random_inputs
from ascend_xdsl.runtime.executors.interpreter import build_interpreter
from ascend_xdsl.runtime.machine.budget import Budget

HW = "atlas-a2-910b2"


def best(repeat: int, fn) -> float:
    fastest = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def run(module, x, dy, executor: str, with_budget: bool = True) -> None:
    interpreter, _ = build_interpreter(module, HW, progress=False, executor=executor)
    if not with_budget:  # xDSL's own scf implementations again: the baseline
        interpreter.register_implementations(ScfFunctions(), override=True)
    with threadpool_limits(limits=1, user_api="blas"):
        interpreter.call_op(FUNC_NAME, (x, dy))


def count_takes(module, x, dy) -> int:
    calls = 0
    take = Budget.take

    def counting(self, n, op):
        nonlocal calls
        calls += 1
        return take(self, n, op)

    Budget.take = counting  # type: ignore[method-assign]
    try:
        run(module, x, dy, "compiled")
    finally:
        Budget.take = take  # type: ignore[method-assign]
    return calls


def per_take_seconds(n: int = 1_000_000) -> float:
    budget = Budget(10**18)
    take = budget.take
    op = scf.YieldOp()
    start = time.perf_counter()
    for i in range(n):
        take(len(range(0, i & 1023, 1)), op)
    loop = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(n):
        len(range(0, i & 1023, 1))  # the same loop without the call: its own cost, removed
    return (loop - (time.perf_counter() - start)) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    problem = shape_from_torch_args((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), padding=1)
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    run(module, x, dy, "compiled")  # translate the kernel once, outside the timings

    t_run = best(args.repeat, lambda: run(module, x, dy, "compiled"))
    calls = count_takes(module, x, dy)
    per_call = per_take_seconds()
    share = calls * per_call / t_run
    print(f"compiled: run {t_run:.4f} s, {calls:,} take calls x {per_call * 1e6:.3f} us "
          f"= {calls * per_call * 1e3:.3f} ms, {share:.2%} of the run")  # fmt: skip

    repeat = max(1, args.repeat // 2)
    t_with = best(repeat, lambda: run(module, x, dy, "interp"))
    t_without = best(repeat, lambda: run(module, x, dy, "interp", with_budget=False))
    print(f"interp: with the budget {t_with:.3f} s, without (baseline) {t_without:.3f} s, "
          f"ratio {t_with / t_without:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
