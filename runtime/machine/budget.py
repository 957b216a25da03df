"""The simulator's iteration budget: a run that would never end stops with an error naming its loop.

A program can loop for ever or nearly so (an ``scf.for`` to 2**40, an ``scf.while`` whose
condition is always true, an ``ascend.launch`` of a billion blocks). Every run of the simulator
(both executors, ``runtime/executors/interpreter.py`` and ``runtime/executors/compiled.py``, and the
cost-only mode, ``runtime/cost/cost_only.py``) therefore draws on one :class:`Budget` of loop
iterations:

* an ``scf.for`` takes its whole trip count when it is entered, so an endless loop fails before
  its first iteration and the executors' hot paths pay one call per loop, not per iteration;
* an ``scf.while`` takes one iteration each time its condition is evaluated;
* an ``ascend.launch`` takes its number of blocks (each block is one trip of the launch).

The default, :data:`DEFAULT_MAX_ITERATIONS` (10**8), is far above what a layer the simulator can
run in reasonable time needs (the embedded default layer of ``ascend-conv`` takes 3,020; its
5,368 instructions suggest about 12 million for the 21 million instructions of the 2 GB layer of
``tests/test_cost_only.py``, whose cost-only run takes 25,476), and an endless ``scf.while``
reaches it in about ten seconds with the compiled executor.
``--max-iterations`` (``ascend-run``, ``ascend-conv``) and ``max_iterations=`` (the Python API)
raise or lower it.
"""

from __future__ import annotations

import operator

from xdsl.ir import Operation

DEFAULT_MAX_ITERATIONS = 10**8
"""Loop iterations one run may take unless told otherwise."""


class BudgetExceeded(RuntimeError):
    """A loop would take the run beyond its iteration budget; ``ascend_op`` is the loop."""

    def __init__(self, op: Operation, wanted: int, limit: int, left: int):
        self.ascend_op = op
        self.wanted = wanted
        self.limit = limit
        if op.name == "scf.while":
            what = f"{op.name} is still looping when the run's budget of {limit:,} loop "
            what += "iterations is spent"
        else:
            unit = "blocks" if op.name == "ascend.launch" else "iterations"
            what = f"{op.name} would run {wanted:,} {unit}, beyond the run's budget of "
            what += f"{limit:,} loop iterations ({max(left, 0):,} left)"
        super().__init__(
            f"{what}: if the program is meant to loop this much, raise the budget "
            "(--max-iterations N, or max_iterations=N in Python)"
        )


class Budget:
    """The loop iterations a run has left."""

    __slots__ = ("left", "limit")

    def __init__(self, limit: int | None = None):
        if limit is None:
            limit = DEFAULT_MAX_ITERATIONS
        elif isinstance(limit, bool) or not hasattr(limit, "__index__"):
            raise TypeError(f"max_iterations must be an integer, got {limit!r}")
        limit = operator.index(limit)
        if limit < 1:
            raise ValueError(f"max_iterations must be positive, got {limit}")
        self.limit = limit
        self.left = limit

    def take(self, n: int, op: Operation) -> None:
        """Take ``n`` iterations of the loop ``op``; raise :class:`BudgetExceeded` if the run
        has fewer left."""
        if n > self.left:
            raise BudgetExceeded(op, n, self.limit, self.left)
        self.left -= n
