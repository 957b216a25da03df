"""Ascend C for the forward convolution: the API-level ``Conv3D`` kernel as a CANN project.

``ascend-conv forward --emit ascendc -o DIR`` writes what ``emit/ascendc.py`` writes for dW,
for the forward kernel and with the same parts: the kernel statement for statement
(``emit/kernel.py``'s walk, with the ``Conv3D`` calls added here: ``Conv3dApi::Conv3D<INPUT,
WEIGHT, OUTPUT>``, ``Init``, ``SetWeight``, ``SetBias``, ``SetInputStartPosition``,
``SetSingleOutputShape``, ``SetInput``, ``IterateAll``, ``End``), the host program
(``emit/host.py``'s plan, copies and launch; a grouped layer's kernel is one group's, launched
once per group), the CMake build (``emit/files.py``), a README and a ``data.py`` that makes x
and the weight and checks y.

The host fills the vendor's tiling structure ``TConv3DApiTiling`` (hicann/asc-devkit
``include/adv_api/conv/conv3d/conv3d_tilingdata.h``; kernel side
``AscendC::tiling::TConv3DApiTiling``) from the kernel's ``#ascend.conv3d_tiling``: every
field the attribute holds, the L0 tile and the L1 tiling (``kAL1``, ``kBL1``, ``mAL1``,
``nBL1``, their tails and ratios, the full-load and bypass flags, ``iterateMNOrder``), and the
products and constants the vendor's ``SetFinalTilingBasicInfo`` / ``SetFinalTilingDecisionInfo``
derive (``orgHoxWo``, ``nL0xk0``, ``cinOpt`` ...). The docs support only the tiling
``GetTiling`` returns: the heuristic's tiling is that tiling (``passes/conv3d_tiling_heuristic.py``
reproduces the vendor's tiler for one core's single shape), and the emission warns, naming the
fields, when the kernel's tiling is another (a tuned or hand-written one).

``Iterate`` and ``GetTensorC`` are private members of ``Conv3dIntf`` (``conv3d_intf.h``): a
kernel calls ``IterateAll``, and IR that iterates tile by tile has no spelling here.

Sources: hicann/asc-devkit ``include/adv_api/conv/conv3d/conv3d_{api,intf,config}.h``,
``conv3d_tilingdata.h``, ``impl/adv_api/tiling/conv/conv3d_tiling_base.cpp`` (the derived
fields), the docs ``Conv3D-Kernel侧接口/Conv3D使用说明.md`` (the call sequence, the aliases) and
``Init-101.md`` (a ``TPipe`` before ``Init``).
"""

from __future__ import annotations

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects import api_conv3d as fwd
from ascend_xdsl.dialects.attributes import ConvTypeAttr
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import FRACTAL, ceil_div
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.dialects.types import Conv3DApiType, GmTensorType
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
from ascend_xdsl.emit.files import emit_cmake, emit_forward_data_script, forward_data_note
from ascend_xdsl.emit.host import (
    _host_plan,
    _main_body,
    _main_cpp,
)
from ascend_xdsl.emit.kernel import _KernelWriter, object_kernel_source
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.ir.structured_printer import prints
from ascend_xdsl.passes.conv3d_tiling_heuristic import vendor_tiling_of

TILING_TYPE = "AscendC::tiling::TConv3DApiTiling"
"""The structure the kernel's ``Init`` reads (conv3d_tilingdata.h, as kernel_tiling.h has it)."""

_OBJECT = "conv"
_OPTIONS = EmitOptions(host_tiling=HOST_TILING_FIXED)
"""The forward host fills the tiling from the IR; the build is the default ``.asc`` one."""

