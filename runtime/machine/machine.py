"""The machine interface both executors drive, and what the two machines share.

A *machine* is one block of a launch: one AI Core running the kernel. There are two:

* the data machine :class:`~ascend_xdsl.runtime.machine.core.Core` moves the data with numpy
  (and, when observed, hands every instruction's effects to the sanitizer and the timing);
* the cost-only machine :class:`~ascend_xdsl.runtime.cost.cost_core.CostCore` has no data: it
  checks the byte ranges and times the instructions, with loops aggregated.

:class:`Machine` is their interface (a ``typing.Protocol``): the compiled executor
(``runtime/executors/compiled.py``), the interpreter and the one launch loop
(``runtime/executors/launch.py``) see a machine only through it. An instruction reaches a
machine through :meth:`Machine.handler`, which gives the function that executes one
instruction spec (``hw/instructions/``) as ``handler(op, *static, *operands)``; both machines
bind the operands through the spec's ``bind`` (the one place that decodes geometry and
computes byte addresses) and check the bound instruction with the spec's one bounds check
(:meth:`MachineBase.bounds`), so the two refuse the same programs with the same message.
:class:`MachineBase` holds what the two share: the target, the flags, the planned buffers,
the budget, the bounds check and the synchronisation instructions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from xdsl.ir import Operation

from ascend_xdsl import hw
from ascend_xdsl.dialects import hw_level
from ascend_xdsl.dialects.types import LocalTensorType
from ascend_xdsl.hw import HwConfig, instructions
from ascend_xdsl.hw.instructions import Bound, DataInstruction, Instruction
from ascend_xdsl.hw.isa import Pipe
from ascend_xdsl.runtime.cost.timing import Timeline
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.flags import FlagState
from ascend_xdsl.runtime.machine.memory import MemoryAccessError
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.machine.values import Buffer, np_dtype


class KernelError(RuntimeError):
    """A protocol violation at the end of a kernel run (e.g. a flag set but never waited)."""


@dataclass(frozen=True)
class BufferSpec:
    """What ``alloc_buffer`` allocates: decoded once per op from its type and properties."""

    memory: str
    position: str
    dtype: np.dtype
    count: int
    slots: int
    offset: int
    stride: int


def buffer_spec(op: hw_level.AllocBufferOp, target: HwConfig) -> BufferSpec:
    t = op.buffer_type
    assert isinstance(t, LocalTensorType)
    offset = op.offset_bytes
    if offset is None:
        raise RuntimeError(
            f"{op.name} of {t.tposition} has no planned offset: run ascend-plan-buffers"
        )
    return BufferSpec(
        str(t.memory),
        str(t.tposition),
        np_dtype(t.element_type),
        t.num_elements,
        op.num_slots,
        offset,
        hw_level.slot_stride(t, target),
    )


def default_target() -> HwConfig:
    """The default hardware description (``hw.DEFAULT_HW``)."""
    return hw.load(hw.DEFAULT_HW)


_MAX_BOUNDED = 4096
"""Checked bounds keys kept per instruction before its memo starts again."""

Signature = Callable[..., Any]
"""A loop's signature function (``runtime/executors/compiled.py`` generates it)."""
Ints = tuple[int, ...]

Handler = Callable[..., None]
"""How a machine executes one instruction spec: ``handler(op, *static, *operands)``."""


class Machine(Protocol):
    """One block of a launch, as the executors see it (see the module docstring)."""

    block_idx: int
    budget: Budget
    extrapolated: int
    """Loop iterations this core did not run but extrapolated or replayed (cost-only)."""

    def alloc_buffer(self, spec: BufferSpec) -> Buffer: ...

    def handler(self, spec: Instruction) -> Handler:
        """The function that executes ``spec``'s instructions on this machine."""
        ...

    def scalar(self, ops: int) -> None:
        """``ops`` index-arithmetic ops ran on the scalar unit (only the timing counts them)."""
        ...

    def loop(
        self, signature: Signature, lb: int, ub: int, step: int, inputs: Ints
    ) -> Iterable[int]:
        """The iterations of an ``scf.for`` that must run (the compiled executor's loops in
        the cost-only mode; the data machine runs every one)."""
        ...

    def finish(self) -> None:
        """End of the kernel on this core (flags balanced, ...)."""
        ...

    def release(self) -> None:
        """The launch loop is done with this core (its cost, if any, is taken): drop what only
        the run needed, so that it is freed now rather than by a later cycle collection."""
        ...


