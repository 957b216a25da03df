"""Integer arithmetic as the compiler and the simulator define it, written once.

``ceil_div`` and ``align_up`` are the tile arithmetic of the tiler, the lowering and the
instruction model; ``remsi`` and ``divsi`` are ``arith.remsi`` / ``arith.divsi`` on index
values (truncating toward zero, as in C and MLIR), which the lowering folds when its operands
are static and both executors compute at run time, so a folded and an executed value can never
differ. Pure Python on ints; imports nothing.
"""

from __future__ import annotations


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` for integers (``arith.ceildivsi``)."""
    return -(-a // b)


def align_up(a: int, b: int) -> int:
    """``a`` rounded up to a multiple of ``b``."""
    return ceil_div(a, b) * b


def remsi(a: int, b: int) -> int:
    """``arith.remsi``: the remainder truncated toward zero (its sign is ``a``'s)."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def divsi(a: int, b: int) -> int:
    """``arith.divsi``: the quotient truncated toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q
