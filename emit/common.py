"""What the parts of the Ascend C emitter share: file names, the error, C++ spellings of types,
storage sizes, kernel parameter names and the tiling fields the host sets (``emit/ascendc.py``
puts the parts together)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, fields

from xdsl.dialects import func
from xdsl.ir import Attribute, SSAValue

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects import api_conv3d as fwd
from ascend_xdsl.dialects import api_conv3d_bp_input as dx
from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects import formats
from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.conv_shape import C0
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.dialects.types import GmTensorType

HOST_FILE = "main.cpp"
CMAKE_FILE = "CMakeLists.txt"
README_FILE = "README.md"
DATA_FILE = "data.py"


class EmitError(Exception):
    """API-level IR that has no Ascend C spelling here (the message names the op and where)."""


HOST_TILING_API = "api"
HOST_TILING_FIXED = "fixed"
HOST_TILINGS = (HOST_TILING_API, HOST_TILING_FIXED)
"""Where the host's tiling comes from: the vendor's tiling API (``GetTiling``, the documented
way) or the compiler's own ``#ascend.dw_tiling`` filled in field by field (opt-in)."""

BUILD_ASC = "asc"
BUILD_LEGACY = "legacy"
BUILDS = (BUILD_ASC, BUILD_LEGACY)
"""The build flow: ``.asc`` sources with ``find_package(ASC)`` and ``<<<>>>`` (the current
asc-devkit examples), or ``ascendc_library`` with ``ascendc.cmake`` (no longer developed)."""

OPS_NN_OPERATOR = (
    "the ops-nn operator Conv3DBackpropFilterV2 (hicann/ops-nn "
    "conv/conv3d_backprop_filter_v2, through aclnnConvolutionBackward)"
)
"""The supported route for what the public tiling API does not take."""

FIXED_TILING_QUOTE = (
    "TConv3DBpFilterTiling结构体.md: 当前暂不支持用户自定义配置"
    "TConv3DBpFilterTiling结构体中的参数, user-defined values are not supported yet"
)
"""What the docs say about a tiling the user fills in himself."""

FIXED_TILING_WARNING = (
    "--host-tiling fixed: the host fills TConv3DBpFilterTiling with the compiler's own values, "
    f"which the docs do not support ({FIXED_TILING_QUOTE})"
)


@dataclass(frozen=True)
class EmitOptions:
    """How to emit: the host's tiling source and the build flow."""

    host_tiling: str = HOST_TILING_API
    build: str = BUILD_ASC

    def __post_init__(self) -> None:
        if self.host_tiling not in HOST_TILINGS:
            raise EmitError(f"--host-tiling must be one of {', '.join(HOST_TILINGS)}")
        if self.build not in BUILDS:
            raise EmitError(f"--build must be one of {', '.join(BUILDS)}")


@dataclass(frozen=True)
class Project:
    """The emitted files, by path relative to the project folder, and what to warn about."""

    kernel_name: str
    files: dict[str, str]
    warnings: tuple[str, ...] = ()
    build: str = BUILD_ASC

    @property
    def kernel_file(self) -> str:
        return kernel_file(self.kernel_name, self.build)


# --------------------------------------------------------------------------------------------
# Names shared by the kernel and the host
# --------------------------------------------------------------------------------------------

_CPP_TYPES: dict[str, str] = {"f16": "half", "bf16": "bfloat16_t", "f32": "float", "i32": "int32_t"}

_DW_FIELDS = DwTiling.field_names()
TILING_STRUCT_FIELDS = _DW_FIELDS[: _DW_FIELDS.index("single_core_cin") + 1]
"""The fields of ``TConv3DBpFilterTiling``, in order: every ``DwTiling`` field up to
``single_core_cin``; the operator-level core split and the basic block follow them."""

BASIC_BLOCK_FIELDS = ("single_core_m", "single_core_n", "single_core_k")
CORE_SPLIT_FIELDS = tuple(f.name for f in fields(DwTiling) if f.name.endswith("_dim"))


def camel_case(snake: str) -> str:
    """The vendor's spelling of a ``DwTiling`` field: ``cin1_g`` -> ``cin1G``."""
    head, *rest = snake.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def cpp_type(t: Attribute) -> str:
    name = element_type_name(t)
    if name not in _CPP_TYPES:
        raise EmitError(f"no Ascend C element type for {name}")
    return _CPP_TYPES[name]


def _element_bytes(t: Attribute) -> int:
    return {"f16": 2, "bf16": 2, "f32": 4, "i32": 4}[element_type_name(t)]


def physical_elements(t: GmTensorType) -> int:
    """Elements of a GM tensor in its storage format (``dialects/formats.py``)."""
    shape = t.get_shape()
    if t.conv_format == ConvFormat.NDC1HWC0:
        return math.prod(formats.ndc1hwc0_shape(*shape, C0))  # type: ignore[misc]
    if t.conv_format == ConvFormat.FRACTAL_Z_3D:
        return math.prod(formats.fractal_z_3d_shape(*shape, t.groups.data, C0))  # type: ignore[misc]
    if t.conv_format == ConvFormat.ND:
        row = formats.nd_row_length(shape[-1], _element_bytes(t.element_type))
        return math.prod(shape[:-1]) * row
    raise EmitError(f"no storage layout for a GM tensor in {t.conv_format}")


