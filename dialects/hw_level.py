"""Hardware-level ops of the ``ascend`` dialect: one op per AI Core instruction of a dW kernel.

The contract of every op (operands, properties, syntax, semantics, verifier rules) is
docs/hw-level-spec.md; this module and its two parts implement it: ``hw_base.py`` (the op base
class, whose pipe and effects come from the instruction specs of ``hw/instructions/``, the
shared operand checks and ``alloc_buffer``), ``hw_data_ops.py`` (the ops that move or compute
data) and, here, the synchronisation ops, ``get_block_idx``, the op tables and the accessors.
The lowering emits these ops, the runtime executes them and the sanitizer checks their
synchronisation, all through the accessors at the end of this module (``pipe_of``, ``reads``,
``writes``, ``constant_value``, ``slot_stride``, ``alignment_of``, ``capacity_of``).

The AI Core model
-----------------
An Atlas A2 AI Cube core (AIC) is a set of independent in-order instruction queues, the
*pipes*, fed by one scalar unit:

* **S** — the scalar unit: address arithmetic, loops, ``GetBlockIdx()``; it issues every other
  instruction to its pipe and does not wait for it to finish.
* **MTE2** — the DMA engine GM → L1 (``DataCopy`` into A1/B1): ``ascend.data_copy``.
* **MTE1** — L1 → L0A/L0B (``LoadData``, img2col with ``LoadData3DParamsV2`` or fractal copies
  with ``LoadData2DParams``): ``ascend.load3d``, ``ascend.load2d``; L1 → the bias table
  (``DataCopy`` C1 → C2): ``ascend.load_bias``.
* **M** — the Cube unit, C += A·B on 16x16 fractals from L0A/L0B into L0C (``Mmad``):
  ``ascend.mmad``.
* **FIX** — the fixpipe L0C → GM, optionally an fp32 atomic add (``Fixpipe``):
  ``ascend.fixpipe``.
* V and MTE3 belong to the vector core (AIV) and do not occur in a Cube-only dW kernel.

Pipes run concurrently; ordering *between* pipes exists only through events: ``SetFlag<src,dst>
(id)`` on pipe ``src`` fires once all earlier ``src`` work is done, ``WaitFlag<src,dst>(id)``
blocks pipe ``dst`` until that event arrives (``ascend.set_flag`` / ``ascend.wait_flag``).
``PipeBarrier<PIPE_X>()`` orders work *within* one pipe (``ascend.pipe_barrier``).

Memories and positions
----------------------
Ascend C names buffers by logical *position* (``TPosition``), each placed in one physical memory:
A1/B1 in L1 (512 KB, 32 B aligned), A2 in L0A and B2 in L0B (64 KB each, 512 B aligned), CO1 in
L0C (128 KB of fp32 accumulators, 64 B aligned), GM is the device's global memory. A local buffer
is ``ascend.alloc_buffer`` with one or two *slots* (ping/pong, Ascend C's ``TQue`` depth); every
access names its slot with an index operand. Buffer addresses are assigned by the buffer planner
(the ``offset`` property); sizes and alignments come from the hardware description
(``ascend_xdsl.hw.load()``), never from constants in this file.

Conventions: every dynamic quantity is an ``index`` operand, so loops stay loops; a verifier
checks an instruction limit whenever the operand is an ``arith.constant`` (``constant_value``)
and the runtime checks it on every execution.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.conv_shape import align_up
from ascend_xdsl.dialects.enums import Pipe, PipeAttr
from ascend_xdsl.dialects.hw_base import (
    _INDEX,
    BLOCK_BYTES,
    Access,
    AllocBufferOp,
    HwOp,
    Value,
    _limit,
    alignment_of,
    block_elements,
    capacity_of,
    constant_value,
    slot_stride,
)
from ascend_xdsl.dialects.hw_data_ops import (
    DataCopyOp,
    FillOp,
    FixpipeOp,
    Load2dOp,
    Load3dOp,
    LoadBiasOp,
    MmadOp,
)
from ascend_xdsl.hw import HwConfig, UnknownHardwareError, instructions, load
from ascend_xdsl.hw.instructions import Instruction

__all__ = [
    "BLOCK_BYTES",
    "INSTRUCTION_OPS",
    "MEMORY_OPS",
    "OPS",
    "Access",
    "AllocBufferOp",
    "DataCopyOp",
    "FillOp",
    "FixpipeOp",
    "GetBlockIdxOp",
    "HwOp",
    "Load2dOp",
    "Load3dOp",
    "LoadBiasOp",
    "MmadOp",
    "PipeBarrierOp",
    "SetFlagOp",
    "Value",
    "WaitFlagOp",
    "_limit",
    "align_up",
    "alignment_of",
    "block_elements",
    "buffer_alloc",
    "capacity_of",
    "constant_value",
    "pipe_of",
    "reads",
    "slot_stride",
    "writes",
]


TARGET_ATTR = "ascend.target"
"""The attribute (a hardware name) by which IR says its target: ``ascend-insert-sync`` sets it
on every kernel it synchronises, with its ``hw``; a hand-written kernel or module may carry it."""


def target_of(op: Operation) -> tuple[HwConfig, bool]:
    """The hardware the IR around ``op`` targets, from the :data:`TARGET_ATTR` of the nearest
    enclosing op that has one; the default hardware when none has (False: not named)."""
    node = op.parent_op()
    while node is not None:
        attr = node.attributes.get(TARGET_ATTR)
        if attr is not None:
            if not isinstance(attr, StringAttr):
                raise VerifyException(f"{TARGET_ATTR} must be a hardware name, got {attr}")
            try:
                return load(attr.data), True
            except UnknownHardwareError as e:
                raise VerifyException(f"{TARGET_ATTR}: {e}") from None
        node = node.parent_op()
    return load(), False


class _EventOp(HwOp, ABC):
    """set_flag / wait_flag: an event from pipe ``src`` to pipe ``dst`` with id ``event``."""

    src = prop_def(PipeAttr)
    dst = prop_def(PipeAttr)
    event = operand_def(_INDEX)

    assembly_format = "$src `->` $dst `event` $event attr-dict"

    def __init__(self, src: Pipe, dst: Pipe, event: Value):
        super().__init__(operands=[event], properties={"src": PipeAttr(src), "dst": PipeAttr(dst)})

    @property
    def src_pipe(self) -> Pipe:
        return self.src.data

    @property
    def dst_pipe(self) -> Pipe:
        return self.dst.data

    def verify_(self) -> None:
        src, dst = self.src_pipe, self.dst_pipe
        if Pipe.ALL in (src, dst):
            raise VerifyException(f"pipe ALL cannot be an event endpoint, got {src} -> {dst}")
        if src == dst:
            raise VerifyException(f"src and dst pipes must differ, got {src} -> {dst}")
        # Ids from user_event_ids up are reserved for the framework: a kernel may not set them.
        # The bound is the target's, which the IR names (the default hardware's if it does not).
        ev = constant_value(self.event)
        if ev is None:
            return
        target, named = target_of(self)
        ids = target.user_event_ids
        if not 0 <= ev < ids:
            on = f" on {target.name}" if named else ""
            raise VerifyException(f"event id must be in [0, {ids}){on}, got {ev}")


@irdl_op_definition
class SetFlagOp(_EventOp):
    """Ascend C ``SetFlag<HardEvent::SRC_DST>(id)``: issued on pipe ``src``; fires once all
    earlier ``src`` work is done."""

    name = "ascend.set_flag"
    SPEC: ClassVar[Instruction | None] = instructions.SET_FLAG


@irdl_op_definition
class WaitFlagOp(_EventOp):
    """Ascend C ``WaitFlag<HardEvent::SRC_DST>(id)``: blocks pipe ``dst`` until the matching
    event has been set; each set is consumed by exactly one wait."""

    name = "ascend.wait_flag"
    SPEC: ClassVar[Instruction | None] = instructions.WAIT_FLAG


@irdl_op_definition
class PipeBarrierOp(HwOp):
    """Ascend C ``PipeBarrier<PIPE_X>()``: earlier work of the pipe completes before later work
    of the pipe starts (``ALL``: of every pipe)."""

    name = "ascend.pipe_barrier"
    SPEC: ClassVar[Instruction | None] = instructions.PIPE_BARRIER

    barrier_pipe = prop_def(PipeAttr, prop_name="pipe")

    assembly_format = "$pipe attr-dict"

    def __init__(self, pipe: Pipe):
        super().__init__(properties={"pipe": PipeAttr(pipe)})

    @property
    def target_pipe(self) -> Pipe:
        """The pipe the barrier orders (``ALL``: every pipe)."""
        return self.barrier_pipe.data


@irdl_op_definition
class GetBlockIdxOp(HwOp):
    """Ascend C ``GetBlockIdx()``: the index of the core running the kernel (scalar unit)."""

    name = "ascend.get_block_idx"
    PIPE: ClassVar[Pipe | None] = Pipe.S

    result = result_def(_INDEX)

    assembly_format = "attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[_INDEX])


OPS: tuple[type[IRDLOperation], ...] = (
    AllocBufferOp,
    DataCopyOp,
    FillOp,
    Load3dOp,
    Load2dOp,
    LoadBiasOp,
    MmadOp,
    FixpipeOp,
    SetFlagOp,
    WaitFlagOp,
    PipeBarrierOp,
    GetBlockIdxOp,
)

MEMORY_OPS: tuple[type[HwOp], ...] = tuple(
    op for op in OPS if issubclass(op, HwOp) and isinstance(op.SPEC, instructions.DataInstruction)
)
"""The ops that move or compute data (each has reads and writes): those whose spec is a data
instruction."""

INSTRUCTION_OPS: dict[Instruction, type[HwOp]] = {
    op.SPEC: op for op in OPS if issubclass(op, HwOp) and op.SPEC is not None
}
"""The op of each instruction spec."""


# ----------------------------------------------------------------------------------------------
# Accessors for the lowering, the runtime and the sanitizer
# ----------------------------------------------------------------------------------------------


def pipe_of(op: Operation) -> Pipe | None:
    """The pipe that executes ``op``: the op's fixed pipe; for set_flag its src pipe, for
    wait_flag its dst pipe, for pipe_barrier its pipe. None for alloc_buffer and non-ascend ops."""
    return op.pipe() if isinstance(op, HwOp) else None


def reads(op: Operation) -> list[Access]:
    """The buffers ``op`` reads, each with its slot operand (None for a GM tensor)."""
    return op.reads() if isinstance(op, HwOp) else []


def writes(op: Operation) -> list[Access]:
    """The buffers ``op`` writes, each with its slot operand (None for a GM tensor)."""
    return op.writes() if isinstance(op, HwOp) else []


def buffer_alloc(buffer: SSAValue) -> AllocBufferOp | None:
    """The ``alloc_buffer`` that defines ``buffer``, if any."""
    owner = buffer.owner
    return owner if isinstance(owner, AllocBufferOp) else None
