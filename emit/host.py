"""``main.cpp``: the host function of an API-level module as an AscendCL program.

The ``ascend.trans_data`` inputs are read from files already in their device layout, the
``ascend.alloc_gm`` is a zeroed device buffer, and the ``ascend.launch`` fills
``Conv3DBackpropFilterTilingData`` from the kernel's ``#ascend.dw_tiling``, every field of
``TConv3DBpFilterTiling`` in the vendor's order, and launches on the launch's block count. Part
of the emitter of ``emit/ascendc.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.launch import AllocGmOp, LaunchOp
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.emit.common import (
    BASIC_BLOCK_FIELDS,
    CORE_SPLIT_FIELDS,
    TILING_STRUCT_FIELDS,
    EmitError,
    banner,
    camel_case,
    describe_tensor,
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
    def layout(self) -> str:
        return self.description.split(" ")[0]


def emit_host(host: func.FuncOp, launch: LaunchOp, kernel: func.FuncOp, hw: str) -> str:
    """``main.cpp``: the host function ``host`` of the module, around its one ``launch``."""
    where = f"@{host.sym_name.data}"
    params = param_names(kernel)
    inputs: dict[SSAValue, _HostBuffer] = {}
    zeroed: dict[SSAValue, _HostBuffer] = {}
    outputs: list[_HostBuffer] = []
    by_value: dict[SSAValue, _HostBuffer] = {}
    role = {arg: params[i] for i, arg in enumerate(launch.args)}
    init = next((op for op in kernel.walk() if isinstance(op, api.InitOp)), None)
    if init is None:
        raise EmitError(f"@{kernel.sym_name.data} has no ascend.init: there is no tiling to pass")
    for op in host.body.block.ops:
        if isinstance(op, TransDataOp) and isinstance(op.source.type, MemRefType):
            t = op.result.type
            assert isinstance(t, GmTensorType)
            name = role.get(op.result, f"in{len(inputs)}")
            buf = _HostBuffer(name, physical_bytes(t), describe_tensor(t))
            inputs[op.result] = by_value[op.result] = buf
        elif isinstance(op, AllocGmOp):
            t = op.result.type
            assert isinstance(t, GmTensorType)
            name = role.get(op.result, f"out{len(zeroed)}")
            buf = _HostBuffer(name, physical_bytes(t), describe_tensor(t))
            zeroed[op.result] = by_value[op.result] = buf
        elif isinstance(op, TransDataOp) and op.source in by_value:
            outputs.append(by_value[op.source])
        elif op is launch or isinstance(op, func.ReturnOp):
            continue
        else:
            raise EmitError(f"{where}: {op.name} has no host-side spelling here")
    if any(v not in by_value for v in launch.args):
        raise EmitError(f"{where}: ascend.launch passes a tensor the host did not make")
    hw_config = hw_data.load(hw)
    tiling = init.tiling.tiling
    blocks = launch.blocks.value.data
    name = kernel.sym_name.data
    args = ", ".join(f"{by_value[v].name}Dev" for v in launch.args)

    body: list[str] = []
    for buf in [*inputs.values(), *zeroed.values()]:
        k = buf.size
        body.append(f"    constexpr size_t {k} = {buf.bytes};  // {buf.description}")
    body.append("")
    body += [
        "    CHECK_ACL(aclInit(nullptr));",
        "    const int32_t deviceId = 0;",
        "    CHECK_ACL(aclrtSetDevice(deviceId));",
        "    aclrtStream stream = nullptr;",
        "    CHECK_ACL(aclrtCreateStream(&stream));",
        "",
    ]
    for buf in inputs.values():
        k = buf.size
        body += [
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
    for buf in zeroed.values():
        k = buf.size
        body += [
            "    // ascend.alloc_gm: zero-filled, the kernel adds its tiles into it atomically.",
            f"    void* {buf.name}Dev = nullptr;",
            f"    CHECK_ACL(aclrtMalloc(&{buf.name}Dev, {k}, ACL_MEM_MALLOC_HUGE_FIRST));",
            f"    CHECK_ACL(aclrtMemset({buf.name}Dev, {k}, 0, {k}));",
            "",
        ]
    body += [
        f"    // ascend.launch @{name} blocks {blocks}",
        "    Conv3DBackpropFilterTilingData tiling;",
        "    FillTiling(tiling);",
        "    void* tilingDev = nullptr;",
        "    CHECK_ACL(aclrtMalloc(&tilingDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));",
        "    CHECK_ACL(aclrtMemcpy(tilingDev, sizeof(tiling), &tiling, sizeof(tiling), "
        "ACL_MEMCPY_HOST_TO_DEVICE));",
        f"    constexpr uint32_t kBlockDim = {blocks};",
        f"    ACLRT_LAUNCH_KERNEL({name})(kBlockDim, stream, {args}, tilingDev);",
        "    CHECK_ACL(aclrtSynchronizeStream(stream));",
        "",
    ]
    for buf in outputs:
        k = buf.size
        body += [
            f"    // ascend.trans_data out of {buf.layout}: {buf.name}.bin gets it in that layout.",
            f"    std::vector<uint8_t> {buf.name}Host({k});",
            f"    CHECK_ACL(aclrtMemcpy({buf.name}Host.data(), {k}, {buf.name}Dev, {k}, "
            "ACL_MEMCPY_DEVICE_TO_HOST));",
            f'    if (!WriteFile(dataDir + "/{buf.name}.bin", {buf.name}Host.data(), {k})) {{',
            "        return 1;",
            "    }",
            "",
        ]
    for buf in [*inputs.values(), *zeroed.values()]:
        body.append(f"    CHECK_ACL(aclrtFree({buf.name}Dev));")
    body += [
        "    CHECK_ACL(aclrtFree(tilingDev));",
        "    CHECK_ACL(aclrtDestroyStream(stream));",
        "    CHECK_ACL(aclrtResetDevice(deviceId));",
        "    CHECK_ACL(aclFinalize());",
        "    return 0;",
    ]
    lines = [
        *banner("Conv3DBackpropFilter host program", operands_line(launch)),
        "//",
        f"// Usage: {host.sym_name.data} [DATA_DIR]. Reads the inputs from DATA_DIR (default .),",
        "// launches the kernel and writes the outputs there, all as raw little-endian arrays.",
        "",
        "#include <cstddef>",
        "#include <cstdint>",
        "#include <cstdio>",
        "#include <fstream>",
        "#include <string>",
        "#include <vector>",
        "",
        '#include "acl/acl.h"',
        '#include "kernel_tiling/kernel_tiling.h"',
        f'#include "aclrtlaunch_{name}.h"',
        "",
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
        "namespace {",
        "",
        *_tiling_lines(tiling, hw_config.l1_size),
        "",
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
