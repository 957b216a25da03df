"""Checking a computed dW against the independent reference, with a tolerance that is derived.

Both the simulated kernel and the hardware form every product x·dy exactly (a product of two
float16 or bfloat16 numbers fits a float32 significand) and only round while summing the n
products of one output element in float32. The check compares with the *exact* sum (the
reference accumulated in float64) and allows the rounding error of a float32 sum of n terms.
Its worst case γ_n·Σ|x·dy| (Higham, *Accuracy and Stability of Numerical Algorithms*, §4.2)
grows like n and is far too loose to catch a wrong product; rounding errors behave like
independent random variables, which gives the standard probabilistic bound (Higham §2.8)

    |got − exact| ≤ c · u · √n · Σ|x·dy|,   u = 2⁻²⁴, c = 4,

per element, with ``Σ|x·dy|`` the reference evaluated on ``|x|`` and ``|dy|`` and
``n = N·Do·Ho·Wo`` the number of products per element. For the default layer that is about
0.2 on values up to ~500, with observed errors around 4e-4; a missing or misplaced product
(of the order of one |x·dy|) is above it for every problem with fewer than about 10⁴ products
per element, and a missing tile or padding row always is. For larger sums, check with small
integer inputs: their float32 sums are exact, so the check has tolerance 0 (``is_exact``).

The forward conv's y (:func:`check_forward`) is checked the same way, with ``n = Cin/g·kD·kH·kW``
products per element and ``Σ|x·w|`` the forward reference on ``|x|`` and ``|w|``, plus the
rounding of the float32 sum to y's type by the fixpipe: half a unit in the last place of
f16/bf16 (2⁻¹¹ / 2⁻⁸ relative), and half the spacing of f16's subnormals. The input
gradient's dX (:func:`check_input_grad`) likewise, with at most ``n = Cout/g·kD·kH·kW`` products
per element and ``Σ|w·dy|`` the dX reference on ``|w|`` and ``|dy|``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.runtime.reference import (
    conv3d_input_reference,
    conv3d_reference,
    conv3d_weight_reference,
)
from ascend_xdsl.runtime.reports.precision import PrecisionVerdict, precision_verdict
from ascend_xdsl.runtime.reports.progress import CheckProgress

UNIT_ROUNDOFF_F32 = 2.0**-24
CONFIDENCE = 4.0


@dataclass(frozen=True)
class CheckResult:
    max_abs_error: float
    max_rel_error: float
    """max |got − exact| / max |exact|."""
    worst_ratio: float
    """max over elements of |got − exact| / tolerance: at most 1 when the check passes."""
    tolerance: float
    """the largest per-element tolerance."""
    seconds: float = 0.0
    """How long the check took (the reference sums dominate: seconds on a large layer)."""
    standard: PrecisionVerdict | None = None
    """CANN's ecosystem precision standard on the same dW (``precision.py``), a second verdict
    that does not change ``ok``."""

    @property
    def ok(self) -> bool:
        return self.worst_ratio <= 1.0

    def to_json(self) -> dict[str, object]:
        """The check in the report (docs/report.schema.json, ``check``): the fields by name,
        the verdict and the line the tools print."""
        return {
            "ok": self.ok,
            "max_abs_error": self.max_abs_error,
            "max_rel_error": self.max_rel_error,
            "worst_ratio": self.worst_ratio,
            "tolerance": self.tolerance,
            "seconds": self.seconds,
            "description": self.describe(),
            "cann_precision": self.standard.as_json() if self.standard is not None else None,
        }

    def describe(self) -> str:
        verdict = "OK" if self.ok else "FAILED"
        return (
            f"max abs error {self.max_abs_error:.3g}, max rel error {self.max_rel_error:.3g} "
            f"(tolerance up to {self.tolerance:.3g}; worst element at {self.worst_ratio:.2g} of "
            f"its tolerance): {verdict}"
        )


def _reference(
    problem: ConvBpFilterShape,
    x: np.ndarray,
    dy: np.ndarray,
    accumulate: type[np.floating],
    on_tap: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    return conv3d_weight_reference(
        x,
        dy,
        problem.weight_shape,
        problem.strides,
        problem.pads,
        problem.dilations,
        problem.groups,
        accumulate=accumulate,
        on_tap=on_tap,
    )


def reference_exact(
    problem: ConvBpFilterShape,
    x: np.ndarray,
    dy: np.ndarray,
    on_tap: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """The exact dW (sums in float64, returned as float64)."""
    return _reference(problem, x, dy, np.float64, on_tap)


def is_exact(problem: ConvBpFilterShape, x: np.ndarray, dy: np.ndarray) -> bool:
    """Are all float32 sums of this problem exact, whatever their order?

    True for integer-valued inputs whose sums of |x·dy| stay below 2²⁴: every partial sum is then
    an integer a float32 represents exactly. Such inputs check a kernel *exactly* (tolerance 0),
    which catches a single wrong product however many products an element sums.
    """
    xf, dyf = x.astype(np.float64), dy.astype(np.float64)
    if not (np.array_equal(xf, np.round(xf)) and np.array_equal(dyf, np.round(dyf))):
        return False
    n = problem.batch * problem.dout * problem.ho * problem.wo
    bound = n * float(np.abs(xf).max(initial=0.0)) * float(np.abs(dyf).max(initial=0.0))
    return bound < 2.0**24


def tolerance_for(
    problem: ConvBpFilterShape,
    x: np.ndarray,
    dy: np.ndarray,
    on_tap: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """c·u·√n·Σ|x·dy| for every element of dW (see the module docstring); 0 where the sums are
    exact (``is_exact``)."""
    n = problem.batch * problem.dout * problem.ho * problem.wo
    if is_exact(problem, x, dy):
        return np.zeros(problem.weight_shape)
    magnitude = _reference(problem, np.abs(x), np.abs(dy), np.float64, on_tap)
    # The smallest normal float32 keeps an element with no products from demanding exact zero.
    return CONFIDENCE * UNIT_ROUNDOFF_F32 * np.sqrt(n) * magnitude + np.finfo(np.float32).tiny


def check(
    problem: ConvBpFilterShape,
    x: np.ndarray,
    dy: np.ndarray,
    got: np.ndarray,
    *,
    progress: bool = False,
) -> CheckResult:
    """Compare ``got`` with the exact dW of ``problem`` on inputs ``x``, ``dy``; with
    ``progress``, a progress line over the reference's taps on standard error when it is a
    terminal and the check lasts over 2 s (``runtime/reports/progress.py``)."""
    start = time.perf_counter()
    if got.shape != problem.weight_shape:
        raise ValueError(
            f"dW has shape {list(got.shape)}, the problem's is {list(problem.weight_shape)}"
        )
    taps = problem.kd * problem.kh * problem.kw
    passes = 1 if is_exact(problem, x, dy) else 2  # the exact sums, then the magnitudes
    bar = CheckProgress(passes * taps) if progress else None
    try:
        exact = reference_exact(problem, x, dy, _advance(bar, 0))
        tol = np.nan_to_num(tolerance_for(problem, x, dy, _advance(bar, taps)), nan=0.0, posinf=0.0)
    finally:
        if bar is not None:
            bar.close()
    got64 = got.astype(np.float64)
    with np.errstate(invalid="ignore"):
        err = np.abs(got64 - exact)
    # Non-finite inputs give non-finite sums: agreeing on them (NaN for NaN, the same infinity)
    # is right, anything else is an infinite error.
    same = (np.isnan(got64) & np.isnan(exact)) | (np.isinf(exact) & (got64 == exact))
    err = np.where(same, 0.0, np.where(np.isfinite(err), err, np.inf))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(err == 0, 0.0, err / tol)
    finite = np.abs(exact[np.isfinite(exact)])
    scale = max(float(finite.max(initial=0.0)), float(np.finfo(np.float32).tiny))
    # The same-precision reference of CANN's standard sums in float32, as L0C does.
    standard = precision_verdict(
        got, exact, problem.dtype, lambda: _reference(problem, x, dy, np.float32)
    )
    return CheckResult(
        max_abs_error=float(err.max(initial=0.0)),
        max_rel_error=float(err.max(initial=0.0)) / scale,
        worst_ratio=float(ratio.max(initial=0.0)),
        tolerance=float(tol.max(initial=0.0)),
        seconds=time.perf_counter() - start,
        standard=standard,
    )


_OUTPUT_ROUNDING = {"f16": (2.0**-11, 2.0**-25), "bf16": (2.0**-8, 0.0)}
"""Per output type: the relative half-ulp of rounding to nearest, and the absolute half-spacing
of its subnormals (bf16 has float32's range, so the float32 ``tiny`` covers it)."""


def check_forward(
    problem: ConvBpFilterShape,
    x: np.ndarray,
    w: np.ndarray,
    got: np.ndarray,
    bias: np.ndarray | None = None,
) -> CheckResult:
    """Compare a forward conv's ``got`` (y, in the inputs' type) with the exact y of
    ``problem`` on ``x``, the weight ``w`` and the ``bias`` if any (see the module docstring
    for the tolerance; the bias is one more float32 term of each sum)."""
    start = time.perf_counter()
    if got.shape != problem.grad_output_shape:
        raise ValueError(
            f"y has shape {list(got.shape)}, the problem's is {list(problem.grad_output_shape)}"
        )
    args = (problem.strides, problem.pads, problem.dilations, problem.groups)
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    b64 = None if bias is None else bias.astype(np.float64)
    exact = conv3d_reference(x64, w64, b64, *args, accumulate=np.float64)
    n = problem.cin // problem.groups * problem.kd * problem.kh * problem.kw
    bias_exact = b64 is None or (
        np.array_equal(b64, np.round(b64)) and float(np.abs(b64).max(initial=0.0)) < 2.0**23
    )
    if is_exact_forward(n, x64, w64) and bias_exact:
        sums = np.zeros(exact.shape)
    else:
        terms = n + (b64 is not None)
        magnitude = conv3d_reference(
            np.abs(x64),
            np.abs(w64),
            None if b64 is None else np.abs(b64),
            *args,
            accumulate=np.float64,
        )
        sums = CONFIDENCE * UNIT_ROUNDOFF_F32 * np.sqrt(terms) * magnitude
    return _rounded_check(problem.dtype, exact, sums, got, start)


def check_input_grad(
    problem: ConvBpFilterShape, w: np.ndarray, dy: np.ndarray, got: np.ndarray
) -> CheckResult:
    """Compare an input gradient's ``got`` (dX, in the inputs' type) with the exact dX of
    ``problem`` on the weight ``w`` and ``dy``: as :func:`check_forward`, with at most
    ``n = Cout/g·kD·kH·kW`` products per element and ``Σ|w·dy|`` the dX reference on ``|w|``
    and ``|dy|``."""
    start = time.perf_counter()
    if got.shape != problem.input_shape:
        raise ValueError(
            f"dX has shape {list(got.shape)}, the problem's is {list(problem.input_shape)}"
        )
    args = (problem.strides, problem.pads, problem.dilations, problem.groups)
    w64, dy64 = w.astype(np.float64), dy.astype(np.float64)
    size = problem.input_shape
    exact = conv3d_input_reference(size, w64, dy64, *args, accumulate=np.float64)
    n = problem.cout // problem.groups * problem.kd * problem.kh * problem.kw
    if is_exact_forward(n, dy64, w64):
        sums = np.zeros(exact.shape)
    else:
        magnitude = conv3d_input_reference(
            size, np.abs(w64), np.abs(dy64), *args, accumulate=np.float64
        )
        sums = CONFIDENCE * UNIT_ROUNDOFF_F32 * np.sqrt(n) * magnitude
    return _rounded_check(problem.dtype, exact, sums, got, start)


def _rounded_check(
    dtype: str, exact: np.ndarray, sums: np.ndarray, got: np.ndarray, start: float
) -> CheckResult:
    """``got`` (rounded to ``dtype``) against ``exact``, allowing the float32 sums' error
    bound ``sums`` and the output rounding (see the module docstring)."""
    relative, subnormal = _OUTPUT_ROUNDING[dtype]
    tol = sums + relative * (np.abs(exact) + sums) + subnormal + np.finfo(np.float32).tiny
    tol = np.nan_to_num(tol, nan=0.0, posinf=0.0)
    got64 = got.astype(np.float64)
    with np.errstate(invalid="ignore"):
        err = np.abs(got64 - exact)
    same = (np.isnan(got64) & np.isnan(exact)) | (np.isinf(exact) & (got64 == exact))
    err = np.where(same, 0.0, np.where(np.isfinite(err), err, np.inf))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(err == 0, 0.0, err / tol)
    finite = np.abs(exact[np.isfinite(exact)])
    scale = max(float(finite.max(initial=0.0)), float(np.finfo(np.float32).tiny))
    return CheckResult(
        max_abs_error=float(err.max(initial=0.0)),
        max_rel_error=float(err.max(initial=0.0)) / scale,
        worst_ratio=float(ratio.max(initial=0.0)),
        tolerance=float(tol.max(initial=0.0)),
        seconds=time.perf_counter() - start,
    )


def is_exact_forward(n: int, x: np.ndarray, w: np.ndarray) -> bool:
    """:func:`is_exact` for the forward conv's ``n`` products per element."""
    if not (np.array_equal(x, np.round(x)) and np.array_equal(w, np.round(w))):
        return False
    return n * float(np.abs(x).max(initial=0.0)) * float(np.abs(w).max(initial=0.0)) < 2.0**24


def _advance(bar: CheckProgress | None, before: int) -> Callable[[int, int], None] | None:
    """The reference's ``on_tap`` that moves ``bar`` on, ``before`` taps already done."""
    if bar is None:
        return None
    return lambda done, _total: bar.update(before + done)


class NonFiniteInputWarning(RuntimeWarning):
    """The inputs hold an Inf or a NaN: see :func:`non_finite_note`."""


def non_finite_note(x: np.ndarray, dy: np.ndarray) -> str | None:
    """A warning for inputs that are not all finite, else None.

    The kernel, like the vendor's, skips a K block (a kd slice, a run of rows) that lies wholly
    in the padding: it never multiplies the padding. torch and the reference do, so an Inf of
    dy next to the padding gives Inf × 0 = NaN in their dW, while the kernel's stays finite
    there (docs/runtime.md, "Non-finite inputs"). Elsewhere the two agree on non-finite sums,
    and the check compares them as such."""
    counts = []
    for name, array in (("x", x), ("dy", dy)):
        # np.asarray first: np.size of a tensor-like is its size method, not a count.
        values = np.asarray(array, np.float32)
        n = int(values.size - np.count_nonzero(np.isfinite(values)))
        if n:
            counts.append(f"{name} holds {n} Inf/NaN value{'s' if n > 1 else ''}")
    if not counts:
        return None
    return (
        f"{' and '.join(counts)}: the kernel skips K blocks that lie wholly in the padding, so "
        "where torch multiplies an Inf by a padding zero (NaN) its dW can stay finite "
        "(docs/runtime.md, Non-finite inputs)"
    )
