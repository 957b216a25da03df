"""The kernel source of an API-level kernel function, one C++ statement per op.

``ascend.*`` calls become the ``Conv3DBackpropFilter`` member calls of the same name,
``arith`` ops C++ expressions, ``scf.for`` / ``scf.if`` ``for`` / ``if``, and the ``scf.while``
around ``ascend.iterate`` ``while (obj.Iterate())`` (docs/ascendc.md has the table). Part of
the emitter of ``emit/ascendc.py``.

The walk, the value names and the arith ops are the printer base's
(``ir/structured_printer.py``, which the compiled executor's Python translation is meant to
share); here are the C++ spellings (``CPP``), what C++ has no spelling for, and the API calls.
Nothing is folded: the kernel reads statement for statement as the API-level IR.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue

from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects.attributes import ConvTypeAttr
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.dialects.types import Conv3DBpFilterType, GmTensorType
from ascend_xdsl.emit.common import (
    BUILD_ASC,
    BUILD_LEGACY,
    C_IDENTIFIER,
    EmitError,
    banner,
    cpp_type,
    launcher_name,
    param_names,
)
from ascend_xdsl.ir.structured_printer import COMPARE, Language, StructuredPrinter, prints

_HELPERS: dict[str, str] = {
    "FloorDiv": (
        "// arith.floordivsi: the quotient rounded toward minus infinity (C++ '/' truncates).\n"
        "__aicore__ inline int64_t FloorDiv(int64_t a, int64_t b)\n"
        "{\n"
        "    const int64_t q = a / b;\n"
        "    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
        "}\n"
    ),
    "CeilDiv": (
        "// arith.ceildivsi: the quotient rounded toward plus infinity.\n"
        "__aicore__ inline int64_t CeilDiv(int64_t a, int64_t b)\n"
        "{\n"
        "    const int64_t q = a / b;\n"
        "    return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;\n"
        "}\n"
    ),
    "Min": "__aicore__ inline int64_t Min(int64_t a, int64_t b)\n{\n    return a < b ? a : b;\n}\n",
    "Max": "__aicore__ inline int64_t Max(int64_t a, int64_t b)\n{\n    return a > b ? a : b;\n}\n",
}

_OBJECT = "bpFilter"
_TILING = "tilingData"
# Names the kernel uses itself, and the C++ keywords an IR name hint could spell.
_RESERVED = {
    *("x", "dy", "dw", "tiling", _OBJECT, _TILING, "xGm", "dyGm", "dwGm"),
    *("dx", "dxGm", "gradInput", "Conv3DBpInput"),
    *("w", "y", "bias", "wGm", "yGm", "biasGm", "conv", "pipe", "Conv3D", "Conv3dApi"),
    *("ConvApi", "ConvCommonApi"),
    *("FloorDiv", "CeilDiv", "Min", "Max", "CopyTiling", "AscendC", "ConvBackpropApi"),
    *("auto", "bool", "break", "case", "char", "class", "const", "constexpr", "continue"),
    *("default", "delete", "do", "double", "else", "enum", "extern", "false", "float", "for"),
    *("goto", "if", "inline", "int", "long", "namespace", "new", "operator", "private"),
    *("public", "register", "return", "short", "signed", "sizeof", "static", "struct"),
    *("switch", "template", "this", "true", "typedef", "typename", "union", "unsigned"),
    *("using", "virtual", "void", "volatile", "while", "int64_t", "uint64_t", "uint32_t"),
}


def _conv_type_spelling(ct: ConvTypeAttr, namespace: str = "ConvBackpropApi") -> str:
    """The C++ ConvType of ``ct`` in the API's ``namespace`` (dW's; the forward's is ConvApi)."""
    return (
        f"{namespace}::ConvType<AscendC::TPosition::{ct.position.data}, "
        f"ConvCommonApi::ConvFormat::{ct.format.data}, {cpp_type(ct.element_type)}>"
    )


