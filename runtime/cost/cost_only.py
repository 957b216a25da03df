"""Cost-only mode: the timing of a launch without its data, with loops aggregated.

A full run times every instruction while it moves the data (``runtime/machine/core.py`` hands the
effects to the timing backend). The layers worth tuning are too big for that: the inputs of
8×512×16×112×112 alone are 2 GB and its kernel executes tens of millions of instructions. This
mode allocates no tensor data and no core memory:

* :class:`CostCore` has the machine's instruction methods, but each only decodes its geometry
  through the instruction model (which checks the ISA limits), checks its byte ranges against
  the memories and GM tensors, and gives the effects to the core's
  :class:`~ascend_xdsl.runtime.cost.timing.Timeline`; flags go through the same flag model;
* the kernel runs through the compiled executor with ``aggregate``: every ``scf.for`` without
  loop-carried values iterates through :meth:`CostCore.loop`, which runs iterations exactly
  until the timing state advances by the same amount in two consecutive iterations (every
  pipe's clock, the issue clock, the pending events, the busy and instruction counters), then
  extrapolates that advance over the remaining trip count but the last ``TAIL`` iterations,
  which it runs exactly again. A loop whose advance never repeats is run exactly throughout;
* the host function is not interpreted: each ``ascend.launch`` of the entry is run on GM
  placeholders of its operands' types (:class:`GmPlaceholder`).

Where both can run, the result agrees with the full run's exact timeline
(``tests/test_cost_only.py`` checks a matrix within 1 %). Inside an extrapolated span the
critical path sees one slice per pipe for the whole span (``Slice.op`` is None there).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ascend_xdsl import hw
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import isa
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.hw.isa import Effects, Pipe
from ascend_xdsl.runtime.cost.report import CoreCost, CostReport, core_cost, cube_dtype
from ascend_xdsl.runtime.cost.timing import TIMED_PIPES, Slice, Timeline, l2_share
from ascend_xdsl.runtime.executors import compiled
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.core import (
    BufferSpec,
    Load3dStatic,
    check_flags_waited,
    reserve_buffer,
)
from ascend_xdsl.runtime.machine.flags import FlagState
from ascend_xdsl.runtime.machine.memory import MemoryAccessError, memory_sizes
from ascend_xdsl.runtime.machine.values import groups_of, np_dtype, physical_shape

_MIN_TRIPS = 5
"""Loops shorter than this run exactly: a steady state needs four iterations to show."""


@dataclass(frozen=True)
class GmPlaceholder:
    """A GM tensor without data: what the instruction model needs of it (element size, bytes)."""

    type: GmTensorType
    element_bytes: int
    size: int
    """Bytes of its physical layout."""


def placeholder(t: GmTensorType) -> GmPlaceholder:
    eb = np_dtype(t.element_type).itemsize
    return GmPlaceholder(t, eb, math.prod(physical_shape(t, groups_of(t))) * eb)


@dataclass(eq=False)
class CostBuffer:
    """A planned local buffer without data: its memory, address and slots."""

    memory: str
    offset: int
    slots: int
    stride: int
    element_bytes: int
    elements: int

    def address(self, slot: int) -> int:
        if not 0 <= slot < self.slots:
            raise MemoryAccessError(
                f"{self.memory} slot {slot} out of range for a {self.slots}-slot buffer"
            )
        return self.offset + slot * self.stride


@dataclass(eq=False)
class CostCore:
    """One block of a launch, timed without data (the machine's interface, cost only)."""

    block_idx: int
    timeline: Timeline
    hw_name: str = hw.DEFAULT_HW
    flags: FlagState = field(init=False)
    buffers: list[tuple[str, str, int, int]] = field(default_factory=list)
    sizes: dict[str, int] = field(init=False)
    budget: Budget = field(default_factory=Budget)
    """The loop iterations the run has left (``runtime/machine/budget.py``)."""
    cycle_limit: float = math.inf
    """Stop with :class:`CycleLimitExceeded` once this core is sure to take longer."""

    def __post_init__(self) -> None:
        self.flags = FlagState(hw.load(self.hw_name).user_event_ids)
        self.sizes = memory_sizes(self.hw_name)
        self._costs: dict[tuple[object, ...], tuple[Pipe, float, int, int]] = {}
        self.extrapolated = 0
        """Loop iterations this core did not run but extrapolated or replayed."""
        self.replays: dict[tuple[Any, ...], _Record] = {}
        """Timed iterations by (loop, signature, relative entry state): shared by the cores."""

    # -- checks -------------------------------------------------------------------------------

    def _check(self, op: str, effects: Effects) -> None:
        """The on-chip byte ranges of ``effects`` lie inside their memories."""
        for span in (*effects.reads, *effects.writes):
            limit = self.sizes.get(span.memory)
            if limit is not None and (span.lo < 0 or span.hi > limit):
                raise MemoryAccessError(
                    f"{op} {span.memory} bytes [{span.lo}, {span.hi}) out of bounds ({limit} B)"
                )

    def _time(self, op: Operation, key: tuple[Any, ...], make: Any) -> None:
        """Time one instruction. Instructions with the same geometry and on-chip addresses
        have the same effects (the GM offset changes only the GM range, checked by the
        caller), so ``make()`` (the effects) is checked and costed once per ``key``. The key
        holds the geometry itself, so its identity in the key stays unique."""
        hit = self._costs.get(key)
        if hit is None:
            effects = make()
            self._check(op.name, effects)
            hit = self._costs[key] = self.timeline.cost_of(effects)
        self.timeline.run(op, *hit)

    def _check_gm(self, op: Operation, gm: GmPlaceholder, lo: int, length: int) -> None:
        if lo < 0 or lo + length > gm.size:
            raise MemoryAccessError(
                f"{op.name} GM bytes [{lo}, {lo + length}) out of bounds ({gm.size} B)"
            )

    # -- the machine's interface --------------------------------------------------------------

    def alloc_buffer(self, spec: BufferSpec) -> CostBuffer:
        reserve_buffer(self.buffers, spec)
        return CostBuffer(
            spec.memory, spec.offset, spec.slots, spec.stride, spec.dtype.itemsize, spec.count
        )

    def data_copy(
        self,
        op: Operation,
        src: GmPlaceholder,
        src_off: int,
        dst: CostBuffer,
        slot: int,
        dst_off: int,
        *fields: int,
    ) -> None:
        g = isa.DataCopy.decode(*fields)
        lo = dst.address(slot) + dst_off * dst.element_bytes
        src_lo = src_off * src.element_bytes
        self._check_gm(op, src, src_lo, g.src_bytes)
        self._time(op, (g, lo), lambda: g.effects(src_lo, dst.memory, lo))

    def load3d(
        self,
        op: Operation,
        st: Load3dStatic,
        src: CostBuffer,
        src_slot: int,
        src_off: int,
        dst: CostBuffer,
        dst_slot: int,
        *geometry: int,
    ) -> None:
        fmap_window, pad = geometry[:7], geometry[7:]
        g = isa.Load3d.decode(
            *fmap_window, pad, st.kernel, st.stride, st.dilation, st.transpose, src.element_bytes
        )
        s_addr = src.address(src_slot) + src_off * src.element_bytes
        d_addr = dst.address(dst_slot)
        self._time(
            op, (g, s_addr, d_addr), lambda: g.effects(src.memory, s_addr, dst.memory, d_addr)
        )

    def load2d(
        self,
        op: Operation,
        transpose: bool,
        src: CostBuffer,
        src_slot: int,
        src_off: int,
        dst: CostBuffer,
        dst_slot: int,
        dst_off: int,
        repeat: int,
        src_stride: int,
    ) -> None:
        g = isa.Load2d.decode(repeat, src_stride, transpose, src.element_bytes)
        s_addr = src.address(src_slot) + src_off * src.element_bytes
        d_addr = dst.address(dst_slot) + dst_off * dst.element_bytes
        self._time(
            op, (g, s_addr, d_addr), lambda: g.effects(src.memory, s_addr, dst.memory, d_addr)
        )

    def mmad(
        self,
        op: Operation,
        a: CostBuffer,
        a_slot: int,
        b: CostBuffer,
        b_slot: int,
        c: CostBuffer,
        c_slot: int,
        m: int,
        n: int,
        k: int,
        init: bool,
    ) -> None:
        g = isa.Mmad.decode(m, n, k, a.element_bytes)
        addrs = ((a.memory, a.address(a_slot)), (b.memory, b.address(b_slot)))
        c_at = (c.memory, c.address(c_slot))
        self._time(op, (g, *addrs, c_at, bool(init)), lambda: g.effects(*addrs, c_at, bool(init)))

    def fixpipe(
        self,
        op: Operation,
        atomic: bool,
        src: CostBuffer,
        slot: int,
        dst: GmPlaceholder,
        dst_off: int,
        m: int,
        n: int,
        src_stride: int,
        dst_stride: int,
    ) -> None:
        g = isa.Fixpipe.decode(m, n, src_stride, dst_stride, atomic)
        s_addr, d_lo = src.address(slot), dst_off * dst.element_bytes
        self._check_gm(op, dst, d_lo, g.dst_elems * isa.ACC_BYTES)
        self._time(op, (g, s_addr), lambda: g.effects(src.memory, s_addr, d_lo))

    def set_flag(self, src: Pipe, dst: Pipe, event: int) -> None:
        self.flags.set(src, dst, event)
        self.timeline.set_flag(src, dst, event)

    def wait_flag(self, src: Pipe, dst: Pipe, event: int) -> None:
        self.flags.wait(src, dst, event)
        self.timeline.wait_flag(src, dst, event)

    def pipe_barrier(self, pipe: Pipe) -> None:
        self.timeline.barrier(pipe)

    def scalar(self, ops: int) -> None:
        self.timeline.scalar(ops)

    def check_cycle_limit(self) -> None:
        """A pipe busy past :attr:`cycle_limit` means the core, and so the launch, takes
        longer: the caller only wants to know that (the tuner, against its best so far)."""
        t = self.timeline
        if max(t.issue, *t.free.values()) > self.cycle_limit:
            raise CycleLimitExceeded(f"block {self.block_idx} exceeds {self.cycle_limit} cycles")

    def finish(self) -> None:
        self.check_cycle_limit()
        check_flags_waited(self.block_idx, self.flags)

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
        if n < _MIN_TRIPS:
            yield from trips
            return
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
            record = self.replays.get(memo_key)
            if record is not None:
                # This work, from this relative state, was timed before: replay its change.
                entry.restore(self, record, "scf.for: iteration replayed")
                self.extrapolated += 1
                i += 1
                history.append(_State.of(self))
                self.check_cycle_limit()
            else:
                yield trips[i]
                i += 1
                history.append(_State.of(self))
                self.check_cycle_limit()
                record = history[-1].relative_to(entry)
                if record is not None:
                    self.replays[memo_key] = record
            for period in _PERIODS:
                advance = _steady(history, period)
                if advance is None or any(
                    sigs[t] != sigs[t - period] for t in range(i - period, i)
                ):
                    continue
                run = 0  # the last iteration always runs: tails live there
                while i + run < n - 1 and sigs[i + run] == sigs[i + run - period]:
                    run += 1
                times = run // period
                if times:
                    label = f"scf.for: {times * period} iterations extrapolated"
                    history[-1].apply(self, advance, label, times)
                    self.extrapolated += times * period
                    i += times * period
                    history = [_State.of(self)]
                    self.check_cycle_limit()
                    break
            del history[: -2 * _PERIODS[-1] - 1]


_PERIODS = (1, 2)
"""The periods of steady state looked for: every iteration, or every second (ping-pong loops
alternate slots and event ids)."""


def _steady(history: Sequence[_State], period: int) -> tuple[list[float], list[float]] | None:
    """The change over the last ``period`` iterations if it equals the change over the
    ``period`` before (same structure), else None."""
    if len(history) < 2 * period + 1:
        return None
    last, middle, first = history[-1], history[-1 - period], history[-1 - 2 * period]
    advance, before = last.minus(middle), middle.minus(first)
    if advance is None or before is None:
        return None
    if not (_equal(advance[0], before[0]) and _equal(advance[1], before[1])):
        return None
    return advance


def _equal(a: Sequence[float], b: Sequence[float]) -> bool:
    return all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-6) for x, y in zip(a, b, strict=True))


