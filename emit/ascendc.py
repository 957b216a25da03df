"""Ascend C from the API-level IR: the kernel, the host program and a CMake project for CANN.

The API level of the IR is the Ascend C ``Conv3DBackpropFilter`` API call for call
(``dialects/api_level.py``), so the compiler can write the source a CANN user would otherwise
write by hand. :func:`emit_project` walks an API-level module and returns the project's files:

* ``<kernel>.cpp`` — the ``func.func`` with ``ascend.kernel``, statement for statement: the
  ``ConvType<TPosition, ConvFormat, T>`` of each operand and the ``Conv3DBackpropFilter`` alias
  from the object's type, one ``GlobalTensor`` per kernel argument, ``ascend.get_block_idx`` as
  ``AscendC::GetBlockIdx()``, each ``arith`` op as one C++ expression, ``scf.for`` / ``scf.if``
  as ``for`` / ``if``, the ``scf.while`` around ``ascend.iterate`` as
  ``while (obj.Iterate()) { ... }`` and every other ``ascend.*`` call as the member call of the
  same name (``Init``, ``SetGradOutput``, ``SetInput``, ``SetSingleShape``,
  ``SetStartPosition``, ``GetTensorC`` with ``enAtomic``, ``End``);
* ``main.cpp`` — the host ``func.func``: the ``ascend.trans_data`` inputs read from files, the
  ``ascend.alloc_gm`` as a zeroed device buffer, and the ``ascend.launch`` as the tiling
  structure filled field by field from the ``#ascend.dw_tiling`` of the kernel's ``ascend.init``
  and an ``ACLRT_LAUNCH_KERNEL`` with the launch's block count;
* ``CMakeLists.txt`` laid out as the vendor's kernel-invocation samples (``ascendc_library`` for
  the kernel, an executable linked against it and ``ascendcl``), a ``README.md``, and
  ``data.py``, which makes the host's input files and checks its output file with this
  package's layouts and reference check (for the problem the launch's ``ascend.conv`` names).

Every number in the emitted code comes from the IR (the tiling attribute, the constants, the
tensor types, the block count) or from the hardware description (``params.totalL1Size``, the
SoC name); the templates here hold only the fixed parts of the API. IR the emitter has no
spelling for is an :class:`EmitError` naming the op and the function it is in.

Sources: hicann/asc-devkit ``include/adv_api/conv_backprop/conv3d_bp_filter_intf.h`` (member
signatures), ``docs/zh/api/SIMD-API/高阶API/卷积计算/.../Conv3DBackpropFilter使用说明.md`` (the
call sequence, the ``ConvType`` aliases, ``Init(&tilingData->dwTiling)``), ``Iterate`` doc (the
``ctx.isFirstIter_`` reset between single shapes), ``kernel_tiling/kernel_tiling.h`` (the
``AscendC::tiling`` structs).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import ClassVar

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects import formats
from ascend_xdsl.dialects.attributes import ConvTypeAttr, element_type_name
from ascend_xdsl.dialects.conv_shape import C0
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.enums import ConvFormat
from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.dialects.launch import AllocGmOp, LaunchOp
from ascend_xdsl.dialects.types import Conv3DBpFilterType, GmTensorType
from ascend_xdsl.runtime.program import conv_problem

HOST_FILE = "main.cpp"
CMAKE_FILE = "CMakeLists.txt"
README_FILE = "README.md"
DATA_FILE = "data.py"


class EmitError(Exception):
    """API-level IR that has no Ascend C spelling here (the message names the op and where)."""


@dataclass(frozen=True)
class Project:
    """The emitted files, by path relative to the project folder."""

    kernel_name: str
    files: dict[str, str]

    @property
    def kernel_file(self) -> str:
        return f"{self.kernel_name}.cpp"


# --------------------------------------------------------------------------------------------
# Names shared by the kernel and the host
# --------------------------------------------------------------------------------------------

_CPP_TYPES: dict[str, str] = {"f16": "half", "bf16": "bfloat16_t", "f32": "float", "i32": "int32_t"}

_FIELDS = DwTiling.field_names()
_TILING_STRUCT_FIELDS = _FIELDS[: _FIELDS.index("single_core_cin") + 1]
"""The fields of ``TConv3DBpFilterTiling``, in order: every ``DwTiling`` field up to
``single_core_cin``; the operator-level core split and the basic block follow them."""

_BASIC_BLOCK_FIELDS = ("single_core_m", "single_core_n", "single_core_k")
_CORE_SPLIT_FIELDS = tuple(f.name for f in fields(DwTiling) if f.name.endswith("_dim"))


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
    raise EmitError(f"no storage layout for a GM tensor in {t.conv_format}")


def physical_bytes(t: GmTensorType) -> int:
    return physical_elements(t) * _element_bytes(t.element_type)


def soc_version(hw: str) -> str:
    """The CANN SoC name of a hardware description: ``atlas-a2-910b2`` -> ``Ascend910B2``."""
    m = re.search(r"(910b\d)$", hw)
    if m is None:
        raise EmitError(f"no CANN SoC name is known for the hardware '{hw}'")
    return f"Ascend{m.group(1).upper()}"


def _kernel_roles(kernel: func.FuncOp) -> dict[SSAValue, str]:
    """Kernel arguments by the API call that reads them: x, dy, dw."""
    roles: dict[SSAValue, str] = {}
    for op in kernel.walk():
        if isinstance(op, api.SetInputOp):
            roles.setdefault(op.tensor, "x")
        elif isinstance(op, api.SetGradOutputOp):
            roles.setdefault(op.tensor, "dy")
        elif isinstance(op, api.GetTensorCOp):
            roles.setdefault(op.tensor, "dw")
    return roles


def _param_names(kernel: func.FuncOp) -> list[str]:
    roles = _kernel_roles(kernel)
    names = [roles.get(arg, f"arg{i}") for i, arg in enumerate(kernel.args)]
    if len(set(names)) != len(names):
        raise EmitError(f"@{kernel.sym_name.data}: one tensor is passed as two API operands")
    return names


# --------------------------------------------------------------------------------------------
# The kernel
# --------------------------------------------------------------------------------------------

_BINARY: dict[type[Operation], str] = {
    arith.AddiOp: "{a} + {b}",
    arith.SubiOp: "{a} - {b}",
    arith.MuliOp: "{a} * {b}",
    # C++ '/' and '%' truncate toward zero, as arith.divsi and arith.remsi do.
    arith.DivSIOp: "{a} / {b}",
    arith.RemSIOp: "{a} % {b}",
    arith.FloorDivSIOp: "FloorDiv({a}, {b})",
    arith.CeilDivSIOp: "CeilDiv({a}, {b})",
    arith.MinSIOp: "Min({a}, {b})",
    arith.MaxSIOp: "Max({a}, {b})",
}

_CMPI = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}

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
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Names the kernel uses itself, and the C++ keywords an IR name hint could spell.
_RESERVED = {
    *("x", "dy", "dw", "tiling", _OBJECT, _TILING, "xGm", "dyGm", "dwGm"),
    *("FloorDiv", "CeilDiv", "Min", "Max", "CopyTiling", "AscendC", "ConvBackpropApi"),
    *("auto", "bool", "break", "case", "char", "class", "const", "constexpr", "continue"),
    *("default", "delete", "do", "double", "else", "enum", "extern", "false", "float", "for"),
    *("goto", "if", "inline", "int", "long", "namespace", "new", "operator", "private"),
    *("public", "register", "return", "short", "signed", "sizeof", "static", "struct"),
    *("switch", "template", "this", "true", "typedef", "typename", "union", "unsigned"),
    *("using", "virtual", "void", "volatile", "while", "int64_t", "uint64_t", "uint32_t"),
}


def _conv_type_spelling(ct: ConvTypeAttr) -> str:
    return (
        f"ConvBackpropApi::ConvType<AscendC::TPosition::{ct.position.data}, "
        f"ConvCommonApi::ConvFormat::{ct.format.data}, {cpp_type(ct.element_type)}>"
    )


class _KernelWriter:
    """One pass over the kernel function, one C++ statement per op."""

    def __init__(self, kernel: func.FuncOp):
        self.kernel = kernel
        self.where = f"@{kernel.sym_name.data}"
        self.lines: list[str] = []
        self.depth = 1
        self.values: dict[SSAValue, str] = {}
        self.taken: set[str] = set(_RESERVED)
        self.counter = 0
        self.helpers: set[str] = set()
        self.object_type: Conv3DBpFilterType | None = None
        self.params = _param_names(kernel)
        self.taken |= {*self.params, *(f"{p}Gm" for p in self.params)}
        self.tensors: dict[SSAValue, str] = {}

    # -- names and expressions --

    def fresh(self, value: SSAValue, prefix: str) -> str:
        hint = value.name_hint
        name = hint if hint and _IDENT.match(hint) and hint not in self.taken else None
        while name is None or name in self.taken:
            name, self.counter = f"{prefix}{self.counter}", self.counter + 1
        self.taken.add(name)
        self.values[value] = name
        return name

    def expr(self, value: SSAValue) -> str:
        if value not in self.values:
            raise EmitError(f"{self.where}: a value is used before the emitter defined it")
        return self.values[value]

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def fail(self, op: Operation, why: str = "has no Ascend C spelling here") -> EmitError:
        return EmitError(f"{self.where}: {op.name} {why}")

    def obj(self, op: api._ObjectCall) -> str:
        return self.expr(op.obj)

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
            self.emit(f"AscendC::GlobalTensor<{t}> {name}Gm;")
            self.emit(f"{name}Gm.SetGlobalBuffer(reinterpret_cast<__gm__ {t}*>({name}));")
        self.block(self.kernel.body.block)
        return self.lines

    def block(self, block: Block) -> None:
        for op in block.ops:
            self.op(op)

    def op(self, op: Operation) -> None:
        handler = self._HANDLERS.get(type(op))
        if handler is None:
            raise self.fail(op)
        handler(self, op)

    def _constant(self, op: arith.ConstantOp) -> None:
        value = op.value
        if not isinstance(value, IntegerAttr):
            raise self.fail(op, "of a non-integer value has no Ascend C spelling here")
        n = value.value.data
        if isinstance(op.result.type, IntegerType) and op.result.type.width.data == 1:
            self.values[op.result] = "true" if n else "false"
        else:
            self.values[op.result] = f"({n})" if n < 0 else str(n)

    def _define(self, op: Operation, text: str) -> None:
        t = op.results[0].type
        ctype = "bool" if isinstance(t, IntegerType) and t.width.data == 1 else "int64_t"
        name = self.fresh(op.results[0], "b" if ctype == "bool" else "v")
        self.emit(f"const {ctype} {name} = {text};")

    def _binary(self, op: Operation) -> None:
        a, b = (self.expr(v) for v in op.operands)
        template = _BINARY[type(op)]
        helper = template.split("(")[0]
        if helper in _HELPERS:
            self.helpers.add(helper)
        self._define(op, template.format(a=a, b=b))

    def _logic(self, op: Operation) -> None:
        a, b = (self.expr(v) for v in op.operands)
        t = op.results[0].type
        boolean = isinstance(t, IntegerType) and t.width.data == 1
        sign = {arith.AndIOp: ("&&", "&"), arith.OrIOp: ("||", "|"), arith.XOrIOp: ("!=", "^")}
        self._define(op, f"{a} {sign[type(op)][0 if boolean else 1]} {b}")

    def _cmpi(self, op: arith.CmpiOp) -> None:
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        if predicate not in _CMPI:
            raise self.fail(op, f"{predicate} (unsigned) has no spelling for signed index values")
        self._define(op, f"{self.expr(op.lhs)} {_CMPI[predicate]} {self.expr(op.rhs)}")

    def _select(self, op: arith.SelectOp) -> None:
        c, a, b = (self.expr(v) for v in op.operands)
        self._define(op, f"{c} ? {a} : {b}")

    def _index_cast(self, op: arith.IndexCastOp) -> None:
        if not isinstance(op.result.type, IndexType | IntegerType):
            raise self.fail(op)
        self.values[op.result] = self.expr(op.input)

    def _for(self, op: scf.ForOp) -> None:
        if op.iter_args:
            raise self.fail(op, "with iteration arguments has no Ascend C spelling here")
        iv = op.body.block.args[0]
        name = self.fresh(iv, "i")
        lb, ub, step = self.expr(op.lb), self.expr(op.ub), self.expr(op.step)
        self.emit(f"for (int64_t {name} = {lb}; {name} < {ub}; {name} += {step}) {{")
        self.nested(op.body.block)

    def _if(self, op: scf.IfOp) -> None:
        if op.results:
            raise self.fail(op, "with results has no Ascend C spelling here")
        self.emit(f"if ({self.expr(op.cond)}) {{")
        self.nested(op.true_region.block, close=False)
        false_block = op.false_region.blocks.first
        if false_block is not None and any(not isinstance(o, scf.YieldOp) for o in false_block.ops):
            self.emit("} else {")
            self.nested(false_block, close=False)
        self.emit("}")

    def nested(self, block: Block, close: bool = True) -> None:
        self.depth += 1
        self.block(block)
        self.depth -= 1
        if close:
            self.emit("}")

    def _while(self, op: scf.WhileOp) -> None:
        before = list(op.before_region.ops)
        if (
            op.arguments
            or op.res
            or len(before) != 2
            or not isinstance(before[0], api.IterateOp)
            or not isinstance(before[1], scf.ConditionOp)
            or before[1].condition != before[0].more
            or before[1].args
        ):
            raise self.fail(op, "other than `while (Iterate())` has no Ascend C spelling here")
        obj = self.obj(before[0])
        self.emit(f"while ({obj}.Iterate()) {{")
        self.nested(op.after_region.block)
        # The Iterate doc: set isFirstIter_ once a single shape is done, before the next one's
        # Set* calls (the IR's set_* ops start a new single shape).
        self.emit(f"{obj}.ctx.isFirstIter_ = true;")

    def _yield(self, op: scf.YieldOp) -> None:
        if op.operands:
            raise self.fail(op, "with values has no Ascend C spelling here")

    def _return(self, op: func.ReturnOp) -> None:
        if op.operands:
            raise self.fail(op, "with values: a kernel returns nothing")

    def _block_idx(self, op: GetBlockIdxOp) -> None:
        self._define(op, "AscendC::GetBlockIdx()")

    def _create(self, op: api.CreateOp) -> None:
        if self.object_type is not None:
            raise self.fail(op, "twice: the emitter writes one Conv3DBackpropFilter object")
        assert isinstance(op.result.type, Conv3DBpFilterType)
        self.object_type = op.result.type
        self.values[op.result] = _OBJECT
        self.emit(f"Conv3DBpFilter {_OBJECT};")

    def _init(self, op: api.InitOp) -> None:
        # The host filled tilingData with this op's #ascend.dw_tiling (main.cpp, FillTiling).
        self.emit(f"{self.obj(op)}.Init(&{_TILING}.dwTiling);")

    def _set_grad_output(self, op: api.SetGradOutputOp) -> None:
        self.emit(
            f"{self.obj(op)}.SetGradOutput({self.tensor(op.tensor)}[{self.expr(op.offset)}]);"
        )

    def _set_input(self, op: api.SetInputOp) -> None:
        self.emit(f"{self.obj(op)}.SetInput({self.tensor(op.tensor)}[{self.expr(op.offset)}]);")

    def _set_single_shape(self, op: api.SetSingleShapeOp) -> None:
        m, n, k = (self.expr(v) for v in (op.m, op.n, op.k))
        self.emit(f"{self.obj(op)}.SetSingleShape({m}, {n}, {k});")

    def _set_start_position(self, op: api.SetStartPositionOp) -> None:
        self.emit(f"{self.obj(op)}.SetStartPosition({self.expr(op.ho_start)});")

    def _get_tensor_c(self, op: api.GetTensorCOp) -> None:
        atomic = 1 if op.atomic is not None else 0
        target = f"{self.tensor(op.tensor)}[{self.expr(op.offset)}]"
        self.emit(f"{self.obj(op)}.GetTensorC({target}, {atomic});")

    def _end(self, op: api.EndOp) -> None:
        self.emit(f"{self.obj(op)}.End();")

    def _iterate(self, op: api.IterateOp) -> None:
        raise self.fail(op, "outside `scf.while` has no Ascend C spelling here")

    _HANDLERS: ClassVar[dict[type[Operation], Callable[[_KernelWriter, Operation], None]]] = {}


_KernelWriter._HANDLERS = {
    arith.ConstantOp: _KernelWriter._constant,
    **dict.fromkeys(_BINARY, _KernelWriter._binary),
    **dict.fromkeys((arith.AndIOp, arith.OrIOp, arith.XOrIOp), _KernelWriter._logic),
    arith.CmpiOp: _KernelWriter._cmpi,
    arith.SelectOp: _KernelWriter._select,
    arith.IndexCastOp: _KernelWriter._index_cast,
    scf.ForOp: _KernelWriter._for,
    scf.IfOp: _KernelWriter._if,
    scf.WhileOp: _KernelWriter._while,
    scf.YieldOp: _KernelWriter._yield,
    func.ReturnOp: _KernelWriter._return,
    GetBlockIdxOp: _KernelWriter._block_idx,
    api.CreateOp: _KernelWriter._create,
    api.InitOp: _KernelWriter._init,
    api.SetGradOutputOp: _KernelWriter._set_grad_output,
    api.SetInputOp: _KernelWriter._set_input,
    api.SetSingleShapeOp: _KernelWriter._set_single_shape,
    api.SetStartPositionOp: _KernelWriter._set_start_position,
    api.GetTensorCOp: _KernelWriter._get_tensor_c,
    api.EndOp: _KernelWriter._end,
    api.IterateOp: _KernelWriter._iterate,
}  # type: ignore[assignment]


def _banner(title: str, problem: str) -> list[str]:
    return [
        f"// {title}",
        "// Generated by ascend-xdsl (ascend-conv bp-filter --emit ascendc) from the API-level",
        f"// IR of: {problem}",
        "// Regenerate rather than edit: every number here comes from that IR.",
    ]


def emit_kernel(kernel: func.FuncOp, problem: str) -> str:
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
    params = ", ".join(f"GM_ADDR {p}" for p in writer.params)
    name = kernel.sym_name.data
    lines = [
        *_banner("Conv3DBackpropFilter kernel", problem),
        "",
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
        *(line for h in sorted(writer.helpers) for line in [*_HELPERS[h].splitlines(), ""]),
        "}  // namespace",
        "",
        f'extern "C" __global__ __aicore__ void {name}({params}, GM_ADDR tiling)',
        "{",
        "    // A Cube-only kernel, as the vendor operator declares it (hicann/ops-nn",
        "    // conv/conv3d_backprop_filter_v2/op_kernel/conv3d_backprop_filter_v2.cpp).",
        "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_0);",
        f"    Conv3DBackpropFilterTilingData {_TILING};",
        f"    CopyTiling(&{_TILING}, tiling);",
        *body,
        "}",
        "",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# The host
# --------------------------------------------------------------------------------------------


def _tiling_lines(tiling: DwTiling, l1_size: int) -> list[str]:
    values = tiling.as_dict()
    split = ", ".join(f"{camel_case(n)} {values[n]}" for n in _CORE_SPLIT_FIELDS)
    return [
        "// The #ascend.dw_tiling of the kernel's ascend.init, every field of",
        "// TConv3DBpFilterTiling in the vendor's order, and the basic block.",
        f"// The core split behind the launch's block count: {split}.",
        "void FillTiling(Conv3DBackpropFilterTilingData& t)",
        "{",
        f"    t.params.totalL1Size = {l1_size};",
        *(f"    t.dwTiling.{camel_case(n)} = {values[n]};" for n in _TILING_STRUCT_FIELDS),
        *(f"    t.basicBlockTiling.{camel_case(n)} = {values[n]};" for n in _BASIC_BLOCK_FIELDS),
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


def _describe(t: GmTensorType) -> str:
    shape = "x".join(str(d) for d in t.get_shape())
    groups = f", groups {t.groups.data}" if t.groups.data != 1 else ""
    return f"{t.conv_format} of logical {shape} {element_type_name(t.element_type)}{groups}"


def emit_host(host: func.FuncOp, launch: LaunchOp, kernel: func.FuncOp, hw: str) -> str:
    """``main.cpp``: the host function ``host`` of the module, around its one ``launch``."""
    where = f"@{host.sym_name.data}"
    params = _param_names(kernel)
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
            buf = _HostBuffer(name, physical_bytes(t), _describe(t))
            inputs[op.result] = by_value[op.result] = buf
        elif isinstance(op, AllocGmOp):
            t = op.result.type
            assert isinstance(t, GmTensorType)
            name = role.get(op.result, f"out{len(zeroed)}")
            buf = _HostBuffer(name, physical_bytes(t), _describe(t))
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
        *_banner("Conv3DBackpropFilter host program", _shape_line(launch)),
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


def _shape_line(launch: LaunchOp) -> str:
    types = [a.type for a in launch.args]
    return ", ".join(
        f"{'x' if i == 0 else 'dy' if i == 1 else 'dW'} {_describe(t)}"
        for i, t in enumerate(types)
        if isinstance(t, GmTensorType)
    )


# --------------------------------------------------------------------------------------------
# The project
# --------------------------------------------------------------------------------------------


def emit_cmake(program: str, kernel_name: str, hw: str) -> str:
    return "\n".join(
        [
            "# Generated by ascend-xdsl: the layout of the CANN kernel-invocation samples (a",
            "# kernel library built by ascendc_library, a host executable linked against it).",
            "cmake_minimum_required(VERSION 3.16)",
            f"project({program} LANGUAGES CXX)",
            "",
            f'set(SOC_VERSION "{soc_version(hw)}" CACHE STRING "system on chip type")',
            'set(ASCEND_CANN_PACKAGE_PATH "$ENV{ASCEND_HOME_PATH}" CACHE PATH',
            '    "ASCEND CANN package installation directory")',
            'set(RUN_MODE "npu" CACHE STRING "run mode: npu")',
            'set(CMAKE_BUILD_TYPE "Release" CACHE STRING "Build type Release/Debug")',
            "",
            # Where ascendc.cmake lives moved between CANN releases; look in both places.
            *(
                line
                for i, sub in enumerate(("compiler", "tools"))
                for line in (
                    f"{'if' if i == 0 else 'elseif'}(EXISTS ${{ASCEND_CANN_PACKAGE_PATH}}/{sub}"
                    "/tikcpp/ascendc_kernel_cmake)",
                    f"    set(ASCENDC_CMAKE_DIR ${{ASCEND_CANN_PACKAGE_PATH}}/{sub}"
                    "/tikcpp/ascendc_kernel_cmake)",
                )
            ),
            "else()",
            '    message(FATAL_ERROR "ascendc_kernel_cmake not found: set ASCEND_CANN_PACKAGE_PATH '
            'to the CANN package")',
            "endif()",
            "include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)",
            "",
            "# The kernel; ascendc_library also generates aclrtlaunch_<kernel>.h for the host.",
            f"ascendc_library(kernels STATIC {kernel_name}.cpp)",
            "",
            f"add_executable({program} {HOST_FILE})",
            f"target_link_libraries({program} PRIVATE kernels ascendcl)",
            "",
        ]
    )


def emit_readme(
    project_name: str, kernel_file: str, launch: LaunchOp, hw: str, command: str, data: bool
) -> str:
    inputs = _shape_line(launch)
    return "\n".join(
        [
            f"# {project_name}: a Conv3DBackpropFilter (dW) kernel for {soc_version(hw)}",
            "",
            "Generated by ascend-xdsl from the API-level IR of",
            "",
            f"    {command}",
            "",
            f"Operands: {inputs}.",
            "",
            "## Files",
            "",
            f"* `{kernel_file}`: the kernel, one statement per op of the API-level kernel.",
            f"* `{HOST_FILE}`: the host program; `FillTiling` holds the tiling the compiler",
            "  chose.",
            f"* `{CMAKE_FILE}`: the build, laid out as the CANN kernel-invocation samples.",
            *(
                [f"* `{DATA_FILE}`: makes the input files and checks the output file."]
                if data
                else []
            ),
            "",
            "## Build and run on a machine with CANN",
            "",
            "    source <CANN>/set_env.sh   # sets ASCEND_HOME_PATH",
            "    cmake -B build && cmake --build build -j",
            *(["    python3 data.py make DATA_DIR"] if data else []),
            "    ./build/" + project_name + " DATA_DIR",
            *(["    python3 data.py check DATA_DIR"] if data else []),
            "",
            "DATA_DIR holds `x.bin` and `dy.bin`, raw arrays already in the device layout",
            "(NDC1HWC0, the channels padded to a multiple of 16 with zeros); the program writes",
            "`dw.bin`, float32 in FRACTAL_Z_3D, the layout the kernel leaves. The sizes are the",
            f"`k*Bytes` constants at the top of `main` in `{HOST_FILE}`.",
            *(
                [
                    f"`{DATA_FILE}` (needs ascend-xdsl) makes seeded random inputs in that layout",
                    "and checks `dw.bin` against ascend-xdsl's reference dW.",
                ]
                if data
                else []
            ),
            "",
            "## What was checked, and what was not",
            "",
            "Without CANN, `ascend-conv check-ascendc DIR` compiles both sources with",
            "`g++ -std=c++17 -fsyntax-only` against declaration headers that ascend-xdsl ships,",
            "written from the documented API signatures: it checks names, types and call",
            "shapes against ascend-xdsl's reading of the documentation, nothing more. The",
            "API-level IR this was written from is what ascend-xdsl's simulator runs and checks",
            "against a reference dW (the same `ascend-conv bp-filter` flags without `--emit`).",
            "",
            "Not checked: a build with the CANN toolchain (bisheng, the real headers and",
            "ascendc.cmake), the generated `aclrtlaunch_*.h` signature, the kernel type",
            "(`KERNEL_TYPE_MIX_AIC_1_0`, as the vendor operator declares it) in this build",
            "flow, and any run on an NPU.",
            "",
        ]
    )


_DATA_SCRIPT = '''"""Data for this project, made and checked with ascend-xdsl.

    python3 data.py make DATA_DIR [SEED]    write x.bin and dy.bin: seeded random, NDC1HWC0
    python3 data.py check DATA_DIR [SEED]   compare dw.bin (FRACTAL_Z_3D) with the reference

