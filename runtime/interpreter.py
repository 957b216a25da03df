"""xDSL interpreter functions for every ``ascend`` op, on numpy values.

Values:

* ``memref`` — a numpy array (NCDHW for x/dy, (Cout, Cin/g, kD, kH, kW) for dW) of
  ``np.float16`` / ``ml_dtypes.bfloat16`` / ``np.float32``;
* ``!ascend.gm_tensor`` — a :class:`GmTensor`: the flat numpy array of the physical (formatted)
  layout plus its type (and, for FRACTAL_Z_3D, the group count the layout depends on);
* ``!ascend.local_tensor`` — a :class:`Buffer`: per-slot views into the current core's
  :class:`~ascend_xdsl.runtime.core_memory.CoreMemory`, made at ``alloc_buffer`` time from the
  planned byte offset;
* ``!ascend.conv3d_bp_filter`` — an :class:`ApiObject` (API level, tile-granularity semantics).

Levels executed: op level (``conv3d_backprop_filter`` on memrefs or gm_tensors, by the reference
formula), format level (``trans_data`` through ``dialects/formats.py``), the host side
(``alloc_gm``, ``launch``), the API level and the hardware level (each instruction through
``runtime/instructions.py`` on views of the core memories; flags through ``runtime/flags.py``).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.ir import Attribute, Operation

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects import api_level, formats, hw_level, launch
from ascend_xdsl.dialects.conv_shape import C0, ceil_div
from ascend_xdsl.dialects.dw_tiling import ITERATE_ORDER_M, DwTiling
from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp
from ascend_xdsl.dialects.op_level import shape_of_conv_op as problem_of
from ascend_xdsl.dialects.types import GmTensorType, LocalTensorType
from ascend_xdsl.runtime import instructions
from ascend_xdsl.runtime.core_memory import CoreMemory, MemoryAccessError
from ascend_xdsl.runtime.flags import FlagState
from ascend_xdsl.runtime.progress import CoreProgress
from ascend_xdsl.runtime.reference import conv3d_weight_reference
from ascend_xdsl.runtime.sanitizer import Sanitizer

# ---------------------------------------------------------------------------------------------
# values


def np_dtype(t: Attribute) -> np.dtype:
    """numpy dtype of an xDSL element type."""
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, BFloat16Type):
        return np.dtype(ml_dtypes.bfloat16)
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, IntegerType) and t.width.data == 32:
        return np.dtype(np.int32)
    raise TypeError(f"no numpy dtype for element type {t}")


@dataclass(eq=False)
class GmTensor:
    """A tensor in global memory: the flat physical array and its type."""

    type: GmTensorType
    data: np.ndarray
    groups: int = 1

    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.get_shape()


def physical_shape(t: GmTensorType, groups: int) -> tuple[int, ...]:
    shape = t.get_shape()
    if t.conv_format == ConvFormat.NDC1HWC0:
        return formats.ndc1hwc0_shape(*shape, C0)  # type: ignore[arg-type]
    if t.conv_format == ConvFormat.FRACTAL_Z_3D:
        return formats.fractal_z_3d_shape(*shape, groups, C0)  # type: ignore[arg-type]
    raise NotImplementedError(f"no physical layout for {t.conv_format}")


def to_gm(t: GmTensorType, array: np.ndarray, groups: int = 1) -> GmTensor:
    """Logical numpy array -> GmTensor in the type's format."""
    if t.conv_format == ConvFormat.NDC1HWC0:
        phys = formats.ncdhw_to_ndc1hwc0(array, C0)
    elif t.conv_format == ConvFormat.FRACTAL_Z_3D:
        phys = formats.oihw_to_fractal_z_3d(array, groups, C0)
    else:
        raise NotImplementedError(f"trans_data to {t.conv_format}")
    return GmTensor(t, np.ascontiguousarray(phys).reshape(-1), groups)


def from_gm(g: GmTensor) -> np.ndarray:
    """GmTensor -> logical numpy array."""
    t = g.type
    shape = t.get_shape()
    phys = g.data.reshape(physical_shape(t, g.groups))
    if t.conv_format == ConvFormat.NDC1HWC0:
        return formats.ndc1hwc0_to_ncdhw(phys, shape[1])
    if t.conv_format == ConvFormat.FRACTAL_Z_3D:
        return formats.fractal_z_3d_to_oihw(phys, *shape, g.groups)  # type: ignore[arg-type]
    raise NotImplementedError(f"trans_data from {t.conv_format}")


