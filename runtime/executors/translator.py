"""The compiled executor's translator: one kernel function's ops as the lines of a Python
function ``kernel(core, *args)``.

* SSA values become locals; ``arith.constant`` becomes a literal, and index arithmetic whose
  operands are all literals is folded at translation time; the rest is inlined Python
  arithmetic (``arith.remsi``/``divsi`` truncate toward zero, as in C);
* ``scf.for`` becomes ``for ... in range(...)`` (``in loop(...)`` with ``aggregate``, the
  cost-only mode's loops, whose signature functions ``runtime/executors/loop_signatures.py``
  emits), ``scf.if`` an ``if``, ``scf.while`` a ``while``, with their iteration arguments and
  results as locals;
* every hardware instruction becomes one call of the machine's handler of its spec
  (``hw/instructions/``: the op, its static properties, its operands in the spec's order);
  every API call one call of ``runtime/executors/api_sim.py``.

``runtime/executors/compiled.py`` turns the lines into a function and caches it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Block, Operation, SSAValue

from ascend_xdsl.dialects import api_level, hw_level
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.hw.instructions import Instruction
from ascend_xdsl.hw.intmath import ceil_div, divsi, remsi
from ascend_xdsl.runtime.executors import api_sim
from ascend_xdsl.runtime.executors.loop_signatures import (
    SignatureCompiler,
    is_fast_int,
    loop_inputs,
)
from ascend_xdsl.runtime.machine.machine import buffer_spec


class UnsupportedOpError(RuntimeError):
    """An op the compiled executor cannot translate (run it with ``executor="interp"``)."""


# Index/i1 binary ops: (Python template, folding function). Operands are locals or literals.
_BINARY: dict[type[Operation], tuple[str, Callable[[int, int], int]]] = {
    arith.AddiOp: ("{a} + {b}", lambda a, b: a + b),
    arith.SubiOp: ("{a} - {b}", lambda a, b: a - b),
    arith.MuliOp: ("{a} * {b}", lambda a, b: a * b),
    arith.FloorDivSIOp: ("{a} // {b}", lambda a, b: a // b),
    arith.CeilDivSIOp: ("-(-{a} // {b})", ceil_div),
    arith.RemSIOp: ("_remsi({a}, {b})", remsi),
    arith.DivSIOp: ("_divsi({a}, {b})", divsi),
    arith.MinSIOp: ("min({a}, {b})", min),
    arith.MaxSIOp: ("max({a}, {b})", max),
    arith.AndIOp: ("{a} & {b}", lambda a, b: a & b),
    arith.OrIOp: ("{a} | {b}", lambda a, b: a | b),
    arith.XOrIOp: ("{a} ^ {b}", lambda a, b: a ^ b),
}
_CMPI: dict[str, tuple[str, Callable[[int, int], bool]]] = {
    "eq": ("==", lambda a, b: a == b),
    "ne": ("!=", lambda a, b: a != b),
    "slt": ("<", lambda a, b: a < b),
    "sle": ("<=", lambda a, b: a <= b),
    "sgt": (">", lambda a, b: a > b),
    "sge": (">=", lambda a, b: a >= b),
}

# API calls: op class -> api_sim function (operands in order).
_API: dict[type[Operation], Callable[..., Any]] = {
    api_level.SetGradOutputOp: api_sim.set_grad_output,
    api_level.SetInputOp: api_sim.set_input,
    api_level.SetSingleShapeOp: api_sim.set_single_shape,
    api_level.SetStartPositionOp: api_sim.set_start_position,
    api_level.EndOp: api_sim.end,
}


class Writer:
    """The generated source: indented lines, each remembered with the op it executes."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ops: dict[int, Operation] = {}
        self.depth = 1

    def emit(self, text: str, op: Operation | None = None) -> None:
        self.lines.append("    " * self.depth + text)
        if op is not None:
            self.ops[len(self.lines) + 1] = op  # + 1: the def line comes first


