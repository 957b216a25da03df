"""The synchronisation instructions: ``set_flag`` / ``wait_flag`` (Ascend C ``SetFlag`` /
``WaitFlag<HardEvent::SRC_DST>(id)``) and ``pipe_barrier`` (``PipeBarrier<PIPE_X>()``).

They move no data, so they have no geometry, effects or cost rule of their own: their pipe is
one of the op's properties (the source pipe of a set, the destination pipe of a wait, the
barrier's pipe) and the timing backend models them directly (``runtime/cost/timing.py``).
Which events are legal is ``hw/isa.py``'s ``event_error``.
"""

from __future__ import annotations

from ascend_xdsl.hw.instructions.base import Instruction


class SetFlagInstruction(Instruction):
    name = "set_flag"
    pipe_from = "src"
    operands = ("event",)
    properties = ("src_pipe", "dst_pipe")
    timing_operands = ("event",)


class WaitFlagInstruction(SetFlagInstruction):
    """The same operands as ``set_flag``, on the destination pipe."""

    name = "wait_flag"
    pipe_from = "dst"


class PipeBarrierInstruction(Instruction):
    name = "pipe_barrier"
    pipe_from = "barrier_pipe"
    operands = ()
    properties = ("target_pipe",)


SET_FLAG = SetFlagInstruction()
WAIT_FLAG = WaitFlagInstruction()
PIPE_BARRIER = PipeBarrierInstruction()
