"""Speed of a warm ``ascend_xdsl.runtime.conv3d_weight`` against plain numpy, in the same run.

Issue #7 target: a warm call on the default layer (x 2x64x8x28x28, weight 64x64x3x3x3,
padding 1, f16) takes at most 2x the fastest plain numpy float32 dW. The baseline is the faster
of two references written here, independently of the project's code (they share nothing with
``runtime/reference.py`` or the lowering):

* ``dw_einsum``: ``sliding_window_view`` of the padded x and one ``np.einsum(optimize=True)``;
* ``dw_tap_matmul``: per kernel tap (kd, kh, kw) a strided slice of the padded x and one float32
  matmul with dy over every output position.

Both take the f16 arrays the simulator takes and return float32 dW (the cast is part of the
work), handle stride, padding, dilation and groups, and are checked against each other and the
simulator before anything is timed. Every time is the best of ``--repeat`` warm calls (the
simulator's compiled module is cached by a first call, which is reported separately), with BLAS
limited to one thread (``threadpoolctl``, when importable) for the simulator, the references and
torch alike, so the ratio compares the same resources on this noisy 2-core machine. The BLAS in
use and ``OPENBLAS_CORETYPE`` (which, when set, picks OpenBLAS's kernel and can slow numpy) are
printed, never changed. When ``import torch`` works, torch's CPU ``conv3d_weight`` is timed too.

Run: python benchmarks/bench_conv3d_weight.py [--repeat N] [--executor interp|compiled]
[--tiny]. ``--tiny`` runs a tiny layer (for the tests, not a measurement).
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import os
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ascend_xdsl.runtime.api import conv3d_weight, run_conv3d_weight
from ascend_xdsl.runtime.runner import clear_compile_cache

Triple = tuple[int, int, int]

DEFAULT_LAYER = ((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), 1)
TINY_LAYER = ((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), 1)
TARGET = 2.0


def triple(value: int | Sequence[int]) -> Triple:
    if isinstance(value, int):
        return (value, value, value)
    a, b, c = value
    return (a, b, c)


def out_size(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def grad_output_shape(
    x_shape: Sequence[int],
    w_shape: Sequence[int],
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
) -> tuple[int, ...]:
    s, p, d = triple(stride), triple(padding), triple(dilation)
    spatial = tuple(out_size(x_shape[2 + i], w_shape[2 + i], s[i], p[i], d[i]) for i in range(3))
    return (x_shape[0], w_shape[0], *spatial)


def _padded_f32(x: np.ndarray, p: Triple) -> np.ndarray:
    """x as float32 with ``p`` zeros on both sides of each spatial axis."""
    return np.pad(x.astype(np.float32), ((0, 0), (0, 0), *((q, q) for q in p)))


def dw_einsum(
    x: np.ndarray,
    weight_size: Sequence[int],
    dy: np.ndarray,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
) -> np.ndarray:
    """Reference (a): windows of the padded x (a view) contracted with dy by one einsum.

    ``padding`` is symmetric per axis (torch's ``conv3d_weight``); float32 throughout."""
    s, p, d = triple(stride), triple(padding), triple(dilation)
    cout, cin_g, kd, kh, kw = weight_size
    n, cin = x.shape[:2]
    do, ho, wo = dy.shape[2:]
    xp = _padded_f32(x, p)
    extent = tuple(d[i] * (k - 1) + 1 for i, k in enumerate((kd, kh, kw)))
    # (n, cin, positions d/h/w, window d/h/w); the strides pick the output positions, the
    # dilations the taps inside a window.
    win = sliding_window_view(xp, extent, axis=(2, 3, 4))
    win = win[:, :, :: s[0], :: s[1], :: s[2], :: d[0], :: d[1], :: d[2]][:, :, :do, :ho, :wo]
    win = win.reshape(n, groups, cin // groups, do, ho, wo, kd, kh, kw)
    dyg = dy.astype(np.float32).reshape(n, groups, cout // groups, do, ho, wo)
    out = np.einsum("ngodhw,ngidhwabc->goiabc", dyg, win, optimize=True)
    return out.reshape(cout, cin_g, kd, kh, kw)


def dw_tap_matmul(
    x: np.ndarray,
    weight_size: Sequence[int],
    dy: np.ndarray,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
) -> np.ndarray:
    """Reference (b): per kernel tap, the strided slice of the padded x that the tap reads and
    one float32 matmul (per group) with dy, summing over batch and output positions."""
    s, p, d = triple(stride), triple(padding), triple(dilation)
    cout, cin_g, kd, kh, kw = weight_size
    n, cin = x.shape[:2]
    do, ho, wo = dy.shape[2:]
    # Channels first (padded into a fresh C-ordered array), so each tap's slice reshapes to
    # (groups, cin_g, positions).
    xp = _padded_f32(x.transpose(1, 0, 2, 3, 4), p)
    xp = xp.reshape(groups, cin // groups, n, *xp.shape[2:])
    # (groups, cout_g, positions) @ (groups, positions, cin_g) per tap.
    dym = dy.astype(np.float32).transpose(1, 0, 2, 3, 4).reshape(groups, cout // groups, -1)
    out = np.empty((kd, kh, kw, groups, cout // groups, cin_g), dtype=np.float32)
    for a in range(kd):
        for b in range(kh):
            for c in range(kw):
                za, zb, zc = a * d[0], b * d[1], c * d[2]
                tap = xp[
                    ...,
                    za : za + s[0] * (do - 1) + 1 : s[0],
                    zb : zb + s[1] * (ho - 1) + 1 : s[1],
                    zc : zc + s[2] * (wo - 1) + 1 : s[2],
                ].reshape(groups, cin_g, -1)
                np.matmul(dym, tap.transpose(0, 2, 1), out=out[a, b, c])
    return out.transpose(3, 4, 5, 0, 1, 2).reshape(cout, cin_g, kd, kh, kw)


REFERENCES: dict[str, Callable[..., np.ndarray]] = {
    "numpy einsum (sliding_window_view)": dw_einsum,
    "numpy per-tap matmul": dw_tap_matmul,
}


def close(a: np.ndarray, b: np.ndarray, rel: float) -> bool:
    """``a`` equals ``b`` within ``rel`` times b's largest magnitude, elementwise."""
    scale = max(float(np.abs(b).max()), 1.0)
    return bool(np.abs(a - b).max() <= rel * scale)


# --- running the simulator, with or without the executor keyword ----------------------------


def accepts(fn: Callable[..., Any], name: str) -> bool:
    return name in inspect.signature(fn).parameters


def executor_kwargs(fn: Callable[..., Any], executor: str | None) -> dict[str, str]:
    """``{"executor": executor}`` when asked for and ``fn`` takes it, else nothing."""
    return {"executor": executor} if executor is not None and accepts(fn, "executor") else {}


def executor_label(executor: str | None) -> str:
    if not accepts(conv3d_weight, "executor"):
        note = " (ignored)" if executor is not None else ""
        return f"interp: this API has no executor keyword{note}"
    if executor is None:
        default = inspect.signature(conv3d_weight).parameters["executor"].default
        return f"{default} (the API's default)"
    return executor


def simulator(
    x: np.ndarray,
    weight_size: Sequence[int],
    dy: np.ndarray,
    stride: int | Sequence[int],
    padding: int | Sequence[int],
    dilation: int | Sequence[int],
    groups: int,
    executor: str | None,
    cores: int | None = None,
) -> Callable[[], np.ndarray]:
    """A no-argument call of the public API on these inputs (``run_conv3d_weight`` when a core
    count is given, ``conv3d_weight`` otherwise)."""
    args = (x, tuple(weight_size), dy, stride, padding, dilation, groups)
    if cores is None:
        kw = executor_kwargs(conv3d_weight, executor)
        return lambda: conv3d_weight(*args, **kw)
    kw: dict[str, object] = dict(executor_kwargs(run_conv3d_weight, executor))
    if accepts(run_conv3d_weight, "cost"):
        kw["cost"] = False  # time the simulation, not the cost model (conv3d_weight does neither)
    return lambda: run_conv3d_weight(*args, cores=cores, **kw).grad_weight


# --- timing ------------------------------------------------------------------------------------


def one_blas_thread() -> contextlib.AbstractContextManager[object]:
    """Limit BLAS (and OpenMP) to one thread when threadpoolctl is importable."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(1)


def threads_note() -> str:
    """How the timings' BLAS threads are set, for the printout."""
    try:
        import threadpoolctl  # noqa: F401
    except ImportError:
        return "BLAS threads NOT limited (no threadpoolctl)"
    return "one BLAS thread"


def blas_description() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown (threadpoolctl not importable; BLAS threads NOT limited)"
    parts = [
        f"{lib.get('internal_api')} {lib.get('version')} kernel {lib.get('architecture')} "
        f"({lib.get('num_threads')} threads)"
        for lib in threadpool_info()
        if lib.get("user_api") == "blas"
    ]
    return "; ".join(parts) or "none found by threadpoolctl"


def best_of(
    fn: Callable[[], object],
    repeat: int,
    budget: float = float("inf"),
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Best of ``repeat`` calls, stopping early (after at least one) once ``budget`` seconds are
    spent; timed by ``clock`` (wall time, or ``time.process_time`` for CPU time)."""
    times: list[float] = []
    spent = 0.0
    while len(times) < repeat and (not times or spent < budget):
        start = clock()
        fn()
        times.append(clock() - start)
        spent += times[-1]
    return min(times)


@contextlib.contextmanager
def torch_one_thread() -> Iterator[Any]:
    """torch limited to one intra-op thread, or None when torch is not importable."""
    try:
        import torch
    except ImportError:
        yield None
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield torch
    finally:
        torch.set_num_threads(threads)


def torch_call(
    torch: Any,
    x: np.ndarray,
    weight_size: Sequence[int],
    dy: np.ndarray,
    stride: int | Sequence[int],
    padding: int | Sequence[int],
    dilation: int | Sequence[int],
    groups: int,
) -> Callable[[], np.ndarray]:
    """torch's CPU ``conv3d_weight`` on float32 copies of the f16 inputs (cast included)."""

    def run() -> np.ndarray:
        xt = torch.from_numpy(x).float()
        dyt = torch.from_numpy(dy).float()
        return torch.nn.grad.conv3d_weight(
            xt, tuple(weight_size), dyt, triple(stride), triple(padding), triple(dilation), groups
        ).numpy()

    return run


# --- the benchmark -----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="best of N warm calls (default 7)")
    parser.add_argument("--executor", choices=("interp", "compiled"), default=None)
    parser.add_argument("--tiny", action="store_true", help="a tiny layer: checks the script runs")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc run")
    args = parser.parse_args(argv)

    x_shape, w_shape, pad = TINY_LAYER if args.tiny else DEFAULT_LAYER
    conv = dict(stride=1, padding=pad, dilation=1, groups=1)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape, dtype=np.float32).astype(np.float16)
    dy_shape = grad_output_shape(x_shape, w_shape, 1, pad, 1)
    dy = rng.standard_normal(dy_shape, dtype=np.float32).astype(np.float16)

    print(f"layer x {x_shape}, weight {w_shape}, padding {pad}, f16")
    print(f"executor: {executor_label(args.executor)}")
    print(f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}")

    with one_blas_thread():
        print(f"BLAS: {blas_description()}")
        results = {name: ref(x, w_shape, dy, **conv) for name, ref in REFERENCES.items()}
        (first_ref, *others) = results.values()
        for other in others:
            assert close(other, first_ref, 1e-4), "the two numpy references disagree"
        ref_times = {
            name: best_of(lambda r=ref: r(x, w_shape, dy, **conv), args.repeat)
            for name, ref in REFERENCES.items()
        }

        clear_compile_cache()
        sim = simulator(x, w_shape, dy, executor=args.executor, **conv)
        start = time.perf_counter()
        got = sim()
        first = time.perf_counter() - start
        assert close(got, first_ref, 1e-3), "the simulator disagrees with numpy"
        warm = best_of(sim, args.repeat)

        with torch_one_thread() as torch:
            torch_time = None
            if torch is not None:
                tcall = torch_call(torch, x, w_shape, dy, **conv)
                assert close(tcall(), first_ref, 1e-4), "torch disagrees with numpy"
                torch_time = best_of(tcall, args.repeat)

        peak = None
        if not args.no_memory:
            tracemalloc.start()
            sim()
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()

    baseline_name = min(ref_times, key=ref_times.__getitem__)
    baseline = ref_times[baseline_name]
    print(f"timings: best of {args.repeat}, {threads_note()}")
    for name, seconds in ref_times.items():
        mark = "  <- baseline" if name == baseline_name else ""
        print(f"  {name:<38}{seconds:9.4f} s{mark}")
    if torch_time is not None:
        print(f"  {'torch conv3d_weight (CPU, 1 thread)':<38}{torch_time:9.4f} s")
    else:
        print("  torch: not importable, skipped")
    print(f"  {'conv3d_weight first call (compiles)':<38}{first:9.4f} s")
    print(f"  {'conv3d_weight warm call':<38}{warm:9.4f} s")
    ratio = warm / baseline
    verdict = "MET" if ratio <= TARGET else "NOT MET"
    print(f"ratio warm simulator / baseline: {ratio:.2f}  (target <= {TARGET:g}: {verdict})")
    if torch_time is not None:
        print(f"ratio warm simulator / torch:    {warm / torch_time:.2f}")
    if peak is not None:
        data = x.nbytes + dy.nbytes + int(np.prod(w_shape)) * 4
        print(
            f"peak allocation of a warm call: {peak / 2**20:.1f} MiB = {peak / data:.2f}x the "
            f"{data / 2**20:.1f} MiB of x, dy and dW"
        )


if __name__ == "__main__":
    main()
