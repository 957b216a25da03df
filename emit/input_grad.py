"""Ascend C for the input gradient (dX): the API-level ``Conv3DBackpropInput`` kernel as a CANN
project.

``ascend-conv bp-input --emit ascendc -o DIR`` writes what ``emit/forward.py`` writes for the
forward conv, with the same parts and the same machinery: the kernel statement for statement
(``emit/kernel.py``'s walk and ``object_kernel_source``, with the ``Conv3DBackpropInput`` calls
added here: ``ConvBackpropApi::Conv3DBackpropInput<WEIGHT, INPUT_SIZE, GRAD_OUTPUT,
GRAD_INPUT>``, ``Init``, ``SetGradOutput``, ``SetWeight``, ``SetSingleShape``,
``SetStartPosition``, ``while (Iterate()) { GetTensorC }``, ``End``), the host program
(``emit/host.py``'s plan, copies and launch), the CMake build (``emit/files.py``), a
``data.py`` that makes dy and the weight in their device layouts and checks the dX the program
writes against the reference, and a README.

The host fills ``Conv3DBackpropInputTilingData`` (its one member ``conv3DDxTiling``, a
``TConv3DBackpropInputTiling``) from the kernel's ``#ascend.conv3d_bp_input_tiling``: the
attribute is that structure field for field (``dialects/conv3d_bp_input_tiling.py``), so every
field is set and none is left to a vendor tiler.

The API-level IR calls the public API as asc-devkit defines it: its three-argument
``SetSingleShape`` sets the single shape's Din to 1
(``impl/adv_api/detail/conv_backprop/conv3d_backprop_input/conv3d_bp_input_func.h``: ``Iterate``
walks the one depth ``SetStartPosition`` names and ``GetTensorC`` adds its offset to the tensor
it is given), so the IR's kernel loops over a core's dX depths with one ``SetStartPosition`` and
``while (Iterate())`` series each, and the kernel prints that ``scf.for`` as it prints any
other. After each series it sets ``ctx.isFirstIter_`` again (``emit/kernel.py``): no public
call of ``Conv3DBpInputIntf`` does (only ``Init`` and the ``IterateAll`` the interface does not
offer), and ``ctx`` is a public member.

What the public API does differently from the model is said in a warning and the README: where
the simulator's lowering takes the stride-aware row walk
(``lower_api_to_hw/conv3d_bp_input_walk.py``, ``row_walk_taps``), the modelled kernel runs only
the kernel rows that reach real dy rows, while the vendor's ``Iterate`` the project calls walks
every kH tap: on the NPU it takes longer than modelled (same dX).

Sources (hicann/asc-devkit, read, not copied): ``include/adv_api/conv_backprop/
conv3d_bp_input_api.h`` (the ``Conv3DBackpropInput`` alias), ``conv3d_bp_input_intf.h`` (the
member signatures: ``Init(const TConv3DBackpropInputTiling*)``, ``SetWeight`` and
``SetGradOutput`` of ``GlobalTensor<SrcT>``, ``SetSingleShape(uint64_t, uint64_t,
uint32_t)``, ``SetStartPosition(uint32_t, int32_t)``, ``Iterate<sync>(bool)``,
``GetTensorC<sync>(GlobalTensor<DstT>, uint8_t enAtomic = 0, bool)``, ``End()``),
``conv3d_bp_input_config.h`` and ``common/conv3d_bp_config_base.h`` (``ConvType``, the
context's types), ``conv3d_bp_input_tiling.h`` / ``conv3d_bp_input_tilingdata.h`` (the
structure), and the docs ``docs/zh/api/SIMD-API/高阶API/卷积计算/Conv3DBackpropInput-Kernel侧接口/``
(``Conv3DBackpropInput使用说明.md``: the call sequence and tables 1 and 2; ``Init-108.md``:
``Init(&tilingData->conv3DDxTiling)``; ``Iterate-111.md``, ``GetTensorC-112.md``,
``SetSingleShape-110.md``, ``SetStartPosition.md``, ``SetGradOutput.md``, ``SetWeight-109.md``,
``End-113.md``).
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects import api_conv3d_bp_input as dx
from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.dialects.types import Conv3DBpInputType, GmTensorType
from ascend_xdsl.emit.ascendc import find_launch
from ascend_xdsl.emit.common import (
    C_IDENTIFIER,
    CMAKE_FILE,
    DATA_FILE,
    HOST_FILE,
    HOST_TILING_FIXED,
    README_FILE,
    EmitError,
    EmitOptions,
    Project,
    banner,
    camel_case,
    describe_tensor,
    group_note,
    kernel_file,
    soc_version,
)
from ascend_xdsl.emit.files import emit_cmake, emit_input_grad_data_script
from ascend_xdsl.emit.host import _host_plan, _main_body, _main_cpp
from ascend_xdsl.emit.kernel import _KernelWriter, object_kernel_source
from ascend_xdsl.ir.structured_printer import prints
from ascend_xdsl.lowering.lower_api_to_hw.conv3d_bp_input_walk import row_walk_taps

TILING_TYPE = "Conv3DBackpropInputTilingData"
"""What the host hands the kernel (conv3d_bp_input_tilingdata.h): Init takes its
``conv3DDxTiling``."""

TILING_MEMBER = "conv3DDxTiling"

_OBJECT = "gradInput"
_OPTIONS = EmitOptions(host_tiling=HOST_TILING_FIXED)
"""The dX host fills the tiling from the IR; the build is the default ``.asc`` one."""

ROW_WALK_WARNING = (
    "the simulator's dX walk skipped kernel rows on inserted zeros (the stride-aware row walk, "
    "stride_h {stride_h}: {saved} (tile, tap) pairs fewer per dX depth and Cin tile); the "
    "vendor's Iterate this project calls walks every one of the {hk} kernel rows, so on the NPU "
    "the kernel takes longer than the modelled cycles (the same dX)"
)


def tiling_values(t: Conv3DBpInputTiling) -> dict[str, int]:
    """Every ``TConv3DBackpropInputTiling`` field, by vendor name: the attribute's fields are
    the structure's, in its order (``cout1_g`` -> ``cout1G``)."""
    return {camel_case(f): v for f, v in t.as_dict().items()}


