"""The vendor's verdict on a dW: CANN's ecosystem operator precision standard.

ascend-xdsl's own check (``runtime/reports/check.py``) bounds each element's error by the
rounding a float32 sum can make. A kernel engineer taking a kernel to CANN meets a different
test: the precision standard that CANN applies to contributed operators. This module is that
test, implemented once; ``check.check`` attaches its verdict to every check, ``ascend-conv``
prints it next to its own, and the emitted project's ``data.py`` imports it from here.

The standard (hicann/opbase ``docs/zh/ops_precision_standard/experimental_standard.md``, with
the small-value, cancellation and same-precision rules that hicann/cann-bench
``docs/spec/benchmark_spec.md`` §4.4 adds to it), for an output of data type ``T``:

* relative error ``|actual − golden| / (|golden| + 1e-7)`` per element; MERE its mean, MARE its
  maximum; the output passes when ``MERE < threshold(T)`` and ``MARE < 10 · threshold(T)``
  (float16 2⁻¹⁰, bfloat16 2⁻⁷, float32 2⁻¹³);
* otherwise every element whose relative error exceeds ``10 · threshold`` is put in one of three
  regions, each judged on its own:
  - small values, ``|golden| < small_value_threshold(T)``: the count of elements with
    ``|actual − golden| > small_value_error(T)`` may be at most twice that of the same-precision
    reference (at least 1);
  - cancellation, ``|actual| < cancel_zero(T)`` and ``small_value_threshold(T) ≤ |golden| <
    cancel_boundary(T)``: the count above ``10 · threshold`` may be at most twice the
    reference's;
  - normal values, everything else: none may be above ``10 · threshold``, unless the
    same-precision reference is above it too (deep reductions), and then at most twice as many.

``golden`` is the exact value rounded to ``T`` (the standard's ``golden_truncated``: float64 →
T → float64). What is ``T`` for dW: the kernel writes float32, but the problem's data type is
float16 or bfloat16 and the operator a user calls (aclnn / torch) returns dW in it, so ``T`` is
the problem's data type and ``actual`` is the kernel's dW rounded to it (so a dW beyond 65504
is inf on both sides, as an fp16 operator's would be). The same-precision reference is the
reference dW summed in float32 (as L0C sums) and rounded to ``T``.

Where the standard is silent, this module decides, and says so:

* NaN must be NaN in both, in the same places (either side alone is a failure); an infinity in
  both with the same sign is a match; an infinity in one side only is replaced by the largest
  finite value of ``T`` with its sign before comparing (a saturation at the fp16 boundary, as
  cann-bench's evaluator does, ``src/kernel_eval/utils/compare.py``); opposite infinities fail.
  Matched NaN and infinities are left out of MERE and MARE.
* After the fallback, the normal region's MERE must still be below the threshold (cann-bench's
  evaluator drops the mean once the overall test has failed; the standard's flow does not say).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ascend_xdsl.runtime.machine import dtypes

RELATIVE_EPSILON = 1e-7
"""The standard's 1e-7 added to |golden| in the relative error's denominator."""


@dataclass(frozen=True)
class DtypeStandard:
    """The standard's figures for one output data type (see the module docstring)."""

    name: str
    key: str
    """The element type's short name (``f16``, ``bf16``, ``f32``)."""
    threshold: float
    small_value_threshold: float
    small_value_error: float
    cancel_boundary: float
    cancel_zero: float

    @property
    def numpy_type(self) -> np.dtype:
        return dtypes.of_name(self.key)

    @property
    def mare_threshold(self) -> float:
        return 10 * self.threshold


# hicann/opbase docs/zh/ops_precision_standard/experimental_standard.md (通过阈值) and
# hicann/cann-bench docs/spec/benchmark_spec.md §4.4 (小值域阈值, 小值域error指标,
# cancel_boundary, cancel_zero_threshold).
STANDARDS: dict[str, DtypeStandard] = {
    "f16": DtypeStandard("float16", "f16", 2.0**-10, 2.0**-11, 2.0**-16, 2.0**-5, 2.0**-5),
    "bf16": DtypeStandard("bfloat16", "bf16", 2.0**-7, 2.0**-8, 2.0**-16, 2.0**-3, 2.0**-3),
    "f32": DtypeStandard("float32", "f32", 2.0**-13, 2.0**-14, 2.0**-30, 2.0**-8, 2.0**-8),
}


@dataclass(frozen=True)
class RegionCounts:
    """Elements of one region, how many the output gets wrong, how many the reference does."""

    total: int = 0
    errors: int = 0
    reference_errors: int = 0

    @property
    def ok(self) -> bool:
        """The small-value and cancellation rule: ErrorCount / max(reference's, 1) <= 2."""
        return self.errors <= 2 * max(self.reference_errors, 1)


