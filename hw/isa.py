"""The vocabulary of the instruction model of the AI Cube core: pipes, ISA limits, effects.

Every hardware-level op of the ``ascend`` dialect (``data_copy``, ``load3d``, ``load2d``,
``mmad``, ``fixpipe``, ``set_flag``/``wait_flag``, ``pipe_barrier``) is one instruction, and each
instruction is one spec object in ``hw/instructions/`` (its pipe, operand binding, geometry,
effects, timing operands, cost rule and report name). This module holds what the specs share:

* the **pipes** (:class:`Pipe`);
* the **ISA limits** of the instructions' fields, read from ``isa.toml`` next to this file (the
  ranges of the Ascend C parameter structs, each with its source); the verifiers of
  ``dialects/hw_level.py``, the lowering and the simulator all read :data:`LIMITS`;
* the **effects** an executed instruction has: the byte ranges it reads and writes in each
  memory (:class:`Span`) and its work (:class:`Work`), which the sanitizer
  (``runtime/machine/sanitizer.py``) checks and the timing backend (``runtime/cost/timing.py``)
  times with the instruction's cost rule;
* the event rules of ``set_flag``/``wait_flag`` (:func:`event_error`).

Nothing here knows about xDSL's IR or numpy; addresses are byte addresses inside one memory (an
on-chip memory of one core, or one GM tensor for ``"GM"``). The exact semantics are
docs/hw-level-spec.md; the instruction names and parameter structs are those of the Ascend C API
reference (hicann/asc-devkit: ``DataCopy``, ``LoadData`` with ``LoadData3DParamsV2`` /
``LoadData2DParams``, ``Mmad``, ``Fixpipe`` with ``FixpipeParamsV220``, ``SetFlag``/``WaitFlag``,
``PipeBarrier``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import NamedTuple

from xdsl.utils.str_enum import StrEnum

BLOCK_BYTES = 32
"""One block: the unit of DataCopy lengths and strides and of the fixpipe dst stride."""

FRACTAL = 16
"""Rows and columns of one Cube fractal (16x16 elements), the M0/N0/K0 of the b16 types."""

FRACTAL_ELEMS = FRACTAL * FRACTAL

ACC_BYTES = 4
"""Bytes of one L0C accumulator (float32)."""


class Pipe(StrEnum):
    """The AI Core's instruction queues: S (scalar), V (vector), M (Cube), MTE1 (L1 -> L0),
    MTE2 (GM -> L1), MTE3 (UB -> GM), FIX (fixpipe L0C -> GM); ALL names every pipe in a
    barrier."""

    S = "S"
    V = "V"
    M = "M"
    MTE1 = "MTE1"
    MTE2 = "MTE2"
    MTE3 = "MTE3"
    FIX = "FIX"
    ALL = "ALL"


EVENT_PIPES: tuple[Pipe, ...] = tuple(p for p in Pipe if p != Pipe.ALL)
"""The pipes an event can connect (every pipe but ALL)."""


class InstructionError(ValueError):
    """An instruction whose operands break an ISA limit (one line naming op, field, value)."""


class MemoryAccessError(IndexError):
    """An access outside a memory, outside the slot or GM tensor an instruction's operand
    names, or one that cannot be a typed view of a memory. Raised here by the one bounds
    check of the instruction specs (``hw/instructions/base.py``, ``DataInstruction.check``)
    that both machines run, and by the data machine's memories (``runtime/machine/memory.py``
    re-exports it)."""


# ---------------------------------------------------------------------------------------------
# limits


@dataclass(frozen=True)
class Limit:
    """The legal values of one instruction field: ``lo <= v <= hi``, a multiple of ``multiple``."""

    lo: int
    hi: int | None
    multiple: int | None
    source: str

    def error(self, instr: str, what: str, value: int) -> str | None:
        """The one-line message for an illegal ``value`` (None when it is legal)."""
        if self.hi is not None and not self.lo <= value <= self.hi:
            return f"{instr} {what} {value} is not in [{self.lo}, {self.hi}]"
        if value < self.lo:
            below = "negative" if self.lo == 0 else f"below {self.lo}"
            return f"{instr} {what} {value} is {below}"
        if self.multiple is not None and value % self.multiple:
            return f"{instr} {what} {value} is not a multiple of {self.multiple}"
        return None


def _load_limits() -> dict[str, dict[str, Limit]]:
    text = (resources.files(__package__) / "isa.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)
    return {
        instr: {
            name: Limit(f["lo"], f.get("hi"), f.get("multiple"), f["source"])
            for name, f in fields.items()
        }
        for instr, fields in table.items()
    }


LIMITS: dict[str, dict[str, Limit]] = _load_limits()
"""``LIMITS[instruction][field]``, e.g. ``LIMITS["data_copy"]["count"]`` = [1, 4095]."""


def limit(instr: str, field: str) -> Limit:
    return LIMITS[instr][field]


def check(instr: str, field: str, value: int, what: str | None = None) -> None:
    """Raise :class:`InstructionError` if ``value`` breaks the limit of ``instr``'s ``field``
    (``what`` names it in the message when it is one of several values, e.g. "stride w")."""
    message = LIMITS[instr][field].error(instr, what or field, value)
    if message is not None:
        raise InstructionError(message)


# ---------------------------------------------------------------------------------------------
# effects


class Span(NamedTuple):
    """Bytes ``[lo, hi)`` of one memory ("GM" is the tensor the operand names)."""

    memory: str
    lo: int
    hi: int


class Work(NamedTuple):
    """How much an instruction does, in the units its pipe's throughput is given in."""

    bytes: int = 0
    m: int = 0
    n: int = 0
    k: int = 0
    rows: int = 0
    stride: tuple[int, int] = (1, 1)
    kernel: tuple[int, int] = (1, 1)
    element_bytes: int = 2
    """Bytes of the element type the instruction computes or moves (the Cube's rate depends on
    it)."""
    burst: int = 0
    """Bytes of each of ``rows`` separate GM bursts of a strided copy; 0 when the copy is one
    contiguous run (the MTE2 package model charges each burst its cacheline packages)."""


class Effects(NamedTuple):
    """What one executed instruction does: its pipe, the bytes it reads and writes, its work,
    and which instruction it is (its spec's name in ``hw/instructions/``, whose cost rule the
    timing backend applies)."""

    pipe: Pipe
    reads: tuple[Span, ...] = ()
    writes: tuple[Span, ...] = ()
    work: Work = Work()
    instruction: str = ""


# ---------------------------------------------------------------------------------------------
# events


def event_error(instr: str, src: Pipe, dst: Pipe, event: int, user_event_ids: int) -> str | None:
    """Why ``instr src -> dst event`` is illegal, or None. Ids from ``user_event_ids`` up are
    reserved for the framework (the hardware figure ``user_event_ids``)."""
    if Pipe.ALL in (src, dst):
        return f"{instr} pipe ALL cannot be an event endpoint, got {src} -> {dst}"
    if src == dst:
        return f"{instr} {src}->{dst}: source and destination pipe are the same"
    if not 0 <= event < user_event_ids:
        return f"{instr} {src}->{dst} event {event} is not in [0, {user_event_ids})"
    return None
