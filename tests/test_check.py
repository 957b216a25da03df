"""runtime/reports/check.py: the derived tolerance, its exact mode for integer inputs, non-finite
data."""

import numpy as np

from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.reports.check import check, is_exact, reference_exact

# n = 10^4 products per element
PROBLEM = shape_from_torch_args((1, 32, 1, 100, 100), (16, 32, 1, 1, 1))


def _inputs(integers: bool):
    rng = np.random.default_rng(3)
    if integers:
        x = rng.integers(-3, 4, PROBLEM.input_shape).astype(np.float16)
        dy = rng.integers(-3, 4, PROBLEM.grad_output_shape).astype(np.float16)
    else:
        x = rng.standard_normal(PROBLEM.input_shape).astype(np.float16)
        dy = rng.standard_normal(PROBLEM.grad_output_shape).astype(np.float16)
    return x, dy


def test_float_inputs_pass_within_the_rounding_bound():
    x, dy = _inputs(integers=False)
    assert not is_exact(PROBLEM, x, dy)
    got = reference_exact(PROBLEM, x, dy).astype(np.float32)
    assert check(PROBLEM, x, dy, got).ok


def test_integer_inputs_check_exactly_and_catch_one_wrong_product():
    x, dy = _inputs(integers=True)
    assert is_exact(PROBLEM, x, dy)
    exact = reference_exact(PROBLEM, x, dy).astype(np.float32)
    assert check(PROBLEM, x, dy, exact).ok
    wrong = exact.copy()
    wrong[3, 7, 0, 0, 0] += 1.0  # one product of 1 x 1 too many
    result = check(PROBLEM, x, dy, wrong)
    assert not result.ok and result.tolerance == 0.0


def test_agreeing_on_nan_is_not_an_error():
    x, dy = _inputs(integers=False)
    x[0, 0, 0, 0, 0] = np.nan
    exact = reference_exact(PROBLEM, x, dy).astype(np.float32)
    assert np.isnan(exact).any()
    assert check(PROBLEM, x, dy, exact).ok
    finite = np.nan_to_num(exact)
    assert not check(PROBLEM, x, dy, finite).ok