@dataclass(frozen=True)
class PrecisionVerdict:
    """The standard's verdict on one output."""

    dtype: str
    mere: float
    mare: float
    nan_mismatches: int
    """Elements that are NaN on one side only, or infinite with opposite signs."""
    direct: bool
    """Passed on MERE and MARE alone."""
    normal: RegionCounts
    small: RegionCounts
    cancel: RegionCounts
    normal_mere: float

    @property
    def standard(self) -> DtypeStandard:
        return STANDARDS[self.dtype]

    @property
    def ok(self) -> bool:
        if self.nan_mismatches:
            return False
        if self.direct:
            return True
        n = self.normal
        # Normal values: none wrong, or the reference is wrong there too and at most half as
        # often (the standard's same-precision fallback).
        normal_ok = n.errors == 0 or (n.reference_errors > 0 and n.errors <= 2 * n.reference_errors)
        return (
            normal_ok
            and self.normal_mere < self.standard.threshold
            and self.small.ok
            and (self.cancel.ok)
        )

    def describe(self) -> str:
        s = self.standard
        exp = round(np.log2(s.threshold))
        head = (
            f"CANN precision standard ({s.name}: MERE < 2^{exp}, MARE < 10*2^{exp}): "
            f"MERE {self.mere:.3g}, MARE {self.mare:.3g}"
        )
        if self.nan_mismatches:
            head += f", {self.nan_mismatches} NaN/Inf mismatch(es)"
        elif not self.direct:
            regions = (("normal", self.normal), ("small", self.small), ("cancel", self.cancel))
            head += "; wrong/reference's wrong/of: " + ", ".join(
                f"{name} {r.errors}/{r.reference_errors}/{r.total}"
                for name, r in regions
                if r.total
            )
        return f"{head}: {'PASS' if self.ok else 'FAIL'}"

    def as_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "dtype": self.standard.name,
            "mere": self.mere,
            "mare": self.mare,
            "description": self.describe(),
        }


def _rounded(values: np.ndarray, standard: DtypeStandard) -> np.ndarray:
    """``values`` rounded to the standard's type and back to float64 (overflow gives inf)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(values, np.float64).astype(standard.numpy_type).astype(np.float64)


def precision_verdict(
    actual: np.ndarray,
    exact: np.ndarray,
    dtype: str,
    reference: Callable[[], np.ndarray] | None = None,
) -> PrecisionVerdict:
    """The standard's verdict on ``actual`` against the ``exact`` values, for data type
    ``dtype`` (``f16``, ``bf16``, ``f32``). ``reference`` gives the same-precision reference
    output, asked for only when MERE and MARE alone do not pass; without it the reference is
    taken to make no error (the strictest reading)."""
    if dtype not in STANDARDS:
        raise ValueError(f"no precision standard for dtype '{dtype}' (one of f16, bf16, f32)")
    s = STANDARDS[dtype]
    if np.shape(actual) != np.shape(exact):
        raise ValueError(
            f"output has shape {list(np.shape(actual))}, expected {list(np.shape(exact))}"
        )
    a, g = _rounded(actual, s), _rounded(exact, s)
    a_nan, g_nan = np.isnan(a), np.isnan(g)
    a_inf, g_inf = np.isinf(a), np.isinf(g)
    both_inf = a_inf & g_inf
    mismatches = int(np.count_nonzero(a_nan != g_nan))
    mismatches += int(np.count_nonzero(both_inf & (np.sign(a) != np.sign(g))))
    matched = (a_nan & g_nan) | both_inf
    big = float(np.finfo(s.numpy_type).max)
    a = np.where(a_inf & ~g_inf, np.sign(a) * big, a)
    g = np.where(g_inf & ~a_inf, np.sign(g) * big, g)
    valid = ~matched & ~a_nan & ~g_nan
    a, g = np.where(valid, a, 0.0), np.where(valid, g, 0.0)
    diff = np.abs(a - g)
    rel = diff / (np.abs(g) + RELATIVE_EPSILON)
    count = int(np.count_nonzero(valid))
    mere = float(rel[valid].mean()) if count else 0.0
    mare = float(rel[valid].max()) if count else 0.0
    direct = mere < s.threshold and mare < s.mare_threshold
    empty = RegionCounts()
    if direct or mismatches:
        return PrecisionVerdict(dtype, mere, mare, mismatches, direct, empty, empty, empty, mere)
    ref = _rounded(reference(), s) if reference is not None else g
    ref = np.where(valid, np.nan_to_num(ref, nan=0.0, posinf=big, neginf=-big), 0.0)
    ref_diff = np.abs(ref - g)
    ref_rel = ref_diff / (np.abs(g) + RELATIVE_EPSILON)
    small = valid & (np.abs(g) < s.small_value_threshold)
    cancel = (
        valid
        & (np.abs(a) < s.cancel_zero)
        & (np.abs(g) < s.cancel_boundary)
        & (np.abs(g) >= s.small_value_threshold)
    )
    normal = valid & ~small & ~cancel

    def region(mask: np.ndarray, wrong: np.ndarray, ref_wrong: np.ndarray) -> RegionCounts:
        return RegionCounts(
            int(np.count_nonzero(mask)),
            int(np.count_nonzero(mask & wrong)),
            int(np.count_nonzero(mask & ref_wrong)),
        )

    over, ref_over = rel > s.mare_threshold, ref_rel > s.mare_threshold
    return PrecisionVerdict(
        dtype,
        mere,
        mare,
        mismatches,
        False,
        normal=region(normal, over, ref_over),
        small=region(small, diff > s.small_value_error, ref_diff > s.small_value_error),
        cancel=region(cancel, over, ref_over),
        normal_mere=float(rel[normal].mean()) if np.any(normal) else 0.0,
    )
