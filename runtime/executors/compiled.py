"""The compiled executor: each launched kernel translated once into a Python function.

Interpreting a lowered kernel op by op spends most of its time in xDSL's dispatch of the tens
of thousands of index, flag and loop ops around the few thousand instructions. This module
translates a kernel (a ``func.func`` that ``ascend.launch`` calls) into Python source once:

* SSA values become locals; ``arith.constant`` becomes a literal, and index arithmetic whose
  operands are all literals is folded at translation time; the rest is inlined Python
  arithmetic (``arith.remsi``/``divsi`` truncate toward zero, as in C);
* ``scf.for`` becomes ``for ... in range(...)``, ``scf.if`` an ``if``, ``scf.while`` a
  ``while``, with their iteration arguments and results as locals;
* every hardware instruction becomes one call of the per-core machine (``runtime/machine/core.py``:
  instruction model, numpy backend, flags, sanitizer), every API call one call of
  ``runtime/executors/api_sim.py`` — the same functions the xDSL interpreter calls, so the two
  executors give bit-identical results and nothing computes dW another way.

The translation of a kernel is cached on its ``func.func`` together with a fingerprint of the
kernel (every op, operand, attribute and block, in order): a kernel edited after its first run
is translated again, never run stale. An exception raised by the generated code gets the
failing op as ``ascend_op`` (from the generated line it was raised on), so reports can name the
op by its file:line:column exactly as with the interpreter.

Ops the translator does not know raise :class:`UnsupportedOpError`, naming the op; the
interpreter (``executor="interp"``) runs any op xDSL can.
"""

from __future__ import annotations

import itertools
import linecache
import types
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from ascend_xdsl.dialects import api_level, hw_level
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.hw.instructions import Instruction
from ascend_xdsl.hw.intmath import ceil_div, divsi, remsi
from ascend_xdsl.runtime.executors import api_sim
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.machine import Machine, buffer_spec

__all__ = ["CompiledKernel", "UnsupportedOpError", "compile_kernel", "kernel_of"]


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


# For the cost-only mode: the operands whose values can change an instruction's timing (its
# spec's ``timing_operands``); offsets, slots and strides change only where it reads and writes.
_TIMING_OPERANDS: dict[type[Operation], tuple[str, ...]] = {
    op: spec.timing_operands
    for spec, op in hw_level.INSTRUCTION_OPS.items()
    if spec.timing_operands
}


def timing_relevant(kernel: func.FuncOp) -> set[SSAValue]:
    """The values the timing of ``kernel`` depends on: control flow (loop bounds, branch
    conditions), the timing operands of the instructions, and everything they are computed
    from. A loop whose relevant inputs repeat, entered in the same relative timing state,
    advances the timing the same way (the cost-only mode memoizes on that)."""
    work: list[SSAValue] = []
    for op in kernel.walk():
        if isinstance(op, scf.ForOp):
            work += [op.lb, op.ub, op.step, *op.iter_args]
        elif isinstance(op, scf.IfOp):
            work.append(op.cond)
        elif isinstance(op, scf.ConditionOp):
            work += [op.condition, *op.args]
        elif isinstance(op, scf.WhileOp):
            work += list(op.arguments)
        elif type(op) in _TIMING_OPERANDS:
            work += [getattr(op, name) for name in _TIMING_OPERANDS[type(op)]]
    relevant: set[SSAValue] = set()
    while work:
        v = work.pop()
        if v in relevant:
            continue
        relevant.add(v)
        owner = v.owner
        if isinstance(owner, Operation):
            if isinstance(owner, scf.IfOp):  # a result is what the branches yield
                i = owner.results.index(v)
                for region in owner.regions:
                    for block in region.blocks:
                        last = block.last_op
                        if isinstance(last, scf.YieldOp):
                            work.append(last.operands[i])
                work.append(owner.cond)
            elif isinstance(owner, scf.ForOp | scf.WhileOp):
                work += list(owner.operands)
            else:
                work += list(owner.operands)
    return relevant


