"""The on-chip memories of one simulated AI Core, as real byte-addressed arrays.

Each physical memory (L1, L0A, L0B, L0C, UB) is one ``numpy.uint8`` array of the size the
hardware description gives (``hw.load(name)``). A local buffer of the IR is nothing but a byte
range of one of them, and every instruction in :mod:`ascend_xdsl.runtime.machine.semantics` works on
typed *views* of those bytes, never on private copies. That is the point of this module: buffers
that a wrong address plan makes overlap really do clobber each other, and an access past the end
of a memory raises, so a bad plan shows up as wrong numbers or as an error, never as right ones.

The interpreter functions for the hw-level ops use this module as follows: ``alloc_buffer`` ->
:meth:`CoreMemory.slot_view` (once the planner has fixed the offset), every other op -> the
instruction functions applied to those views. The mapping from Ascend C positions (A1, B2, CO1,
...) to memory names lives with the dialect (``TPosition.memory``); this module is IR-independent
and only knows memory names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ascend_xdsl import hw
from ascend_xdsl.dialects.conv_shape import align_up
from ascend_xdsl.hw.isa import MemoryAccessError as MemoryAccessError  # the one error type
from ascend_xdsl.runtime.machine import dtypes

#: Element types the memories can be viewed as (the element types of the dialect's tensors),
#: and bfloat16 (``dtypes.is_bfloat16``, which does not import ml_dtypes).
ELEMENT_TYPES: tuple[np.dtype, ...] = (dtypes.F16, dtypes.F32, dtypes.I32)

MEMORY_NAMES: tuple[str, ...] = tuple(hw.MEMORY_FIGURES)


def _config(target: hw.HwConfig | str) -> hw.HwConfig:
    return hw.load(target) if isinstance(target, str) else target


def memory_sizes(target: hw.HwConfig | str = hw.DEFAULT_HW) -> dict[str, int]:
    """Bytes of every on-chip memory of one core of ``target`` (a description or its name)."""
    config = _config(target)
    return {name: config.memory_size(name) for name in MEMORY_NAMES}


@dataclass(frozen=True, eq=False)
class Memory:
    """One physical on-chip memory: a name, its bytes, and its buffer alignment in bytes."""

    name: str
    data: np.ndarray = field(repr=False)
    alignment: int

    @property
    def size(self) -> int:
        return int(self.data.size)


def _as_dtype(dtype: np.dtype | type) -> np.dtype:
    dt = np.dtype(dtype)
    if dt not in ELEMENT_TYPES and not dtypes.is_bfloat16(dt):
        raise TypeError(f"element type {dt} is not one of float16, bfloat16, float32, int32")
    return dt


def view(memory: Memory, byte_offset: int, count: int, dtype: np.dtype | type) -> np.ndarray:
    """A 1-D view of ``count`` elements of ``dtype`` at ``byte_offset`` of ``memory``.

    Writing to the result writes the memory. Raises :class:`MemoryAccessError` if the byte range
    ``[byte_offset, byte_offset + count * itemsize)`` is not inside the memory, or if the offset is
    not a multiple of the element size (the hardware has no unaligned element accesses).
    """
    dt = _as_dtype(dtype)
    end = byte_offset + count * dt.itemsize
    if byte_offset < 0 or count < 0 or end > memory.size:
        raise MemoryAccessError(
            f"{memory.name} access [{byte_offset}, {end}) out of bounds ({memory.size} B)"
        )
    if byte_offset % dt.itemsize:
        raise MemoryAccessError(
            f"{memory.name} access at byte {byte_offset} is not aligned to {dt} ({dt.itemsize} B)"
        )
    return memory.data[byte_offset:end].view(dt)


class CoreMemory:
    """The local memories of one AI Core, zero-initialised, sized from the hardware description.

    Zero initialisation is a simulator choice (real memory holds stale data); tests that must
    tell "never written" from "written with zeros" fill a memory with a marker first.
    """

    def __init__(self, target: hw.HwConfig | str = hw.DEFAULT_HW) -> None:
        config = _config(target)
        self.hw_name = config.name
        self.memories: dict[str, Memory] = {
            name: Memory(
                name, np.zeros(config.memory_size(name), np.uint8), config.memory_alignment(name)
            )
            for name in MEMORY_NAMES
        }

    def __getitem__(self, name: str) -> Memory:
        try:
            return self.memories[name]
        except KeyError:
            raise KeyError(
                f"no on-chip memory '{name}' (have {', '.join(self.memories)})"
            ) from None

    def view(self, name: str, byte_offset: int, count: int, dtype: np.dtype | type) -> np.ndarray:
        """:func:`view` of the memory called ``name``."""
        return view(self[name], byte_offset, count, dtype)

    def slot_view(
        self,
        name: str,
        offset: int,
        slot: int,
        slots: int,
        count: int,
        dtype: np.dtype | type,
    ) -> np.ndarray:
        """The view of slot ``slot`` of a buffer of ``slots`` slots of ``count`` elements each.

        This is the ``alloc_buffer`` address rule of docs/hw-level-spec.md: slot ``s`` starts at
        ``offset + s * align_up(count * itemsize, alignment)``; ``offset`` must be aligned.
        """
        memory = self[name]
        if offset % memory.alignment:
            raise MemoryAccessError(
                f"{name} buffer offset {offset} is not {memory.alignment}-byte aligned"
            )
        if not 0 <= slot < slots:
            raise MemoryAccessError(f"{name} slot {slot} out of range for a {slots}-slot buffer")
        slot_stride = align_up(count * _as_dtype(dtype).itemsize, memory.alignment)
        return view(memory, offset + slot * slot_stride, count, dtype)