def _groups(t: GmTensorType) -> int:
    """Groups of a gm_tensor type (only FRACTAL_Z_3D depends on them)."""
    return t.groups.data


@dataclass(eq=False)
class Buffer:
    """A planned local buffer of one core: one flat typed view per slot."""

    memory: str
    offset: int
    slots: list[np.ndarray]
    stride: int
    """Bytes from one slot to the next."""
    element_bytes: int

    def byte_range(self, slot: int, element_offset: int, elements: int) -> tuple[int, int]:
        """The bytes of ``elements`` elements from ``element_offset`` in ``slot``."""
        lo = self.offset + slot * self.stride + element_offset * self.element_bytes
        return lo, lo + elements * self.element_bytes

    def slot(self, s: int) -> np.ndarray:
        if not 0 <= s < len(self.slots):
            raise MemoryAccessError(
                f"{self.memory} slot {s} out of range for a {len(self.slots)}-slot buffer"
            )
        return self.slots[s]


@dataclass(eq=False)
class CoreState:
    """Per-core machine state of the running block."""

    block_idx: int
    memory: CoreMemory
    flags: FlagState
    buffers: list[tuple[str, str, int, int]] = field(default_factory=list)
    """(memory, position, first byte, end byte) of every buffer allocated so far."""

    def claim(self, memory: str, position: str, lo: int, hi: int) -> None:
        """Record a buffer; buffers live for the whole kernel, so two may never overlap."""
        for other_memory, other, other_lo, other_hi in self.buffers:
            if other_memory == memory and lo < other_hi and other_lo < hi:
                raise MemoryAccessError(
                    f"{position} buffer [{lo}, {hi}) overlaps {other} buffer "
                    f"[{other_lo}, {other_hi}) in {memory}: the address plan is wrong"
                )
        self.buffers.append((memory, position, lo, hi))


@dataclass(eq=False)
class ApiObject:
    """State of one ``Conv3DBackpropFilter`` object (API level)."""

    tiling: DwTiling | None = None
    dy: GmTensor | None = None
    dy_off: int = 0
    x: GmTensor | None = None
    x_off: int = 0
    m: int = 0
    n: int = 0
    k: int = 0
    ho_start: int = 0
    tiles: list[tuple[int, int]] = field(default_factory=list)
    next_tile: int = 0
    current: tuple[int, int] | None = None
    c_nz: np.ndarray | None = None
    a_mat: np.ndarray | None = None
    b_mat: np.ndarray | None = None


# ---------------------------------------------------------------------------------------------
# functions


def _remsi(a: int, b: int) -> int:
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


_BINARY: dict[type[Operation], Any] = {
    arith.AddiOp: operator.add,
    arith.SubiOp: operator.sub,
    arith.MuliOp: operator.mul,
    arith.FloorDivSIOp: operator.floordiv,
    arith.RemSIOp: _remsi,
    arith.AndIOp: operator.and_,
    arith.OrIOp: operator.or_,
}
_CMPI: dict[int, Any] = {
    0: operator.eq,
    1: operator.ne,
    2: operator.lt,
    3: operator.le,
    4: operator.gt,
    5: operator.ge,
}