_VENDOR_NAMES = {
    "pbuffer_flag": "pBufferFlag",
    "k_al1": "kAL1",
    "k_al1_tail": "kAL1Tail",
    "k_bl1": "kBL1",
    "k_bl1_tail": "kBL1Tail",
    "n_bl1": "nBL1",
    "m_al1": "mAL1",
    "k_bl1_div_k0": "kBL1DivK0",
    "k_bl1_tail_div_k0": "kBL1TailDivK0",
    "n_bl1_div_n_l0": "nBL1DivnL0",
    "m_al1_div_m_l0": "mAL1DivmL0",
    "cin1_in_al1": "cin1InAL1",
    "cin1_in_al1_tail": "cin1InAL1Tail",
    "iterate_mn_order": "iterateMNOrder",
}
"""``Conv3DTiling`` fields whose vendor name is not their camelCase."""

CORE_SPLIT = ("batch", "batch_dim", "do_dim", "co_dim", "m_dim")
"""``Conv3DTiling`` fields of the project's multi-core split: not in ``TConv3DApiTiling``."""

L1_DECISION = (
    *("kAL1", "kAL1Tail", "kBL1", "kBL1Tail", "nBL1", "mAL1", "kBL1DivK0", "kBL1TailDivK0"),
    *("nBL1DivnL0", "mAL1DivmL0", "cin1InAL1", "cin1InAL1Tail", "bl1FullLoad", "al1FullLoad"),
    *("bl1BypassFlag", "iterateMNOrder", "biasFullLoadFlag", "fixpParamsFullLoadFlag"),
)
"""The vendor L1 tiler's fields (``SetFinalTilingDecisionInfo``), filled from the attribute
(``fixpParamsFullLoadFlag``: 0, the vendor's constant)."""


def not_vendor_warning(t: Conv3DTiling, vendor: Conv3DTiling) -> str | None:
    """The warning of a kernel tiling ``t`` that is not the vendor's ``vendor`` (the tiling
    ``GetTiling`` returns for ``t``'s single-core shape), naming the fields that differ; None
    when it is the vendor's."""
    differ = [
        f"{vendor_name(f)} {v} (GetTiling: {getattr(vendor, f)})"
        for f, v in t.as_dict().items()
        if f not in CORE_SPLIT and getattr(vendor, f) != v
    ]
    if not differ:
        return None
    return (
        "the forward host fills TConv3DApiTiling from the compiler's #ascend.conv3d_tiling, "
        "which is not the tiling Conv3dTilingApi::Conv3dTiling::GetTiling returns for its "
        f"single-core shape ({', '.join(differ)}); the docs support only that tiling"
    )


def vendor_name(field: str) -> str:
    """The ``TConv3DApiTiling`` name of a ``Conv3DTiling`` field: ``org_do`` -> ``orgDo``."""
    return _VENDOR_NAMES.get(field, camel_case(field))


def tiling_values(t: Conv3DTiling) -> dict[str, int]:
    """Every ``TConv3DApiTiling`` field the host sets, by vendor name: the attribute's own
    fields, and the products ``conv3d_tiling_base.cpp`` derives from them (k0 = 16 for half
    and bfloat16_t; a group's Cin1 for ``cin1xOriHixOriWixk0``)."""
    values = {vendor_name(f): v for f, v in t.as_dict().items() if f not in CORE_SPLIT}
    k0 = FRACTAL
    cin1 = t.cin1_g  # the vendor's singleCi1
    values |= {
        "orgHixWi": t.org_hi * t.org_wi,
        "orgHoxWo": t.org_ho * t.org_wo,
        "cin1xOriHixOriWixk0": cin1 * t.org_hi * t.org_wi * k0,
        "oriHixOriWixk0": t.org_hi * t.org_wi * k0,
        "oriWixk0": t.org_wi * k0,
        "kernelHxkernelW": t.kernel_h * t.kernel_w,
        "nL0xk0": t.n_l0 * k0,
        "kL0xorgCoAlignN0": t.k_l0 * ceil_div(t.org_co, FRACTAL) * FRACTAL,
        "groupOpt": 1,
        # SetOrgInputShape / SetOrgWeightShape: cinOpt = orgCi, coutOpt = orgCo.
        "cinOpt": t.org_ci,
        "coutOpt": t.org_co,
        "fixpParamsFullLoadFlag": 0,
    }
    return values


