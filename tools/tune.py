"""``ascend-tune LAYERS``: tune every layer of a file and compare with the heuristic.

Reads a layers file (JSON list or CSV, ``tuning/sweep.py``), runs the tiling search of each
layer's ``op`` (``bp-filter``, the default: ``tuning/search.py``; ``forward``:
``tuning/conv3d_search.py``; ``bp-input``: ``tuning/conv3d_bp_input_search.py``; all cached on
disk by ``tuning/cache.py``) and prints one row per
layer: the heuristic's and the tuned tiling's modelled cycles, the speedup, the tuned tiling's
efficiency against the roofline and its bottleneck, and the tuned tiling. A layer's ``op``,
``network``, ``source`` and ``notes`` keys pass through to its row (``tuning/sweep.py``).

* ``--format table|json|csv``: a text table (default), the JSON report of
  docs/report.schema.json (``layers``: one object per layer with its ``problem``, the
  heuristic's and the tuned cycles, the tuned ``tiling`` with every DwTiling field, ``cached``,
  ...), or CSV with the same columns (``problem`` and ``tiling`` as JSON text).
* ``--network``: after the layers, per network (a layer's ``network`` key) and op, the
  heuristic's and the tuned end-to-end time of its layers (each layer's whole operator: its dW
  kernel with the TransData and MemSet kernels around it) and of their own kernels alone
  (``tuning/sweep.network_totals``); in JSON a ``networks`` list beside ``layers``, in CSV
  those totals alone.
* ``--workers N``: a local process pool of N processes (the default: 1, in this process).
* ``--ray [ADDRESS]``: one Ray task per layer on the cluster at ADDRESS, or on a local Ray
  instance when no address is given (the ``[ray]`` extra; ``--workers N`` above 1 then sets the
  local instance's CPUs). The searches are deterministic, so both give the same rows.
* ``--no-cache`` searches again (and stores the new answer), without starting from the cached
  layers that differ only in batch or spatial size (``tuning/transfer.py``); ``--budget``
  bounds the candidates scored per layer (default: each op's own, bp-filter 96, forward 48,
  bp-input 48).
* ``--ray-timeout SECONDS`` (default 30): how long connecting to the cluster, and the start of
  its first worker, may take before a one-line error naming the address.
* ``-o FILE`` writes the output atomically (``runtime/reports/output.py``; a device or a FIFO
  is written directly).

A progress bar over the candidates scored (at most ``--budget`` per layer) appears on standard
error when it is a terminal and the sweep lasts over 2 s. ``--cache-info`` says where the
tuning cache is and what it holds; ``--clear-cache`` empties it. Errors are one line on
standard error (``ascend-tune: error: ...``): exit code 2 for flags that cannot be parsed, 1 for
a file or layer that is rejected.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import unicodedata
from collections.abc import Sequence
from typing import Any

from tqdm import tqdm

from ascend_xdsl.hw import UnknownHardwareError, load
from ascend_xdsl.runtime.reports.document import tune_document
from ascend_xdsl.tools.errors import (
    CliError,
    OneLineParser,
    add_debug_flag,
    first_line,
    run_tool,
    write_output,
)
from ascend_xdsl.tools.flags import (
    TILING_WORDS,
    add_hw_flag,
    check_no_empty_values,
    int_at_least,
    positive_seconds,
)
from ascend_xdsl.tuning import cache
from ascend_xdsl.tuning.sweep import (
    RAY_TIMEOUT,
    TUNERS,
    LayerError,
    RayUnavailable,
    network_totals,
    read_layers,
    tune_layers,
)

PROG = "ascend-tune"

CSV_COLUMNS = (
    "layer",
    "op",
    "network",
    "source",
    "notes",
    "heuristic_cycles",
    "tuned_cycles",
    "speedup",
    "heuristic_efficiency",
    "efficiency",
    "bound",
    "bottleneck",
    "heuristic_end_to_end_seconds",
    "tuned_end_to_end_seconds",
    "heuristic_kernel_seconds",
    "tuned_kernel_seconds",
    "tiling_summary",
    "candidates",
    "tuning_seconds",
    "cached",
    "problem",
    "tiling",
)
"""The CSV's columns; ``problem`` and ``tiling`` hold the row's JSON objects as compact JSON
text (a ``tiling`` cell saved to a file is what ``--tiling fixed:FILE`` reads)."""

NETWORK_COLUMNS = (
    "network",
    "op",
    "layers",
    "heuristic_end_to_end_seconds",
    "tuned_end_to_end_seconds",
    "speedup",
    "heuristic_kernel_seconds",
    "tuned_kernel_seconds",
    "kernel_speedup",
)
"""The columns of ``--network --format csv``: one row per network and op
(``tuning/sweep.network_totals``)."""


def make_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=PROG,
        description="Tune the tiling of every layer in LAYERS (a JSON list or a CSV of\n"
        "input, weight, stride, padding, dilation, groups, dtype, and optionally op: bp-filter\n"
        "(default), forward or bp-input) against the heuristic.",
        epilog=TILING_WORDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("layers", metavar="LAYERS", nargs="?", help="the layers file (.json or .csv)")
    add_hw_flag(p)
    p.add_argument(
        "--cores", metavar="N", type=int_at_least(1), help="AI cores to use (default: all)"
    )
    p.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help="a text table (default); the JSON report of docs/report.schema.json; or CSV with "
        "the same columns (problem and tiling as JSON text)",
    )
    p.add_argument(
        "--cache-info",
        action="store_true",
        help="print where the tuning cache is, how many searches it holds and its size; tune "
        "nothing",
    )
    p.add_argument(
        "--clear-cache",
        action="store_true",
        help="delete every cached search (then tune LAYERS, if given, from scratch)",
    )
    p.add_argument(
        "--workers",
        metavar="N",
        type=int_at_least(1),
        default=1,
        help="local processes (default 1)",
    )
    p.add_argument(
        "--search-workers",
        metavar="N",
        type=int_at_least(1),
        help="with --workers 1 and no --ray: processes each layer's search scores candidates "
        "in (default 1: this one only; the tilings found are the same)",
    )
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        nargs="?",
        const="local",
        help="run each layer as a Ray task on the cluster at ADDRESS (a local Ray instance "
        "without one); needs pip install 'ascend-xdsl[ray]'",
    )
    p.add_argument(
        "--ray-timeout",
        metavar="SECONDS",
        type=positive_seconds,
        default=RAY_TIMEOUT,
        help=f"with --ray: how long to wait for the cluster to answer and for its first worker "
        f"to start (default {RAY_TIMEOUT:g})",
    )
    p.add_argument(
        "--network",
        action="store_true",
        help="after the layers, the totals of each network (a layer's 'network' key): the "
        "heuristic's and the tuned end-to-end time of its layers' operators and of their own "
        "kernels; with --format json a 'networks' list too, with --format csv the totals only",
    )
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="search again, ignoring the cache (and its nearest cached layers)",
    )
    add_debug_flag(p)
    p.add_argument(
        "--budget",
        metavar="N",
        type=int_at_least(1),
        help="candidates scored per layer at most (default: each op's, "
        + ", ".join(f"{op} {tuner.budget}" for op, tuner in TUNERS.items())
        + ")",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE")
    return p


def table_cell(text: str) -> str:
    """``text`` on one line of the table: control characters (a newline in a layer's name)
    written as escapes, so that each layer stays one row."""
    return "".join(
        repr(c)[1:-1] if unicodedata.category(c) == "Cc" or c == "\\" else c for c in text
    )


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """One line per layer; with an ``op`` column when a row tunes another op than dW's."""
    header = ("layer", "heuristic cycles", "tuned cycles", "speedup", "efficiency", "bottleneck")
    ops = any(r.get("op", "bp-filter") != "bp-filter" for r in rows)
    if ops:
        header = ("layer", "op", *header[1:])
    body = [
        (
            table_cell(str(r["layer"])),
            *((r["op"],) if ops else ()),
            f"{r['heuristic_cycles']:,.0f}",
            f"{r['tuned_cycles']:,.0f}",
            f"{r['speedup']:.2f}x",
            f"{r['heuristic_efficiency']:.1%} -> {r['efficiency']:.1%}",
            f"{r['bound']} ({r['bottleneck']})",
        )
        for r in rows
    ]
    tilings = ["tuned tiling", *(r["tiling_summary"] for r in rows)]
    lines = [f"{line}  {tiling}" for line, tiling in zip(_columns(header, body), tilings,
                                                          strict=True)]  # fmt: skip
    return "\n".join(lines) + "\n"


def _columns(header: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    """The header and body as lines of left-aligned columns two spaces apart."""
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(header)]
    return ["  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
            for cells in [header, *body]]  # fmt: skip


def format_networks(totals: Sequence[dict[str, Any]]) -> str:
    """``--network``'s table: per network and op, the layers and the summed times in
    microseconds, end to end (every kernel of each layer's operator) and of the op's own
    kernels (the dW or the forward conv's launches)."""
    header = ("network", "op", "layers", "end to end: heuristic us", "tuned us", "speedup",
              "kernels: heuristic us", "tuned us", "speedup")  # fmt: skip
    body = [
        (
            table_cell(t["network"]),
            t["op"],
            str(t["layers"]),
            f"{t['heuristic_end_to_end_seconds'] * 1e6:,.1f}",
            f"{t['tuned_end_to_end_seconds'] * 1e6:,.1f}",
            f"{t['speedup']:.2f}x",
            f"{t['heuristic_kernel_seconds'] * 1e6:,.1f}",
            f"{t['tuned_kernel_seconds'] * 1e6:,.1f}",
            f"{t['kernel_speedup']:.2f}x",
        )
        for t in totals
    ]
    return "\n".join(line.rstrip() for line in _columns(header, body)) + "\n"


def format_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str] = CSV_COLUMNS) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        cells = {k: json.dumps(v, separators=(",", ":")) if isinstance(v, dict) else v
                 for k, v in row.items()}  # fmt: skip
        writer.writerow(cells)
    return out.getvalue()


