"""A core's timing state between two instructions, as named values with the arithmetic the
cost-only mode needs.

``Timeline.snapshot()`` (``runtime/cost/timing.py``) returns a :class:`TimelineState`; the
cost-only mode (``runtime/cost/cost_only.py``) takes the difference of two states (what one loop
iteration did), compares differences, keys its memo of timed iterations by a state relative
to its issue clock, and hands a difference back to ``Timeline.advance`` (extrapolate it) or a
recorded state to ``Timeline.restore`` (replay it). A state has three parts:

* :class:`Shape`, what must match for two states to compare: which pipes a ``wait_flag``
  holds, how many instructions each pipe's queue holds, how many events are in flight per
  (src, dst, id), how many GM tensors the traffic is counted for and which of them the launch
  has swept once (their copies run at another share of the bandwidth);
* :class:`Clocks`, the times: the issue clock, each pipe's free and completion times, the hold
  times, the start times of the queued instructions and the arrival times of the events in
  flight;
* :class:`Counters`, what only adds up: scalar ops, FLOPs, GM bytes (in all and per GM
  tensor), busy cycles and instructions per pipe.

A difference of two states has the same three parts (times are then durations). They are named
tuples: the cost-only mode makes thousands of them per launch, and a frozen dataclass costs
several times as much to build.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import isclose
from typing import NamedTuple

from ascend_xdsl.hw.isa import Pipe

TIMED_PIPES: tuple[Pipe, ...] = (Pipe.MTE2, Pipe.MTE1, Pipe.M, Pipe.FIX)
"""The pipes of a Cube-only dW kernel; S (the scalar unit) is the issue clock."""

EventKey = tuple[Pipe, Pipe, int]


REL, ABS = 1e-9, 1e-6
"""The tolerances within which two changes of the timing state count as equal."""


class Shape(NamedTuple):
    """The structure of a timing state (see the module docstring)."""

    holds: tuple[Pipe, ...]
    """The pipes a wait_flag holds, sorted."""
    queues: tuple[int, ...]
    """The instructions in each timed pipe's queue (``TIMED_PIPES`` order)."""
    events: tuple[tuple[EventKey, int], ...]
    """The events in flight: (src, dst, id) and how many, sorted."""
    tensors: int = 0
    """How many GM tensors the core's traffic is counted for so far (``Counters.tensors``)."""
    warm: tuple[tuple[int, float], ...] = ()
    """The GM tensors the launch has swept once, with the share of their re-reads that hits
    in L2 (``Timeline.warm``): a copy's bandwidth depends on it."""


class Clocks(NamedTuple):
    """The times of a timing state (or their change): the issue clock and, in the order of the
    state's :class:`Shape`, every later time (``TimelineState`` names them: ``free``, ``holds``,
    ``queues``, ``events``). The cost-only mode compares and subtracts thousands of states per
    launch, so the times are one flat tuple and the arithmetic one comprehension each."""

    issue: float
    later: tuple[float, ...]
    """Per timed pipe when it is free; per timed pipe when its last instruction completes; per
    held pipe until when; per timed pipe the start times of its queued instructions; per event
    key in flight the arrival times."""

    def minus(self, other: Clocks) -> Clocks:
        pairs = zip(self.later, other.later, strict=True)
        return Clocks(self.issue - other.issue, tuple([a - b for a, b in pairs]))

    def shifted(self, base: float) -> Clocks:
        """Every time minus ``base``."""
        return Clocks(self.issue - base, tuple([a - base for a in self.later]))

    def close_to(self, other: Clocks) -> bool:
        if not isclose(self.issue, other.issue, rel_tol=REL, abs_tol=ABS):
            return False
        pairs = zip(self.later, other.later, strict=True)
        return all([isclose(a, b, rel_tol=REL, abs_tol=ABS) for a, b in pairs])

    def key(self) -> tuple[float, ...]:
        """The times relative to the issue clock, a time before it counting as 0 (nothing
        starts before its issue, so it can no longer matter). Most times (the started
        instructions of the queues) are behind the issue clock: they all count as 0 without
        being rounded."""
        base = self.issue
        return tuple([round(v - base, 6) if v > base else 0.0 for v in self.later])


class Counters(NamedTuple):
    """What a timeline only adds up (or its growth)."""

    scalar_ops: int
    mmad_flops: int
    gm_bytes: int
    busy: tuple[float, ...]
    """Busy cycles per timed pipe."""
    count: tuple[int, ...]
    """Instructions per timed pipe."""
    tensors: tuple[int, ...] = ()
    """GM bytes per GM tensor (``Timeline.tensor_bytes``: position 0 unknown, then the
    kernel's arguments), for the L2 model."""

    def minus(self, other: Counters) -> Counters:
        return Counters(
            self.scalar_ops - other.scalar_ops,
            self.mmad_flops - other.mmad_flops,
            self.gm_bytes - other.gm_bytes,
            tuple(a - b for a, b in zip(self.busy, other.busy, strict=True)),
            tuple(a - b for a, b in zip(self.count, other.count, strict=True)),
            tuple(a - b for a, b in zip(self.tensors, other.tensors, strict=True)),
        )

    def values(self) -> tuple[float, ...]:
        return (
            self.scalar_ops, self.mmad_flops, self.gm_bytes, *self.busy, *self.count, *self.tensors
        )  # fmt: skip

    def close_to(self, other: Counters) -> bool:
        pairs = zip(self.values(), other.values(), strict=True)
        return all([isclose(a, b, rel_tol=REL, abs_tol=ABS) for a, b in pairs])

    def busiest(self) -> Pipe:
        """The timed pipe with the most busy cycles (the first of equals)."""
        return max(zip(TIMED_PIPES, self.busy, strict=True), key=lambda pb: pb[1])[0]


class TimelineState(NamedTuple):
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

    # -- the times by name ---------------------------------------------------------------------

    def free(self) -> tuple[float, ...]:
        """Per timed pipe: when it is free."""
        return self.clocks.later[: len(TIMED_PIPES)]

    def done(self) -> tuple[float, ...]:
        """Per timed pipe: when its last instruction completes."""
        return self.clocks.later[len(TIMED_PIPES) : 2 * len(TIMED_PIPES)]

    def holds(self) -> tuple[float, ...]:
        """Per held pipe (``shape.holds``): until when."""
        at = 2 * len(TIMED_PIPES)
        return self.clocks.later[at : at + len(self.shape.holds)]

    def queues(self) -> list[tuple[float, ...]]:
        """Per timed pipe: the start times of its queued instructions."""
        at = 2 * len(TIMED_PIPES) + len(self.shape.holds)
        return _split(self.clocks.later, at, self.shape.queues)

    def events(self) -> list[tuple[float, ...]]:
        """Per event key in flight (``shape.events``): the arrival times."""
        at = 2 * len(TIMED_PIPES) + len(self.shape.holds) + sum(self.shape.queues)
        return _split(self.clocks.later, at, [n for _, n in self.shape.events])


def _split(values: tuple[float, ...], at: int, lengths: Sequence[int]) -> list[tuple[float, ...]]:
    parts = []
    for n in lengths:
        parts.append(values[at : at + n])
        at += n
    return parts
