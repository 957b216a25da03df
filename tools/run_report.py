"""What ``ascend-run`` writes and prints: the result files, the hazard lines and the
``--report json`` document."""

from __future__ import annotations

import io
import json
import os
import unicodedata
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
from ascend_xdsl.runtime.reports.output import write_atomically, write_error
from ascend_xdsl.runtime.runner import RunResult
from ascend_xdsl.tools.errors import CliError
from ascend_xdsl.tools.run_args import PROG


def dims(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape)) or "scalar"


MAX_NAME_BYTES = 200
"""The longest entry name a result file is named after: with ``.result<i>.npy`` and the
temporary file's affixes it stays under the 255 bytes a file name may have."""


def result_stem(entry: func.FuncOp) -> str:
    """The entry's name as the stem of its result files, or a :class:`CliError` saying why it
    cannot be one: a symbol name may hold anything, a file name in ``--output-dir`` may not hold
    a path separator, a control character (newline, NUL) or be ``.``/``..``, so that no result
    is ever written outside the folder."""
    name = entry.sym_name.data
    bad = next((c for c in name if c in "/\\" or unicodedata.category(c) == "Cc"), None)
    problem = None
    if bad is not None:
        kind = "the path separator" if bad in "/\\" else "the control character"
        problem = f"it holds {kind} {bad!r}"
    elif not name or name.startswith("."):
        problem = "it is empty or begins with '.', as '..' does"
    elif len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        problem = f"it is longer than {MAX_NAME_BYTES} bytes"
    if problem is not None:
        raise CliError(
            f"@{json.dumps(name, ensure_ascii=False)}: the result files are named after the "
            f"entry function and this name cannot be a file name ({problem}): rename it"
        )
    return name


def result_files(entry: func.FuncOp, count: int) -> list[str]:
    name = result_stem(entry)
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
        except OSError as e:
            raise CliError(f"--output-dir: {write_error(output_dir, e)}") from None
        for path, data, _, _ in encoded:
            try:
                write_atomically(path, data)
            except OSError as e:
                raise CliError(write_error(path, e)) from None
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
    op: str = "bp-filter",
) -> dict[str, Any]:
    """The ``--report json`` document of docs/report.schema.json (``runtime/reports/
    document.py``): the problem the entry computes and the tiling the program records (null
    when it has none: the hardware level keeps no record of it), the cost of the entry's
    launches (its FLOPs are the runner's, those of the dW problem when the entry computes
    one; null and an empty list without a launch), the check, the ``hazards`` (null without
    --sanitize) and the files ``written``; ``op`` names the problem's operator."""
    return run_document(
        PROG,
        hw,
        problem=result.problem,
        op=op,
        tiling=tiling_of_module(module),
        tiling_strategy=None,
        costs=result.costs,
        check=check,
        cost_only=cost_only,
        hazards=hazards,
        written=written,
    )
