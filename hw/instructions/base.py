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
  place both machines do this), the **effects** of a bound instruction, the operands that
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
from typing import Any, ClassVar, NamedTuple, Protocol

from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.isa import LIMITS, Effects, Limit, Pipe


class BufferOperand(Protocol):
    """A planned local buffer as an instruction operand: its memory, element size and slots."""

    @property
    def memory(self) -> str: ...

    @property
    def element_bytes(self) -> int: ...

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
    slot operand (None for a GM tensor), and the i1 operand that, when it is the constant true,
    means the access does not happen (an ``mmad`` with ``init`` does not read C)."""

    buffer: str
    slot: str | None = None
    unless_true: str | None = None


class Bound(NamedTuple):
    """One execution of an instruction, bound to its operand values.

    ``geometry`` is the decoded (and limit-checked, interned) geometry; ``chip`` the on-chip
    memories and byte addresses (and any flag) that, with the geometry, fix its on-chip effects
    and its timing, so ``(geometry, chip)`` keys a cost cache; ``gm`` the GM byte address it
    starts at (0 when it has no GM operand)."""

    geometry: Any
    chip: tuple[Any, ...]
    gm: int = 0


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

    @abstractmethod
    def bind(self, *values: Any, **named: Any) -> Bound:
        """The geometry and byte addresses of one execution: ``values`` are the values of
        :attr:`properties` then of :attr:`operands`. Raises ``InstructionError`` for an
        operand that breaks an ISA limit, ``MemoryAccessError`` for a slot out of range."""

    def effects(self, bound: Bound) -> Effects:
        """What the bound execution reads, writes and does (``hw/isa.py``): by default the
        geometry's effects at the on-chip addresses of ``bound.chip``."""
        return bound.geometry.effects(*bound.chip)  # type: ignore[no-any-return]

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
