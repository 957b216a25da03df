"""The cost model's timelines as a Chrome trace: open it in Perfetto or chrome://tracing.

``write_trace(report, path)`` writes the JSON trace-event format (the "JSON Object Format" of
the Trace Event Format document that ui.perfetto.dev and chrome://tracing both load):

* one process per core (block of the launch), named ``core 3`` (``launch 2 core 3`` when
  several launches are traced: they are laid out one after the other in time);
* one thread (track) for the scalar unit, S, then one per pipe, named and ordered MTE2, MTE1,
  M, FIX;
* one complete event (``"ph": "X"``) per slice of the core's timeline: ``ts`` and ``dur`` in
  microseconds at the report's clock (``figures.clock_hz``), the op name as its name
  (``ascend.mmad``), and in ``args`` the op's location (``runtime/locations.describe_op``), its
  bytes, its shape (m, n, k for an mmad or a load3d), its start and end in cycles, what it
  waited for and, on the critical path, the cycles of the path it covers. A slice with a
  ``label`` (an aggregated span of a loop: iterations extrapolated or replayed by the cost-only
  mode) is named by its label and has ``aggregated: true``; inside a replayed iteration's span,
  the instructions of the iteration it replays (and the aggregated spans of the loops it ran)
  are complete events of their own, nested in it (``replayed: true``), so the span opens like
  any other part of the timeline;
* on the S track, one complete event per busy span of the scalar unit (``issue``: issuing
  instructions and index arithmetic; the gaps are its stalls on a full pipe queue);
* one instant event (``"ph": "i"``, thread scope) per flag: ``set_flag MTE2->MTE1 #0`` on the
  source pipe's track when it fires, ``wait_flag MTE2->MTE1 #0`` on the destination's when the
  flag arrives for it;
* flow events (``"ph": "s"`` / ``"f"``, bound to their slices, one id per hand-over) that follow
  the core's critical path (``Timeline.critical_chain``) from its first slice to its last;
* counter events (``"ph": "C"``, ``runtime/reports/counters.py``): the bytes in use of each
  on-chip memory (``L1 bytes``, ``L0A bytes``, ...) and the core's GM bandwidth (``GM GB/s``).
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
from itertools import pairwise
from pathlib import Path
from typing import Any

from xdsl.ir import Operation

from ascend_xdsl.hw.isa import Pipe
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.runtime.cost.report import CoreCost, CostReport
from ascend_xdsl.runtime.cost.timing import TIMED_PIPES, ChainLink, Slice
from ascend_xdsl.runtime.reports.counters import Steps, gm_bandwidth, occupancy
from ascend_xdsl.runtime.reports.output import write_atomically

#: The track of each pipe inside a core's process (also their order on screen).
PIPE_TRACKS: dict[Pipe, int] = {pipe: i + 1 for i, pipe in enumerate(TIMED_PIPES)}

SCALAR_TRACK = len(TIMED_PIPES) + 1
"""The scalar unit's track (shown first)."""

FLOW_NAME = "critical path"

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
    """What a slice's event shows when selected (see the module docstring)."""
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


