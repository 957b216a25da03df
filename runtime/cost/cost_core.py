"""The cost-only machine: one block of a launch timed without its data, loops aggregated.

:class:`CostCore` is a :class:`~ascend_xdsl.runtime.machine.machine.Machine` like the data
machine, and binds every instruction through the same spec (``hw/instructions/``), but it
allocates no memory and moves nothing: each instruction goes through the same bounds check
as on the data machine (its byte ranges inside the slots and GM tensors its operands name,
``MachineBase.bounds``), and its effects are timed by the core's
:class:`~ascend_xdsl.runtime.cost.timing.Timeline`; flags go through the same flag model.

Loops. The compiled executor, translating with ``aggregate``, runs every ``scf.for`` without
loop-carried values through :meth:`CostCore.loop`: iterations run exactly until the timing
state (``Timeline.snapshot``, ``runtime/cost/state.py``, and the flag counts) advances by the
same amount in two consecutive periods, then the advance is extrapolated
(``Timeline.advance``) over the iterations whose signatures keep repeating the pattern, but
the last one, which runs exactly again. An iteration whose work, from the same relative state,
was timed before is replayed (``Timeline.restore``). Neither crosses the point where the launch
completes its first sweep of a GM tensor (``Timeline.cold_periods``): its copies change speed
there, so that iteration runs exactly. ``runtime/cost/cost_only.py`` runs the
launches.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from xdsl.ir import Operation

from ascend_xdsl.hw.instructions import DATA_INSTRUCTIONS, DataInstruction
from ascend_xdsl.runtime.cost.state import TimelineState, repeats
from ascend_xdsl.runtime.cost.timing import Slice, Timeline
from ascend_xdsl.runtime.machine.flags import FlagKey
from ascend_xdsl.runtime.machine.machine import BufferSpec, Handler, MachineBase
from ascend_xdsl.runtime.machine.values import Buffer

_MIN_TRIPS = 5
"""Loops shorter than this run exactly: a steady state needs four iterations to show."""

_MAX_ON_CHIP = 4096
"""Operand sets of on-chip instructions remembered per instruction and core (a kernel whose
operands never repeat starts over)."""

_PERIODS = (1, 2)
"""The periods of steady state looked for: every iteration, or every second (ping-pong loops
alternate slots and event ids)."""


class CycleLimitExceeded(Exception):
    """A launch is sure to take more than the ``cycle_limit`` it was timed against."""


FlagCounts = tuple[tuple[FlagKey, int], ...]


class _Change(NamedTuple):
    """What some iterations did to a core: the timeline's change and the growth of the flag
    counts (or, for a replay record, the exit state relative to the entry's issue clock)."""

    timeline: TimelineState
    flag_keys: tuple[FlagKey, ...]
    flag_growth: tuple[int, ...]
    detail: tuple[float, tuple[Slice, ...]] | None = None
    """For a replay record: the timed iteration's entry issue clock and its slices (what a
    replay stands for, in the reports)."""

    def close_to(self, other: _Change) -> bool:
        return self.flag_growth == other.flag_growth and self.timeline.close_to(other.timeline)

    def flags(self) -> FlagCounts:
        return tuple(zip(self.flag_keys, self.flag_growth, strict=True))


class _State(NamedTuple):
    """A core's timing state between two loop iterations: its timeline's and its flags'."""

    timeline: TimelineState
    flag_keys: tuple[FlagKey, ...]
    """The events used so far, sorted; with :attr:`flag_counts`, the flag model's counts."""
    flag_counts: tuple[int, ...]

    @staticmethod
    def of(core: CostCore) -> _State:
        keys, counts = core.flags.sorted_counts()
        return _State(core.line.snapshot(), keys, counts)

    def key(self) -> tuple[Any, ...]:
        """What the timing from here on depends on: the shape, the flag counts, and every time
        relative to the issue clock."""
        return (self.timeline.shape, self.timeline.clocks.key(), self.flag_keys, self.flag_counts)

    def _growth(self, before: _State) -> tuple[int, ...]:
        return tuple(map(operator.sub, self.flag_counts, before.flag_counts))

    def replayable_from(self, entry: _State) -> bool:
        """Whether what happened since ``entry`` can be recorded for replays (this is the exit
        state): :meth:`relative_to` is defined."""
        if self.flag_keys != entry.flag_keys:
            return False  # new event ids in use: the counts do not line up
        # a GM tensor counted from now on: the traffic does not line up
        return self.timeline.shape.tensors == entry.timeline.shape.tensors

    def relative_to(
        self, entry: _State, detail: tuple[float, tuple[Slice, ...]] | None = None
    ) -> _Change | None:
        """This (exit) state as a replayable record of what happened since ``entry`` (with
        the slices of the iteration, ``detail``, for the reports)."""
        if not self.replayable_from(entry):
            return None
        return _Change(
            self.timeline.relative_to(entry.timeline),
            self.flag_keys,
            self._growth(entry),
            detail,
        )

    def repeats(self, middle: _State, first: _State) -> bool:
        """Whether the change from ``first`` to ``middle`` repeated from ``middle`` to this
        state: ``self.minus(middle)`` is close to ``middle.minus(first)``, both defined
        (``state.repeats``, which builds neither difference)."""
        if self.flag_keys != middle.flag_keys or middle.flag_keys != first.flag_keys:
            return False
        if self._growth(middle) != middle._growth(first):
            return False
        return repeats(self.timeline, middle.timeline, first.timeline)

    def minus(self, before: _State) -> _Change | None:
        change = self.timeline.minus(before.timeline)
        if change is None or self.flag_keys != before.flag_keys:
            return None
        return _Change(change, self.flag_keys, self._growth(before))


class _Record:
    """A timed iteration in the replay memo, made into its :class:`_Change` (the exit state
    relative to the entry, and the iteration's slices) only when a replay first needs it.
    Most iterations recorded are never replayed (about two in three on the forward conv of
    8x512x16x112x112), and the states are immutable and the slices only appended to, so the
    change made later is the one that would have been made at once."""

    __slots__ = ("_change", "_entry", "_exit", "_first", "_issue", "_slices", "_stop")

    def __init__(
        self, exit: _State, entry: _State, issue: float, slices: list[Slice], first: int
    ) -> None:
        self._exit, self._entry, self._issue = exit, entry, issue
        self._slices, self._first, self._stop = slices, first, len(slices)
        self._change: _Change | None = None

    def change(self) -> _Change:
        change = self._change
        if change is None:
            detail = (self._issue, tuple(self._slices[self._first : self._stop]))
            change = self._change = self._exit.relative_to(self._entry, detail)
            assert change is not None  # recorded only when replayable_from
            del self._exit, self._entry, self._slices  # what the change was made of
        return change


def _steady(history: Sequence[_State], period: int) -> _Change | None:
    """The change over the last ``period`` iterations if it equals the change over the
    ``period`` before (same shape), else None."""
    if len(history) < 2 * period + 1:
        return None
    last, middle, first = history[-1], history[-1 - period], history[-1 - 2 * period]
    if not last.repeats(middle, first):
        return None
    return last.minus(middle)


@dataclass(eq=False)
class CostCore(MachineBase):
    """One block of a launch, timed without data (see the module docstring)."""

    cycle_limit: float = math.inf
    """Stop with :class:`CycleLimitExceeded` once this core is sure to take longer."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.timeline is None:
            raise ValueError("the cost-only machine needs a timeline")
        self.line: Timeline = self.timeline
        self._costs: dict[tuple[object, ...], tuple[Any, ...]] = {}
        self.replays: dict[tuple[Any, ...], _Record] = {}
        self._depth = 0
        self._entered = 0
        """How many loops this core has entered (to tell which iterations run loops)."""
        self.nesting: set[Callable[..., Any]] = set()
        """The short loops whose iterations run loops (by signature function)."""
        """How many aggregated loops (of at least two trips) are running around the current one."""
        """Timed iterations by (loop, signature, relative entry state): shared by the cores."""
        for spec in DATA_INSTRUCTIONS:
            self._handlers[spec] = self._timer(spec)

    def alloc_buffer(self, spec: BufferSpec) -> Buffer:
        self.reserve(spec)
        return Buffer(
            spec.memory, spec.offset, spec.slots, spec.stride, spec.dtype.itemsize, spec.count
        )

    def _timer(self, spec: DataInstruction) -> Handler:
        """The handler of ``spec``: bind, the bounds check of both machines
        (:meth:`~ascend_xdsl.runtime.machine.machine.MachineBase.bounds`), time. Instructions
        with the same geometry and on-chip addresses have the same effects (the GM offset
        changes only the GM range), so the effects are costed once per ``(geometry, chip)``;
        the key holds the geometry itself, so its identity in the key stays unique."""
        costs, timeline, bounds = self._costs, self.line, self.bounds
        # An instruction with no GM operand (load3d, load2d, mmad) binds, checks and costs as
        # a pure function of its operand values, which a kernel's inner loops repeat: each
        # set is done once per core (its buffers are this core's, so the values are too).
        on_chip: dict[tuple[Any, ...], tuple[Any, ...]] = {}

        def cost(values: tuple[Any, ...]) -> tuple[Any, ...]:
            bound = spec.bind(*values)
            bounds(spec, bound, values)
            key = (bound.geometry, bound.chip)
            hit = costs.get(key)
            if hit is None:
                hit = costs[key] = timeline.cost_of(spec.effects(bound))
            return hit

        def run(op: Operation, *values: Any) -> None:
            timeline.run(op, *cost(values))

        def run_on_chip(op: Operation, *values: Any) -> None:
            hit = on_chip.get(values)
            if hit is None:
                if len(on_chip) >= _MAX_ON_CHIP:
                    on_chip.clear()
                hit = on_chip[values] = cost(values)
            timeline.run(op, *hit)

        return run if spec.gm_operand is not None else run_on_chip

    def check_cycle_limit(self) -> None:
        """A pipe busy past :attr:`cycle_limit` means the core, and so the launch, takes
        longer: the caller only wants to know that (the tuner, against its best so far)."""
        if self.cycle_limit == math.inf:
            return  # no limit: skip the makespan, a max over every pipe, at every iteration
        t = self.line
        if t.cycles > self.cycle_limit:
            raise CycleLimitExceeded(f"block {self.block_idx} exceeds {self.cycle_limit} cycles")

    def finish(self) -> None:
        self.check_cycle_limit()
        super().finish()

    def release(self) -> None:
        """Drop the run's memos and handlers once the launch loop has taken this core's cost
        (or the run stopped). The handlers are closures over the core's bound methods, so a
        core is a reference cycle, and the cost-only run pauses the cycle collector
        (``ir/collector.paused``): without this, every core of the run, with its memo of
        bound and costed instructions and its share of the replay memo, stayed alive until
        the collection after the run, which then walked all of it (and an exception's
        traceback kept the core of a stopped run alive longer still). The timeline is the
        report's (``CoreCost.timeline``) and stays."""
        self._handlers = {}
        self._costs = {}
        self._bounded = {}
        self.replays = {}
        self.nesting = set()

    def _restore(self, record: _Change, label: str) -> None:
        self.line.restore(record.timeline, label, record.detail)
        self.flags.add(record.flags())

    def _advance(self, change: _Change, label: str, times: int) -> None:
        self.line.advance(change.timeline, label, times)
        self.flags.add(change.flags(), times)

    # -- loop aggregation ---------------------------------------------------------------------

    def loop(
        self,
        signature: Callable[..., tuple[Any, ...]],
        lb: int,
        ub: int,
        step: int,
        inputs: tuple[int, ...],
    ) -> Iterator[int]:
        """The iterations of an ``scf.for`` from ``lb`` to ``ub`` that must run; the others
        are extrapolated (see the module docstring).

        ``signature(iv, *inputs)`` gives what one iteration's timing depends on (the compiled
        executor generates it from the loop body). Once two consecutive advances of the
        timing state over ``period`` iterations are equal, and the sampled iterations'
        signatures repeat with that period, the following iterations that keep repeating the
        pattern are extrapolated; the loop runs on exactly where the pattern breaks (a tail, a
        padding boundary) and looks for the next steady state."""
        trips = range(lb, ub, step)
        n = len(trips)
        self._entered += 1
        if n < _MIN_TRIPS and not (self._depth and n > 1 and signature in self.nesting):
            for iv in trips:
                entered = self._entered
                yield iv
                if self._entered != entered:
                    self.nesting.add(signature)
            return
        # A short loop shows no steady state, but when it runs inside another loop and its
        # iterations run loops of their own, they are replayed (the forward walk nests N
        # tiles, kernel depths and Cin chunks, 2-4 trips each, around its k steps: run
        # exactly, each one re-entered its k-step loop, thousands of times a layer).
        periods = _PERIODS if n >= _MIN_TRIPS else ()
        self._depth += 1
        try:
            yield from self._iterations(signature, trips, inputs, periods)
        finally:
            self._depth -= 1

    def _iterations(
        self,
        signature: Callable[..., tuple[Any, ...]],
        trips: range,
        inputs: tuple[int, ...],
        periods: tuple[int, ...],
    ) -> Iterator[int]:
        n = len(trips)
        try:
            sigs = [signature(iv, *inputs) for iv in trips]
        except ArithmeticError:  # e.g. a division by zero in a branch not taken: just run it
            yield from trips
            return
        history = [_State.of(self)]
        i = 0
        while i < n:
            entry = history[-1]
            memo_key = (signature, sigs[i], entry.key())
            recorded = self.replays.get(memo_key)
            record = recorded.change() if recorded is not None else None
            if record is not None and self.line.cold_periods(record.timeline.counters.tensors):
                # This work, from this relative state, was timed before: replay its change.
                self._restore(record, "scf.for: iteration replayed")
                self.extrapolated += 1
                i += 1
                history.append(_State.of(self))
                self.check_cycle_limit()
            else:
                first, entry_issue = len(self.line.slices), self.line.issue
                yield trips[i]
                i += 1
                exit = _State.of(self)
                history.append(exit)
                self.check_cycle_limit()
                # an iteration that completed a tensor's first sweep did so at this core's
                # count of its bytes, which a replay elsewhere would not have
                swept = exit.timeline.shape.warm != entry.timeline.shape.warm
                if not swept and exit.replayable_from(entry):
                    self.replays[memo_key] = _Record(
                        exit, entry, entry_issue, self.line.slices, first
                    )
            for period in periods:
                advance = _steady(history, period)
                if advance is None or any(
                    sigs[t] != sigs[t - period] for t in range(i - period, i)
                ):
                    continue
                run = 0  # the last iteration always runs: tails live there
                while i + run < n - 1 and sigs[i + run] == sigs[i + run - period]:
                    run += 1
                # no further than the iteration that completes a tensor's first sweep
                times = min(
                    run // period, self.line.cold_periods(advance.timeline.counters.tensors)
                )
                if times:
                    label = f"scf.for: {times * period} iterations extrapolated"
                    self._advance(advance, label, times)
                    self.extrapolated += times * period
                    i += times * period
                    history = [_State.of(self)]
                    self.check_cycle_limit()
                    break
            del history[: -2 * _PERIODS[-1] - 1]
