"""``main.cpp``: the host function of an API-level module as an AscendCL program.

The ``ascend.trans_data`` inputs are read from files already in their device layout, the
``ascend.alloc_gm`` is a zeroed device buffer (``ascend.empty_gm`` an uninitialised one: no
``aclrtMemset``), and the ``ascend.launch`` fills ``Conv3DBackpropFilterTilingData`` from the
kernel's ``#ascend.dw_tiling``, every field of ``TConv3DBpFilterTiling`` in the vendor's order,
and launches on the launch's block count. Part of the emitter of ``emit/ascendc.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.launch import AllocGmOp, EmptyGmOp, LaunchOp
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.emit.common import (
    BASIC_BLOCK_FIELDS,
    BUILD_LEGACY,
    CORE_SPLIT_FIELDS,
    HOST_TILING_API,
    TILING_STRUCT_FIELDS,
    EmitError,
    EmitOptions,
    banner,
    camel_case,
    describe_tensor,
    launcher_name,
    operands_line,
    param_names,
    physical_bytes,
)


def _tiling_lines(tiling: DwTiling, l1_size: int) -> list[str]:
    values = tiling.as_dict()
    split = ", ".join(f"{camel_case(n)} {values[n]}" for n in CORE_SPLIT_FIELDS)
    return [
        "// The #ascend.dw_tiling of the kernel's ascend.init, every field of",
        "// TConv3DBpFilterTiling in the vendor's order, and the basic block.",
        f"// The core split behind the launch's block count: {split}.",
        "void FillTiling(Conv3DBackpropFilterTilingData& t)",
        "{",
        f"    t.params.totalL1Size = {l1_size};",
        *(f"    t.dwTiling.{camel_case(n)} = {values[n]};" for n in TILING_STRUCT_FIELDS),
        *(f"    t.basicBlockTiling.{camel_case(n)} = {values[n]};" for n in BASIC_BLOCK_FIELDS),
        "}",
    ]


_CONV_DTYPES = {"f16": "FLOAT16", "bf16": "BF16", "f32": "FLOAT32"}
"""``ConvCommonApi::ConvDtype`` of an element type (hicann/asc-devkit
impl/adv_api/detail/conv/common/conv_common.h)."""


def _api_tiling_lines(tiling: DwTiling, input_type: str) -> list[str]:
    """``GetApiTiling``: the problem of the IR handed to the tiling API as its docs prescribe
    (Conv3DBackpropFilter-Tiling使用说明.md): the tiler over ``PlatformAscendCManager``, the
    ``Set*`` calls, ``GetTiling``, and the result serialised for the kernel."""
    v = tiling.as_dict()
    dtype = _CONV_DTYPES[input_type]

    def call(name: str, *fields: str) -> str:
        return f"    tiler.{name}({', '.join(str(v[f]) for f in fields)});"

    return [
        "// The problem of the IR (its #ascend.dw_tiling) handed to the tiling API as its docs",
        "// prescribe (Conv3DBackpropFilter-Tiling使用说明.md): the tiler over the platform, the",
        "// Set* calls, GetTiling. The result is the tiling the kernel's Init reads.",
        "bool GetApiTiling(std::vector<uint8_t>& buffer)",
        "{",
        "    platform_ascendc::PlatformAscendC* platform =",
        "        platform_ascendc::PlatformAscendCManager::GetInstance();",
        "    if (platform == nullptr) {",
        '        std::fprintf(stderr, "PlatformAscendCManager::GetInstance: no platform\\n");',
        "        return false;",
        "    }",
        "    ConvBackpropApi::Conv3dBpFilterTiling tiler(*platform);",
        "    tiler.SetWeightType(ConvCommonApi::TPosition::GM, "
        "ConvCommonApi::ConvFormat::FRACTAL_Z_3D,",
        "                        ConvCommonApi::ConvDtype::FLOAT32);",
        "    tiler.SetInputType(ConvCommonApi::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0,",
        f"                       ConvCommonApi::ConvDtype::{dtype});",
        "    tiler.SetGradOutputType(ConvCommonApi::TPosition::GM, "
        "ConvCommonApi::ConvFormat::NDC1HWC0,",
        f"                            ConvCommonApi::ConvDtype::{dtype});",
        call("SetInputShape", "batch", "cin", "di", "hi", "wi"),
        call("SetGradOutputShape", "batch", "cout", "dout", "ho", "wo"),
        call("SetWeightShape", "cout", "cin", "dk", "hk", "wk"),
        call("SetPadding", "pad_front", "pad_back", "pad_up", "pad_down", "pad_left", "pad_right"),
        call("SetStride", "stride_d", "stride_h", "stride_w"),
        call("SetDilation", "dilation_d", "dilation_h", "dilation_w"),
        "    // The optiling overload, serialised: the AscendC::tiling one ends by copying a",
        "    // structure that holds only the basic block over the whole result, which zeroes the",
        "    // problem fields (hicann/asc-devkit impl/adv_api/tiling/conv_backprop/",
        "    // conv3d_bp_filter_tiling.cpp, SetFinalBasickBlockTiling).",
        "    optiling::Conv3DBackpropFilterTilingData tiling;",
        "    if (tiler.GetTiling(tiling) == -1) {",
        '        std::fprintf(stderr, "Conv3dBpFilterTiling::GetTiling failed\\n");',
        "        return false;",
        "    }",
        "    buffer.resize(tiling.GetDataSize());",
        "    if (buffer.size() != sizeof(Conv3DBackpropFilterTilingData)) {",
        '        std::fprintf(stderr, "GetTiling gave %zu bytes, the kernel reads %zu\\n", '
        "buffer.size(),",
        "                     sizeof(Conv3DBackpropFilterTilingData));",
        "        return false;",
        "    }",
        "    tiling.SaveToBuffer(buffer.data(), buffer.size());",
        "    return true;",
        "}",
    ]


@dataclass
class _HostBuffer:
    """One GM tensor of the host: its name (x, dy, dw), bytes in its layout, and type."""

    name: str
    bytes: int
    description: str

    @property
    def size(self) -> str:
        """The name of its byte-count constant: ``kDyBytes``."""
        return f"k{self.name[:1].upper()}{self.name[1:]}Bytes"

    @property
    def group_size(self) -> str:
        """The name of one group's byte-count constant (grouped hosts): ``kDyGroupBytes``."""
        return f"k{self.name[:1].upper()}{self.name[1:]}GroupBytes"

    @property
    def layout(self) -> str:
        return self.description.split(" ")[0]


