"""What ``ascend-run`` writes and prints: the result files, the hazard lines and the
``--report json`` document."""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp

from ascend_xdsl.ir.program import tiling_of_module
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.machine.values import np_dtype
from ascend_xdsl.runtime.reports.check import CheckResult
from ascend_xdsl.runtime.reports.document import run_document
from ascend_xdsl.runtime.reports.output import write_atomically
from ascend_xdsl.runtime.runner import RunResult
from ascend_xdsl.tools.errors import CliError
from ascend_xdsl.tools.run_args import PROG


def dims(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape)) or "scalar"


def result_files(entry: func.FuncOp, count: int) -> list[str]:
    name = entry.sym_name.data
    if count == 1:
        return [f"{name}.npy"]
    return [f"{name}.result{i}.npy" for i in range(count)]


def write_results(
    entry: func.FuncOp, results: Sequence[Any], output_dir: str
) -> list[tuple[Path, np.ndarray, MemRefType]]:
    """Serialize every result first (so a bad one writes nothing), then write each atomically."""
    types = entry.function_type.outputs.data
    encoded: list[tuple[Path, bytes, np.ndarray, MemRefType]] = []
    for name, value, t in zip(result_files(entry, len(results)), results, types, strict=True):
        assert isinstance(t, MemRefType)
        array = np.ascontiguousarray(np.asarray(value), dtype=np_dtype(t.element_type))
        if tuple(array.shape) != tuple(t.get_shape()):
            raise CliError(f"result {name}: shape {list(array.shape)} does not match {t}")
        buffer = io.BytesIO()
        np.save(buffer, array, allow_pickle=False)
        encoded.append((Path(output_dir) / name, buffer.getvalue(), array, t))
    if encoded:
        try:
            os.makedirs(output_dir, exist_ok=True)
            for path, data, _, _ in encoded:
                write_atomically(path, data)
        except OSError as e:
            raise CliError(f"cannot write to '{output_dir}': {e.strerror or e}") from None
    return [(path, array, t) for path, _, array, t in encoded]


def report_hazards(sanitizer: Sanitizer, when: str = "", show: bool = True) -> bool:
    """Print every hazard and the count (unless not ``show``); True if there is any."""
    n = len(sanitizer.hazards)
    if show:
        for hazard in sanitizer.hazards:
            print(f"hazard: {hazard.describe()}")
        count = f"{n} hazard{'s' if n != 1 else ''}" if n else "no hazards"
        print(f"sanitizer: {count}{when}")
    return n > 0


def cost_document(
    hw: str,
    module: ModuleOp,
    result: RunResult,
    check: CheckResult | None,
    *,
    cost_only: bool,
    hazards: list[str] | None,
    written: list[str],
) -> dict[str, Any]:
    """The ``--report json`` document of docs/report.schema.json (``runtime/reports/
    document.py``): the problem the entry computes and the tiling the program records (null
    when it has none: the hardware level keeps no record of it), the cost of the entry's
    launches (its FLOPs are the runner's, those of the dW problem when the entry computes
    one; null and an empty list without a launch), the check, the ``hazards`` (null without
    --sanitize) and the files ``written``."""
    return run_document(
        PROG,
        hw,
        problem=result.problem,
        tiling=tiling_of_module(module),
        tiling_strategy=None,
        costs=result.costs,
        check=check,
        cost_only=cost_only,
        hazards=hazards,
        written=written,
    )
