"""ir/structured_printer.py: the printer base, through a small Python target built as the
module docstring says the compiled executor's translator maps onto it.

The target (``_Python``) prints a ``func.func`` as ``def f(*args)``, folds, counts the index
arithmetic into ``scalar(n)`` statements as the timing backend wants it, carries loop values
in locals and remembers each line's op. Its output is executed and compared with ascend-xdsl's
interpreter (``runtime/executors/interpreter.py``, the reference executor) on the same IR:

* folding: a value folded at translation time equals the value the generated code computes
  for the same op on arguments, and the interpreter's (``hw/intmath.py`` on both sides);
  a division by zero is not folded but raises on its own line, which names the op;
* the scalar hook: every arith op but a constant is counted, folded or not, and the count is
  flushed before the next statement and at the end of a block;
* ``scf.for`` with iteration arguments, ``scf.while`` with arguments and results, ``scf.if``
  with results, each executed against the interpreter, and the branch folded away on a
  literal condition;
* the rest of the contract: target ops dispatched by ``@prints``, name hints and the counter
  when the language takes hints, no folding when it is off, and the two error hooks.
"""

from __future__ import annotations

import itertools
import re
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, scf
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.parser import Parser

from ascend_xdsl.dialects.ascend import Ascend
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.hw.intmath import divsi, remsi
from ascend_xdsl.ir.structured_printer import StructuredPrinter, prints
from ascend_xdsl.runtime.executors.interpreter import make_interpreter
from ascend_xdsl.runtime.executors.translator import PYTHON


class Unsupported(RuntimeError):
    pass


def _fast(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, IndexType) or (isinstance(t, IntegerType) and t.width.data == 1)


@dataclass
class _Python(StructuredPrinter):
    """The compiled executor's translation, reduced to what the base must serve."""

    LANGUAGE = PYTHON

    timed: bool = False
    pending_scalar: int = 0

    def flush_scalar(self) -> None:
        if self.timed and self.pending_scalar:
            self.out.emit(f"scalar({self.pending_scalar})")
        self.pending_scalar = 0

    def on_arith(self, op: Operation) -> None:
        self.pending_scalar += 1

    def on_statement(self, op: Operation) -> None:
        self.flush_scalar()

    def on_block_end(self, block: Any) -> None:
        self.flush_scalar()

    def empty_block(self) -> None:
        self.out.emit("pass")

    def check_arith(self, op: Operation) -> None:
        if isinstance(op, arith.ConstantOp):
            if not _fast(op.result):
                raise Unsupported(f"index and i1 constants only, not {op.value}")
        elif not all(_fast(v) for v in (*op.operands, *op.results)):
            raise Unsupported(f"{op.name} on index and i1 values only")
        super().check_arith(op)

    def unsupported(self, op: Operation) -> Exception:
        return Unsupported(f"cannot run {op.name}")

    def undefined(self, value: SSAValue) -> Exception:
        return KeyError(value)

    def for_header(self, op: scf.ForOp, iv: str, lb: str, ub: str, step: str) -> None:
        bounds = f"{lb}, {ub}, {step}"
        self.out.emit(f"take(len(range({bounds})))", op)
        self.out.emit(f"for {iv} in range({bounds}):", op)

    def if_header(self, op: scf.IfOp, cond: str) -> None:
        self.out.emit(f"if {cond}:", op)

    def else_header(self, op: scf.IfOp) -> None:
        self.out.emit("else:")

    def assign(self, targets: Sequence[str], values: Sequence[SSAValue], op: Operation) -> None:
        if targets:
            lhs, rhs = ", ".join(targets), ", ".join(self.ref(v) for v in values)
            self.out.emit(f"{lhs}, = {rhs}," if len(targets) == 1 else f"{lhs} = {rhs}", op)

    def while_header(self, op: scf.WhileOp) -> None:
        self.out.emit("while True:", op)
        with self.out.indented():
            self.out.emit("take(1)", op)

    def while_exit(self, op: scf.ConditionOp, results: Sequence[str]) -> None:
        self.out.emit(f"if not {self.ref(op.condition)}:", op)
        with self.out.indented():
            self.assign(results, op.args, op)
            self.out.emit("break")

    def print_return(self, op: func.ReturnOp) -> None:
        values = ", ".join(self.ref(v) for v in op.arguments)
        self.out.emit(f"return ({values}{',' if len(op.arguments) == 1 else ''})", op)

    @prints(GetBlockIdxOp)
    def block_idx(self, op: GetBlockIdxOp) -> None:
        self.define(op.result, "blk", op)