def loop_inputs(loop: scf.ForOp, relevant: set[SSAValue]) -> list[SSAValue]:
    """The relevant index and i1 values a loop uses that are defined outside it."""
    seen: dict[SSAValue, None] = {}
    for op in loop.body.walk():
        for v in op.operands:
            if v in seen or v not in relevant or not _is_fast_int(v):
                continue
            owner = v.owner
            defining = owner if isinstance(owner, Operation) else owner.parent_op()
            if defining is not None and (defining is loop or loop.is_ancestor(defining)):
                continue
            seen[v] = None
    return list(seen)


def _outside_nested_loops(block: Block) -> Iterator[Operation]:
    """The ops of ``block`` and of the branches of its ``scf.if``s, not those of loops."""
    for op in block.ops:
        yield op
        if isinstance(op, scf.IfOp):
            for region in op.regions:
                for inner in region.blocks:
                    yield from _outside_nested_loops(inner)


def _is_fast_int(value: SSAValue) -> bool:
    """Index and i1 values, the only integers the executor computes with plain Python ints
    (64-bit index arithmetic never wraps in the kernels' offsets; other widths would)."""
    t = value.type
    return isinstance(t, IndexType) or (isinstance(t, IntegerType) and t.width.data == 1)


class _Writer:
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
class _Translator:
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
    out: _Writer = field(default_factory=_Writer)
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
        if not (isinstance(attr, IntegerAttr) and _is_fast_int(op.result)):
            raise UnsupportedOpError(
                f"the compiled executor runs index and i1 constants only, not {attr}"
            )
        value = attr.value.data
        t = attr.type
        self.literals[op.result] = (
            bool(value) if isinstance(t, IntegerType) and t.width.data == 1 else value
        )

    def arith(self, op: Operation) -> None:
        if not all(_is_fast_int(v) for v in (*op.operands, *op.results)):
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

    def signature_function(self, loop: scf.ForOp, live: Sequence[SSAValue]) -> str:
        """Emit ``_sigN(iv, *live)``: a number that stands for everything one iteration of
        ``loop`` decides for its timing: its branch conditions, the sizes and event ids of its
        own instructions, and for each nested loop its bounds and its iterations' signatures,
        all the way down. Equal numbers mean equal timing-relevant work (the functions are
        pure, so each result is cached and interned). The cost-only mode extrapolates over
        iterations whose signatures repeat."""
        if loop in self.signatures:
            return self.signatures[loop]
        name = self.signatures[loop] = f"_sig{next(self.counter)}"
        body = loop.body.block
        self._signature_of(name, body, [body.args[0], *live], {})
        return name

    def kernel_signature(self, kernel: func.FuncOp) -> str:
        """Emit ``_ksig(blk)``: the signature of a whole core's run for block index ``blk``:
        cores with equal numbers do the same timing-relevant work."""
        block = kernel.body.block
        fixed = {op.result: "blk" for op in block.ops if isinstance(op, hw_level.GetBlockIdxOp)}
        self._signature_of("_ksig", block, [], fixed, extra=["blk"])
        return "_ksig"

    def _signature_of(
        self,
        name: str,
        block: Block,
        params: Sequence[SSAValue],
        fixed: dict[SSAValue, str],
        extra: Sequence[str] = (),
    ) -> None:
        sub = _Translator(self.target, relevant=self.relevant, signature=True)
        sub.consts, sub.literals, sub.counter = self.consts, dict(self.literals), self.counter
        sub.helpers, sub.signatures = self.helpers, self.signatures
        sub.names.update(fixed)
        names = [*extra, *(sub.fresh(v, "s") for v in params)]
        sub.block(block)
        returned: list[str] = []
        for op in _outside_nested_loops(block):
            if isinstance(op, scf.ForOp):
                returned += [sub.ref(v) for v in (op.lb, op.ub, op.step)]
                returned.append(sub.nested_names[op])
            elif isinstance(op, scf.IfOp):
                returned.append(sub.ref(op.cond))
            elif type(op) in _TIMING_OPERANDS:
                returned += [sub.ref(getattr(op, name)) for name in _TIMING_OPERANDS[type(op)]]
        declared = sorted(
            {
                sub.names[r]
                for op in _outside_nested_loops(block)
                for r in op.results
                if r in sub.names and r not in fixed
            }
            | set(sub.nested_names.values())
        )
        key = f"({''.join(p + ', ' for p in names)})"
        self.helpers += [
            f"{name}_cache = {{}}",
            f"def {name}({', '.join(names)}):",
            f"    found = {name}_cache.get({key})",
            "    if found is not None:",
            "        return found",
            *([f"    {' = '.join(declared)} = None"] if declared else []),
            *sub.out.lines,
            f"    found = {name}_cache[{key}] = _intern(({''.join(r + ', ' for r in returned)}))",
            "    return found",
            "",
        ]

    def nested_signature(self, op: scf.ForOp) -> None:
        """In a signature function: the signatures of all iterations of a nested loop."""
        live = loop_inputs(op, self.relevant)
        inner = self.signature_function(op, live)
        bounds = ", ".join(self.ref(v) for v in (op.lb, op.ub, op.step))
        args = "".join(f", {self.ref(v)}" for v in live)
        target = self.nested_names[op] = f"n{next(self.counter)}"
        # Signatures enumerate every iteration too: an endless loop must not hang them.
        self.out.emit(f"_budget[0].take(len(range({bounds})), {self.const(op)})")
        self.out.emit(f"{target} = tuple({inner}(j{args}) for j in range({bounds}))")

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
        static = [repr(v) if isinstance(v, bool | int) else self.const(v) for v in spec.static(op)]
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


