"""What one hardware instruction is, as one object: the base of the specs in this package.

An :class:`Instruction` says everything the compiler and the simulator need to know about one AI
Core instruction, so that no other file has to spell it out again:

* its **pipe** (fixed, or read from one of the op's pipe properties for the event ops);
* its **operand binding**: the IR operand names in the order the machine takes them
  (:attr:`Instruction.operands`), the op properties that are fixed per op
  (:attr:`Instruction.properties`, taken once per op by the executors), and which operands it
  reads and writes (:attr:`Instruction.reads` / :attr:`Instruction.writes`: the effects
  ``dialects/hw_level.py`` gives ``passes/insert_sync.py``);
* its **ISA limits** (``isa.toml`` through :data:`~ascend_xdsl.hw.isa.LIMITS`);
* for the instructions that move data (:class:`DataInstruction`): :meth:`~DataInstruction.bind`,
  which turns the operand values into the decoded geometry and the byte addresses (the one
  place both machines do this), the one **bounds check** of a bound instruction
  (:meth:`~DataInstruction.check`: every byte it touches lies in the slot or GM tensor its
  operand names), the **effects** of a bound instruction, the operands that
  matter for its timing, and its **cost rule** (cycles on its pipe, from ``hw/cost_figures.py``);
* its pipe's **report name** (``msprof``'s) and its **colour** on the timeline plot.

Runtime values are seen here only through two small protocols, :class:`BufferOperand` and
:class:`GmOperand`, which the data machine's buffers and GM tensors and the cost-only
placeholders all implement (``runtime/machine/values.py``). Nothing here imports xDSL's IR or
numpy: ``dialects`` and ``runtime`` import this package, never the other way round.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from functools import cached_property
from typing import Any, ClassVar, NamedTuple, Protocol

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.isa import LIMITS, Effects, Limit, MemoryAccessError, Pipe, Span


class BufferOperand(Protocol):
    """A planned local buffer as an instruction operand: its memory, element size and slots."""

    @property
    def memory(self) -> str: ...

    @property
    def element_bytes(self) -> int: ...

    @property
    def elements(self) -> int:
        """Elements of one slot."""
        ...

    @property
    def layout(self) -> tuple[object, ...]:
        """What places the buffer's bytes (equal for the same planned buffer on every core)."""
        ...

    def address(self, slot: int) -> int:
        """The byte address of ``slot`` (range-checked)."""
        ...


class GmOperand(Protocol):
    """A GM tensor as an instruction operand: its element size and its size in bytes."""

    @property
    def element_bytes(self) -> int: ...

    @property
    def nbytes(self) -> int: ...


class Access(NamedTuple):
    """One buffer operand an instruction reads or writes, by IR operand name: the buffer, its
    slot operand (None for a GM tensor), the i1 operand that, when it is the constant true,
    means the access does not happen (an ``mmad`` with ``init`` does not read C), and the one
    that, when it is the constant false, means the same (an ``mmad`` reads its bias only with
    ``init``). An optional buffer operand that is absent is not accessed."""

    buffer: str
    slot: str | None = None
    unless_true: str | None = None
    only_if_true: str | None = None


class Window(NamedTuple):
    """The bytes ``[lo, hi)`` of ``memory`` one operand of a bound instruction may touch: the
    slot of a local buffer, or a whole GM tensor ("GM", from 0). ``role`` names the operand in
    messages ("source", "A", ...), ``element_bytes`` its element size (messages count elements,
    as the offsets in the IR do)."""

    role: str
    memory: str
    lo: int
    hi: int
    element_bytes: int


class Bound(NamedTuple):
    """One execution of an instruction, bound to its operand values.

    ``geometry`` is the decoded (and limit-checked, interned) geometry; ``chip`` the on-chip
    memories and byte addresses (and any flag) that, with the geometry, fix its on-chip effects
    and its timing, so ``(geometry, chip)`` keys a cost cache; ``gm`` the GM byte address it
    starts at (0 when it has no GM operand)."""

    geometry: Any
    chip: tuple[Any, ...]
    gm: int = 0