@dataclass
class _Translation:
    source: str
    lines: dict[int, Operation]
    function: Any
    scalars: list[int]
    trips: list[int]

    def failing_op(self, e: BaseException) -> Operation | None:
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "<printed>"]
        return self.lines.get(frames[-1].lineno) if frames else None


def _parse(text: str) -> func.FuncOp:
    ctx = Context()
    for dialect in (builtin.Builtin, arith.Arith, scf.Scf, func.Func, Ascend):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    f = module.body.block.first_op
    assert isinstance(f, func.FuncOp)
    return f


def _translate(f: func.FuncOp, timed: bool = False) -> _Translation:
    printer = _Python(timed=timed)
    params = [printer.fresh(a, "a") for a in f.body.block.args]
    printer.print_block(f.body.block)
    source = "\n".join([f"def f(blk, {', '.join(params)}):", *printer.out.lines])
    scalars: list[int] = []
    trips: list[int] = []
    namespace: dict[str, Any] = {
        "_remsi": remsi,
        "_divsi": divsi,
        "scalar": scalars.append,
        "take": trips.append,
    }
    exec(compile(source, "<printed>", "exec"), namespace)
    # The def line comes first: body line n is source line n + 1.
    lines = {n + 1: op for n, op in printer.out.ops.items()}
    return _Translation(source, lines, namespace["f"], scalars, trips)


def _reference(f: func.FuncOp, *args: int) -> tuple[Any, ...]:
    module = ModuleOp([f.clone()])
    return tuple(make_interpreter(module, progress=False).call_op(f.sym_name.data, args))


def _run(t: _Translation, *args: int) -> tuple[Any, ...]:
    return t.function(0, *args)


def _printed(
    text: str, body: list[str], runs: Sequence[tuple[int, ...]] = (), timed: bool = False
) -> tuple[func.FuncOp, _Translation]:
    """The translation of ``text``, whose body must be ``body`` and which must compute what
    the interpreter computes on each argument tuple of ``runs``."""
    f = _parse(text)
    t = _translate(f, timed=timed)
    assert t.source.splitlines()[1:] == body
    for args in runs:
        assert _run(t, *args) == _reference(f, *args), args
    return f, t


# -- folding ------------------------------------------------------------------------------------

BINARY = ("addi", "subi", "muli", "divsi", "remsi", "floordivsi", "ceildivsi", "minsi", "maxsi")
BITS = ("andi", "ori", "xori")
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge")
PAIRS = [(a, b) for a, b in itertools.product((-7, -2, 0, 3, 8), repeat=2) if b != 0]


def _folded_and_executed(op: str, a: int, b: int, t: str, result: str) -> tuple[str, str]:
    """One op on two literals, and the same op on two arguments."""

    def constant(n: int) -> str:
        return ("true" if n else "false") if t == "i1" else f"{n} : {t}"

    folded = f"""func.func @f() -> {result} {{
      %a = arith.constant {constant(a)}
      %b = arith.constant {constant(b)}
      %r = {op} : {t}
      func.return %r : {result}
    }}"""
    executed = f"""func.func @f(%a: {t}, %b: {t}) -> {result} {{
      %r = {op} : {t}
      func.return %r : {result}
    }}"""
    return folded, executed


