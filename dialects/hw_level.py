"""Hardware-level ops of the ``ascend`` dialect: one op per AI Core instruction of a dW kernel.

The contract of every op (operands, properties, syntax, semantics, verifier rules) is
docs/hw-level-spec.md; this module implements it. The lowering emits these ops, the runtime
executes them and the sanitizer checks their synchronisation, all through the accessors at the
end of this module (``pipe_of``, ``reads``, ``writes``, ``constant_value``, ``slot_stride``,
``alignment_of``, ``capacity_of``).

The AI Core model
-----------------
An Atlas A2 AI Cube core (AIC) is a set of independent in-order instruction queues, the
*pipes*, fed by one scalar unit:

* **S** — the scalar unit: address arithmetic, loops, ``GetBlockIdx()``; it issues every other
  instruction to its pipe and does not wait for it to finish.
* **MTE2** — the DMA engine GM → L1 (``DataCopy`` into A1/B1): ``ascend.data_copy``.
* **MTE1** — L1 → L0A/L0B (``LoadData``, img2col with ``LoadData3DParamsV2`` or fractal copies
  with ``LoadData2DParams``): ``ascend.load3d``, ``ascend.load2d``.
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
from collections.abc import Sequence
from typing import ClassVar, NamedTuple, cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    f32,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.conv_shape import align_up
from ascend_xdsl.dialects.enums import PhysicalMemory, Pipe, PipeAttr, TPosition
from ascend_xdsl.dialects.types import GmTensorType, LocalTensorType
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


@irdl_op_definition
class DataCopyOp(HwOp):
    """MTE2, GM → A1/B1: Ascend C ``DataCopy(local, global, DataCopyParams)``.

    For ``i in [0, count)`` copy ``len`` 32-byte blocks from GM element
    ``src_offset + i * (len + src_stride) * B`` to the dst slot at element
    ``dst_offset + i * (len + dst_stride) * B`` (``B`` elements per block).
    """

    name = "ascend.data_copy"
    SPEC: ClassVar[Instruction | None] = instructions.DATA_COPY

    src = operand_def()
    src_offset = operand_def(_INDEX)
    dst = operand_def()
    dst_slot = operand_def(_INDEX)
    dst_offset = operand_def(_INDEX)
    block_count = operand_def(_INDEX)
    block_len = operand_def(_INDEX)
    src_stride = operand_def(_INDEX)
    dst_stride = operand_def(_INDEX)

    assembly_format = (
        "$src `[` $src_offset `]` `->` $dst `[` $dst_slot `,` $dst_offset `]`"
        " `count` $block_count `len` $block_len `src_stride` $src_stride"
        " `dst_stride` $dst_stride attr-dict `:` type($src) `->` type($dst)"
    )
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        src: Value,
        src_offset: Value,
        dst: Value,
        dst_slot: Value,
        dst_offset: Value,
        block_count: Value,
        block_len: Value,
        src_stride: Value,
        dst_stride: Value,
    ):
        super().__init__(
            operands=[
                src,
                src_offset,
                dst,
                dst_slot,
                dst_offset,
                block_count,
                block_len,
                src_stride,
                dst_stride,
            ]
        )

    def verify_(self) -> None:
        src = self.src.type
        if not isinstance(src, GmTensorType):
            raise VerifyException(f"src must be a !ascend.gm_tensor, got {src}")
        dst = _local(self.dst, "dst", (TPosition.A1, TPosition.B1))
        _same_element_type(src.element_type, "src", dst.element_type, "dst")
        _slot_in_range(self.dst, self.dst_slot, "dst")
        _limit(self.block_count, "data_copy", "count")
        _limit(self.block_len, "data_copy", "len")
        _limit(self.src_stride, "data_copy", "src_stride")
        _limit(self.dst_stride, "data_copy", "dst_stride")


_I64_ARRAY = DenseArrayBase.constr(i64)


@irdl_op_definition
class Load3dOp(HwOp):
    """MTE1, A1 → A2 (``transpose``) or B1 → B2: img2col, Ascend C ``LoadData`` with
    ``LoadData3DParamsV2``. See docs/hw-level-spec.md for the exact index maps."""

    name = "ascend.load3d"
    SPEC: ClassVar[Instruction | None] = instructions.LOAD3D

    src = operand_def()
    src_slot = operand_def(_INDEX)
    src_offset = operand_def(_INDEX)
    dst = operand_def()
    dst_slot = operand_def(_INDEX)
    l1_h = operand_def(_INDEX)
    l1_w = operand_def(_INDEX)
    channels = operand_def(_INDEX)
    k_start = operand_def(_INDEX)
    k_ext = operand_def(_INDEX)
    m_start = operand_def(_INDEX)
    m_ext = operand_def(_INDEX)
    pad_top = operand_def(_INDEX)
    pad_bottom = operand_def(_INDEX)
    pad_left = operand_def(_INDEX)
    pad_right = operand_def(_INDEX)

    kernel = prop_def(_I64_ARRAY)
    stride = prop_def(_I64_ARRAY)
    dilation = prop_def(_I64_ARRAY)
    transpose = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src `[` $src_slot `,` $src_offset `]` `->` $dst `[` $dst_slot `]`"
        " `fmap` $l1_h `,` $l1_w `,` $channels"
        " `window` $k_start `,` $k_ext `,` $m_start `,` $m_ext"
        " `pad` $pad_top `,` $pad_bottom `,` $pad_left `,` $pad_right"
        " `kernel` $kernel `stride` $stride `dilation` $dilation (`transpose` $transpose^)?"
        " attr-dict `:` type($src) `->` type($dst)"
    )
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        src: Value,
        src_slot: Value,
        src_offset: Value,
        dst: Value,
        dst_slot: Value,
        fmap: tuple[Value, Value, Value],
        window: tuple[Value, Value, Value, Value],
        pad: tuple[Value, Value, Value, Value],
        kernel: tuple[int, int],
        stride: tuple[int, int],
        dilation: tuple[int, int] = (1, 1),
        transpose: bool = False,
    ):
        """``fmap`` = (l1_h, l1_w, channels), ``window`` = (k_start, k_ext, m_start, m_ext),
        ``pad`` = (top, bottom, left, right)."""
        super().__init__(
            operands=[src, src_slot, src_offset, dst, dst_slot, *fmap, *window, *pad],
            properties={
                "kernel": DenseArrayBase.from_list(i64, kernel),
                "stride": DenseArrayBase.from_list(i64, stride),
                "dilation": DenseArrayBase.from_list(i64, dilation),
                "transpose": UnitAttr() if transpose else None,
            },
        )

    @property
    def kernel_hw(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.kernel.get_values())

    @property
    def stride_hw(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.stride.get_values())

    @property
    def dilation_hw(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.dilation.get_values())

    @property
    def is_transposed(self) -> bool:
        return self.transpose is not None

    def verify_(self) -> None:
        src = _local(self.src, "src", (TPosition.A1, TPosition.B1))
        dst_pos = TPosition.A2 if src.tposition == TPosition.A1 else TPosition.B2
        dst = self.dst.type
        if not isinstance(dst, LocalTensorType):
            raise VerifyException(f"dst must be a !ascend.local_tensor in {dst_pos}, got {dst}")
        if dst.tposition != dst_pos:
            raise VerifyException(
                f"a load3d from {src.tposition} must write {dst_pos}, got {dst.tposition}"
            )
        if src.tposition == TPosition.A1 and not self.is_transposed:
            raise VerifyException("a load3d A1 -> A2 must set transpose")
        if src.tposition == TPosition.B1 and self.is_transposed:
            raise VerifyException("a load3d B1 -> B2 must not set transpose")
        _same_element_type(src.element_type, "src", dst.element_type, "dst")
        for what, values in (
            ("kernel", self.kernel_hw),
            ("stride", self.stride_hw),
            ("dilation", self.dilation_hw),
        ):
            lim = isa.limit("load3d", what)
            if len(values) != 2:
                raise VerifyException(f"{what} must have 2 values [h, w], got {len(values)}")
            if not all(lim.error("load3d", what, v) is None for v in values):
                raise VerifyException(
                    f"{what} values must be in [{lim.lo}, {lim.hi}], got {list(values)}"
                )
        _slot_in_range(self.src, self.src_slot, "src")
        _slot_in_range(self.dst, self.dst_slot, "dst")
        for what, pad in (
            ("pad top", self.pad_top),
            ("pad bottom", self.pad_bottom),
            ("pad left", self.pad_left),
            ("pad right", self.pad_right),
        ):
            _limit(pad, "load3d", "pad", what)
        _multiple_of(self.channels, "channels", block_elements(src.element_type))
        _limit(self.k_ext, "load3d", "k_ext")
        _limit(self.m_ext, "load3d", "m_ext")


@irdl_op_definition
class Load2dOp(HwOp):
    """MTE1, A1 → A2 or B1 → B2: ``repeat`` fractal copies, Ascend C ``LoadData`` with
    ``LoadData2DParams``; with ``transpose`` each 16x16 fractal is transposed."""

    name = "ascend.load2d"
    SPEC: ClassVar[Instruction | None] = instructions.LOAD2D

    src = operand_def()
    src_slot = operand_def(_INDEX)
    src_offset = operand_def(_INDEX)
    dst = operand_def()
    dst_slot = operand_def(_INDEX)
    dst_offset = operand_def(_INDEX)
    repeat = operand_def(_INDEX)
    src_stride = operand_def(_INDEX)
    transpose = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src `[` $src_slot `,` $src_offset `]` `->` $dst `[` $dst_slot `,` $dst_offset `]`"
        " `repeat` $repeat `src_stride` $src_stride (`transpose` $transpose^)?"
        " attr-dict `:` type($src) `->` type($dst)"
    )
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        src: Value,
        src_slot: Value,
        src_offset: Value,
        dst: Value,
        dst_slot: Value,
        dst_offset: Value,
        repeat: Value,
        src_stride: Value,
        transpose: bool = False,
    ):
        super().__init__(
            operands=[src, src_slot, src_offset, dst, dst_slot, dst_offset, repeat, src_stride],
            properties={"transpose": UnitAttr() if transpose else None},
        )

    @property
    def is_transposed(self) -> bool:
        return self.transpose is not None

    def verify_(self) -> None:
        src = _local(self.src, "src", (TPosition.A1, TPosition.B1))
        dst_pos = TPosition.A2 if src.tposition == TPosition.A1 else TPosition.B2
        dst = self.dst.type
        if not isinstance(dst, LocalTensorType):
            raise VerifyException(f"dst must be a !ascend.local_tensor in {dst_pos}, got {dst}")
        if dst.tposition != dst_pos:
            raise VerifyException(
                f"a load2d from {src.tposition} must write {dst_pos}, got {dst.tposition}"
            )
        _same_element_type(src.element_type, "src", dst.element_type, "dst")
        _slot_in_range(self.src, self.src_slot, "src")
        _slot_in_range(self.dst, self.dst_slot, "dst")
        _limit(self.repeat, "load2d", "repeat")
        _limit(self.src_stride, "load2d", "src_stride")


@irdl_op_definition
class MmadOp(HwOp):
    """M: ``C[r, c] = (init ? 0 : C[r, c]) + sum_t A[r, t] * B[t, c]`` in fp32 on the Cube,
    Ascend C ``Mmad(c, a, b, MmadParams)`` (A Zz in A2, B Zn in B2, C Nz in CO1)."""

    name = "ascend.mmad"
    SPEC: ClassVar[Instruction | None] = instructions.MMAD

    a = operand_def()
    a_slot = operand_def(_INDEX)
    b = operand_def()
    b_slot = operand_def(_INDEX)
    c = operand_def()
    c_slot = operand_def(_INDEX)
    m = operand_def(_INDEX)
    n = operand_def(_INDEX)
    k = operand_def(_INDEX)
    init = operand_def(i1)

    assembly_format = (
        "$a `[` $a_slot `]` `,` $b `[` $b_slot `]` `->` $c `[` $c_slot `]`"
        " `m` $m `n` $n `k` $k `init` $init"
        " attr-dict `:` type($a) `,` type($b) `->` type($c)"
    )
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        a: Value,
        a_slot: Value,
        b: Value,
        b_slot: Value,
        c: Value,
        c_slot: Value,
        m: Value,
        n: Value,
        k: Value,
        init: Value,
    ):
        super().__init__(operands=[a, a_slot, b, b_slot, c, c_slot, m, n, k, init])

    def verify_(self) -> None:
        a = _local(self.a, "a", (TPosition.A2,))
        b = _local(self.b, "b", (TPosition.B2,))
        c = _local(self.c, "c", (TPosition.CO1,))
        if c.element_type != f32:  # also enforced by local_tensor for CO1
            raise VerifyException(f"c must hold f32, got {element_type_name(c.element_type)}")
        _same_element_type(a.element_type, "a", b.element_type, "b")
        _slot_in_range(self.a, self.a_slot, "a")
        _slot_in_range(self.b, self.b_slot, "b")
        _slot_in_range(self.c, self.c_slot, "c")
        _limit(self.m, "mmad", "m")
        _limit(self.n, "mmad", "n")
        _limit(self.k, "mmad", "k")


@irdl_op_definition
class FixpipeOp(HwOp):
    """FIX, CO1 → GM (NZ → NZ, fp32, optionally atomic add): Ascend C
    ``Fixpipe(global, local, FixpipeParamsV220)`` with CFG_NZ."""

    name = "ascend.fixpipe"
    SPEC: ClassVar[Instruction | None] = instructions.FIXPIPE

    src = operand_def()
    src_slot = operand_def(_INDEX)
    dst = operand_def()
    dst_offset = operand_def(_INDEX)
    m = operand_def(_INDEX)
    n = operand_def(_INDEX)
    src_stride = operand_def(_INDEX)
    dst_stride = operand_def(_INDEX)
    atomic = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src `[` $src_slot `]` `->` $dst `[` $dst_offset `]`"
        " `m` $m `n` $n `src_stride` $src_stride `dst_stride` $dst_stride (`atomic` $atomic^)?"
        " attr-dict `:` type($src) `->` type($dst)"
    )
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        src: Value,
        src_slot: Value,
        dst: Value,
        dst_offset: Value,
        m: Value,
        n: Value,
        src_stride: Value,
        dst_stride: Value,
        atomic: bool = False,
    ):
        super().__init__(
            operands=[src, src_slot, dst, dst_offset, m, n, src_stride, dst_stride],
            properties={"atomic": UnitAttr() if atomic else None},
        )

    @property
    def is_atomic(self) -> bool:
        return self.atomic is not None

    def verify_(self) -> None:
        _local(self.src, "src", (TPosition.CO1,))
        dst = self.dst.type
        if not isinstance(dst, GmTensorType) or dst.element_type != f32:
            raise VerifyException(f"dst must be a !ascend.gm_tensor of f32, got {dst}")
        _slot_in_range(self.src, self.src_slot, "src")
        _limit(self.n, "fixpipe", "n")
        _limit(self.m, "fixpipe", "m")
        _limit(self.src_stride, "fixpipe", "src_stride")
        _limit(self.dst_stride, "fixpipe", "dst_stride")


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
        ev, ids = constant_value(self.event), load().user_event_ids
        if ev is not None and not 0 <= ev < ids:
            raise VerifyException(f"event id must be in [0, {ids}), got {ev}")


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
    Load3dOp,
    Load2dOp,
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
