"""``ascend-insert-sync``: derive ``set_flag``/``wait_flag`` from the buffer accesses of the pipes.

The AI Core's pipes (MTE2, MTE1, M, FIX) run concurrently; only event flags order them. For
every local buffer, this pass finds where one pipe hands the buffer to another and inserts a
flag there, which is exactly what a hand-written Ascend C kernel does with
``SetFlag<HardEvent::MTE2_MTE1>`` & co.:

* **RAW** (a pipe writes, another reads: data ready) and **WAR** (a pipe reads, another
  overwrites: slot free) hand-overs between two consecutive accessing ops of a block get a
  ``set_flag`` after the first and a ``wait_flag`` before the second;
* in a loop body, the hand-over from the last access of one iteration to the first access of
  the next (the ping-pong "slot free" edge) is synchronised the same way; its first wait is
  satisfied by a ``set_flag`` issued once at kernel entry, and the last set is drained by a
  ``wait_flag`` at kernel exit, so every set is consumed by exactly one wait;
* accesses by the same pipe need nothing (a pipe executes in order).

Event ids: each (buffer, src pipe, dst pipe) owns one id per slot, ``base + slot``, so the two
halves of a ping-pong buffer synchronise independently. When the slot of an access is not
visible where the flag goes (it is computed inside a nested loop), the flag covers every slot
of the buffer, on both sides of the hand-over, so sets and waits stay balanced.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import pairwise

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.enums import Pipe
from ascend_xdsl.dialects.hw_level import (
    AllocBufferOp,
    SetFlagOp,
    WaitFlagOp,
    pipe_of,
    reads,
    writes,
)
from ascend_xdsl.hw import load


@dataclass(frozen=True)
class Leaf:
    """One access of a buffer by a hardware op."""

    op: Operation
    pipe: Pipe
    write: bool
    slot: SSAValue | None


def leaves_of(op: Operation, buffer: SSAValue) -> list[Leaf]:
    """The accesses of ``buffer`` by ``op`` and everything nested in it, in program order."""
    found: list[Leaf] = []
    for o in op.walk():
        written = [a for a in writes(o) if a.buffer is buffer]
        read = [a for a in reads(o) if a.buffer is buffer]
        pipe = pipe_of(o)
        if (written or read) and pipe is not None:
            access = (written or read)[0]
            found.append(Leaf(o, pipe, bool(written), access.slot))
    return found


def _visible(value: SSAValue | None, container: Operation) -> bool:
    """Is ``value`` defined outside ``container`` (so usable right before or after it)?"""
    if value is None:
        return False
    owner = value.owner
    node: Operation | None = owner if isinstance(owner, Operation) else owner.parent_op()
    while node is not None:
        if node is container:
            return False
        node = node.parent_op()
    return True


@dataclass
class EventTable:
    """Event ids per (buffer, src, dst): ``slots`` consecutive ids from a base."""

    limit: int
    bases: dict[tuple[SSAValue, Pipe, Pipe], int] = field(default_factory=dict)
    used: dict[tuple[Pipe, Pipe], int] = field(default_factory=lambda: defaultdict(int))

    def base(self, buffer: SSAValue, src: Pipe, dst: Pipe, slots: int) -> int:
        key = (buffer, src, dst)
        if key not in self.bases:
            self.bases[key] = self.used[(src, dst)]
            self.used[(src, dst)] += slots
            if self.used[(src, dst)] > self.limit:
                raise PassFailedException(
                    f"out of event ids for {src}->{dst}: need {self.used[(src, dst)]}, the "
                    f"hardware has {self.limit}"
                )
        return self.bases[key]


@dataclass
class SyncBuilder:
    kernel: func.FuncOp
    events: EventTable
    presets: set[tuple[SSAValue, Pipe, Pipe]] = field(default_factory=set)

    def flag(
        self,
        kind: type[SetFlagOp | WaitFlagOp],
        at: InsertPoint,
        buffer: SSAValue,
        src: Pipe,
        dst: Pipe,
        slot: SSAValue | None,
    ) -> None:
        alloc = buffer.owner
        assert isinstance(alloc, AllocBufferOp)
        base = self.events.base(buffer, src, dst, alloc.num_slots)
        block = Block()
        with ImplicitBuilder(block):
            if slot is None:
                for s in range(alloc.num_slots):
                    kind(src, dst, arith.ConstantOp(IntegerAttr(base + s, IndexType())).result)
            else:
                ev = slot
                if base:
                    ev = arith.AddiOp(slot, arith.ConstantOp(IntegerAttr(base, IndexType()))).result
                kind(src, dst, ev)
        Rewriter.inline_block(block, at)

    def hand_over(
        self, buffer: SSAValue, x: Operation, last: Leaf, y: Operation, first: Leaf, cyclic: bool
    ) -> None:
        """Order ``last`` (in ``x``) before ``first`` (in ``y``)."""
        set_slot, wait_slot = last.slot, first.slot
        if not (_visible(set_slot, x) and _visible(wait_slot, y)) or (
            cyclic and not (_visible(set_slot, y) and _visible(wait_slot, x))
        ):
            set_slot = wait_slot = None
        self.flag(SetFlagOp, InsertPoint.after(x), buffer, last.pipe, first.pipe, set_slot)
        self.flag(WaitFlagOp, InsertPoint.before(y), buffer, last.pipe, first.pipe, wait_slot)
        if cyclic:
            self.presets.add((buffer, last.pipe, first.pipe))

    def block(self, block: Block, buffer: SSAValue) -> None:
        entries = [(op, leaves_of(op, buffer)) for op in block.ops]
        entries = [(op, lv) for op, lv in entries if lv]
        for op, lv in entries:
            if len({leaf.pipe for leaf in lv}) > 1 and op.regions:
                for region in op.regions:
                    for inner in region.blocks:
                        self.block(inner, buffer)
        for (x, lx), (y, ly) in pairwise(entries):
            if _needs_sync(lx[-1], ly[0]):
                self.hand_over(buffer, x, lx[-1], y, ly[0], cyclic=False)
        in_loop = isinstance(block.parent_op(), scf.ForOp)
        single_loop = len(entries) == 1 and _carries_own_cycle(entries[0][0], buffer)
        if in_loop and entries and not single_loop:
            (y, ly), (x, lx) = entries[0], entries[-1]
            if _needs_sync(lx[-1], ly[0]):
                self.hand_over(buffer, x, lx[-1], y, ly[0], cyclic=True)

    def finish(self) -> None:
        """Presets at entry and drains at exit for every loop-carried hand-over."""
        body = self.kernel.body.block
        last_alloc = [op for op in body.ops if isinstance(op, AllocBufferOp)][-1]
        ret = body.last_op
        assert ret is not None
        for buffer, src, dst in sorted(
            self.presets, key=lambda p: (str(p[1]), str(p[2]), self.events.bases[p])
        ):
            self.flag(SetFlagOp, InsertPoint.after(last_alloc), buffer, src, dst, None)
            self.flag(WaitFlagOp, InsertPoint.before(ret), buffer, src, dst, None)


def _carries_own_cycle(op: Operation, buffer: SSAValue) -> bool:
    """Does ``op`` synchronise its own last-to-first hand-over? A loop does (its body's wait
    runs on every iteration, whatever encloses it); so does an ``scf.if`` around one such op."""
    if isinstance(op, scf.ForOp):
        return True
    if isinstance(op, scf.IfOp) and not op.false_region.blocks:
        inner = [o for o in op.true_region.block.ops if leaves_of(o, buffer)]
        return len(inner) == 1 and _carries_own_cycle(inner[0], buffer)
    return False


def _needs_sync(a: Leaf, b: Leaf) -> bool:
    return a.pipe != b.pipe and (a.write or b.write)


@dataclass(frozen=True)
class InsertSyncPass(ModulePass):
    """Insert the event flags that order the pipes' accesses to every local buffer."""

    name = "ascend-insert-sync"

    hw: str = "atlas-a2-910b2"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        limit = load(self.hw).event_ids
        for kernel in [o for o in op.ops if isinstance(o, func.FuncOp)]:
            if any(isinstance(o, SetFlagOp | WaitFlagOp) for o in kernel.walk()):
                continue  # already synchronised (by hand or by an earlier run)
            allocs = [o for o in kernel.walk() if isinstance(o, AllocBufferOp)]
            if not allocs:
                continue
            builder = SyncBuilder(kernel, EventTable(limit))
            for alloc in allocs:
                builder.block(kernel.body.block, alloc.result)
            builder.finish()