class _ForwardKernelWriter(_KernelWriter):
    """The dW kernel's walk with the ``Conv3D`` object's calls."""

    def __init__(self, kernel: func.FuncOp):
        super().__init__(kernel)
        self.conv_type: Conv3DApiType | None = None

    def print_while(self, op: scf.WhileOp) -> None:
        raise self.fail(op, "has no spelling: Iterate is private in conv3d_intf.h (IterateAll)")

    @prints(fwd.Conv3DCreateOp)
    def _conv_create(self, op: fwd.Conv3DCreateOp) -> None:
        self.declare_object(op, self.conv_type, "Conv3D", "Conv3D", _OBJECT)
        assert isinstance(op.result.type, Conv3DApiType)
        self.conv_type = op.result.type

    @prints(fwd.Conv3DInitOp)
    def _conv_init(self, op: fwd.Conv3DInitOp) -> None:
        # The host filled tilingData with this op's #ascend.conv3d_tiling (main.cpp).
        self.out.emit(f"{self.ref(op.obj)}.Init(&tilingData);")

    def _tensor_call(self, op: fwd._Conv3DTensorCall, member: str) -> None:
        target = f"{self.tensor(op.tensor)}[{self.ref(op.offset)}]"
        self.out.emit(f"{self.ref(op.obj)}.{member}({target});")

    @prints(fwd.Conv3DSetInputOp)
    def _conv_set_input(self, op: fwd.Conv3DSetInputOp) -> None:
        self._tensor_call(op, "SetInput")

    @prints(fwd.Conv3DSetWeightOp)
    def _conv_set_weight(self, op: fwd.Conv3DSetWeightOp) -> None:
        self._tensor_call(op, "SetWeight")

    @prints(fwd.Conv3DSetBiasOp)
    def _conv_set_bias(self, op: fwd.Conv3DSetBiasOp) -> None:
        self._tensor_call(op, "SetBias")

    @prints(fwd.Conv3DIterateAllOp)
    def _conv_iterate_all(self, op: fwd.Conv3DIterateAllOp) -> None:
        self._tensor_call(op, "IterateAll")

    @prints(fwd.Conv3DSetSingleOutputShapeOp)
    def _conv_single_shape(self, op: fwd.Conv3DSetSingleOutputShapeOp) -> None:
        co, do, m = (self.ref(v) for v in (op.co, op.do, op.m))
        self.out.emit(f"{self.ref(op.obj)}.SetSingleOutputShape({co}, {do}, {m});")

    @prints(fwd.Conv3DSetInputStartPositionOp)
    def _conv_start(self, op: fwd.Conv3DSetInputStartPositionOp) -> None:
        di, m = self.ref(op.di_start), self.ref(op.m_start)
        self.out.emit(f"{self.ref(op.obj)}.SetInputStartPosition({di}, {m});")

    @prints(fwd.Conv3DEndOp)
    def _conv_end(self, op: fwd.Conv3DEndOp) -> None:
        self.out.emit(f"{self.ref(op.obj)}.End();")

    @prints(fwd.Conv3DIterateOp, fwd.Conv3DGetTensorCOp)
    def _conv_private(self, op: fwd.Conv3DIterateOp) -> None:
        raise self.fail(op, "has no spelling: it is private in conv3d_intf.h (IterateAll)")


_BIAS_NOTE = (
    "`bias.bin` holds the bias (Cout,) in ND, the input's type as `SetBias`'s doc lists it",
    "(half, bfloat16_t): the values, then zeros to a whole 64-byte block.",
)


def _has_bias(launch: LaunchOp) -> bool:
    """Whether the launch passes a bias: x, w, bias, y."""
    return sum(isinstance(a.type, GmTensorType) for a in launch.args) == 4


def operands_line(launch: LaunchOp) -> str:
    """The launch's tensors: x, w, y, or with a bias x, w, bias, y (the launch's order)."""
    tensors = [a.type for a in launch.args if isinstance(a.type, GmTensorType)]
    names = ("x", "w", "bias", "y") if _has_bias(launch) else ("x", "w", "y")
    return ", ".join(f"{name} {describe_tensor(t)}" for name, t in zip(names, tensors, strict=True))


