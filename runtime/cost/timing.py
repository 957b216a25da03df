"""The timing backend: the cycles of one AI Core, pipe by pipe, on the instruction model.

The third consumer of the instruction model's effects (``hw/isa.py``), next to the numpy
backend and the sanitizer. It runs alongside either executor: the machine
(``runtime/machine/core.py``) hands every instruction's :class:`~ascend_xdsl.hw.isa.Effects` and
every flag to the core's :class:`Timeline`, in program order.

The model, per core:

* the scalar unit issues every instruction in program order; issuing costs
  ``scalar_op_cycles``, and so does each index-arithmetic op the executor counts;
* each pipe (MTE2, MTE1, M, FIX) executes its instructions in issue order: an instruction
  starts when it has been issued and its pipe is free, occupies the pipe for its size over its
  throughput (its instruction's cost rule, ``hw/instructions/``, from the figures of
  ``hw/cost_figures.py``), and completes its fixed latency later: issue and completion are
  modelled apart, so a pipelined pipe overlaps one instruction's latency with the next;
* ``set_flag src -> dst`` fires once all earlier ``src`` work has completed, and arrives
  ``flag_latency_cycles`` later; ``wait_flag`` holds pipe ``dst`` until the matching set has
  arrived (events match first-in first-out per (src, dst, id), as the flag model counts them);
  ``pipe_barrier ALL`` waits for every pipe. Flags and barriers are the only ordering between
  pipes: the same semantics the sanitizer checks.

Every instruction is recorded with the reason it could not start earlier (its own pipe, a flag
from another pipe, or the issue), so :meth:`Timeline.critical_path` can walk back from the last
instruction to the start and say which pipe the core's makespan waits on.

Cores are timed independently, but not alone: a GM transfer runs at the core's share of the
bandwidth its bytes come from while the launch's cores stream alike (HBM for a tensor's first
sweep, then L2 for the re-reads that hit; :meth:`Timeline._gm_transfer`), and each core counts
its GM bytes per tensor for the L2 model. ``runtime/cost/report.py`` combines the cores (the
makespan is the slowest core's) and applies the chip-level bandwidth bound.

For the reports (``runtime/reports/trace.py``, ``plot.py``, the summary), a timeline also records
what changes no timing: each slice's effects (its byte ranges, for buffer occupancy and GM
bandwidth), each flag as it is set and as it arrives (:class:`FlagMark`), the scalar unit's
issue spans, and, in the cost-only mode, the instructions a replayed loop iteration stands for
(:attr:`Timeline.replayed`). :meth:`Timeline.critical_chain` is the chain of waits
:meth:`Timeline.critical_path` sums up, slice by slice.
"""

from __future__ import annotations

import math
from collections import defaultdict, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from xdsl.ir import BlockArgument, Operation

from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions import data_instruction, mmad_cycles
from ascend_xdsl.hw.isa import Effects, Pipe, Work
from ascend_xdsl.runtime.cost.state import (
    TIMED_PIPES,
    Clocks,
    Counters,
    Shape,
    TimelineState,
)
from ascend_xdsl.runtime.machine.values import placeholder

__all__ = [
    "TIMED_PIPES",
    "FlagMark",
    "Replayed",
    "Slice",
    "Timeline",
    "duration",
    "gm_bytes_of",
    "l2_share",
    "mmad_cycles",
]


def l2_share(figures: CostFigures, blocks: int) -> float:
    """Bytes per cycle of the chip's L2 bandwidth one core gets while a launch of ``blocks``
    cores runs: the chip's total over the cores running at once."""
    return figures.l2_bytes_per_second_total / figures.clock_hz / max(1, min(blocks, figures.cores))


