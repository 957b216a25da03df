"""Counters over a core's timeline: bytes in use per on-chip memory, and GM bandwidth.

Both are step functions of time (cycles), drawn by the trace (``runtime/reports/trace.py``) as
counter tracks. They are computed from the instructions timed one by one, each with its byte
ranges (``Slice.effects``), and the instructions of the loop iterations the cost-only mode
replayed (``Timeline.replayed``); an extrapolated span of a loop has no instructions, so the
counters do not change across it.

* Buffer occupancy. A range of an on-chip memory is in use from the start of the instruction
  that writes it to the end of the last instruction that reads it before it is written again
  (the flags order a buffer's write, its reads and its next write, so time order is the
  program's order for each range). An instruction that reads and writes the same range (an
  mmad accumulating into L0C) continues it. A range written and never read is in use while
  it is written.
* GM bandwidth. An instruction that moves ``b`` bytes to or from GM (``gm_bytes_of``) in ``d``
  cycles runs at ``b / d`` bytes per cycle over its span; the counter is their sum, in GB/s at
  the clock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ascend_xdsl.hw.isa import Span
from ascend_xdsl.runtime.cost.timing import Slice, Timeline, gm_bytes_of

Steps = list[tuple[float, float]]
"""(time in cycles, value from then on), in time order, one entry per change."""


def timed_slices(timeline: Timeline) -> Iterator[tuple[float, Slice]]:
    """Every instruction timed one by one, with the shift to add to its times: the timeline's
    own, then those of each replayed loop iteration (at the replay's time)."""
    for s in timeline.slices:
        if s.effects is not None:
            yield 0.0, s
    for replay in timeline.replayed:
        for s in replay.slices:
            if s.effects is not None:
                yield replay.shift, s


@dataclass
class _Live:
    lo: int
    hi: int
    start: float
    end: float
    """The end of its write or of its last read so far."""


def _overlaps(a: _Live, span: Span) -> bool:
    return a.lo < span.hi and span.lo < a.hi


def _steps(deltas: Iterable[tuple[float, float]]) -> Steps:
    out: Steps = []
    value = 0.0
    for t, d in sorted(deltas):
        value += d
        value = value if abs(value) > 1e-9 else 0.0  # what float sums leave of a return to 0
        if out and out[-1][0] == t:
            out[-1] = (t, value)
        else:
            out.append((t, value))
    return out


def occupancy(timeline: Timeline) -> dict[str, Steps]:
    """Per on-chip memory (L1, L0A, ...), the bytes in use over time (module docstring)."""
    timed = sorted(timed_slices(timeline), key=lambda shifted: shifted[0] + shifted[1].start)
    live: dict[str, list[_Live]] = defaultdict(list)
    deltas: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def close(memory: str, used: _Live, before: float) -> None:
        end = min(max(used.end, used.start), max(before, used.start))
        size = used.hi - used.lo
        deltas[memory] += [(used.start, size), (end, -size)]

    for shift, s in timed:
        assert s.effects is not None  # timed_slices gives only those
        start, end = s.start + shift, s.end + shift
        reads = [r for r in s.effects.reads if r.memory != "GM"]
        for w in s.effects.writes:
            if w.memory == "GM":
                continue
            ranges = live[w.memory]
            kept: list[_Live] = []
            continued = False
            for used in ranges:
                if not _overlaps(used, w):
                    kept.append(used)
                elif any(r.memory == w.memory and _overlaps(used, r) for r in reads):
                    used.end = max(used.end, end)  # read and written: accumulation goes on
                    kept.append(used)
                    continued = True
                else:
                    close(w.memory, used, start)
            if not continued:
                kept.append(_Live(w.lo, w.hi, start, end))
            live[w.memory] = kept
        for r in reads:
            for used in live[r.memory]:
                if _overlaps(used, r):
                    used.end = max(used.end, end)
    for memory, ranges in live.items():
        for used in ranges:
            close(memory, used, used.end)
    return {memory: _steps(d) for memory, d in sorted(deltas.items())}


def gm_bandwidth(timeline: Timeline) -> Steps:
    """Bytes per cycle moved to or from GM over time (module docstring)."""
    deltas: list[tuple[float, float]] = []
    for shift, s in timed_slices(timeline):
        assert s.effects is not None  # timed_slices gives only those
        moved = gm_bytes_of(s.effects)
        if moved and s.end > s.start:
            rate = moved / (s.end - s.start)
            deltas += [(s.start + shift, rate), (s.end + shift, -rate)]
    return _steps(deltas)
