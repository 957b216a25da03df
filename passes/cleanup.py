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

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import (
    Commutative,
    ConstantLike,
    EffectInstance,
    HasCanonicalizationPatternsTrait,
    HasFolder,
    IsTerminator,
    MemoryAllocEffect,
    MemoryEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xdsl.transforms.canonicalization_patterns.utils import (
    const_evaluate_operand,
    const_evaluate_operand_attribute,
)
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CSEDriver
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


# --- ascend-cse --------------------------------------------------------------------------------

_FIXED_EFFECTS = frozenset(
    cls.get_effects.__func__  # type: ignore[attr-defined]
    for cls in (
        NoMemoryEffect,
        MemoryReadEffect,
        MemoryWriteEffect,
        MemoryAllocEffect,
        MemoryFreeEffect,
    )
)
"""The ``get_effects`` of xDSL's traits whose effects are one fixed set, whatever the op."""
_RECURSIVE_EFFECTS = RecursiveMemoryEffect.get_effects.__func__  # type: ignore[attr-defined]

Effects = AbstractSet[EffectInstance] | None


def effects_memoized() -> Callable[[Operation], Effects]:
    """xDSL's ``get_effects``, each op's answer computed once and kept.

    Valid while no op is added to, removed from or moved between blocks (what
    ``CSEDriver`` does until it commits its erasures at the end): an op whose effect traits
    are all fixed sets (``Pure`` and the other ``NoMemoryEffect``, ``MemoryReadEffect``, ...)
    has the same effects whatever its operands, and a ``RecursiveMemoryEffect`` op has those
    of the ops in its regions. Any other trait (whose answer may depend on the op's operands
    or attributes) is asked every time, and so is every op around it. Same result as
    ``get_effects``: the traits in the same order, ``None`` at the first unknown answer."""
    memo: dict[Operation, tuple[Effects, bool]] = {}

    def compute(op: Operation) -> tuple[Effects, bool]:
        """``op``'s effects and whether they may be kept."""
        known = memo.get(op)
        if known is not None:
            return known
        traits = op.get_traits_of_type(MemoryEffect)
        effects: set[EffectInstance] = set()
        keep = True
        result: Effects = effects
        if not traits:
            result = None
        for trait in traits:
            # a classmethod's function; None for a trait that overrides it otherwise
            impl = getattr(type(trait).get_effects, "__func__", None)
            if impl in _FIXED_EFFECTS:
                part: Effects = trait.get_effects(op)
            elif impl is _RECURSIVE_EFFECTS:
                part, keep_part = _recursive(op)
                keep = keep and keep_part
            else:
                part, keep = trait.get_effects(op), False
            if part is None:
                result = None
                break
            effects.update(part)
        if keep:
            memo[op] = (result, keep)
        return result, keep

    def _recursive(op: Operation) -> tuple[Effects, bool]:
        effects: set[EffectInstance] = set()
        keep = True
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    part, keep_child = compute(child)
                    keep = keep and keep_child
                    if part is None:
                        return None, keep
                    effects.update(part)
        return effects, keep

    def effects_of(op: Operation) -> Effects:
        return compute(op)[0]

    return effects_of


class _MemoizedCSEDriver(CSEDriver):
    """xDSL's ``CSEDriver`` (0.74) with its effect queries answered by
    :func:`effects_memoized`: ``_simplify_operation`` is xDSL's, line for line, with
    ``get_effects`` (through ``is_trivially_dead``, ``is_side_effect_free``,
    ``only_has_effect`` and ``has_other_side_effecting_op_in_between``) memoized."""

    def __init__(self) -> None:
        super().__init__()
        self._effects = effects_memoized()

    def _result_only_effects(self, op: Operation) -> bool:
        effects = self._effects(op)
        return effects is not None and all(
            e.kind == MemoryEffectKind.READ
            or (
                e.kind == MemoryEffectKind.ALLOC
                and isinstance(v := e.value, SSAValue)
                and op.is_ancestor(v.owner)
            )
            for e in effects
        )

    def _is_trivially_dead(self, op: Operation) -> bool:
        return (
            all(result.first_use is None for result in op.results)
            and not op.has_trait(IsTerminator, value_if_unregistered=False)
            and not op.has_trait(SymbolOpInterface, value_if_unregistered=False)
            and self._result_only_effects(op)
        )

    def _writes_between(self, from_op: Operation, to_op: Operation) -> bool:
        assert from_op.parent is to_op.parent
        next_op: Operation | None = from_op
        while next_op is not to_op:
            assert next_op is not None, "Incorrect order of ops in side-effect search"
            effects = self._effects(next_op)
            if effects is None or any(e.kind is MemoryEffectKind.WRITE for e in effects):
                return True
            next_op = next_op.next_op
        return False

    def _simplify_operation(self, op: Operation) -> None:
        if op.has_trait(IsTerminator):
            return
        if self._is_trivially_dead(op):
            self._mark_erasure(op)
            return
        if any(len(region.blocks) > 1 for region in op.regions):
            return
        effects = self._effects(op)
        if effects is None or len(effects) != 0:  # not side-effect free
            if effects is None or not all(e.kind == MemoryEffectKind.READ for e in effects):
                return
            existing = self._known_ops.get(op)
            if (
                existing is not None
                and op.parent_block() is existing.parent_block()
                and not self._writes_between(existing, op)
            ):
                self._replace_and_delete(op, existing)
                return
            self._known_ops[op] = op
            return
        if existing := self._known_ops.get(op):
            self._replace_and_delete(op, existing)
            return
        self._known_ops[op] = op


@dataclass(frozen=True)
class AscendCSEPass(ModulePass):
    """xDSL's ``cse``, each op's memory effects computed once (``effects_memoized``) instead
    of at every query (a loop's are its body's, asked again for every op of every enclosing
    loop). Same algorithm, same output."""

    name = "ascend-cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _MemoizedCSEDriver().simplify(op)