def _window_of(span: Span, windows: tuple[Window, ...]) -> Window | None:
    """The window ``span`` goes through: the one of its memory that holds its first byte, else
    the nearest below it (or the first of the memory), None when no operand is in it."""
    best = None
    for window in windows:
        if window.memory != span.memory:
            continue
        if window.lo <= span.lo < window.hi:
            return window
        if best is None or best.lo > span.lo or (window.lo <= span.lo and window.lo > best.lo):
            best = window
    return best


class Instruction(ABC):
    """One hardware instruction (see the module docstring). Each spec is a singleton."""

    name: ClassVar[str]
    """The instruction's name: the IR op is ``ascend.<name>``, the limits ``isa.toml``'s
    ``[<name>.*]``."""
    pipe: ClassVar[Pipe | None] = None
    """The pipe every instance runs on; None for the event ops (see :attr:`pipe_from`)."""
    pipe_from: ClassVar[str | None] = None
    """For ops whose pipe is a property: the op attribute that holds it (a ``PipeAttr``)."""
    operands: ClassVar[tuple[str, ...]]
    """The IR operand names, in the order the machine's handler takes them."""
    properties: ClassVar[tuple[str, ...]] = ()
    """The op accessors fixed per op, in the order the handler takes them (before the
    operands)."""
    reads: ClassVar[tuple[Access, ...]] = ()
    writes: ClassVar[tuple[Access, ...]] = ()
    timing_operands: ClassVar[tuple[str, ...]] = ()
    """The operands whose values can change the instruction's timing (its size, or which
    event it is); offsets, slots and strides change only where it reads and writes. The
    cost-only mode's loop signatures are made of these."""
    msprof_pipe: ClassVar[str | None] = None
    """The name ``msprof op`` gives the pipe it runs on in reports (PipeUtilization.csv)."""
    colour: ClassVar[str | None] = None
    """Its colour on the timeline plot (None: the plot's spare colours)."""

    @property
    def op_name(self) -> str:
        return f"ascend.{self.name}"

    @property
    def limits(self) -> dict[str, Limit]:
        return LIMITS.get(self.name, {})

    def static(self, op: object) -> tuple[Any, ...]:
        """The values of :attr:`properties` of ``op`` (an op of this instruction)."""
        return tuple(getattr(op, name) for name in self.properties)

    def op_pipe(self, op: object) -> Pipe | None:
        """The pipe ``op`` (an op of this instruction) runs on."""
        if self.pipe_from is None:
            return self.pipe
        return getattr(op, self.pipe_from).data  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"<instruction {self.name}>"