def _check_folding(op: str, pairs: Sequence[tuple[int, int]], t: str, result: str) -> None:
    for a, b in pairs:
        folded, executed = _folded_and_executed(op, a, b, t, result)
        translated = _translate(_parse(folded))
        got = _run(translated)[0]
        # Folded: the function returns a literal, nothing is computed at run time.
        assert translated.source.splitlines()[1:] == [f"    return ({got!r},)"]
        assert isinstance(got, bool) == (result == "i1")
        f = _parse(executed)
        args = (bool(a), bool(b)) if t == "i1" else (a, b)
        reference = _reference(f, *args)[0]
        if result == "i1":  # the interpreter's i1 is signed: true may come back as -1
            reference = bool(reference)
        assert got == _run(_translate(f), *args)[0] == reference, (op, a, b)


@pytest.mark.parametrize("name", BINARY + BITS)
def test_a_folded_value_is_the_executed_value(name: str) -> None:
    _check_folding(f"arith.{name} %a, %b", PAIRS, "index", "index")


@pytest.mark.parametrize("name", BITS)
def test_folded_logic_on_i1_is_boolean(name: str) -> None:
    _check_folding(f"arith.{name} %a, %b", list(itertools.product((0, 1), repeat=2)), "i1", "i1")


@pytest.mark.parametrize("predicate", PREDICATES)
def test_a_folded_comparison_is_the_executed_one(predicate: str) -> None:
    _check_folding(f"arith.cmpi {predicate}, %a, %b", PAIRS, "index", "i1")


def test_the_fold_uses_the_ir_rounding() -> None:
    # Truncating (divsi, remsi) and rounding (floordivsi, ceildivsi) differ on negative values;
    # the literals must be those of hw/intmath.py, not Python's // and %.
    text = """func.func @f() -> (index, index, index, index) {
      %a = arith.constant -7 : index
      %b = arith.constant 2 : index
      %q = arith.divsi %a, %b : index
      %r = arith.remsi %a, %b : index
      %fq = arith.floordivsi %a, %b : index
      %cq = arith.ceildivsi %a, %b : index
      func.return %q, %r, %fq, %cq : index, index, index, index
    }"""
    t = _translate(_parse(text))
    assert t.source.splitlines()[1] == "    return (-3, -1, -4, -3)"


def test_a_division_by_a_positive_constant_is_inline_and_truncates() -> None:
    """divsi and remsi by a positive constant need no helper call in the generated Python,
    and still truncate toward zero on a negative dividend (the interpreter's results); by
    a variable divisor they call the helpers."""
    text = """func.func @f(%a: index, %d: index) -> (index, index, index, index) {
      %c = arith.constant 3 : index
      %q = arith.divsi %a, %c : index
      %r = arith.remsi %a, %c : index
      %vq = arith.divsi %a, %d : index
      %vr = arith.remsi %a, %d : index
      func.return %q, %r, %vq, %vr : index, index, index, index
    }"""
    f = _parse(text)
    t = _translate(f)
    lines = t.source.splitlines()
    assert lines[1:3] == [
        "    v2 = a0 // 3 if a0 >= 0 else -(-a0 // 3)",
        "    v3 = a0 % 3 if a0 >= 0 else -(-a0 % 3)",
    ]
    assert "_divsi(a0, a1)" in lines[3] and "_remsi(a0, a1)" in lines[4]
    for a in (-8, -7, -3, -1, 0, 1, 2, 3, 7, 8):
        for d in (-3, 1, 3, 5):
            assert _run(t, a, d) == _reference(f, a, d), (a, d)


def test_a_division_by_zero_raises_on_its_own_line() -> None:
    text = """func.func @f() -> index {
      %a = arith.constant 7 : index
      %z = arith.constant 0 : index
      %q = arith.divsi %a, %z : index
      func.return %q : index
    }"""
    f = _parse(text)
    t = _translate(f)
    assert "    v0 = _divsi(7, 0)" in t.source.splitlines()
    with pytest.raises(ZeroDivisionError) as info:
        _run(t)
    op = t.failing_op(info.value)
    assert isinstance(op, arith.DivSIOp) and op.parent is f.body.block


