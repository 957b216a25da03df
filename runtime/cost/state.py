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

import operator
from collections.abc import Sequence
from math import isclose
from typing import NamedTuple

from ascend_xdsl.hw.isa import Pipe

TIMED_PIPES: tuple[Pipe, ...] = (Pipe.MTE2, Pipe.MTE1, Pipe.M, Pipe.FIX)
"""The pipes of a Cube-only dW kernel; S (the scalar unit) is the issue clock."""

EventKey = tuple[Pipe, Pipe, int]


REL, ABS = 1e-9, 1e-6
"""The tolerances within which two changes of the timing state count as equal."""

KEY_DIGITS = 6
"""A state's key (:meth:`Clocks.key`) tells times apart to this many decimals of a cycle."""

_SCALE = 10.0**KEY_DIGITS
_EXACT_BELOW = 2.0**40
"""Scaled times below this are far enough from float's precision for the fast rounding of
:func:`_key_units` (its product is off by at most 2**-13 there)."""
_TIE_MARGIN = 1e-3
"""A scaled time within this of a half is rounded by ``round`` itself (see :func:`_key_units`)."""


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
        return Clocks(self.issue - other.issue, _sub(self.later, other.later))

    def shifted(self, base: float) -> Clocks:
        """Every time minus ``base``."""
        return Clocks(self.issue - base, tuple([a - base for a in self.later]))

    def close_to(self, other: Clocks) -> bool:
        if not isclose(self.issue, other.issue, rel_tol=REL, abs_tol=ABS):
            return False
        pairs = zip(self.later, other.later, strict=True)
        return all([isclose(a, b, rel_tol=REL, abs_tol=ABS) for a, b in pairs])

    def key(self) -> tuple[int, ...]:
        """The times relative to the issue clock, to :data:`KEY_DIGITS` decimals (as integer
        millionths of a cycle), a time before it counting as 0 (nothing starts before its
        issue, so it can no longer matter). Two keys are equal exactly when every
        ``round(v - issue, 6)`` is (:func:`_key_units`)."""
        return _key_units(self.issue, self.later)


def _key_units(base: float, later: tuple[float, ...]) -> tuple[int, ...]:
    """Per time ``v``: 0 if ``v <= base``, else the integer ``k`` with ``round(v - base, 6) ==
    k / 10**6`` (Python's ``round``: the exact difference correctly rounded, ties to even).
    The cost-only mode keys its memo by these, one key per loop iteration it runs, and
    ``round`` on seventy floats was most of a key's cost. Here each difference is scaled by
    10**6 in one product, which is off from the exact scaled difference by at most 2**-13
    below :data:`_EXACT_BELOW`: wherever it is farther than :data:`_TIE_MARGIN` from a half,
    rounding it half up gives the same integer. The rare ones that close to a half (or that
    large) go through ``round`` itself."""
    lo, hi = _TIE_MARGIN - 0.5, 0.5 - _TIE_MARGIN
    return tuple(
        [
            (k if lo < scaled - k < hi and scaled < _EXACT_BELOW else _rounded(v - base))
            if (scaled := (v - base) * _SCALE) > 0.0 and (k := int(scaled + 0.5)) >= 0
            else 0
            for v in later
        ]
    )


def _rounded(d: float) -> int:
    """``round(d, 6)`` in millionths (the slow, exact path of :func:`_key_units`)."""
    return round(round(d, KEY_DIGITS) * _SCALE)


def repeats(a: TimelineState, b: TimelineState, c: TimelineState) -> bool:
    """Whether three states of one shape advanced by the same amount: ``a.minus(b)`` is
    close to ``b.minus(c)`` (:meth:`TimelineState.close_to`). The same differences and the same
    test, without building the two differences: the cost-only mode asks this after every loop
    iteration it runs, and the answer is almost always no, at the first time that differs."""
    if a.shape != b.shape or b.shape != c.shape:
        return False
    ca, cb, cc = a.clocks, b.clocks, c.clocks
    if not _same_steps((ca.issue,), (cb.issue,), (cc.issue,)):
        return False
    if not _same_steps(ca.later, cb.later, cc.later):
        return False
    na, nb, nc = a.counters, b.counters, c.counters
    if len(na.tensors) != len(nb.tensors) or len(nb.tensors) != len(nc.tensors):
        raise ValueError("the states count different GM tensors")
    return _same_steps(na.values(), nb.values(), nc.values())


def _same_steps(a: Sequence[float], b: Sequence[float], c: Sequence[float]) -> bool:
    """``isclose(x - y, y - z)`` for every position (the tolerances of ``close_to``)."""
    for x, y, z in zip(a, b, c, strict=True):
        d1, d2 = x - y, y - z
        if d1 != d2 and not isclose(d1, d2, rel_tol=REL, abs_tol=ABS):
            return False
    return True


def _sub(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    if len(a) != len(b):
        raise ValueError("the states have different lengths")
    return tuple(map(operator.sub, a, b))


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
            _sub(self.busy, other.busy),
            _sub(self.count, other.count),
            _sub(self.tensors, other.tensors),
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
