"""Issue #20, items 4, 10 and 14: the tuning cache, integer semantics, shared state of the Python
API, the API-level calls, and concurrent use.

Each test failed before its fix: a forged cache entry was used as it was, ``true + true`` was -2,
the compile cache's own modules were handed out, an override key set two fields, an API call took
K = 0 and a division by a runtime zero was an AssertionError under the interpreter, and four
threads compiling at once broke xDSL's builder.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, scf
from xdsl.parser import Parser

from ascend_xdsl.dialects.ascend import Ascend
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.runtime.executors.compiled import UnsupportedOpError, compile_kernel
from ascend_xdsl.runtime.executors.interpreter import make_interpreter
from ascend_xdsl.runtime.machine.budget import Budget

HW = "atlas-a2-910b2"

# -- item 10: integers wrap to their width, as MLIR says -----------------------------------------


def _mlir_value(value: int, width: int) -> int:
    """``value`` as an MLIR ``iN`` holds it, read signed (two's complement)."""
    value %= 2**width
    return value - 2**width if value >= 2 ** (width - 1) else value


def _mlir(op: str, a: int, b: int, width: int) -> int | bool | None:
    """MLIR's ``arith.<op>`` on ``iN`` operands, from the op definitions (LangRef "arith"):
    signed operands, the exact rational quotient rounded as the op says, the result wrapped to
    N bits. None where MLIR leaves it undefined (a zero divisor, MIN / -1)."""
    sa, sb = _mlir_value(a, width), _mlir_value(b, width)
    if op in ("divsi", "remsi", "floordivsi", "ceildivsi"):
        if sb == 0 or (sa == -(2 ** (width - 1)) and sb == -1):
            return None
        q = Fraction(sa, sb)
        exact = {
            "divsi": math.trunc(q),
            "remsi": sa - sb * math.trunc(q),
            "floordivsi": math.floor(q),
            "ceildivsi": math.ceil(q),
        }[op]
    else:
        exact = {
            "addi": sa + sb,
            "subi": sa - sb,
            "muli": sa * sb,
            "minsi": min(sa, sb),
            "maxsi": max(sa, sb),
        }[op]
    wrapped = _mlir_value(exact, width)
    return wrapped != 0 if width == 1 else wrapped


def _parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, arith.Arith, scf.Scf, func.Func, Ascend):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def _function(op: str, t: str) -> builtin.ModuleOp:
    return _parse(
        f"""func.func @f(%a: {t}, %b: {t}) -> {t} {{
          %r = arith.{op} %a, %b : {t}
          func.return %r : {t}
        }}"""
    )


def _interpreted(module: builtin.ModuleOp, *args: Any) -> tuple[Any, ...]:
    return tuple(make_interpreter(module, progress=False).call_op("f", args))


def _compiled(module: builtin.ModuleOp, *args: Any) -> tuple[Any, ...]:
    """The compiled executor's translation of @f, run on a core that has what the prologue of
    a kernel without hardware instructions takes."""
    kernel = module.body.block.first_op
    assert isinstance(kernel, func.FuncOp)
    compiled = compile_kernel(kernel, load_hw(HW))
    core = SimpleNamespace(alloc_buffer=None, scalar=None, budget=Budget())
    return compiled.function(core, *args)


def _samples(width: int) -> list[int]:
    if width == 1:
        return [0, 1]
    low, high = -(2 ** (width - 1)), 2 ** (width - 1) - 1
    return [low, low + 1, -7, -1, 0, 1, 3, high - 1, high]


SIGNED_OPS = ("addi", "subi", "muli", "divsi", "remsi", "floordivsi", "ceildivsi", "minsi", "maxsi")


@pytest.mark.parametrize("width", [1, 8, 32, 64])
@pytest.mark.parametrize("op", SIGNED_OPS)
def test_the_interpreter_wraps_integer_ops_to_their_width(op: str, width: int) -> None:
    module = _function(op, f"i{width}")
    for a, b in itertools.product(_samples(width), repeat=2):
        expected = _mlir(op, a, b, width)
        if expected is None:
            continue
        args = (bool(a), bool(b)) if width == 1 else (a, b)
        (got,) = _interpreted(module, *args)
        assert got == expected and isinstance(got, bool) == (width == 1), (op, width, a, b, got)


def test_true_plus_true_is_false_in_both_executors() -> None:
    module = _function("addi", "i1")
    assert _interpreted(module, True, True) == (False,)
    assert _compiled(module, True, True) == (False,)
    folded = _parse(
        """func.func @f() -> i1 {
          %t = arith.constant true
          %r = arith.addi %t, %t : i1
          func.return %r : i1
        }"""
    )
    assert _interpreted(folded) == (False,)
    assert _compiled(folded) == (False,)


@pytest.mark.parametrize("op", ["addi", "subi", "muli", "minsi", "maxsi"])
def test_the_compiled_executor_computes_i1_as_mlir(op: str) -> None:
    module = _function(op, "i1")
    for a, b in itertools.product((False, True), repeat=2):
        expected = _mlir(op, int(a), int(b), 1)
        assert _compiled(module, a, b) == (expected,) == _interpreted(module, a, b), (op, a, b)


@pytest.mark.parametrize("predicate", ["slt", "sle", "sgt", "sge"])
def test_a_signed_comparison_of_i1_reads_true_as_minus_one(predicate: str) -> None:
    module = _parse(
        f"""func.func @f(%a: i1, %b: i1) -> i1 {{
          %r = arith.cmpi {predicate}, %a, %b : i1
          func.return %r : i1
        }}"""
    )
    compare = {"slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}[predicate]
    for a, b in itertools.product((False, True), repeat=2):
        expected = eval(f"{-int(a)} {compare} {-int(b)}")  # true is -1 read signed
        assert _compiled(module, a, b) == (expected,) == _interpreted(module, a, b)


@pytest.mark.parametrize("op", ["divsi", "remsi", "floordivsi", "ceildivsi"])
def test_the_compiled_executor_refuses_a_division_of_i1(op: str) -> None:
    with pytest.raises(UnsupportedOpError, match=f"arith.{op}"):
        _compiled(_function(op, "i1"), True, True)


@pytest.mark.parametrize("width", [8, 32, 64])
def test_the_compiled_executor_refuses_fixed_width_integers(width: int) -> None:
    with pytest.raises(UnsupportedOpError, match="index and i1 values only"):
        _compiled(_function("addi", f"i{width}"), 1, 2)


def test_index_values_agree_between_the_executors() -> None:
    for op in SIGNED_OPS:
        module = _function(op, "index")
        for a, b in itertools.product((-9, -1, 0, 2, 7), repeat=2):
            if b == 0 and op in SIGNED_OPS[3:7]:
                continue
            assert _compiled(module, a, b) == _interpreted(module, a, b), (op, a, b)
