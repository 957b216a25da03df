"""The printer base of the code generators that write a kernel's structured control flow as
source: the Ascend C emitter (``emit/kernel.py``, C++) and the compiled executor's
translator (``runtime/executors/translator.py``, Python).

Both walk one ``func.func`` of ``scf.for`` / ``scf.if`` / ``scf.while``, index ``arith`` and
``ascend.*`` ops, and write one statement per op. What they share is here, written once:

* :class:`LineWriter`, the indented lines, each optionally remembered with the op it executes
  (so an error raised on a generated line can name its op);
* SSA value naming in :class:`StructuredPrinter`: :meth:`~StructuredPrinter.fresh` names
  (from the IR's name hint where the target accepts it, else a prefix and a counter shared by
  all prefixes), :meth:`~StructuredPrinter.ref` (a name, or a literal spelled the target's
  way), :meth:`~StructuredPrinter.literal` and :meth:`~StructuredPrinter.alias`;
* the walk of a block and the dispatch of ``scf.for`` (with iteration arguments and results),
  ``scf.if`` (with results), ``scf.while`` (with arguments and results), ``scf.yield``,
  ``scf.condition`` and ``func.return``; an ``scf.yield`` assigns the values of its parent's
  results, so loop-carried values are locals the loop reassigns;
* the arith ops ``addi subi muli divsi remsi floordivsi ceildivsi minsi maxsi andi ori xori
  cmpi select constant``: a constant is a literal, never a statement; with
  :attr:`Language.fold` an op whose operands are all literals is folded with the functions of
  ``hw/intmath.py`` (the ones the lowering folds and the executors run with, so a folded and
  an executed value cannot differ), a division by zero is left to fail at run time, on its own
  line, and an ``scf.if`` or ``arith.select`` on a literal condition keeps only the branch taken.

What differs between the targets is supplied by the subclass: the expression spelling as a
:class:`Language` table (operator templates, the helper functions an op needs, literals,
definitions, which name hints are usable, folding on or off) and the statement syntax as
methods (:meth:`~StructuredPrinter.for_header`, :meth:`~StructuredPrinter.if_header`,
:meth:`~StructuredPrinter.else_header`, :meth:`~StructuredPrinter.close_region`,
:meth:`~StructuredPrinter.assign`, :meth:`~StructuredPrinter.while_header`,
:meth:`~StructuredPrinter.while_exit`, :meth:`~StructuredPrinter.empty_block`,
:meth:`~StructuredPrinter.print_return`). The ops a target handles itself (``ascend.*``) are
methods marked with :func:`prints`; it may also override any ``print_*`` method (the C++ target
writes ``scf.while`` around ``ascend.iterate`` as ``while (obj.Iterate())``). Three hooks
observe the walk without printing: :meth:`~StructuredPrinter.on_arith` (every arith op but a
constant, folded or not), :meth:`~StructuredPrinter.on_statement` (every other op, and each
terminator the base prints) and :meth:`~StructuredPrinter.on_block_end`. A target rejects what
it cannot spell in :meth:`~StructuredPrinter.check_arith`, in its own overrides, and through
the exceptions :meth:`~StructuredPrinter.unsupported` and :meth:`~StructuredPrinter.undefined`
make, in its own words.

The C++ target (``emit/kernel.py``) prints statement for statement what the IR says, so it
does not fold, takes the IR's name hints and rejects carried values. The compiled executor's
``Translator`` (``runtime/executors/translator.py``) maps onto the base as follows
(``tests/test_structured_printer.py`` runs a small Python target built the same way):

* the class: ``@dataclass class Translator(SignatureCompiler, StructuredPrinter)`` (the base's
  fields are keyword-only, so ``Translator(target, timed, aggregate=...)`` keeps working; its
  own ``handlers`` field, the machine's handler of each instruction, is keyword-only too, as
  the dataclass places it where the base declares the class variable) with
  ``LANGUAGE = Language(binary=`` the templates of its former ``_BINARY`` (``"{a} // {b}"``,
  ``"-(-{a} // {b})"``, ``"_remsi({a}, {b})"``, ``"_divsi({a}, {b})"``, ``"min({a}, {b})"``,
  ...), ``select="{a} if {c} else {b}"``, ``true="True"``, ``false="False"``,
  ``define="{name} = {expr}"`` for both types, prefixes ``"v"``, ``fold=True``, no
  ``hints)``. Its fold functions and ``_CMPI`` go: the base folds with ``FOLD`` / ``COMPARE``.
* the deleted duplicates: ``Writer`` is :class:`LineWriter` with ``first=2`` (``out.ops`` is
  keyed by source line counting the ``def`` line, so ``compile_kernel`` still adds only the
  prologue's length); ``fresh``, ``ref``, ``literal``,
  ``names``, ``literals``, ``counter`` are the base's (``sub.counter = self.counter`` shares
  it as before); ``block_with_yield`` is ``print_block(block, targets)`` (``block`` stays, as
  ``compile_kernel``'s entry point);
  ``constant`` / ``arith`` are the base's arith printing; ``scf_for`` / ``scf_if`` /
  ``scf_while`` are the base's ``print_for`` / ``print_if`` / ``print_while``.
* the hooks it overrides: ``on_arith`` is ``pending_scalar += 1``; ``on_statement`` and
  ``on_block_end`` are ``flush_scalar()``; ``empty_block`` emits ``pass``; ``check_arith``
  raises its ``UnsupportedOpError`` for a constant that is not an index or i1 integer, for
  arith on other types and for an unsigned ``cmpi``; ``unsupported`` returns its
  ``UnsupportedOpError`` ("cannot run ...; use the interpreter"); ``undefined`` returns
  ``KeyError(value)`` (what the dict lookup raised; ``compile_kernel`` catches it when a
  signature cannot be built). ``for_header(op, iv, lb, ub, step)`` emits the
  ``take(len(range(...)), K[..])`` line, then ``for iv in loop(sig, ...)`` (aggregate, no
  carried values: it calls ``signature_function`` there, after the base has named ``iv``, as
  now) or ``for iv in range(...)``, both with ``op``; ``if_header`` emits ``if c:`` with
  ``op``, ``else_header`` ``else:``; ``assign`` is its ``assign`` (``lhs, = rhs,``);
  ``while_header`` emits ``while True:`` with ``op`` and, one level in, ``take(1, K[..])``;
  ``while_exit(condition, results)`` emits ``if not c:`` with the ``scf.condition``, then one
  level in the assignment of ``results`` and ``break``; ``print_return`` emits
  ``return (...)``.
* the signature mode overrides ``print_op``: with ``signature`` set it passes constants, the
  relevant arith ops and ``scf.if`` to ``super().print_op``, sends ``scf.for`` to
  ``nested_signature``, and skips everything else, ``ascend.get_block_idx`` included (its
  value is the signature's parameter); without it, ``super().print_op(op)``.
* its ``ascend.*`` handlers (``block_idx`` ... ``api_get_tensor_c``, ``instruction`` for
  every instruction op, ``api_call`` for ``_API``) get ``@prints(...)`` and ``_HANDLERS`` goes;
  ``block_idx`` becomes ``self.define(op.result, "core.block_idx", op)``; ``const``, the
  signature functions and ``compile_kernel`` stay as they are.

One difference from the translator's own printer before it moved onto this base: an ``else``
whose block holds nothing but an ``scf.yield`` without values is not printed (it was
``else: pass``); nothing it runs changes, and no kernel the pipeline makes has one.
"""