# C++ '/' and '%' truncate toward zero, as arith.divsi and arith.remsi do; the rounding ops
# that C++ has no operator for call the helpers of _HELPERS.
CPP = Language(
    binary={
        arith.AddiOp: "{a} + {b}",
        arith.SubiOp: "{a} - {b}",
        arith.MuliOp: "{a} * {b}",
        arith.DivSIOp: "{a} / {b}",
        arith.RemSIOp: "{a} % {b}",
        arith.FloorDivSIOp: "FloorDiv({a}, {b})",
        arith.CeilDivSIOp: "CeilDiv({a}, {b})",
        arith.MinSIOp: "Min({a}, {b})",
        arith.MaxSIOp: "Max({a}, {b})",
        arith.AndIOp: "{a} & {b}",
        arith.OrIOp: "{a} | {b}",
        arith.XOrIOp: "{a} ^ {b}",
    },
    boolean={
        arith.AndIOp: "{a} && {b}",
        arith.OrIOp: "{a} || {b}",
        arith.XOrIOp: "{a} != {b}",
        # MLIR's one-bit wrap: true + true = false, and true is -1 read signed.
        arith.AddiOp: "{a} != {b}",
        arith.SubiOp: "{a} != {b}",
        arith.MuliOp: "{a} && {b}",
        arith.MinSIOp: "{a} || {b}",
        arith.MaxSIOp: "{a} && {b}",
    },
    helpers={
        arith.FloorDivSIOp: "FloorDiv",
        arith.CeilDivSIOp: "CeilDiv",
        arith.MinSIOp: "Min",
        arith.MaxSIOp: "Max",
    },
    select="{c} ? {a} : {b}",
    true="true",
    false="false",
    negative="({n})",
    define="const int64_t {name} = {expr};",
    define_i1="const bool {name} = {expr};",
    prefix_i1="b",
    # The kernel reads statement for statement as the IR (docs/ascendc.md): nothing is folded.
    fold=False,
    hints=C_IDENTIFIER,
)


