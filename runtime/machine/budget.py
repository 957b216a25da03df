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

The budget is also where a run looks at the clock, every :data:`CHECK_EVERY` iterations taken
(so the hot paths pay nothing more than the count): with ``max_seconds`` (``--max-seconds``) a
run still going after that many seconds stops with :class:`TimeLimitExceeded`, naming the
loop; with a ``progress`` line (``runtime/reports/progress.LoopProgress``) a run that lasts a
few seconds shows on a terminal which loop it is in and how many iterations it took. The loop
that last drew on the budget (:attr:`Budget.loop`) is also what an interrupted run reports
(:class:`Interrupted`). The clock is looked at only when loops draw on the budget: a loop
body that runs long without entering a loop is stopped at the next loop it enters.
"""

from __future__ import annotations

import math
import operator
import time
from typing import Protocol

from xdsl.ir import Operation

from ascend_xdsl.ir.locations import describe_op

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


CHECK_EVERY = 1000
"""Loop iterations taken between two looks at the clock (an endless ``scf.while`` takes about
3 us per iteration with the compiled executor, so a few ms)."""


class TimeLimitExceeded(BudgetExceeded):
    """The run is still going when its ``max_seconds`` are spent; ``ascend_op`` is the loop it
    was in."""

    def __init__(self, op: Operation, seconds: float, taken: int):
        self.ascend_op = op
        self.wanted = taken
        self.limit = taken
        RuntimeError.__init__(
            self,
            f"{op.name} is still running when the run's time limit of {seconds:g} s is spent "
            f"({taken:,} loop iterations taken): if the program is meant to run this long, "
            "raise the limit (--max-seconds S, or RunOptions(max_seconds=S) in Python)",
        )


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run, naming the loop the run was in (``ascend_op``)."""

    def __init__(self, op: Operation):
        self.ascend_op = op
        super().__init__(f"in {describe_op(op)}")


class ProgressLine(Protocol):
    """Where a long run says which loop it is in (``runtime/reports/progress.LoopProgress``)."""

    def update(self, op: Operation, taken: int, seconds: float) -> None: ...


class Budget:
    """The loop iterations a run has left, its time limit and its progress line."""

    __slots__ = (
        "_look_at",
        "deadline",
        "left",
        "limit",
        "loop",
        "max_seconds",
        "progress",
        "start",
    )

    def __init__(
        self,
        limit: int | None = None,
        max_seconds: float | None = None,
        progress: ProgressLine | None = None,
    ):
        if limit is None:
            limit = DEFAULT_MAX_ITERATIONS
        elif isinstance(limit, bool) or not hasattr(limit, "__index__"):
            raise TypeError(f"max_iterations must be an integer, got {limit!r}")
        limit = operator.index(limit)
        if limit < 1:
            raise ValueError(f"max_iterations must be positive, got {limit}")
        if max_seconds is not None and not (0 < max_seconds < math.inf):
            raise ValueError(f"max_seconds must be a positive number of seconds, got {max_seconds}")
        self.limit = limit
        self.left = limit
        self.max_seconds = max_seconds
        self.progress = progress
        self.start = time.monotonic()
        self.deadline = math.inf if max_seconds is None else self.start + max_seconds
        self.loop: Operation | None = None
        """The loop that last drew on the budget (the one a run is in, for an endless one)."""
        self._look_at = limit - CHECK_EVERY

    def take(self, n: int, op: Operation) -> None:
        """Take ``n`` iterations of the loop ``op``; raise :class:`BudgetExceeded` if the run
        has fewer left, :class:`TimeLimitExceeded` if its time is spent."""
        if n > self.left:
            raise BudgetExceeded(op, n, self.limit, self.left)
        self.left -= n
        self.loop = op
        if self.left < self._look_at:
            self._look(op)

    def snapshot(self) -> tuple[int, int, Operation | None]:
        """What the budget stands at, for :meth:`restore` (a replay gives back what a core
        that is run again drew: ``runtime/executors/replay.py``)."""
        return self.left, self._look_at, self.loop

    def restore(self, state: tuple[int, int, Operation | None]) -> None:
        """Put the budget back where :meth:`snapshot` found it."""
        self.left, self._look_at, self.loop = state

    def _look(self, op: Operation) -> None:
        """Every :data:`CHECK_EVERY` iterations: the time limit and the progress line."""
        self._look_at = self.left - CHECK_EVERY
        now = time.monotonic()
        if now > self.deadline:
            assert self.max_seconds is not None
            raise TimeLimitExceeded(op, self.max_seconds, self.limit - self.left)
        if self.progress is not None:
            self.progress.update(op, self.limit - self.left, now - self.start)