class _InputGradKernelWriter(_KernelWriter):
    """The dW kernel's walk with the ``Conv3DBackpropInput`` object's calls."""

    ITERATE = dx.Conv3DBpInputIterateOp

    def __init__(self, kernel: func.FuncOp):
        super().__init__(kernel)
        self.dx_type: Conv3DBpInputType | None = None

    @prints(dx.Conv3DBpInputCreateOp)
    def _create(self, op: dx.Conv3DBpInputCreateOp) -> None:
        self.declare_object(op, self.dx_type, "Conv3DBackpropInput", "Conv3DBpInput", _OBJECT)
        assert isinstance(op.result.type, Conv3DBpInputType)
        self.dx_type = op.result.type

    @prints(dx.Conv3DBpInputInitOp)
    def _init(self, op: dx.Conv3DBpInputInitOp) -> None:
        # The host filled tilingData with this op's #ascend.conv3d_bp_input_tiling (main.cpp).
        self.out.emit(f"{self.ref(op.obj)}.Init(&tilingData.{TILING_MEMBER});")

    def _tensor_call(self, op: dx._Conv3DBpInputTensorCall, member: str) -> None:
        target = f"{self.tensor(op.tensor)}[{self.ref(op.offset)}]"
        self.out.emit(f"{self.ref(op.obj)}.{member}({target});")

    @prints(dx.Conv3DBpInputSetGradOutputOp)
    def _set_grad_output(self, op: dx.Conv3DBpInputSetGradOutputOp) -> None:
        self._tensor_call(op, "SetGradOutput")

    @prints(dx.Conv3DBpInputSetWeightOp)
    def _set_weight(self, op: dx.Conv3DBpInputSetWeightOp) -> None:
        self._tensor_call(op, "SetWeight")

    @prints(dx.Conv3DBpInputGetTensorCOp)
    def _get_tensor_c(self, op: dx.Conv3DBpInputGetTensorCOp) -> None:
        # enAtomic stays 0 (its default): every dX element is written by one core, once.
        self._tensor_call(op, "GetTensorC")

    @prints(dx.Conv3DBpInputSetSingleShapeOp)
    def _set_single_shape(self, op: dx.Conv3DBpInputSetSingleShapeOp) -> None:
        m, k, n = (self.ref(v) for v in (op.m, op.k, op.n))
        self.out.emit(f"{self.ref(op.obj)}.SetSingleShape({m}, {k}, {n});")

    @prints(dx.Conv3DBpInputSetStartPositionOp)
    def _set_start_position(self, op: dx.Conv3DBpInputSetStartPositionOp) -> None:
        # curHoStartIdx is int32_t in the header: a start in the top padding is negative. The
        # IR calls it once per dX depth (asc-devkit's SetSingleShape sets Din to 1), inside the
        # kernel's scf.for over the core's depths when it has more than one.
        din, ho = self.ref(op.din_start), self.ref(op.ho_start)
        self.out.emit(f"{self.ref(op.obj)}.SetStartPosition({din}, {ho});")

    @prints(dx.Conv3DBpInputEndOp)
    def _end(self, op: dx.Conv3DBpInputEndOp) -> None:
        self.out.emit(f"{self.ref(op.obj)}.End();")

    @prints(dx.Conv3DBpInputIterateOp)
    def _iterate(self, op: dx.Conv3DBpInputIterateOp) -> None:
        raise self.fail(op, "outside `scf.while` has no Ascend C spelling here")