def emit_forward_kernel(kernel: func.FuncOp, problem: str) -> str:
    """The ``.asc`` source of the API-level forward kernel function ``kernel``."""
    writer = _ForwardKernelWriter(kernel)
    body = writer.write()
    ct = writer.conv_type
    if ct is None:
        raise EmitError(
            f"@{kernel.sym_name.data} has no ascend.conv3d_create: nothing calls the API"
        )
    aliases = [("InputType", ct.input), ("WeightType", ct.weight), ("OutputType", ct.output)]
    if isinstance(ct.bias, ConvTypeAttr):
        aliases.append(("BiasType", ct.bias))
    return object_kernel_source(
        writer,
        body,
        head=banner("Conv3D (forward) kernel", problem, "forward"),
        header="lib/conv/conv3d/conv3d_api.h",
        aliases=aliases,
        namespace="ConvApi",
        object_type=f"Conv3D = Conv3dApi::Conv3D<{', '.join(a for a, _ in aliases)}>",
        tiling_type=TILING_TYPE,
        # Init's doc: the TPipe is made before Init, which takes its buffers from it.
        preamble=("AscendC::TPipe pipe;",),
    )


def _fill_tiling(t: Conv3DTiling) -> list[str]:
    values = tiling_values(t)
    split = ", ".join(f"{f} {getattr(t, f)}" for f in CORE_SPLIT)
    return [
        "// The #ascend.conv3d_tiling of the kernel's ascend.conv3d_init, as TConv3DApiTiling",
        "// (conv3d_tilingdata.h): its fields and the products the vendor's tiler derives from",
        "// them, the L0 tile and the L1 tiling (kAL1, kBL1, mAL1, nBL1, ...) included.",
        f"// The core split behind the launch's block count: {split}.",
        f"void FillTiling({TILING_TYPE}& t)",
        "{",
        *(f"    t.{n} = {v};" for n, v in values.items()),
        "}",
    ]


def emit_forward_host(
    host: func.FuncOp, launch: LaunchOp, kernel: func.FuncOp, groups: int = 1
) -> str:
    """``main.cpp`` of the forward module: read x and w, allocate y, fill the tiling, launch
    (once per group of a grouped layer, ``host`` being one group's), write y."""
    init = next((op for op in kernel.walk() if isinstance(op, fwd.Conv3DInitOp)), None)
    if init is None:
        raise EmitError(
            f"@{kernel.sym_name.data} has no ascend.conv3d_init: there is no tiling to pass"
        )
    plan = _host_plan(host, launch, kernel)
    name = kernel.sym_name.data
    body = _main_body(
        plan,
        name,
        launch.blocks.value.data,
        _OPTIONS,
        TILING_TYPE,
        empty_note="uninitialised (no aclrtMemset): the kernel's IterateAll writes every "
        "element of y.",
        groups=groups,
    )
    head = banner("Conv3D (forward) host program", operands_line(launch), "forward")
    return _main_cpp(head, host, kernel, _OPTIONS, _fill_tiling(init.tiling.tiling), body)


