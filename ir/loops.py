"""The ``scf.for`` rules xDSL 0.74's verifier leaves out, checked with the dominance check.

``ascend-opt`` and ``ascend-run`` run :func:`check_loops` after the verifier (as
:func:`~ascend_xdsl.ir.dominance.check_dominance`), so a hand-edited loop that cannot mean what
it says is refused with one message naming it:

* **a constant step that is not positive.** MLIR's ``scf.for`` verifier refuses it ("constant
  step operand must be positive"); xDSL's does not, and the simulator would then run nothing
  (a negative step over ``lb < ub``) or fail in Python's ``range`` (a zero step).
* **a loop that can never run, over hardware instructions.** Under MLIR's semantics a loop
  whose constant lower bound is at or above its constant upper bound runs zero times; it never
  counts down. Such a loop is legal IR, and refusing every empty loop would refuse programs that
  mean it. What is refused is the case that cannot be meant: constant bounds that make the
  loop empty *and* hardware instructions in its body (``data_copy``, ``set_flag``, ...), which
  then never execute although the kernel around them was written for them to (the usual cause
  being bounds swapped by hand). A loop whose bounds are not both constants is not judged here:
  its trip count is known at run time only, and what a skipped body breaks is found then (the
  flag model's unbalanced flags, the sanitizer's stale accumulations).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.hw_base import HwOp, constant_value


def _refuse(op: Operation, message: str) -> None:
    error = VerifyException(message)
    error.ascend_op = op  # type: ignore[attr-defined]
    raise error


def check_loops(root: Operation) -> None:
    """Raise ``VerifyException`` (``ascend_op`` is the loop) for the first ``scf.for`` in
    ``root`` that breaks a rule of the module docstring."""
    for op in root.walk():
        if not isinstance(op, scf.ForOp):
            continue
        step = constant_value(op.step)
        if step is not None and step <= 0:
            _refuse(op, f"scf.for step must be positive, got {step} (a constant step <= 0)")
        lb, ub = constant_value(op.lb), constant_value(op.ub)
        if lb is None or ub is None or lb < ub:
            continue
        instructions = sum(
            1 for inner in op.body.walk() if isinstance(inner, HwOp) and inner.SPEC is not None
        )
        if instructions:
            _refuse(
                op,
                f"scf.for from {lb} to {ub} never runs (a loop runs zero times when its lower "
                f"bound is not below its upper bound; it does not count down), so the "
                f"{instructions} hardware instruction{'s' if instructions != 1 else ''} in its "
                "body never execute",
            )
