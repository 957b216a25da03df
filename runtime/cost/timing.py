"""The timing backend: the cycles of one AI Core, pipe by pipe, on the instruction model.

The third consumer of the instruction model's effects (``hw/isa.py``), next to the numpy
backend and the sanitizer. It runs alongside either executor: the machine
(``runtime/machine/core.py``) hands every instruction's :class:`~ascend_xdsl.hw.isa.Effects` and
every flag to the core's :class:`Timeline`, in program order.

The model, per core:

* the scalar unit issues every instruction in program order; issuing costs
  ``scalar_op_cycles``, and so does each index-arithmetic op the executor counts;
* each pipe (MTE2, MTE1, M, FIX) executes its instructions in issue order: an instruction
  starts when it has been issued and its pipe is free, and takes its latency plus its size over
  its throughput (:func:`duration`, from the figures of ``hw/cost_figures.py``);
* ``set_flag src -> dst`` fires once all earlier ``src`` work is done, and arrives
  ``flag_latency_cycles`` later; ``wait_flag`` holds pipe ``dst`` until the matching set has
  arrived (events match first-in first-out per (src, dst, id), as the flag model counts them);
  ``pipe_barrier ALL`` waits for every pipe. Flags and barriers are the only ordering between
  pipes: the same semantics the sanitizer checks.

Every instruction is recorded with the reason it could not start earlier (its own pipe, a flag
from another pipe, or the issue), so :meth:`Timeline.critical_path` can walk back from the last
instruction to the start and say which pipe the core's makespan waits on.

Cores are timed independently; ``runtime/cost/report.py`` combines them (the makespan is the slowest
core's) and applies the chip-level bandwidth bound.
"""

from __future__ import annotations

import math
from collections import defaultdict, deque
from dataclasses import dataclass, field

from xdsl.ir import Operation

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.intmath import ceil_div
from ascend_xdsl.hw.isa import FRACTAL, Effects, Pipe, Work

TIMED_PIPES: tuple[Pipe, ...] = (Pipe.MTE2, Pipe.MTE1, Pipe.M, Pipe.FIX)
"""The pipes of a Cube-only dW kernel; S (the scalar unit) is the issue clock."""


def mmad_cycles(figures: CostFigures, m: int, n: int, k: int, element_bytes: int) -> int:
    """Cube cycles of one mmad: whole 16x16 fractals of C, each over ``K0``-deep steps, at
    ``cube_macs_per_cycle`` (4096 MACs = 16x16x16 for 16-bit types), plus the head overhead."""
    dtype = "f32" if element_bytes == 4 else "f16"
    k0 = figures.cube_macs_per_cycle(dtype) // (FRACTAL * FRACTAL)
    return ceil_div(m, FRACTAL) * ceil_div(n, FRACTAL) * ceil_div(k, k0) + (
        figures.mmad_overhead_cycles
    )


def l2_share(figures: CostFigures, blocks: int) -> float:
    """Bytes per cycle of the chip's L2 bandwidth one core gets while a launch of ``blocks``
    cores runs: the chip's total over the cores running at once."""
    return figures.l2_bytes_per_second_total / figures.clock_hz / max(1, min(blocks, figures.cores))


