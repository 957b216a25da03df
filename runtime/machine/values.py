"""How the simulator represents the IR's values at run time.

* ``memref`` — a numpy array (NCDHW for x/dy, (Cout, Cin/g, kD, kH, kW) for dW) of
  ``np.float16`` / ``ml_dtypes.bfloat16`` / ``np.float32``;
* ``!ascend.gm_tensor`` — a :class:`GmTensor`: the flat numpy array of the physical (formatted)
  layout plus its type (and, for FRACTAL_Z_3D, the group count the layout depends on);
  :func:`to_gm` / :func:`from_gm` convert through the layout maps of ``dialects/formats.py``;
* ``!ascend.local_tensor`` — a :class:`Buffer`: its planned address and slots and, on the data
  machine, per-slot views into the running core's memory (``runtime/machine/memory.py``), made
  by ``alloc_buffer`` from the planned byte offset;
* in the cost-only mode, a GM tensor is a :class:`GmPlaceholder` (type and size, no data); both
  it and :class:`GmTensor` are what an instruction spec binds a GM operand through
  (``hw/instructions/base.py``, ``GmOperand``);
* ``index`` and ``i1`` — Python ``int`` and ``bool``.

Both executors (``runtime/executors/interpreter.py`` and ``runtime/executors/compiled.py``) use
these classes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerType
from xdsl.ir import Attribute

from ascend_xdsl.dialects import formats
from ascend_xdsl.dialects.conv_shape import C0
from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.runtime.machine import dtypes
from ascend_xdsl.runtime.machine.memory import MemoryAccessError


def np_dtype(t: Attribute) -> np.dtype:
    """numpy dtype of an xDSL element type."""
    if isinstance(t, Float16Type):
        return dtypes.F16
    if isinstance(t, BFloat16Type):
        return dtypes.bfloat16()
    if isinstance(t, Float32Type):
        return dtypes.F32
    if isinstance(t, IntegerType) and t.width.data == 32:
        return dtypes.I32
    raise TypeError(f"no numpy dtype for element type {t}")


class GmTensor:
    """A tensor in global memory: the flat physical array (``data``) and its type.

    A tensor made from a logical array whose channels are at least half padding (one input
    channel padded to C0=16, eight to 16: :func:`to_gm`) keeps that array and lays ``data``
    out the first time something reads it: a replayed data run reads only the decoded
    elements (:meth:`as_f32`), which come from the logical array, so the 16-bit layout,
    mostly padding, is never made (two of a thin layer's four layout passes)."""

    def __init__(self, type: GmTensorType, data: np.ndarray, groups: int = 1) -> None:
        self.type = type
        self.groups = groups
        self._data: np.ndarray | None = data
        self.dtype: np.dtype = data.dtype
        """The element type of ``data``."""
        self.size: int = data.size
        """The elements of ``data``."""
        self._f32: np.ndarray | None = None
        self._padded_from: np.ndarray | None = None
        """The logical NCDHW array of a padded tensor (see the class docstring)."""

    @classmethod
    def padded(cls, type: GmTensorType, logical: np.ndarray) -> GmTensor:
        """The NDC1HWC0 tensor of ``logical`` (NCDHW, at least half of its C1·C0 channels
        padding), its ``data`` laid out when first read."""
        tensor = cls(type, logical)
        tensor._data = None
        tensor.size = math.prod(formats.ndc1hwc0_shape(*logical.shape, C0))
        tensor._padded_from = logical
        return tensor

    @property
    def data(self) -> np.ndarray:
        if self._data is None:
            self._data = self._laid_out()
        return self._data

    def _laid_out(self) -> np.ndarray:
        assert self._padded_from is not None
        return formats.ncdhw_to_ndc1hwc0(self._padded_from, C0).reshape(-1)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.get_shape()

    @property
    def element_bytes(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def as_f32(self) -> np.ndarray:
        """The elements decoded to float32, once: the machine's L1 mirror copies from it. A
        kernel never writes a 16-bit GM tensor (fixpipe writes float32 only), so the decoded
        copy stays exact for the whole run; :meth:`written` forgets it all the same.

        A padded tensor is decoded from its logical array, then laid out: the same values (a
        16-bit float is exactly a float32, the padding zero) without decoding the padding,
        which was 16 times the real elements' work. The decoding is ``dtypes.widened``."""
        if self.dtype == np.float32:
            return self.data
        if self._f32 is None:
            if self._padded_from is not None:
                logical = dtypes.widened(self._padded_from)
                self._f32 = formats.ncdhw_to_ndc1hwc0(logical, C0).reshape(-1)
            else:
                self._f32 = dtypes.widened(self.data)
        return self._f32

    def written(self) -> None:
        """``data`` was written: what was derived from it is forgotten."""
        if self._data is None:  # laid out before what it was made from is forgotten
            self._data = self._laid_out()
        self._f32 = None
        self._padded_from = None


def groups_of(t: GmTensorType) -> int:
    """Groups of a gm_tensor type (only FRACTAL_Z_3D depends on them)."""
    return t.groups.data


def physical_shape(t: GmTensorType, groups: int) -> tuple[int, ...]:
    shape = t.get_shape()
    if t.conv_format == ConvFormat.NDC1HWC0:
        return formats.ndc1hwc0_shape(*shape, C0)  # type: ignore[arg-type]
    if t.conv_format == ConvFormat.FRACTAL_Z_3D:
        return formats.fractal_z_3d_shape(*shape, groups, C0)  # type: ignore[arg-type]
    if t.conv_format == ConvFormat.ND:
        return (*shape[:-1], formats.nd_row_length(shape[-1], np_dtype(t.element_type).itemsize))
    raise NotImplementedError(f"no physical layout for {t.conv_format}")


def to_gm(t: GmTensorType, array: np.ndarray, groups: int = 1) -> GmTensor:
    """Logical numpy array -> GmTensor in the type's format."""
    if t.conv_format == ConvFormat.NDC1HWC0:
        padded = array.ndim == 5 and array.dtype != np.float32
        if padded and math.prod(formats.ndc1hwc0_shape(*array.shape, C0)) >= 2 * array.size:
            return GmTensor.padded(t, array)
        phys = formats.ncdhw_to_ndc1hwc0(array, C0)
    elif t.conv_format == ConvFormat.FRACTAL_Z_3D:
        phys = formats.oihw_to_fractal_z_3d(array, groups, C0)
    elif t.conv_format == ConvFormat.ND:
        phys = formats.nd_pad(array)
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
    if t.conv_format == ConvFormat.ND:
        return phys[..., : shape[-1]]
    raise NotImplementedError(f"trans_data from {t.conv_format}")


def zeros_gm(t: GmTensorType) -> GmTensor:
    """A zero-filled GM tensor of type ``t`` (``ascend.alloc_gm``)."""
    groups = groups_of(t)
    size = int(np.prod(physical_shape(t, groups)))
    return GmTensor(t, np.zeros(size, np_dtype(t.element_type)), groups)


def empty_gm(t: GmTensorType) -> GmTensor:
    """An uninitialised GM tensor of type ``t`` (``ascend.empty_gm``), filled with NaN (zero
    for an integer type): an element the kernel that should write it whole leaves alone stays
    NaN in the result, where a test sees it."""
    groups = groups_of(t)
    size = int(np.prod(physical_shape(t, groups)))
    dtype = np_dtype(t.element_type)
    fill = 0 if np.issubdtype(dtype, np.integer) else np.nan
    return GmTensor(t, np.full(size, fill, dtype), groups)


@dataclass(eq=False, slots=True)
class Buffer:
    """A planned local buffer of one core: its memory, address, slots and, on the data
    machine, one flat typed view per slot (the cost-only machine has no data: no views)."""

    memory: str
    offset: int
    slots: int
    stride: int
    """Bytes from one slot to the next."""
    element_bytes: int
    elements: int
    """Elements of one slot."""
    views: list[np.ndarray] = field(default_factory=list)
    layout: tuple[object, ...] = field(init=False, repr=False)
    """What places its bytes (memory, offset, slots, stride, element size, elements): the same
    for a planned buffer on every core of a launch, so the bounds check's memo is shared."""

    def __post_init__(self) -> None:
        self.layout = (
            self.memory,
            self.offset,
            self.slots,
            self.stride,
            self.element_bytes,
            self.elements,
        )

    def address(self, slot: int) -> int:
        """The byte address of ``slot`` in the buffer's memory (the slot is range-checked)."""
        if not 0 <= slot < self.slots:
            raise MemoryAccessError(
                f"{self.memory} slot {slot} out of range for a {self.slots}-slot buffer"
            )
        return self.offset + slot * self.stride

    def slot(self, s: int) -> np.ndarray:
        """The data of slot ``s`` (the data machine's buffers only)."""
        if not 0 <= s < self.slots:
            raise MemoryAccessError(
                f"{self.memory} slot {s} out of range for a {self.slots}-slot buffer"
            )
        return self.views[s]


@dataclass(frozen=True)
class GmPlaceholder:
    """A GM tensor without data (the cost-only machine's): its type, element size and bytes;
    like :class:`GmTensor`, a :class:`~ascend_xdsl.hw.instructions.GmOperand`."""

    type: GmTensorType
    element_bytes: int
    nbytes: int
    """Bytes of its physical layout."""


def placeholder(t: GmTensorType) -> GmPlaceholder:
    """The placeholder of a GM tensor of type ``t``."""
    eb = np_dtype(t.element_type).itemsize
    return GmPlaceholder(t, eb, math.prod(physical_shape(t, groups_of(t))) * eb)


GmValue = GmTensor | GmPlaceholder
"""What a machine takes for a GM operand (both are ``GmOperand``s: element size and bytes)."""