_HANDLERS: dict[type[Operation], Callable[[_Translator, Any], None]] = {
    scf.ForOp: _Translator.scf_for,
    scf.IfOp: _Translator.scf_if,
    scf.WhileOp: _Translator.scf_while,
    func.ReturnOp: _Translator.func_return,
    hw_level.GetBlockIdxOp: _Translator.block_idx,
    hw_level.AllocBufferOp: _Translator.alloc_buffer,
    **{kind: _Translator.instruction for kind in hw_level.INSTRUCTION_OPS.values()},
    api_level.CreateOp: _Translator.api_create,
    api_level.InitOp: _Translator.api_init,
    api_level.IterateOp: _Translator.api_iterate,
    api_level.GetTensorCOp: _Translator.api_get_tensor_c,
    **{kind: _Translator.api_call for kind in _API},
}

# The machine methods the generated code calls, bound to the core once per run (and the
# handler of every instruction the kernel uses).
_BOUND = ("alloc_buffer", "scalar")


@dataclass(eq=False)
class CompiledKernel:
    """One kernel translated to Python: ``run(core, args)`` executes it on one core."""

    name: str
    source: str
    filename: str
    lines: dict[int, Operation]
    function: Callable[..., tuple[Any, ...]]
    signature: Callable[[int], int] | None = None
    """With ``aggregate``: the signature of a core's run by block index (``_ksig``), if the
    kernel computes one; cores with equal signatures take the same time."""
    budget_cell: list[Budget] = field(default_factory=lambda: [Budget()])
    """The budget the signature functions draw on (set by :meth:`run`, or by the caller
    before it calls :attr:`signature`)."""

    def run(self, core: Machine, args: Sequence[Any]) -> tuple[Any, ...]:
        self.budget_cell[0] = core.budget
        try:
            return self.function(core, *args)
        except Exception as e:
            op = self.failing_op(e)
            if op is not None and getattr(e, "ascend_op", None) is None:
                e.ascend_op = op  # type: ignore[attr-defined]
            raise

    def failing_op(self, e: BaseException) -> Operation | None:
        """The op whose generated line raised ``e`` (the innermost one in this kernel)."""
        op = None
        tb: types.TracebackType | None = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                op = self.lines.get(tb.tb_lineno, op)
            tb = tb.tb_next
        return op


