"""What ``ascend-conv bp-filter`` prints: the IR of a level, the summary, the JSON report.

The summary says what was compiled (problem, target, cores and their split, tiling, ops per
level), how it ran (seed, time, the reference check) or that only its cost was modelled, and
the cost model's lines; ``--report json`` is the cost report (``CostReport.to_json``) with the
problem and the check. Both are built from the runner's result (``runtime/runner.RunResult``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from ascend_xdsl.dialects.api_level import InitOp
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import ITERATE_ORDER_M, DwTiling
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.runtime.reports.check import CheckResult
from ascend_xdsl.runtime.runner import RunResult


def ir_text(module: ModuleOp) -> str:
    """The module in the custom syntax, exactly as ``ascend-opt`` prints it."""
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue().rstrip("\n") + "\n"


def _op_count(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk()) - 1


def _tiling_of(modules: dict[str, ModuleOp]) -> DwTiling:
    """The tiling the compiler chose (the ``ascend.init`` of the API-level kernel)."""
    return next(op for op in modules["api"].walk() if isinstance(op, InitOp)).tiling.tiling


def _dims(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape))


def summary(
    result: RunResult, hw: HwConfig, tiling_strategy: str, check: CheckResult | None
) -> str:
    """A short account of what was compiled, how it ran and how right it is (``check``; None
    for a cost-only run), and what the cost model makes of it."""
    problem = result.problem
    assert problem is not None
    t = _tiling_of(result.modules)
    split = [f"{axis} {dim}" for axis, dim in t.core_split()]
    order = "M (A1 resident)" if t.iterate_order == ITERATE_ORDER_M else "N (B1 resident)"
    levels = " -> ".join(f"{level} ({_op_count(m)} ops)" for level, m in result.modules.items())
    if check is not None:
        ran = [
            f"  ran the hw program on seeded random inputs (seed {result.seed}) in "
            f"{result.run_seconds:.2f} s",
            f"  check against the reference: {check.describe()}",
            *([f"  {check.standard.describe()}"] if check.standard is not None else []),
        ]
    else:
        ran = [f"  cost only: modelled without running the data in {result.run_seconds:.2f} s"]
    cost = result.cost
    return "\n".join(
        [
            f"Conv3DBackpropFilter (dW), {problem.dtype}",
            f"  x {_dims(problem.input_shape)}  dy {_dims(problem.grad_output_shape)}  "
            f"dW {_dims(problem.weight_shape)} f32",
            f"  strides {list(problem.strides)}  pads {list(problem.pads)}  "
            f"dilations {list(problem.dilations)}  groups {problem.groups}",
            f"  target {hw.name} ({hw.aic_count} AI cores, using {t.core_num}: "
            f"{' x '.join(split) or 'no split'})  tiling {tiling_strategy}",
            f"  tiles base M/K/N {t.base_m}/{t.base_k}/{t.base_n}, step M/N/Ka/Kb "
            f"{t.step_m}/{t.step_n}/{t.step_ka}/{t.step_kb}, order {order}, "
            f"L0C buffers {t.cl0_pbuffer}",
            f"  compiled in {result.compile_seconds:.2f} s: {levels}",
            *ran,
            *(f"  {line}" for line in (cost.summary_lines() if cost else [])),
            "",
        ]
    )


def json_report(
    problem: ConvBpFilterShape, hw: HwConfig, result: RunResult, check: CheckResult | None
) -> str:
    """``--report json``: the cost report (``CostReport.to_json``), the problem and the check
    (null with ``--cost-only``), as one JSON document."""
    cost = result.cost
    report: dict[str, object] = dict(cost.to_json()) if cost else {"hw": hw.name}
    report["problem"] = problem.as_json()
    report["check"] = (
        {"ok": check.ok, "max_abs_error": check.max_abs_error, "description": check.describe()}
        if check is not None
        else None
    )
    # CANN's precision standard on the same dW (runtime/reports/precision.py), next to the check.
    standard = check.standard if check is not None else None
    report["cann_precision"] = standard.as_json() if standard is not None else None
    return json.dumps(report, indent=2) + "\n"
