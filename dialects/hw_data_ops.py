"""The hardware-level ops that move or compute data: ``data_copy`` and ``fill`` (MTE2),
``load3d``, ``load2d`` and ``load_bias`` (MTE1), ``mmad`` (M) and ``fixpipe`` (FIX).

Each op is its instruction spec's op (``SPEC``, ``hw/instructions/``): the spec gives its pipe,
the buffers it reads and writes and the order of its operands; this file gives the syntax, the
builders and the verifiers (positions, element types, slots, constant operands against the ISA
limits). The contract of every op is docs/hw-level-spec.md. ``dialects/hw_level.py`` re-exports
them.
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DenseArrayBase,
    UnitAttr,
    bf16,
    f16,
    f32,
    i1,
    i64,
)
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.enums import TPosition
from ascend_xdsl.dialects.hw_base import (
    _INDEX,
    HwOp,
    Value,
    _limit,
    _local,
    _multiple_of,
    _same_element_type,
    _slot_in_range,
    block_elements,
)
from ascend_xdsl.dialects.types import GmTensorType, LocalTensorType
from ascend_xdsl.hw import instructions, isa
from ascend_xdsl.hw.instructions import Instruction


@irdl_op_definition
class DataCopyOp(HwOp):
    """MTE2, GM → A1/B1/C1: Ascend C ``DataCopy(local, global, DataCopyParams)`` (C1: a bias
    on its way to the bias table).

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
        dst = _local(self.dst, "dst", (TPosition.A1, TPosition.B1, TPosition.C1))
        _same_element_type(src.element_type, "src", dst.element_type, "dst")
        _slot_in_range(self.dst, self.dst_slot, "dst")
        _limit(self.block_count, "data_copy", "count")
        _limit(self.block_len, "data_copy", "len")
        _limit(self.src_stride, "data_copy", "src_stride")
        _limit(self.dst_stride, "data_copy", "dst_stride")


@irdl_op_definition
class FillOp(HwOp):
    """MTE2, zeros into A1/B1: Ascend C ``Fill`` (``InitConstValue``) with ``initValue`` 0.

    For ``i in [0, repeat)`` zero ``block_num`` 32-byte blocks of the dst slot from element
    ``dst_offset + i * (block_num + dst_gap) * B`` (``B`` elements per block).
    """

    name = "ascend.fill"
    SPEC: ClassVar[Instruction | None] = instructions.FILL

    dst = operand_def()
    dst_slot = operand_def(_INDEX)
    dst_offset = operand_def(_INDEX)
    repeat = operand_def(_INDEX)
    block_num = operand_def(_INDEX)
    dst_gap = operand_def(_INDEX)

    assembly_format = (
        "$dst `[` $dst_slot `,` $dst_offset `]` `repeat` $repeat `blocks` $block_num"
        " `gap` $dst_gap attr-dict `:` type($dst)"
    )
    traits = traits_def(MemoryWriteEffect())

    def __init__(
        self,
        dst: Value,
        dst_slot: Value,
        dst_offset: Value,
        repeat: Value,
        block_num: Value,
        dst_gap: Value,
    ):
        super().__init__(operands=[dst, dst_slot, dst_offset, repeat, block_num, dst_gap])

    def verify_(self) -> None:
        _local(self.dst, "dst", (TPosition.A1, TPosition.B1))
        _slot_in_range(self.dst, self.dst_slot, "dst")
        _limit(self.repeat, "fill", "repeat")
        _limit(self.block_num, "fill", "block_num")
        _limit(self.dst_gap, "fill", "dst_gap")


_I64_ARRAY = DenseArrayBase.constr(i64)


def _mte1_operands(
    src_value: SSAValue, dst_value: SSAValue, op: str
) -> tuple[LocalTensorType, LocalTensorType]:
    """The types of an MTE1 load's (``op``'s) source and destination, checked: the source in
    A1 or B1, the destination in the L0 buffer it feeds (A1 → A2, B1 → B2)."""
    src = _local(src_value, "src", (TPosition.A1, TPosition.B1))
    dst_pos = TPosition.A2 if src.tposition == TPosition.A1 else TPosition.B2
    dst = dst_value.type
    if not isinstance(dst, LocalTensorType):
        raise VerifyException(f"dst must be a !ascend.local_tensor in {dst_pos}, got {dst}")
    if dst.tposition != dst_pos:
        raise VerifyException(
            f"a {op} from {src.tposition} must write {dst_pos}, got {dst.tposition}"
        )
    return src, dst


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
        src, dst = _mte1_operands(self.src, self.dst, "load3d")
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
        src, dst = _mte1_operands(self.src, self.dst, "load2d")
        _same_element_type(src.element_type, "src", dst.element_type, "dst")
        _slot_in_range(self.src, self.src_slot, "src")
        _slot_in_range(self.dst, self.dst_slot, "dst")
        _limit(self.repeat, "load2d", "repeat")
        _limit(self.src_stride, "load2d", "src_stride")