def cache_info() -> str:
    """``--cache-info``: the folder, the searches cached and their size."""
    files = cache.entries()
    size = sum(f.stat().st_size for f in files if f.exists())
    return (
        f"tuning cache: {cache.cache_dir()}\n"
        f"  {len(files)} cached search{'es' if len(files) != 1 else ''}, {size / 1024:,.1f} kB "
        f"(keyed by layer, hw, cores, budget and compiler {cache.compiler_version()})\n"
    )


def run(args: argparse.Namespace) -> str:
    if args.cache_info or args.clear_cache:
        if args.cache_info and args.clear_cache:
            raise CliError("--cache-info and --clear-cache: give one of them", exit_code=2)
        if args.cache_info:
            if args.layers:
                raise CliError("--cache-info tunes nothing: drop LAYERS", exit_code=2)
            return cache_info()
        removed = cache.clear()
        print(f"{PROG}: cleared {removed} cached search{'es' if removed != 1 else ''} "
              f"from {cache.cache_dir()}", file=sys.stderr)  # fmt: skip
        if not args.layers:
            return ""
    if not args.layers:
        raise CliError(f"LAYERS is required (see '{PROG} --help')", exit_code=2)
    try:
        hw = load(args.hw)
    except UnknownHardwareError as e:
        raise CliError(str(e)) from None
    if args.cores is not None and args.cores > hw.aic_count:
        raise CliError(f"--cores {args.cores}: {hw.name} has {hw.aic_count}")
    try:
        layers = read_layers(args.layers)
    except LayerError as e:
        raise CliError(str(e)) from None
    # Candidates, not layers: a one-layer file would show 0/1 until it ends. The total is the
    # budget of every layer; a search that stops early or a cache hit jumps to its layer's end.
    budgets = [args.budget or TUNERS[layer.op].budget for layer in layers]
    ends = [sum(budgets[: i + 1]) for i in range(len(budgets))]
    bar = tqdm(
        total=sum(budgets),
        desc=f"tuning {len(layers)} layer{'s' if len(layers) != 1 else ''}",
        unit="candidate",
        file=sys.stderr,
        delay=2.0,
        leave=False,
        disable=not sys.stderr.isatty(),
    )
    try:
        rows = tune_layers(
            layers,
            hw=args.hw,
            cores=args.cores,
            budget=args.budget,
            use_cache=not args.no_cache,
            workers=args.workers,
            ray_address=args.ray,
            ray_num_cpus=args.workers if args.ray == "local" and args.workers > 1 else None,
            ray_timeout=args.ray_timeout,
            on_done=lambda n: bar.update(ends[n - 1] - bar.n),
            on_candidate=lambda i, n: bar.update(ends[i] - budgets[i] + min(n, budgets[i]) - bar.n),
            search_workers=args.search_workers,
        )
    except RayUnavailable as e:
        raise CliError(str(e)) from None
    except ValueError as e:  # TilingError: a layer nothing fits
        raise CliError(f"tuning failed: {first_line(e)}") from None
    finally:
        bar.close()
    totals = network_totals(rows) if args.network else None
    if args.format == "json":
        return json.dumps(tune_document(hw.name, rows, totals), indent=2) + "\n"
    if args.format == "csv":
        return format_csv(rows) if totals is None else format_csv(totals, NETWORK_COLUMNS)
    table = format_table(rows)
    return table if totals is None else f"{table}\n{format_networks(totals)}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ascend-tune``; rejected requests, interrupts, a closed standard output and
    internal errors end as ``tools/errors.run_tool`` says."""
    return run_tool(PROG, lambda: _main(argv), argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    check_no_empty_values(parser, args)
    if args.ray is None and args.ray_timeout != RAY_TIMEOUT:
        raise CliError("--ray-timeout goes with --ray", exit_code=2)
    write_output(args.output, run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