class DataInstruction(Instruction):
    """An instruction that moves or computes data: it binds, has effects and costs cycles."""

    gm_operand: ClassVar[int | None] = None
    """The index in :attr:`operands` of its GM tensor, if it has one (the bounds check)."""
    gm_offset: ClassVar[int | None] = None
    """The index in :attr:`operands` of the element offset into its GM tensor."""
    roles: ClassVar[dict[str, str]] = {}
    """How messages name the buffer and GM operands ("source", "A", ...; default the name)."""

    def windows(self, *values: Any) -> tuple[Window, ...]:
        """What each buffer and GM operand of one execution may touch (``values`` as for
        :meth:`bind`): the slot its :attr:`reads` / :attr:`writes` access names, or the
        whole GM tensor."""
        named = dict(zip((*self.properties, *self.operands), values, strict=True))
        found: dict[str, Window] = {}
        for access in (*self.reads, *self.writes):
            if access.buffer in found:
                continue
            role, value = self.roles.get(access.buffer, access.buffer), named[access.buffer]
            if value is None:  # an absent optional operand
                continue
            if access.slot is None:
                found[access.buffer] = Window(role, "GM", 0, value.nbytes, value.element_bytes)
            else:
                lo, eb = value.address(named[access.slot]), value.element_bytes
                found[access.buffer] = Window(role, value.memory, lo, lo + value.elements * eb, eb)
        return tuple(found.values())

    @cached_property
    def _key_plan(self) -> tuple[tuple[int, ...], int | None, int | None]:
        """Where in the values of :meth:`bind` the buffers, the GM tensor and its offset are."""
        names = (*self.properties, *self.operands)
        accesses = (*self.reads, *self.writes)
        buffers = {names.index(a.buffer) for a in accesses if a.slot is not None}
        fixed = len(self.properties)
        gm = None if self.gm_operand is None else fixed + self.gm_operand
        offset = None if self.gm_offset is None else fixed + self.gm_offset
        return tuple(sorted(buffers)), gm, offset

    def bounds_key(self, values: tuple[Any, ...]) -> tuple[Any, ...]:
        """What the on-chip byte ranges of one execution depend on: its ``values`` (as for
        :meth:`bind`) with each buffer by its ``layout`` (the same on every core of a
        launch), the GM tensor by identity (hashing a tensor would hash its IR type) and
        without the GM offset, which moves only the GM range."""
        buffers, gm, offset = self._key_plan
        key = list(values)
        for i in buffers:
            key[i] = None if values[i] is None else values[i].layout
        if gm is not None:
            key[gm] = id(values[gm])
        if offset is not None:
            key[offset] = None
        return tuple(key)

    @abstractmethod
    def bind(self, *values: Any, **named: Any) -> Bound:
        """The geometry and byte addresses of one execution: ``values`` are the values of
        :attr:`properties` then of :attr:`operands`. Raises ``InstructionError`` for an
        operand that breaks an ISA limit, ``MemoryAccessError`` for a slot out of range."""

    def effects(self, bound: Bound) -> Effects:
        """What the bound execution reads, writes and does (``hw/isa.py``): by default the
        geometry's effects at the on-chip addresses of ``bound.chip``."""
        return bound.geometry.effects(*bound.chip)  # type: ignore[no-any-return]

    def check(self, bound: Bound, windows: tuple[Window, ...]) -> None:
        """The one bounds check of both machines: raise :class:`MemoryAccessError` unless every
        byte range the bound execution reads or writes (its effects) lies inside the window of
        the operand it goes through (:meth:`windows`: the slot of a local buffer, the whole
        tensor in GM). A slot ends where the buffer's slot ends, so an instruction that would
        run into the neighbouring slot or buffer is refused, with the offsets in elements of
        the operand as the IR writes them."""
        effects = self.effects(bound)
        for span in (*effects.reads, *effects.writes):
            window = _window_of(span, windows)
            if window is not None and not (window.lo <= span.lo and span.hi <= window.hi):
                eb = window.element_bytes
                start, end = (span.lo - window.lo) // eb, (span.hi - window.lo) // eb
                raise MemoryAccessError(
                    f"{self.name} {window.role} elements [{start}, {end}) out of bounds "
                    f"({(window.hi - window.lo) // eb} elements)"
                )

    def gm_writes(self, bound: Bound) -> tuple[Span, ...]:
        """The GM bytes the bound execution writes, run by run (the sanitizer compares them
        between cores and launches); by default the GM extents of its effects."""
        return tuple(span for span in self.effects(bound).writes if span.memory == "GM")

    def atomic(self, bound: Bound) -> bool:
        """Whether its GM writes are atomic adds (two cores may then write the same bytes)."""
        return False

    def gm_bytes(self, bound: Bound) -> tuple[int, int] | None:
        """The GM bytes ``[lo, hi)`` the bound execution touches (None: no GM operand)."""
        return None

    @abstractmethod
    def cost(self, figures: CostFigures, effects: Effects, gm_share: float = math.inf) -> float:
        """Cycles the instruction occupies its pipe: after them the pipe issues its next
        instruction. A GM transfer runs at most at ``gm_share`` bytes per cycle, the core's
        share of the chip's L2 bandwidth."""

    def latency(self, figures: CostFigures, effects: Effects) -> float:
        """Cycles from the end of the instruction's occupancy to its completion (its results
        visible to a flag or barrier after it). Pipelined pipes overlap it with the next
        instruction, so it is not charged as occupancy (docs/cost-model.md)."""
        return 0.0