@dataclass
class _HostPlan:
    """What the host function does, read off its ops: the tensors it reads in (``trans_data``
    from a memref), the ones it zeroes (``alloc_gm``), the ones it allocates uninitialised
    (``empty_gm``), the ones it reads back (``trans_data`` to a memref), and the launch's
    operands in order."""

    inputs: list[_HostBuffer]
    zeroed: list[_HostBuffer]
    empty: list[_HostBuffer]
    outputs: list[_HostBuffer]
    launch_args: list[_HostBuffer]


def _host_plan(host: func.FuncOp, launch: LaunchOp, kernel: func.FuncOp) -> _HostPlan:
    """The host's tensors, named by the kernel parameter each is passed as (x, dy, dw)."""
    where = f"@{host.sym_name.data}"
    params = param_names(kernel)
    role = {arg: params[i] for i, arg in enumerate(launch.args)}
    plan = _HostPlan([], [], [], [], [])
    by_value: dict[SSAValue, _HostBuffer] = {}
    for op in host.body.block.ops:
        if isinstance(op, TransDataOp) and isinstance(op.source.type, MemRefType):
            t = op.result.type
            assert isinstance(t, GmTensorType)
            name = role.get(op.result, f"in{len(plan.inputs)}")
            buf = _HostBuffer(name, physical_bytes(t), describe_tensor(t))
            plan.inputs.append(buf)
            by_value[op.result] = buf
        elif isinstance(op, AllocGmOp | EmptyGmOp):
            t = op.result.type
            assert isinstance(t, GmTensorType)
            name = role.get(op.result, f"out{len(plan.zeroed) + len(plan.empty)}")
            buf = _HostBuffer(name, physical_bytes(t), describe_tensor(t))
            (plan.zeroed if isinstance(op, AllocGmOp) else plan.empty).append(buf)
            by_value[op.result] = buf
        elif isinstance(op, TransDataOp) and op.source in by_value:
            plan.outputs.append(by_value[op.source])
        elif op is launch or isinstance(op, func.ReturnOp):
            continue
        else:
            raise EmitError(f"{where}: {op.name} has no host-side spelling here")
    if any(v not in by_value for v in launch.args):
        raise EmitError(f"{where}: ascend.launch passes a tensor the host did not make")
    plan.launch_args = [by_value[v] for v in launch.args]
    return plan


