"""The ``ascend`` dialect: every attribute, type and op of the four IR levels in one Dialect.

Level by level (docs/architecture.md):
op level (``op_level.py``) → format level (``format_level.py``) → API level (``api_level.py``,
with the host-side ``launch.py``)
→ hardware level (``hw_level.py``). Shared vocabulary: ``enums.py``, ``attributes.py``,
``types.py``.
"""

from xdsl.ir import Dialect

from ascend_xdsl.dialects import (
    api_conv3d,
    api_conv3d_bp_input,
    api_level,
    format_level,
    hw_level,
    launch,
    op_level,
)
from ascend_xdsl.dialects.attributes import (
    Conv3DBpInputTilingAttr,
    Conv3DTilingAttr,
    ConvTypeAttr,
    DwTilingAttr,
)
from ascend_xdsl.dialects.enums import ConvFormatAttr, PipeAttr, TPositionAttr
from ascend_xdsl.dialects.types import (
    Conv3DApiType,
    Conv3DBpFilterType,
    Conv3DBpInputType,
    GmTensorType,
    LocalTensorType,
)

Ascend = Dialect(
    "ascend",
    [
        *op_level.OPS,
        *format_level.OPS,
        *launch.OPS,
        *api_level.OPS,
        *api_conv3d.OPS,
        *api_conv3d_bp_input.OPS,
        *hw_level.OPS,
    ],
    [
        TPositionAttr,
        ConvFormatAttr,
        PipeAttr,
        ConvTypeAttr,
        DwTilingAttr,
        Conv3DTilingAttr,
        Conv3DBpInputTilingAttr,
        GmTensorType,
        LocalTensorType,
        Conv3DBpFilterType,
        Conv3DApiType,
        Conv3DBpInputType,
    ],
)
