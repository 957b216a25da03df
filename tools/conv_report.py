"""What ``ascend-conv bp-filter`` prints: the IR of a level, the summary, the JSON report.

The summary says what was compiled (problem, target, cores and their split, tiling, ops per
level), how it ran (seed, time, the reference check) or that only its cost was modelled, and
the cost model's lines; ``--report json`` is the report of docs/report.schema.json. Both are
built from the runner's result (``runtime/runner.RunResult``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import ITERATE_ORDER_M, DwTiling
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.ir.program import op_count, tiling_of_module
from ascend_xdsl.runtime.reports.check import CheckResult
from ascend_xdsl.runtime.reports.document import run_document
from ascend_xdsl.runtime.runner import RunResult


def ir_text(module: ModuleOp) -> str:
    """The module in the custom syntax, exactly as ``ascend-opt`` prints it."""
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue().rstrip("\n") + "\n"


def _tiling_of(modules: dict[str, ModuleOp]) -> DwTiling:
    """The tiling the compiler chose (the ``ascend.init`` of the API-level kernel)."""
    tiling = tiling_of_module(modules["api"])
    assert tiling is not None, "the API level of a compiled problem has an ascend.init"
    return tiling


def tiling_text(api_module: ModuleOp) -> str:
    """``--emit tiling``: the tiling of the API level as one ``#ascend.dw_tiling<...>`` line."""
    out = StringIO()
    Printer(stream=out).print_attribute(DwTilingAttr(_tiling_of({"api": api_module})))
    return out.getvalue() + "\n"


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
    levels = " -> ".join(f"{level} ({op_count(m)} ops)" for level, m in result.modules.items())
    if check is not None:
        ran = [
            f"  ran the hw program on seeded random inputs (seed {result.seed}) in "
            f"{result.run_seconds:.2f} s",
            f"  check against the reference in {check.seconds:.2f} s: {check.describe()}",
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
    problem: ConvBpFilterShape,
    hw: HwConfig,
    result: RunResult,
    check: CheckResult | None,
    tiling_strategy: str,
) -> str:
    """``--report json``: the one report of docs/report.schema.json (``runtime/reports/
    document.py``), with the tiling compiled and the check (null with ``--cost-only``)."""
    report = run_document(
        "ascend-conv",
        hw.name,
        problem=problem,
        tiling=_tiling_of(result.modules),
        tiling_strategy=tiling_strategy,
        costs=result.costs,
        check=check,
        cost_only=check is None,
    )
    return json.dumps(report, indent=2) + "\n"