class _KernelWriter(StructuredPrinter):
    """One pass over the kernel function, one C++ statement per op."""

    LANGUAGE = CPP
    ITERATE: type[Operation] = api.IterateOp
    """The API's ``Iterate`` op, the one ``scf.while`` condition with a spelling (dW's here;
    dX's ``emit/input_grad.py`` sets its own)."""

    def __init__(self, kernel: func.FuncOp):
        params = param_names(kernel)
        super().__init__(taken={*_RESERVED, *params, *(f"{p}Gm" for p in params)})
        self.kernel = kernel
        self.where = f"@{kernel.sym_name.data}"
        self.params = params
        self.object_type: Conv3DBpFilterType | None = None
        self.tensors: dict[SSAValue, str] = {}

    def fail(self, op: Operation, why: str = "has no Ascend C spelling here") -> EmitError:
        return EmitError(f"{self.where}: {op.name} {why}")

    def unsupported(self, op: Operation) -> EmitError:
        return self.fail(op)

    def undefined(self, value: SSAValue) -> EmitError:
        return EmitError(f"{self.where}: a value is used before the emitter defined it")

    def obj(self, op: api._ObjectCall) -> str:
        return self.ref(op.obj)

    def tensor(self, value: SSAValue) -> str:
        if value not in self.tensors:
            raise EmitError(f"{self.where}: an API call reads a tensor that is not an argument")
        return self.tensors[value]

    # -- the walk --

    def write(self) -> list[str]:
        for arg, name in zip(self.kernel.args, self.params, strict=True):
            if not isinstance(arg.type, GmTensorType):
                raise EmitError(f"{self.where}: kernel argument {name} is not an !ascend.gm_tensor")
            t = cpp_type(arg.type.element_type)
            self.tensors[arg] = f"{name}Gm"
            self.out.emit(f"AscendC::GlobalTensor<{t}> {name}Gm;")
            self.out.emit(f"{name}Gm.SetGlobalBuffer(reinterpret_cast<__gm__ {t}*>({name}));")
        self.print_block(self.kernel.body.block)
        return self.out.lines

    def check_arith(self, op: Operation) -> None:
        if isinstance(op, arith.ConstantOp) and not isinstance(op.value, IntegerAttr):
            raise self.fail(op, "of a non-integer value has no Ascend C spelling here")
        if isinstance(op, arith.CmpiOp):
            predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            if predicate not in COMPARE:
                raise self.fail(
                    op, f"{predicate} (unsigned) has no spelling for signed index values"
                )

    # -- scf and func --

    def for_header(self, op: scf.ForOp, iv: str, lb: str, ub: str, step: str) -> None:
        self.out.emit(f"for (int64_t {iv} = {lb}; {iv} < {ub}; {iv} += {step}) {{")

    def if_header(self, op: scf.IfOp, cond: str) -> None:
        self.out.emit(f"if ({cond}) {{")

    def else_header(self, op: scf.IfOp) -> None:
        self.out.emit("} else {")

    def close_region(self, op: Operation) -> None:
        self.out.emit("}")

    def print_for(self, op: scf.ForOp) -> None:
        if op.iter_args:
            raise self.fail(op, "with iteration arguments has no Ascend C spelling here")
        super().print_for(op)

    def print_if(self, op: scf.IfOp) -> None:
        if op.results:
            raise self.fail(op, "with results has no Ascend C spelling here")
        super().print_if(op)

    def print_while(self, op: scf.WhileOp) -> None:
        before = list(op.before_region.ops)
        if (
            op.arguments
            or op.res
            or len(before) != 2
            or not isinstance(before[0], self.ITERATE)
            or not isinstance(before[1], scf.ConditionOp)
            or before[1].condition != before[0].results[0]
            or before[1].args
        ):
            raise self.fail(op, "other than `while (Iterate())` has no Ascend C spelling here")
        obj = self.ref(before[0].operands[0])
        self.out.emit(f"while ({obj}.Iterate()) {{")
        with self.out.indented():
            self.print_block(op.after_region.block)
        self.close_region(op)
        # The Iterate doc: set isFirstIter_ once a single shape is done, before the next one's
        # Set* calls (the IR's set_* ops start a new single shape). dX's Iterate clears it the
        # same way and only Init sets it again (conv3d_bp_input_func.h, _init_func.h); no
        # public call of Conv3DBpInputIntf resets it between dX's per-depth series (Init is
        # once only, IterateAll is not in the interface), so the kernel sets the public ctx.
        self.out.emit(f"{obj}.ctx.isFirstIter_ = true;")

    def print_yield(self, op: scf.YieldOp, targets: Sequence[str]) -> None:
        if op.operands:
            raise self.fail(op, "with values has no Ascend C spelling here")

    def print_return(self, op: func.ReturnOp) -> None:
        if op.operands:
            raise self.fail(op, "with values: a kernel returns nothing")

    # -- the kernel's own ops --

    @prints(arith.IndexCastOp)
    def _index_cast(self, op: arith.IndexCastOp) -> None:
        if not isinstance(op.result.type, IndexType | IntegerType):
            raise self.fail(op)
        self.alias(op.result, op.input)

    @prints(GetBlockIdxOp)
    def _block_idx(self, op: GetBlockIdxOp) -> None:
        self.define(op.result, "AscendC::GetBlockIdx()")

    def declare_object(
        self, op: Operation, current: object, what: str, cpp_class: str, name: str = _OBJECT
    ) -> None:
        """Declare the one API object ``op`` creates, a C++ ``cpp_class`` called ``name``;
        ``current`` is the object type already seen (a second create is refused, naming
        ``what``)."""
        if current is not None:
            raise self.fail(op, f"twice: the emitter writes one {what} object")
        self.names[op.results[0]] = name
        self.out.emit(f"{cpp_class} {name};")

    @prints(api.CreateOp)
    def _create(self, op: api.CreateOp) -> None:
        self.declare_object(op, self.object_type, "Conv3DBackpropFilter", "Conv3DBpFilter")
        assert isinstance(op.result.type, Conv3DBpFilterType)
        self.object_type = op.result.type

    @prints(api.InitOp)
    def _init(self, op: api.InitOp) -> None:
        # The host filled tilingData with this op's #ascend.dw_tiling (main.cpp, FillTiling).
        self.out.emit(f"{self.obj(op)}.Init(&{_TILING}.dwTiling);")

    @prints(api.SetGradOutputOp)
    def _set_grad_output(self, op: api.SetGradOutputOp) -> None:
        self.out.emit(
            f"{self.obj(op)}.SetGradOutput({self.tensor(op.tensor)}[{self.ref(op.offset)}]);"
        )

    @prints(api.SetInputOp)
    def _set_input(self, op: api.SetInputOp) -> None:
        self.out.emit(f"{self.obj(op)}.SetInput({self.tensor(op.tensor)}[{self.ref(op.offset)}]);")

    @prints(api.SetSingleShapeOp)
    def _set_single_shape(self, op: api.SetSingleShapeOp) -> None:
        m, n, k = (self.ref(v) for v in (op.m, op.n, op.k))
        self.out.emit(f"{self.obj(op)}.SetSingleShape({m}, {n}, {k});")

    @prints(api.SetStartPositionOp)
    def _set_start_position(self, op: api.SetStartPositionOp) -> None:
        self.out.emit(f"{self.obj(op)}.SetStartPosition({self.ref(op.ho_start)});")

    @prints(api.GetTensorCOp)
    def _get_tensor_c(self, op: api.GetTensorCOp) -> None:
        atomic = 1 if op.atomic is not None else 0
        target = f"{self.tensor(op.tensor)}[{self.ref(op.offset)}]"
        self.out.emit(f"{self.obj(op)}.GetTensorC({target}, {atomic});")

    @prints(api.EndOp)
    def _end(self, op: api.EndOp) -> None:
        self.out.emit(f"{self.obj(op)}.End();")

    @prints(api.IterateOp)
    def _iterate(self, op: api.IterateOp) -> None:
        raise self.fail(op, "outside `scf.while` has no Ascend C spelling here")


