"""Index arithmetic and structured control flow for the lowering passes, folded where static.

The lowerings compute a great many offsets and tile extents. Most are known at compile time
(they depend only on the tiling and the tensor shapes); some depend on loop variables or on the
core index. ``Idx`` is either a Python ``int`` (static) or an ``index`` SSA value (dynamic):
every helper here folds static operands in Python and emits ``arith`` only for what is dynamic,
so the lowered IR holds exactly the arithmetic the kernel would do at run time.

All helpers insert into the innermost ``ImplicitBuilder`` (xDSL's implicit insertion point),
so a lowering reads like the kernel it generates::

    with ImplicitBuilder(block):
        with for_loop(0, m_blocks) as mb:
            rows = min_(base_m, sub(m, mul(mb, base_m)))

The GM offset formulas are not written here: :data:`IDX_ARITH` hands these helpers to the
formulas of ``dialects/formats.py`` and ``dialects/dw_tiling_offsets.py``, which the simulator
evaluates on ints, so the lowering and the simulator address GM through the same definitions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Block, SSAValue

from ascend_xdsl.dialects.formats import IndexArith
from ascend_xdsl.hw.intmath import ceil_div, remsi

Idx = int | SSAValue


def value(x: Idx) -> SSAValue:
    """``x`` as an SSA value (a fresh ``arith.constant`` for a static value)."""
    if isinstance(x, int):
        return arith.ConstantOp(IntegerAttr(x, IndexType())).result
    return x


def static(x: Idx) -> int | None:
    """The compile-time value of ``x``: an int, or a value defined by ``arith.constant``."""
    if isinstance(x, int):
        return x
    op = x.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _binary(
    fold: Callable[[int, int], int], make: type[arith.SignlessIntegerBinaryOperation]
) -> Callable[[Idx, Idx], Idx]:
    def build(a: Idx, b: Idx) -> Idx:
        sa, sb = static(a), static(b)
        if sa is not None and sb is not None:
            return fold(sa, sb)
        return make(value(a), value(b)).result

    return build


def _floordiv(a: int, b: int) -> int:
    return a // b


_add = _binary(lambda a, b: a + b, arith.AddiOp)
_sub = _binary(lambda a, b: a - b, arith.SubiOp)
_mul = _binary(lambda a, b: a * b, arith.MuliOp)
_floordivsi = _binary(_floordiv, arith.FloorDivSIOp)
_ceildivsi = _binary(ceil_div, arith.CeilDivSIOp)
rem = _binary(remsi, arith.RemSIOp)
min_ = _binary(min, arith.MinSIOp)
max_ = _binary(max, arith.MaxSIOp)


def add(a: Idx, b: Idx) -> Idx:
    if static(b) == 0:
        return a
    if static(a) == 0:
        return b
    return _add(a, b)


def sub(a: Idx, b: Idx) -> Idx:
    if static(b) == 0:
        return a
    return _sub(a, b)


def mul(a: Idx, b: Idx) -> Idx:
    if static(a) == 0 or static(b) == 0:
        return 0
    if static(b) == 1:
        return a
    if static(a) == 1:
        return b
    return _mul(a, b)


def floordiv(a: Idx, b: Idx) -> Idx:
    """``a`` floor-divided by ``b``; by a constant 1, ``a`` itself.

    xDSL's ``canonicalize`` folds a division by one to its dividend anyway (it is the
    division's right unit), so folding it here gives the same kernel; but left in the IR, it
    is the one pattern that makes ``ascend-canonicalize`` (``passes/cleanup.py``) run the full,
    dear ``canonicalize`` instead of its dead-code walk, on most tuning candidates. There is
    no such fold for ``rem``: ``canonicalize`` keeps ``arith.remsi`` by one, and so does this.
    """
    if static(b) == 1:
        return a
    return _floordivsi(a, b)


def ceildiv(a: Idx, b: Idx) -> Idx:
    """``a`` divided by ``b``, rounded up; by a constant 1, ``a`` itself (as ``floordiv``)."""
    if static(b) == 1:
        return a
    return _ceildivsi(a, b)


def sum_(*terms: Idx) -> Idx:
    total: Idx = 0
    for t in terms:
        total = add(total, t)
    return total


IDX_ARITH: IndexArith[Idx] = IndexArith(
    add=add, sub=sub, mul=mul, floordiv=floordiv, rem=rem, max=max_, min=min_
)
"""The offset formulas of ``dialects/formats.py`` and ``dialects/dw_tiling_offsets.py``
evaluated into folded ``arith`` ops: what the lowerings use to address GM."""


def align_up_idx(a: Idx, b: int) -> Idx:
    """``a`` rounded up to a multiple of ``b``: ``conv_shape.align_up`` for an ``Idx``."""
    return mul(ceildiv(a, b), b)


def cmp(predicate: str, a: Idx, b: Idx) -> SSAValue | bool:
    """Signed comparison (``slt``, ``sle``, ``sgt``, ``sge``, ``eq``, ``ne``), folded if static."""
    sa, sb = static(a), static(b)
    if sa is not None and sb is not None:
        return {
            "slt": sa < sb,
            "sle": sa <= sb,
            "sgt": sa > sb,
            "sge": sa >= sb,
            "eq": sa == sb,
            "ne": sa != sb,
        }[predicate]
    return arith.CmpiOp(value(a), value(b), predicate).result


def and_(a: SSAValue | bool, b: SSAValue | bool) -> SSAValue | bool:
    if isinstance(a, bool):
        return b if a else False
    if isinstance(b, bool):
        return a if b else False
    return arith.AndIOp(a, b).result


def bool_value(c: SSAValue | bool) -> SSAValue:
    if isinstance(c, bool):
        return arith.ConstantOp(IntegerAttr(int(c), IntegerType(1))).result
    return c


@contextmanager
def _discarded() -> Iterator[None]:
    """Build ops that never run into a detached block and erase them afterwards, with their
    operands, so that nothing they referenced (e.g. a buffer) keeps a use from dead code."""
    block = Block()
    with ImplicitBuilder(block):
        yield
    block.erase()


@contextmanager
def for_loop(lb: Idx, ub: Idx, step: Idx = 1, name: str | None = None) -> Iterator[Idx]:
    """An ``scf.for`` whose body is built inside the ``with``; yields the induction variable.

    A loop that statically runs exactly once is not emitted: its body is built in place with the
    induction variable equal to ``lb``, so single-trip loops never clutter the IR.
    """
    slb, sub_, sstep = static(lb), static(ub), static(step)
    if slb is not None and sub_ is not None and sstep is not None and sub_ - slb <= sstep:
        if sub_ > slb:
            yield slb
        else:
            # Zero trips: build the body aside so callers need no special case, then drop it.
            with _discarded():
                yield slb
        return
    body = Block(arg_types=[IndexType()])
    if name:
        body.args[0].name_hint = name
    scf.ForOp(value(lb), value(ub), value(step), [], body)
    with ImplicitBuilder(body):
        yield body.args[0]
        scf.YieldOp()


@contextmanager
def if_(cond: SSAValue | bool) -> Iterator[None]:
    """An ``scf.if`` without results; folded away when the condition is static."""
    if isinstance(cond, bool):
        if cond:
            yield
        else:
            with _discarded():
                yield
        return
    then = Block()
    scf.IfOp(cond, [], [then])
    with ImplicitBuilder(then):
        yield
        scf.YieldOp()


def split_index(index: Idx, dims: Sequence[int]) -> list[Idx]:
    """``index`` as mixed-radix coordinates over ``dims``, the first fastest (a core's block
    index split over its tiling's core dimensions); a dimension of 1 gives 0 with no ops."""
    coords: list[Idx] = []
    rest = index
    for dim in dims:
        coords.append(rem(rest, dim) if dim > 1 else 0)
        rest = floordiv(rest, dim) if dim > 1 else rest
    return coords
