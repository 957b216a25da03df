"""The cost model's timelines as a Chrome trace: open it in Perfetto or chrome://tracing.

``write_trace(report, path)`` writes the JSON trace-event format (the "JSON Object Format" of
the Trace Event Format document that ui.perfetto.dev and chrome://tracing both load):

* one process per core (block of the launch), named ``core 3`` (``launch 2 core 3`` when
  several launches are traced: they are laid out one after the other in time);
* one thread (track) per pipe, named and ordered MTE2, MTE1, M, FIX;
* one complete event (``"ph": "X"``) per slice of the core's timeline: ``ts`` and ``dur`` in
  microseconds at the report's clock (``figures.clock_hz``), the op name as its name
  (``ascend.mmad``), and in ``args`` the op's location (``runtime/locations.describe_op``), its
  bytes, its shape (m, n, k for an mmad or a load3d), its start and end in cycles and what it
  waited for. A slice with a ``label`` (an aggregated, extrapolated span of a loop) is named by
  its label and has ``aggregated: true``;
* when the report costs the whole operator (``runtime/cost/operator.py``), one more process,
  ``host``, on top: one track, ``stream``, with the kernels the host launches one after the
  other (TransData x, TransData dy, MemSet, the dW kernel, TransData dW), each with its seconds
  and cycles; its times are the operator's, from its first kernel, while the cores' times are
  the dW kernel's own.

The file is written atomically: to a temporary file in the same folder, renamed over ``path``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xdsl.ir import Operation

from ascend_xdsl.hw.isa import Pipe
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.cost.timing import TIMED_PIPES, Slice
from ascend_xdsl.runtime.reports.output import write_atomically

#: The track of each pipe inside a core's process (also their order on screen).
PIPE_TRACKS: dict[Pipe, int] = {pipe: i + 1 for i, pipe in enumerate(TIMED_PIPES)}

#: Process ids of a launch's cores when several launches are traced: launch * this + block.
LAUNCH_PID_STRIDE = 1000

#: The process id of the host's kernel sequence (sorted above every core).
HOST_PID = 999_999


class _Locations:
    """``describe_op`` of each op, once per op (a loop's op appears in many slices)."""

    def __init__(self) -> None:
        self._names: dict[int, str] = {}

    def __call__(self, op: Operation) -> str:
        key = id(op)
        if key not in self._names:
            self._names[key] = describe_op(op)
        return self._names[key]


def _slice_args(s: Slice, cycles: tuple[float, float], where: _Locations) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if s.op is not None:
        args["location"] = where(s.op)
    work = s.work
    if work is not None:
        args["bytes"] = work.bytes
        shape = {k: v for k, v in (("m", work.m), ("n", work.n), ("k", work.k)) if v}
        if shape:
            args["shape"] = shape
    args["start_cycles"] = cycles[0]
    args["end_cycles"] = cycles[1]
    args["cycles"] = s.end - s.start
    args["waited_for"] = "issue" if s.cause_pipe == Pipe.S else str(s.cause_pipe)
    if s.label is not None:
        args["aggregated"] = True
        if s.op is not None:
            args["op"] = s.op.name
    return args


def _name(s: Slice) -> str:
    if s.label is not None:
        return s.label
    return s.op.name if s.op is not None else f"{s.pipe} instruction"


def trace_events(reports: CostReport | Sequence[CostReport]) -> list[dict[str, Any]]:
    """The trace events of one launch's report, or of several launches one after the other."""
    launches = [reports] if isinstance(reports, CostReport) else list(reports)
    many = len(launches) > 1
    events: list[dict[str, Any]] = []
    where = _Locations()
    offset = 0.0  # cycles of the launches before this one
    for launch, report in enumerate(launches):
        us_per_cycle = 1e6 / report.figures.clock_hz
        for core in report.cores:
            pid = launch * LAUNCH_PID_STRIDE + core.block if many else core.block
            name = f"launch {launch + 1} core {core.block}" if many else f"core {core.block}"
            events.append(_meta("process_name", pid, 0, {"name": name}))
            events.append(_meta("process_sort_index", pid, 0, {"sort_index": pid}))
            for pipe, tid in PIPE_TRACKS.items():
                events.append(_meta("thread_name", pid, tid, {"name": str(pipe)}))
                events.append(_meta("thread_sort_index", pid, tid, {"sort_index": tid}))
            if core.timeline is None:
                continue
            for s in core.timeline.slices:
                start, end = offset + s.start, offset + s.end
                events.append(
                    {
                        "name": _name(s),
                        "cat": str(s.pipe),
                        "ph": "X",
                        "pid": pid,
                        "tid": PIPE_TRACKS.get(s.pipe, 0),
                        "ts": start * us_per_cycle,
                        "dur": (end - start) * us_per_cycle,
                        "args": _slice_args(s, (start, end), where),
                    }
                )
        offset += report.cycles
    if launches and launches[-1].operator is not None:
        events.extend(_host_events(launches[-1]))
    return events


def _host_events(report: CostReport) -> list[dict[str, Any]]:
    """The host's stream: every kernel of the operator, one after the other."""
    assert report.operator is not None
    events = [
        _meta("process_name", HOST_PID, 0, {"name": "host"}),
        _meta("process_sort_index", HOST_PID, 0, {"sort_index": -1}),
        _meta("thread_name", HOST_PID, 1, {"name": "stream"}),
    ]
    t = 0.0
    for kernel in report.operator.kernels:
        events.append(
            {
                "name": kernel.name,
                "cat": "kernel",
                "ph": "X",
                "pid": HOST_PID,
                "tid": 1,
                "ts": t * 1e6,
                "dur": kernel.seconds * 1e6,
                "args": {"seconds": kernel.seconds, "cycles": kernel.cycles},
            }
        )
        t += kernel.seconds
    return events


def _meta(name: str, pid: int, tid: int, args: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "ph": "M", "pid": pid, "tid": tid, "args": args}


def trace_document(reports: CostReport | Sequence[CostReport]) -> dict[str, Any]:
    """The whole trace file: the events and, in ``otherData``, the report's headline figures."""
    launches = [reports] if isinstance(reports, CostReport) else list(reports)
    other: dict[str, Any] = {}
    if launches:
        last = launches[-1]
        other = {
            "hw": last.hw,
            "clock_hz": last.figures.clock_hz,
            "launches": len(launches),
            "cycles": [r.cycles for r in launches],
        }
    return {"traceEvents": trace_events(launches), "displayTimeUnit": "ns", "otherData": other}


def write_trace(report: CostReport | Sequence[CostReport], path: str | Path) -> None:
    """Write the trace of ``report`` (or of several launches' reports, in order) to ``path``,
    atomically. An unwritable path raises ``OSError`` and leaves no file."""
    text = json.dumps(trace_document(report), separators=(",", ":"))
    write_atomically(path, text + "\n")
