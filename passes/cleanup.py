"""``ascend-canonicalize``: xDSL's ``canonicalize`` for the hardware-level kernels, without
its cost when it would only delete dead code.

Where it fits. The last stages of the pipeline (``lowering/pipeline.py``) clean up what the
tile walk leaves: ``licm``, then a canonicalization, then ``cse``. On the kernels this compiler
emits, xDSL's ``canonicalize`` almost never rewrites anything: no pattern and no folder fires
(measured on the suite's layers), it only erases the dead ops the lowering leaves (unused
tails and constants). The one pattern that did fire, a division by a constant 1 (most tuning
candidates have a unit divisor somewhere), is folded when it is built
(``lowering/index_arith.py``), to the same module. But it pays for its generality: a greedy
worklist over every op, each op asked for its canonicalization traits, folded, and checked for
trivial deadness through its memory effects. It was the dearest pass of a tuning candidate's
compile (about a third of it, ``docs/performance.md``).

This pass gives the same module, cheaper. It first asks, with a cheap look at each op and its
operands, whether any canonicalization pattern or folder *could* fire on the module
(:func:`could_rewrite`, conservative: every op that has patterns or a folder and that it does
not know counts as could). If one could, it runs xDSL's ``canonicalize`` itself, so the output
is the same by construction. If none can, the greedy walk would erase only dead ops, and
erasing dead ops creates no constant operand and no equal operands, so no pattern becomes
applicable along the way; what is left is the module without the ops that are not live, which
is what xDSL's ``region_dce`` (the walk's own post-pass) computes on its own. So the output is
the same module, op for op and in the same order (``tests/test_cleanup.py`` compares the text
of both on several layers and tilings).

The preconditions are those of the patterns and folders registered by the ops the kernels
contain (xDSL 0.74, ``xdsl/transforms/canonicalization_patterns/{arith,scf}.py`` and
``SignlessIntegerBinaryOperation.fold``):

* an arith binary op on signless integers: a constant operand on the left (constant folding,
  the commutative swap, the commutative unit fold) or a right zero or unit on the right;
* ``arith.cmpi``: the same value on both sides;
* ``scf.for``: constant bounds (a loop of zero or one trip) or a constant directly in its body
  (rehoisted);
* ``scf.if``: a constant condition.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import (
    Commutative,
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    HasFolder,
)
from xdsl.transforms.canonicalization_patterns.utils import (
    const_evaluate_operand,
    const_evaluate_operand_attribute,
)
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.dead_code_elimination import region_dce


def _constant(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, Operation) and owner.has_trait(ConstantLike)


def _binary_could_rewrite(op: arith.SignlessIntegerBinaryOperation) -> bool:
    """Constant folding and propagation need a constant on the left, and both sides or a
    commutative op (the swap and the unit on the left); the right zero and unit need one on
    the right."""
    commutative = op.has_trait(Commutative)
    if _constant(op.lhs) and (commutative or _constant(op.rhs)):
        return True
    if not _constant(op.rhs):
        return False
    rhs = const_evaluate_operand_attribute(op.rhs)
    if rhs is None:
        return True  # a constant this cannot read: the folder might
    return op.is_right_zero(rhs) or op.is_right_unit(rhs)


def _loop_could_rewrite(op: scf.ForOp) -> bool:
    """``SimplifyTrivialLoops``: integer constant bounds of zero or one trip;
    ``RehoistConstInLoops``: a constant directly in the body."""
    if any(child.has_trait(ConstantLike) for child in op.body.ops):
        return True
    lb, ub = const_evaluate_operand(op.lb), const_evaluate_operand(op.ub)
    if lb is None or ub is None:
        return False
    if ub - lb <= 0:
        return True
    step = const_evaluate_operand(op.step)
    return step is not None and step >= ub - lb


def could_rewrite(op: Operation) -> bool:
    """Whether a canonicalization pattern or a folder of xDSL's ``canonicalize`` could change
    ``op`` (True for every op with patterns or a folder that this does not know)."""
    if op.has_trait(ConstantLike, value_if_unregistered=True):
        return False  # never folded, and constants have no patterns of their own
    if isinstance(op, arith.SignlessIntegerBinaryOperation):
        return _binary_could_rewrite(op)
    if isinstance(op, (arith.CmpiOp, scf.ForOp, scf.IfOp)) and op.has_trait(HasFolder):
        return True  # a folder this does not know of (none in xDSL 0.74)
    if isinstance(op, arith.CmpiOp):
        return op.lhs == op.rhs
    if isinstance(op, scf.ForOp):
        return _loop_could_rewrite(op)
    if isinstance(op, scf.IfOp):
        return _constant(op.cond)
    return bool(op.get_traits_of_type(HasCanonicalizationPatternsTrait)) or op.has_trait(
        HasFolder, value_if_unregistered=False
    )


@dataclass(frozen=True)
class AscendCanonicalizePass(ModulePass):
    """xDSL's ``canonicalize``, run only when some pattern could fire; otherwise the dead code
    elimination it would amount to. Same output either way."""

    name = "ascend-canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(could_rewrite(child) for child in op.walk()):
            CanonicalizePass().apply(ctx, op)
        else:
            region_dce(op.body)