def duration(figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
    """Cycles an instruction occupies its pipe: latency plus size over throughput. A GM
    transfer runs at most at ``gm_share`` bytes per cycle, the core's share of the chip's L2
    bandwidth (:func:`l2_share`)."""
    pipe, work = effects.pipe, effects.work
    if pipe == Pipe.M:
        return float(mmad_cycles(figures, work.m, work.n, work.k, work.element_bytes))
    if pipe == Pipe.MTE2:
        # The measured curve is the bandwidth a copy of that size reaches on one core alone,
        # start-up included (hw/cost_figures.py): adding the start-up latency again would count it
        # twice. With other cores copying at once, the core's share of L2 caps it.
        return work.bytes / min(figures.mte2_bytes_per_cycle(work.bytes), gm_share)
    if pipe == Pipe.MTE1:
        memory = effects.writes[0].memory
        if work.m:  # load3d: its rate depends on strideW and the kernel rows (Table 4)
            rate = figures.load3d_bytes_per_cycle(memory, work.stride[1], work.rows)
            return figures.load3d_latency_cycles + work.bytes / rate
        rate = figures.load2d_bytes_per_cycle(memory)  # load2d carries no m
        return figures.load2d_latency_cycles + work.bytes / rate
    if pipe == Pipe.FIX:
        rate = figures.fixpipe_bytes_per_cycle
        if any(span.memory == "GM" for span in effects.writes):
            rate = min(rate, gm_share)
        return figures.fixpipe_latency_cycles + work.bytes / rate
    return 0.0


@dataclass(frozen=True, slots=True)
class Slice:
    """One instruction on the timeline."""

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
    busy: dict[Pipe, float] = field(default_factory=lambda: dict.fromkeys(TIMED_PIPES, 0.0))
    count: dict[Pipe, int] = field(default_factory=lambda: dict.fromkeys(TIMED_PIPES, 0))
    scalar_ops: int = 0
    mmad_flops: int = 0
    """2 x the multiply-adds of the mmads as issued (tails included)."""
    gm_bytes: int = 0
    """Bytes the core read from and wrote to GM (the chip-level bandwidth floor needs them)."""
    slices: list[Slice] = field(default_factory=list)
    _last: dict[Pipe, int] = field(default_factory=dict)
    """Index of the last slice of each pipe (-1: none yet)."""
    _hold: dict[Pipe, tuple[float, int, Pipe]] = field(default_factory=dict)
    """What a wait_flag holds each pipe for: (time, slice, the pipe that slice ran on)."""
    _events: dict[tuple[Pipe, Pipe, int], deque[tuple[float, int, Pipe]]] = field(
        default_factory=lambda: defaultdict(deque)
    )
    _durations: dict[tuple[Pipe, object, str], float] = field(default_factory=dict)
    _queues: dict[Pipe, deque[tuple[float, int]]] = field(init=False)
    """Per pipe, the (start, slice) of its last ``queue_depth`` instructions."""

    def __post_init__(self) -> None:
        depth = self.figures.pipe_queue_depth
        self._queues = {p: deque(maxlen=depth) for p in TIMED_PIPES}

    def scalar(self, ops: int) -> None:
        """``ops`` index-arithmetic ops on the scalar unit."""
        self.scalar_ops += ops
        self.issue += ops * self.figures.scalar_op_cycles

    def _issue(self) -> float:
        t = self.issue
        self.issue += self.figures.scalar_op_cycles
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

    def cost_of(self, effects: Effects) -> tuple[Pipe, float, int, int, Work]:
        """What timing an instruction needs of its effects: its pipe, its cycles, the bytes it
        moves to or from GM, its FLOPs (an mmad's 2·m·n·k) and its work (for traces)."""
        pipe, work = effects.pipe, effects.work
        # A kernel repeats a few instruction shapes many times: cost each shape once.
        shape = (pipe, work, effects.writes[0].memory if effects.writes else "")
        length = self._durations.get(shape)
        if length is None:
            length = self._durations[shape] = duration(self.figures, effects, self.gm_share)
        flops = 2 * work.m * work.n * work.k if pipe == Pipe.M else 0
        spans = (*effects.reads, *effects.writes)
        gm = work.bytes if any(span.memory == "GM" for span in spans) else 0  # moved bytes
        return pipe, length, gm, flops, work

    def run(
        self,
        op: Operation | None,
        pipe: Pipe,
        length: float,
        gm_bytes: int,
        flops: int,
        work: Work | None = None,
    ) -> None:
        """One instruction of ``length`` cycles on ``pipe`` (see :meth:`cost_of`). It is
        issued once its pipe's queue has room: the scalar unit stalls while ``queue_depth``
        earlier instructions of the pipe have not started."""
        queue = self._queues[pipe]
        issued, cause, why = self._issue(), -1, Pipe.S
        if len(queue) == queue.maxlen and queue[0][0] > issued:
            issued, cause, why = queue[0][0], queue[0][1], pipe
            self.issue = issued + self.figures.scalar_op_cycles
        start, ready_cause, ready_why = self._ready(pipe, issued)
        if start > issued or cause < 0:
            cause, why = ready_cause, ready_why
        self._hold.pop(pipe, None)  # the instruction starts after it: later ones follow
        self.mmad_flops += flops
        self.gm_bytes += gm_bytes
        end = start + length
        self.free[pipe] = end
        self.busy[pipe] += length
        self.count[pipe] += 1
        self._last[pipe] = len(self.slices)
        queue.append((start, len(self.slices)))
        self.slices.append(Slice(op, pipe, start, end, cause, why, work))

    def set_flag(self, src: Pipe, dst: Pipe, event: int) -> None:
        issued = self._issue()
        if src in self.free:
            fired, cause, why = self._ready(src, issued)
        else:  # an event from the scalar unit fires when it is issued
            fired, cause, why = issued, -1, Pipe.S
        arrival = fired + self.figures.flag_latency_cycles
        self._events[(src, dst, event)].append((arrival, cause, why))

    def wait_flag(self, src: Pipe, dst: Pipe, event: int) -> None:
        self._issue()
        queue = self._events[(src, dst, event)]
        if not queue or dst not in self.free:
            return  # an unmatched wait is the flag model's error, reported there
        arrival = queue.popleft()
        held = self._hold.get(dst)
        if held is None or arrival[0] > held[0]:
            self._hold[dst] = arrival

    def barrier(self, pipe: Pipe) -> None:
        self._issue()
        if pipe != Pipe.ALL:
            return  # in-pipe order is already program order here
        latest = max(TIMED_PIPES, key=lambda p: self.free[p])
        t = self.free[latest]
        for p in TIMED_PIPES:
            held = self._hold.get(p)
            if self.free[p] < t and (held is None or held[0] < t):
                self._hold[p] = (t, self._last.get(latest, -1), latest)

    @property
    def cycles(self) -> float:
        """The core's makespan: when its last pipe goes idle (or the scalar unit finishes)."""
        return max(self.issue, *self.free.values())

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
        i = max(range(len(self.slices)), key=lambda j: self.slices[j].end)
        reached = self.cycles
        gap_kind = "S"
        while True:
            s = self.slices[i]
            if s.end < reached:
                share[gap_kind] += reached - s.end
            share[str(s.bottleneck or s.pipe)] += max(0.0, min(s.end, reached) - s.start)
            reached = min(reached, s.start)
            if s.cause < 0:
                share["S"] += reached
                break
            gap_kind = "flag" if s.cause_pipe not in (s.pipe, Pipe.S) else "S"
            i = s.cause
        return dict(share)