def _timed(
    model: Callable[[Operation | None, Pipe, Pipe, int], None],
    timeline: Callable[[Pipe, Pipe, int], None],
) -> Handler:
    """A flag handler that runs the flag model's, then the timeline's side of one flag."""

    def handler(op: Operation | None, src: Pipe, dst: Pipe, event: int) -> None:
        model(op, src, dst, event)
        timeline(src, dst, event)

    return handler


@dataclass(eq=False)
class MachineBase:
    """What both machines share: the target, the flags, the planned buffers, the budget and
    the synchronisation instructions (which go to the flag model, the sanitizer and the
    timing when there are any)."""

    block_idx: int
    target: HwConfig = field(default_factory=default_target)
    """The hardware description of the target (its memories and event ids)."""
    sanitizer: Sanitizer | None = None
    timeline: Timeline | None = None
    """The timing backend of this core, when the run is timed (``runtime/cost/timing.py``)."""
    budget: Budget = field(default_factory=Budget)
    """The loop iterations the run has left (shared by the cores of a run)."""

    def __post_init__(self) -> None:
        self.flags = FlagState(self.target.user_event_ids)
        self.buffers: list[tuple[str, str, int, int]] = []
        """(memory, position, first byte, end byte) of every buffer allocated so far."""
        self.extrapolated = 0
        self._bounded: dict[DataInstruction, dict[tuple[Any, ...], tuple[int, object]]] = {}
        """Per instruction, the bounds keys checked so far, with the bytes of its GM tensor."""
        self.observed = self.sanitizer is not None or self.timeline is not None
        self._handlers: dict[Instruction, Handler] = {
            instructions.SET_FLAG: self.set_flag,
            instructions.WAIT_FLAG: self.wait_flag,
            instructions.PIPE_BARRIER: self.pipe_barrier,
        }
        if self.timeline is not None:
            # The generated code counts index arithmetic in nearly every loop iteration:
            # straight to the timeline, without the method below in between.
            self.scalar = self.timeline.scalar  # type: ignore[method-assign]
        if not self.observed:
            # Unobserved, a flag is only the flag model's: skip the wrappers below.
            self._handlers[instructions.SET_FLAG] = self.flags.set_flag
            self._handlers[instructions.WAIT_FLAG] = self.flags.wait_flag
        elif self.sanitizer is None and self.timeline is not None:
            # Timed only (a thin layer runs two flags per instruction): the flag model and
            # the timeline, without the wrappers' checks in between.
            flags, timeline = self.flags, self.timeline
            self._handlers[instructions.SET_FLAG] = _timed(flags.set_flag, timeline.set_flag)
            self._handlers[instructions.WAIT_FLAG] = _timed(flags.wait_flag, timeline.wait_flag)

    def handler(self, spec: Instruction) -> Handler:
        return self._handlers[spec]

    def bounds(self, spec: DataInstruction, bound: Bound, values: tuple[Any, ...]) -> None:
        """The bounds check of one bound instruction, the same on both machines: the spec's
        :meth:`~ascend_xdsl.hw.instructions.DataInstruction.check` (``values`` as for its
        ``bind``). Its on-chip ranges depend on every value but the GM offset
        (``spec.bounds_key``), so they are checked once per distinct key; the GM range
        moves with the offset and is compared with the tensor every time (the full check, and
        its message, when it is outside)."""
        memo = self._bounded.get(spec)
        if memo is None:
            memo = self._bounded[spec] = {}
        key = spec.bounds_key(values)
        hit = memo.get(key)
        if hit is not None:
            span = spec.gm_bytes(bound)
            if span is None or (span[0] >= 0 and span[1] <= hit[0]):
                return
        windows = spec.windows(*values)
        spec.check(bound, windows)
        if len(memo) >= _MAX_BOUNDED:
            memo.clear()
        gm = [w.hi for w in windows if w.memory == "GM"]
        # The entry holds the values: the GM tensor in the key by identity stays alive.
        memo[key] = (gm[0] if gm else 0, values)

    def share_bounds(self, memo: dict[DataInstruction, dict[tuple[Any, ...], Any]]) -> None:
        """Use ``memo`` as the bounds check's memo: the cores of one launch share it (its keys
        name buffers by their layout and GM tensors by identity, the same on every core)."""
        self._bounded = memo

    def reserve(self, spec: BufferSpec) -> None:
        """Add ``spec``'s bytes to the core's buffers: they must lie in the memory, and buffers
        live for the whole kernel, so two may never overlap."""
        lo, hi = spec.offset, spec.offset + spec.slots * spec.stride
        end = spec.offset + (spec.slots - 1) * spec.stride + spec.count * spec.dtype.itemsize
        size = self.target.memory_size(spec.memory)
        if lo < 0 or end > size:
            # The data machine's memory views say the same (runtime/machine/memory.view).
            raise MemoryAccessError(f"{spec.memory} access [{lo}, {end}) out of bounds ({size} B)")
        for other_memory, other, other_lo, other_hi in self.buffers:
            if other_memory == spec.memory and lo < other_hi and other_lo < hi:
                raise MemoryAccessError(
                    f"{spec.position} buffer [{lo}, {hi}) overlaps {other} buffer "
                    f"[{other_lo}, {other_hi}) in {spec.memory}: the address plan is wrong"
                )
        self.buffers.append((spec.memory, spec.position, lo, hi))

    def set_flag(self, op: Operation | None, src: Pipe, dst: Pipe, event: int) -> None:
        self.flags.set_flag(op, src, dst, event)
        if self.sanitizer is not None:
            self.sanitizer.set_flag(src, dst, event)
        if self.timeline is not None:
            self.timeline.set_flag(src, dst, event)

    def wait_flag(self, op: Operation | None, src: Pipe, dst: Pipe, event: int) -> None:
        self.flags.wait_flag(op, src, dst, event)
        if self.sanitizer is not None:
            self.sanitizer.wait_flag(src, dst, event)
        if self.timeline is not None:
            self.timeline.wait_flag(src, dst, event)

    def pipe_barrier(self, op: Operation | None, pipe: Pipe) -> None:
        # In-order execution: every earlier instruction is already complete.
        if self.sanitizer is not None:
            self.sanitizer.barrier(pipe)
        if self.timeline is not None:
            self.timeline.barrier(pipe)

    def scalar(self, ops: int) -> None:
        if self.timeline is not None:
            self.timeline.scalar(ops)

    def loop(
        self, signature: Signature, lb: int, ub: int, step: int, inputs: Ints
    ) -> Iterable[int]:
        return range(lb, ub, step)

    def release(self) -> None:
        """The handlers go: they are the machine's bound methods, a reference cycle that only
        the cycle collector would free, with all the machine holds (a recorded core's log is
        thousands of tuples: a 5 ms collection in every unet3d-enc1 run). The data machine's
        memories go back to its launch's pool in :meth:`finish`, and the replay executor
        reads a finished core's record, not its handlers."""
        self._handlers.clear()

    def finish(self) -> None:
        """End of the kernel on this core: every flag that was set must have been waited for."""
        if self.flags.pending():
            raise KernelError(
                f"block {self.block_idx}: flags set but never waited at kernel end: "
                f"{self.flags.describe_pending()}"
            )
