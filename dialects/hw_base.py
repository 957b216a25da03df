"""The shared part of the hardware-level ops: operand checks, hardware figures, the op base
class and ``alloc_buffer``.

``dialects/hw_level.py`` is the hardware level's public module (the AI Core model, every op,
the accessors); this file holds what every op of it needs: :class:`HwOp`, whose pipe and
read/write effects come from the op's instruction spec (``hw/instructions/``), the helpers the
verifiers share (constants, alignments and capacities from the hardware description, the ISA
limits of ``hw/isa.toml``) and :class:`AllocBufferOp`, which the slot checks look at.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar, NamedTuple, cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    I64,
    IndexType,
    IntegerAttr,
    IntegerType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryAllocEffect
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.conv_shape import align_up
from ascend_xdsl.dialects.enums import PhysicalMemory, Pipe, TPosition
from ascend_xdsl.dialects.types import LocalTensorType
from ascend_xdsl.hw import HwConfig, instructions, isa, load
from ascend_xdsl.hw.instructions import Instruction

Value = SSAValue | Operation
"""What the builders accept for an operand (an op stands for its single result)."""

BLOCK_BYTES = isa.BLOCK_BYTES
"""One block of DataCopy / Fixpipe strides, and one C0 group of channels."""

# The instruction limits (field widths of the Ascend C parameter structs) are the instruction
# model's table, hw/isa.toml (ascend_xdsl.hw.isa.LIMITS); the verifiers below read it.


# ----------------------------------------------------------------------------------------------
# Shared helpers: constants, hardware figures, operand checks
# ----------------------------------------------------------------------------------------------


def constant_value(v: SSAValue) -> int | None:
    """The integer value of ``v`` if it is defined by an integer/index ``arith.constant``.

    ``i1`` constants read as 0 / 1 (``true`` is stored as the signed value -1).
    """
    op = v.owner
    if not isinstance(op, arith.ConstantOp):
        return None
    attr = op.value
    if not isinstance(attr, IntegerAttr):
        return None
    value = attr.value.data
    if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
        return 1 if value else 0
    return value


def _on_chip(memory: PhysicalMemory) -> PhysicalMemory:
    if memory == PhysicalMemory.GM:
        raise ValueError("GM is not an on-chip memory: it has no buffer alignment or capacity")
    return memory


def alignment_of(memory: PhysicalMemory, hw: HwConfig | None = None) -> int:
    """Byte alignment of a buffer address in an on-chip ``memory`` (L1 32, L0A/L0B 512, L0C 64)."""
    return (hw or load()).memory_alignment(_on_chip(memory))


def capacity_of(memory: PhysicalMemory, hw: HwConfig | None = None) -> int:
    """Size in bytes of an on-chip ``memory`` (Atlas A2: L1 524288, L0A/L0B 65536, L0C 131072)."""
    return (hw or load()).memory_size(_on_chip(memory))


def slot_stride(buffer_type: LocalTensorType, hw: HwConfig | None = None) -> int:
    """Bytes between the starts of two slots of a buffer: its size aligned up to its memory's
    alignment. Slot ``s`` of a buffer at ``offset`` starts at ``offset + s * slot_stride``."""
    return align_up(buffer_type.size_bytes, alignment_of(buffer_type.memory, hw))


def block_elements(element_type: Attribute) -> int:
    """Elements in one 32-byte block (16 for f16/bf16, 8 for f32): DataCopy's unit and C0."""
    return BLOCK_BYTES // (2 if element_type_name(element_type) in ("f16", "bf16") else 4)


def _local(value: SSAValue, what: str, positions: Sequence[TPosition]) -> LocalTensorType:
    """``value``'s type, checked to be a local_tensor in one of ``positions``."""
    names = " or ".join(p.value for p in positions)
    t = value.type
    if not isinstance(t, LocalTensorType):
        raise VerifyException(f"{what} must be a !ascend.local_tensor in {names}, got {t}")
    if t.tposition not in positions:
        raise VerifyException(f"{what} must be in {names}, got {t.tposition}")
    return t


def _same_element_type(a: Attribute, a_name: str, b: Attribute, b_name: str) -> None:
    if a != b:
        raise VerifyException(
            f"element types differ: {a_name} is {element_type_name(a)}, "
            f"{b_name} is {element_type_name(b)}"
        )


def _in_range(value: SSAValue, what: str, lo: int, hi: int) -> None:
    """If ``value`` is a constant, check ``lo <= value <= hi``."""
    c = constant_value(value)
    if c is not None and not lo <= c <= hi:
        raise VerifyException(f"{what} must be in [{lo}, {hi}], got {c}")


def _limit(value: SSAValue, instr: str, field: str, what: str | None = None) -> None:
    """If ``value`` is a constant, check it against the ISA limit of ``instr``'s ``field``."""
    lim = isa.limit(instr, field)
    what = what or field
    if lim.multiple is not None:
        c = constant_value(value)
        if c is None:
            return
        if lim.hi is not None and not (lim.lo <= c <= lim.hi and c % lim.multiple == 0):
            raise VerifyException(
                f"{what} must be a multiple of {lim.multiple} in [{lim.lo}, {lim.hi}], got {c}"
            )
        _multiple_of(value, what, lim.multiple)
    elif lim.hi is not None:
        _in_range(value, what, lim.lo, lim.hi)
    elif lim.lo == 0:
        _non_negative(value, what)
    else:
        c = constant_value(value)
        if c is not None and c < lim.lo:
            raise VerifyException(f"{what} must be at least {lim.lo}, got {c}")