def test_a_select_on_a_literal_keeps_the_value_taken() -> None:
    text = """func.func @f(%x: index) -> (index, index, index) {
      %t = arith.constant true
      %c = arith.constant 4 : index
      %s1 = arith.select %t, %x, %c : index
      %s2 = arith.select %t, %c, %x : index
      %p = arith.cmpi slt, %x, %c : index
      %s3 = arith.select %p, %x, %c : index
      func.return %s1, %s2, %s3 : index, index, index
    }"""
    _printed(
        text,
        [
            "    v1 = a0",
            "    v2 = a0 < 4",
            "    v3 = a0 if v2 else 4",
            "    return (v1, 4, v3)",
        ],
        [(-1,), (4,), (9,)],
    )


# -- the scalar count ---------------------------------------------------------------------------


def test_index_ops_are_counted_folded_or_not_and_flushed_before_statements() -> None:
    text = """func.func @f(%n: index) -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %two = arith.addi %c1, %c1 : index
      %m = arith.muli %n, %two : index
      %r = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %c0) -> (index) {
        %h = arith.floordivsi %i, %c2 : index
        %s = arith.addi %acc, %h : index
        scf.yield %s : index
      }
      %e = arith.subi %r, %c1 : index
      func.return %e : index
    }"""
    f, t = _printed(
        text,
        [
            "    v1 = a0 * 2",
            "    scalar(2)",
            "    r2, = 0,",
            "    take(len(range(0, v1, 1)))",
            "    for i3 in range(0, v1, 1):",
            "        v4 = i3 // 2",
            "        v5 = r2 + v4",
            "        scalar(2)",
            "        r2, = v5,",
            "    v6 = r2 - 1",
            "    scalar(1)",
            "    return (v6,)",
        ],
        timed=True,
    )
    for n in (0, 1, 3):
        t.scalars.clear()
        assert _run(t, n) == _reference(f, n)
        # What the interpreter counts: every arith op executed but the constants.
        assert sum(t.scalars) == 2 + 2 * (2 * n) + 1
    assert "scalar(" not in _translate(f).source


# -- structured control flow with values --------------------------------------------------------


def test_nested_loops_carry_their_values_in_locals() -> None:
    text = """func.func @f(%n: index, %k: index) -> (index, index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0, %p = %c1) -> (index, index) {
        %q = scf.for %j = %c0 to %k step %c1 iter_args(%t = %s) -> (index) {
          %u = arith.addi %t, %j : index
          scf.yield %u : index
        }
        %w = arith.muli %p, %c1 : index
        %x = arith.addi %w, %i : index
        scf.yield %q, %x : index, index
      }
      func.return %r#0, %r#1 : index, index
    }"""
    f, t = _printed(
        text,
        [
            "    r2, r3 = 0, 1",
            "    take(len(range(0, a0, 1)))",
            "    for i4 in range(0, a0, 1):",
            "        r5, = r2,",
            "        take(len(range(0, a1, 1)))",
            "        for i6 in range(0, a1, 1):",
            "            v7 = r5 + i6",
            "            r5, = v7,",
            "        v8 = r3 * 1",
            "        v9 = v8 + i4",
            "        r2, r3 = r5, v9",
            "    return (r2, r3)",
        ],
    )
    for n, k in ((0, 3), (1, 0), (3, 4)):
        t.trips.clear()
        assert _run(t, n, k) == _reference(f, n, k)
        # The trip counts are taken once per loop entry: the outer loop, then each inner one.
        assert t.trips == [n] + [k] * n
    loops = [op for op in t.lines.values() if isinstance(op, scf.ForOp)]
    assert len(set(loops)) == 2


