"""Enumerations of the Ascend C programming model, as IR attributes.

* ``TPosition`` — the logical buffer positions of Ascend C (``TPosition::A1`` …). Each position
  lives in one physical memory of the AI Core (``PhysicalMemory``): A1/B1/C1 in L1, A2 in L0A,
  B2 in L0B, CO1 in L0C, C2 in the bias table (BT), the vector positions in UB, GM in global
  memory (hicann/asc-devkit docs ``docs/zh/api/SIMD-API/通用说明和约束.md``, table 1, for
  Atlas A2; the memories are those of ``NPU架构版本2201.md``).
* ``ConvFormat`` — the data formats of ``ConvCommonApi::ConvFormat`` that a dW kernel uses.
* ``Pipe`` — the AI Core's instruction queues: S (scalar), V (vector), M (Cube), MTE1 (L1→L0),
  MTE2 (GM→L1), MTE3 (UB→GM), FIX (fixpipe L0C→GM/L1), and ALL for a full barrier; the enum is
  the instruction model's (``ascend_xdsl.hw.isa.Pipe``), ``PipeAttr`` is its attribute.

Standalone they print as ``#ascend<position A1>``, ``#ascend<format NDC1HWC0>``,
``#ascend<pipe MTE2>``; inside the ascend ops and types they print as the bare keyword.
"""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum

from ascend_xdsl.hw import isa


class PhysicalMemory(StrEnum):
    GM = "GM"
    L1 = "L1"
    L0A = "L0A"
    L0B = "L0B"
    L0C = "L0C"
    BT = "BT"
    """The bias table (BiasTable Buffer) the Cube's first mmad of a tile may start from."""
    UB = "UB"


class TPosition(StrEnum):
    GM = "GM"
    A1 = "A1"
    A2 = "A2"
    B1 = "B1"
    B2 = "B2"
    C1 = "C1"
    C2 = "C2"
    CO1 = "CO1"
    CO2 = "CO2"
    VECIN = "VECIN"
    VECOUT = "VECOUT"
    VECCALC = "VECCALC"

    @property
    def memory(self) -> PhysicalMemory:
        """The physical memory this logical position is placed in."""
        return _POSITION_MEMORY[self]


_POSITION_MEMORY: dict[TPosition, PhysicalMemory] = {
    TPosition.GM: PhysicalMemory.GM,
    TPosition.A1: PhysicalMemory.L1,
    TPosition.B1: PhysicalMemory.L1,
    TPosition.C1: PhysicalMemory.L1,
    TPosition.A2: PhysicalMemory.L0A,
    TPosition.B2: PhysicalMemory.L0B,
    # C2 is the bias table (hicann/asc-devkit DataCopy（L1ToBiasTable-Buffer数据搬运）.md:
    # "BiasTable Buffer（TPosition为C2）"); CO2, the fixpipe-side output, stages through UB,
    # which is where this model places it.
    TPosition.C2: PhysicalMemory.BT,
    TPosition.CO1: PhysicalMemory.L0C,
    TPosition.CO2: PhysicalMemory.UB,
    TPosition.VECIN: PhysicalMemory.UB,
    TPosition.VECOUT: PhysicalMemory.UB,
    TPosition.VECCALC: PhysicalMemory.UB,
}


class ConvFormat(StrEnum):
    ND = "ND"
    NCDHW = "NCDHW"
    NDHWC = "NDHWC"
    NC1HWC0 = "NC1HWC0"
    NDC1HWC0 = "NDC1HWC0"
    FRACTAL_Z_3D = "FRACTAL_Z_3D"
    NZ = "NZ"


# The pipes are the instruction model's (hw/isa.py); the dialect only wraps them as an attribute.
Pipe = isa.Pipe


@irdl_attr_definition
class TPositionAttr(EnumAttribute[TPosition], SpacedOpaqueSyntaxAttribute):
    name = "ascend.position"


@irdl_attr_definition
class ConvFormatAttr(EnumAttribute[ConvFormat], SpacedOpaqueSyntaxAttribute):
    name = "ascend.format"


@irdl_attr_definition
class PipeAttr(EnumAttribute[Pipe], SpacedOpaqueSyntaxAttribute):
    name = "ascend.pipe"