def _copy_in(buf: _HostBuffer) -> list[str]:
    k = buf.size
    return [
        f"    // ascend.trans_data into {buf.layout}: {buf.name}.bin holds "
        "it already in that layout.",
        f"    std::vector<uint8_t> {buf.name}Host({k});",
        f'    if (!ReadFile(dataDir + "/{buf.name}.bin", {buf.name}Host.data(), {k})) {{',
        "        return 1;",
        "    }",
        f"    void* {buf.name}Dev = nullptr;",
        f"    CHECK_ACL(aclrtMalloc(&{buf.name}Dev, {k}, ACL_MEM_MALLOC_HUGE_FIRST));",
        f"    CHECK_ACL(aclrtMemcpy({buf.name}Dev, {k}, {buf.name}Host.data(), {k}, "
        "ACL_MEMCPY_HOST_TO_DEVICE));",
        "",
    ]


ATOMIC_NOTE = "zero-filled, the kernel adds its tiles into it atomically."


def _zero_filled(buf: _HostBuffer, note: str = ATOMIC_NOTE) -> list[str]:
    k = buf.size
    return [
        f"    // ascend.alloc_gm: {note}",
        f"    void* {buf.name}Dev = nullptr;",
        f"    CHECK_ACL(aclrtMalloc(&{buf.name}Dev, {k}, ACL_MEM_MALLOC_HUGE_FIRST));",
        f"    CHECK_ACL(aclrtMemset({buf.name}Dev, {k}, 0, {k}));",
        "",
    ]


def _uninitialised(buf: _HostBuffer, note: str) -> list[str]:
    k = buf.size
    return [
        f"    // ascend.empty_gm: {note}",
        f"    void* {buf.name}Dev = nullptr;",
        f"    CHECK_ACL(aclrtMalloc(&{buf.name}Dev, {k}, ACL_MEM_MALLOC_HUGE_FIRST));",
        "",
    ]


WRITES_ALL_NOTE = "uninitialised (no aclrtMemset): the kernel writes every element."


DW_TILING_DATA = "Conv3DBackpropFilterTilingData"


def _launch(
    name: str,
    blocks: int,
    args: list[_HostBuffer],
    options: EmitOptions,
    tiling_type: str = DW_TILING_DATA,
    groups: int = 1,
) -> list[str]:
    if options.host_tiling == HOST_TILING_API:
        tiling = [
            "    std::vector<uint8_t> tiling;",
            "    if (!GetApiTiling(tiling)) {",
            "        return 1;",
            "    }",
            "    const size_t kTilingBytes = tiling.size();",
            "    void* tilingDev = nullptr;",
            "    CHECK_ACL(aclrtMalloc(&tilingDev, kTilingBytes, ACL_MEM_MALLOC_HUGE_FIRST));",
            "    CHECK_ACL(aclrtMemcpy(tilingDev, kTilingBytes, tiling.data(), kTilingBytes, "
            "ACL_MEMCPY_HOST_TO_DEVICE));",
        ]
    else:
        tiling = [
            f"    {tiling_type} tiling;",
            "    FillTiling(tiling);",
            "    void* tilingDev = nullptr;",
            "    CHECK_ACL(aclrtMalloc(&tilingDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));",
            "    CHECK_ACL(aclrtMemcpy(tilingDev, sizeof(tiling), &tiling, sizeof(tiling), "
            "ACL_MEMCPY_HOST_TO_DEVICE));",
        ]
    legacy = options.build == BUILD_LEGACY
    tiling_arg = "tilingDev" if legacy else "static_cast<uint8_t*>(tilingDev)"
    callee = f"ACLRT_LAUNCH_KERNEL({name})" if legacy else launcher_name(name)
    if groups > 1:
        # Group g's tensors start g one-group sizes into each buffer: one operand a line.
        call = [
            f"{callee}(kBlockDim, stream,",
            *(f"    static_cast<uint8_t*>({buf.name}Dev) + g * {buf.group_size}," for buf in args),
            f"    {tiling_arg});",
        ]
    elif legacy:
        operands = ", ".join(f"{buf.name}Dev" for buf in args)
        call = [f"{callee}(kBlockDim, stream, {operands}, {tiling_arg});"]
    else:
        operands = ", ".join(f"static_cast<uint8_t*>({buf.name}Dev)" for buf in args)
        call = [f"{callee}(kBlockDim, stream, {operands},", f"    {tiling_arg});"]
    if groups > 1:
        launches = [
            "    for (size_t g = 0; g < kGroups; ++g) {",
            *(f"        {line}" for line in call),
            "    }",
        ]
        head = [
            f"    // ascend.launch @{name} blocks {blocks}, once per group: every group's launch",
            "    // is the same kernel and tiling on that group's tensors.",
        ]
    else:
        launches = [f"    {line}" for line in call]
        head = [f"    // ascend.launch @{name} blocks {blocks}"]
    return [
        *head,
        *tiling,
        f"    constexpr uint32_t kBlockDim = {blocks};",
        *launches,
        "    CHECK_ACL(aclrtSynchronizeStream(stream));",
        "",
    ]


