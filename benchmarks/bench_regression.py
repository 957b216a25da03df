"""This tree against a baseline tree, on the three measurements of issue 15's no-regression rule.

Issue 15: none of these may get more than 5 % slower than before the redesign (97fe681):

* ``warm``: a warm ``conv3d_weight`` on the default layer (x 2x64x8x28x28, weight 64x64x3x3x3,
  padding 1, f16), best of ``--repeat`` calls;
* ``cost``: the cost-only mode (``model_cost``) of the large layer (8x512x16x112x112, weight
  512x512x3x3x3, padding 1), best of ``--repeat`` calls;
* ``tuned``: ``ascend-conv bp-filter --input 2,32,8,28,28 --weight 32,32,3,3,3 --padding 1
  --tiling tuned --no-cache`` (the tiling search, then the run), the CPU seconds of the process.

Each measurement runs in a fresh process of each tree's own Python (``--base`` is the other
tree's root; its ``.venv`` must have it installed, as every worktree's has), the two trees
alternated ``--rounds`` times, so that a shared machine's load hits both alike. Times are CPU
seconds (``time.process_time``; for ``tuned`` the child process's user + system time), BLAS on
one thread; each tree's best over the rounds is compared. Prints the ratio this tree / base.

Run: python benchmarks/bench_regression.py --base DIR [--rounds N] [--repeat N]
[--only warm cost tuned]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HW = "atlas-a2-910b2"
HERE = Path(__file__).resolve()
MEASUREMENTS = ("warm", "cost", "tuned")
TUNED = "bp-filter --input 2,32,8,28,28 --weight 32,32,3,3,3 --padding 1 --tiling tuned --no-cache"


def child(what: str, repeat: int) -> float:
    """One measurement in this process (whichever tree's package it imports)."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.runtime.api import compiled_levels, conv3d_weight, model_cost

    best = float("inf")
    with threadpool_limits(limits=1, user_api="blas"):
        if what == "warm":
            rng = np.random.default_rng(0)
            x = rng.standard_normal((2, 64, 8, 28, 28)).astype(np.float16)
            dy = rng.standard_normal((2, 64, 8, 28, 28)).astype(np.float16)
            conv3d_weight(x, (64, 64, 3, 3, 3), dy, padding=1)  # compiles
            for _ in range(repeat):
                start = time.process_time()
                conv3d_weight(x, (64, 64, 3, 3, 3), dy, padding=1)
                best = min(best, time.process_time() - start)
        else:
            problem = shape_from_torch_args(
                (8, 512, 16, 112, 112), (512, 512, 3, 3, 3), 1, 1, 1, 1, "f16"
            )
            module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
            model_cost(module, HW)  # translates the kernel
            for _ in range(repeat):
                start = time.process_time()
                model_cost(module, HW)
                best = min(best, time.process_time() - start)
    return best


def measure(root: Path, what: str, repeat: int) -> float:
    """CPU seconds of ``what`` in the tree at ``root`` (its own .venv), in a fresh process."""
    python = root / ".venv" / "bin" / "python"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    if what == "tuned":
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        tool = root / ".venv" / "bin" / "ascend-conv"
        subprocess.run([str(tool), *TUNED.split()], check=True, env=env, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = subprocess.run(
        [str(python), str(HERE), "--child", what, "--repeat", str(repeat)],
        check=True,
        env=env,
        capture_output=True,
        text=True,
        cwd=root,
    )
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="the baseline tree's root")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--only", nargs="*", choices=MEASUREMENTS, default=list(MEASUREMENTS))
    parser.add_argument("--child", choices=("warm", "cost"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(child(args.child, args.repeat))
        return
    if args.base is None:
        parser.error("--base DIR is required")
    this = HERE.parent.parent
    with open("/proc/loadavg", encoding="ascii") as f:
        print(f"load average at the start: {' '.join(f.read().split()[:3])}")
    print(f"{'measurement':<8}{'round':>6}{'base s':>9}{'this s':>9}{'this/base':>11}")
    for what in args.only:
        bests = {"base": float("inf"), "this": float("inf")}
        for r in range(args.rounds):
            base = measure(args.base, what, args.repeat)
            mine = measure(this, what, args.repeat)
            bests["base"], bests["this"] = min(bests["base"], base), min(bests["this"], mine)
            print(f"{what:<8}{r + 1:>6}{base:>9.3f}{mine:>9.3f}{mine / base:>11.2f}", flush=True)
        ratio = bests["this"] / bests["base"]
        print(f"{what:<8}{'best':>6}{bests['base']:>9.3f}{bests['this']:>9.3f}{ratio:>11.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