def physical_bytes(t: GmTensorType) -> int:
    return physical_elements(t) * _element_bytes(t.element_type)


def soc_version(hw: str) -> str:
    """The CANN SoC name of a hardware description (its ``soc_version``, from the platform
    file): ``atlas-a2-910b2`` -> ``Ascend910B2``, ``atlas-a3-9392`` -> ``Ascend910_9392``."""
    name = hw_data.load(hw).soc_version
    if not name:
        raise EmitError(f"no CANN SoC name is known for the hardware '{hw}'")
    return name


_ROLES: tuple[tuple[type, str], ...] = (
    (api.SetInputOp, "x"),
    (api.SetGradOutputOp, "dy"),
    (api.GetTensorCOp, "dw"),
    (fwd.Conv3DSetInputOp, "x"),
    (fwd.Conv3DSetWeightOp, "w"),
    (fwd.Conv3DSetBiasOp, "bias"),
    (fwd.Conv3DIterateAllOp, "y"),
    (fwd.Conv3DGetTensorCOp, "y"),
    (dx.Conv3DBpInputSetGradOutputOp, "dy"),
    (dx.Conv3DBpInputSetWeightOp, "w"),
    (dx.Conv3DBpInputGetTensorCOp, "dx"),
)
"""The kernel parameter each API call's tensor is: dW's x, dy, dw; the forward's x, w, bias, y;
dX's dy, w, dx."""


def _kernel_roles(kernel: func.FuncOp) -> dict[SSAValue, str]:
    """Kernel arguments by the API call that reads them (:data:`_ROLES`)."""
    roles: dict[SSAValue, str] = {}
    for op in kernel.walk():
        for kind, role in _ROLES:
            if isinstance(op, kind):
                roles.setdefault(op.tensor, role)  # type: ignore[attr-defined]
    return roles


def param_names(kernel: func.FuncOp) -> list[str]:
    roles = _kernel_roles(kernel)
    names = [roles.get(arg, f"arg{i}") for i, arg in enumerate(kernel.args)]
    if len(set(names)) != len(names):
        raise EmitError(f"@{kernel.sym_name.data}: one tensor is passed as two API operands")
    return names


def kernel_file(kernel_name: str, build: str) -> str:
    """``<kernel>.asc`` in the ``.asc`` build, ``<kernel>.cpp`` in the legacy one."""
    return f"{kernel_name}.{'cpp' if build == BUILD_LEGACY else 'asc'}"


def launcher_name(kernel_name: str) -> str:
    """The host-side function of the ``.asc`` build that launches the kernel with ``<<<>>>``."""
    return f"Launch_{kernel_name}"


C_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def describe_tensor(t: GmTensorType) -> str:
    shape = "x".join(str(d) for d in t.get_shape())
    groups = f", groups {t.groups.data}" if t.groups.data != 1 else ""
    return f"{t.conv_format} of logical {shape} {element_type_name(t.element_type)}{groups}"


def operands_line(launch: LaunchOp) -> str:
    types = [a.type for a in launch.args]
    return ", ".join(
        f"{'x' if i == 0 else 'dy' if i == 1 else 'dW'} {describe_tensor(t)}"
        for i, t in enumerate(types)
        if isinstance(t, GmTensorType)
    )


def tiling_fields() -> Iterable[str]:
    """The ``DwTiling`` fields the host's ``FillTiling`` sets, struct fields then basic block."""
    return (*TILING_STRUCT_FIELDS, *BASIC_BLOCK_FIELDS)


def banner(title: str, problem: str, command: str = "bp-filter") -> list[str]:
    return [
        f"// {title}",
        f"// Generated by ascend-xdsl (ascend-conv {command} --emit ascendc) from the API-level",
        f"// IR of: {problem}",
        "// Regenerate rather than edit: every number here comes from that IR.",
    ]


def group_note(groups: int, inputs: tuple[str, ...], output: str) -> str:
    """The README section of a grouped layer's project (none for ``groups`` 1): what the
    host's launches and the data files are. The IR is compiled per group, as the simulator
    runs a grouped forward or dX (``runtime/forward.run_groups``): one launch per group on its
    slice of channels, each slice in its own device layout. That is also the only way through
    the public API: its tilers reject ``groups`` other than 1."""
    if groups == 1:
        return ""
    files = ", ".join(f"`{name}.bin`" for name in (*inputs, output))
    return "\n".join(
        [
            "## Groups",
            "",
            f"The layer has {groups} groups. The kernel is compiled for one group (its Cin and",
            "Cout are the group's) and the host launches it once per group, on the same",
            f"tiling: {files} hold the {groups} groups' tensors back to back, each in its own",
            "device layout, its channels padded to a multiple of 16 on their own (the",
            "`k*GroupBytes` constants), and launch g gets each buffer from g times the group's",
            "size on. The operands above are one group's.",
            "",
            "One launch per group because the public tiling APIs take `groups` 1 only",
            "(asc-devkit: the `SetGroups` page of the Conv3D tiling docs, and `CheckInputAttr` in",
            "`impl/adv_api/tiling/conv/conv3d_tiling_base.cpp` and",
            "`impl/adv_api/tiling/conv_backprop/conv3d_bp_input_tiling_base.cpp`), so the host",
            "sets the tiling's group fields to 1.",
            "",
        ]
    )