def _copy_out(buf: _HostBuffer) -> list[str]:
    k = buf.size
    return [
        f"    // ascend.trans_data out of {buf.layout}: {buf.name}.bin gets it in that layout.",
        f"    std::vector<uint8_t> {buf.name}Host({k});",
        f"    CHECK_ACL(aclrtMemcpy({buf.name}Host.data(), {k}, {buf.name}Dev, {k}, "
        "ACL_MEMCPY_DEVICE_TO_HOST));",
        f'    if (!WriteFile(dataDir + "/{buf.name}.bin", {buf.name}Host.data(), {k})) {{',
        "        return 1;",
        "    }",
        "",
    ]


_SET_UP = [
    "    CHECK_ACL(aclInit(nullptr));",
    "    const int32_t deviceId = 0;",
    "    CHECK_ACL(aclrtSetDevice(deviceId));",
    "    aclrtStream stream = nullptr;",
    "    CHECK_ACL(aclrtCreateStream(&stream));",
    "",
]

_TEAR_DOWN = [
    "    CHECK_ACL(aclrtFree(tilingDev));",
    "    CHECK_ACL(aclrtDestroyStream(stream));",
    "    CHECK_ACL(aclrtResetDevice(deviceId));",
    "    CHECK_ACL(aclFinalize());",
    "    return 0;",
]


def _main_body(
    plan: _HostPlan,
    name: str,
    blocks: int,
    options: EmitOptions,
    tiling_type: str = DW_TILING_DATA,
    zero_note: str = ATOMIC_NOTE,
    empty_note: str = WRITES_ALL_NOTE,
    groups: int = 1,
) -> list[str]:
    """The statements of ``main``: set up, copy in, allocate the outputs, launch, copy out,
    tear down. With ``groups`` above 1 the plan is one group's (the IR's module is compiled
    per group, as the simulator runs it: ``runtime/forward.run_groups``): each buffer holds
    the groups' tensors back to back, each in its own device layout, and the kernel is
    launched once per group on its group's."""
    made = [*plan.inputs, *plan.zeroed, *plan.empty]
    if groups == 1:
        body = [f"    constexpr size_t {b.size} = {b.bytes};  // {b.description}" for b in made]
    else:
        body = [
            f"    // {groups} groups, one launch each; every buffer holds the groups' tensors",
            "    // back to back, each in its own layout (its channels padded on their own).",
            f"    constexpr size_t kGroups = {groups};",
        ]
        for b in made:
            body += [
                f"    constexpr size_t {b.group_size} = {b.bytes};  // a group's {b.description}",
                f"    constexpr size_t {b.size} = kGroups * {b.group_size};",
            ]
    body += ["", *_SET_UP]
    for buf in plan.inputs:
        body += _copy_in(buf)
    for buf in plan.zeroed:
        body += _zero_filled(buf, zero_note)
    for buf in plan.empty:
        body += _uninitialised(buf, empty_note)
    body += _launch(name, blocks, plan.launch_args, options, tiling_type, groups)
    for buf in plan.outputs:
        body += _copy_out(buf)
    body += [f"    CHECK_ACL(aclrtFree({buf.name}Dev));" for buf in made]
    return body + _TEAR_DOWN


