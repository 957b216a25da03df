"""The loop signatures of the cost-only mode: what one loop iteration's timing depends on,
compiled from the kernel into pure Python functions next to the kernel's own code.

The cost-only machine (``runtime/cost/cost_core.py``) extrapolates or replays loop iterations
whose *signature* repeats: everything that decides an iteration's timing (its branch
conditions, the timing operands of its instructions, for a nested loop its bounds and its
iterations' signatures). :func:`timing_relevant` finds those values in a kernel (the timing
operands are the instruction specs', ``hw/instructions/``); :class:`SignatureCompiler`, a part
of the compiled executor's translator (``runtime/executors/translator.py``), emits for each
``scf.for`` a function ``_sigN(iv, *inputs)`` that computes only them, and ``_ksig(blk)`` for a
whole core's run. The functions are pure, so each result is cached and interned to a number.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Block, Operation, SSAValue

from ascend_xdsl.dialects import hw_level
from ascend_xdsl.hw import HwConfig

# For the cost-only mode: the operands whose values can change an instruction's timing (its
# spec's ``timing_operands``); offsets, slots and strides change only where it reads and writes.
TIMING_OPERANDS: dict[type[Operation], tuple[str, ...]] = {
    op: spec.timing_operands
    for spec, op in hw_level.INSTRUCTION_OPS.items()
    if spec.timing_operands
}


def timing_relevant(kernel: func.FuncOp) -> set[SSAValue]:
    """The values the timing of ``kernel`` depends on: control flow (loop bounds, branch
    conditions), the timing operands of the instructions, and everything they are computed
    from. A loop whose relevant inputs repeat, entered in the same relative timing state,
    advances the timing the same way (the cost-only mode memoizes on that)."""
    work: list[SSAValue] = []
    for op in kernel.walk():
        if isinstance(op, scf.ForOp):
            work += [op.lb, op.ub, op.step, *op.iter_args]
        elif isinstance(op, scf.IfOp):
            work.append(op.cond)
        elif isinstance(op, scf.ConditionOp):
            work += [op.condition, *op.args]
        elif isinstance(op, scf.WhileOp):
            work += list(op.arguments)
        elif type(op) in TIMING_OPERANDS:
            work += [getattr(op, name) for name in TIMING_OPERANDS[type(op)]]
    relevant: set[SSAValue] = set()
    while work:
        v = work.pop()
        if v in relevant:
            continue
        relevant.add(v)
        owner = v.owner
        if isinstance(owner, Operation):
            if isinstance(owner, scf.IfOp):  # a result is what the branches yield
                i = owner.results.index(v)
                for region in owner.regions:
                    for block in region.blocks:
                        last = block.last_op
                        if isinstance(last, scf.YieldOp):
                            work.append(last.operands[i])
                work.append(owner.cond)
            elif isinstance(owner, scf.ForOp | scf.WhileOp):
                work += list(owner.operands)
            else:
                work += list(owner.operands)
    return relevant


def loop_inputs(loop: scf.ForOp, relevant: set[SSAValue]) -> list[SSAValue]:
    """The relevant index and i1 values a loop uses that are defined outside it."""
    seen: dict[SSAValue, None] = {}
    ops = list(loop.body.walk())
    inside = {*ops, loop}  # the loop and every op nested in it (is_ancestor, without the walk up)
    for op in ops:
        for v in op.operands:
            if v in seen or v not in relevant or not is_fast_int(v):
                continue
            owner = v.owner
            defining = owner if isinstance(owner, Operation) else owner.parent_op()
            if defining is not None and defining in inside:
                continue
            seen[v] = None
    return list(seen)


def _outside_nested_loops(block: Block) -> Iterator[Operation]:
    """The ops of ``block`` and of the branches of its ``scf.if``s, not those of loops."""
    for op in block.ops:
        yield op
        if isinstance(op, scf.IfOp):
            for region in op.regions:
                for inner in region.blocks:
                    yield from _outside_nested_loops(inner)


def is_fast_int(value: SSAValue) -> bool:
    """Index and i1 values, the only integers the executor computes with plain Python ints
    (64-bit index arithmetic never wraps in the kernels' offsets; other widths would)."""
    t = value.type
    return isinstance(t, IndexType) or (isinstance(t, IntegerType) and t.width.data == 1)


class Interner:
    """Small numbers for signatures: equal tuples get equal numbers."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[Any, ...], int] = {}

    def __call__(self, signature: tuple[Any, ...]) -> int:
        return self.numbers.setdefault(signature, len(self.numbers))


class SignatureCompiler:
    """The translator's part that emits the signature functions (mixed into
    ``translator.Translator``, whose state it shares: names, literals, constants, output)."""

    target: HwConfig
    relevant: set[SSAValue]
    helpers: list[str]
    """Source of the signature functions (module level of the generated code)."""
    signatures: dict[scf.ForOp, str]
    """The signature function of each loop (shared by the translators of one kernel)."""
    nested_names: dict[scf.ForOp, str]
    consts: list[Any]
    literals: dict[SSAValue, int | bool]
    counter: itertools.count[int]
    names: dict[SSAValue, str]

    def signature_function(self, loop: scf.ForOp, live: Sequence[SSAValue]) -> str:
        """Emit ``_sigN(iv, *live)``: a number that stands for everything one iteration of
        ``loop`` decides for its timing: its branch conditions, the sizes and event ids of its
        own instructions, and for each nested loop its bounds and its iterations' signatures,
        all the way down. Equal numbers mean equal timing-relevant work (the functions are
        pure, so each result is cached and interned). The cost-only mode extrapolates over
        iterations whose signatures repeat."""
        if loop in self.signatures:
            return self.signatures[loop]
        name = self.signatures[loop] = f"_sig{next(self.counter)}"
        body = loop.body.block
        self._signature_of(name, body, [body.args[0], *live], {})
        return name

    def kernel_signature(self, kernel: func.FuncOp) -> str:
        """Emit ``_ksig(blk)``: the signature of a whole core's run for block index ``blk``:
        cores with equal numbers do the same timing-relevant work."""
        block = kernel.body.block
        fixed = {op.result: "blk" for op in block.ops if isinstance(op, hw_level.GetBlockIdxOp)}
        self._signature_of("_ksig", block, [], fixed, extra=["blk"])
        return "_ksig"

    def _signature_of(
        self,
        name: str,
        block: Block,
        params: Sequence[SSAValue],
        fixed: dict[SSAValue, str],
        extra: Sequence[str] = (),
    ) -> None:
        sub = type(self)(self.target, relevant=self.relevant, signature=True)
        sub.consts, sub.literals, sub.counter = self.consts, dict(self.literals), self.counter
        sub.helpers, sub.signatures = self.helpers, self.signatures
        sub.names.update(fixed)
        names = [*extra, *(sub.fresh(v, "s") for v in params)]
        sub.print_block(block)
        returned: list[str] = []
        for op in _outside_nested_loops(block):
            if isinstance(op, scf.ForOp):
                returned += [sub.ref(v) for v in (op.lb, op.ub, op.step)]
                returned.append(sub.nested_names[op])
            elif isinstance(op, scf.IfOp):
                returned.append(sub.ref(op.cond))
            elif type(op) in TIMING_OPERANDS:
                returned += [sub.ref(getattr(op, name)) for name in TIMING_OPERANDS[type(op)]]
        declared = sorted(
            {
                sub.names[r]
                for op in _outside_nested_loops(block)
                for r in op.results
                if r in sub.names and r not in fixed
            }
            | set(sub.nested_names.values())
        )
        key = f"({''.join(p + ', ' for p in names)})"
        self.helpers += [
            f"{name}_cache = {{}}",
            f"def {name}({', '.join(names)}):",
            f"    found = {name}_cache.get({key})",
            "    if found is not None:",
            "        return found",
            *([f"    {' = '.join(declared)} = None"] if declared else []),
            *sub.out.lines,
            f"    found = {name}_cache[{key}] = _intern(({''.join(r + ', ' for r in returned)}))",
            "    return found",
            "",
        ]

    def nested_signature(self, op: scf.ForOp) -> None:
        """In a signature function: the signatures of all iterations of a nested loop."""
        live = loop_inputs(op, self.relevant)
        inner = self.signature_function(op, live)
        bounds = ", ".join(self.ref(v) for v in (op.lb, op.ub, op.step))
        args = "".join(f", {self.ref(v)}" for v in live)
        target = self.nested_names[op] = f"n{next(self.counter)}"
        # Signatures enumerate every iteration too: an endless loop must not hang them.
        self.out.emit(f"_budget[0].take(len(range({bounds})), {self.const(op)})")
        self.out.emit(f"{target} = tuple({inner}(j{args}) for j in range({bounds}))")