def operands_line(launch: LaunchOp) -> str:
    """The launch's tensors: dy, w, dx."""
    names = ("dy", "w", "dX")
    return ", ".join(
        f"{name} {describe_tensor(a.type)}"
        for name, a in zip(names, launch.args, strict=False)
        if isinstance(a.type, GmTensorType)
    )


def emit_input_grad_kernel(kernel: func.FuncOp, problem: str) -> str:
    """The ``.asc`` source of the API-level dX kernel function ``kernel``."""
    writer = _InputGradKernelWriter(kernel)
    body = writer.write()
    ot = writer.dx_type
    if ot is None:
        raise EmitError(
            f"@{kernel.sym_name.data} has no ascend.conv3d_bp_input_create: nothing calls the API"
        )
    aliases = [
        ("WeightType", ot.weight),
        ("InputSizeType", ot.input_size),
        ("GradOutputType", ot.grad_output),
        ("GradInputType", ot.grad_input),
    ]
    return object_kernel_source(
        writer,
        body,
        head=banner("Conv3DBackpropInput (dX) kernel", problem, "bp-input"),
        header="lib/conv_backprop/conv3d_bp_input_api.h",
        aliases=aliases,
        namespace="ConvBackpropApi",
        object_type="Conv3DBpInput = ConvBackpropApi::Conv3DBackpropInput<WeightType, "
        "InputSizeType, GradOutputType, GradInputType>",
        tiling_type=TILING_TYPE,
    )


def _fill_tiling(t: Conv3DBpInputTiling) -> list[str]:
    return [
        "// The #ascend.conv3d_bp_input_tiling of the kernel's ascend.conv3d_bp_input_init,",
        "// every field of TConv3DBackpropInputTiling (conv3d_bp_input_tilingdata.h) in its order.",
        f"void FillTiling({TILING_TYPE}& t)",
        "{",
        *(f"    t.{TILING_MEMBER}.{n} = {v};" for n, v in tiling_values(t).items()),
        "}",
    ]


def _init_tiling(kernel: func.FuncOp) -> Conv3DBpInputTiling:
    init = next((op for op in kernel.walk() if isinstance(op, dx.Conv3DBpInputInitOp)), None)
    if init is None:
        raise EmitError(
            f"@{kernel.sym_name.data} has no ascend.conv3d_bp_input_init: there is no tiling "
            "to pass"
        )
    return init.tiling.tiling


def emit_input_grad_host(
    host: func.FuncOp, launch: LaunchOp, kernel: func.FuncOp, groups: int = 1
) -> str:
    """``main.cpp`` of the dX module: read dy and w, allocate dX, fill the tiling, launch (once
    per group of a grouped layer, ``host`` being one group's), write dX."""
    tiling = _init_tiling(kernel)
    plan = _host_plan(host, launch, kernel)
    name = kernel.sym_name.data
    body = _main_body(
        plan,
        name,
        launch.blocks.value.data,
        _OPTIONS,
        TILING_TYPE,
        "zero-filled; the kernel's GetTensorC writes each element of dX once.",
        groups=groups,
    )
    head = banner("Conv3DBackpropInput (dX) host program", operands_line(launch), "bp-input")
    return _main_cpp(head, host, kernel, _OPTIONS, _fill_tiling(tiling), body)


