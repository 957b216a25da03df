"""Source locations for parsed IR, so runtime reports can point at a line of the user's file.

xDSL's parser attaches a location only where the text spells ``loc(...)``. ``parse_file``
parses with a parser that gives every operation without one a ``FileLineColLoc`` of where it
starts (and reports numbers too large for their type as parse errors, see ``CheckedParser``),
and ``describe_op`` names an operation by that location (or, for IR built in memory, by its
position inside its function).
"""

from __future__ import annotations

import struct

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser

# What xDSL 0.74's parser lets escape on malformed text: ``struct.error`` / ``OverflowError``
# packing a number too large for a dense array, ``ValueError`` / ``TypeError`` / ``IndexError``
# building an attribute from the wrong number or kind of parameters (``zip(strict=True)`` in
# ``ParametrizedAttribute.new``).
_ESCAPING = (struct.error, OverflowError, ValueError, TypeError, IndexError)


class CheckedParser(Parser):
    """xDSL's parser, but what escapes it on malformed text (a number that does not fit its
    type, ``array<i64: 1e30>``; a type given too few parameters) is a parse error at the
    operation that holds it, or where the parser stood, not an exception from deep inside."""

    def parse_operation(self) -> Operation:
        start = self.pos
        try:
            return super().parse_operation()
        except _ESCAPING as e:
            self.raise_error(_escaped(e), start, self.pos)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except _ESCAPING as e:  # outside any op: an alias definition, say
            self.raise_error(_escaped(e), self.pos, self.pos)


def _escaped(e: Exception) -> str:
    if isinstance(e, struct.error | OverflowError):
        return f"a number does not fit its type ({e})"
    return f"malformed attribute or type ({e})"


class LocatingParser(CheckedParser):
    """A parser that records where each operation starts."""

    def __init__(self, ctx: Context, text: str, name: str):
        super().__init__(ctx, text, name)
        self._text = text
        self._name = name
        # Offsets of line starts, to turn a position into line:column.
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def _line_col(self, pos: int) -> tuple[int, int]:
        lo, hi = 0, len(self._line_starts)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid
        return lo + 1, pos - self._line_starts[lo] + 1

    def parse_operation(self) -> Operation:
        start = self.pos
        op = super().parse_operation()
        if not isinstance(op.location, FileLineColLoc):
            line, col = self._line_col(start)
            op.location = FileLineColLoc(StringAttr(self._name), IntAttr(line), IntAttr(col))
        return op


def parse_file(ctx: Context, text: str, name: str) -> ModuleOp:
    return LocatingParser(ctx, text, name).parse_module()


def describe_op(op: Operation) -> str:
    """``ascend.load3d at kernel.mlir:41:7``, or its place in its function if it has no file."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{op.name} at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    if isinstance(parent, func.FuncOp):
        index = next(i for i, o in enumerate(parent.walk()) if o is op)
        return f"{op.name} (op #{index} of @{parent.sym_name.data})"
    return op.name