The layouts are ascend-xdsl's (ascend_xdsl.dialects.formats), the check its reference check
(ascend_xdsl.runtime.check); the inputs are those `ascend-conv bp-filter --seed SEED` runs.
"""

import sys
from math import prod
from pathlib import Path

import numpy as np

from ascend_xdsl.dialects import formats
from ascend_xdsl.dialects.conv_shape import C0
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.api import random_inputs
from ascend_xdsl.runtime.check import check

# The problem of the host function and its launch's ascend.conv attribute.
PROBLEM = shape_from_torch_args({problem})


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3) or argv[0] not in ("make", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    folder, seed = Path(argv[1]), int(argv[2]) if len(argv) == 3 else 0
    x, dy = random_inputs(PROBLEM, seed)
    if argv[0] == "make":
        formats.ncdhw_to_ndc1hwc0(x, C0).tofile(folder / "x.bin")
        formats.ncdhw_to_ndc1hwc0(dy, C0).tofile(folder / "dy.bin")
        return 0
    cout, cin_g, kd, kh, kw = PROBLEM.weight_shape
    shape = formats.fractal_z_3d_shape(cout, cin_g, kd, kh, kw, PROBLEM.groups, C0)
    if not (folder / "dw.bin").is_file():
        print(f"{{folder / 'dw.bin'}}: no such file (run the program first)", file=sys.stderr)
        return 1
    raw = np.fromfile(folder / "dw.bin", dtype=np.float32)
    if raw.size != prod(shape):
        print(f"dw.bin: expected {{prod(shape)}} floats, got {{raw.size}}", file=sys.stderr)
        return 1
    dw = formats.fractal_z_3d_to_oihw(raw.reshape(shape), cout, cin_g, kd, kh, kw, PROBLEM.groups)
    result = check(PROBLEM, x, dy, dw)
    print(result.describe())
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''


def emit_data_script(host: func.FuncOp) -> str | None:
    """``data.py`` for the problem ``host`` computes (None if the IR does not say which)."""
    p = conv_problem(host)
    if p is None:
        return None
    problem = (
        f"{p.input_shape}, {p.weight_shape}, stride={p.strides}, padding={p.pads}, "
        f"dilation={p.dilations}, groups={p.groups}, dtype={p.dtype!r}"
    )
    return _DATA_SCRIPT.format(problem=problem)


def _find_launch(module: ModuleOp) -> tuple[func.FuncOp, LaunchOp, func.FuncOp]:
    launches = [op for op in module.walk() if isinstance(op, LaunchOp)]
    if len(launches) != 1:
        raise EmitError(
            f"--emit ascendc needs exactly one ascend.launch at the API level, got {len(launches)}"
        )
    (launch,) = launches
    host = launch.parent_op()
    if not isinstance(host, func.FuncOp):
        raise EmitError("ascend.launch must be in a func.func")
    callee = launch.callee.string_value()
    kernel = next(
        (op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == callee),
        None,
    )
    if kernel is None:
        raise EmitError(f"ascend.launch of '{callee}', which is not in the module")
    if not any(isinstance(op, api.CreateOp) for op in kernel.walk()):
        raise EmitError(
            f"@{callee} makes no Conv3DBackpropFilter object (ascend.create): --emit ascendc "
            "takes the API level"
        )
    return host, launch, kernel


def emit_project(module: ModuleOp, hw: str, command: str) -> Project:
    """The project of an API-level module; ``command`` is what to quote as its origin."""
    host, launch, kernel = _find_launch(module)
    name, program = kernel.sym_name.data, host.sym_name.data
    for symbol in (name, program):
        if not _IDENT.match(symbol):
            raise EmitError(f"function name '{symbol}' is not a C identifier")
    kernel_text = emit_kernel(kernel, _shape_line(launch))
    host_text = emit_host(host, launch, kernel, hw)
    data = emit_data_script(host)
    files = {
        f"{name}.cpp": kernel_text,
        HOST_FILE: host_text,
        CMAKE_FILE: emit_cmake(program, name, hw),
        README_FILE: emit_readme(program, f"{name}.cpp", launch, hw, command, data is not None),
        **({DATA_FILE: data} if data is not None else {}),
    }
    return Project(kernel_name=name, files=files)


def tiling_fields() -> Iterable[str]:
    """The ``DwTiling`` fields the host's ``FillTiling`` sets, struct fields then basic block."""
    return (*_TILING_STRUCT_FIELDS, *_BASIC_BLOCK_FIELDS)