def _busiest(counters: Sequence[float]) -> Pipe:
    """The pipe whose busy cycles grew most, from a counter change (see ``_State.of``)."""
    busy = {p: counters[3 + 2 * j] for j, p in enumerate(TIMED_PIPES)}
    return max(busy, key=lambda p: busy[p])


@dataclass(frozen=True)
class _Record:
    """What one timed iteration did: its exit structure, its exit times relative to its entry
    issue clock, and how much each counter grew."""

    structure: tuple[Any, ...]
    times: list[float]
    counters: list[float]


@dataclass
class _State:
    """The timing state of a core between two loop iterations: the absolute times (the issue
    clock first, then each pipe's, the held pipes', the pending events'), the counters that
    only add up (busy cycles, instructions, FLOPs, bytes, set flags), and the structure (which
    events are pending, which pipes are held) that must match for two states to compare."""

    structure: tuple[Any, ...]
    times: list[float]
    counters: list[float]

    @staticmethod
    def of(core: CostCore) -> _State:
        t = core.timeline
        events = sorted((k, len(q)) for k, q in t._events.items() if q)
        holds = sorted(t._hold)
        flags = sorted(core.flags._counts.items())
        times = [t.issue, *(t.free[p] for p in TIMED_PIPES)]
        times += [t._hold[p][0] for p in holds]
        queues = tuple(len(t._queues[p]) for p in TIMED_PIPES)
        for p in TIMED_PIPES:
            times += [start for start, _ in t._queues[p]]
        for k, _ in events:
            times += [arrival for arrival, _, _ in t._events[k]]
        counters = [float(t.scalar_ops), float(t.mmad_flops), float(t.gm_bytes)]
        for p in TIMED_PIPES:
            counters += [t.busy[p], float(t.count[p])]
        counters += [float(n) for _, n in flags]
        structure = (tuple(events), tuple(holds), tuple(k for k, _ in flags), queues)
        return _State(structure, times, counters)

    def key(self) -> tuple[Any, ...]:
        """What the timing from here on depends on: the structure, the flag counts, and every
        time relative to the issue clock, where a time before the issue clock counts as the
        issue clock (nothing can start before its issue, so it can no longer matter)."""
        base = self.times[0]
        # Most times (the pipe queues' started instructions) are behind the issue clock: they
        # all count as 0 without being rounded.
        relative = tuple(round(v - base, 6) if v > base else 0.0 for v in self.times[1:])
        flags = self.counters[len(self.counters) - len(self.structure[2]) :]
        return (self.structure, relative, tuple(flags))

    def relative_to(self, entry: _State) -> _Record | None:
        """This (exit) state as a replayable record of what happened since ``entry``."""
        if self.structure[2] != entry.structure[2]:
            return None  # new event ids in use: the counters do not line up
        base = entry.times[0]
        return _Record(
            self.structure,
            [t - base for t in self.times],
            [a - b for a, b in zip(self.counters, entry.counters, strict=True)],
        )

    def restore(self, core: CostCore, record: _Record, label: str) -> None:
        """Put ``core`` (in this state, equal by :meth:`key` to the recorded entry) into the
        recorded exit state: times relative to the issue clock, counters added. One slice per
        pipe, named ``label``, stands for the replayed span."""
        t = core.timeline
        base = t.issue
        events, holds, _, queues = record.structure
        busiest = _busiest(record.counters)
        times = iter(record.times)
        t.issue = base + next(times)
        last: dict[Pipe, int] = {}
        for p in TIMED_PIPES:
            start, end = t.free[p], base + next(times)
            t.free[p] = end
            if end > start:
                cause = t._last.get(p, -1)
                t.slices.append(
                    Slice(None, p, start, end, cause, p, label=label, bottleneck=busiest)
                )
                t._last[p] = len(t.slices) - 1
            last[p] = t._last.get(p, -1)
        t._hold = {p: (base + next(times), last[p], p) for p in holds}
        for p, length in zip(TIMED_PIPES, queues, strict=True):
            queue = t._queues[p]
            queue.clear()
            queue.extend((base + next(times), last[p]) for _ in range(length))
        t._events.clear()
        for k, length in events:
            src = k[0]
            cause = last.get(src, -1)
            t._events[k].extend((base + next(times), cause, src) for _ in range(length))
        _add_counters(core, record.counters)

    def minus(self, before: _State) -> tuple[list[float], list[float]] | None:
        if self.structure != before.structure:
            return None
        return (
            [a - b for a, b in zip(self.times, before.times, strict=True)],
            [a - b for a, b in zip(self.counters, before.counters, strict=True)],
        )

    def apply(
        self,
        core: CostCore,
        change: tuple[list[float], list[float]],
        label: str,
        times: int = 1,
    ) -> None:
        """Change ``core`` (in this state) by ``times`` x ``change``: iterations ran, without
        running them. One slice per pipe, named ``label``, stands for their span."""
        t = core.timeline
        busiest = _busiest(change[1])
        dt = iter(v * times for v in change[0])
        t.issue += next(dt)
        span: dict[Pipe, int] = {}
        for p in TIMED_PIPES:
            start = t.free[p]
            t.free[p] += next(dt)
            if t.free[p] > start:
                span[p] = len(t.slices)
                last = t._last.get(p, -1)
                t.slices.append(
                    Slice(None, p, start, t.free[p], last, p, label=label, bottleneck=busiest)
                )
                t._last[p] = span[p]
        # Pending events and holds now wait on the end of their pipe's span.
        for p in sorted(t._hold):
            time, cause, why = t._hold[p]
            t._hold[p] = (time + next(dt), span.get(why, cause), why)
        for p in TIMED_PIPES:  # the queued instructions were the span's: they start with it
            queue = t._queues[p]
            for j, (start, _) in enumerate(list(queue)):
                queue[j] = (start + next(dt), span.get(p, t._last.get(p, -1)))
        for k in sorted(k for k, q in t._events.items() if q):
            queue = t._events[k]
            for j, (arrival, cause, why) in enumerate(list(queue)):
                queue[j] = (arrival + next(dt), span.get(why, cause), why)
        _add_counters(core, [v * times for v in change[1]])