class _Core:
    """The events of one core's process, at a time offset (the launches before it)."""

    def __init__(
        self, pid: int, offset: float, us_per_cycle: float, clock_hz: float, where: _Locations
    ) -> None:
        self.pid, self.offset, self.us, self.clock_hz = pid, offset, us_per_cycle, clock_hz
        self.where = where
        self.events: list[dict[str, Any]] = []
        self._flows = 0

    def ts(self, cycles: float) -> float:
        return (self.offset + cycles) * self.us

    def complete(self, s: Slice, shift: float = 0.0, **extra: Any) -> None:
        start, end = self.offset + shift + s.start, self.offset + shift + s.end
        args = _slice_args(s, (start, end), self.where)
        args.update(extra)
        self.events.append(
            {
                "name": _name(s),
                "cat": str(s.pipe),
                "ph": "X",
                "pid": self.pid,
                "tid": PIPE_TRACKS.get(s.pipe, SCALAR_TRACK),
                "ts": start * self.us,
                "dur": (end - start) * self.us,
                "args": args,
            }
        )

    def flows(self, chain: Sequence[ChainLink]) -> None:
        """One flow per hand-over of the critical path, from the slice waited for (bound at
        its start, where no earlier slice of its track can enclose it) to the one that waited
        (bound where it starts)."""
        ordered = list(reversed(chain))
        for before, after in pairwise(ordered):
            self._flows += 1
            flow = self.pid * 1_000_000 + self._flows
            for ph, s in (("s", before.slice), ("f", after.slice)):
                event = {
                    "name": FLOW_NAME,
                    "cat": "critical",
                    "ph": ph,
                    "id": flow,
                    "pid": self.pid,
                    "tid": PIPE_TRACKS.get(s.pipe, SCALAR_TRACK),
                    "ts": self.ts(s.start),
                }
                if ph == "f":
                    event["bp"] = "e"
                self.events.append(event)

    def counter(self, name: str, steps: Steps, key: str, scale: float = 1.0) -> None:
        for t, value in steps:
            self.events.append(
                {
                    "name": name,
                    "ph": "C",
                    "pid": self.pid,
                    "ts": self.ts(t),
                    "args": {key: value * scale},
                }
            )

    def core(self, core: CoreCost) -> None:
        timeline = core.timeline
        if timeline is None:
            return
        chain = timeline.critical_chain()
        on_path = {link.index: link.cycles for link in chain}
        for i, s in enumerate(timeline.slices):
            if i in on_path:
                self.complete(s, critical_cycles=on_path[i])
            else:
                self.complete(s)
        for replay in timeline.replayed:
            for s in replay.slices:
                self.complete(s, replay.shift, replayed=True)
        for start, end in timeline.scalar_spans:
            self.events.append(
                {
                    "name": "issue",
                    "cat": "S",
                    "ph": "X",
                    "pid": self.pid,
                    "tid": SCALAR_TRACK,
                    "ts": self.ts(start),
                    "dur": (end - start) * self.us,
                    "args": {"start_cycles": self.offset + start, "cycles": end - start},
                }
            )
        for mark in timeline.flags:
            track = mark.src if mark.kind == "set_flag" else mark.dst
            self.events.append(
                {
                    "name": f"{mark.kind} {mark.src}->{mark.dst} #{mark.event}",
                    "cat": "flag",
                    "ph": "i",
                    "s": "t",
                    "pid": self.pid,
                    "tid": PIPE_TRACKS.get(track, SCALAR_TRACK),
                    "ts": self.ts(mark.at),
                    "args": {"cycles": self.offset + mark.at, "issued_cycles": mark.issued},
                }
            )
        self.flows(chain)
        for memory, steps in occupancy(timeline).items():
            self.counter(f"{memory} bytes", steps, "bytes")
        self.counter("GM GB/s", gm_bandwidth(timeline), "GB/s", self.clock_hz / 1e9)


def trace_events(reports: CostReport | Sequence[CostReport]) -> list[dict[str, Any]]:
    """The trace events of one launch's report, or of several launches one after the other."""
    launches = [reports] if isinstance(reports, CostReport) else list(reports)
    many = len(launches) > 1
    events: list[dict[str, Any]] = []
    where = _Locations()
    offset = 0.0  # cycles of the launches before this one
    for launch, report in enumerate(launches):
        clock = report.figures.clock_hz
        for core in report.cores:
            pid = launch * LAUNCH_PID_STRIDE + core.block if many else core.block
            name = f"launch {launch + 1} core {core.block}" if many else f"core {core.block}"
            events.append(_meta("process_name", pid, 0, {"name": name}))
            events.append(_meta("process_sort_index", pid, 0, {"sort_index": pid}))
            tracks = {**{str(p): tid for p, tid in PIPE_TRACKS.items()}, "S": SCALAR_TRACK}
            for track, tid in tracks.items():
                order = 0 if tid == SCALAR_TRACK else tid
                events.append(_meta("thread_name", pid, tid, {"name": track}))
                events.append(_meta("thread_sort_index", pid, tid, {"sort_index": order}))
            writer = _Core(pid, offset, 1e6 / clock, clock, where)
            writer.core(core)
            events += writer.events
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
