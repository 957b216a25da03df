"""runtime/reports/precision.py: CANN's ecosystem precision standard, against a plain per-element
implementation written here from the standard's text (hicann/opbase
docs/zh/ops_precision_standard/experimental_standard.md; hicann/cann-bench
docs/spec/benchmark_spec.md §4.4), on special values: ±65504, infinities, NaN, all zeros, tiny
values, cancellation."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.reports.check import check, reference_exact
from ascend_xdsl.runtime.reports.precision import precision_verdict

# The standard's tables, written out again: threshold, small-value threshold and error,
# cancellation boundary and zero threshold.
TABLE = {
    "f16": (np.float16, 2**-10, 2**-11, 2**-16, 2**-5, 2**-5),
    "bf16": (ml_dtypes.bfloat16, 2**-7, 2**-8, 2**-16, 2**-3, 2**-3),
}


def _plain(actual, exact, dtype, reference=None):
    """(ok, mere, mare, nan/inf mismatches, [normal, small, cancel] as (total, wrong, ref wrong))
    one element at a time."""
    t, thr, svt, sve, cb, cz = TABLE[dtype]
    big = float(np.finfo(t).max)

    def to_t(v):
        with np.errstate(over="ignore"):
            return float(t(float(v)))

    a = [to_t(v) for v in np.ravel(actual)]
    g = [to_t(v) for v in np.ravel(exact)]
    r = [to_t(v) for v in np.ravel(reference)] if reference is not None else list(g)
    mismatches, rels, kept = 0, [], []
    for i, (ai, gi) in enumerate(zip(a, g, strict=True)):
        if math.isnan(ai) or math.isnan(gi):
            mismatches += math.isnan(ai) != math.isnan(gi)
            continue
        if math.isinf(ai) and math.isinf(gi):
            mismatches += (ai > 0) != (gi > 0)
            continue
        ai = math.copysign(big, ai) if math.isinf(ai) else ai
        gi = math.copysign(big, gi) if math.isinf(gi) else gi
        ri = r[i]
        ri = 0.0 if math.isnan(ri) else math.copysign(big, ri) if math.isinf(ri) else ri
        rels.append(abs(ai - gi) / (abs(gi) + 1e-7))
        kept.append((ai, gi, ri))
    mere = sum(rels) / len(rels) if rels else 0.0
    mare = max(rels) if rels else 0.0
    if mismatches:
        return False, mere, mare, mismatches, None
    if mere < thr and mare < 10 * thr:
        return True, mere, mare, 0, None
    regions = {"normal": [0, 0, 0], "small": [0, 0, 0], "cancel": [0, 0, 0]}
    normal_rels = []
    for (ai, gi, ri), rel in zip(kept, rels, strict=True):
        ref_rel = abs(ri - gi) / (abs(gi) + 1e-7)
        if abs(gi) < svt:
            counts, wrong, ref_wrong = regions["small"], abs(ai - gi) > sve, abs(ri - gi) > sve
        elif abs(ai) < cz and abs(gi) < cb:
            counts, wrong, ref_wrong = regions["cancel"], rel > 10 * thr, ref_rel > 10 * thr
        else:
            counts, wrong, ref_wrong = regions["normal"], rel > 10 * thr, ref_rel > 10 * thr
            normal_rels.append(rel)
        counts[0] += 1
        counts[1] += wrong
        counts[2] += ref_wrong
    n, s, c = regions["normal"], regions["small"], regions["cancel"]
    normal_ok = n[1] == 0 or (n[2] > 0 and n[1] <= 2 * n[2])
    normal_mere = sum(normal_rels) / len(normal_rels) if normal_rels else 0.0
    ok = normal_ok and normal_mere < thr and s[1] <= 2 * max(s[2], 1) and c[1] <= 2 * max(c[2], 1)
    return ok, mere, mare, 0, [tuple(n), tuple(s), tuple(c)]


def _ones(n=64, value=1.0):
    return np.full(n, value, np.float64)


def _case(name):
    """(exact, actual, reference or None, dtype, expected verdict)."""
    golden = np.linspace(0.5, 2.0, 64)
    if name == "identical_with_fp16_extremes":
        g = golden.copy()
        g[:4] = [65504.0, -65504.0, 0.0, -0.0]
        return g, g.astype(np.float32), None, "f16", True
    if name == "all_zeros":
        return np.zeros(64), np.zeros(64, np.float32), None, "f16", True
    if name == "overflow_both_inf":
        g = golden.copy()
        g[0], g[1] = 70000.0, -1e6
        return g, g.astype(np.float32), None, "f16", True
    if name == "saturation_one_side":
        # 65519.9 rounds to 65504 in fp16, 65520.1 to inf: a saturation, not an error.
        g = golden.copy()
        g[0] = 65519.9
        a = golden.astype(np.float32)
        a[0] = 65520.1
        return g, a, None, "f16", True
    if name == "nan_on_one_side":
        g = golden.copy()
        g[5] = np.nan
        return g, golden.astype(np.float32), None, "f16", False
    if name == "nan_on_both_sides":
        g = golden.copy()
        g[5] = np.nan
        return g, g.astype(np.float32), None, "f16", True
    if name == "opposite_infinities":
        g = golden.copy()
        g[3] = np.inf
        a = golden.astype(np.float32)
        a[3] = -np.inf
        return g, a, None, "f16", False
    if name in ("tiny_two_wrong", "tiny_three_wrong"):
        # Every value in the small-value range; a few off by more than 2^-16.
        g = np.linspace(1e-6, 4e-4, 64)
        a = g.astype(np.float32)
        wrong = 2 if name == "tiny_two_wrong" else 3
        a[:wrong] += 2.0**-14
        return g, a, None, "f16", wrong == 2
    if name in ("cancellation_reference_also_wrong", "cancellation_reference_right"):
        g = golden.copy()
        g[:4] = 0.01  # above the small-value range, below the cancellation boundary
        a = golden.astype(np.float32)
        a[:4] = 0.0
        ref = g.copy()
        if name == "cancellation_reference_also_wrong":
            ref[:2] = 0.0
        return g, a, ref, "f16", name == "cancellation_reference_also_wrong"
    if name in ("one_percent_f16", "one_percent_bf16"):
        g = golden.copy()
        a = g.astype(np.float32)
        a[7] *= 1.02
        dtype = "f16" if name.endswith("f16") else "bf16"
        return g, a, None, dtype, dtype == "bf16"
    if name == "deep_reduction_reference_wrong_too":
        # Enough elements that the normal region's MERE stays under the threshold.
        g = np.linspace(0.5, 2.0, 1024)
        a = g.astype(np.float32)
        a[:3] *= 1.05
        ref = g.copy()
        ref[:2] *= 1.05
        return g, a, ref, "f16", True
    if name == "everything_slightly_off":
        # No element above 10 * 2^-10, but all at 2 * 2^-10: MERE fails, and stays failed.
        g = np.full(64, 1.0)
        return g, (g * (1 + 2 * 2**-10)).astype(np.float32), None, "f16", False
    raise AssertionError(name)


CASES = [
    "identical_with_fp16_extremes",
    "all_zeros",
    "overflow_both_inf",
    "saturation_one_side",
    "nan_on_one_side",
    "nan_on_both_sides",
    "opposite_infinities",
    "tiny_two_wrong",
    "tiny_three_wrong",
    "cancellation_reference_also_wrong",
    "cancellation_reference_right",
    "one_percent_f16",
    "one_percent_bf16",
    "deep_reduction_reference_wrong_too",
    "everything_slightly_off",
]


@pytest.mark.parametrize("name", CASES)
def test_verdict_matches_the_plain_implementation(name):
    exact, actual, ref, dtype, expected = _case(name)
    verdict = precision_verdict(actual, exact, dtype, (lambda: ref) if ref is not None else None)
    ok, mere, mare, mismatches, regions = _plain(actual, exact, dtype, ref)
    assert (verdict.ok, ok) == (expected, expected), verdict.describe()
    assert verdict.mere == pytest.approx(mere, rel=1e-12, abs=1e-300)
    assert verdict.mare == pytest.approx(mare, rel=1e-12, abs=1e-300)
    assert verdict.nan_mismatches == mismatches
    if regions is not None:
        got = [
            (r.total, r.errors, r.reference_errors)
            for r in (verdict.normal, verdict.small, verdict.cancel)
        ]
        assert got == regions
    assert verdict.describe().endswith(": PASS" if expected else ": FAIL")


def test_thresholds_are_the_standards():
    """One element off by 9 and by 11 units of the threshold (both exact in the dtype): MARE
    passes at 9 < 10 and fails at 11 > 10."""
    for dtype, thr in (("f16", 2**-10), ("bf16", 2**-7)):
        for units, ok in ((9, True), (11, False)):
            exact = _ones(1024)
            got = exact.copy()
            got[0] = 1 + units * thr
            verdict = precision_verdict(got, exact, dtype)
            assert verdict.mare == pytest.approx(units * thr / (1 + 1e-7))
            assert verdict.ok is ok, (dtype, units)


def test_unknown_dtype_and_shape_mismatch_are_one_line_errors():
    with pytest.raises(ValueError, match="no precision standard for dtype 'i8'"):
        precision_verdict(np.zeros(2), np.zeros(2), "i8")
    with pytest.raises(ValueError, match=r"shape \[3\], expected \[2\]"):
        precision_verdict(np.zeros(3), np.zeros(2), "f16")


def test_the_check_carries_the_verdict_for_the_problem_dtype():
    problem = shape_from_torch_args((1, 16, 2, 5, 5), (16, 16, 1, 3, 3), dtype="bf16")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(problem.input_shape).astype(ml_dtypes.bfloat16)
    dy = rng.standard_normal(problem.grad_output_shape).astype(ml_dtypes.bfloat16)
    exact = reference_exact(problem, x, dy)
    result = check(problem, x, dy, exact.astype(np.float32))
    assert result.standard is not None and result.standard.ok
    assert result.standard.describe().startswith("CANN precision standard (bfloat16: MERE < 2^-7")
    wrong = exact.astype(np.float32)
    wrong[0, 0, 0, 0, 0] *= 1.5
    assert not check(problem, x, dy, wrong).standard.ok  # type: ignore[union-attr]
