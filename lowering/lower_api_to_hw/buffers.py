"""The buffers ``Init`` allocates for one ``Conv3DBackpropFilter`` object.

These are the queues of ``InitTque`` (hicann/asc-devkit
``impl/adv_api/detail/conv_backprop/conv3d_backprop_filter/conv3d_bp_filter_func.h``):

* A1 (dy, ``step_m·base_m × step_ka·base_k``) and B1 (x, ``bl1_bound``) in L1, with
  ``al1_pbuffer`` / ``bl1_pbuffer`` slots;
* A2 and B2, the halves of L0A and L0B, ping-pong per k step when both ``al0_pbuffer`` and
  ``bl0_pbuffer`` are 2;
* CO1, ``base_m × base_n`` f32 accumulators in L0C, ping-pong per tile when ``cl0_pbuffer`` is 2.

The object's lowering (``patterns.py``) allocates them where the object is created, and every
tile walk of the object (``tile_walk.py``) uses them. Their addresses are left to
``ascend-plan-buffers``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import f32
from xdsl.ir import Attribute, SSAValue

from ascend_xdsl.dialects.conv_shape import C0, align_up
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.enums import TPosition
from ascend_xdsl.lowering.lower_api_to_hw.conv_common import alloc


@dataclass(frozen=True)
class InitBuffers:
    """The buffers ``Init`` allocates, as the values every tile walk of the object uses."""

    a1: SSAValue
    b1: SSAValue
    a2: SSAValue
    b2: SSAValue
    co1: SSAValue


def allocate_buffers(t: DwTiling, element_type: Attribute) -> InitBuffers:
    """Emit the ``alloc_buffer`` of each buffer, in the order above, into the innermost
    ``ImplicitBuilder``."""
    l0_slots = 2 if t.al0_pbuffer == 2 and t.bl0_pbuffer == 2 else 1
    return InitBuffers(
        a1=alloc(
            TPosition.A1, t.step_m * t.base_m * t.step_ka * t.base_k, element_type, t.al1_pbuffer
        ),
        b1=alloc(TPosition.B1, t.bl1_bound, element_type, t.bl1_pbuffer),
        a2=alloc(TPosition.A2, t.base_m * align_up(t.base_k, C0), element_type, l0_slots),
        b2=alloc(TPosition.B2, t.base_n * align_up(t.base_k, C0), element_type, l0_slots),
        co1=alloc(TPosition.CO1, t.base_m * t.base_n, f32, t.cl0_pbuffer),
    )
