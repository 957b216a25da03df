"""The kernel source of an API-level kernel function, one C++ statement per op.

``ascend.*`` calls become the ``Conv3DBackpropFilter`` member calls of the same name,
``arith`` ops C++ expressions, ``scf.for`` / ``scf.if`` ``for`` / ``if``, and the ``scf.while``
around ``ascend.iterate`` ``while (obj.Iterate())`` (docs/ascendc.md has the table). Part of
the emitter of ``emit/ascendc.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Block, Operation, SSAValue

from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects.attributes import ConvTypeAttr
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.dialects.types import Conv3DBpFilterType, GmTensorType
from ascend_xdsl.emit.common import C_IDENTIFIER, EmitError, banner, cpp_type, param_names

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
        self.params = param_names(kernel)
        self.taken |= {*self.params, *(f"{p}Gm" for p in self.params)}
        self.tensors: dict[SSAValue, str] = {}

    # -- names and expressions --

    def fresh(self, value: SSAValue, prefix: str) -> str:
        hint = value.name_hint
        name = hint if hint and C_IDENTIFIER.match(hint) and hint not in self.taken else None
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
        *banner("Conv3DBackpropFilter kernel", problem),
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
