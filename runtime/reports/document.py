"""The one JSON report of ``ascend-conv``, ``ascend-run`` and ``ascend-tune`` (``--report json``,
``--format json``), versioned and described by docs/report.schema.json.

Every run report has the same keys, whatever the tool and whether the program launched a
kernel: ``schema_version``, ``tool``, ``hw``, the ``problem`` (torch's names and its ``op``:
bp-filter, forward or bp-input), the ``tiling`` (every ``DwTiling`` field, what ``--tiling
fixed:FILE`` reads back; every ``Conv3DTiling`` field for the forward conv, every
``Conv3DBpInputTiling`` field for dX) and the strategy that chose
it, ``cost_only``, the ``cost`` of the last launch (``CostReport.to_json``), every launch's cost
in ``launches``, and the reference ``check`` (``CheckResult.to_json``); a key without a value is
null, never missing. ``ascend-run`` adds ``hazards`` and ``written``. ``ascend-tune`` writes
``layers``, one row per layer with its ``problem``, tuned ``tiling`` and ``cached``, and
with ``--network`` the ``networks`` totals.
Bump :data:`SCHEMA_VERSION` on any change that is not a new optional key (2: the forward
conv's report, whose tiling is a ``Conv3DTiling``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.reports.check import CheckResult

SCHEMA_VERSION = 2


def run_document(
    tool: str,
    hw: str,
    *,
    problem: ConvBpFilterShape | None,
    op: str = "bp-filter",
    tiling: DwTiling | Conv3DTiling | Conv3DBpInputTiling | None,
    tiling_strategy: str | None,
    costs: Sequence[CostReport],
    check: CheckResult | None,
    cost_only: bool,
    **extra: Any,
) -> dict[str, Any]:
    """The report of one run (``extra``: the keys only one tool has); ``op`` is the operator
    the problem is of (bp-filter, forward, bp-input), the ``tiling`` that op's record."""
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": tool,
        "hw": hw,
        "problem": {"op": op, **problem.as_json()} if problem is not None else None,
        "tiling_strategy": tiling_strategy,
        "tiling": tiling.as_dict() if tiling is not None else None,
        "cost_only": cost_only,
        "cost": costs[-1].to_json() if costs else None,
        "launches": [cost.to_json() for cost in costs],
        "check": check.to_json() if check is not None else None,
        **extra,
    }


def tune_document(
    hw: str,
    rows: Sequence[dict[str, Any]],
    networks: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The report of ``ascend-tune``: one row per layer (``tuning/sweep.tune_layer``) and, with
    ``--network``, the totals per network (``tuning/sweep.network_totals``)."""
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "tool": "ascend-tune",
        "hw": hw,
        "layers": list(rows),
    }
    if networks is not None:
        document["networks"] = list(networks)
    return document