def _non_negative(value: SSAValue, what: str) -> None:
    c = constant_value(value)
    if c is not None and c < 0:
        raise VerifyException(f"{what} must be non-negative, got {c}")


def _multiple_of(value: SSAValue, what: str, step: int) -> None:
    """If ``value`` is a constant, check that it is a positive multiple of ``step``."""
    c = constant_value(value)
    if c is not None and (c <= 0 or c % step):
        raise VerifyException(f"{what} must be a positive multiple of {step}, got {c}")


def _slot_in_range(buffer: SSAValue, slot: SSAValue, what: str) -> None:
    """If the buffer comes from an ``alloc_buffer`` and the slot is a constant, check the slot."""
    s = constant_value(slot)
    if s is None:
        return
    owner = buffer.owner
    slots = owner.slots.value.data if isinstance(owner, AllocBufferOp) else 2
    if not 0 <= s < slots:
        raise VerifyException(f"{what} slot must be in [0, {slots}), got {s}")


class Access(NamedTuple):
    """One buffer operand of a memory op: the buffer and, for a local buffer, its slot operand."""

    buffer: SSAValue
    slot: SSAValue | None


# ----------------------------------------------------------------------------------------------
# Ops
# ----------------------------------------------------------------------------------------------


class HwOp(IRDLOperation, ABC):
    """Base of the hardware-level ops: the pipe that executes the op and the buffers it touches,
    both derived from the op's instruction spec (``hw/instructions/``), so the sync pass and the
    machine read one definition."""

    SPEC: ClassVar[Instruction | None] = None
    """The instruction this op is (None: an op that is no instruction, e.g. alloc_buffer)."""
    PIPE: ClassVar[Pipe | None] = None
    """The pipe of an op that is no instruction (get_block_idx runs on S)."""

    def pipe(self) -> Pipe | None:
        spec = self.SPEC
        return self.PIPE if spec is None else spec.op_pipe(self)

    def _accesses(self, accesses: Sequence[instructions.Access]) -> list[Access]:
        found = []
        for a in accesses:
            if a.unless_true is not None and constant_value(getattr(self, a.unless_true)) == 1:
                continue
            if a.only_if_true is not None and constant_value(getattr(self, a.only_if_true)) == 0:
                continue
            if getattr(self, a.buffer) is None:  # an absent optional operand
                continue
            found.append(Access(getattr(self, a.buffer), a.slot and getattr(self, a.slot)))
        return found

    def reads(self) -> list[Access]:
        """The buffers the op reads (its spec's ``reads``), each with its slot operand."""
        return [] if self.SPEC is None else self._accesses(self.SPEC.reads)

    def writes(self) -> list[Access]:
        """The buffers the op writes (its spec's ``writes``), each with its slot operand."""
        return [] if self.SPEC is None else self._accesses(self.SPEC.writes)


_INDEX = IndexType()


@irdl_op_definition
class AllocBufferOp(HwOp):
    """A local buffer of 1 or 2 slots in one position (Ascend C ``TQue``/``TBuf`` storage).

    ``offset`` is the byte address inside the position's physical memory, set by the planner.
    """

    name = "ascend.alloc_buffer"
    PIPE: ClassVar[Pipe | None] = None

    slots = prop_def(IntegerAttr[I64])
    offset = opt_prop_def(IntegerAttr[I64])
    result = result_def()

    assembly_format = "`slots` $slots (`offset` $offset^)? attr-dict `:` type($result)"
    traits = traits_def(MemoryAllocEffect())

    def __init__(self, buffer_type: LocalTensorType, slots: int = 1, offset: int | None = None):
        super().__init__(
            result_types=[buffer_type],
            properties={
                "slots": IntegerAttr(slots, i64),
                "offset": None if offset is None else IntegerAttr(offset, i64),
            },
        )

    @property
    def buffer_type(self) -> LocalTensorType:
        return cast(LocalTensorType, self.result.type)

    @property
    def num_slots(self) -> int:
        return self.slots.value.data

    @property
    def offset_bytes(self) -> int | None:
        return None if self.offset is None else self.offset.value.data

    def verify_(self) -> None:
        t = self.result.type
        if not isinstance(t, LocalTensorType):
            raise VerifyException(
                f"result must be a !ascend.local_tensor (a buffer cannot be in GM), got {t}"
            )
        slots = self.num_slots
        if slots not in (1, 2):
            raise VerifyException(f"slots must be 1 or 2, got {slots}")
        offset = self.offset_bytes or 0
        memory = t.memory
        if offset < 0:
            raise VerifyException(f"offset must be non-negative, got {offset}")
        align = alignment_of(memory)
        if offset % align:
            raise VerifyException(
                f"offset {offset} is not a multiple of the {align}-byte alignment of {memory}"
            )
        stride = slot_stride(t)
        capacity = capacity_of(memory)
        if offset + slots * stride > capacity:
            raise VerifyException(
                f"buffer does not fit in {memory}: offset {offset} + {slots} slot(s) x {stride} "
                f"bytes = {offset + slots * stride} > capacity {capacity} bytes"
            )
