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

What an instruction touches is not worked out here: :meth:`Sanitizer.record` takes the
instruction model's effects (:mod:`ascend_xdsl.hw.isa`: the pipe, and the byte ranges read and
written, each the extent between the first and the last byte the instruction touches). Global
memory is not tracked: the dW kernel writes GM only with atomic fixpipes and reads only x and dy.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation

from ascend_xdsl.hw.intmath import ceil_div
from ascend_xdsl.hw.isa import Effects, Pipe
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


class Sanitizer:
    """Happens-before checking of one kernel run, core by core."""

    @classmethod
    def for_hw(cls, hw_name: str) -> Sanitizer:
        """A sanitizer for the memories of one core of ``hw_name``."""
        return cls(core_memory.memory_sizes(hw_name))

    def __init__(self, memory_sizes: dict[str, int]):
        self.memory_sizes = memory_sizes
        self.hazards: list[Hazard] = []
        self._seen: set[tuple[int, int, str]] = set()
        self._ops: list[Operation] = []
        self._op_index: dict[int, int] = {}
        self.new_core(0)

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
        for span in effects.reads:
            if span.memory != "GM":
                self.access(op, pipe, span.memory, span.lo, span.hi, False, tick)
        for span in effects.writes:
            if span.memory != "GM":
                self.access(op, pipe, span.memory, span.lo, span.hi, True, tick)

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