@register_impls
class ExtraArithFunctions(InterpreterFunctions):
    """arith ops the stock xDSL interpreter lacks, and a cached ``arith.constant``.

    The stock ``arith.constant`` re-checks the attribute's type constraints on every execution
    (~90 us); the lowered kernels execute hundreds of thousands of constants, so their values
    are decoded once per op and cached (registered with ``override=True``)."""

    def __init__(self) -> None:
        super().__init__()
        self._constants: dict[Operation, Any] = {}
        self._fast: dict[Operation, Any] = {}
        self._stock = ArithFunctions()
        self._interp: Interpreter | None = None
        self._stock_impls = {
            arith.AddiOp: ArithFunctions.run_addi,
            arith.SubiOp: ArithFunctions.run_subi,
            arith.MuliOp: ArithFunctions.run_muli,
            arith.FloorDivSIOp: ArithFunctions.run_floordivsi,
            arith.RemSIOp: ArithFunctions.run_remsi,
            arith.AndIOp: ArithFunctions.run_andi,
            arith.OrIOp: ArithFunctions.run_ori,
            arith.CmpiOp: ArithFunctions.run_cmpi,
        }

    @impl(arith.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues
    ) -> PythonValues:
        try:
            return self._constants[op]
        except KeyError:
            value = self._stock.run_constant(interpreter, op, args).values
            self._constants[op] = value
            return value

    def _binary(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        fn = self._fast.get(op)
        if fn is None:
            self._interp = interpreter
            fn = self._decode(op)
            self._fast[op] = fn
        return (fn(args[0], args[1]),)

    def _decode(self, op: Operation) -> Any:
        """The Python function of a binary index/i1 op (64-bit index values never wrap in the
        lowered kernels' small offset arithmetic; other widths go to the stock impls)."""
        t = op.operands[0].type
        fast = isinstance(t, IndexType) or (isinstance(t, IntegerType) and t.width.data == 1)
        if isinstance(op, arith.CmpiOp) and op.predicate.value.data not in _CMPI:
            fast = False
        if not fast:
            stock = self._stock_impls[type(op)]
            return lambda a, b: stock(self._stock, self._interp, op, (a, b)).values[0]
        if isinstance(op, arith.CmpiOp):
            return _CMPI[op.predicate.value.data]
        return _BINARY[type(op)]

    @impl(arith.AddiOp)
    def run_addi(
        self, interpreter: Interpreter, op: arith.AddiOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.SubiOp)
    def run_subi(
        self, interpreter: Interpreter, op: arith.SubiOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.MuliOp)
    def run_muli(
        self, interpreter: Interpreter, op: arith.MuliOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(
        self, interpreter: Interpreter, op: arith.FloorDivSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.RemSIOp)
    def run_remsi(
        self, interpreter: Interpreter, op: arith.RemSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.AndIOp)
    def run_andi(
        self, interpreter: Interpreter, op: arith.AndIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.OrIOp)
    def run_ori(
        self, interpreter: Interpreter, op: arith.OrIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.CmpiOp)
    def run_cmpi(
        self, interpreter: Interpreter, op: arith.CmpiOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.MinSIOp)
    def run_minsi(
        self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues
    ) -> PythonValues:
        return (min(args[0], args[1]),)

    @impl(arith.MaxSIOp)
    def run_maxsi(
        self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues
    ) -> PythonValues:
        return (max(args[0], args[1]),)

    @impl(arith.CeilDivSIOp)
    def run_ceildivsi(
        self, interpreter: Interpreter, op: arith.CeilDivSIOp, args: PythonValues
    ) -> PythonValues:
        return (-(-args[0] // args[1]),)


class KernelError(RuntimeError):
    """A protocol violation at the end of a kernel run (e.g. a flag set but never waited)."""


@register_impls
class AscendFunctions(InterpreterFunctions):
    """Interpreter functions of the ascend dialect (all levels)."""

    def __init__(
        self,
        hw_name: str = "atlas-a2-910b2",
        sanitizer: Sanitizer | None = None,
        progress: bool = True,
    ) -> None:
        super().__init__()
        self.progress = progress
        self.hw_name = hw_name
        self.sanitizer = sanitizer
        self.core: CoreState | None = None
        self._static: dict[Operation, Any] = {}

    # -- helpers --------------------------------------------------------------------------

    def _touch(
        self,
        op: Operation,
        tick: int,
        pipe: str,
        accesses: tuple[tuple[Buffer, int, int, int, bool], ...],
    ) -> None:
        """Tell the sanitizer which (buffer, slot, element offset, elements, write) ``op`` on
        ``pipe`` touches; reads are listed before writes."""
        assert self.sanitizer is not None
        for buf, slot, off, count, write in accesses:
            lo, hi = buf.byte_range(slot, off, count)
            self.sanitizer.access(op, pipe, buf.memory, lo, hi, write, tick)

    def _core(self) -> CoreState:
        if self.core is None:
            raise RuntimeError("hardware-level op executed outside an ascend.launch")
        return self.core

    # -- op level ---------------------------------------------------------------------------

    @impl(Conv3DBackpropFilterOp)
    def run_conv(
        self, interpreter: Interpreter, op: Conv3DBackpropFilterOp, args: PythonValues
    ) -> PythonValues:
        x, dy = args
        p = problem_of(op)
        on_gm = isinstance(x, GmTensor)
        xa = from_gm(x) if on_gm else x
        dya = from_gm(dy) if on_gm else dy
        cout, cin_g, kd, kh, kw = op.result.type.get_shape()  # type: ignore[union-attr]
        dw = conv3d_weight_reference(
            xa, dya, (cout, cin_g, kd, kh, kw), p.strides, p.pads, p.dilations, p.groups
        )
        if on_gm:
            return (to_gm(cast(GmTensorType, op.result.type), dw, p.groups),)
        return (dw,)

    # -- format level / host ----------------------------------------------------------------

    @impl(TransDataOp)
    def run_trans_data(
        self, interpreter: Interpreter, op: TransDataOp, args: PythonValues
    ) -> PythonValues:
        (src,) = args
        if isinstance(op.result.type, GmTensorType):
            groups = _groups(op.result.type)
            arr = np.asarray(src, dtype=np_dtype(op.result.type.element_type))
            return (to_gm(op.result.type, arr, groups),)
        assert isinstance(op.result.type, MemRefType)
        return (from_gm(src).astype(np_dtype(op.result.type.element_type), copy=False),)

    @impl(launch.AllocGmOp)
    def run_alloc_gm(
        self, interpreter: Interpreter, op: launch.AllocGmOp, args: PythonValues
    ) -> PythonValues:
        t = op.result.type
        assert isinstance(t, GmTensorType)
        groups = _groups(t)
        size = int(np.prod(physical_shape(t, groups)))
        return (GmTensor(t, np.zeros(size, np_dtype(t.element_type)), groups),)

    @impl(launch.LaunchOp)
    def run_launch(
        self, interpreter: Interpreter, op: launch.LaunchOp, args: PythonValues
    ) -> PythonValues:
        callee = op.callee.string_value()
        blocks = op.blocks.value.data
        progress = CoreProgress(blocks) if self.progress else None
        for block in range(blocks):
            self.core = CoreState(
                block, CoreMemory(self.hw_name), FlagState(hw_data.load(self.hw_name).event_ids)
            )
            if self.sanitizer is not None:
                self.sanitizer.new_core(block)
            try:
                interpreter.call_op(callee, args)
                pending = self.core.flags.pending()
                if pending:
                    raise KernelError(
                        f"block {block}: flags set but never waited at kernel end: {pending}"
                    )
            finally:
                self.core = None
            if progress is not None:
                progress.update(block + 1)
        if progress is not None:
            progress.close()
        return ()

    # -- hardware level ---------------------------------------------------------------------

    @impl(hw_level.GetBlockIdxOp)
    def run_get_block_idx(
        self, interpreter: Interpreter, op: hw_level.GetBlockIdxOp, args: PythonValues
    ) -> PythonValues:
        return (self._core().block_idx,)

    @impl(hw_level.AllocBufferOp)
    def run_alloc_buffer(
        self, interpreter: Interpreter, op: hw_level.AllocBufferOp, args: PythonValues
    ) -> PythonValues:
        t = op.buffer_type
        assert isinstance(t, LocalTensorType)
        offset = op.offset_bytes
        if offset is None:
            raise RuntimeError(
                f"{op.name} of {t.tposition} has no planned offset: run ascend-plan-buffers"
            )
        core = self._core()
        memory = str(t.memory)
        dtype = np_dtype(t.element_type)
        count = t.num_elements
        slots = [
            core.memory.slot_view(memory, offset, s, op.num_slots, count, dtype)
            for s in range(op.num_slots)
        ]
        stride = hw_level.slot_stride(t, hw_data.load(self.hw_name))
        core.claim(memory, str(t.tposition), offset, offset + op.num_slots * stride)
        return (Buffer(memory, offset, slots, stride, t.element_bytes),)

    @impl(hw_level.DataCopyOp)
    def run_data_copy(
        self, interpreter: Interpreter, op: hw_level.DataCopyOp, args: PythonValues
    ) -> PythonValues:
        src, src_off, dst, slot, dst_off, n, ln, ss, ds = args
        if self.sanitizer is not None:
            block = 32 // dst.element_bytes
            extent = ((n - 1) * (ln + ds) + ln) * block
            tick = self.sanitizer.tick("MTE2")
            self._touch(op, tick, "MTE2", ((dst, slot, dst_off, extent, True),))
        instructions.data_copy(src.data, src_off, dst.slot(slot), dst_off, n, ln, ss, ds)
        return ()

    def _load3d_static(self, op: hw_level.Load3dOp) -> tuple[Any, ...]:
        st = self._static.get(op)
        if st is None:
            st = (
                tuple(op.kernel_hw),
                tuple(op.stride_hw),
                tuple(op.dilation_hw),
                op.is_transposed,
            )
            self._static[op] = st
        return st

    @impl(hw_level.Load3dOp)
    def run_load3d(
        self, interpreter: Interpreter, op: hw_level.Load3dOp, args: PythonValues
    ) -> PythonValues:
        (src, sslot, soff, dst, dslot, l1_h, l1_w, ch, ks, ke, ms, me, pt, pb, pl, pr) = args
        kernel, stride, dilation, transpose = self._load3d_static(op)
        if self.sanitizer is not None:
            tick = self.sanitizer.tick("MTE1")
            fmap = ch * l1_h * l1_w
            self._touch(
                op, tick, "MTE1", ((src, sslot, soff, fmap, False), (dst, dslot, 0, me * ke, True))
            )
        instructions.load3d(
            src.slot(sslot),
            soff,
            dst.slot(dslot),
            l1_h=l1_h,
            l1_w=l1_w,
            channels=ch,
            k_start=ks,
            k_ext=ke,
            m_start=ms,
            m_ext=me,
            pad=(pt, pb, pl, pr),
            kernel=kernel,
            stride=stride,
            dilation=dilation,
            transpose=transpose,
        )
        return ()

    @impl(hw_level.Load2dOp)
    def run_load2d(
        self, interpreter: Interpreter, op: hw_level.Load2dOp, args: PythonValues
    ) -> PythonValues:
        src, sslot, soff, dst, dslot, doff, rep, ss = args
        if self.sanitizer is not None:
            tick = self.sanitizer.tick("MTE1")
            reads = ((rep - 1) * ss + 1) * 256
            self._touch(
                op,
                tick,
                "MTE1",
                ((src, sslot, soff, reads, False), (dst, dslot, doff, rep * 256, True)),
            )
        instructions.load2d(src.slot(sslot), soff, dst.slot(dslot), doff, rep, ss, op.is_transposed)
        return ()

    @impl(hw_level.MmadOp)
    def run_mmad(
        self, interpreter: Interpreter, op: hw_level.MmadOp, args: PythonValues
    ) -> PythonValues:
        a, sa, b, sb, c, sc, m, n, k, init = args
        if self.sanitizer is not None:
            tick = self.sanitizer.tick("M")
            m16, n16, k16 = (ceil_div(v, 16) * 16 for v in (m, n, k))
            self._touch(
                op,
                tick,
                "M",
                (
                    (a, sa, 0, m16 * k16, False),
                    (b, sb, 0, k16 * n16, False),
                    *(() if init else ((c, sc, 0, m16 * n16, False),)),
                    (c, sc, 0, m16 * n16, True),
                ),
            )
        instructions.mmad(a.slot(sa), b.slot(sb), c.slot(sc), m, n, k, bool(init))
        return ()

    @impl(hw_level.FixpipeOp)
    def run_fixpipe(
        self, interpreter: Interpreter, op: hw_level.FixpipeOp, args: PythonValues
    ) -> PythonValues:
        src, slot, dst, doff, m, n, ss, ds = args
        if self.sanitizer is not None:
            tick = self.sanitizer.tick("FIX")
            self._touch(op, tick, "FIX", ((src, slot, 0, ((n // 16 - 1) * ss + m) * 16, False),))
        instructions.fixpipe(src.slot(slot), dst.data, doff, m, n, ss, ds, op.is_atomic)
        return ()

    @impl(hw_level.SetFlagOp)
    def run_set_flag(
        self, interpreter: Interpreter, op: hw_level.SetFlagOp, args: PythonValues
    ) -> PythonValues:
        self._core().flags.set(str(op.src_pipe), str(op.dst_pipe), args[0])
        if self.sanitizer is not None:
            self.sanitizer.set_flag(str(op.src_pipe), str(op.dst_pipe), args[0])
        return ()

    @impl(hw_level.WaitFlagOp)
    def run_wait_flag(
        self, interpreter: Interpreter, op: hw_level.WaitFlagOp, args: PythonValues
    ) -> PythonValues:
        self._core().flags.wait(str(op.src_pipe), str(op.dst_pipe), args[0])
        if self.sanitizer is not None:
            self.sanitizer.wait_flag(str(op.src_pipe), str(op.dst_pipe), args[0])
        return ()

    @impl(hw_level.PipeBarrierOp)
    def run_pipe_barrier(
        self, interpreter: Interpreter, op: hw_level.PipeBarrierOp, args: PythonValues
    ) -> PythonValues:
        if self.sanitizer is not None:
            self.sanitizer.barrier(str(op.pipe()))
        return ()  # in-order simulation: every earlier instruction is already complete

    # -- API level (tile granularity) -------------------------------------------------------

    @impl(api_level.CreateOp)
    def run_create(
        self, interpreter: Interpreter, op: api_level.CreateOp, args: PythonValues
    ) -> PythonValues:
        return (ApiObject(),)

    @impl(api_level.InitOp)
    def run_init(
        self, interpreter: Interpreter, op: api_level.InitOp, args: PythonValues
    ) -> PythonValues:
        args[0].tiling = op.tiling.tiling
        return ()

    @staticmethod
    def _new_shape(obj: ApiObject) -> None:
        obj.tiles, obj.next_tile, obj.current, obj.a_mat, obj.b_mat = [], 0, None, None, None

    @impl(api_level.SetGradOutputOp)
    def run_set_grad_output(
        self, interpreter: Interpreter, op: api_level.SetGradOutputOp, args: PythonValues
    ) -> PythonValues:
        obj, obj.dy, obj.dy_off = args[0], args[1], args[2]
        self._new_shape(obj)
        return ()

    @impl(api_level.SetInputOp)
    def run_set_input(
        self, interpreter: Interpreter, op: api_level.SetInputOp, args: PythonValues
    ) -> PythonValues:
        obj, obj.x, obj.x_off = args[0], args[1], args[2]
        self._new_shape(obj)
        return ()

    @impl(api_level.SetSingleShapeOp)
    def run_set_single_shape(
        self, interpreter: Interpreter, op: api_level.SetSingleShapeOp, args: PythonValues
    ) -> PythonValues:
        obj = args[0]
        obj.m, obj.n, obj.k = args[1], args[2], args[3]
        self._new_shape(obj)
        return ()

    @impl(api_level.SetStartPositionOp)
    def run_set_start_position(
        self, interpreter: Interpreter, op: api_level.SetStartPositionOp, args: PythonValues
    ) -> PythonValues:
        obj = args[0]
        obj.ho_start = args[1]
        self._new_shape(obj)
        return ()

    @staticmethod
    def _matrices(obj: ApiObject) -> None:
        """A (M x K, dy rows) and B (K x N, img2col of x) of the single shape, in float32.

        dy: the slice starts at ``dy_off`` (channel block of the M start, row ``ho_start``);
        ``A[m, p] = dy[dy_off + (m // 16) * Ho*Wo*16 + p*16 + m % 16]``. x: the slice starts at
        row ``hi_start = max(0, ho_start*sh - pad_up)`` of the channel block of the N start;
        position ``p`` is output row ``ho_start + p // Wo``, column ``p % Wo``; column ``q`` is
        (c1, kh, kw, c0) as in load3d."""
        t = obj.tiling
        assert t is not None and obj.dy is not None and obj.x is not None
        m, n, k = obj.m, obj.n, obj.k
        ho_wo = obj.dy.shape[3] * obj.dy.shape[4]
        rows = np.arange(m)
        pos = np.arange(k)
        a_idx = obj.dy_off + ((rows // C0) * ho_wo * C0 + rows % C0)[:, None] + (pos * C0)[None, :]
        obj.a_mat = obj.dy.data[a_idx].astype(np.float32)
        hi, wi, wo = t.hi, t.wi, t.wo
        hi_start = max(0, obj.ho_start * t.stride_h - t.pad_up)
        q = np.arange(n)
        c1 = q // (t.hk * t.wk * C0)
        ikh = (q // (t.wk * C0)) % t.hk
        ikw = (q // C0) % t.wk
        c0 = q % C0
        oh = obj.ho_start + pos // wo
        ow = pos % wo
        h = (oh * t.stride_h - t.pad_up)[:, None] + (ikh * t.dilation_h)[None, :]
        w = (ow * t.stride_w - t.pad_left)[:, None] + (ikw * t.dilation_w)[None, :]
        valid = (h >= 0) & (h < hi) & (w >= 0) & (w < wi)
        b_idx = obj.x_off + ((c1 * hi * wi)[None, :] + (h - hi_start) * wi + w) * C0 + c0[None, :]
        b_idx = np.where(valid, b_idx, 0)
        obj.b_mat = np.where(valid, obj.x.data[b_idx].astype(np.float32), np.float32(0))
        bm, bn = t.base_m, t.base_n
        mt, nt = range(ceil_div(m, bm)), range(ceil_div(n, bn))
        if t.iterate_order == ITERATE_ORDER_M:
            obj.tiles = [(i * bm, j * bn) for i in mt for j in nt]
        else:
            obj.tiles = [(i * bm, j * bn) for j in nt for i in mt]

    @impl(api_level.IterateOp)
    def run_iterate(
        self, interpreter: Interpreter, op: api_level.IterateOp, args: PythonValues
    ) -> PythonValues:
        obj = args[0]
        if obj.a_mat is None:
            self._matrices(obj)
        if obj.next_tile >= len(obj.tiles):
            obj.current = None
            return (False,)
        obj.current = obj.tiles[obj.next_tile]
        obj.next_tile += 1
        t = obj.tiling
        assert t is not None and obj.a_mat is not None and obj.b_mat is not None
        m0, n0 = obj.current
        tile = obj.a_mat[m0 : m0 + t.base_m] @ obj.b_mat[:, n0 : n0 + t.base_n]
        obj.c_nz = formats.to_nz(tile)  # (N1, M1, 16, 16), rows padded to whole fractals
        return (True,)

    @impl(api_level.GetTensorCOp)
    def run_get_tensor_c(
        self, interpreter: Interpreter, op: api_level.GetTensorCOp, args: PythonValues
    ) -> PythonValues:
        obj, dw, off = args
        t = obj.tiling
        if obj.current is None or obj.c_nz is None or t is None:
            raise RuntimeError("ascend.get_tensor_c without a tile from ascend.iterate")
        m0, n0 = obj.current
        m = min(t.base_m, obj.m - m0)
        n = min(t.base_n, obj.n - n0)
        m16 = obj.c_nz.shape[1] * 16
        dst = off + (n0 // C0) * t.cout1_g * C0 * C0 + m0 * C0
        instructions.fixpipe(
            obj.c_nz.reshape(-1),
            dw.data,
            dst,
            m,
            n,
            m16,
            t.cout1_g * C0 * C0 * 4 // 32,
            op.atomic is not None,
        )
        return ()

    @impl(api_level.EndOp)
    def run_end(
        self, interpreter: Interpreter, op: api_level.EndOp, args: PythonValues
    ) -> PythonValues:
        self._new_shape(args[0])
        return ()


def make_interpreter(
    module: ModuleOp,
    hw_name: str = "atlas-a2-910b2",
    sanitizer: Sanitizer | None = None,
    progress: bool = True,
) -> Interpreter:
    """An interpreter for ``module`` with the stock func/scf/arith/builtin/memref functions and
    the ascend ones; with a ``sanitizer``, every hardware access is checked for hazards; with
    ``progress``, long launches show a progress line on a terminal."""
    interpreter = Interpreter(module)
    for fns in (
        FuncFunctions(),
        ScfFunctions(),
        ArithFunctions(),
        BuiltinFunctions(),
        MemRefFunctions(),
        AscendFunctions(hw_name, sanitizer, progress),
    ):
        interpreter.register_implementations(fns)
    interpreter.register_implementations(ExtraArithFunctions(), override=True)
    return interpreter
