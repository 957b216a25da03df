"""The synchronisation sanitizer: find accesses that the flags and barriers do not order.

On the AI Core the pipes (MTE2, MTE1, M, FIX) run concurrently; the in-order interpreter hides
that, so a kernel whose flags are wrong still computes the right numbers here and fails on the
NPU. The sanitizer watches what really happens:

* every pipe keeps a *vector clock*: what it knows to have completed on every pipe. An
  instruction on pipe ``p`` ticks ``p``'s own entry;
* ``set_flag src -> dst`` records ``src``'s clock on the event (FIFO per (src, dst, id), as
  the hardware counts events); the matching ``wait_flag`` merges it into ``dst``'s clock;
  ``pipe_barrier ALL`` merges every clock;
* every local memory is tracked per 32-byte block: the last write (pipe, tick, op) and the last
  read of each pipe. An access from pipe ``q`` to a block that another pipe wrote (RAW/WAW) or
  read (WAR, for a write) at a tick ``q``'s clock does not cover is a *hazard*, reported with both
  instructions' locations and the memory range.

Two more findings, which no flag can fix:

* an *accumulation onto stale bytes*: an instruction that reads and writes the same bytes (an
  ``mmad`` with ``init = false``, ``C += A @ B``) on bytes no instruction wrote since the kernel
  started, or since an instruction moved them out to GM (a ``fixpipe`` *drained* them): it adds
  to whatever the memory held;
* a *GM race*: a write to GM (``record_gm``, the spec's ``gm_writes``, exact runs) of bytes that
  another block of the same launch also writes, where either write is not an atomic add (the
  result depends on which core writes last); or a write without atomic add of bytes that an
  earlier launch wrote (the earlier launch's result is overwritten, as when a kernel is launched
  twice into the same dW). GM is tracked per tensor, in 4-byte words; reads of GM are not.

What an instruction touches is not worked out here: :meth:`Sanitizer.record` takes the
instruction model's effects (:mod:`ascend_xdsl.hw.isa`: the pipe, and the byte ranges read and
written, each the extent between the first and the last byte the instruction touches).
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation

from ascend_xdsl.hw.intmath import ceil_div
from ascend_xdsl.hw.isa import Effects, Pipe, Span
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.runtime.machine import memory as core_memory

PIPES: tuple[Pipe, ...] = (Pipe.MTE2, Pipe.MTE1, Pipe.M, Pipe.FIX, Pipe.MTE3, Pipe.V, Pipe.S)
_PIPE_ID = {p: i for i, p in enumerate(PIPES)}
BLOCK = 32


@dataclass(frozen=True)
class Hazard:
    kind: str  # RAW, WAR or WAW
    memory: str
    lo: int
    hi: int
    first: Operation
    first_pipe: str
    second: Operation
    second_pipe: str
    block_idx: int

    def describe(self) -> str:
        verb = {"RAW": "reads what", "WAR": "overwrites what", "WAW": "overwrites what"}[self.kind]
        did = {"RAW": "wrote", "WAR": "read", "WAW": "wrote"}[self.kind]
        return (
            f"{self.kind} hazard on {self.memory} bytes [{self.lo}, {self.hi}) in block "
            f"{self.block_idx}: {describe_op(self.second)} on {self.second_pipe} {verb} "
            f"{describe_op(self.first)} on {self.first_pipe} {did}, with no flag or barrier "
            "ordering them"
        )


@dataclass(frozen=True)
class StaleAccumulation:
    """An accumulation (a read-modify-write, ``mmad`` with ``init = false``) onto bytes nothing
    wrote since the kernel started, or since ``drained_by`` moved them out."""

    memory: str
    lo: int
    hi: int
    op: Operation
    block_idx: int
    drained_by: Operation | None
    kind: str = "stale accumulation"

    def describe(self) -> str:
        since = (
            "since the kernel started"
            if self.drained_by is None
            else f"since {describe_op(self.drained_by)} drained them"
        )
        return (
            f"stale accumulation on {self.memory} bytes [{self.lo}, {self.hi}) in block "
            f"{self.block_idx}: {describe_op(self.op)} accumulates onto bytes no instruction "
            f"wrote {since} (init = false adds to whatever they hold)"
        )


@dataclass(frozen=True)
class GmRace:
    """Two writes of the same GM bytes whose result depends on their order: two blocks of one
    launch, one of them without atomic add; or a write without atomic add over an earlier
    launch's result."""

    lo: int
    hi: int
    first: Operation
    first_block: int
    first_launch: int
    second: Operation
    second_block: int
    second_launch: int
    kind: str = "GM race"

    def describe(self) -> str:
        if self.first_launch == self.second_launch:
            return (
                f"GM race on bytes [{self.lo}, {self.hi}) in launch {self.second_launch}: "
                f"{describe_op(self.second)} in block {self.second_block} and "
                f"{describe_op(self.first)} in block {self.first_block} both write them, not "
                "both with atomic add, so the result depends on which core writes last"
            )
        return (
            f"GM overwrite of bytes [{self.lo}, {self.hi}): {describe_op(self.second)} in "
            f"launch {self.second_launch} writes them without atomic add over what "
            f"{describe_op(self.first)} wrote in launch {self.first_launch}, whose result is lost"
        )


