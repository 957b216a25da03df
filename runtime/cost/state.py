"""A core's timing state between two instructions, as named values with the arithmetic the
cost-only mode needs.

``Timeline.snapshot()`` (``runtime/cost/timing.py``) returns a :class:`TimelineState`; the
cost-only mode (``runtime/cost/cost_only.py``) takes the difference of two states (what one loop
iteration did), compares differences, keys its memo of timed iterations by a state relative
to its issue clock, and hands a difference back to ``Timeline.advance`` (extrapolate it) or a
recorded state to ``Timeline.restore`` (replay it). A state has three parts:

* :class:`Shape`, what must match for two states to compare: which pipes a ``wait_flag``
  holds, how many instructions each pipe's queue holds, how many events are in flight per
  (src, dst, id);
* :class:`Clocks`, the times: the issue clock, each pipe's free time, the hold times, the start
  times of the queued instructions and the arrival times of the events in flight;
* :class:`Counters`, what only adds up: scalar ops, FLOPs, GM bytes, busy cycles and
  instructions per pipe.

A difference of two states has the same three parts (times are then durations).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from math import isclose

from ascend_xdsl.hw.isa import Pipe

TIMED_PIPES: tuple[Pipe, ...] = (Pipe.MTE2, Pipe.MTE1, Pipe.M, Pipe.FIX)
"""The pipes of a Cube-only dW kernel; S (the scalar unit) is the issue clock."""

EventKey = tuple[Pipe, Pipe, int]


REL, ABS = 1e-9, 1e-6
"""The tolerances within which two changes of the timing state count as equal."""


@dataclass(frozen=True)
class Shape:
    """The structure of a timing state (see the module docstring)."""

    holds: tuple[Pipe, ...]
    """The pipes a wait_flag holds, sorted."""
    queues: tuple[int, ...]
    """The instructions in each timed pipe's queue (``TIMED_PIPES`` order)."""
    events: tuple[tuple[EventKey, int], ...]
    """The events in flight: (src, dst, id) and how many, sorted."""


@dataclass(frozen=True)
class Clocks:
    """The times of a timing state (or their change), laid out as its :class:`Shape`."""

    issue: float
    free: tuple[float, ...]
    """Per timed pipe: when it is free."""
    holds: tuple[float, ...]
    """Per held pipe (``Shape.holds``): until when."""
    queues: tuple[tuple[float, ...], ...]
    """Per timed pipe: the start times of its queued instructions."""
    events: tuple[tuple[float, ...], ...]
    """Per event key in flight (``Shape.events``): the arrival times."""

    # The cost-only mode compares and subtracts thousands of states per launch: the arithmetic
    # below is written out as list comprehensions, which is several times faster than mapping a
    # function over the fields.

    def minus(self, other: Clocks) -> Clocks:
        return Clocks(
            self.issue - other.issue,
            tuple([a - b for a, b in zip(self.free, other.free, strict=True)]),
            tuple([a - b for a, b in zip(self.holds, other.holds, strict=True)]),
            tuple(
                [
                    tuple([a - b for a, b in zip(x, y, strict=True)])
                    for x, y in zip(self.queues, other.queues, strict=True)
                ]
            ),
            tuple(
                [
                    tuple([a - b for a, b in zip(x, y, strict=True)])
                    for x, y in zip(self.events, other.events, strict=True)
                ]
            ),
        )

    def shifted(self, base: float) -> Clocks:
        """Every time minus ``base``."""
        return Clocks(
            self.issue - base,
            tuple([a - base for a in self.free]),
            tuple([a - base for a in self.holds]),
            tuple([tuple([a - base for a in x]) for x in self.queues]),
            tuple([tuple([a - base for a in x]) for x in self.events]),
        )

    def later(self) -> list[float]:
        """Every time but the issue clock (the free, hold, queue and event times), in order."""
        return [
            *self.free,
            *self.holds,
            *chain.from_iterable(self.queues),
            *chain.from_iterable(self.events),
        ]

    def close_to(self, other: Clocks) -> bool:
        if not isclose(self.issue, other.issue, rel_tol=REL, abs_tol=ABS):
            return False
        return all(
            [
                isclose(a, b, rel_tol=REL, abs_tol=ABS)
                for a, b in zip(self.later(), other.later(), strict=True)
            ]
        )

    def key(self) -> tuple[float, ...]:
        """The times relative to the issue clock, a time before it counting as 0 (nothing
        starts before its issue, so it can no longer matter). Most times (the started
        instructions of the queues) are behind the issue clock: they all count as 0 without
        being rounded."""
        base = self.issue
        return tuple([round(v - base, 6) if v > base else 0.0 for v in self.later()])


@dataclass(frozen=True)
class Counters:
    """What a timeline only adds up (or its growth)."""

    scalar_ops: int
    mmad_flops: int
    gm_bytes: int
    busy: tuple[float, ...]
    """Busy cycles per timed pipe."""
    count: tuple[int, ...]
    """Instructions per timed pipe."""

    def minus(self, other: Counters) -> Counters:
        return Counters(
            self.scalar_ops - other.scalar_ops,
            self.mmad_flops - other.mmad_flops,
            self.gm_bytes - other.gm_bytes,
            tuple(a - b for a, b in zip(self.busy, other.busy, strict=True)),
            tuple(a - b for a, b in zip(self.count, other.count, strict=True)),
        )

    def values(self) -> tuple[float, ...]:
        return (self.scalar_ops, self.mmad_flops, self.gm_bytes, *self.busy, *self.count)

    def close_to(self, other: Counters) -> bool:
        pairs = zip(self.values(), other.values(), strict=True)
        return all([isclose(a, b, rel_tol=REL, abs_tol=ABS) for a, b in pairs])

    def busiest(self) -> Pipe:
        """The timed pipe with the most busy cycles (the first of equals)."""
        return max(zip(TIMED_PIPES, self.busy, strict=True), key=lambda pb: pb[1])[0]


@dataclass(frozen=True)
class TimelineState:
    """A timeline's state (``Timeline.snapshot``), or the change between two states."""

    shape: Shape
    clocks: Clocks
    counters: Counters

    def minus(self, before: TimelineState) -> TimelineState | None:
        """The change since ``before``; None if the two differ in shape."""
        if self.shape != before.shape:
            return None
        return TimelineState(
            self.shape,
            self.clocks.minus(before.clocks),
            self.counters.minus(before.counters),
        )

    def relative_to(self, entry: TimelineState) -> TimelineState:
        """This (exit) state as a record of what happened since ``entry``: times relative to
        the entry's issue clock, counters as their growth (``Timeline.restore`` replays it)."""
        return TimelineState(
            self.shape,
            self.clocks.shifted(entry.clocks.issue),
            self.counters.minus(entry.counters),
        )

    def close_to(self, other: TimelineState) -> bool:
        return self.clocks.close_to(other.clocks) and self.counters.close_to(other.counters)
