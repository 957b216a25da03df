"""Replay: the cores of a data launch that issue the same instructions as its first core run
that core's recorded numpy steps instead of the per-instruction handlers.

A thin layer's simulation is mostly the instructions' own Python (binding, the mirror and
tile bookkeeping, a small numpy call each; docs/performance.md). The cores of one launch run
one kernel that differs only in the block index, and on most cores the instructions differ
only in their GM offsets. So, in an *unobserved* data run (no sanitizer, no timeline, the
default iteration budget) of the compiled executor:

* the launch's first core is a :class:`~ascend_xdsl.runtime.machine.core.Core` that runs
  every instruction as usual and also records (``Core.log``) the numpy steps of its fast paths:
  the data_copies and fills into the float32 L1 mirror, the img2col gathers, the takes of the
  fractals load2d's copied from the mirror, the mmads' products and their accumulation into
  owed L0C tiles, the fixpipes of those tiles, the load_bias's of bias rows from the mirror and
  their addition in a bias-init mmad. A step off those paths (bytes written, the mirror
  switched off, ...) drops the log: nothing is replayed;
* each later core first runs the kernel on a :class:`StreamCore`, translated to only note
  the instructions (their operands, the GM offsets apart; ``compile_kernel(...,
  noting="note")``, the recorded cores' ``noting="record"``) and do nothing else. If the noted
  instructions are those of the first core, and every GM offset keeps its instruction inside
  its tensor, the machine state the handlers would have seen is the first core's (the state
  depends on the on-chip operands only, and the flags on the order of the flag instructions),
  so the core's numpy steps are the first core's with its own GM offsets: they are replayed
  (:func:`replay`), calling the same semantics functions (``runtime/machine/semantics.py``)
  on arrays of the same shapes and strides, so the bits are the same. Otherwise the core runs
  on a real Core (the budget it drew restored first), which reports any error as usual.

A record of many steps is replayed for many cores at once (:func:`replay_stacked`): the
matched cores wait (``Replayer.pending``) and run each step as one numpy call over a leading
core axis, the fixpipes written to GM at the end core after core, as they would have been; a
core that runs for real, or the end of the launch, replays the waiting ones first.

A core to be recorded (the first, and one whose instructions match no record) runs *dry*
first (:data:`DRYING`, ``Core.dry``): its books, checks and log as in a real run, without
the numpy work (the gathers, products and copies, which its replay then does, stacked with
the cores that match it). Its log is the real run's (no path depends on
the values), so replaying it gives the core's results. A dry run that drops its log or
raises anything is thrown away (it wrote no GM) and the core runs for real, the budget it
drew given back, so that an error is raised by the real run, as without replay.

The record and the streams live for one launch only (bounded by it; nothing is shared between
threads or launches). ``tests/test_replay.py`` compares replayed and per-instruction runs bit
for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ascend_xdsl.hw import HwConfig, instructions
from ascend_xdsl.hw.instructions import Instruction
from ascend_xdsl.hw.isa import FRACTAL
from ascend_xdsl.runtime.cost.timing import Timeline
from ascend_xdsl.runtime.executors.compiled import CompiledKernel
from ascend_xdsl.runtime.executors.translator import NOTED_OFFSET, noted
from ascend_xdsl.runtime.machine import semantics as ins
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.core import (
    ADD,
    BIAS,
    BIASED,
    COPY,
    FIX,
    GATHER,
    INIT,
    MATMUL,
    SET,
    TAKE,
    ZERO,
    Core,
    CorePool,
    fixpipe_values,
)
from ascend_xdsl.runtime.machine.machine import BufferSpec, Handler, Machine, Signature
from ascend_xdsl.runtime.machine.values import Buffer

_MAX_RECORDS = 4
"""Recorded cores kept per launch (each holds its core's memories and its log)."""
_MAX_BYTES = 128 << 20
"""The bytes of matrices the records of one launch may hold (a core whose replay would
take more runs instruction by instruction: large layers gain little from a replay)."""
_MAX_MISSES = 4
"""Cores in a row that replayed no record after which a launch stops trying."""
STACKING = True
"""Whether the cores that replay one record are replayed together (:func:`replay_stacked`);
off, each replays alone (:func:`replay`). Both give the same bits (``tests/test_replay.py``)."""
DRYING = True
"""Whether a core to be recorded runs dry and is replayed (see the module docstring); off, it
runs for real. Both give the same bits (``tests/test_replay.py``)."""

RECORDED = frozenset(
    {
        instructions.DATA_COPY,
        instructions.FILL,
        instructions.LOAD3D,
        instructions.LOAD2D,
        instructions.LOAD_BIAS,
        instructions.MMAD,
        instructions.FIXPIPE,
        instructions.SET_FLAG,
        instructions.WAIT_FLAG,
        instructions.PIPE_BARRIER,
    }
)
"""The instructions whose numpy steps ``Core.log`` records (their fast paths; their other
paths drop the log) or that move no data. Any other instruction a core runs (one added
later) drops the log, so a new instruction is never skipped by a replay."""


class _Stream:
    """The instructions a core issued: ``keys`` (every operand but the GM offsets) and
    ``offsets`` (the data_copies' and fixpipes' GM offsets, in order). A replay's kernels
    note them inline (``compile_kernel(..., noting=...)``); :meth:`noting` is the same noting
    as a handler (the definition both follow is ``translator.noted``)."""

    def __init__(self) -> None:
        self.keys: list[tuple[Any, ...]] = []
        self.offsets: list[int] = []

    def noting(self, spec: Instruction) -> Handler:
        """A handler that only notes ``spec``'s instructions."""
        keys, offsets = self.keys.append, self.offsets.append
        if spec not in NOTED_OFFSET:

            def note(*operands: Any) -> None:
                keys(operands)

            return note

        def note_offset(*operands: Any) -> None:
            key, offset = noted(spec, operands)
            keys(key)
            offsets(offset)

        return note_offset


class RecordingCore(Core):
    """The launch's first core: a data Core that also notes its instruction stream and
    records the numpy steps of its run (``Core.log``)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.stream = _Stream()
        self.log = []
        self.specs: list[BufferSpec] = []
        self.allocated: list[Buffer] = []
        self.first: RecordingCore | None = None
        """The launch's first core, whose buffers name this one's in its stream (none if
        this is the first)."""
        self.real: Core | None = None
        """The core that ran this block for real when its dry run was thrown away."""

    def alloc_buffer(self, spec: BufferSpec) -> Buffer:
        buffer = super().alloc_buffer(spec)
        self.specs.append(spec)
        self.allocated.append(buffer)
        return buffer

    def named(self, buffer: Buffer) -> Buffer:
        """How the stream names ``buffer``, just allocated: as the first core's buffer of the
        same spec, as a stream core's is (:meth:`StreamCore.alloc_buffer`), else itself."""
        first, i = self.first, len(self.allocated) - 1
        if first is not None and i < len(first.specs) and first.specs[i] == self.specs[i]:
            return first.allocated[i]
        return buffer

    def handler(self, spec: Instruction) -> Handler:
        # The kernel it runs (``noting="record"``) notes each instruction before its handler.
        inner = super().handler(spec)
        return inner if spec in RECORDED else self._unrecorded(inner)

    def finish(self) -> None:
        if self.real is not None:  # the end of the real run, not of the thrown-away one
            self.real.finish()
        else:
            super().finish()

    def release(self) -> None:
        super().release()
        # a thrown-away dry first core and its real run name each other (``first``, ``real``)
        real, self.real, self.first = self.real, None, None
        if real is not None:
            real.release()

    def _unrecorded(self, inner: Handler) -> Handler:
        """``inner``, for an instruction whose steps the log does not record: running one
        drops the log (the core cannot be replayed)."""

        def dropping(*operands: Any) -> None:
            self.log = None
            inner(*operands)

        return dropping


class StreamCore:
    """A later core of the launch, run first only to note its instruction stream (it moves no
    data and keeps no flags: :class:`Replayer` replays or re-runs it)."""

    def __init__(self, block_idx: int, budget: Budget, record: RecordingCore) -> None:
        self.block_idx = block_idx
        self.budget = budget
        self.extrapolated = 0
        self.stream = _Stream()
        self.record = record
        self._allocated = 0
        self.same_buffers = True
        self.real: Machine | None = None
        """The real core that ran this block instead, when it could not be replayed."""
        self._handlers: dict[Instruction, Handler] = {}

    def alloc_buffer(self, spec: BufferSpec) -> Buffer:
        # The first core's buffer of the same spec: the noted operands then compare equal.
        i = self._allocated
        self._allocated += 1
        specs = self.record.specs
        if i < len(specs) and specs[i] == spec:
            return self.record.allocated[i]
        self.same_buffers = False
        return self.record.allocated[0]  # any: the stream is not replayed

    def named(self, buffer: Buffer) -> Buffer:
        return buffer  # the first core's already

    def handler(self, spec: Instruction) -> Handler:
        handler = self._handlers.get(spec)
        if handler is None:
            handler = self._handlers[spec] = self.stream.noting(spec)
        return handler

    def scalar(self, ops: int) -> None:
        return None

    def loop(self, signature: Signature, lb: int, ub: int, step: int, inputs: Any) -> range:
        return range(lb, ub, step)

    def finish(self) -> None:
        if self.real is not None:
            self.real.finish()

    def release(self) -> None:
        if self.real is not None:
            self.real.release()


def _gm_limits(log: Sequence[tuple[Any, ...]]) -> tuple[np.ndarray, list[Any]]:
    """Per GM step of ``log`` (in order), the largest GM offset that keeps the instruction
    inside its tensor, and the GM tensors (whose sizes a launch does not change)."""
    limits = []
    tensors = []
    for step in log:
        if step[0] == COPY:
            _, gm, _, _, g, eb = step
            limits.append(gm.size - g.src_bytes // eb)
            tensors.append(gm)
        elif step[0] == FIX:
            _, _, _, gm, g = step
            limits.append(gm.size - g.dst_elems)
            tensors.append(gm)
    return np.array(limits, dtype=np.int64), tensors


MERGED = -1
"""``(MERGED, regs, plan, out, matrices)``: the gathers of ``regs`` as one take
(``semantics.merge_gathers``) into ``out``, whose views ``matrices`` are the gathers'. In a
merged log a MATMUL step also ends with the array its product is written into: a replay
reuses its record's arrays, where fresh ones cost their page faults every time."""


COPY_RUN = -2
"""``(COPY_RUN, gm, mirror, dst_off, elements)``: a data_copy of one contiguous run into the
mirror (:func:`specialise`)."""
COPY_RUNS = -3
"""``(COPY_RUNS, gm, target, shape, byte_steps)``: a data_copy of strided runs into the
mirror's fixed ``target`` view (:func:`specialise`)."""
FIX_TILE = -4
"""``(FIX_TILE, tile_reg, gm, m, columns, blocks, shape, byte_steps, atomic)``: a fixpipe of
an owed tile's values whose N blocks do not overlap in GM (:func:`specialise`)."""


def specialise(step: tuple[Any, ...]) -> tuple[Any, ...]:
    """A COPY or FIX step of a record as the numpy operations its replays repeat, with what
    does not depend on the GM offset worked out once. A replayed core runs the recorded steps
    with its own GM offsets, which ``Replayer._match`` has already checked against the
    tensors' limits, and the recording run checked the rest (the arrays' types, layout and the
    on-chip extents, which do not change); so a replay need not check them again at every
    instruction, and does the same assignments (``semantics.data_copy_g``,
    ``semantics.fixpipe_g``) on views of the same shapes and strides, for the same bits.
    Other steps, and a fixpipe whose GM blocks overlap, are kept as they are."""
    if step[0] == COPY:
        _, src, target, dst_off, g, eb = step
        run, src_step, dst_step = g.run // eb, g.src_step // eb, g.dst_step // eb
        if g.count == 1 or (src_step == run and dst_step == run):
            return (COPY_RUN, src, target, dst_off, g.count * run)
        size = target.itemsize
        view = np.ndarray(
            (g.count, run), target.dtype, target, dst_off * size, (dst_step * size, size)
        )
        return (COPY_RUNS, src, view, (g.count, run), (src_step * size, size))  # float32
    if step[0] == FIX:
        _, tile, _, dst, g = step
        if g.blocks == 1 or g.dst_step >= g.run:
            size = dst.data.itemsize
            shape = (g.blocks, g.m, FRACTAL)
            steps = (g.dst_step * size, FRACTAL * size, size)
            return (FIX_TILE, tile, dst, g.m, g.blocks * FRACTAL, g.blocks, shape, steps, g.atomic)
    return step


def merged_steps(log: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """``log`` with each run of gathers between two writes of the mirror (data_copies or
    fills) made one take at the run's first gather, ``(MERGED, regs, plan)``: a thin layer
    issues thousands of small gathers, and one numpy call each was a large part of its replay.
    A lone gather is one take too: a stacked replay has no other gather step, so one would
    keep its whole record from stacking. Gathers that cannot be merged stay. Worked out once
    per record, for :func:`merge` and :func:`stack`.

    A kernel's loops repeat the same run of gathers (the same geometries from the same mirror
    elements, e.g. once per double-buffered slot), so each distinct run is planned once and
    its steps share the plan (read only: a replay takes with it, it never writes it; planning
    every run was 9 ms of unet3d-enc1's 0.27 s data run)."""
    steps: list[tuple[Any, ...]] = []
    run: list[tuple[int, tuple[Any, ...]]] = []
    # by the gathers' first elements and geometries (interned: the log keeps them alive)
    plans: dict[tuple[tuple[int, int], ...], ins.MergedGathers | None] = {}

    def flush() -> None:
        if not run:
            return
        key = tuple((step[2], id(step[3])) for _, step in run)
        if key in plans:
            plan = plans[key]
        else:
            plan = plans[key] = ins.merge_gathers([(step[2], step[3]) for _, step in run])
        if plan is None:
            return
        steps[run[0][0]] = (MERGED, tuple(step[1] for _, step in run), plan)
        for position, _ in run[1:]:
            steps[position] = ()

    for step in log:
        if step[0] == GATHER:
            run.append((len(steps), step))
        elif step[0] in (COPY, ZERO):
            flush()
            run = []
        steps.append(step)
    flush()
    return [step for step in steps if step]


def merge(steps: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The merged ``steps`` (:func:`merged_steps`) as one core's replay runs them: each
    merged take and each product written into an array of the record's (a replay reuses
    them, where fresh ones cost their page faults every time), the data_copies and fixpipes
    specialised (:func:`specialise`)."""
    log = []
    for step in steps:
        if step[0] == MERGED:
            _, names, plan = step
            out = np.empty((plan[0].size, FRACTAL), np.float32)
            # the take writes into ``out`` at every replay: its matrices are the same views
            step = (MERGED, names, plan, out, tuple(ins.merged_matrices(out, plan)))
        elif step[0] == MATMUL:
            (m, _), (_, n) = step[3], step[5]
            step = (*step, np.empty((m, n), np.float32))
        elif step[0] == TAKE:
            step = (*step, np.empty(step[2].shape, np.float32))
        elif step[0] == INIT:
            step = (*step, np.empty(step[5], np.float32))
        elif step[0] == BIAS:
            step = (*step, np.empty(step[3], np.float32))
        log.append(specialise(step))
    return log


def _volume(log: Sequence[tuple[Any, ...]]) -> int:
    """The bytes of the matrices a replay of the merged ``log`` holds until it ends (every
    register lives as long as the replay)."""
    volume = 0
    for step in log:
        if step[0] == MERGED:
            volume += step[3].nbytes
        elif step[0] in (MATMUL, TAKE, INIT, BIAS):
            volume += step[-1].nbytes
        elif step[0] == GATHER:
            volume += step[3].m_ext * step[3].k_ext * 4
    return volume


def replay(record: RecordingCore, log: Sequence[tuple[Any, ...]], offsets: Sequence[int]) -> None:
    """Run ``log`` (the first core's numpy steps) with the GM offsets ``offsets``, on the
    first core's L1 mirror (zeroed first where its data_copies wrote, as a fresh core's)."""
    lo, hi = record._l1_written
    mirror = record._mirror
    mirror[lo // 2 : (hi + 1) // 2] = 0
    regs: list[Any] = [None] * record._regs
    gm = 0
    matmul = np.matmul
    gather, take, data_copy, fixpipe = (
        ins.load3d_gather,
        ins.merged_take,
        ins.data_copy_g,
        ins.fixpipe_g,
    )
    ndarray = np.ndarray
    for step in log:
        kind = step[0]
        if kind == COPY_RUN:
            _, src, target, dst_off, n = step
            off = offsets[gm]
            target[dst_off : dst_off + n] = src.as_f32()[off : off + n]
            gm += 1
        elif kind == FIX_TILE:
            _, tile, dst, m, columns, blocks, shape, steps, atomic = step
            values = regs[tile][:m, :columns].reshape(m, blocks, FRACTAL).transpose(1, 0, 2)
            data = dst.data
            target = ndarray(shape, data.dtype, data, offsets[gm] * data.itemsize, steps)
            if atomic:
                target += values
            else:
                target[...] = values
            dst.written()
            gm += 1
        elif kind == COPY_RUNS:
            _, src, target, shape, steps = step
            source = src.as_f32()
            target[...] = ndarray(shape, source.dtype, source, offsets[gm] * source.itemsize, steps)
            gm += 1
        elif kind == MERGED:
            _, names, plan, out, matrices = step
            take(mirror, plan, out)
            for reg, matrix in zip(names, matrices, strict=True):
                regs[reg] = matrix
        elif kind == GATHER:
            regs[step[1]] = gather(mirror, step[2], step[3])
        elif kind == MATMUL:
            _, reg, a, (am, ak), b, (bk, bn), out = step
            regs[reg] = matmul(regs[a][:am, :ak], regs[b][:bk, :bn], out)
        elif kind == TAKE:
            _, reg, index, out = step
            regs[reg] = mirror.take(index, out=out, mode="clip")
        elif kind == INIT:
            _, tile, m, n, product, _, out = step
            out[...] = 0
            out[:m, :n] = regs[product]
            regs[tile] = out
        elif kind == ADD:
            _, tile, m, n, product = step
            regs[tile][:m, :n] += regs[product]
        elif kind == SET:
            _, tile, m, n, product = step
            regs[tile][:m, :n] = regs[product]
        elif kind == COPY:
            _, src, target, dst_off, g, eb = step
            data_copy(src.as_f32(), offsets[gm], target, dst_off, g, eb)
            gm += 1
        elif kind == ZERO:
            _, target, dst_off, g, eb = step
            ins.fill_g(target, dst_off, g, eb)
        elif kind == BIAS:
            _, reg, first, elems, out = step
            out[...] = mirror[first : first + elems]
            regs[reg] = out
        elif kind == BIASED:
            _, product, row, n = step
            regs[product] += regs[row][:n]
        else:  # FIX
            _, tile, l0c, dst, g = step
            fixpipe(l0c, dst.data, offsets[gm], g, fixpipe_values(regs[tile], g))
            dst.written()
            gm += 1


_STACK_BYTES = 4 << 20
"""The bytes of arrays a stacked replay (:func:`replay_stacked`) holds at once: the cores
pending are replayed in chunks that fit. Larger chunks save less Python per core and fall
out of the caches (measured on the small suite layers: 4 MB was as fast as 64 MB or
faster, 1 MB and below slower; docs/performance.md)."""
_MIN_STACKED_STEPS = 128
"""The fewest merged steps of a record that is replayed stacked: a record of few, large
steps spends its replay in numpy, not in Python, and stacked its arrays fall out of the
caches (slowfast-lateral's 20 steps and slowfast-fast-res2's 51 were 5 to 20 % slower
stacked; the depthwise and one-channel layers' 400 to 1 250 steps 14 to 20 % faster)."""


@dataclass(eq=False)
class Stacked:
    """A record's merged steps as one replay of many cores at once (:func:`stack`): the
    steps, with every matrix a stacked array of a *slot* (``shapes``: one core's shape of
    each; a slot is reused once no register in it is read again), and the bytes one core's
    share of the slots and of the mirror's written span takes."""

    steps: list[tuple[Any, ...]]
    shapes: list[tuple[int, ...]]
    core_bytes: int


_STACKED_KINDS = frozenset({COPY, ZERO, MERGED, TAKE, MATMUL, INIT, ADD, SET, FIX, BIAS, BIASED})


def _element(view: np.ndarray, mirror: np.ndarray) -> int | None:
    """Where the flat float32 ``view`` starts in ``mirror`` (a data_copy's target is the
    mirror of its slot), or None if it is not a contiguous part of it."""
    start = view.__array_interface__["data"][0] - mirror.__array_interface__["data"][0]
    if view.dtype != mirror.dtype or view.strides != (4,) or start % 4:
        return None
    if not 0 <= start // 4 <= mirror.size - view.size:
        return None
    return start // 4


def stack(
    steps: Sequence[tuple[Any, ...]], mirror: np.ndarray, span: tuple[int, int]
) -> Stacked | None:
    """The merged ``steps`` (:func:`merged_steps`) as a :class:`Stacked` program, or None when
    they cannot be replayed for many cores at once: a step outside the stacked set (an
    unmerged gather), a data_copy or fixpipe off its specialised path (:func:`specialise`)
    or into a target that is not part of the recorded core's ``mirror``, or a data_copy from
    a GM tensor that a fixpipe writes (a later core would read what an
    earlier one wrote; stacked, the fixpipes are applied at the end). ``span`` is the
    mirror's elements ``[first, end)`` that the record's data_copies and fills write.

    Each core of a stacked replay runs the same numpy operations on arrays of the same shapes
    and strides as its own replay (a leading core axis added: the matmuls are numpy's batched
    matmul, one GEMM per core), and the fixpipes write GM core by core in the launch's order,
    so the bits are the same."""
    if len(steps) < _MIN_STACKED_STEPS:
        return None
    written = {id(step[3]) for step in steps if step[0] == FIX}
    last: dict[int, int] = {}
    starts: dict[int, int | None] = {}  # a data_copy target's start in the mirror, by identity
    for i, step in enumerate(steps):
        kind = step[0]
        if kind not in _STACKED_KINDS:
            return None
        if kind in (COPY, ZERO):
            target = step[1 if kind == ZERO else 2]
            if id(target) not in starts:
                starts[id(target)] = _element(target, mirror)
            if starts[id(target)] is None or (kind == COPY and id(step[1]) in written):
                return None
        elif kind == FIX:
            g = step[4]
            if not (g.blocks == 1 or g.dst_step >= g.run):  # not specialised: see specialise
                return None
            last[step[1]] = i
        elif kind == MATMUL:
            last[step[1]] = last[step[2]] = last[step[4]] = i
        elif kind in (ADD, SET, INIT):
            last[step[1]] = last[step[4]] = i
        elif kind in (TAKE, BIAS):
            last[step[1]] = i
        elif kind == BIASED:
            last[step[1]] = last[step[2]] = i
        else:  # MERGED
            for reg in step[1]:
                last[reg] = i
    shapes: list[tuple[int, ...]] = []
    free: dict[tuple[int, ...], list[int]] = {}
    ends: dict[int, list[int]] = {}

    def slot(shape: tuple[int, ...], end: int) -> int:
        spare = free.get(shape)
        index = spare.pop() if spare else len(shapes)
        if index == len(shapes):
            shapes.append(shape)
        ends.setdefault(end, []).append(index)
        return index

    # A C0 row of the mirror that no replay writes (outside the span its data_copies and fills
    # write) is zero in every stacked replay: the padding rows of a take read it, and need
    # no zeroing after (a fifth of x3d-dw-res4's take time).
    first, end_ = span
    rows = mirror.size // FRACTAL
    zero_row = rows - 1 if (rows - 1) * FRACTAL >= end_ else (0 if first >= FRACTAL else None)
    padded: dict[int, ins.MergedGathers] = {}  # by the plan's identity (plans are shared)
    program: list[tuple[Any, ...]] = []
    gm = 0
    for i, step in enumerate(steps):
        kind = step[0]
        if kind == COPY:
            _, src, target, dst_off, g, eb = step
            run, src_step, dst_step = g.run // eb, g.src_step // eb, g.dst_step // eb
            extent = (g.count - 1) * src_step + run
            start = starts[id(target)]
            assert start is not None
            dst_off += start  # the slot's mirror is a part of the whole mirror
            program.append((COPY, gm, src, dst_off, g.count, run, src_step, dst_step, extent))
            gm += 1
        elif kind == FIX:
            _, _, tile, dst, m, columns, blocks, shape, steps_, atomic = (kind, *specialise(step))
            program.append((FIX, gm, tile, dst, m, columns, blocks, shape, steps_, atomic))
            gm += 1
        elif kind == MERGED:
            _, names, plan = step
            end = max(last.get(reg, i) for reg in names)
            if plan[1] is not None and zero_row is not None:
                plan = _padding_read_from(plan, zero_row, padded)
            program.append((MERGED, names, plan, slot((plan[0].size, FRACTAL), end)))
        elif kind == MATMUL:
            (m, _), (_, n) = step[3], step[5]
            program.append((*step, slot((m, n), last.get(step[1], i))))
        elif kind == TAKE:
            _, reg, index = step
            program.append((TAKE, reg, index, slot(index.shape, last.get(reg, i))))
        elif kind == INIT:
            program.append((*step[:5], slot(step[5], last.get(step[1], i))))
        elif kind == BIAS:
            _, reg, first, elems = step
            program.append((BIAS, reg, first, elems, slot((elems,), last.get(reg, i))))
        elif kind == ZERO:
            _, target, dst_off, g, eb = step
            start = starts[id(target)]
            assert start is not None
            run, rows = g.run // eb, g.step // eb
            program.append((ZERO, start + dst_off, g.repeat, run, rows))
        else:
            program.append(step)
        for index in ends.pop(i, ()):
            free.setdefault(shapes[index], []).append(index)
    core_bytes = 4 * (sum(int(np.prod(shape)) for shape in shapes) + end_ - first)
    return Stacked(program, shapes, core_bytes)


def _padding_read_from(
    plan: ins.MergedGathers, row: int, done: dict[int, ins.MergedGathers]
) -> ins.MergedGathers:
    """``plan`` with its padding rows taken from the mirror's C0 row ``row`` (one that is zero
    throughout), so that they need no zeroing; worked out once per plan (``done``)."""
    hit = done.get(id(plan))
    if hit is None:
        index, pad, spans = plan
        index = index.copy()
        index[pad] = row
        index.setflags(write=False)
        hit = done[id(plan)] = (index, None, spans)
    return hit


class Arena:
    """The arrays of stacked replays of one record, for up to ``capacity`` cores at once:
    the cores' mirrors (zero outside the span the record's data_copies write, which each
    replay zeroes again when it ends) and the program's slots. Kept for the launch, so that
    its chunks of cores reuse memory already paged in (fresh arrays cost page faults)."""

    def __init__(self, record: RecordingCore, program: Stacked, capacity: int) -> None:
        self.capacity = capacity
        self.mirror = np.zeros((capacity, record._mirror.size), np.float32)
        self.buffers = [np.empty((capacity, *shape), np.float32) for shape in program.shapes]
        self.bound: dict[int, list[tuple[Any, ...]]] = {}
        """The program bound to these arrays, per number of cores (:func:`bind`)."""


def bind(program: Stacked, arena: Arena, cores: int, regs: int) -> list[tuple[Any, ...]]:
    """``program``'s steps for ``cores`` cores with every register resolved to the view of
    ``arena``'s arrays it names, so that a replay slices and reshapes nothing (3 to 4 % of
    unet3d-enc1's and x3d-dw-res2's data runs): the registers of a stacked program always
    name the same slots (a step writes into its slot, and the matrices of a take are views of
    its rows), so the views made once see every replay's values. Each reshape splits or joins
    contiguous axes (a take's rows are whole C0 rows, a fixpipe's columns whole blocks), so it
    is a view; a copy would see no later replay, and is refused."""
    buffers = [buffer[:cores] for buffer in arena.buffers]
    named: list[Any] = [None] * regs
    bound: list[tuple[Any, ...]] = []
    for step in program.steps:
        kind = step[0]
        if kind == MATMUL:
            _, reg, a, (am, ak), b, (bk, bn), out = step
            named[reg] = buffers[out]
            bound.append((MATMUL, named[a][:, :am, :ak], named[b][:, :bk, :bn], buffers[out]))
        elif kind in (ADD, SET):
            _, tile, m, n, product = step
            bound.append((kind, named[tile][:, :m, :n], named[product]))
        elif kind == MERGED:
            _, names, (index, pad, spans), out = step
            rows = buffers[out]
            for reg, (start, end, g) in zip(names, spans, strict=True):
                matrix = rows[:, start:end].reshape(cores, g.m_ext, g.k_ext)
                assert matrix.base is not None, "a take's matrix must be a view of its rows"
                named[reg] = matrix.transpose(0, 2, 1) if g.transpose else matrix
            bound.append((MERGED, index, pad, rows))
        elif kind == TAKE:
            _, reg, index, out = step
            named[reg] = buffers[out]
            bound.append((TAKE, index, buffers[out]))
        elif kind == INIT:
            _, tile, m, n, product, out = step
            named[tile] = matrix = buffers[out]
            bound.append((INIT, matrix, matrix[:, :m, :n], named[product]))
        elif kind == BIAS:
            _, reg, first, elems, out = step
            named[reg] = buffers[out]
            bound.append((BIAS, buffers[out], first, elems))
        elif kind == BIASED:
            _, product, row, n = step
            bound.append((BIASED, named[product], named[row][:, None, :n]))
        elif kind == FIX:
            _, gm, tile, dst, m, columns, blocks, shape, steps, atomic = step
            values = named[tile][:, :m, :columns].reshape(cores, m, blocks, FRACTAL)
            assert values.base is not None, "a fixpipe's values must be a view of its tile"
            bound.append((FIX, gm, values.transpose(0, 2, 1, 3), dst, shape, steps, atomic))
        else:  # COPY, ZERO: by GM offset and mirror element, not by register
            bound.append(step)
    return bound


def replay_stacked(
    record: RecordingCore, program: Stacked, offsets: Sequence[Sequence[int]], arena: Arena
) -> None:
    """Replay ``program`` (a record's :func:`stack`) for one core per row of ``offsets`` (its
    GM offsets) at once: every array gets a leading core axis, so each step is one numpy
    call for all of them (the per-step Python of :func:`replay`, once per launch instead of
    once per core). Each core's mirror starts zeroed, as a fresh core's; the fixpipes' values
    are kept and written to GM at the end, core after core and step after step, the order of
    :func:`replay` run core by core (:func:`stack` refuses a record whose data_copies read what
    its fixpipes write). ``arena`` holds the arrays (at least ``len(offsets)`` cores'); the
    steps run bound to them (:func:`bind`)."""
    cores = len(offsets)
    assert cores <= arena.capacity
    steps = arena.bound.get(cores)
    if steps is None:
        steps = arena.bound[cores] = bind(program, arena, cores, record._regs)
    gm_offsets = np.array(offsets, dtype=np.intp).reshape(cores, -1)
    size = record._mirror.size
    mirror = arena.mirror[:cores]
    rows_of = mirror[:, : size - size % FRACTAL].reshape(cores, -1, FRACTAL)
    flat = arena.mirror.reshape(-1)
    fixes: list[tuple[Any, ...]] = []
    matmul, ndarray, f32 = np.matmul, np.ndarray, np.float32
    row_bytes = size * 4
    for step in steps:
        kind = step[0]
        if kind == MATMUL:
            matmul(step[1], step[2], step[3])
        elif kind == ADD:
            target = step[1]
            target += step[2]
        elif kind == MERGED:
            _, index, pad, rows = step
            rows_of.take(index, 1, out=rows, mode="clip")
            if pad is not None:
                rows[:, pad] = 0
        elif kind == COPY:
            _, gm, src, dst_off, count, run, src_step, dst_step, extent = step
            source = src.as_f32()
            # every window of the source a core may start at (its offset was checked by
            # ``Replayer._match``), and the cores' targets in the stacked mirrors
            windows = ndarray(
                (source.size - extent + 1, count, run), f32, source, 0, (4, src_step * 4, 4)
            )
            target = ndarray(
                (cores, count, run), f32, flat, dst_off * 4, (row_bytes, dst_step * 4, 4)
            )
            # a slice per core: memory-bound, and faster than one fancy index here
            for core, start in enumerate(gm_offsets[:, gm].tolist()):
                target[core] = windows[start]
        elif kind == SET:
            step[1][...] = step[2]
        elif kind == TAKE:
            mirror.take(step[1], 1, out=step[2], mode="clip")
        elif kind == INIT:
            _, matrix, part, product = step
            matrix[...] = 0
            part[...] = product
        elif kind == ZERO:
            _, dst_off, repeat, run, row_step = step
            zeroed = (row_bytes, row_step * 4, 4)
            ndarray((cores, repeat, run), f32, flat, dst_off * 4, zeroed)[...] = 0
        elif kind == BIAS:
            _, row, first, elems = step
            row[...] = mirror[:, first : first + elems]
        elif kind == BIASED:
            product = step[1]
            product += step[2]
        else:  # FIX
            _, gm, values, dst, shape, steps_, atomic = step
            fixes.append((gm, dst, np.array(values), shape, steps_, atomic))
    lo, hi = record._l1_written
    mirror[:, lo // 2 : (hi + 1) // 2] = 0  # as a fresh core's, for the arena's next cores
    for core, row in enumerate(offsets):
        for gm, dst, values, shape, steps, atomic in fixes:
            data = dst.data
            target = ndarray(shape, data.dtype, data, row[gm] * data.itemsize, steps)
            if atomic:
                target += values[core]
            else:
                target[...] = values[core]
            dst.written()


@dataclass(eq=False)
class _Record:
    """A recorded core whose run can be replayed: its stream's keys (buffers named by the
    launch's first core's), its merged log and the GM offsets' limits."""

    core: RecordingCore
    keys: list[tuple[Any, ...]]
    log: list[tuple[Any, ...]] | None
    """The merged log one core's replay runs (:func:`merge`), when not ``program``."""
    program: Stacked | None
    """The record as a replay of many cores at once (:func:`stack`), when it can be one."""
    limits: np.ndarray
    tensors: list[Any]
    sizes: list[int]


class Replayer:
    """One data launch's cores: the first recorded, a later one replayed when it issues the
    instructions of a recorded core, else run and recorded (up to :data:`_MAX_RECORDS`; see
    the module docstring). ``make`` and ``run`` are the launch loop's
    (``runtime/executors/launch.py``)."""

    def __init__(
        self,
        kernel: CompiledKernel,
        args: Sequence[Any],
        target: HwConfig,
        budget: Budget,
        pool: CorePool,
        bounded: dict[Any, Any],
        blocks: int,
    ) -> None:
        self.kernel, self.args, self.target, self.budget = kernel, args, target, budget
        self.blocks = blocks
        self.pool, self.bounded = pool, bounded
        self.first: RecordingCore | None = None
        """The launch's first core: the stream cores hand out its buffers."""
        self.records: list[_Record] = []
        self.drying = DRYING
        """Whether cores to be recorded run dry first (off after a dry run dropped its log,
        or gave a record that is not replayed stacked)."""
        self.trying = True
        """Whether later cores are run on a StreamCore first (off after too many misses)."""
        self.misses = 0
        self.volume = 0
        """The bytes the kept records' replays hold (:func:`_volume`)."""
        self.replayed = 0
        """Cores replayed so far."""
        self.stacked = 0
        """Of those, the cores replayed together with others (:func:`replay_stacked`)."""
        self.pending: list[list[int]] = []
        """The GM offsets of the cores matched to ``pending_record`` and not replayed yet."""
        self.pending_record: _Record | None = None
        self._arenas: dict[int, Arena] = {}
        """Per record (by identity), the arrays of its stacked replays."""

    def _core(self, block: int) -> Core:
        core = Core(block, self.target, None, None, self.budget, self.pool)
        core.share_bounds(self.bounded)
        return core

    def _recording(self, block: int) -> RecordingCore:
        record = RecordingCore(block, self.target, None, None, self.budget, None)
        record.share_bounds(self.bounded)
        record.first = self.first
        return record

    def make(self, block: int, timeline: Timeline | None) -> Machine:
        assert timeline is None
        if self.first is None:
            self.first = self._recording(block)
            return self.first
        if not (self.trying and self.records):
            return self._core(block)
        return StreamCore(block, self.budget, self.first)

    def _adopt(self, core: RecordingCore) -> _Record | None:
        """Keep ``core``'s record if its run can be replayed, and return it."""
        if core.log is None:
            return None
        assert self.first is not None
        # Its stream names its buffers by the first core's already (``named``).
        if len(core.allocated) != len(self.first.allocated):
            return None
        keys = core.stream.keys
        steps = merged_steps(core.log)
        lo, hi = core._l1_written
        program = stack(steps, core._mirror, (lo // 2, (hi + 1) // 2)) if STACKING else None
        log = None
        if program is not None:
            volume = program.core_bytes
        else:
            log = merge(steps)
            volume = _volume(log)
        if self.volume + volume > _MAX_BYTES:
            return None  # a large core: its replay would hold too much at once
        self.volume += volume
        limits, tensors = _gm_limits(core.log)
        sizes = [t.size for t in tensors]
        record = _Record(core, keys, log, program, limits, tensors, sizes)
        self.records.append(record)
        return record

    def _record(self, core: RecordingCore) -> None:
        """Run ``core``, a block to record, and keep its record: dry first while
        :attr:`drying`, its results then replayed as a matched core's are; for real when the
        dry run cannot stand for the real one (``core.real``)."""
        if self.drying:
            drawn = self.budget.snapshot()
            core.dry = True
            try:
                self.kernel.noting("record").run(core, self.args)
            except Exception:  # the real run raises it, or has nothing to raise
                core.log = None
                failed = True
            else:
                failed = False
            record = self._adopt(core)
            if record is not None:
                if record.program is None:
                    # Replayed alone, a core costs what its real run's numpy work does (a
                    # few large steps: slowfast-fast-res2's 51): the launch's later records
                    # are run for real.
                    self.drying = False
                self._replay(record, core.stream.offsets)
                return
            if not failed:
                self.drying = False  # its log was dropped: so would a later core's be
            self.budget.restore(drawn)
            core.real = core = self._recording(core.block_idx)
        self.flush()  # the core runs for real after the pending ones, in the launch's order
        self.kernel.noting("record").run(core, self.args)
        self._adopt(core)

    def _replay(self, record: _Record, offsets: list[int]) -> None:
        """Replay ``record`` with a core's GM ``offsets``: now, or stacked with the cores
        pending for it."""
        self.replayed += 1
        if record.program is None:
            assert record.log is not None
            if not record.log:
                return  # a core with no data to move (e.g. an idle block): nothing to replay
            self.flush()
            replay(record.core, record.log, offsets)
            return
        if self.pending_record is not record:
            self.flush()
        self.pending.append(offsets)
        self.pending_record = record
        if len(self.pending) >= self._chunk(record.program):
            self.flush()

    def run(self, machine: Machine) -> None:
        if isinstance(machine, RecordingCore):
            self._record(machine)
            return
        if not isinstance(machine, StreamCore):
            self.kernel.run(machine, self.args)
            return
        drawn = self.budget.snapshot()
        self.kernel.noting("note").run(machine, self.args)
        record = self._match(machine)
        if record is not None:
            self.misses = 0
            self._replay(record, machine.stream.offsets)
            return
        # Not a recorded core's instructions: run the core (the budget it drew given back),
        # recorded while there is room, so that the cores after it (e.g. all but a first and
        # a last shorter one) may replay it; after a few misses in a row the launch stops
        # trying.
        self.budget.restore(drawn)
        self.misses += 1
        if self.misses >= _MAX_MISSES:
            self.trying = False
        if len(self.records) < _MAX_RECORDS:
            machine.real = recording = self._recording(machine.block_idx)
            self._record(recording)
        else:
            self.flush()  # the core runs for real after the pending ones, in the launch's order
            machine.real = core = self._core(machine.block_idx)
            self.kernel.run(core, self.args)

    def _chunk(self, program: Stacked) -> int:
        """The cores replayed at once: as many as :data:`_STACK_BYTES` holds (at least one),
        at most the launch's."""
        return max(1, min(self.blocks, _STACK_BYTES // max(1, program.core_bytes)))

    def flush(self) -> None:
        """Replay the pending cores (all at once); the launch loop calls this at the end of
        the launch, and :meth:`run` before a core that does not join them."""
        record, pending = self.pending_record, self.pending
        if record is None or not pending:
            return
        assert record.program is not None
        self.pending, self.pending_record = [], None
        arena = self._arenas.get(id(record))
        if arena is None:
            arena = Arena(record.core, record.program, self._chunk(record.program))
            self._arenas[id(record)] = arena
        replay_stacked(record.core, record.program, pending, arena)
        self.stacked += len(pending)

    def _match(self, machine: StreamCore) -> _Record | None:
        """The record whose instructions ``machine`` issued, with its GM offsets inside their
        tensors, if any."""
        if not machine.same_buffers or self.first is None:
            return None
        if machine._allocated != len(self.first.specs):
            return None
        keys, offsets = machine.stream.keys, machine.stream.offsets
        for record in self.records:
            if len(record.keys) != len(keys) or record.limits.size != len(offsets):
                continue
            if record.keys != keys:
                continue
            if any(t.size != n for t, n in zip(record.tensors, record.sizes, strict=True)):
                return None
            gm = np.fromiter(offsets, np.int64, len(offsets))
            if (gm >= 0).all() and (gm <= record.limits).all():
                return record
            return None
        return None


def replaying(kernel: CompiledKernel | None, timed: bool, sanitizer: object) -> bool:
    """Whether a launch's cores may be replayed: compiled, untimed and unsanitised (the
    sanitizer and the timeline must see every instruction)."""
    return kernel is not None and not timed and sanitizer is None