Finding = Hazard | StaleAccumulation | GmRace
"""What the sanitizer reports."""

_WORD = 4
"""GM is tracked in 4-byte words (fixpipe writes float32)."""


@dataclass
class _GmTrack:
    """The last write of each word of one GM tensor: its block, launch, op and atomicity."""

    tensor: object
    """Held so that the tensor's identity, the key of its track, stays unique."""
    words: int
    block: np.ndarray = field(init=False)
    launch: np.ndarray = field(init=False)
    op: np.ndarray = field(init=False)
    atomic: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.block = np.full(self.words, -1, np.int64)
        self.launch = np.full(self.words, -1, np.int64)
        self.op = np.full(self.words, -1, np.int64)
        self.atomic = np.zeros(self.words, bool)


@dataclass
class _MemoryTrack:
    blocks: int
    w_pipe: np.ndarray = field(init=False)
    w_tick: np.ndarray = field(init=False)
    w_op: np.ndarray = field(init=False)
    r_tick: np.ndarray = field(init=False)
    r_op: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.w_pipe = np.full(self.blocks, -1, np.int8)
        self.w_tick = np.zeros(self.blocks, np.int64)
        self.w_op = np.full(self.blocks, -1, np.int64)
        self.r_tick = np.zeros((len(PIPES), self.blocks), np.int64)
        self.r_op = np.full((len(PIPES), self.blocks), -1, np.int64)
        self.drained = np.full(self.blocks, -1, np.int64)
        """The op that last moved each block out to GM since it was written (-1: none)."""