def _readme(
    program: str, kernel_name: str, launch: LaunchOp, hw: str, command: str, warning: str | None
) -> str:
    kernel = kernel_file(kernel_name, _OPTIONS.build)
    if warning is None:
        whose = [
            "This is the tiling `Conv3dTilingApi::Conv3dTiling::GetTiling` returns for the",
            "kernel's single-core shape (ascend-xdsl reproduces the vendor's tiler), the only",
            "one the docs support.",
        ]
    else:
        whose = [
            "**It is not the tiling `Conv3dTilingApi::Conv3dTiling::GetTiling` returns** for",
            f"the kernel's single-core shape: {warning.split('single-core shape (')[1]}.",
            "Take the vendor's from `GetTiling` to stay within what the docs support.",
        ]
    return "\n".join(
        [
            f"# {program}: a Conv3D (forward) kernel for {soc_version(hw)}",
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
            "  `Conv3dApi::Conv3D` calls), and its `<<<>>>` launch.",
            f"* `{HOST_FILE}`: the host program.",
            f"* `{CMAKE_FILE}`: the build, the `find_package(ASC)` flow of the current asc-devkit",
            "  examples.",
            "",
            "## Tiling",
            "",
            f"`{HOST_FILE}` fills `TConv3DApiTiling` (`FillTiling`) with the compiler's",
            "`#ascend.conv3d_tiling`: the problem, the single-core shape, the L0 tile",
            "(`mL0`/`kL0`/`nL0`), `pBufferFlag`, the L1 tiling (`kAL1`, `kBL1`, `mAL1`, `nBL1`,",
            "their tails and ratios, the full-load and bypass flags, `iterateMNOrder`) and the",
            "products the vendor's tiler derives from them.",
            *whose,
            "",
            "## Build on a machine with CANN",
            "",
            "    source <CANN>/set_env.sh   # sets ASCEND_HOME_PATH",
            "    cmake -B build && cmake --build build -j",
            f"    ./build/{program} DATA_DIR",
            "",
            "DATA_DIR holds `x.bin` (NDC1HWC0) and `w.bin` (FRACTAL_Z_3D), raw arrays already in",
            "the device layout, the channels padded to a multiple of 16 with zeros; the program",
            "writes `y.bin` in NDC1HWC0. The sizes are the `k*Bytes` constants at the top of",
            f"`main` in `{HOST_FILE}`.",
            *(_BIAS_NOTE if _has_bias(launch) else ()),
            "",
            "## What was checked, and what was not",
            "",
            "`ascend-conv check-ascendc DIR` compiles both sources with `g++ -std=c++17",
            "-fsyntax-only` against declaration headers that ascend-xdsl ships, written from the",
            "Conv3D API's headers (or, with `--cann DIR`, against a CANN tree's): names, types",
            "and call shapes, nothing more. The API-level IR this was written from is what",
            "ascend-xdsl's simulator runs and checks against a reference y (the same",
            "`ascend-conv forward` flags without `--emit`). Not checked: a CANN build, any run",
            "on an NPU.",
            "",
        ]
    )


def emit_forward_project(module: ModuleOp, hw: str, command: str, groups: int = 1) -> Project:
    """The project of an API-level forward module; ``command`` is what to quote as its
    origin. With ``groups`` above 1 the module is one group's (``runtime/forward.run_conv3d``
    compiles it so) and the host launches it once per group."""
    host, launch, kernel = find_launch(module, fwd.Conv3DCreateOp, "Conv3D")
    name, program = kernel.sym_name.data, host.sym_name.data
    for symbol in (name, program):
        if not C_IDENTIFIER.match(symbol):
            raise EmitError(f"function name '{symbol}' is not a C identifier")
    files = {
        kernel_file(name, _OPTIONS.build): emit_forward_kernel(kernel, operands_line(launch)),
        HOST_FILE: emit_forward_host(host, launch, kernel, groups),
        CMAKE_FILE: emit_cmake(program, name, hw, _OPTIONS),
    }
    init = next(op for op in kernel.walk() if isinstance(op, fwd.Conv3DInitOp))
    create = next(op for op in kernel.walk() if isinstance(op, fwd.Conv3DCreateOp))
    ct = create.result.type
    assert isinstance(ct, Conv3DApiType)
    t = init.tiling.tiling
    vendor = vendor_tiling_of(
        t, load_hw(hw), str(ct.input.element_type), isinstance(ct.bias, ConvTypeAttr)
    )
    warning = not_vendor_warning(t, vendor)
    files[README_FILE] = (
        _readme(program, name, launch, hw, command, warning)
        + forward_data_note(program, groups > 1, _has_bias(launch))
        + group_note(groups, ("x", "w", "bias") if _has_bias(launch) else ("x", "w"), "y")
    )
    script = emit_forward_data_script(host, groups)
    if script is not None:
        files[DATA_FILE] = script
    return Project(name, files, () if warning is None else (warning,), _OPTIONS.build)
