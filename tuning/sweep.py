"""Tune a file of layers: parse it, then run one search per layer on a process pool or on Ray.

The layers file is what ``ascend-tune`` reads: JSON, a list of objects ``{"input": [N, C, D, H,
W], "weight": [Co, Ci/g, kD, kH, kW], "stride", "padding", "dilation", "groups", "dtype"}``
(``stride``, ``padding`` and ``dilation`` an integer or a list as torch takes them, optional like
``groups`` and ``dtype``; an optional ``"name"``), or a CSV with the same columns (lists written
``1,16,4,8,8`` or ``[1, 16, 4, 8, 8]``). Three more optional keys describe a layer without
changing its problem and pass through to its row: ``network`` (``ascend-tune --network`` adds up
each network's layers), ``source`` and ``notes`` (strings). ``op`` names the operator tuned, one
of :data:`OPS`: ``bp-filter`` (the default: the dW search, ``tuning/search.py``), ``forward``
(the forward conv's, ``tuning/conv3d_search.py``) or ``bp-input`` (the input gradient's,
``tuning/conv3d_bp_input_search.py``). Any other key is refused: a typo in
``padding`` must not tune another problem. A bad entry is a :class:`LayerError` naming the
file and the layer.

:func:`tune_layers` runs :func:`tune_layer` for each layer (its op's row builder, from the
table :data:`TUNERS`), on a local
``ProcessPoolExecutor`` (``workers``) or as one Ray task per layer (``ray_address``: an existing
cluster, or ``"local"`` to start a local instance). Each task returns plain JSON data, so both
give byte-identical results; the searches are deterministic. Ray is the optional ``[ray]`` extra
and is imported only when asked for.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import logging
import os
import re
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import DTYPES, ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import ITERATE_ORDER_M, DwTiling
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.ir.files import InputFileError, read_text
from ascend_xdsl.lowering.build import (
    FORWARD_FUNC_NAME,
    FUNC_NAME,
    INPUT_GRAD_FUNC_NAME,
    ConvProblemError,
    build_module,
    shape_from_torch_args,
)
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.passes.tiling_options import using_search_workers
from ascend_xdsl.runtime.api import model_cost
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.cached_search import tune
from ascend_xdsl.tuning.conv3d_bp_input_search import BUDGET as INPUT_GRAD_BUDGET
from ascend_xdsl.tuning.conv3d_bp_input_search import (
    InputGradTuneResult,
    input_grad_hw_module,
    tune_input_grad,
)
from ascend_xdsl.tuning.conv3d_search import BUDGET as FORWARD_BUDGET
from ascend_xdsl.tuning.conv3d_search import (
    ForwardTuneResult,
    forward_hw_module,
    one_group,
    tune_forward,
)
from ascend_xdsl.tuning.search import BUDGET, TuneResult

COLUMNS = ("input", "weight", "stride", "padding", "dilation", "groups", "dtype")
"""The columns of a layers file that make its problem (``name`` is optional too)."""

PASSED_THROUGH = ("network", "source", "notes")
"""Optional columns that describe a layer and reach its row unchanged (null when absent)."""

OPS = ("bp-filter", "forward", "bp-input")
"""The operators a layer's ``op`` may name, the default first (the issue's order: forward,
bp-input, bp-filter are the three kernels a training step runs per layer)."""


_DEFAULTS: dict[str, Any] = {"stride": 1, "padding": 0, "dilation": 1, "groups": 1, "dtype": "f16"}


RAY_TIMEOUT = 30.0
"""Seconds ``--ray`` waits for the cluster to answer, and for its first worker to start
(``ascend-tune --ray-timeout``)."""


class LayerError(ValueError):
    """A layers file that cannot be read, or a layer in it that is not a legal dW problem."""


class RayUnavailable(RuntimeError):
    """``--ray`` without the ``[ray]`` extra installed."""


@dataclass(frozen=True)
class Layer:
    name: str
    problem: ConvBpFilterShape
    op: str = OPS[0]
    described: tuple[tuple[str, str | None], ...] = tuple((k, None) for k in PASSED_THROUGH)
    """The :data:`PASSED_THROUGH` columns, each with its value or None."""


_DECIMAL = re.compile(r"-?[0-9]+")
"""An integer as a layers file writes it: ASCII decimal digits only (``int()`` would also take
``1_000``, ``+3`` and other scripts' digits, which no layers file means)."""


def _int_list(where: str, key: str, value: Any) -> int | list[int]:
    """An integer or a list of integers, from JSON or from a CSV cell."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        if not text.strip():
            raise LayerError(f"{where}: {key} is empty")
        cells = [c.strip(" ") for c in text.split(",")]
        if any(_DECIMAL.fullmatch(c) is None for c in cells):
            raise LayerError(
                f"{where}: {key} must be integers, got {value!r}: ASCII decimal digits, one "
                "comma between two"
            )
        parts = [int(c) for c in cells]
        return parts[0] if len(parts) == 1 and key not in ("input", "weight") else parts
    if isinstance(value, bool):
        raise LayerError(f"{where}: {key} must be integers, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return value
    raise LayerError(f"{where}: {key} must be an integer or a list of integers, got {value!r}")


def layer_from_record(record: Any, where: str) -> Layer:
    """One layer of a layers file; ``where`` names it in errors (``layers.json: layer 3``)."""
    if not isinstance(record, dict):
        raise LayerError(f"{where}: expected an object with {', '.join(COLUMNS)}")
    unknown = sorted(set(record) - {*COLUMNS, *PASSED_THROUGH, "name", "op"})
    if unknown:
        raise LayerError(
            f"{where}: unknown key(s) {', '.join(unknown)} (a layer has name, op, "
            f"{', '.join(COLUMNS)}, {', '.join(PASSED_THROUGH)})"
        )
    described = tuple((k, _text(where, k, record.get(k))) for k in PASSED_THROUGH)
    op = _text(where, "op", record.get("op")) or OPS[0]
    if op not in OPS:
        raise LayerError(f"{where}: op {op!r} is not one of {', '.join(OPS)}")
    for key in ("input", "weight"):
        if record.get(key) in (None, ""):
            raise LayerError(f"{where}: '{key}' is missing")
    values = {k: record[k] for k in COLUMNS if record.get(k) not in (None, "")}
    values = {**_DEFAULTS, **values}
    dtype = values["dtype"]
    if dtype not in DTYPES:
        raise LayerError(f"{where}: dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    ints = {k: _int_list(where, k, values[k]) for k in COLUMNS if k != "dtype"}
    if not isinstance(ints["groups"], int):
        raise LayerError(f"{where}: groups must be one integer, got {ints['groups']}")
    try:
        problem = shape_from_torch_args(
            ints["input"],  # type: ignore[arg-type]
            ints["weight"],  # type: ignore[arg-type]
            stride=ints["stride"],
            padding=ints["padding"],
            dilation=ints["dilation"],
            groups=ints["groups"],
            dtype=dtype,
        )
    except ConvProblemError as e:
        raise LayerError(f"{where}: illegal problem: {e}") from None
    name = record.get("name")
    if name is None or name == "":  # a name 0 is a name
        name = where.rsplit(": ", 1)[-1]
    return Layer(str(name), problem, op, described)


def _text(where: str, key: str, value: Any) -> str | None:
    """A descriptive column's value: a string, None when absent or empty."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise LayerError(f"{where}: {key} must be a string, got {value!r}")
    return value


def parse_layers(text: str, source: str) -> list[Layer]:
    """The layers of a JSON list or a CSV table (by its first character: ``[`` is JSON)."""
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as e:
            raise LayerError(f"{source}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None
        if not isinstance(records, list):
            raise LayerError(f"{source}: expected a JSON list of layers")
        entries = [(f"{source}: layer {i + 1}", r) for i, r in enumerate(records)]
    else:
        entries = _csv_entries(text, source)
    if not entries:
        raise LayerError(f"{source}: no layers")
    return [layer_from_record(record, where) for where, record in entries]


def _csv_entries(text: str, source: str) -> list[tuple[str, dict[str, Any]]]:
    """The rows of a CSV layers file as records, each with where it is; a header naming a
    column twice, or a row with more cells than the header, is refused."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip() for h in next(reader, [])]
        if not {"input", "weight"} <= set(header):
            raise LayerError(
                f"{source}: neither a JSON list nor a CSV with columns {', '.join(COLUMNS)}"
            )
        twice = sorted({h for h in header if header.count(h) > 1})
        if twice:
            raise LayerError(f"{source}:1: column(s) {', '.join(twice)} given twice")
        entries: list[tuple[str, dict[str, Any]]] = []
        for row in reader:
            if not row:
                continue  # a blank line
            where = f"{source}:{reader.line_num}: layer {len(entries) + 1}"
            if len(row) > len(header):
                raise LayerError(
                    f"{where}: {len(row)} cells, but the header has {len(header)} columns (a "
                    'list in a cell is quoted: "1,16,4,8,8")'
                )
            entries.append((where, dict(zip(header, row, strict=False))))
    except csv.Error as e:
        raise LayerError(f"{source}:{reader.line_num}: not a CSV file: {e}") from None
    return entries


MAX_LAYERS_BYTES = 16 * 2**20
"""The largest layers file read: a layer is one short line, so this is far more than any
network has (and keeps ``/dev/zero`` from filling memory)."""


def read_layers(path: str) -> list[Layer]:
    try:
        text = read_text(path, MAX_LAYERS_BYTES)
    except InputFileError as e:
        raise LayerError(str(e)) from None
    return parse_layers(text, path)


SHORT_AXIS = {"batch*dout": "bd", "group": "g", "dk": "dk", "M": "m", "N": "n", "K": "k"}
"""The core-split axes (``DwTiling.core_split``) as a table cell names them."""


def tiling_summary(t: DwTiling) -> str:
    """A tiling in one line: base M/K/N, steps M/N/Ka/Kb, order, buffering, split, Dk mode."""
    split = [f"{SHORT_AXIS[axis]}{dim}" for axis, dim in t.core_split()]
    order = "M" if t.iterate_order == ITERATE_ORDER_M else "N"
    dk = "fused" if t.fused_dk else "separate"
    return (
        f"base {t.base_m}/{t.base_k}/{t.base_n} step {t.step_m}/{t.step_n}/{t.step_ka}/"
        f"{t.step_kb} order {order} L1 {t.al1_pbuffer}/{t.bl1_pbuffer} L0 {t.al0_pbuffer} "
        f"L0C {t.cl0_pbuffer} cores {'x'.join(split) or '1'} dk {dk}"
    )


def forward_summary(t: Conv3DTiling) -> str:
    """A forward tiling in one line: the L0 tile, the buffering and the core split."""
    slots = "/".join(str(t.buffered(bit)) for bit in range(5))
    split = [f"{a}{d}" for a, d in (("b", t.batch_dim), ("d", t.do_dim), ("c", t.co_dim),
                                    ("m", t.m_dim)) if d > 1]  # fmt: skip
    return (
        f"L0 M/K/N {t.m_l0}/{t.k_l0}/{t.n_l0} buffers L0A/L0B/L0C/AL1/BL1 {slots} "
        f"cores {'x'.join(split) or '1'}"
    )


def input_grad_summary(t: Conv3DBpInputTiling) -> str:
    """A dX tiling in one line: the L0 tile, the buffering and one core's shares."""
    slots = f"{t.al0_pbuffer}/{t.bl0_pbuffer}/{t.cl0_pbuffer}/{t.al1_pbuffer}/{t.bl1_pbuffer}"
    return (
        f"L0 M/K/N {t.base_m}/{t.base_k}/{t.base_n} buffers L0A/L0B/L0C/AL1/BL1 {slots} "
        f"core share b{t.single_core_batch} d{t.single_core_din} m{t.single_core_m} "
        f"n{t.single_core_cin}"
    )


def operator_seconds(problem: ConvBpFilterShape, hw: str, tiling: DwTiling) -> tuple[float, float]:
    """The modelled time of the whole operator with ``tiling`` (cost only: TransData of x and
    dy in, the MemSet of dW, the dW launch, TransData of dW out; ``runtime/cost/operator.py``)
    and of its dW kernel alone (the launch with its overhead), in seconds."""
    options = CompileOptions.create(hw=hw, tiling=tiling)
    module = compile_levels(build_module(problem), options, verify=False)["hw"]
    return _seconds(module, hw, problem, FUNC_NAME)


def forward_operator_seconds(
    problem: ConvBpFilterShape, hw: str, tiling: Conv3DTiling
) -> tuple[float, float]:
    """:func:`operator_seconds` of the forward conv of one group: TransData of x and the
    weight in, the conv launch, TransData of y out (y is not zeroed: ``ascend.empty_gm``)."""
    return _seconds(forward_hw_module(problem, hw, tiling), hw, problem, FORWARD_FUNC_NAME)


def input_grad_operator_seconds(
    problem: ConvBpFilterShape, hw: str, tiling: Conv3DBpInputTiling
) -> tuple[float, float]:
    """:func:`operator_seconds` of dX of one group: TransData of dy and the weight in, the
    MemSet of dX, the dX launch, TransData of dX out."""
    return _seconds(input_grad_hw_module(problem, hw, tiling), hw, problem, INPUT_GRAD_FUNC_NAME)


def _seconds(module: Any, hw: str, problem: ConvBpFilterShape, entry: str) -> tuple[float, float]:
    report = model_cost(module, hw, entry=entry, problem=problem)[-1]
    if report.operator is None or report.end_to_end_seconds is None:
        raise ValueError("the cost model gave no end-to-end time")  # the runner always does
    kernel = sum(k.seconds for k in report.operator.kernels if k.launch)
    return report.end_to_end_seconds, kernel


def tune_bp_filter(
    name: str,
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None,
    budget: int,
    use_cache: bool,
    on_candidate: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The ``bp-filter`` row of one layer (the dW search, ``tuning/cached_search.tune``; its
    processes: ``tiling_options.using_search_workers``)."""
    r = tune(problem, hw, cores, budget=budget, use_cache=use_cache, on_candidate=on_candidate)
    return _row(name, problem, r, partial(operator_seconds, problem, hw), tiling_summary)


def tune_forward_layer(
    name: str,
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None,
    budget: int,
    use_cache: bool,
    on_candidate: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The ``forward`` row of one layer (``tuning/conv3d_search.tune_forward``). A grouped conv
    runs as one launch per group on the simulator (``runtime/forward.py``): one group's
    problem is tuned, and its cycles and seconds count ``groups`` times."""
    single = one_group(problem)
    r = tune_forward(
        single, hw, cores, budget=budget, use_cache=use_cache, on_candidate=on_candidate
    )
    seconds = partial(forward_operator_seconds, single, hw)
    return _row(name, problem, r, seconds, forward_summary, problem.groups)


def tune_bp_input_layer(
    name: str,
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None,
    budget: int,
    use_cache: bool,
    on_candidate: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The ``bp-input`` row of one layer (``tuning/conv3d_bp_input_search.tune_input_grad``),
    one group's problem counted per group as the forward's (``runtime/input_grad.py`` runs a
    grouped dX as one launch per group)."""
    single = one_group(problem)
    r = tune_input_grad(
        single, hw, cores, budget=budget, use_cache=use_cache, on_candidate=on_candidate
    )
    seconds = partial(input_grad_operator_seconds, single, hw)
    return _row(name, problem, r, seconds, input_grad_summary, problem.groups)


def _row(
    name: str,
    problem: ConvBpFilterShape,
    r: TuneResult | ForwardTuneResult | InputGradTuneResult,
    seconds: Callable[[Any], tuple[float, float]],
    summary: Callable[[Any], str],
    times: int = 1,
) -> dict[str, Any]:
    """The row of one layer of either op from its search's result ``r``: ``seconds(tiling)``
    times a tiling end to end and its kernel alone (once when both tilings are the same),
    ``summary(tiling)`` says it in one line, and cycles and seconds count ``times`` times (a
    grouped forward's launches, one per group)."""
    heuristic = seconds(r.heuristic)
    tuned = heuristic if r.tuned == r.heuristic else seconds(r.tuned)
    return {
        "layer": name,
        "problem": problem.as_json(),
        "heuristic_cycles": r.heuristic_score.cycles * times,
        "tuned_cycles": r.tuned_score.cycles * times,
        "speedup": r.speedup,
        "heuristic_efficiency": r.heuristic_score.efficiency,
        "efficiency": r.tuned_score.efficiency,
        "bound": r.tuned_score.bound,
        "bottleneck": r.tuned_score.bottleneck,
        "heuristic_end_to_end_seconds": heuristic[0] * times,
        "tuned_end_to_end_seconds": tuned[0] * times,
        "heuristic_kernel_seconds": heuristic[1] * times,
        "tuned_kernel_seconds": tuned[1] * times,
        "tiling_summary": summary(r.tuned),
        "tiling": r.tuned.as_dict(),
        "heuristic_tiling": r.heuristic.as_dict(),
        "candidates": r.candidates,
        "tuning_seconds": r.seconds,
        "cached": r.cached,
    }


@dataclass(frozen=True)
class OpTuner:
    """How ``ascend-tune`` tunes one op: its row builder, (name, problem, hw, cores, budget,
    use_cache, on_candidate) → the row, and its search's default budget."""

    row: Callable[..., dict[str, Any]]
    budget: int


TUNERS: dict[str, OpTuner] = {
    "bp-filter": OpTuner(tune_bp_filter, BUDGET),
    "forward": OpTuner(tune_forward_layer, FORWARD_BUDGET),
    "bp-input": OpTuner(tune_bp_input_layer, INPUT_GRAD_BUDGET),
}
"""Each op of :data:`OPS` and how it is tuned."""


def default_budget(op: str) -> int:
    """The budget a layer of ``op`` is tuned with when none is given."""
    return TUNERS[op].budget


def tune_layer(
    name: str,
    problem: ConvBpFilterShape,
    hw: str,
    cores: int | None,
    budget: int,
    use_cache: bool,
    on_candidate: Callable[[int], None] | None = None,
    op: str = OPS[0],
) -> dict[str, Any]:
    """Tune one layer's ``op``; the row ``ascend-tune`` prints, as plain JSON data (pool and
    Ray alike). ``on_candidate(n)``: after the n-th candidate of its search (not called on a
    cache hit)."""
    return TUNERS[op].row(name, problem, hw, cores, budget, use_cache, on_candidate)


def _tune_args(args: tuple[Any, ...]) -> dict[str, Any]:
    # One process per layer: the pool and Ray already keep the CPUs busy.
    with using_search_workers(1):
        return tune_layer(*args)


def _described(layer: Layer, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with the layer's op and descriptive columns after its name."""
    return {"layer": row["layer"], "op": layer.op, **dict(layer.described), **row}


def transfer_waves(layers: Sequence[Layer], hw: str, cores: int | None) -> list[list[int]]:
    """The layers' indices in waves: wave i holds the i-th layer of each transfer family
    (``tuning/cache.family_key``), in file order. A wave runs after the one before it, so a
    layer's search starts from what the cache held plus its family's earlier layers in the
    file, whatever the pool or Ray finishes first: the rows do not depend on the schedule."""
    cores = cores or load_hw(hw).aic_count
    seen: dict[str, int] = {}
    waves: list[list[int]] = []
    for i, layer in enumerate(layers):
        # Only dW searches transfer; a forward or dX row is its own family (the same layer's
        # ops need not wait for each other).
        family = cache.family_key(layer.problem, hw, cores)
        family = family if layer.op == "bp-filter" else f"{layer.op}:{i}"
        rank = seen[family] = seen.get(family, -1) + 1
        if rank == len(waves):
            waves.append([])
        waves[rank].append(i)
    return waves


def tune_layers(
    layers: Sequence[Layer],
    *,
    hw: str = DEFAULT_HW,
    cores: int | None = None,
    budget: int | None = None,
    use_cache: bool = True,
    workers: int = 1,
    ray_address: str | None = None,
    ray_num_cpus: int | None = None,
    ray_timeout: float = RAY_TIMEOUT,
    on_done: Callable[[int], None] | None = None,
    on_candidate: Callable[[int, int], None] | None = None,
    search_workers: int | None = None,
) -> list[dict[str, Any]]:
    """One :func:`tune_layer` row per layer, in the order of ``layers``, with the layer's op
    and descriptive columns (:data:`PASSED_THROUGH`) after its name; ``budget`` None: each op's
    own (:func:`default_budget`).

    ``ray_address`` None: a local pool of ``workers`` processes (1: in this process). Otherwise
    one Ray task per layer: ``"local"`` starts a local Ray instance (``ray_num_cpus`` CPUs),
    anything else is the address of an existing cluster (``ray.init(address=...)``), checked
    first (:func:`check_ray_address`). Connecting, and the first worker's start, each wait at
    most ``ray_timeout`` seconds. With the cache on, the pool and Ray run the layers in
    :func:`transfer_waves`.
    ``on_done(n)`` is called as the n-th layer finishes (a progress bar), and in this process
    (``workers`` 1, no Ray) ``on_candidate(i, n)`` after the n-th candidate of layer i.
    ``search_workers``: there, the processes each search scores in (None: the setting's, 1); the
    pool's and Ray's searches score in their own process only.
    """
    jobs = [
        (layer.name, layer.problem, hw, cores, budget or default_budget(layer.op), use_cache, None,
         layer.op)
        for layer in layers
    ]  # fmt: skip
    waves = transfer_waves(layers, hw, cores) if use_cache else [list(range(len(jobs)))]
    if ray_address is not None:
        rows = _on_ray(jobs, waves, ray_address, ray_num_cpus, on_done, ray_timeout)
    elif workers <= 1 or len(jobs) == 1:
        rows = []
        for i, job in enumerate(jobs):  # file order: every wave before the next
            scored = None if on_candidate is None else partial(on_candidate, i)
            with using_search_workers(search_workers):
                rows.append(tune_layer(*job[:6], on_candidate=scored, op=job[7]))
            if on_done:
                on_done(len(rows))
    else:
        done: dict[int, dict[str, Any]] = {}
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            for wave in waves:
                for i, row in zip(wave, pool.map(_tune_args, [jobs[i] for i in wave]), strict=True):
                    done[i] = row
                    if on_done:
                        on_done(len(done))
        rows = [done[i] for i in range(len(jobs))]
    return [_described(layer, row) for layer, row in zip(layers, rows, strict=True)]


NO_NETWORK = "-"
"""The network of the layers that name none (``ascend-tune --network``)."""

ALL = "all"
"""The op of a network's line over all its ops, and the network of the line over every row."""

_SUMMED = (
    "heuristic_end_to_end_seconds",
    "tuned_end_to_end_seconds",
    "heuristic_kernel_seconds",
    "tuned_kernel_seconds",
)


def _total(network: str, op: str, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    sums = {key: sum(r[key] for r in rows) for key in _SUMMED}
    return {
        "network": network,
        "op": op,
        "layers": len(rows),
        **sums,
        "speedup": sums["heuristic_end_to_end_seconds"] / sums["tuned_end_to_end_seconds"],
        "kernel_speedup": sums["heuristic_kernel_seconds"] / sums["tuned_kernel_seconds"],
    }


def network_totals(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``ascend-tune --network``: per network (in the order the rows first name it; the rows
    without one under :data:`NO_NETWORK`) and per op, the number of layers and the sums of the
    heuristic's and the tuned tilings' end-to-end times (the whole operator of each layer:
    its dW kernel and the TransData and MemSet kernels around it) and of their dW kernels
    alone, with both speedups. The layers of one network run one after the other, so their
    times add up. A network with rows of several ops gets a line of op :data:`ALL` over them,
    and a last line of network :data:`ALL` sums every row when there is more than one line."""
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for r in rows:
        network = r.get("network") or NO_NETWORK
        groups.setdefault(network, {}).setdefault(r["op"], []).append(r)
    totals: list[dict[str, Any]] = []
    for network, ops in groups.items():
        totals += [_total(network, op, op_rows) for op, op_rows in ops.items()]
        if len(ops) > 1:
            totals.append(_total(network, ALL, [r for op_rows in ops.values() for r in op_rows]))
    if len(totals) > 1:
        ops = {r["op"] for r in rows}
        totals.append(_total(ALL, ops.pop() if len(ops) == 1 else ALL, rows))
    return totals


def check_ray_address(address: str, timeout: float) -> None:
    """Before Ray is asked (its connect retries for minutes without a word): an address
    ``[ray://]HOST:PORT`` must be well formed and something must accept a connection there
    within ``timeout`` seconds. ``local`` and ``auto`` (Ray finds its own cluster) pass."""
    if address in ("local", "auto"):
        return
    what = f"--ray {address}"
    host, sep, port_text = address.removeprefix("ray://").rpartition(":")
    host = host.strip("[]")
    port = int(port_text) if port_text.isascii() and port_text.isdecimal() else -1
    if not sep or not host or not 0 < port < 65536:
        raise RayUnavailable(f"{what}: not an address: expected HOST:PORT with a port 1-65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise RayUnavailable(f"{what}: cannot resolve the host '{host}': {e}") from None
    family, kind, proto, _, sockaddr = infos[0]
    try:
        with socket.socket(family, kind, proto) as s:
            s.settimeout(timeout)
            s.connect(sockaddr)
    except TimeoutError:
        raise RayUnavailable(
            f"{what}: no answer within {timeout:g} s (--ray-timeout): is a Ray cluster "
            "running there?"
        ) from None
    except OSError as e:
        raise RayUnavailable(
            f"{what}: cannot connect: {e.strerror or e}: is a Ray cluster running there?"
        ) from None


class _Deadline(Exception):
    """Raised in the main thread by SIGALRM when connecting takes too long."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`_Deadline` in this (main) thread after ``seconds``; without SIGALRM, or
    off the main thread, no limit. ``ray.init`` must run in the main thread (started from
    another one, a local instance loses its GCS), so the limit is a signal, not a thread."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _Deadline

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _init_ray(ray: Any, address: str, num_cpus: int | None, timeout: float) -> None:
    """``ray.init``; connecting to a cluster within ``timeout`` seconds. Each failure is one
    :class:`RayUnavailable` line."""
    # Ray's own start-up lines stay out of the tool's standard error (warnings pass).
    quiet = {"log_to_driver": False, "logging_level": logging.WARNING}
    what = "--ray" if address == "local" else f"--ray {address}"
    auth = getattr(getattr(ray, "exceptions", None), "AuthenticationError", ())
    try:
        if address == "local":  # starting takes what it takes; its workers are checked after
            ray.init(num_cpus=num_cpus, include_dashboard=False, **quiet)
        else:
            with _deadline(timeout):
                ray.init(address=address, **quiet)
    except _Deadline:
        raise RayUnavailable(
            f"{what}: Ray did not connect within {timeout:g} s (--ray-timeout): is a Ray "
            "cluster running there, and of the same Ray version?"
        ) from None
    except auth:
        raise RayUnavailable(
            f"{what}: the cluster refused the connection: it uses token authentication: set "
            "RAY_AUTH_TOKEN (or RAY_AUTH_TOKEN_PATH, the file that holds it) to the "
            "cluster's token, e.g. from 'ray get-auth-token' on its head node"
        ) from None
    except (ConnectionError, RuntimeError, TimeoutError, ValueError) as e:
        text = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise RayUnavailable(f"{what}: Ray could not start or connect: {text}") from None


def _ray_ping() -> int:
    return os.getpid()


def _on_ray(
    jobs: list[tuple[Any, ...]],
    waves: list[list[int]],
    address: str,
    num_cpus: int | None,
    on_done: Callable[[int], None] | None,
    timeout: float = RAY_TIMEOUT,
) -> list[dict[str, Any]]:
    check_ray_address(address, timeout)
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'ascend-xdsl[ray]'") from None
    started = not ray.is_initialized()
    if started:
        _init_ray(ray, address, num_cpus, timeout)
    try:
        # One trivial task first: a cluster whose workers never start (a memory limit, no
        # CPUs) says so after the timeout instead of leaving the sweep waiting in silence.
        ping = ray.remote(_ray_ping).remote()
        try:
            ray.get(ping, timeout=timeout)
        except ray.exceptions.GetTimeoutError:
            raise RayUnavailable(
                f"--ray: no Ray worker started within {timeout:g} s (--ray-timeout): does the "
                "cluster have free CPUs and memory for a worker? ('ray status' tells)"
            ) from None
        task = ray.remote(_tune_args)
        done: dict[int, dict[str, Any]] = {}
        for wave in waves:
            refs = [(i, task.remote(jobs[i])) for i in wave]
            for i, ref in refs:
                done[i] = ray.get(ref)
                if on_done:
                    on_done(len(done))
        return [done[i] for i in range(len(jobs))]
    finally:
        if started:
            ray.shutdown()
