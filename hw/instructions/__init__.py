"""The instruction set of the AI Cube core, one spec object per hardware instruction.

Each module holds one instruction (or, for ``events.py``, the three synchronisation
instructions): its geometry decode and its :class:`~ascend_xdsl.hw.instructions.base.Instruction`
spec. Everything else is derived from :data:`INSTRUCTIONS`:

* ``dialects/hw_level.py``: each op's pipe and its read/write effects (``reads``/``writes``,
  which ``passes/insert_sync.py`` uses) come from its op's ``SPEC``;
* ``runtime/executors/``: the compiled executor's handler and the cost-only loop signatures'
  timing operands, and the interpreter's one generic implementation per spec;
* ``runtime/machine/``: both machines bind an instruction's operands through
  ``Instruction.bind``; the numpy semantics (``runtime/machine/semantics.py``) are the data
  machine's, keyed by the spec;
* ``runtime/cost/timing.py``: an instruction's cycles are its spec's ``cost``;
* ``runtime/cost/report.py`` and ``runtime/reports/plot.py``: the pipes' msprof names and the
  ops' plot colours.

Adding an instruction is a new module here (and its limits in ``isa.toml``), its op in
``dialects/hw_level.py``, and its numpy semantics in the data machine.
"""

from __future__ import annotations

from ascend_xdsl.hw.instructions.base import (
    Access,
    Bound,
    BufferOperand,
    DataInstruction,
    GmOperand,
    Instruction,
)
from ascend_xdsl.hw.instructions.data_copy import DATA_COPY, DataCopy
from ascend_xdsl.hw.instructions.events import PIPE_BARRIER, SET_FLAG, WAIT_FLAG
from ascend_xdsl.hw.instructions.fill import FILL, Fill
from ascend_xdsl.hw.instructions.fixpipe import FIXPIPE, Fixpipe
from ascend_xdsl.hw.instructions.load2d import LOAD2D, Load2d
from ascend_xdsl.hw.instructions.load3d import LOAD3D, Load3d, out_width
from ascend_xdsl.hw.instructions.load_bias import LOAD_BIAS, LoadBias
from ascend_xdsl.hw.instructions.mmad import MMAD, Mmad, fractals, mmad_cycles

INSTRUCTIONS: tuple[Instruction, ...] = (
    DATA_COPY,
    FILL,
    LOAD3D,
    LOAD2D,
    LOAD_BIAS,
    MMAD,
    FIXPIPE,
    SET_FLAG,
    WAIT_FLAG,
    PIPE_BARRIER,
)

DATA_INSTRUCTIONS: tuple[DataInstruction, ...] = (
    DATA_COPY,
    FILL,
    LOAD3D,
    LOAD2D,
    LOAD_BIAS,
    MMAD,
    FIXPIPE,
)
"""The instructions that move or compute data (each binds, has effects and a cost)."""

BY_NAME: dict[str, Instruction] = {spec.name: spec for spec in INSTRUCTIONS}


def data_instruction(name: str) -> DataInstruction:
    """The spec of the data instruction ``name`` (an effects' ``instruction``)."""
    spec = BY_NAME[name]
    assert isinstance(spec, DataInstruction)
    return spec


__all__ = [
    "BY_NAME",
    "DATA_COPY",
    "DATA_INSTRUCTIONS",
    "FILL",
    "FIXPIPE",
    "INSTRUCTIONS",
    "LOAD2D",
    "LOAD3D",
    "LOAD_BIAS",
    "MMAD",
    "PIPE_BARRIER",
    "SET_FLAG",
    "WAIT_FLAG",
    "Access",
    "Bound",
    "BufferOperand",
    "DataCopy",
    "DataInstruction",
    "Fill",
    "Fixpipe",
    "GmOperand",
    "Instruction",
    "Load2d",
    "Load3d",
    "LoadBias",
    "Mmad",
    "data_instruction",
    "fractals",
    "mmad_cycles",
    "out_width",
]