from __future__ import annotations

import itertools
import operator
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, cast

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ascend_xdsl.hw.intmath import ceil_div, divsi, remsi

__all__ = [
    "ARITH_OPS",
    "COMPARE",
    "FOLD",
    "Language",
    "LineWriter",
    "StructuredPrinter",
    "is_i1",
    "kind_of",
    "prints",
]

FOLD: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: operator.add,
    arith.SubiOp: operator.sub,
    arith.MuliOp: operator.mul,
    arith.DivSIOp: divsi,
    arith.RemSIOp: remsi,
    arith.FloorDivSIOp: operator.floordiv,
    arith.CeilDivSIOp: ceil_div,
    arith.MinSIOp: min,
    arith.MaxSIOp: max,
    arith.AndIOp: operator.and_,
    arith.OrIOp: operator.or_,
    arith.XOrIOp: operator.xor,
}
"""The binary arith ops the base prints, each with what it computes on literals."""

COMPARE: dict[str, Callable[[int, int], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "slt": operator.lt,
    "sle": operator.le,
    "sgt": operator.gt,
    "sge": operator.ge,
}
"""The ``arith.cmpi`` predicates the base prints: the signed ones (index values are signed)."""

MIRRORED: dict[str, str] = {"slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle"}
"""An ordered comparison of two i1 with the operands' order undone: i1 true is -1 when read
signed, so ``true < false`` there, while the printed booleans order true after false."""

BIT_OPS: tuple[type[Operation], ...] = (arith.AndIOp, arith.OrIOp, arith.XOrIOp)
"""The ops whose ``binary`` template is already right on booleans (no carry, no sign)."""

ARITH_OPS: tuple[type[Operation], ...] = (*FOLD, arith.CmpiOp, arith.SelectOp)
"""The arith ops the base prints besides ``arith.constant``."""

# C++ and Python spell the comparisons alike.
_INFIX = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}