def _signature(name: str, params: list[str], build: str) -> list[str]:
    """The kernel's declaration and first statements: a pure-Cube kernel either way."""
    args = ", ".join(f"GM_ADDR {p}" for p in params)
    if build == BUILD_LEGACY:
        # 设置Kernel类型.md pairs pure-Cube logic with KERNEL_TYPE_AIC_ONLY; a MIX type would
        # need a workspace, and this kernel has no cross-core synchronisation.
        return [
            f'extern "C" __global__ __aicore__ void {name}({args}, GM_ADDR tiling)',
            "{",
            "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);",
        ]
    # The .asc examples mark a pure-Cube kernel __cube__ (hicann/asc-devkit examples/
    # 01_simd_cpp_api/04_advanced_api/00_matmul/matmul/matmul.asc).
    return [f"__global__ __cube__ void {name}({args}, GM_ADDR tiling)", "{"]


def _launcher(name: str, params: list[str]) -> list[str]:
    """The host function the ``.asc`` build's ``main.cpp`` calls: the ``<<<>>>`` launch."""
    args = "".join(f", uint8_t* {p}" for p in params)
    operands = ", ".join([*params, "tiling"])
    return [
        "",
        "// The launch main.cpp calls: the kernel on blockDim cores, in the stream.",
        f"void {launcher_name(name)}(uint32_t blockDim, aclrtStream stream{args}, uint8_t* tiling)",
        "{",
        f"    {name}<<<blockDim, nullptr, stream>>>({operands});",
        "}",
        "",
    ]