def _includes(name: str, params: list[str], options: EmitOptions) -> list[str]:
    api = options.host_tiling == HOST_TILING_API
    if options.build == BUILD_LEGACY:
        # ascendc_library generates this header from the kernel's signature.
        launch = [f'#include "aclrtlaunch_{name}.h"']
    else:
        args = "".join(f", uint8_t* {p}" for p in params)
        launch = [
            f"// Defined in {name}.asc next to the kernel: its <<<>>> launch.",
            f"void {launcher_name(name)}(uint32_t blockDim, aclrtStream stream{args}, "
            "uint8_t* tiling);",
        ]
    return [
        "#include <cstddef>",
        "#include <cstdint>",
        "#include <cstdio>",
        "#include <fstream>",
        "#include <string>",
        "#include <vector>",
        "",
        '#include "acl/acl.h"',
        '#include "kernel_tiling/kernel_tiling.h"',
        *(
            [
                '#include "tiling/platform/platform_ascendc.h"',
                '#include "lib/conv_backprop/conv3d_bp_filter_tiling.h"',
            ]
            if api
            else []
        ),
        *launch,
        "",
    ]


_CHECK_ACL = [
    "#define CHECK_ACL(call)                                                    \\",
    "    do {                                                                   \\",
    "        const aclError status_ = (call);                                   \\",
    "        if (status_ != ACL_SUCCESS) {                                      \\",
    '            std::fprintf(stderr, "%s:%d: %s failed: error %d\\n", __FILE__, \\',
    "                         __LINE__, #call, static_cast<int>(status_));      \\",
    "            return 1;                                                      \\",
    "        }                                                                  \\",
    "    } while (0)",
    "",
]

_FILE_HELPERS = [
    "bool ReadFile(const std::string& path, void* data, size_t bytes)",
    "{",
    "    std::ifstream in(path, std::ios::binary);",
    "    if (!in.read(static_cast<char*>(data), static_cast<std::streamsize>(bytes)) ||",
    "        in.peek() != std::ifstream::traits_type::eof()) {",
    '        std::fprintf(stderr, "%s: expected exactly %zu bytes\\n", path.c_str(), bytes);',
    "        return false;",
    "    }",
    "    return true;",
    "}",
    "",
    "bool WriteFile(const std::string& path, const void* data, size_t bytes)",
    "{",
    "    std::ofstream out(path, std::ios::binary);",
    "    if (!out.write(static_cast<const char*>(data),",
    "                   static_cast<std::streamsize>(bytes))) {",
    '        std::fprintf(stderr, "%s: cannot write\\n", path.c_str());',
    "        return false;",
    "    }",
    "    return true;",
    "}",
    "",
]


def emit_host(
    host: func.FuncOp, launch: LaunchOp, kernel: func.FuncOp, hw: str, options: EmitOptions
) -> str:
    """``main.cpp``: the host function ``host`` of the module, around its one ``launch``."""
    init = next((op for op in kernel.walk() if isinstance(op, api.InitOp)), None)
    if init is None:
        raise EmitError(f"@{kernel.sym_name.data} has no ascend.init: there is no tiling to pass")
    plan = _host_plan(host, launch, kernel)
    name = kernel.sym_name.data
    tiling = init.tiling.tiling
    if options.host_tiling == HOST_TILING_API:
        x = launch.args[0].type
        assert isinstance(x, GmTensorType)
        source = _api_tiling_lines(tiling, element_type_name(x.element_type))
    else:
        source = _tiling_lines(tiling, hw_data.load(hw).l1_size)
    head = banner("Conv3DBackpropFilter host program", operands_line(launch))
    body = _main_body(plan, name, launch.blocks.value.data, options)
    return _main_cpp(head, host, kernel, options, source, body)


def _main_cpp(
    head: list[str],
    host: func.FuncOp,
    kernel: func.FuncOp,
    options: EmitOptions,
    tiling: list[str],
    body: list[str],
) -> str:
    """``main.cpp`` around its parts: the banner ``head``, the includes, the ``tiling``
    filler and the helpers in an anonymous namespace, then ``main`` running ``body`` (shared
    with the forward's ``emit/forward.py``)."""
    lines = [
        *head,
        "//",
        f"// Usage: {host.sym_name.data} [DATA_DIR]. Reads the inputs from DATA_DIR (default .),",
        "// launches the kernel and writes the outputs there, all as raw little-endian arrays.",
        "",
        *_includes(kernel.sym_name.data, param_names(kernel), options),
        *_CHECK_ACL,
        "namespace {",
        "",
        *tiling,
        "",
        *_FILE_HELPERS,
        "}  // namespace",
        "",
        "int main(int argc, char* argv[])",
        "{",
        '    const std::string dataDir = argc > 1 ? argv[1] : ".";',
        *body,
        "}",
        "",
    ]
    return "\n".join(lines)