_KIND_OF = (
    ("yield", scf.YieldOp),
    ("constant", arith.ConstantOp),
    ("select", arith.SelectOp),
    ("cmpi", arith.CmpiOp),
    ("binary", tuple(FOLD)),
    ("for", scf.ForOp),
    ("if", scf.IfOp),
    ("while", scf.WhileOp),
    ("return", func.ReturnOp),
)
_KINDS: dict[type[Operation], str] = {}


def _kind(cls: type[Operation]) -> str:
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = next((k for k, c in _KIND_OF if issubclass(cls, c)), "other")
    return kind


def kind_of(op: Operation) -> str:
    """What the walk does with ``op``: ``"yield"``, ``"constant"``, ``"select"``, ``"cmpi"``,
    ``"binary"`` (an op of :data:`FOLD`), ``"for"``, ``"if"``, ``"while"``, ``"return"`` or
    ``"other"``. Looked up once per op class: ``isinstance`` on xDSL's op classes goes through
    ``ABCMeta``, and testing every op against every kind was a large part of a
    translation's time."""
    return _KINDS.get(type(op)) or _kind(type(op))


def is_i1(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


@dataclass(frozen=True)
class Language:
    """How a target spells the values and expressions the base prints."""

    binary: Mapping[type[Operation], str]
    """A template over ``{a}`` and ``{b}`` for every op of :data:`FOLD`."""
    select: str
    """``arith.select``, over ``{c}``, ``{a}`` (taken if ``c``) and ``{b}``."""
    true: str
    false: str
    define: str
    """The statement that defines an index value, over ``{name}`` and ``{expr}``."""
    define_i1: str
    """The same for an i1 value."""
    prefix: str = "v"
    """How fresh names of index values start (``i``, ``r``, ... are the callers' own)."""
    prefix_i1: str = "v"
    boolean: Mapping[type[Operation], str] = field(default_factory=dict)
    """Templates that replace those of ``binary`` when the result is i1 (C++ ``&&``)."""
    compare: Mapping[str, str] = field(default_factory=lambda: dict(_INFIX))
    """The infix operator of each predicate of :data:`COMPARE`."""
    helpers: Mapping[type[Operation], str] = field(default_factory=dict)
    """The helper function an op's template calls, which the target must define if used."""
    positive_divisor: Mapping[type[Operation], str] = field(default_factory=dict)
    """Templates that replace those of ``binary`` when ``{b}`` is a positive literal (then
    no helper is called)."""
    negative: str = "{n}"
    """A negative integer literal, over ``{n}`` (C++ parenthesizes it: ``v * (-3)``)."""
    fold: bool = False
    """Fold ops on literals, and branches on literal conditions, at translation time."""
    hints: re.Pattern[str] | None = None
    """Name a value by its IR name hint when the hint matches this (and is not taken)."""

    def literal(self, value: int | bool) -> str:
        if isinstance(value, bool):
            return self.true if value else self.false
        return self.negative.format(n=value) if value < 0 else str(value)


class LineWriter:
    """Generated source: indented lines, each optionally remembered with the op it executes."""

    def __init__(self, depth: int = 1, indent: str = "    ", first: int = 1) -> None:
        self.lines: list[str] = []
        self.ops: dict[int, Operation] = {}
        """The op of a line, by its line number among :attr:`lines` (from :attr:`first`)."""
        self.depth = depth
        self.indent = indent
        self.first = first
        """The number of the first line (2 when the lines follow a ``def`` line)."""
        self._shift = first - 1

    def emit(self, text: str, op: Operation | None = None) -> None:
        self.lines.append(self.indent * self.depth + text)
        if op is not None:
            self.ops[len(self.lines) + self._shift] = op

    @contextmanager
    def indented(self) -> Iterator[None]:
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1


_Method = TypeVar("_Method", bound=Callable[..., None])
_PRINTS = "_structured_printer_prints"


def prints(*kinds: type[Operation]) -> Callable[[_Method], _Method]:
    """Mark a method of a :class:`StructuredPrinter` subclass as the printer of ``kinds``."""

    def mark(method: _Method) -> _Method:
        setattr(method, _PRINTS, kinds)
        return method

    return mark


@dataclass(kw_only=True)
class StructuredPrinter(ABC):
    """One pass over a function body, one statement per op (see the module docstring)."""

    LANGUAGE: ClassVar[Language]
    handlers: ClassVar[dict[type[Operation], Callable[[Any, Any], None]]] = {}
    """The methods marked with :func:`prints`, by op class (collected per subclass). A subclass
    may reuse the name for a field of its own; the walk dispatches on :attr:`printers`."""
    printers: ClassVar[dict[type[Operation], Callable[[Any, Any], None]]] = {}
    """The same table under a name no subclass field takes (the compiled executor's translator
    has a ``handlers`` field: the machine's handler of each instruction)."""

    out: LineWriter = field(default_factory=LineWriter)
    names: dict[SSAValue, str] = field(default_factory=dict)
    literals: dict[SSAValue, int | bool] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)
    """Names a fresh name must not be (the target's own names and keywords, and every name
    given so far)."""
    counter: Iterator[int] = field(default_factory=itertools.count)
    used_helpers: set[str] = field(default_factory=set)
    """The :attr:`Language.helpers` the printed code calls."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        printers = dict(cls.printers)
        for member in vars(cls).values():
            for kind in getattr(member, _PRINTS, ()):
                printers[kind] = member
        cls.printers = printers
        if "handlers" not in vars(cls):  # else a field of the subclass's own
            cls.handlers = printers

    # -- values -----------------------------------------------------------------------------

    def fresh(self, value: SSAValue, prefix: str = "v") -> str:
        """A new name for ``value``: its name hint if the language takes it and it is free,
        else ``prefix`` and the next number."""
        hints, taken = self.LANGUAGE.hints, self.taken
        hint = value.name_hint if hints is not None else None
        name = hint if hint and hints and hints.match(hint) and hint not in taken else None
        while name is None or name in taken:
            name = f"{prefix}{next(self.counter)}"
        taken.add(name)
        self.names[value] = name
        return name

    def ref(self, value: SSAValue) -> str:
        """How the printed code reads ``value``: its literal or its name."""
        if value in self.literals:
            return self.LANGUAGE.literal(self.literals[value])
        if value not in self.names:
            raise self.undefined(value)
        return self.names[value]

    def literal(self, value: SSAValue) -> int | bool | None:
        """The value of ``value`` if it is a literal (a constant, or folded)."""
        return self.literals.get(value)

    def alias(self, value: SSAValue, of: SSAValue) -> None:
        """Read ``value`` as ``of`` is read (a cast that changes nothing in the target)."""
        if of in self.literals:
            self.literals[value] = self.literals[of]
        else:
            self.names[value] = self.ref(of)

    def define(self, value: SSAValue, expr: str, op: Operation | None = None) -> str:
        """A statement that gives ``value`` a fresh name, computed by ``expr``."""
        language = self.LANGUAGE
        i1 = is_i1(value.type)
        name = self.fresh(value, language.prefix_i1 if i1 else language.prefix)
        template = language.define_i1 if i1 else language.define
        self.out.emit(template.format(name=name, expr=expr), op)
        return name

    def results(self, op: Operation) -> list[str]:
        """Fresh names for the results of a structured op, which its yields assign."""
        return [self.fresh(r, "r") for r in op.results]

    # -- the walk ---------------------------------------------------------------------------

    def print_block(self, block: Block, targets: Sequence[str] = ()) -> None:
        """The ops of ``block``; its ``scf.yield`` assigns ``targets``."""
        start = len(self.out.lines)
        for op in block.ops:
            if (_KINDS.get(type(op)) or _kind(type(op))) == "yield":
                self.print_yield(op, targets)
            else:
                self.print_op(op)
        self.on_block_end(block)
        if len(self.out.lines) == start:
            self.empty_block()

    def print_op(self, op: Operation) -> None:
        kind = _KINDS.get(type(op)) or _kind(type(op))
        if kind == "constant":
            self.check_arith(op)
            return self.print_constant(cast(arith.ConstantOp, op))
        if kind in ("binary", "cmpi", "select"):
            self.on_arith(op)
            self.check_arith(op)
            return self.print_arith(op)
        self.on_statement(op)
        if kind == "for":
            return self.print_for(cast(scf.ForOp, op))
        if kind == "if":
            return self.print_if(cast(scf.IfOp, op))
        if kind == "while":
            return self.print_while(cast(scf.WhileOp, op))
        if kind == "return":
            return self.print_return(cast(func.ReturnOp, op))
        handler = self.printers.get(type(op))
        if handler is None:
            raise self.unsupported(op)
        handler(self, op)

    # -- arith ------------------------------------------------------------------------------

    def print_constant(self, op: arith.ConstantOp) -> None:
        attr = op.value
        assert isinstance(attr, IntegerAttr), "check_arith lets integer constants only through"
        n = attr.value.data
        self.literals[op.result] = bool(n) if is_i1(op.result.type) else n

    def print_arith(self, op: Operation) -> None:
        kind = _KINDS.get(type(op)) or _kind(type(op))
        if kind == "select":
            return self.print_select(cast(arith.SelectOp, op))
        a, b = op.operands
        result = op.results[0]
        language = self.LANGUAGE
        # MLIR's i1: true is -1 read signed, and results wrap to one bit (true + true = false).
        i1_operands = is_i1(a.type)
        booleans = False
        if kind == "cmpi":
            cmpi = cast(arith.CmpiOp, op)
            predicate = arith.CMPI_COMPARISON_OPERATIONS[cmpi.predicate.value.data]
            fold: Callable[[int, int], int | bool] = COMPARE[predicate]
            infix = MIRRORED.get(predicate, predicate) if i1_operands else predicate
            template = f"{{a}} {language.compare[infix]} {{b}}"
        else:
            fold = FOLD[type(op)]
            booleans = is_i1(result.type) and type(op) in language.boolean
            template = (language.boolean if booleans else language.binary)[type(op)]
        la, lb = self.literal(a), self.literal(b)
        if language.fold and la is not None and lb is not None:
            try:
                folded = fold(-int(la), -int(lb)) if i1_operands else fold(int(la), int(lb))
            except ZeroDivisionError:
                pass  # it raises when the printed code runs, on the op's own line
            else:
                self.literals[result] = bool(int(folded) & 1) if is_i1(result.type) else int(folded)
                return
        if i1_operands and kind != "cmpi" and not (booleans or isinstance(op, BIT_OPS)):
            raise self.unsupported(op)  # no spelling of its one-bit result on booleans
        positive = language.positive_divisor.get(type(op))
        if positive is not None and not booleans and isinstance(lb, int) and lb > 0:
            template = positive
        elif (helper := language.helpers.get(type(op))) is not None:
            self.used_helpers.add(helper)
        expr = template.format(a=self.ref(a), b=self.ref(b))
        self.define(result, expr, op)

    def print_select(self, op: arith.SelectOp) -> None:
        c, a, b = op.operands
        taken = self.literal(c) if self.LANGUAGE.fold else None
        if taken is not None:
            chosen = a if taken else b
            if chosen in self.literals:
                self.literals[op.result] = self.literals[chosen]
            else:
                self.define(op.result, self.ref(chosen), op)
            return
        expr = self.LANGUAGE.select.format(c=self.ref(c), a=self.ref(a), b=self.ref(b))
        self.define(op.result, expr, op)

    # -- scf --------------------------------------------------------------------------------

    def print_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        iv, *carried = body.args
        results = self.results(op)
        self.assign(results, op.iter_args, op)
        # The carried block arguments are the results' locals: the yield reassigns them.
        for arg, name in zip(carried, results, strict=True):
            self.names[arg] = name
        lb, ub, step = (self.ref(v) for v in (op.lb, op.ub, op.step))
        self.for_header(op, self.fresh(iv, "i"), lb, ub, step)
        with self.out.indented():
            self.print_block(body, results)
        self.close_region(op)

    def print_if(self, op: scf.IfOp) -> None:
        results = self.results(op)
        taken = self.literal(op.cond) if self.LANGUAGE.fold else None
        if taken is not None:  # only the branch taken exists at run time
            region = op.true_region if taken else op.false_region
            if region.blocks:
                self.print_block(region.block, results)
            return
        self.if_header(op, self.ref(op.cond))
        with self.out.indented():
            self.print_block(op.true_region.block, results)
        otherwise = op.false_region.blocks.first
        if otherwise is not None and any(
            not isinstance(o, scf.YieldOp) or o.operands for o in otherwise.ops
        ):
            self.else_header(op)
            with self.out.indented():
                self.print_block(otherwise, results)
        self.close_region(op)

    def print_while(self, op: scf.WhileOp) -> None:
        """``scf.while`` as an endless loop that the ``scf.condition`` leaves: the before
        region's arguments are the loop's state, which the after region's yield reassigns."""
        before, after = op.before_region.block, op.after_region.block
        state = [self.fresh(a, "w") for a in before.args]
        self.assign(state, op.arguments, op)
        results = self.results(op)
        self.while_header(op)
        with self.out.indented():
            for inner in before.ops:
                if isinstance(inner, scf.ConditionOp):
                    self.on_statement(inner)
                    self.while_exit(inner, results)
                    passed = [self.fresh(a, "w") for a in after.args]
                    self.assign(passed, inner.args, inner)
                else:
                    self.print_op(inner)
            self.print_block(after, state)
        self.close_region(op)

    def print_yield(self, op: scf.YieldOp, targets: Sequence[str]) -> None:
        self.on_statement(op)
        self.assign(targets, op.arguments, op)

    # -- what the target supplies -----------------------------------------------------------

    @abstractmethod
    def unsupported(self, op: Operation) -> Exception:
        """The error for an op this target has no spelling for."""

    @abstractmethod
    def undefined(self, value: SSAValue) -> Exception:
        """The error for a value read before the printer defined it."""

    @abstractmethod
    def for_header(self, op: scf.ForOp, iv: str, lb: str, ub: str, step: str) -> None:
        """The statement(s) that open the loop's body, ``iv`` counting from ``lb`` to ``ub``."""

    @abstractmethod
    def if_header(self, op: scf.IfOp, cond: str) -> None:
        """The statement that opens the then branch."""

    @abstractmethod
    def else_header(self, op: scf.IfOp) -> None:
        """The statement between the then and the else branch."""

    @abstractmethod
    def print_return(self, op: func.ReturnOp) -> None: ...

    # The hooks marked B027 do nothing unless a target overrides them: not abstract on purpose.

    def close_region(self, op: Operation) -> None:  # noqa: B027
        """The statement after a loop's body or an if's last branch; none by default
        (the language closes a block by indentation)."""

    def empty_block(self) -> None:  # noqa: B027
        """A block that printed nothing; nothing by default."""

    def assign(self, targets: Sequence[str], values: Sequence[SSAValue], op: Operation) -> None:
        """Set the locals ``targets`` to ``values``. By default a target has no mutable
        locals: an op that carries values has no spelling."""
        if targets:
            raise self.unsupported(op)

    def while_header(self, op: scf.WhileOp) -> None:
        """The statement that opens an endless loop (see :meth:`print_while`)."""
        raise self.unsupported(op)

    def while_exit(self, op: scf.ConditionOp, results: Sequence[str]) -> None:
        """Leave the loop unless ``op.condition``, with ``results`` set to ``op.args``."""
        raise self.unsupported(op)

    def check_arith(self, op: Operation) -> None:
        """Raise if the target cannot print this arith op. By default it rejects what the base
        has no spelling for: a constant that is not an integer, an unsigned comparison."""
        if isinstance(op, arith.ConstantOp) and not isinstance(op.value, IntegerAttr):
            raise self.unsupported(op)
        if isinstance(op, arith.CmpiOp) and (
            arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data] not in COMPARE
        ):
            raise self.unsupported(op)

    def on_arith(self, op: Operation) -> None:  # noqa: B027
        """Called for every arith op of :data:`ARITH_OPS`, folded or not, before it is printed."""

    def on_statement(self, op: Operation) -> None:  # noqa: B027
        """Called before every op that is neither arith nor a constant, and before the base
        prints an ``scf.yield`` or an ``scf.condition``."""

    def on_block_end(self, block: Block) -> None:  # noqa: B027
        """Called after the last op of every block the base prints."""