def duration(figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
    """Cycles an instruction occupies its pipe: its spec's cost rule (``hw/instructions/``).
    A GM transfer runs at most at ``gm_share`` bytes per cycle, the core's share of the chip's
    L2 bandwidth (:func:`l2_share`)."""
    return data_instruction(effects.instruction).cost(figures, effects, gm_share)


def completion_latency(figures: CostFigures, effects: Effects) -> float:
    """Cycles from the end of an instruction's occupancy to its completion: its spec's
    ``latency`` (``hw/instructions/``)."""
    return data_instruction(effects.instruction).latency(figures, effects)


def gm_bytes_of(effects: Effects) -> int:
    """Bytes an instruction moves to or from GM: its work's bytes when one of its ranges is in
    GM, else 0."""
    spans = (*effects.reads, *effects.writes)
    return effects.work.bytes if any(span.memory == "GM" for span in spans) else 0


class Slice(NamedTuple):
    """One instruction on the timeline (a named tuple: a thin layer's timeline holds tens of
    thousands, and a frozen dataclass cost three times as much to build)."""

    op: Operation | None
    pipe: Pipe
    start: float
    end: float
    cause: int
    """Index of the slice this one waited for (-1: none, it started when issued)."""
    cause_pipe: Pipe
    """Why it could not start earlier: its own pipe, another pipe (through a flag), or S."""
    work: Work | None = None
    """What the instruction does (bytes, m/n/k), for traces and plots; None if not recorded."""
    label: str | None = None
    """Set on a slice that stands for many instructions (an aggregated, extrapolated span of a
    loop): what it stands for. Traces show it under this name; None for one instruction."""
    bottleneck: Pipe | None = None
    """For such a span: the pipe busiest over it, which the critical path charges it to
    (inside a steady span the busiest pipe sets the pace)."""
    done: float | None = None
    """When the instruction completes (its results visible to a flag): ``end`` plus its fixed
    latency; None for a span (it completes at ``end``)."""
    effects: Effects | None = None
    """The instruction's effects (its byte ranges), for the reports; None for a span."""

    @property
    def completes(self) -> float:
        return self.end if self.done is None else self.done


class FlagMark(NamedTuple):
    """A flag as the reports see it: set when its source pipe fires it (``at``), arriving
    ``flag_latency_cycles`` later; a wait records when its flag arrived for it."""

    kind: str
    """``set_flag`` or ``wait_flag``."""
    src: Pipe
    dst: Pipe
    event: int
    at: float
    """Cycles: when the set fired, or when the waited-for set arrived."""
    issued: float
    """Cycles: when the scalar unit issued the instruction."""


class Replayed(NamedTuple):
    """A loop iteration the cost-only mode replayed: the instructions of the iteration it
    replays (as they were timed, in that iteration's time) and the shift to this one."""

    shift: float
    slices: Sequence[Slice]


class ChainLink(NamedTuple):
    """One slice on a core's critical path (:meth:`Timeline.critical_chain`)."""

    index: int
    """The slice's index in :attr:`Timeline.slices`."""
    slice: Slice
    cycles: float
    """Cycles of the makespan the slice covers (its part not overlapped by later links)."""
    gap: float
    """Cycles between its end and the next link's start: flag latency or issue."""
    gap_kind: str
    """``flag`` or ``S``: what the gap was."""
    lead: float
    """On the first link only: the cycles before it started (issue), else 0."""


@dataclass
class Timeline:
    """The timing of one core's instruction stream."""

    figures: CostFigures
    gm_share: float = math.inf
    """Bytes per cycle of the chip's L2 bandwidth this core gets (:func:`l2_share` of its
    launch); unbounded for a core timed alone."""
    issue: float = 0.0
    """The scalar unit's clock: when the next instruction is issued."""
    free: dict[Pipe, float] = field(default_factory=lambda: dict.fromkeys(TIMED_PIPES, 0.0))
    done: dict[Pipe, float] = field(default_factory=lambda: dict.fromkeys(TIMED_PIPES, 0.0))
    """Per pipe, when its last instruction so far completes (``free`` plus its latency)."""
    busy: dict[Pipe, float] = field(default_factory=lambda: dict.fromkeys(TIMED_PIPES, 0.0))
    count: dict[Pipe, int] = field(default_factory=lambda: dict.fromkeys(TIMED_PIPES, 0))
    scalar_ops: int = 0
    mmad_flops: int = 0
    """2 x the multiply-adds of the mmads as issued (tails included)."""
    gm_bytes: int = 0
    """Bytes the core read from and wrote to GM (the chip-level bandwidth floor needs them)."""
    tensor_bytes: list[int] = field(default_factory=lambda: [0])
    """The same bytes per GM tensor, for the L2 model (``runtime/cost/report.py``): position
    ``i + 1`` counts the kernel's argument ``i``, position 0 what no argument names (an
    instruction timed without its op)."""
    tensor_sizes: dict[int, int] = field(default_factory=dict)
    """Bytes of each GM tensor counted in :attr:`tensor_bytes`, by the same position."""
    slices: list[Slice] = field(default_factory=list)
    flags: list[FlagMark] = field(default_factory=list)
    """Every set_flag as it fired and every wait_flag as its flag arrived (for traces)."""
    scalar_spans: list[list[float]] = field(default_factory=list)
    """The scalar unit's busy spans, [start, end] in cycles, adjacent ones merged (for traces:
    the gaps are its stalls on a full pipe queue)."""
    replayed: list[Replayed] = field(default_factory=list)
    """The replayed loop iterations of a cost-only run, with the instructions they stand for."""
    _last: dict[Pipe, int] = field(default_factory=dict)
    """Index of the last slice of each pipe (-1: none yet)."""
    _stall: int = -1
    """The slice the scalar unit last waited for: the oldest instruction of a full pipe queue
    (after a replayed or extrapolated span, the span of its busiest pipe, where such a span
    stalls the issue); -1 while it never waited. An instruction that starts when it is issued
    waits, through the issue clock, for that slice: without it, the critical path would stop
    at the first such instruction and charge every cycle before it to the scalar unit."""
    _hold: dict[Pipe, tuple[float, int, Pipe]] = field(default_factory=dict)
    """What a wait_flag holds each pipe for: (time, slice, the pipe that slice ran on)."""
    _events: dict[tuple[Pipe, Pipe, int], deque[tuple[float, int, Pipe]]] = field(
        default_factory=lambda: defaultdict(deque)
    )
    _durations: dict[tuple[str, object, str], tuple[float, float]] = field(default_factory=dict)
    _tensors: dict[Operation, int] = field(default_factory=dict)
    """The position in :attr:`tensor_bytes` of each op's GM operand."""
    warm: dict[int, float] = field(default_factory=dict)
    """Per GM tensor (position in :attr:`tensor_bytes`) whose first sweep the launch has
    made: the share of its re-reads that hit in L2 (:meth:`_sweep_done`). A tensor not in it is
    still being read for the first time, from HBM."""
    _gm_durations: dict[tuple[str, Work, float], float] = field(default_factory=dict)
    _queues: dict[Pipe, deque[tuple[float, int]]] = field(init=False)
    """Per pipe, the (start, slice) of its last ``queue_depth`` instructions."""
    _starts: dict[Pipe, deque[float]] = field(init=False)
    """Per pipe, the same instructions' start times alone (kept beside :attr:`_queues` so that
    :meth:`snapshot`, taken at every loop iteration the cost-only mode runs, copies them in
    one call instead of unpacking every pair)."""

    def __post_init__(self) -> None:
        depth = self.figures.pipe_queue_depth
        self._queues = {p: deque(maxlen=depth) for p in TIMED_PIPES}
        self._starts = {p: deque(maxlen=depth) for p in TIMED_PIPES}
        f = self.figures
        self._streams = 0.0
        """How many cores stream at once (the launch's, :func:`l2_share`); 0 for a core timed
        alone, which contends with no one."""
        self._hbm_share = math.inf
        if math.isfinite(self.gm_share):
            self._streams = f.l2_bytes_per_second_total / f.clock_hz / self.gm_share
            self._hbm_share = f.hbm_bytes_per_second_total / f.clock_hz / self._streams

    def scalar(self, ops: int) -> None:
        """``ops`` index-arithmetic ops on the scalar unit."""
        self.scalar_ops += ops
        self._issue_at(self.issue, ops * self.figures.scalar_op_cycles)

    def _issue_at(self, t: float, cycles: float) -> None:
        """The scalar unit is busy from ``t`` for ``cycles``: the issue clock moves past it."""
        end = self.issue = t + cycles
        spans = self.scalar_spans
        if spans:
            last = spans[-1]
            if last[1] >= t:  # contiguous with the last span: extend it
                if end > last[1]:
                    last[1] = end
                return
        if cycles > 0:
            spans.append([t, end])

    def _issue(self) -> float:
        t = self.issue
        self._issue_at(t, self.figures.scalar_op_cycles)
        return t

    def _ready(self, pipe: Pipe, issued: float) -> tuple[float, int, Pipe]:
        """When ``pipe`` can start its next instruction (or fire an event), and what that time
        is due to: the issue, the pipe's own last instruction, or a flag it waits for."""
        at, cause, why = issued, -1, Pipe.S
        if self.free[pipe] > at:
            at, cause, why = self.free[pipe], self._last.get(pipe, -1), pipe
        hold = self._hold.get(pipe)
        if hold is not None and hold[0] > at:
            at, cause, why = hold
        return at, cause, why

    def instruction(self, op: Operation | None, effects: Effects) -> None:
        self.run(op, *self.cost_of(effects))

    def cost_of(self, effects: Effects) -> tuple[Pipe, float, int, int, Effects, float]:
        """What timing an instruction needs of its effects: its pipe, its occupancy in cycles,
        the bytes it moves to or from GM, its FLOPs (an mmad's 2·m·n·k), the effects (for
        reports) and its completion latency beyond the occupancy."""
        pipe, work = effects.pipe, effects.work
        # A kernel repeats a few instruction shapes many times: cost each shape once.
        shape = (effects.instruction, work, effects.writes[0].memory if effects.writes else "")
        timing = self._durations.get(shape)
        if timing is None:
            timing = self._durations[shape] = (
                duration(self.figures, effects, self.gm_share),
                completion_latency(self.figures, effects),
            )
        flops = 2 * work.m * work.n * work.k if pipe == Pipe.M else 0
        return pipe, timing[0], gm_bytes_of(effects), flops, effects, timing[1]

    def run(
        self,
        op: Operation | None,
        pipe: Pipe,
        length: float,
        gm_bytes: int,
        flops: int,
        effects: Effects | None = None,
        latency: float = 0.0,
    ) -> None:
        """One instruction occupying ``pipe`` for ``length`` cycles and completing ``latency``
        cycles after that (see :meth:`cost_of`). It is issued once its pipe's queue has room:
        the scalar unit stalls while ``queue_depth`` earlier instructions of the pipe have not
        started."""
        # Called once per instruction: _ready is written out here.
        queue = self._queues[pipe]
        issued, cause, why = self.issue, -1, Pipe.S
        if len(queue) == queue.maxlen and queue[0][0] > issued:
            issued, cause, why = queue[0][0], queue[0][1], pipe
            self._stall = cause
        self._issue_at(issued, self.figures.scalar_op_cycles)
        start, ready_cause, ready_why = issued, -1, Pipe.S
        free = self.free[pipe]
        if free > start:
            start, ready_cause, ready_why = free, self._last.get(pipe, -1), pipe
        hold = self._hold.pop(pipe, None)  # the instruction starts after it: later ones follow
        if hold is not None and hold[0] > start:
            start, ready_cause, ready_why = hold
        if start > issued or cause < 0:
            cause, why = ready_cause, ready_why
            if cause < 0:  # it started when issued: the issue waited for the scalar's stall
                cause, why = self._stall, Pipe.S
        if flops:
            self.mmad_flops += flops
        if gm_bytes:
            self.gm_bytes += gm_bytes
            at = self._tensors.get(op) if op is not None else 0
            if at is None:
                at = self._tensors[op] = self._gm_tensor(op)
            if at and self._streams:
                contended = self._gm_transfer(effects, at, gm_bytes)
                if contended is not None:
                    length = contended
            else:
                self.tensor_bytes[at] += gm_bytes
        end = start + length
        done = end + latency
        self.free[pipe] = end
        if done > self.done[pipe]:
            self.done[pipe] = done
        self.busy[pipe] += length
        self.count[pipe] += 1
        slices = self.slices
        index = len(slices)
        self._last[pipe] = index
        queue.append((start, index))
        self._starts[pipe].append(start)
        work = effects.work if effects is not None else None
        slices.append(Slice(op, pipe, start, end, cause, why, work, done=done, effects=effects))

    # -- contention for the chip's L2 and HBM bandwidth --------------------------------------

    def _gm_transfer(self, effects: Effects | None, at: int, moved: int) -> float | None:
        """Count ``moved`` bytes of GM tensor ``at`` and give the occupancy of their transfer
        while every core of the launch streams (None without ``effects``): the bytes that
        come from HBM at the core's share of the chip's HBM bandwidth, the rest at its share
        of the L2's. Until the launch has swept the tensor once, its bytes come from HBM;
        after that, the share of re-reads that hit (:attr:`warm`, set by
        :meth:`_sweep_done` when this transfer completes the sweep)."""
        before = self.tensor_bytes[at]
        self.tensor_bytes[at] = before + moved
        cold = 0.0
        if at not in self.warm:
            cold = min(float(moved), max(0.0, self.tensor_sizes[at] / self._streams - before))
            if (before + moved) * self._streams >= self.tensor_sizes[at]:
                self._sweep_done(at)
        if effects is None:
            return None
        hit = self.warm.get(at, 0.0)
        cycles = cold / self._hbm_share + (moved - cold) * (
            hit / self.gm_share + (1.0 - hit) / self._hbm_share
        )
        share = moved / cycles
        key = (effects.instruction, effects.work, share)
        found = self._gm_durations.get(key)
        if found is None:
            found = self._gm_durations[key] = duration(self.figures, effects, share)
        return found

    def _sweep_done(self, at: int) -> None:
        """The cores of the launch (streaming alike, :attr:`_streams` of them) have together
        moved as many bytes of tensor ``at`` as it holds: from now on its reads are re-reads.
        Their reuse distance is the distinct bytes the launch moved meanwhile, every tensor's
        traffic so far capped at its size (the closed form of ``report.reuse_distance``); the
        share of them the L2 holds hits."""
        distance = sum(
            min(self.tensor_sizes.get(u, 0), moved * self._streams)
            for u, moved in enumerate(self.tensor_bytes)
            if u
        )
        self.warm[at] = min(1.0, self.figures.l2_size / distance) if distance else 1.0

    def cold_periods(self, growth: Sequence[int]) -> int:
        """How many times the counters can grow by ``growth`` (per GM tensor) before a tensor
        still in its first sweep completes it: the cost-only mode extrapolates no further,
        so the iteration in which a sweep completes runs exactly, as in a full run."""
        limit = 1 << 62
        if not self._streams:
            return limit
        for at, grown in enumerate(growth):
            if at and grown > 0 and at not in self.warm:
                if at not in self.tensor_sizes:
                    return 0  # a replay of traffic this core has not started: run it exactly
                left = self.tensor_sizes[at] / self._streams - self.tensor_bytes[at]
                limit = min(limit, max(0, math.ceil(left / grown) - 1))
        return limit

    def _gm_tensor(self, op: Operation) -> int:
        """The position in :attr:`tensor_bytes` of ``op``'s GM operand: its kernel argument's
        index + 1 (its size recorded), or 0 when the operand is not a kernel argument."""
        for operand in op.operands:
            t = operand.type
            if isinstance(t, GmTensorType) and isinstance(operand, BlockArgument):
                at = operand.index + 1
                if at >= len(self.tensor_bytes):
                    self.tensor_bytes += [0] * (at + 1 - len(self.tensor_bytes))
                self.tensor_sizes[at] = placeholder(t).nbytes
                return at
        return 0

    def set_flag(self, src: Pipe, dst: Pipe, event: int) -> None:
        issued = self._issue()
        if src in self.free:
            fired, cause, why = self._ready(src, issued)
            if self.done[src] > fired:  # it fires when the pipe's work has completed
                fired, cause, why = self.done[src], self._last.get(src, -1), src
        else:  # an event from the scalar unit fires when it is issued
            fired, cause, why = issued, -1, Pipe.S
        arrival = fired + self.figures.flag_latency_cycles
        self._events[(src, dst, event)].append((arrival, cause, why))
        self.flags.append(FlagMark("set_flag", src, dst, event, fired, issued))

    def wait_flag(self, src: Pipe, dst: Pipe, event: int) -> None:
        issued = self._issue()
        queue = self._events[(src, dst, event)]
        if not queue or dst not in self.free:
            return  # an unmatched wait is the flag model's error, reported there
        arrival = queue.popleft()
        self.flags.append(FlagMark("wait_flag", src, dst, event, arrival[0], issued))
        held = self._hold.get(dst)
        if held is None or arrival[0] > held[0]:
            self._hold[dst] = arrival

    def barrier(self, pipe: Pipe) -> None:
        self._issue()
        if pipe != Pipe.ALL:
            return  # in-pipe order is already program order here
        latest = max(TIMED_PIPES, key=lambda p: self.done[p])
        t = self.done[latest]
        for p in TIMED_PIPES:
            held = self._hold.get(p)
            if self.free[p] < t and (held is None or held[0] < t):
                self._hold[p] = (t, self._last.get(latest, -1), latest)

    # -- the state, for the cost-only mode (runtime/cost/state.py) ----------------------------

    def snapshot(self) -> TimelineState:
        """The timing state now: what decides the timing of the instructions still to come.
        (Taken once per loop iteration the cost-only mode runs: written for speed.)"""
        free, done, starts, all_events = self.free, self.done, self._starts, self._events
        events = sorted([(k, len(q)) for k, q in all_events.items() if q])
        holds = tuple(sorted(self._hold))
        timed = [starts[p] for p in TIMED_PIPES]
        later = [free[p] for p in TIMED_PIPES]
        later += [done[p] for p in TIMED_PIPES]
        if holds:
            hold = self._hold
            later += [hold[p][0] for p in holds]
        for q in timed:
            later += q
        for k, _ in events:
            later += [arrival for arrival, _, _ in all_events[k]]
        busy, count = self.busy, self.count
        return TimelineState(
            Shape(
                holds,
                tuple([len(q) for q in timed]),
                tuple(events),
                len(self.tensor_bytes),
                tuple(sorted(self.warm.items())) if self.warm else (),
            ),
            Clocks(self.issue, tuple(later)),
            Counters(
                self.scalar_ops,
                self.mmad_flops,
                self.gm_bytes,
                tuple([busy[p] for p in TIMED_PIPES]),
                tuple([count[p] for p in TIMED_PIPES]),
                tuple(self.tensor_bytes),
            ),
        )

    def _add(self, growth: Counters, times: int = 1) -> None:
        self.scalar_ops += growth.scalar_ops * times
        self.mmad_flops += growth.mmad_flops * times
        self.gm_bytes += growth.gm_bytes * times
        for p, busy, count in zip(TIMED_PIPES, growth.busy, growth.count, strict=True):
            self.busy[p] += busy * times
            self.count[p] += count * times
        for at, grown in enumerate(growth.tensors):
            self.tensor_bytes[at] += grown * times

    def _span(self, pipe: Pipe, start: float, end: float, label: str, busiest: Pipe) -> int:
        """One slice standing for many instructions of ``pipe``; returns its index."""
        cause = self._last.get(pipe, -1)
        self._last[pipe] = len(self.slices)
        self.slices.append(
            Slice(None, pipe, start, end, cause, pipe, label=label, bottleneck=busiest)
        )
        return self._last[pipe]

    def restore(
        self,
        record: TimelineState,
        label: str,
        detail: tuple[float, Sequence[Slice]] | None = None,
    ) -> None:
        """Put the timeline, in a state equal by key to the one ``record`` was recorded from
        (:meth:`TimelineState.relative_to`), into the recorded exit state: times relative to the
        issue clock, counters added. One slice per pipe, named ``label``, stands for the
        replayed span; ``detail``, the recorded iteration's entry issue clock and its slices,
        is kept in :attr:`replayed` for the reports."""
        base = self.issue
        shape = record.shape
        busiest = record.counters.busiest()
        self.warm = dict(shape.warm)
        self._issue_at(base, record.clocks.issue)
        if detail is not None:
            self.replayed.append(Replayed(base - detail[0], detail[1]))
        last: dict[Pipe, int] = {}
        for p, free in zip(TIMED_PIPES, record.free(), strict=True):
            start, end = self.free[p], base + free
            self.free[p] = end
            if end > start:
                self._span(p, start, end, label, busiest)
            last[p] = self._last.get(p, -1)
        self._stall = last[busiest] if last.get(busiest, -1) >= 0 else self._stall
        for p, done in zip(TIMED_PIPES, record.done(), strict=True):
            self.done[p] = base + done
        self._hold = {
            p: (base + t, last[p], p) for p, t in zip(shape.holds, record.holds(), strict=True)
        }
        for p, starts in zip(TIMED_PIPES, record.queues(), strict=True):
            queue, times = self._queues[p], self._starts[p]
            times.clear()
            times.extend([base + t for t in starts])
            queue.clear()
            queue.extend([(t, last[p]) for t in times])
        self._events.clear()
        for (k, _), arrivals in zip(shape.events, record.events(), strict=True):
            src = k[0]
            cause = last.get(src, -1)
            self._events[k].extend((base + t, cause, src) for t in arrivals)
        self._add(record.counters)

    def advance(self, change: TimelineState, label: str, times: int = 1) -> None:
        """Change the timeline (in a state of ``change``'s shape) by ``times`` x ``change``:
        iterations ran, without running them. One slice per pipe, named ``label``, stands for
        their span; what was pending now waits on the end of its pipe's span."""
        busiest = change.counters.busiest()
        self._issue_at(self.issue, change.clocks.issue * times)
        span: dict[Pipe, int] = {}
        for p, d in zip(TIMED_PIPES, change.free(), strict=True):
            start = self.free[p]
            self.free[p] += d * times
            if self.free[p] > start:
                span[p] = self._span(p, start, self.free[p], label, busiest)
        self._stall = span.get(busiest, self._stall)
        for p, d in zip(TIMED_PIPES, change.done(), strict=True):
            self.done[p] += d * times
        for p, d in zip(sorted(self._hold), change.holds(), strict=True):
            time, cause, why = self._hold[p]
            self._hold[p] = (time + d * times, span.get(why, cause), why)
        for p, ds in zip(TIMED_PIPES, change.queues(), strict=True):
            queue = self._queues[p]  # the queued instructions were the span's: they start with it
            cause = span.get(p, self._last.get(p, -1))
            moved = [start + d * times for start, d in zip(self._starts[p], ds, strict=True)]
            self._starts[p].clear()
            self._starts[p].extend(moved)
            queue.clear()
            queue.extend([(start, cause) for start in moved])
        pending = sorted(k for k, q in self._events.items() if q)
        for k, ds in zip(pending, change.events(), strict=True):
            events = self._events[k]
            for j, ((arrival, cause, why), d) in enumerate(zip(list(events), ds, strict=True)):
                events[j] = (arrival + d * times, span.get(why, cause), why)
        self._add(change.counters, times)

    @property
    def cycles(self) -> float:
        """The core's makespan: when its last instruction completes (or the scalar unit
        finishes)."""
        return max(self.issue, *self.free.values(), *self.done.values())

    def critical_path(self) -> dict[str, float]:
        """Cycles of the makespan on each pipe along the chain of waits that ends at the last
        instruction: a pipe's time, "flag" for event latency between pipes, "S" for time spent
        waiting for the scalar unit to issue. The chain is walked back from the end, each step
        covering the time from the start of a slice to the point reached so far, so the values
        add up to :attr:`cycles` even where a slice waited for one that overlaps it (a full
        instruction queue waits for the start, not the end, of an earlier instruction)."""
        share: dict[str, float] = defaultdict(float)
        if not self.slices:
            share["S"] = self.cycles
            return dict(share)
        # the links as plain tuples: a cost-only run's chain is long, a ChainLink each costs
        for _, s, cycles, gap, gap_kind, lead in self._chain():
            if gap > 0:
                share[gap_kind] += gap
            share[str(s.bottleneck or s.pipe)] += cycles
            if s.cause < 0:
                share["S"] += lead
        return dict(share)

    def critical_chain(self) -> list[ChainLink]:
        """The chain of waits :meth:`critical_path` sums, from the last instruction back to
        the first: per slice on it, the cycles of the makespan it covers and the gap after
        it (flag latency or issue) up to the slice that waited for it."""
        return [ChainLink(*link) for link in self._chain()]

    def _chain(self) -> Iterator[tuple[int, Slice, float, float, str, float]]:
        """The links of :meth:`critical_chain`, as tuples of its fields."""
        if not self.slices:
            return
        ends = [s.end if s.done is None else s.done for s in self.slices]  # each .completes
        i = ends.index(max(ends))  # the first that completes last
        reached = self.cycles
        gap_kind = "S"
        while True:
            s = self.slices[i]
            end = s.completes  # an instruction's latency is its pipe's time on the path
            gap = max(0.0, reached - end)
            covered = max(0.0, min(end, reached) - s.start)
            reached = min(reached, s.start)
            last = s.cause < 0
            yield (i, s, covered, gap, gap_kind, reached if last else 0.0)
            if last:
                break
            gap_kind = "flag" if s.cause_pipe not in (s.pipe, Pipe.S) else "S"
            i = s.cause
