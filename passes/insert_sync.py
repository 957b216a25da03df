"""``ascend-insert-sync``: derive ``set_flag``/``wait_flag`` from the buffer accesses of the pipes.

The AI Core's pipes (MTE2, MTE1, M, FIX) run concurrently; only event flags order them. This
pass finds every place where one pipe hands a local buffer to another and orders it with a flag,
as a hand-written Ascend C kernel does with ``SetFlag<HardEvent::MTE2_MTE1>`` & co.

1. **Hand-overs.** For each buffer and each block, the ops that touch the buffer (directly or
   nested) are taken in order. Between two consecutive ones whose accesses are by different
   pipes and one of them writes — RAW (data ready) or WAR (slot free) — the last access of the
   first must precede the first access of the second. In a loop body the hand-over from the last
   access of an iteration to the first of the next (the ping-pong "slot free" edge) counts too,
   unless the body's only accessing op is itself a loop (then that loop carries it). Accesses by
   one pipe need nothing: a pipe executes in order.
2. **Covering.** ``set_flag`` fires once *all* earlier work of its pipe is done, so one
   set/wait pair orders every hand-over of the same pipe pair whose producer is at or before the
   set and whose consumer is at or after the wait. Hand-overs of one block and pipe pair that
   use the same slot value are covered with as few pairs as possible (one, in this kernel's loop
   bodies: L0A and L0B share one flag, as in the vendor's implementation).
3. **Events.** A pair uses one event id per slot, ``base + slot``, so both halves of a ping-pong
   buffer can be in flight at once. Where the slot is not visible at the flag (it is computed in
   a nested loop), the pair uses a single id. Loop-carried pairs are preset once at kernel entry
   (so their first wait passes) and drained at exit, so every set is consumed by exactly one
   wait.

``runtime/machine/sanitizer.py`` checks the result dynamically; the mutation test deletes each wait
in turn and shows every one of them is needed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import pairwise

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.enums import Pipe
from ascend_xdsl.dialects.hw_level import (
    TARGET_ATTR,
    AllocBufferOp,
    SetFlagOp,
    WaitFlagOp,
    pipe_of,
    reads,
    writes,
)
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.passes.hardware import load_hw


@dataclass(frozen=True)
class Leaf:
    """One access of a buffer by a hardware op."""

    op: Operation
    pipe: Pipe
    write: bool
    slot: SSAValue | None


def _own_leaf(o: Operation, buffer: SSAValue) -> Leaf | None:
    """The access of ``buffer`` by ``o`` itself (not by the ops nested in it), if any."""
    written = [a for a in writes(o) if a.buffer is buffer]
    read = [a for a in reads(o) if a.buffer is buffer]
    pipe = pipe_of(o)
    if (written or read) and pipe is not None:
        return Leaf(o, pipe, bool(written), (written or read)[0].slot)
    return None


@dataclass
class _Leaves:
    """``leaves(op, buffer)``: the accesses of ``buffer`` by ``op`` and everything nested in
    it, in program order, remembered for one search of hand-overs (the kernel does not change
    during it): an op's leaves are its own access then its nested ops' leaves in order, each
    computed once. Walking every op's subtree again at each level of nesting, for every
    buffer, was most of the pass, and the pass a third of compiling a tuning candidate."""

    memo: dict[tuple[Operation, SSAValue], list[Leaf]] = field(default_factory=dict)

    def __call__(self, op: Operation, buffer: SSAValue) -> list[Leaf]:
        key = (op, buffer)
        found = self.memo.get(key)
        if found is None:
            own = _own_leaf(op, buffer)
            found = [] if own is None else [own]
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.ops:
                        found += self(inner, buffer)
            self.memo[key] = found
        return found


def _defined_outside(value: SSAValue | None, container: Operation) -> bool:
    """Is ``value`` defined outside ``container``, so usable right before or after it?"""
    if value is None:
        return False
    owner = value.owner
    node: Operation | None = owner if isinstance(owner, Operation) else owner.parent_op()
    while node is not None:
        if node is container:
            return False
        node = node.parent_op()
    return True


def _carries_own_cycle(op: Operation, buffer: SSAValue, leaves: _Leaves) -> bool:
    """Does ``op`` synchronise its own last-to-first hand-over? A loop does (its body's wait
    runs on every iteration, whatever encloses it); so does an ``scf.if`` around one such op."""
    if isinstance(op, scf.ForOp):
        return True
    if isinstance(op, scf.IfOp) and not op.false_region.blocks:
        inner = [o for o in op.true_region.block.ops if leaves(o, buffer)]
        return len(inner) == 1 and _carries_own_cycle(inner[0], buffer, leaves)
    return False


@dataclass(frozen=True)
class HandOver:
    """``x`` (in ``block``) must be done on ``src`` before ``y`` starts on ``dst``."""

    block: Block
    x: Operation
    y: Operation
    src: Pipe
    dst: Pipe
    cyclic: bool
    slot: SSAValue | None
    """The slot both sides use, if visible at both flags (None: one event for all slots)."""
    slots: int
    producer: Operation
    """The last access of ``x`` (the hardware op whose completion is awaited)."""
    consumer: Operation
    """The first access of ``y`` (the hardware op that must wait)."""


def _hand_overs(
    block: Block, buffer: SSAValue, slots: int, out: list[HandOver], leaves: _Leaves
) -> None:
    entries = [(op, lv) for op in block.ops if (lv := leaves(op, buffer))]
    for op, lv in entries:
        if len({leaf.pipe for leaf in lv}) > 1:
            for region in op.regions:
                for inner in region.blocks:
                    _hand_overs(inner, buffer, slots, out, leaves)

    def add(x: Operation, last: Leaf, y: Operation, first: Leaf, cyclic: bool) -> None:
        if last.pipe == first.pipe or not (last.write or first.write):
            return
        visible = (
            last.slot is first.slot
            and _defined_outside(last.slot, x)
            and _defined_outside(first.slot, y)
        )
        slot = last.slot if visible else None
        out.append(
            HandOver(block, x, y, last.pipe, first.pipe, cyclic, slot, slots, last.op, first.op)
        )

    for (x, lx), (y, ly) in pairwise(entries):
        add(x, lx[-1], y, ly[0], cyclic=False)
    in_loop = isinstance(block.parent_op(), scf.ForOp)
    if (
        in_loop
        and entries
        and not (len(entries) == 1 and _carries_own_cycle(entries[0][0], buffer, leaves))
    ):
        (y, ly), (x, lx) = entries[0], entries[-1]
        add(x, lx[-1], y, ly[0], cyclic=True)


@dataclass(frozen=True)
class FlagPair:
    """One ``set_flag`` after ``x`` and its ``wait_flag`` before ``y``."""

    group: tuple[Block, Pipe, Pipe, bool, SSAValue | None]
    x: Operation
    y: Operation
    ids: int


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    """The op of ``block`` that is ``op`` or contains it (None if ``op`` is not below it)."""
    node: Operation | None = op
    while node is not None and node.parent_block() is not block:
        node = node.parent_op()
    return node


def _covered_by_nested(h: HandOver, p: FlagPair) -> bool:
    """Does the (non-cyclic) pair ``p``, nested in ``h.y`` or ``h.x``, already order ``h``?

    Inside the consumer ``h.y``: ``p``'s set runs after ``h.x`` (it is issued later on the same
    pipe) and its wait comes before ``h.consumer`` in the same block, so ``h.consumer`` waits for
    ``h.x``. Inside the producer ``h.x``: ``p``'s set follows ``h.producer`` and its wait comes
    before ``h.y``. Either way the flag is already there, on every path.
    """
    _, src, dst, cyclic, _ = p.group
    if cyclic or (src, dst) != (h.src, h.dst):
        return False
    block = p.group[0]
    index = {op: i for i, op in enumerate(block.ops)}
    consumer = _ancestor_in(h.consumer, block)
    if consumer is not None and _ancestor_in(p.y, h.block) is h.y:
        return index[p.y] <= index[consumer]
    producer = _ancestor_in(h.producer, block)
    if producer is not None and _ancestor_in(p.x, h.block) is h.x:
        return index[p.x] >= index[producer]
    return False


def cover_nested(hand_overs: list[HandOver]) -> list[FlagPair]:
    """Pairs for the hand-overs, innermost blocks first, dropping a hand-over that a pair nested
    inside its producer or consumer already orders."""

    def depth(block: Block) -> int:
        d, op = 0, block.parent_op()
        while op is not None:
            d, op = d + 1, op.parent_op()
        return d

    kept: list[FlagPair] = []
    by_depth: dict[int, list[HandOver]] = defaultdict(list)
    for h in hand_overs:
        by_depth[depth(h.block)].append(h)
    for d in sorted(by_depth, reverse=True):
        needed = [h for h in by_depth[d] if not any(_covered_by_nested(h, p) for p in kept)]
        kept += cover(needed)
    return kept


def cover(hand_overs: list[HandOver]) -> list[FlagPair]:
    """The fewest set/wait pairs that order every hand-over (grouped by block, pipes, slot)."""
    groups: dict[tuple[Block, Pipe, Pipe, bool, SSAValue | None], list[HandOver]] = {}
    for h in hand_overs:
        groups.setdefault((h.block, h.src, h.dst, h.cyclic, h.slot), []).append(h)
    pairs: list[FlagPair] = []
    for key, members in groups.items():
        block, _, _, cyclic, slot = key
        index = {op: i for i, op in enumerate(block.ops)}
        ids = max(h.slots for h in members) if slot is not None else 1
        if cyclic:
            # Across the back edge: set after the latest producer, wait before the first consumer.
            x = max((h.x for h in members), key=index.__getitem__)
            y = min((h.y for h in members), key=index.__getitem__)
            pairs.append(FlagPair(key, x, y, ids))
            continue
        remaining = sorted(members, key=lambda h: index[h.y])
        while remaining:
            y = remaining[0].y
            covered = [h for h in remaining if index[h.x] < index[y]]
            x = max((h.x for h in covered), key=index.__getitem__)
            pairs.append(FlagPair(key, x, y, ids))
            remaining = [h for h in remaining if h not in covered]
    return pairs


@dataclass
class EventTable:
    """Event ids per flag group: ``ids`` consecutive ids from a base, per pipe pair."""

    limit: int
    bases: dict[tuple[Block, Pipe, Pipe, bool, SSAValue | None], int] = field(default_factory=dict)
    used: dict[tuple[Pipe, Pipe], int] = field(default_factory=lambda: defaultdict(int))

    def base(self, pair: FlagPair) -> int:
        _, src, dst, _, _ = pair.group
        if pair.group not in self.bases:
            self.bases[pair.group] = self.used[(src, dst)]
            self.used[(src, dst)] += pair.ids
            if self.used[(src, dst)] > self.limit:
                raise PassFailedException(
                    f"out of event ids for {src}->{dst}: need {self.used[(src, dst)]}, the "
                    f"hardware has {self.limit}"
                )
        return self.bases[pair.group]


def _flag(
    kind: type[SetFlagOp | WaitFlagOp],
    at: InsertPoint,
    src: Pipe,
    dst: Pipe,
    base: int,
    slot: SSAValue | None,
) -> None:
    block = Block()
    with ImplicitBuilder(block):
        if slot is None:
            ev = arith.ConstantOp(IntegerAttr(base, IndexType())).result
        elif base:
            ev = arith.AddiOp(slot, arith.ConstantOp(IntegerAttr(base, IndexType()))).result
        else:
            ev = slot
        kind(src, dst, ev)
    Rewriter.inline_block(block, at)


def synchronise(kernel: func.FuncOp, limit: int) -> None:
    allocs = [o for o in kernel.walk() if isinstance(o, AllocBufferOp)]
    hand_overs: list[HandOver] = []
    leaves = _Leaves()
    for alloc in allocs:
        _hand_overs(kernel.body.block, alloc.result, alloc.num_slots, hand_overs, leaves)
    events = EventTable(limit)
    pairs = cover_nested(hand_overs)
    for pair in pairs:
        _, src, dst, _, slot = pair.group
        base = events.base(pair)
        _flag(SetFlagOp, InsertPoint.after(pair.x), src, dst, base, slot)
        _flag(WaitFlagOp, InsertPoint.before(pair.y), src, dst, base, slot)
    # Loop-carried pairs: one set per id at entry, one wait per id at exit.
    body = kernel.body.block
    entry = InsertPoint.after(allocs[-1])
    ret = body.last_op
    assert ret is not None
    preset = {pair.group: pair.ids for pair in pairs if pair.group[3]}
    for group, ids in sorted(
        preset.items(), key=lambda g: (str(g[0][1]), str(g[0][2]), events.bases[g[0]])
    ):
        _, src, dst, _, _ = group
        for i in range(ids):
            _flag(SetFlagOp, entry, src, dst, events.bases[group] + i, None)
            _flag(WaitFlagOp, InsertPoint.before(ret), src, dst, events.bases[group] + i, None)


@dataclass(frozen=True)
class InsertSyncPass(ModulePass):
    """Insert the event flags that order the pipes' accesses to every local buffer."""

    name = "ascend-insert-sync"

    hw: str = DEFAULT_HW
    """The target's name: its ``user_event_ids`` bound the ids, and each kernel synchronised
    says it in ``ascend.target``, so its verifier checks the ids against the same target."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        target = load_hw(self.hw)
        # Ids from user_event_ids up (6 and 7) are the framework's (hw/*.toml).
        limit = target.user_event_ids
        for kernel in [o for o in op.ops if isinstance(o, func.FuncOp)]:
            if any(isinstance(o, SetFlagOp | WaitFlagOp) for o in kernel.walk()):
                continue  # already synchronised (by hand or by an earlier run)
            if any(isinstance(o, AllocBufferOp) for o in kernel.walk()):
                synchronise(kernel, limit)
                kernel.attributes[TARGET_ATTR] = StringAttr(target.name)
