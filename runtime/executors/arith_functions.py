"""Faster ``arith`` for the xDSL interpreter (the reference executor) on index values.

The stock ``arith`` interpreter functions of xDSL re-check attribute constraints and wrap
integers on every execution; the lowered kernels execute tens of thousands of index ops, which
made that the interpreter's largest cost. These overrides (registered with ``override=True`` by
``runtime/interpreter.make_interpreter``) decode each op once into a Python function on ints and
cache ``arith.constant`` values; ops on other integer widths still go to the stock functions.
The compiled executor (``runtime/executors/compiled.py``) does not use them: it inlines the same
Python arithmetic into its generated code.
"""

from __future__ import annotations

import operator
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
from xdsl.ir import Operation

from ascend_xdsl.hw.intmath import ceil_div, remsi

_BINARY: dict[type[Operation], Any] = {
    arith.AddiOp: operator.add,
    arith.SubiOp: operator.sub,
    arith.MuliOp: operator.mul,
    arith.FloorDivSIOp: operator.floordiv,
    arith.RemSIOp: remsi,
    arith.AndIOp: operator.and_,
    arith.OrIOp: operator.or_,
}
CMPI: dict[int, Any] = {
    0: operator.eq,
    1: operator.ne,
    2: operator.lt,
    3: operator.le,
    4: operator.gt,
    5: operator.ge,
}


@register_impls
class ExtraArithFunctions(InterpreterFunctions):
    """arith ops the stock xDSL interpreter lacks, and a cached ``arith.constant``.

    The stock ``arith.constant`` re-checks the attribute's type constraints on every execution
    (~90 us); the lowered kernels execute hundreds of thousands of constants, so their values
    are decoded once per op and cached (registered with ``override=True``)."""

    def __init__(self) -> None:
        super().__init__()
        self._constants: dict[Operation, Any] = {}
        self._fast: dict[Operation, Any] = {}
        self._stock = ArithFunctions()
        self._interp: Interpreter | None = None
        self._stock_impls = {
            arith.AddiOp: ArithFunctions.run_addi,
            arith.SubiOp: ArithFunctions.run_subi,
            arith.MuliOp: ArithFunctions.run_muli,
            arith.FloorDivSIOp: ArithFunctions.run_floordivsi,
            arith.RemSIOp: ArithFunctions.run_remsi,
            arith.AndIOp: ArithFunctions.run_andi,
            arith.OrIOp: ArithFunctions.run_ori,
            arith.CmpiOp: ArithFunctions.run_cmpi,
        }

    @impl(arith.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues
    ) -> PythonValues:
        try:
            return self._constants[op]
        except KeyError:
            value = self._stock.run_constant(interpreter, op, args).values
            self._constants[op] = value
            return value

    def _binary(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        fn = self._fast.get(op)
        if fn is None:
            self._interp = interpreter
            fn = self._decode(op)
            self._fast[op] = fn
        return (fn(args[0], args[1]),)

    def _decode(self, op: Operation) -> Any:
        """The Python function of a binary index/i1 op (64-bit index values never wrap in the
        lowered kernels' small offset arithmetic; other widths go to the stock impls)."""
        t = op.operands[0].type
        fast = isinstance(t, IndexType) or (isinstance(t, IntegerType) and t.width.data == 1)
        if isinstance(op, arith.CmpiOp) and op.predicate.value.data not in CMPI:
            fast = False
        if not fast:
            stock = self._stock_impls[type(op)]
            return lambda a, b: stock(self._stock, self._interp, op, (a, b)).values[0]
        if isinstance(op, arith.CmpiOp):
            return CMPI[op.predicate.value.data]
        return _BINARY[type(op)]

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

    @impl(arith.FloorDivSIOp)
    def run_floordivsi(
        self, interpreter: Interpreter, op: arith.FloorDivSIOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.RemSIOp)
    def run_remsi(
        self, interpreter: Interpreter, op: arith.RemSIOp, args: PythonValues
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

    @impl(arith.CmpiOp)
    def run_cmpi(
        self, interpreter: Interpreter, op: arith.CmpiOp, args: PythonValues
    ) -> PythonValues:
        return self._binary(interpreter, op, args)

    @impl(arith.MinSIOp)
    def run_minsi(
        self, interpreter: Interpreter, op: arith.MinSIOp, args: PythonValues
    ) -> PythonValues:
        return (min(args[0], args[1]),)

    @impl(arith.MaxSIOp)
    def run_maxsi(
        self, interpreter: Interpreter, op: arith.MaxSIOp, args: PythonValues
    ) -> PythonValues:
        return (max(args[0], args[1]),)

    @impl(arith.CeilDivSIOp)
    def run_ceildivsi(
        self, interpreter: Interpreter, op: arith.CeilDivSIOp, args: PythonValues
    ) -> PythonValues:
        return (ceil_div(args[0], args[1]),)