@irdl_op_definition
class LoadBiasOp(HwOp):
    """MTE1, C1 → C2: ``len`` 64-byte blocks of a half or float bias from L1 into the bias
    table as floats, Ascend C ``DataCopy(bt, l1, DataCopyParams)`` (L1ToBiasTable)."""

    name = "ascend.load_bias"
    SPEC: ClassVar[Instruction | None] = instructions.LOAD_BIAS

    src = operand_def()
    src_slot = operand_def(_INDEX)
    src_offset = operand_def(_INDEX)
    dst = operand_def()
    dst_slot = operand_def(_INDEX)
    length = operand_def(_INDEX)

    assembly_format = (
        "$src `[` $src_slot `,` $src_offset `]` `->` $dst `[` $dst_slot `]` `len` $length"
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
        length: Value,
    ):
        super().__init__(operands=[src, src_slot, src_offset, dst, dst_slot, length])

    def verify_(self) -> None:
        src = _local(self.src, "src", (TPosition.C1,))
        dst = _local(self.dst, "dst", (TPosition.C2,))
        if src.element_type not in (f16, f32):
            raise VerifyException(
                "a load_bias source must hold f16 or f32 (Atlas A2 has no bf16 path into the "
                f"bias table), got {element_type_name(src.element_type)}"
            )
        if dst.element_type != f32:
            raise VerifyException(
                f"the bias table holds f32, got {element_type_name(dst.element_type)}"
            )
        _slot_in_range(self.src, self.src_slot, "src")
        _slot_in_range(self.dst, self.dst_slot, "dst")
        _limit(self.length, "load_bias", "len")


@irdl_op_definition
class MmadOp(HwOp):
    """M: ``C[r, c] = (init ? 0 : C[r, c]) + sum_t A[r, t] * B[t, c]`` in fp32 on the Cube,
    Ascend C ``Mmad(c, a, b, MmadParams)`` (A Zz in A2, B Zn in B2, C Nz in CO1); with a
    ``bias`` (a float slot in C2, the bias table) ``init`` starts C from ``bias[c]`` instead
    of 0 (``Mmad(c, a, b, bias, MmadParams)``, ``cmatrixSource``)."""

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
    bias = opt_operand_def()
    bias_slot = opt_operand_def(_INDEX)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$a `[` $a_slot `]` `,` $b `[` $b_slot `]` `->` $c `[` $c_slot `]`"
        " `m` $m `n` $n `k` $k `init` $init (`bias` $bias^ `[` $bias_slot `]`)?"
        " attr-dict `:` type($a) `,` type($b) `->` type($c) (`bias` type($bias)^)?"
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
        bias: tuple[Value, Value] | None = None,
    ):
        """``bias``: the bias table buffer and slot of the bias-init mode."""
        tail: list[list[Value]] = [[], []] if bias is None else [[bias[0]], [bias[1]]]
        super().__init__(operands=[a, a_slot, b, b_slot, c, c_slot, m, n, k, init, *tail])

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
        if (self.bias is None) != (self.bias_slot is None):
            raise VerifyException("a bias needs its slot and a slot its bias")
        if self.bias is not None:
            bias = _local(self.bias, "bias", (TPosition.C2,))
            if bias.element_type != f32:
                raise VerifyException(
                    f"the bias table holds f32, got {element_type_name(bias.element_type)}"
                )
            _slot_in_range(self.bias, self.bias_slot, "bias")


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
        if not isinstance(dst, GmTensorType) or dst.element_type not in (f32, f16, bf16):
            raise VerifyException(f"dst must be a !ascend.gm_tensor of f32, f16 or bf16, got {dst}")
        if dst.element_type != f32 and self.is_atomic:
            raise VerifyException(
                "an atomic fixpipe must write f32 (the quantising mode into "
                f"{element_type_name(dst.element_type)} has no atomic add)"
            )
        _slot_in_range(self.src, self.src_slot, "src")
        _limit(self.n, "fixpipe", "n")
        _limit(self.m, "fixpipe", "m")
        _limit(self.src_stride, "fixpipe", "src_stride")
        _limit(self.dst_stride, "fixpipe", "dst_stride")
