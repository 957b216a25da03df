"""The whole-operator model against cann-bench's measured 910B2 dW cases
(benchmarks/measured_910b2.json, benchmarks/bench_measured.py, docs/cost-model.md "Validation").

The calibration set (odd case ids) and the held-out set (even) stay apart: the fit sees only
the odd ones. The errors of all 20 cases, as bench_measured.py printed them when the figures
were fitted, are pinned below; three small held-out cases are re-modelled here (the full 20
take a minute: the benchmark runs them) and must give their pinned error. The targets are met:
every held-out case within 25 % (the worst, case 14, +22.8 %) and the geomean 10.0 %; pinned as
they are, so a change either way shows.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parent.parent / "benchmarks" / "bench_measured.py"
_spec = importlib.util.spec_from_file_location("bench_measured", BENCH)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_measured"] = bench  # its dataclasses look their module up
_spec.loader.exec_module(bench)

RECORDED = {
    1: +0.030, 2: +0.078, 3: -0.159, 4: +0.104, 5: +0.050, 6: +0.119, 7: -0.052, 8: +0.173,
    9: +0.054, 10: -0.034, 11: +0.051, 12: +0.115, 13: +0.005, 14: +0.228, 15: -0.044,
    16: -0.167, 17: -0.296, 18: -0.157, 19: +0.046, 20: -0.027,
}  # fmt: skip
"""modelled / measured - 1 per case (docs/cost-model.md)."""


def test_the_data_file_holds_the_20_cases_with_their_source():
    cases = bench.load_cases()
    assert [c["case_id"] for c in cases] == list(range(1, 21))
    assert all(c["measured_us"] > 0 for c in cases)
    assert "33b3074" in json.loads(bench.DATA.read_text())["source"]


def test_the_fit_sees_only_the_calibration_cases():
    cases = bench.load_cases()
    calibration = bench.calibration_cases(cases)
    assert {c["case_id"] for c in calibration} == set(range(1, 21, 2))
    assert not any(bench.is_calibration(c) for c in cases if c["case_id"] % 2 == 0)


def test_the_fit_counts_the_kernels_the_measured_path_ran():
    cases = {c["case_id"]: c for c in bench.load_cases()}
    assert bench.measured_kernels(cases[1]) == 5  # TransData x3, MemSet, the dW kernel
    assert bench.measured_kernels(cases[17]) == 7  # groups: TransData x4, MemSet x2, dW
    op = bench.operator_of(cases[17])
    assert len(op.kernels) == 5  # the model's path has no extra kernels
    assert bench.terms_of(op, 7).kernels == 7


def test_the_recorded_held_out_errors_against_the_targets():
    held = [e for cid, e in RECORDED.items() if cid % 2 == 0]
    geomean = math.exp(sum(math.log(abs(e)) for e in held) / len(held))
    assert geomean <= bench.TARGET_GEOMEAN  # met: 10.0 %
    misses = {cid for cid, e in RECORDED.items() if cid % 2 == 0 and abs(e) > bench.TARGET_CASE}
    assert not misses  # met: the worst, case 14 (the smallest, overhead-bound), +22.8 %


@pytest.mark.parametrize("case_id", [6, 12, 14])
def test_held_out_cases_give_their_recorded_error(case_id):
    case = next(c for c in bench.load_cases() if c["case_id"] == case_id)
    modelled = bench.operator_of(case).end_to_end_seconds * 1e6
    assert modelled / case["measured_us"] - 1 == pytest.approx(RECORDED[case_id], abs=0.002)
