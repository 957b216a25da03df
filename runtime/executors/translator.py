"""The compiled executor's translator: one kernel function's ops as the lines of a Python
function ``kernel(core, *args)``.

* the walk, the values and the index arithmetic are those of the printer base the Ascend C
  emitter shares (``ir/structured_printer.py``): SSA values become locals; ``arith.constant``
  becomes a literal, and index arithmetic whose operands are all literals is folded at
  translation time; the rest is inlined Python arithmetic (``arith.remsi``/``divsi`` truncate
  toward zero, as in C); this module supplies the Python spelling and the statements;
* ``scf.for`` becomes ``for ... in range(...)`` (``in loop(...)`` with ``aggregate``, the
  cost-only mode's loops, whose signature functions ``runtime/executors/loop_signatures.py``
  emits), ``scf.if`` an ``if``, ``scf.while`` a ``while``, with their iteration arguments and
  results as locals;
* every hardware instruction becomes one call of the machine's handler of its spec
  (``hw/instructions/``: the op, its static properties, its operands in the spec's order);
  every API call one call of ``runtime/executors/api_sim.py``; with ``noting`` (the replay's
  translations) the instruction's key (:func:`noted`) is appended to ``core.stream`` inline,
  before the call or instead of it.

``runtime/executors/compiled.py`` turns the lines into a function and caches it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, SSAValue

from ascend_xdsl.dialects import api_level, hw_level
from ascend_xdsl.hw import HwConfig, instructions
from ascend_xdsl.hw.instructions import Instruction
from ascend_xdsl.ir.structured_printer import (
    ARITH_OPS,
    COMPARE,
    Language,
    LineWriter,
    StructuredPrinter,
    kind_of,
    prints,
)
from ascend_xdsl.runtime.executors import api_sim
from ascend_xdsl.runtime.executors.loop_signatures import (
    SignatureCompiler,
    is_fast_int,
    loop_inputs,
)
from ascend_xdsl.runtime.machine.machine import buffer_spec


class UnsupportedOpError(RuntimeError):
    """An op the compiled executor cannot translate (run it with ``executor="interp"``)."""


PYTHON = Language(
    binary={
        arith.AddiOp: "{a} + {b}",
        arith.SubiOp: "{a} - {b}",
        arith.MuliOp: "{a} * {b}",
        arith.FloorDivSIOp: "{a} // {b}",
        arith.CeilDivSIOp: "-(-{a} // {b})",
        arith.RemSIOp: "_remsi({a}, {b})",
        arith.DivSIOp: "_divsi({a}, {b})",
        # a conditional expression costs a third of a call of the builtin
        arith.MinSIOp: "{a} if {a} <= {b} else {b}",
        arith.MaxSIOp: "{a} if {a} >= {b} else {b}",
        arith.AndIOp: "{a} & {b}",
        arith.OrIOp: "{a} | {b}",
        arith.XOrIOp: "{a} ^ {b}",
    },
    # On i1 (booleans) with MLIR's one-bit wrap: true + true = false, true is -1 when read
    # signed, so the minimum of true and false is true.
    boolean={
        arith.AddiOp: "{a} != {b}",
        arith.SubiOp: "{a} != {b}",
        arith.MuliOp: "{a} & {b}",
        arith.MinSIOp: "{a} | {b}",
        arith.MaxSIOp: "{a} & {b}",
    },
    select="{a} if {c} else {b}",
    true="True",
    false="False",
    define="{name} = {expr}",
    define_i1="{name} = {expr}",
    # compile_kernel's namespace defines both (the truncating division of C).
    helpers={arith.RemSIOp: "_remsi", arith.DivSIOp: "_divsi"},
    # By a positive constant (the usual case: an index modulo a slot or tile count), C's
    # truncation is Python's floor on a non-negative operand, mirrored on a negative one:
    # inline, a fifth of the helper's call.
    positive_divisor={
        arith.RemSIOp: "{a} % {b} if {a} >= 0 else -(-{a} % {b})",
        arith.DivSIOp: "{a} // {b} if {a} >= 0 else -(-{a} // {b})",
    },
    fold=True,
)
"""How the generated Python spells index and i1 values and arithmetic."""

# API calls: op class -> api_sim function (operands in order).
_API: dict[type[Operation], Callable[..., Any]] = {
    api_level.SetGradOutputOp: api_sim.set_grad_output,
    api_level.SetInputOp: api_sim.set_input,
    api_level.SetSingleShapeOp: api_sim.set_single_shape,
    api_level.SetStartPositionOp: api_sim.set_start_position,
    api_level.EndOp: api_sim.end,
}


def _body_writer() -> LineWriter:
    # Numbered from 2: the def line comes first (compile_kernel adds the prologue's length).
    return LineWriter(first=2)


@dataclass
class Translator(SignatureCompiler, StructuredPrinter):
    """Translates one kernel function into the body of ``def kernel(core, *args)``."""

    LANGUAGE = PYTHON

    target: HwConfig
    timed: bool = False
    """Count the index arithmetic for the timing backend (``core.scalar(n)`` calls)."""
    aggregate: bool = False
    """Run ``scf.for`` loops through ``core.loop`` (the cost-only mode's loop memoization)."""
    noting: str = ""
    """``"note"``: each instruction only noted in ``core.stream`` (a replay's stream core,
    ``runtime/executors/replay.py``); ``"record"``: noted, then run; empty: run."""
    noted_names: dict[SSAValue, str] = field(default_factory=dict)
    """With ``noting``: the local that names each buffer in the noted stream."""
    relevant: set[SSAValue] = field(default_factory=set)
    signature: bool = False
    """Translating a loop's signature function: only the relevant index arithmetic."""
    helpers: list[str] = field(default_factory=list)
    """Source of the signature functions (module level of the generated code)."""
    signatures: dict[scf.ForOp, str] = field(default_factory=dict)
    """The signature function of each loop (shared by the translators of one kernel)."""
    nested_names: dict[scf.ForOp, str] = field(default_factory=dict)
    pending_scalar: int = 0
    consts: list[Any] = field(default_factory=list)
    handlers: dict[Instruction, str] = field(default_factory=dict, kw_only=True)  # type: ignore[assignment]
    """The local name of the machine's handler of each instruction the kernel uses."""
    out: LineWriter = field(default_factory=_body_writer, kw_only=True)

    # -- values -------------------------------------------------------------------------------

    def const(self, obj: Any) -> str:
        """A name for a Python object the generated code needs (an op, a geometry, ...)."""
        self.consts.append(obj)
        return f"K[{len(self.consts) - 1}]"

    # -- the walk -----------------------------------------------------------------------------

    def block(self, block: Block) -> None:
        """The ops of a function body (``compile_kernel``'s entry point)."""
        self.print_block(block)

    def print_op(self, op: Operation) -> None:
        if not self.signature:
            return super().print_op(op)
        # A signature function computes only what decides an iteration's timing.
        if isinstance(op, arith.ConstantOp | scf.IfOp) or (
            isinstance(op, ARITH_OPS) and op.results[0] in self.relevant
        ):
            return super().print_op(op)
        if isinstance(op, scf.ForOp):
            return self.nested_signature(op)
        # Anything else is skipped, ascend.get_block_idx included: its value is the
        # signature's parameter.
        return None

    def flush_scalar(self) -> None:
        """Emit the count of the index ops since the last statement that was not one."""
        if self.timed and self.pending_scalar:
            self.out.emit(f"scalar({self.pending_scalar})")
        self.pending_scalar = 0

    def on_arith(self, op: Operation) -> None:
        self.pending_scalar += 1  # as the interpreter counts it, folded or not

    def on_statement(self, op: Operation) -> None:
        self.flush_scalar()

    def on_block_end(self, block: Block) -> None:
        self.flush_scalar()

    def empty_block(self) -> None:
        self.out.emit("pass")

    def check_arith(self, op: Operation) -> None:
        kind = kind_of(op)
        if kind == "constant":
            attr = cast(arith.ConstantOp, op).value
            if not (isinstance(attr, IntegerAttr) and is_fast_int(op.results[0])):
                raise UnsupportedOpError(
                    f"the compiled executor runs index and i1 constants only, not {attr}"
                )
            return
        if not all(is_fast_int(v) for v in (*op.operands, *op.results)):
            raise UnsupportedOpError(
                f"the compiled executor runs {op.name} on index and i1 values only"
            )
        if kind == "cmpi":
            number = cast(arith.CmpiOp, op).predicate.value.data
            predicate = arith.CMPI_COMPARISON_OPERATIONS[number]
            if predicate not in COMPARE:
                raise UnsupportedOpError(f"the compiled executor has no cmpi {predicate}")

    def unsupported(self, op: Operation) -> Exception:
        return UnsupportedOpError(
            f"the compiled executor cannot run {op.name}; use the interpreter (--executor interp)"
        )

    def undefined(self, value: SSAValue) -> Exception:
        # What the name lookup raised before the port: compile_kernel catches it when a
        # signature cannot be built (e.g. a block index inside a loop).
        return KeyError(value)

    # -- statements ---------------------------------------------------------------------------

    def assign(self, targets: Sequence[str], values: Sequence[SSAValue], op: Operation) -> None:
        if targets:
            lhs = ", ".join(targets)
            rhs = ", ".join(self.ref(v) for v in values)
            self.out.emit(f"{lhs}, = {rhs}," if len(targets) == 1 else f"{lhs} = {rhs}", op)

    def for_header(self, op: scf.ForOp, iv: str, lb: str, ub: str, step: str) -> None:
        bounds = f"{lb}, {ub}, {step}"
        # The whole trip count is taken from the budget at the loop's entry: one call per
        # loop, not per iteration, and an endless loop fails before it starts.
        self.out.emit(f"take(len(range({bounds})), {self.const(op)})", op)
        if self.aggregate and not op.iter_args:
            # Loops with carried values always run every iteration: their results are needed.
            live = loop_inputs(op, self.relevant)
            inputs = "".join(f"{self.ref(v)}, " for v in live)
            sig = self.signature_function(op, live)
            self.out.emit(f"for {iv} in loop({sig}, {bounds}, ({inputs})):", op)
        else:
            self.out.emit(f"for {iv} in range({bounds}):", op)

    def if_header(self, op: scf.IfOp, cond: str) -> None:
        self.out.emit(f"if {cond}:", op)

    def else_header(self, op: scf.IfOp) -> None:
        self.out.emit("else:")

    def while_header(self, op: scf.WhileOp) -> None:
        self.out.emit("while True:", op)
        with self.out.indented():
            self.out.emit(f"take(1, {self.const(op)})", op)

    def while_exit(self, op: scf.ConditionOp, results: Sequence[str]) -> None:
        self.out.emit(f"if not {self.ref(op.condition)}:", op)
        with self.out.indented():
            self.assign(results, op.args, op)
            self.out.emit("break")

    def print_return(self, op: func.ReturnOp) -> None:
        values = ", ".join(self.ref(v) for v in op.arguments)
        self.out.emit(f"return ({values}{',' if len(op.arguments) == 1 else ''})", op)

    # -- ascend -------------------------------------------------------------------------------

    def call(self, target: str, args: Sequence[str], op: Operation, result: str = "") -> None:
        self.out.emit(f"{result}{target}({', '.join(args)})", op)

    def operands(self, op: Operation) -> list[str]:
        return [self.ref(v) for v in op.operands]

    @prints(hw_level.GetBlockIdxOp)
    def block_idx(self, op: hw_level.GetBlockIdxOp) -> None:
        self.define(op.result, "core.block_idx", op)

    @prints(hw_level.AllocBufferOp)
    def alloc_buffer(self, op: hw_level.AllocBufferOp) -> None:
        try:
            spec = buffer_spec(op, self.target)
        except RuntimeError as e:  # raised when executed, like the interpreter does
            self.out.emit(f"raise {self.const(e)}", op)
            self.names[op.result] = "None"
            return
        name = self.fresh(op.result)
        self.call("alloc_buffer", [self.const(spec)], op, f"{name} = ")
        if self.noting:
            # The stream names a buffer as the launch's first core does (``core.named``), so
            # that the streams of two cores compare equal.
            noted = self.noted_names[op.result] = f"{name}_n"
            self.taken.add(noted)
            self.call("named", [name], op, f"{noted} = ")

    @prints(*hw_level.INSTRUCTION_OPS.values())
    def instruction(self, op: hw_level.HwOp) -> None:
        """One call of the machine's handler of the op's instruction spec: the op, the spec's
        static properties (fixed per op), then the operands in the spec's order."""
        spec = op.SPEC
        assert spec is not None
        handler = self.handlers.get(spec)
        if handler is None:
            handler = self.handlers[spec] = f"h_{spec.name}"
        values = [op, *spec.static(op)]
        args = [self.const(op), *(_literal(v) or self.const(v) for v in values[1:])]
        known = True  # whether every argument is known here (no run-time value)
        for name in spec.operands:
            v = getattr(op, name)
            # An absent optional operand (an mmad without a bias) is passed as None.
            value = None if v is None else self.literal(v)
            known = known and (v is None or value is not None)
            values.append(value)
            args.append("None" if v is None else self.ref(v))
        if self.noting:
            names = [self.noted_names.get(getattr(op, n)) for n in spec.operands]
            first = len(args) - len(names)
            key = [*args[:first], *(n or a for n, a in zip(names, args[first:], strict=True))]
            self.note(spec, key, values if known else None, op)
        if self.noting != "note":
            self.call(handler, args, op)

    def note(
        self, spec: Instruction, args: list[str], values: list[Any] | None, op: Operation
    ) -> None:
        """The statements that note one instruction in the core's stream, inline: its key
        (:func:`noted`) appended by ``N``, its GM offset, if it has one, by ``O``. A key
        known at translation time is built once, as a constant."""
        at = NOTED_OFFSET.get(spec)
        if values is not None:
            key = self.const(noted(spec, values)[0])
        elif at is None:
            key = f"({', '.join(args)},)"
        else:
            key = f"({', '.join(args[:at])}, ({''.join(a + ', ' for a in args[at + 1 :])}))"
        self.out.emit(f"N({key})", op)
        if at is not None:
            self.out.emit(f"O({args[at]})", op)

    @prints(api_level.CreateOp)
    def api_create(self, op: api_level.CreateOp) -> None:
        self.call("ApiObject", [], op, f"{self.fresh(op.result)} = ")

    @prints(api_level.InitOp)
    def api_init(self, op: api_level.InitOp) -> None:
        self.call("api_init", [self.ref(op.obj), self.const(op.tiling.tiling)], op)

    @prints(*_API)
    def api_call(self, op: Operation) -> None:
        self.call(self.const(_API[type(op)]), self.operands(op), op)

    @prints(api_level.IterateOp)
    def api_iterate(self, op: api_level.IterateOp) -> None:
        self.call("api_iterate", [self.ref(op.obj)], op, f"{self.fresh(op.more)} = ")

    @prints(api_level.GetTensorCOp)
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


NOTED_OFFSET: dict[Instruction, int] = {
    instructions.DATA_COPY: 2,
    instructions.FIXPIPE: 5,
}
"""The instructions whose GM offset a noted stream keeps apart from the key, and its
position among the handler's arguments (the op, the static properties, the operands)."""


def noted(spec: Instruction, args: Sequence[Any]) -> tuple[tuple[Any, ...], int | None]:
    """The key and the GM offset (None if it has none) under which a replay notes one
    instruction of ``spec`` called with ``args`` (the handler's): every argument but the GM
    offset, those after it as one tuple. The one definition of a noted instruction: the
    stream cores' handlers (``runtime/executors/replay.py``) and the noting translation
    (:meth:`Translator.note`) both follow it."""
    at = NOTED_OFFSET.get(spec)
    if at is None:
        return tuple(args), None
    return (*args[:at], tuple(args[at + 1 :])), args[at]


# The machine methods the generated code calls, bound to the core once per run (and the
# handler of every instruction the kernel uses).
BOUND = ("alloc_buffer", "scalar")
