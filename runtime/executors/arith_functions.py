"""``arith`` for the xDSL interpreter (the reference executor) on integers: faster, and MLIR's.

The stock ``arith`` interpreter functions of xDSL re-check attribute constraints on every
execution; the lowered kernels execute tens of thousands of index ops, which made that the
interpreter's largest cost. These overrides (registered with ``override=True`` by
``runtime/interpreter.make_interpreter``) decode each op once into a Python function on ints and
cache ``arith.constant`` values.

Semantics are MLIR's for a fixed width: the operands of an ``iN`` op are read as N-bit two's
complement (signed ops) or unsigned (``divui``, ``remui``, the unsigned ``cmpi``), and the result
wraps to N bits. An ``i1`` is a Python bool (true is -1 when read signed: ``true + true`` is
``false``, ``cmpi slt, true, false`` is true), as the compiled executor keeps it. ``index``
values are Python ints that do not wrap: kernels index buffers of at most a few GB, and the
compiled executor inlines plain Python arithmetic for them (``runtime/executors/translator.py``);
both executors therefore agree. A division or remainder by zero raises the
``ZeroDivisionError`` of the functions the compiled executor calls too (``hw/intmath.py``,
Python's ``//``), which the runner pins to the op; xDSL's own ``divsi`` asserts instead.
The compiled executor (``runtime/executors/compiled.py``) does not use these functions: it
inlines the same arithmetic into its generated code.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.ir import Attribute, Operation

from ascend_xdsl.hw.intmath import ceil_div, divsi, remsi

INDEX_BITS = 64
"""The width of ``index`` when an op reads it unsigned (``divui``, ``remui``, ``cmpi ult``)."""

_SIGNED: dict[type[Operation], Callable[[int, int], int]] = {
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
"""The binary ops on operands read signed, each with what it computes on Python ints."""

_UNSIGNED: dict[type[Operation], Callable[[int, int], int]] = {
    arith.DivUIOp: operator.floordiv,
    arith.RemUIOp: operator.mod,
}
"""The binary ops on operands read unsigned."""

CMPI: dict[int, Any] = {
    0: operator.eq,
    1: operator.ne,
    2: operator.lt,
    3: operator.le,
    4: operator.gt,
    5: operator.ge,
    6: operator.lt,
    7: operator.le,
    8: operator.gt,
    9: operator.ge,
}
"""``arith.cmpi`` predicates by number: 2-5 signed, 6-9 unsigned (ult, ule, ugt, uge)."""


def width_of(t: Attribute) -> int | None:
    """Bits of an integer type; None for ``index`` (unbounded, see the module docstring)."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return None
    raise TypeError(f"not an integer type: {t}")


def as_signed(value: int, width: int | None) -> int:
    """``value`` read as a ``width``-bit two's complement integer (index: as it is)."""
    if width is None:
        return int(value)
    half = 1 << (width - 1)
    return ((int(value) + half) & ((half << 1) - 1)) - half


def as_unsigned(value: int, width: int | None) -> int:
    """``value`` read as a ``width``-bit unsigned integer (index: 64 bits)."""
    return int(value) & ((1 << (width or INDEX_BITS)) - 1)


def wrapped(value: int, width: int | None) -> int | bool:
    """A result as its type holds it: wrapped to ``width`` bits, an i1 as a bool."""
    if width == 1:
        return bool(value & 1)
    return as_signed(value, width)


def binary_function(op: Operation) -> Callable[[Any, Any], Any]:
    """The Python function of a binary integer op (MLIR's semantics, see the module)."""
    width = width_of(op.operands[0].type)
    if isinstance(op, arith.CmpiOp):
        predicate = op.predicate.value.data
        compare = CMPI[predicate]
        if predicate >= 6:
            return lambda a, b: compare(as_unsigned(a, width), as_unsigned(b, width))
        if width is None:
            return compare
        return lambda a, b: compare(as_signed(a, width), as_signed(b, width))
    unsigned = type(op) in _UNSIGNED
    fn = (_UNSIGNED if unsigned else _SIGNED)[type(op)]
    if unsigned:
        return lambda a, b: wrapped(fn(as_unsigned(a, width), as_unsigned(b, width)), width)
    if width is None:
        return fn
    return lambda a, b: wrapped(fn(as_signed(a, width), as_signed(b, width)), width)


@register_impls
class ExtraArithFunctions(InterpreterFunctions):
    """Every binary integer ``arith`` op and ``cmpi`` with MLIR's wrapping (the module says
    how), those the stock xDSL interpreter lacks included, and a cached ``arith.constant``.

    The stock ``arith.constant`` re-checks the attribute's type constraints on every execution
    (~90 us); the lowered kernels execute hundreds of thousands of constants, so their values
    are decoded once per op and cached (registered with ``override=True``)."""

    def __init__(self) -> None:
        super().__init__()
        self._constants: dict[Operation, Any] = {}
        self._fast: dict[Operation, Any] = {}
        self._stock = ArithFunctions()

    @impl(arith.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues
    ) -> PythonValues:
        try:
            return self._constants[op]
        except KeyError:
            value = self._stock.run_constant(interpreter, op, args).values
            t = op.result.type
            if isinstance(t, IntegerType) and t.width.data == 1:
                value = (bool(value[0]),)  # xDSL decodes true as -1; an i1 is a bool here
            self._constants[op] = value
            return value

    def _binary(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        fn = self._fast.get(op)
        if fn is None:
            fn = self._fast[op] = binary_function(op)
        return (fn(args[0], args[1]),)

    @impl(arith.AddiOp)
    def run_addi(
        self, interpreter: Interpreter, op: arith.AddiOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.SubiOp)
    def run_subi(
        self, interpreter: Interpreter, op: arith.SubiOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.MuliOp)
    def run_muli(
        self, interpreter: Interpreter, op: arith.MuliOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.DivSIOp)
    def run_divsi(
        self, interpreter: Interpreter, op: arith.DivSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.RemSIOp)
    def run_remsi(
        self, interpreter: Interpreter, op: arith.RemSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(
        self, interpreter: Interpreter, op: arith.FloorDivSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.CeilDivSIOp)
    def run_ceildivsi(
        self, interpreter: Interpreter, op: arith.CeilDivSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.DivUIOp)
    def run_divui(
        self, interpreter: Interpreter, op: arith.DivUIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.RemUIOp)
    def run_remui(
        self, interpreter: Interpreter, op: arith.RemUIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.MinSIOp)
    def run_minsi(
        self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.MaxSIOp)
    def run_maxsi(
        self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.AndIOp)
    def run_andi(
        self, interpreter: Interpreter, op: arith.AndIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.OrIOp)
    def run_ori(
        self, interpreter: Interpreter, op: arith.OrIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.XOrIOp)
    def run_xori(
        self, interpreter: Interpreter, op: arith.XOrIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.CmpiOp)
    def run_cmpi(
        self, interpreter: Interpreter, op: arith.CmpiOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)