@dataclass
class Translator(SignatureCompiler):
    """Translates one kernel function into the body of ``def kernel(core, *args)``."""

    target: HwConfig
    timed: bool = False
    """Count the index arithmetic for the timing backend (``core.scalar(n)`` calls)."""
    aggregate: bool = False
    """Run ``scf.for`` loops through ``core.loop`` (the cost-only mode's loop memoization)."""
    relevant: set[SSAValue] = field(default_factory=set)
    signature: bool = False
    """Translating a loop's signature function: only the relevant index arithmetic."""
    helpers: list[str] = field(default_factory=list)
    """Source of the signature functions (module level of the generated code)."""
    signatures: dict[scf.ForOp, str] = field(default_factory=dict)
    """The signature function of each loop (shared by the translators of one kernel)."""
    nested_names: dict[scf.ForOp, str] = field(default_factory=dict)
    pending_scalar: int = 0
    out: Writer = field(default_factory=Writer)
    names: dict[SSAValue, str] = field(default_factory=dict)
    literals: dict[SSAValue, int | bool] = field(default_factory=dict)
    consts: list[Any] = field(default_factory=list)
    counter: itertools.count = field(default_factory=itertools.count)
    handlers: dict[Instruction, str] = field(default_factory=dict)
    """The local name of the machine's handler of each instruction the kernel uses."""

    # -- values -------------------------------------------------------------------------------

    def fresh(self, value: SSAValue, prefix: str = "v") -> str:
        name = f"{prefix}{next(self.counter)}"
        self.names[value] = name
        return name

    def ref(self, value: SSAValue) -> str:
        if value in self.literals:
            return repr(self.literals[value])
        return self.names[value]

    def const(self, obj: Any) -> str:
        """A name for a Python object the generated code needs (an op, a geometry, ...)."""
        self.consts.append(obj)
        return f"K[{len(self.consts) - 1}]"

    def literal(self, value: SSAValue) -> int | bool | None:
        return self.literals.get(value)

    # -- structure ----------------------------------------------------------------------------

    def flush_scalar(self) -> None:
        """Emit the count of the index ops since the last statement that was not one."""
        if self.timed and self.pending_scalar:
            self.out.emit(f"scalar({self.pending_scalar})")
        self.pending_scalar = 0

    def block(self, block: Block) -> None:
        start = len(self.out.lines)
        for op in block.ops:
            self.op(op)
        self.flush_scalar()
        if len(self.out.lines) == start:
            self.out.emit("pass")

    def assign(self, targets: Sequence[str], values: Sequence[SSAValue], op: Operation) -> None:
        if targets:
            lhs = ", ".join(targets)
            rhs = ", ".join(self.ref(v) for v in values)
            self.out.emit(f"{lhs}, = {rhs}," if len(targets) == 1 else f"{lhs} = {rhs}", op)

    def op(self, op: Operation) -> None:
        if isinstance(op, arith.ConstantOp):
            return self.constant(op)
        kind = type(op)
        if self.signature:  # only what decides an iteration's timing
            if isinstance(op, hw_level.GetBlockIdxOp):
                return None  # the signature's parameter
            if isinstance(op, scf.ForOp):
                return self.nested_signature(op)
            if isinstance(op, scf.IfOp) or (
                (kind in _BINARY or isinstance(op, arith.CmpiOp | arith.SelectOp))
                and op.results[0] in self.relevant
            ):
                return self.arith(op) if not isinstance(op, scf.IfOp) else self.scf_if(op)
            return None
        if kind in _BINARY or isinstance(op, arith.CmpiOp | arith.SelectOp):
            self.pending_scalar += 1  # as the interpreter counts it, folded or not
            return self.arith(op)
        self.flush_scalar()
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise UnsupportedOpError(
                f"the compiled executor cannot run {op.name}; use the interpreter "
                "(--executor interp)"
            )
        handler(self, op)

    # -- arith --------------------------------------------------------------------------------

    def constant(self, op: arith.ConstantOp) -> None:
        attr = op.value
        if not (isinstance(attr, IntegerAttr) and is_fast_int(op.result)):
            raise UnsupportedOpError(
                f"the compiled executor runs index and i1 constants only, not {attr}"
            )
        value = attr.value.data
        t = attr.type
        self.literals[op.result] = (
            bool(value) if isinstance(t, IntegerType) and t.width.data == 1 else value
        )

    def arith(self, op: Operation) -> None:
        if not all(is_fast_int(v) for v in (*op.operands, *op.results)):
            raise UnsupportedOpError(
                f"the compiled executor runs {op.name} on index and i1 values only"
            )
        if isinstance(op, arith.SelectOp):
            c, a, b = op.operands
            lc = self.literal(c)
            if lc is not None:
                chosen = a if lc else b
                if chosen in self.literals:
                    self.literals[op.result] = self.literals[chosen]
                    return
                self.out.emit(f"{self.fresh(op.result)} = {self.ref(chosen)}", op)
                return
            expr = f"{self.ref(a)} if {self.ref(c)} else {self.ref(b)}"
            self.out.emit(f"{self.fresh(op.result)} = {expr}", op)
            return
        a, b = op.operands
        if isinstance(op, arith.CmpiOp):
            predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            if predicate not in _CMPI:
                raise UnsupportedOpError(f"the compiled executor has no cmpi {predicate}")
            fold: Callable[[int, int], int | bool] = _CMPI[predicate][1]
            template = f"{{a}} {_CMPI[predicate][0]} {{b}}"
        else:
            template, fold = _BINARY[type(op)]
        la, lb = self.literal(a), self.literal(b)
        result = op.results[0]
        if la is not None and lb is not None:
            try:
                folded = fold(int(la), int(lb))
            except ZeroDivisionError:
                pass  # raise at run time, on the op's own line
            else:
                is_i1 = isinstance(result.type, IntegerType)
                self.literals[result] = bool(folded) if is_i1 else int(folded)
                return
        expr = template.format(a=self.ref(a), b=self.ref(b))
        self.out.emit(f"{self.fresh(result)} = {expr}", op)

    # -- scf ----------------------------------------------------------------------------------

    def scf_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        iv, *carried = body.args
        results = [self.fresh(r, "r") for r in op.results]
        self.assign(results, op.iter_args, op)
        for arg, name in zip(carried, results, strict=True):
            self.names[arg] = name
        bounds = ", ".join(self.ref(v) for v in (op.lb, op.ub, op.step))
        iv_name = self.fresh(iv, "i")
        # The whole trip count is taken from the budget at the loop's entry: one call per
        # loop, not per iteration, and an endless loop fails before it starts.
        self.out.emit(f"take(len(range({bounds})), {self.const(op)})", op)
        if self.aggregate and not carried:
            # Loops with carried values always run every iteration: their results are needed.
            live = loop_inputs(op, self.relevant)
            inputs = "".join(f"{self.ref(v)}, " for v in live)
            sig = self.signature_function(op, live)
            self.out.emit(f"for {iv_name} in loop({sig}, {bounds}, ({inputs})):", op)
        else:
            self.out.emit(f"for {iv_name} in range({bounds}):", op)
        self.out.depth += 1
        self.block_with_yield(body, results)
        self.out.depth -= 1

    def block_with_yield(self, block: Block, targets: Sequence[str]) -> None:
        """A region's block whose ``scf.yield`` assigns ``targets``."""
        start = len(self.out.lines)
        for op in block.ops:
            if isinstance(op, scf.YieldOp):
                self.flush_scalar()
                self.assign(targets, op.arguments, op)
            else:
                self.op(op)
        self.flush_scalar()
        if len(self.out.lines) == start:
            self.out.emit("pass")

    def scf_if(self, op: scf.IfOp) -> None:
        results = [self.fresh(r, "r") for r in op.results]
        cond = self.literal(op.cond)
        if cond is not None:  # a folded condition: only one branch exists at run time
            region = op.true_region if cond else op.false_region
            if region.blocks:
                self.block_with_yield(region.block, results)
            return
        self.out.emit(f"if {self.ref(op.cond)}:", op)
        self.out.depth += 1
        self.block_with_yield(op.true_region.block, results)
        self.out.depth -= 1
        if op.false_region.blocks:
            self.out.emit("else:")
            self.out.depth += 1
            self.block_with_yield(op.false_region.block, results)
            self.out.depth -= 1

    def scf_while(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.block, op.after_region.block
        state = [self.fresh(a, "w") for a in before.args]
        self.assign(state, op.arguments, op)
        results = [self.fresh(r, "r") for r in op.results]
        self.out.emit("while True:", op)
        self.out.depth += 1
        self.out.emit(f"take(1, {self.const(op)})", op)
        for inner in before.ops:
            if isinstance(inner, scf.ConditionOp):
                self.flush_scalar()
                self.out.emit(f"if not {self.ref(inner.condition)}:", inner)
                self.out.depth += 1
                self.assign(results, inner.args, inner)
                self.out.emit("break")
                self.out.depth -= 1
                after_names = [self.fresh(a, "w") for a in after.args]
                self.assign(after_names, inner.args, inner)
            else:
                self.op(inner)
        self.block_with_yield(after, state)
        self.out.depth -= 1

    def func_return(self, op: func.ReturnOp) -> None:
        values = ", ".join(self.ref(v) for v in op.arguments)
        self.out.emit(f"return ({values}{',' if len(op.arguments) == 1 else ''})", op)

    # -- ascend -------------------------------------------------------------------------------

    def call(self, target: str, args: Sequence[str], op: Operation, result: str = "") -> None:
        self.out.emit(f"{result}{target}({', '.join(args)})", op)

    def operands(self, op: Operation) -> list[str]:
        return [self.ref(v) for v in op.operands]

    def block_idx(self, op: hw_level.GetBlockIdxOp) -> None:
        self.out.emit(f"{self.fresh(op.result)} = core.block_idx", op)

    def alloc_buffer(self, op: hw_level.AllocBufferOp) -> None:
        try:
            spec = buffer_spec(op, self.target)
        except RuntimeError as e:  # raised when executed, like the interpreter does
            self.out.emit(f"raise {self.const(e)}", op)
            self.names[op.result] = "None"
            return
        self.call("alloc_buffer", [self.const(spec)], op, f"{self.fresh(op.result)} = ")

    def instruction(self, op: hw_level.HwOp) -> None:
        """One call of the machine's handler of the op's instruction spec: the op, the spec's
        static properties (fixed per op), then the operands in the spec's order."""
        spec = op.SPEC
        assert spec is not None
        handler = self.handlers.get(spec)
        if handler is None:
            handler = self.handlers[spec] = f"h_{spec.name}"
        static = [_literal(v) or self.const(v) for v in spec.static(op)]
        operands = [self.ref(getattr(op, name)) for name in spec.operands]
        self.call(handler, [self.const(op), *static, *operands], op)

    def api_create(self, op: api_level.CreateOp) -> None:
        self.call("ApiObject", [], op, f"{self.fresh(op.result)} = ")

    def api_init(self, op: api_level.InitOp) -> None:
        self.call("api_init", [self.ref(op.obj), self.const(op.tiling.tiling)], op)

    def api_call(self, op: Operation) -> None:
        self.call(self.const(_API[type(op)]), self.operands(op), op)

    def api_iterate(self, op: api_level.IterateOp) -> None:
        self.call("api_iterate", [self.ref(op.obj)], op, f"{self.fresh(op.more)} = ")

    def api_get_tensor_c(self, op: api_level.GetTensorCOp) -> None:
        args = [*self.operands(op), repr(op.atomic is not None)]
        self.call("api_get_tensor_c", args, op)


def _literal(value: object) -> str | None:
    """``value`` as Python source if it is an int, a bool or a tuple of them (the generated
    code then holds it as a constant instead of looking it up), else None."""
    if isinstance(value, bool | int):
        return repr(value)
    if isinstance(value, tuple) and all(isinstance(v, bool | int) for v in value):
        return repr(value)
    return None


_HANDLERS: dict[type[Operation], Callable[[Translator, Any], None]] = {
    scf.ForOp: Translator.scf_for,
    scf.IfOp: Translator.scf_if,
    scf.WhileOp: Translator.scf_while,
    func.ReturnOp: Translator.func_return,
    hw_level.GetBlockIdxOp: Translator.block_idx,
    hw_level.AllocBufferOp: Translator.alloc_buffer,
    **{kind: Translator.instruction for kind in hw_level.INSTRUCTION_OPS.values()},
    api_level.CreateOp: Translator.api_create,
    api_level.InitOp: Translator.api_init,
    api_level.IterateOp: Translator.api_iterate,
    api_level.GetTensorCOp: Translator.api_get_tensor_c,
    **{kind: Translator.api_call for kind in _API},
}

# The machine methods the generated code calls, bound to the core once per run (and the
# handler of every instruction the kernel uses).
BOUND = ("alloc_buffer", "scalar")
