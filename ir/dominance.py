"""Dominance of SSA values, checked where xDSL 0.74's verifier does not.

``ModuleOp.verify()`` accepts a value used before its definition, or outside the region that
defines it (``%v`` defined inside an ``scf.for`` and used after the loop). Such a program then
fails in the interpreter with a bare dictionary-key message. ``ascend-run`` and ``ascend-opt``
run :func:`check_dominance` after the verifier, so the error names the op and the value.

The rule, for the structured IR of every level (``scf``/``func`` regions of one block): a
value is usable by an op if it is an argument of a block that contains the op, or the result of
an op that comes earlier in a block that contains the op. In a region of several blocks (a
CFG), a use in another block than the definition's is left to the block-dominance of xDSL's
``DominanceInfo`` (``xdsl/irdl/dominance.py``).
"""

from __future__ import annotations

from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.irdl.dominance import DominanceInfo
from xdsl.utils.exceptions import VerifyException


def _name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "a value"


def check_dominance(root: Operation) -> None:
    """Raise ``VerifyException`` (``ascend_op`` is the using op) for the first use in ``root``
    of a value that does not dominate it."""
    order: dict[Block, dict[Operation, int]] = {}
    dominance: dict[int, DominanceInfo] = {}

    def index(block: Block, op: Operation) -> int:
        positions = order.get(block)
        if positions is None:
            positions = order[block] = {o: i for i, o in enumerate(block.ops)}
        return positions[op]

    def dominates_use(value: SSAValue, user: Operation) -> bool:
        if isinstance(value, BlockArgument):
            block: Block | None = user.parent_block()
            while block is not None:
                if block is value.block:
                    return True
                parent = block.parent_op()
                block = parent.parent_block() if parent is not None else None
            return False
        assert isinstance(value, OpResult)
        definer = value.op
        home = definer.parent_block()
        ancestor: Operation | None = user
        while ancestor is not None:
            block = ancestor.parent_block()
            if block is home:
                return ancestor is not definer and index(home, definer) < index(home, ancestor)
            if block is not None and home is not None and block.parent is home.parent:
                region = home.parent
                assert region is not None
                info = dominance.setdefault(id(region), DominanceInfo(region))
                return info.strictly_dominates(home, block)
            ancestor = ancestor.parent_op()
        return False

    for op in root.walk():
        for i, operand in enumerate(op.operands):
            if not dominates_use(operand, op):
                error = VerifyException(
                    f"operand {i} of {op.name} ({_name(operand)}) is used where its definition "
                    "does not dominate it (before it is defined, or outside its region)"
                )
                error.ascend_op = op  # type: ignore[attr-defined]
                raise error