class _Interner:
    """Small numbers for signatures: equal tuples get equal numbers."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[Any, ...], int] = {}

    def __call__(self, signature: tuple[Any, ...]) -> int:
        return self.numbers.setdefault(signature, len(self.numbers))


_SERIAL = itertools.count()


def compile_kernel(
    kernel: func.FuncOp, target: HwConfig, timed: bool = False, aggregate: bool = False
) -> CompiledKernel:
    """Translate ``kernel`` into Python (not cached: see :func:`kernel_of`); ``timed`` also
    counts its index arithmetic for the timing backend, ``aggregate`` (which implies it) runs
    its loops through ``core.loop``, for the cost-only mode (``runtime/cost/cost_only.py``)."""
    t = _Translator(target, timed or aggregate, aggregate=aggregate)
    if aggregate:
        t.relevant = timing_relevant(kernel)
    params = [t.fresh(arg, "a") for arg in kernel.body.block.args]
    t.block(kernel.body.block)
    signed = False
    if aggregate:
        try:
            t.kernel_signature(kernel)
            signed = True
        except (KeyError, UnsupportedOpError):  # e.g. a block index inside a loop
            pass
    bound = (*_BOUND, "loop") if aggregate else _BOUND
    prologue = [f"    {name} = core.{name}" for name in bound]
    prologue += [f"    {name} = core.handler({t.const(spec)})" for spec, name in t.handlers.items()]
    prologue.append("    take = core.budget.take")
    head = f"def kernel(core{''.join(', ' + p for p in params)}):"
    # Line numbers of the body shift by the prologue: the writer counted from line 2.
    shift = len(prologue)
    lines = {line + shift: op for line, op in t.out.ops.items()}
    source = "\n".join([head, *prologue, *t.out.lines, "    return ()", "", *t.helpers])
    name = kernel.sym_name.data
    filename = f"<ascend kernel @{name} #{next(_SERIAL)}>"
    namespace: dict[str, Any] = {
        "K": tuple(t.consts),
        "_remsi": remsi,
        "_divsi": divsi,
        "ApiObject": api_sim.ApiObject,
        "api_init": api_sim.init,
        "api_iterate": api_sim.iterate,
        "api_get_tensor_c": api_sim.get_tensor_c,
        "_intern": _Interner(),
        "_budget": [Budget()],
    }
    exec(compile(source, filename, "exec"), namespace)
    # So that tracebacks and debuggers can show the generated lines.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    signature = namespace["_ksig"] if signed else None
    return CompiledKernel(
        name, source, filename, lines, namespace["kernel"], signature, namespace["_budget"]
    )


def fingerprint(kernel: func.FuncOp) -> int:
    """A hash of everything in ``kernel`` that the translation depends on: each op (its class,
    identity, parent block, operands, results, properties and attributes) in walk order."""
    parts: list[object] = []
    for op in kernel.walk():
        parts.append(
            (
                type(op),
                id(op),
                id(op.parent),
                tuple(map(id, op.operands)),
                tuple(map(id, op.results)),
                tuple(op.properties.items()),
                tuple(op.attributes.items()),
                tuple(len(r.blocks) for r in op.regions),
            )
        )
    return hash(tuple(parts))


_CACHE: weakref.WeakKeyDictionary[
    func.FuncOp, dict[tuple[str, bool, bool], tuple[int, CompiledKernel]]
] = weakref.WeakKeyDictionary()


def kernel_of(
    module: ModuleOp, name: str, target: HwConfig, timed: bool = False, aggregate: bool = False
) -> CompiledKernel:
    """The compiled kernel ``@name`` of ``module``, translated once and cached until the
    kernel changes (see :func:`fingerprint`)."""
    kernel = next(
        (op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name),
        None,
    )
    if kernel is None:
        raise RuntimeError(f"ascend.launch: no function @{name} in the module")
    key = fingerprint(kernel)
    variants = _CACHE.setdefault(kernel, {})
    cached = variants.get((target.name, timed, aggregate))
    if cached is not None and cached[0] == key:
        return cached[1]
    compiled = compile_kernel(kernel, target, timed, aggregate)
    variants[(target.name, timed, aggregate)] = (key, compiled)
    return compiled