def test_a_while_loop_with_arguments_and_results() -> None:
    # The after region gets the condition's arguments; the results are the last ones.
    text = """func.func @f(%n: index) -> (index, index) {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %r:2 = scf.while (%i = %c0, %s = %c0) : (index, index) -> (index, index) {
        %more = arith.cmpi slt, %i, %n : index
        %twice = arith.addi %s, %s : index
        scf.condition(%more) %i, %twice : index, index
      } do {
      ^bb0(%i2: index, %s2: index):
        %next = arith.addi %i2, %c3 : index
        %s3 = arith.addi %s2, %i2 : index
        scf.yield %next, %s3 : index, index
      }
      func.return %r#0, %r#1 : index, index
    }"""
    f, t = _printed(
        text,
        [
            "    w1, w2 = 0, 0",
            "    while True:",
            "        take(1)",
            "        v5 = w1 < a0",
            "        v6 = w2 + w2",
            "        scalar(2)",
            "        if not v5:",
            "            r3, r4 = w1, v6",
            "            break",
            "        w7, w8 = w1, v6",
            "        v9 = w7 + 3",
            "        v10 = w8 + w7",
            "        scalar(2)",
            "        w1, w2 = v9, v10",
            "    return (r3, r4)",
        ],
        timed=True,
    )
    for n in (0, 1, 7):
        t.scalars.clear()
        t.trips.clear()
        assert _run(t, n) == _reference(f, n)
        iterations = len(range(0, n, 3))
        assert t.trips == [1] * (iterations + 1)
        # Two arith ops before the condition on every test, two more in every iteration.
        assert sum(t.scalars) == 2 * (iterations + 1) + 2 * iterations
    assert isinstance(t.lines[2], scf.WhileOp) and isinstance(t.lines[8], scf.ConditionOp)


def test_an_if_with_results_and_an_if_on_a_literal() -> None:
    text = """func.func @f(%x: index) -> (index, index) {
      %c0 = arith.constant 0 : index
      %t = arith.constant true
      %neg = arith.cmpi slt, %x, %c0 : index
      %abs = scf.if %neg -> (index) {
        %m = arith.subi %c0, %x : index
        scf.yield %m : index
      } else {
        scf.yield %x : index
      }
      %kept = scf.if %t -> (index) {
        %d = arith.addi %x, %x : index
        scf.yield %d : index
      } else {
        %never = arith.muli %x, %x : index
        scf.yield %never : index
      }
      func.return %abs, %kept : index, index
    }"""
    _printed(
        text,
        [
            "    v1 = a0 < 0",
            "    if v1:",
            "        v3 = 0 - a0",
            "        r2, = v3,",
            "    else:",
            "        r2, = a0,",
            "    v5 = a0 + a0",
            "    r4, = v5,",
            "    return (r2, r4)",
        ],
        [(-5,), (0,), (6,)],
    )


def test_an_empty_block_is_a_statement_and_an_empty_else_is_left_out() -> None:
    text = """func.func @f(%x: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %p = arith.cmpi sgt, %x, %c0 : index
      scf.if %p {
        scf.for %i = %c0 to %x step %c1 {
        }
      } else {
      }
      func.return
    }"""
    body = [
        "    v1 = a0 > 0",
        "    if v1:",
        "        take(len(range(0, a0, 1)))",
        "        for i2 in range(0, a0, 1):",
        "            pass",
        "    return ()",
    ]
    _printed(text, body, [(-1,), (2,)])


# -- the rest of the contract -------------------------------------------------------------------


def test_target_ops_are_dispatched_to_their_marked_method() -> None:
    text = """func.func @f() -> index {
      %b = ascend.get_block_idx : index
      %c = arith.constant 3 : index
      %r = arith.muli %b, %c : index
      func.return %r : index
    }"""
    t = _translate(_parse(text))
    assert t.source.splitlines()[1:3] == ["    v0 = blk", "    v1 = v0 * 3"]
    assert t.function(5) == (15,)
    assert _Python.handlers == {GetBlockIdxOp: _Python.block_idx}
    assert StructuredPrinter.handlers == {}


