"""What the calls on one ``Conv3DBackpropFilter`` object hand an iterate loop: the single shape
its ``set_*`` calls set and the ``get_tensor_c`` destination, which ``tile_walk.py`` walks."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import SSAValue


@dataclass(frozen=True)
class SingleShape:
    """What the ``set_*`` calls and ``get_tensor_c`` of one iterate loop hand over."""

    dy: SSAValue
    off_dy: SSAValue
    x: SSAValue
    off_x: SSAValue
    m: SSAValue
    n: SSAValue
    k: SSAValue
    ho_start: SSAValue
    dw: SSAValue
    off_c: SSAValue
    atomic: bool