def _add_counters(core: CostCore, growth: Sequence[float]) -> None:
    """Add a counter change, in ``_State.of``'s order, to ``core``'s timeline and flags."""
    t, d = core.timeline, iter(growth)
    t.scalar_ops += round(next(d))
    t.mmad_flops += round(next(d))
    t.gm_bytes += round(next(d))
    for p in TIMED_PIPES:
        t.busy[p] += next(d)
        t.count[p] += round(next(d))
    for k in sorted(core.flags._counts):
        core.flags._counts[k] += round(next(d))


def launches(entry: func.FuncOp) -> list[LaunchOp]:
    """The ``ascend.launch`` ops an entry function runs, in order (at its top level)."""
    found = [op for op in entry.walk() if isinstance(op, LaunchOp)]
    for op in found:
        if op.parent_op() is not entry:
            raise ValueError(
                "cost-only runs the launches at the top level of the entry function; "
                f"@{op.callee.string_value()} is launched inside {op.parent_op().name}"
            )
    return found


class CycleLimitExceeded(Exception):
    """A launch is sure to take more than the ``cycle_limit`` it was timed against."""


def cost_only(
    module: ModuleOp,
    entry: func.FuncOp,
    hw_name: str = hw.DEFAULT_HW,
    max_iterations: int | None = None,
    cycle_limit: float = math.inf,
) -> list[CostReport]:
    """The cost report of every launch of ``entry``, without running its data, within a
    budget of ``max_iterations`` loop iterations (``runtime/machine/budget.py``). A launch sure to
    take more than ``cycle_limit`` cycles (a core's pipe busy past it: the makespan is at least
    that) raises :class:`CycleLimitExceeded` as soon as that is known, at a loop iteration or
    a core's end: a search that only asks "faster than the best so far?" stops there."""
    figures = cost_figures(hw_name)
    budget = Budget(max_iterations)
    reports = []
    for op in launches(entry):
        budget.take(op.blocks.value.data, op)
        args = []
        for operand in op.operands:
            if not isinstance(operand.type, GmTensorType):
                raise ValueError(
                    f"cost-only needs GM tensors as launch operands, got {operand.type}"
                )
            args.append(placeholder(operand.type))
        callee = op.callee.string_value()
        kernel = compiled.kernel_of(module, callee, hw_name, timed=True, aggregate=True)
        kernel.budget_cell[0] = budget
        report = CostReport(hw_name, figures, cube_dtype(op), 0.0)
        report.tensor_bytes = sum(a.size for a in args)
        timed: dict[int, tuple[CoreCost, int, int]] = {}
        replays: dict[tuple[Any, ...], _Record] = {}
        for block in range(op.blocks.value.data):
            signature = kernel.signature(block) if kernel.signature is not None else None
            if signature is not None and signature in timed:
                # The same timing-relevant work as a core timed before: the same timing.
                first, flops, extrapolated = timed[signature]
                report.cores.append(replace(first, block=block))
                report.flops += flops
                report.extrapolated += extrapolated
                continue
            timeline = Timeline(figures, l2_share(figures, op.blocks.value.data))
            core = CostCore(block, timeline, hw_name, budget=budget, cycle_limit=cycle_limit)
            core.replays = replays
            kernel.run(core, args)  # type: ignore[arg-type]
            core.finish()
            cost = core_cost(block, timeline)
            report.cores.append(cost)
            report.extrapolated += core.extrapolated
            report.flops += timeline.mmad_flops
            if signature is not None:
                timed[signature] = (cost, timeline.mmad_flops, core.extrapolated)
        reports.append(report)
    return reports