class _Hinted(_Python):
    """The same target with the IR's name hints and without folding (as the C++ target)."""

    LANGUAGE = replace(PYTHON, fold=False, hints=re.compile(r"^[a-z]\w*$"), negative="({n})")


def test_hints_and_no_folding() -> None:
    text = """func.func @f(%x: index) -> index {
      %c = arith.constant -2 : index
      %two = arith.constant 2 : index
      %four = arith.addi %two, %two : index
      %taken = arith.muli %x, %c : index
      %v0 = arith.addi %taken, %four : index
      %n = arith.addi %v0, %x : index
      func.return %n : index
    }"""
    printer = _Hinted(taken={"taken"})
    f = _parse(text)
    printer.names[f.body.block.args[0]] = "x"
    printer.print_block(f.body.block)
    assert printer.out.lines == [
        "    four = 2 + 2",
        # The hint "taken" is taken: the counter names the value v0, so the hint "v0" of the
        # next one is taken too and the counter names it v1.
        "    v0 = x * (-2)",
        "    v1 = v0 + four",
        "    n = v1 + x",
        "    return (n,)",
    ]


def test_what_a_target_cannot_print_raises_its_own_error() -> None:
    unsigned = """func.func @f(%x: index) -> i1 {
      %u = arith.cmpi ult, %x, %x : index
      func.return %u : i1
    }"""
    with pytest.raises(Unsupported, match=r"cannot run arith\.cmpi"):
        _translate(_parse(unsigned))
    wide = """func.func @f(%x: i32) -> i32 {
      %y = arith.addi %x, %x : i32
      func.return %y : i32
    }"""
    with pytest.raises(Unsupported, match=r"arith\.addi on index and i1 values only"):
        _translate(_parse(wide))
    unknown = """func.func @f(%x: index) -> i64 {
      %y = arith.index_cast %x : index to i64
      func.return %y : i64
    }"""
    with pytest.raises(Unsupported, match=r"cannot run arith\.index_cast"):
        _translate(_parse(unknown))
    f = _parse("""func.func @f(%x: index) -> index {
      %y = arith.addi %x, %x : index
      func.return %y : index
    }""")
    with pytest.raises(KeyError):
        _Python().print_block(f.body.block)  # %x was never named


def test_the_compiled_translator_prints_on_the_base() -> None:
    """The compiled executor's translator is a target of the base: its walk dispatches on
    ``printers`` though its own ``handlers`` field names the machine's instruction handlers,
    its lines are numbered from 2 (the ``def`` line comes first), and an ``else`` holding
    only an empty ``scf.yield`` is not printed."""
    from ascend_xdsl.hw import load
    from ascend_xdsl.runtime.executors.translator import Translator

    assert Translator.printers[GetBlockIdxOp] is Translator.block_idx
    text = """func.func @f() -> index {
      %b = ascend.get_block_idx : index
      %c = arith.constant 3 : index
      %r = arith.muli %b, %c : index
      %z = arith.constant 0 : index
      %p = arith.cmpi sgt, %r, %z : index
      scf.if %p {
        scf.yield
      } else {
        scf.yield
      }
      func.return %r : index
    }"""
    f = _parse(text)
    t = Translator(load("atlas-a2-910b2"), True)
    t.block(f.body.block)
    assert t.handlers == {}
    assert t.out.lines == [
        "    v0 = core.block_idx",
        "    v1 = v0 * 3",
        "    v2 = v1 > 0",
        "    scalar(2)",
        "    if v2:",
        "        pass",
        "    return (v1,)",
    ]
    ops = [o.name for o in f.body.block.ops]
    assert {n: o.name for n, o in t.out.ops.items()} == {
        2: ops[0],
        3: ops[2],
        4: ops[4],
        6: "scf.if",
        8: "func.return",
    }