def _readme(
    program: str,
    kernel_name: str,
    launch: LaunchOp,
    hw: str,
    command: str,
    din_loop: bool,
    row_walk_note: bool = False,
) -> str:
    kernel = kernel_file(kernel_name, _OPTIONS.build)
    row_walk = (
        [
            "",
            "**Modelled time.** The simulator's lowering of this layer took the stride-aware",
            "row walk: each dX row runs only the kernel rows that reach real (not inserted-zero)",
            "dy rows. The vendor's `Iterate` this kernel calls walks every kernel row, so on the",
            "NPU the kernel takes longer than the cycles ascend-xdsl modelled (dX is the same).",
        ]
        if row_walk_note
        else []
    )
    depth = (
        [
            "",
            "The kernel loops over its `singleCoreDin` dX depths, one `SetStartPosition` and",
            "`Iterate` series each, because asc-devkit's `SetSingleShape` sets the",
            "single shape's Din to 1",
            "(`impl/adv_api/detail/conv_backprop/conv3d_backprop_input/conv3d_bp_input_func.h`).",
        ]
        if din_loop
        else []
    )
    return "\n".join(
        [
            f"# {program}: a Conv3DBackpropInput (dX) kernel for {soc_version(hw)}",
            "",
            "Generated by ascend-xdsl from the API-level IR of",
            "",
            f"    {command}",
            "",
            f"Operands: {operands_line(launch)}.",
            "",
            "## Files",
            "",
            f"* `{kernel}`: the kernel, one statement per op of the API-level kernel (the",
            "  `ConvBackpropApi::Conv3DBackpropInput` calls), and its `<<<>>>` launch.",
            f"* `{HOST_FILE}`: the host program.",
            f"* `{CMAKE_FILE}`: the build, the `find_package(ASC)` flow of the current asc-devkit",
            "  examples.",
            f"* `{DATA_FILE}`: makes the inputs and checks the output (needs ascend-xdsl).",
            "",
            "## Tiling",
            "",
            f"`{HOST_FILE}` fills `Conv3DBackpropInputTilingData::conv3DDxTiling` (`FillTiling`)",
            "with the compiler's `#ascend.conv3d_bp_input_tiling`, which is",
            "`TConv3DBackpropInputTiling` field for field: the tiling the simulator ran.",
            *depth,
            *row_walk,
            "",
            "## Build and run on a machine with CANN",
            "",
            "    source <CANN>/set_env.sh   # sets ASCEND_HOME_PATH",
            "    cmake -B build && cmake --build build -j",
            "    python3 data.py make DATA_DIR",
            f"    ./build/{program} DATA_DIR",
            "    python3 data.py check DATA_DIR",
            "",
            "DATA_DIR holds `dy.bin` (NDC1HWC0) and `w.bin` (FRACTAL_Z_3D), raw arrays already in",
            "the device layout, the channels padded to a multiple of 16 with zeros; the program",
            "writes `dx.bin` in NDC1HWC0. The sizes are the `k*Bytes` constants at the top of",
            f"`main` in `{HOST_FILE}`.",
            "",
            "## What was checked, and what was not",
            "",
            "`ascend-conv check-ascendc DIR` compiles both sources with `g++ -std=c++17",
            "-fsyntax-only` against declaration headers that ascend-xdsl ships, written from the",
            "Conv3DBackpropInput API's headers (or, with `--cann DIR`, against a CANN tree's):",
            "names, types and call shapes, nothing more. The API-level IR this was written from",
            "is what ascend-xdsl's simulator runs and checks against a reference dX (the same",
            "`ascend-conv bp-input` flags without `--emit`). Not checked: a CANN build, any run",
            "on an NPU.",
            "",
        ]
    )


def emit_input_grad_project(module: ModuleOp, hw: str, command: str, groups: int = 1) -> Project:
    """The project of an API-level dX module; ``command`` is what to quote as its origin. With
    ``groups`` above 1 the module is one group's (``runtime/input_grad.run_conv3d_input``
    compiles it so) and the project runs it once per group: the host launches it on each
    group's tensors, ``data.py`` lays them out per group."""
    host, launch, kernel = find_launch(module, dx.Conv3DBpInputCreateOp, "Conv3DBackpropInput")
    name, program = kernel.sym_name.data, host.sym_name.data
    for symbol in (name, program):
        if not C_IDENTIFIER.match(symbol):
            raise EmitError(f"function name '{symbol}' is not a C identifier")
    tiling = _init_tiling(kernel)
    din = tiling.single_core_din
    saved = row_walk_taps(tiling)
    files = {
        kernel_file(name, _OPTIONS.build): emit_input_grad_kernel(kernel, operands_line(launch)),
        HOST_FILE: emit_input_grad_host(host, launch, kernel, groups),
        CMAKE_FILE: emit_cmake(program, name, hw, _OPTIONS),
        README_FILE: _readme(program, name, launch, hw, command, din > 1, saved > 0)
        + group_note(groups, ("dy", "w"), "dx"),
    }
    script = emit_input_grad_data_script(host, groups)
    if script is not None:
        files[DATA_FILE] = script
    warnings: tuple[str, ...] = ()
    if saved:
        warnings += (ROW_WALK_WARNING.format(stride_h=tiling.stride_h, saved=saved, hk=tiling.hk),)
    return Project(name, files, warnings, _OPTIONS.build)