class Sanitizer:
    """Happens-before checking of one kernel run, core by core."""

    @classmethod
    def for_hw(cls, hw_name: str) -> Sanitizer:
        """A sanitizer for the memories of one core of ``hw_name``."""
        return cls(core_memory.memory_sizes(hw_name))

    def __init__(self, memory_sizes: dict[str, int]):
        self.memory_sizes = memory_sizes
        self.hazards: list[Finding] = []
        self.launch = 0
        """The launch running (1, 2, ... in the order of the host's ``ascend.launch`` ops)."""
        self._gm: dict[int, _GmTrack] = {}
        self._seen: set[tuple[int, int, str]] = set()
        self._ops: list[Operation] = []
        self._op_index: dict[int, int] = {}
        self.new_core(0)

    def new_launch(self) -> None:
        """An ``ascend.launch`` starts: its blocks' GM writes are compared with each other's,
        and with earlier launches'."""
        self.launch += 1

    def new_core(self, block_idx: int) -> None:
        self.block_idx = block_idx
        self.clock = np.zeros((len(PIPES), len(PIPES)), np.int64)
        self.events: dict[tuple[str, str, int], deque[np.ndarray]] = defaultdict(deque)
        self.memories = {
            name: _MemoryTrack(ceil_div(size, BLOCK)) for name, size in self.memory_sizes.items()
        }

    def _op_id(self, op: Operation) -> int:
        key = id(op)
        if key not in self._op_index:
            self._op_index[key] = len(self._ops)
            self._ops.append(op)
        return self._op_index[key]

    def record(self, op: Operation, effects: Effects) -> None:
        """``op`` executes with ``effects``: tick its pipe, then check its reads, then its
        writes (GM is not tracked)."""
        pipe = effects.pipe
        tick = self.tick(pipe)
        to_gm = any(span.memory == "GM" for span in effects.writes)
        for span in effects.reads:
            if span.memory != "GM":
                if span in effects.writes:  # read-modify-write: an accumulation
                    self._accumulation(op, span.memory, span.lo, span.hi)
                self.access(op, pipe, span.memory, span.lo, span.hi, False, tick)
                if to_gm:
                    self._drain(op, span.memory, span.lo, span.hi)
        for span in effects.writes:
            if span.memory != "GM":
                self.access(op, pipe, span.memory, span.lo, span.hi, True, tick)

    def _accumulation(self, op: Operation, memory: str, lo: int, hi: int) -> None:
        """``op`` adds onto bytes [lo, hi): report them if nothing wrote them since the kernel
        started or since they were drained."""
        if hi <= lo:
            return
        track = self.memories[memory]
        b0, b1 = lo // BLOCK, ceil_div(hi, BLOCK)
        stale = (track.w_pipe[b0:b1] < 0) | (track.drained[b0:b1] >= 0)
        if not stale.any():
            return
        idx = np.flatnonzero(stale)
        drained = track.drained[b0:b1][idx]
        by = int(drained[drained >= 0][0]) if (drained >= 0).any() else -1
        first = None if by < 0 else self._ops[by]
        key = (id(first), id(op), "stale")
        if key in self._seen:
            return
        self._seen.add(key)
        span_lo, span_hi = (b0 + int(idx[0])) * BLOCK, (b0 + int(idx[-1]) + 1) * BLOCK
        self.hazards.append(
            StaleAccumulation(memory, max(lo, span_lo), min(hi, span_hi), op, self.block_idx, first)
        )

    def _drain(self, op: Operation, memory: str, lo: int, hi: int) -> None:
        """``op`` moves bytes [lo, hi) out to GM."""
        if hi > lo:
            self.memories[memory].drained[lo // BLOCK : ceil_div(hi, BLOCK)] = self._op_id(op)

    def record_gm(
        self, op: Operation, tensor: object, nbytes: int, runs: tuple[Span, ...], atomic: bool
    ) -> None:
        """``op`` (of the running block and launch) writes ``runs`` of the GM ``tensor`` of
        ``nbytes`` bytes, added atomically or not: report a :class:`GmRace` with an earlier
        write that its order decides."""
        track = self._gm.get(id(tensor))
        if track is None or track.tensor is not tensor:
            track = self._gm[id(tensor)] = _GmTrack(tensor, ceil_div(nbytes, _WORD))
        me = self._op_id(op)
        for span in runs:
            w0, w1 = max(span.lo // _WORD, 0), min(ceil_div(span.hi, _WORD), track.words)
            if w1 <= w0:
                continue
            block, launch = track.block[w0:w1], track.launch[w0:w1]
            written = block >= 0
            same_launch = written & (launch == self.launch)
            race = same_launch & (block != self.block_idx)
            if atomic:
                race &= ~track.atomic[w0:w1]
            race |= written & (launch != self.launch) & (not atomic)
            if race.any():
                self._report_gm(track, race, w0, op)
            block[:] = self.block_idx
            launch[:] = self.launch
            track.op[w0:w1] = me
            track.atomic[w0:w1] = atomic

    def _report_gm(self, track: _GmTrack, race: np.ndarray, w0: int, op: Operation) -> None:
        idx = np.flatnonzero(race)
        i = w0 + int(idx[0])
        first = self._ops[int(track.op[i])]
        key = (id(first), id(op), "gm")
        if key in self._seen:
            return
        self._seen.add(key)
        same = w0 + idx[track.op[w0 + idx] == track.op[i]]
        self.hazards.append(
            GmRace(
                int(same[0]) * _WORD,
                (int(same[-1]) + 1) * _WORD,
                first,
                int(track.block[i]),
                int(track.launch[i]),
                op,
                self.block_idx,
                self.launch,
            )
        )

    def tick(self, pipe: str) -> int:
        q = _PIPE_ID[pipe]
        self.clock[q, q] += 1
        return int(self.clock[q, q])

    def access(
        self, op: Operation, pipe: str, memory: str, lo: int, hi: int, write: bool, tick: int
    ) -> None:
        """``op`` on ``pipe`` reads or writes bytes [lo, hi) of ``memory`` at ``tick``."""
        if hi <= lo:
            return
        q = _PIPE_ID[pipe]
        known = self.clock[q]
        track = self.memories[memory]
        b0, b1 = lo // BLOCK, ceil_div(hi, BLOCK)
        wp = track.w_pipe[b0:b1]
        unordered = (wp >= 0) & (wp != q)
        if unordered.any():
            unordered &= track.w_tick[b0:b1] > known[np.where(wp >= 0, wp, 0)]
        if unordered.any():
            self._report(
                unordered, track.w_op[b0:b1], "WAW" if write else "RAW", op, pipe, memory, b0, wp
            )
        if write:
            for p in range(len(PIPES)):
                if p == q:
                    continue
                late = track.r_tick[p, b0:b1] > known[p]
                if late.any():
                    self._report(
                        late, track.r_op[p, b0:b1], "WAR", op, pipe, memory, b0, np.full(b1 - b0, p)
                    )
            track.w_pipe[b0:b1] = q
            track.w_tick[b0:b1] = tick
            track.w_op[b0:b1] = self._op_id(op)
            track.r_tick[:, b0:b1] = 0
            track.drained[b0:b1] = -1
        else:
            track.r_tick[q, b0:b1] = tick
            track.r_op[q, b0:b1] = self._op_id(op)

    def _report(
        self,
        mask: np.ndarray,
        ops: np.ndarray,
        kind: str,
        op: Operation,
        pipe: str,
        memory: str,
        b0: int,
        pipes: np.ndarray,
    ) -> None:
        idx = np.flatnonzero(mask)
        first_i = int(idx[0])
        first = self._ops[int(ops[first_i])]
        key = (id(first), id(op), kind)
        if key in self._seen:
            return
        self._seen.add(key)
        same = idx[ops[idx] == ops[first_i]]
        lo = (b0 + int(same[0])) * BLOCK
        hi = (b0 + int(same[-1]) + 1) * BLOCK
        self.hazards.append(
            Hazard(
                kind, memory, lo, hi, first, PIPES[int(pipes[first_i])], op, pipe, self.block_idx
            )
        )

    def set_flag(self, src: str, dst: str, event: int) -> None:
        self.events[(src, dst, event)].append(self.clock[_PIPE_ID[src]].copy())

    def wait_flag(self, src: str, dst: str, event: int) -> None:
        queue = self.events[(src, dst, event)]
        if queue:  # an unmatched wait is the flag model's error, reported there
            d = _PIPE_ID[dst]
            np.maximum(self.clock[d], queue.popleft(), out=self.clock[d])

    def barrier(self, pipe: str) -> None:
        if pipe == Pipe.ALL:
            self.clock[:] = self.clock.max(axis=0)