def emit_kernel(kernel: func.FuncOp, problem: str, build: str) -> str:
    """The kernel source of the API-level kernel function ``kernel``."""
    writer = _KernelWriter(kernel)
    body = writer.write()
    if writer.object_type is None:
        raise EmitError(f"@{kernel.sym_name.data} has no ascend.create: nothing calls the API")
    ot = writer.object_type
    aliases = [
        ("InputType", ot.input),
        ("WeightSizeType", ot.weight_size),
        ("GradOutputType", ot.grad_output),
        ("GradWeightType", ot.grad_weight),
    ]
    name = kernel.sym_name.data
    lines = [
        *banner("Conv3DBackpropFilter kernel", problem),
        "",
        *(['#include "acl/acl.h"'] if build != BUILD_LEGACY else []),
        '#include "kernel_operator.h"',
        '#include "kernel_tiling/kernel_tiling.h"',
        '#include "lib/conv_backprop/conv3d_bp_filter_api.h"',
        "",
        "// The operands of the API object (!ascend.conv3d_bp_filter<...>).",
        *(f"using {alias} = {_conv_type_spelling(ct)};" for alias, ct in aliases),
        "using Conv3DBpFilter =",
        "    ConvBackpropApi::Conv3DBackpropFilter<InputType, WeightSizeType, GradOutputType, "
        "GradWeightType>;",
        "",
        "namespace {",
        "",
        "// The host's Conv3DBackpropFilterTilingData, copied word by word from GM.",
        "__aicore__ inline void CopyTiling(Conv3DBackpropFilterTilingData* dst, GM_ADDR src)",
        "{",
        "    const __gm__ uint32_t* from = reinterpret_cast<const __gm__ uint32_t*>(src);",
        "    uint32_t* to = reinterpret_cast<uint32_t*>(dst);",
        "    for (uint32_t i = 0; i < sizeof(Conv3DBackpropFilterTilingData) / sizeof(uint32_t); "
        "++i) {",
        "        to[i] = from[i];",
        "    }",
        "}",
        "",
        *(line for h in sorted(writer.used_helpers) for line in [*_HELPERS[h].splitlines(), ""]),
        "}  // namespace",
        "",
        *_signature(name, writer.params, build),
        f"    Conv3DBackpropFilterTilingData {_TILING};",
        f"    CopyTiling(&{_TILING}, tiling);",
        *body,
        "}",
        *(_launcher(name, writer.params) if build != BUILD_LEGACY else [""]),
    ]
    return "\n".join(lines)


def object_kernel_source(
    writer: _KernelWriter,
    body: Sequence[str],
    *,
    head: list[str],
    header: str,
    aliases: Sequence[tuple[str, ConvTypeAttr]],
    namespace: str,
    object_type: str,
    tiling_type: str,
    preamble: Sequence[str] = (),
) -> str:
    """The ``.asc`` source of a kernel whose ``writer`` has walked it into ``body``, for an
    API whose object is made of ConvTypes (the forward's ``emit/forward.py``, dX's
    ``emit/input_grad.py``):
    the banner ``head``, the API's ``header``, the ConvType ``aliases`` in the API's
    ``namespace`` and ``using <object_type>``, the host's ``tiling_type`` copied word by word
    from GM, the helpers, the kernel (its ``preamble`` before the walked body) and its
    ``<<<>>>`` launch."""
    name = writer.kernel.sym_name.data
    lines = [
        *head,
        "",
        '#include "acl/acl.h"',
        '#include "kernel_operator.h"',
        '#include "kernel_tiling/kernel_tiling.h"',
        f'#include "{header}"',
        "",
        "// The operands of the API object.",
        *(f"using {alias} = {_conv_type_spelling(t, namespace)};" for alias, t in aliases),
        f"using {object_type};",
        "",
        "namespace {",
        "",
        f"// The host's {tiling_type}, copied word by word from GM.",
        f"__aicore__ inline void CopyTiling({tiling_type}* dst, GM_ADDR src)",
        "{",
        "    const __gm__ uint32_t* from = reinterpret_cast<const __gm__ uint32_t*>(src);",
        "    uint32_t* to = reinterpret_cast<uint32_t*>(dst);",
        f"    for (uint32_t i = 0; i < sizeof({tiling_type}) / sizeof(uint32_t); ++i) {{",
        "        to[i] = from[i];",
        "    }",
        "}",
        "",
        *(line for h in sorted(writer.used_helpers) for line in [*_HELPERS[h].splitlines(), ""]),
        "}  // namespace",
        "",
        *_signature(name, writer.params, BUILD_ASC),
        f"    {tiling_type} {_TILING};",
        f"    CopyTiling(&{_TILING}, tiling);",
        *(f"    {line}" for line in preamble),
        *body,
        "}",
        *_launcher(name, writer.params),
    ]
    return "\n".join(lines)
