"""The tiling search's scorer: each candidate scored in this process, while up to ``workers - 1``
forked processes score the ones the search is expected to ask for next (speculation).

Where it fits. ``tuning/search.py`` asks for one score at a time, in an order that depends on the
scores before (a coordinate descent: a move that improves changes every move after it). Most
moves do not improve, so the candidates of the moves that follow, *assuming none improves*, are
known in advance; the search hands them to :meth:`Scorer.plan`, the workers score them against
the same cycle limit (the incumbent the search would time them against), and the search
consumes their results in its own sequential order. A result the search never asks for is
wasted work; a result is never used for a request it would not have answered the same way, so
the search's tiling, cycles, candidate list and counts are those of the sequential search
whatever order the workers finish in.

When a result answers a request. A candidate is timed with a cycle limit ``L``
(``score_tiling``): the cost model checks the same sequence of pipe times against ``L`` whatever
``L`` is (``runtime/cost/cost_core.CostCore.check_cycle_limit``), and stops with ``SLOWER`` at
the first one past it. So a full score (or a rejection, which happens before any cut) obtained
with limit ``L'`` is the answer for every ``L >= L'`` (no check passed ``L'``), and ``SLOWER``
with ``L'`` is the answer for every ``L <= L'`` (a check passed ``L'``). Any other request is
scored in this process.

The workers are forked when the search starts (``fork``: the imports, the problem and the
hardware are inherited, nothing is pickled but a tiling and a limit per candidate) and
stopped when it ends. ``workers`` 1 is the sequential search, in this process only.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Literal, Protocol

from ascend_xdsl.dialects.dw_tiling import DwTiling


class Timed(Protocol):
    """What a score function returns (``search.Score``): infinite cycles when it was sure to
    exceed the limit (``search.SLOWER``)."""

    @property
    def cycles(self) -> float: ...


ScoreFunction = Callable[[DwTiling, float], Any]
"""(tiling, cycle limit) → its :class:`Timed` score; raises when the tiling is rejected."""

Kind = Literal["score", "slower", "rejected"]
Outcome = tuple[Kind, Any]
"""``("score", score)``, ``("slower", None)`` (sure to exceed the limit) or
``("rejected", None)`` (the compiler or the cost model refused the tiling)."""


def outcome_of(score: ScoreFunction, tiling: DwTiling, limit: float) -> Outcome:
    """``score(tiling, limit)`` as an outcome: what a worker sends back."""
    try:
        timed = score(tiling, limit)
    except Exception:  # a candidate the compiler or the model rejects (search.py counts it)
        return ("rejected", None)
    return ("slower", None) if math.isinf(timed.cycles) else ("score", timed)


def answers(limit_then: float, outcome: Outcome, limit_now: float) -> bool:
    """Whether ``outcome``, obtained with ``limit_then``, is the outcome with ``limit_now``
    (the module docstring says why)."""
    if outcome[0] == "slower":
        return limit_now <= limit_then
    return limit_now >= limit_then


def _serve(conn: Connection, score: ScoreFunction) -> None:
    """A worker: score each (tiling, limit) received until None or the end of the pipe."""
    try:
        while (job := conn.recv()) is not None:
            tiling, limit = job
            conn.send(outcome_of(score, tiling, limit))
    except (EOFError, OSError, KeyboardInterrupt):
        pass


DEPTH = 2
"""Jobs sent to a worker ahead of its results: the next is already in its pipe when it
finishes one, so it does not wait for this process (busy scoring) to send it."""


@dataclass(eq=False)
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    jobs: list[tuple[DwTiling, float]] = field(default_factory=list)
    """Sent and not answered yet, the one it is scoring first."""


@dataclass(eq=False)
class Scorer:
    """Scores candidates of one problem: :meth:`outcome` answers a request, from a result a
    worker already has when it answers it, else by scoring in this process; :meth:`plan` names
    the requests expected next, which idle workers start on. Use as a context manager (the
    workers stop on exit)."""

    score: ScoreFunction
    """The score function (inherited by the forked workers, never pickled)."""
    workers: int = 1
    known: dict[DwTiling, list[tuple[float, Outcome, bool]]] = field(default_factory=dict)
    """Every result so far, by tiling: (the limit it was timed with, outcome, computed ahead
    of its request)."""
    speculated: int = 0
    """Results computed ahead of their request (used or not)."""
    used: int = 0
    """Requests answered by a result computed ahead."""
    _pool: list[_Worker] = field(default_factory=list)
    _queue: list[tuple[DwTiling, float]] = field(default_factory=list)

    def __enter__(self) -> Scorer:
        if multiprocessing.current_process().daemon:  # a daemon may not start processes
            self.workers = 1
        if self.workers > 1:
            context = multiprocessing.get_context("fork")
            for _ in range(self.workers - 1):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, self.score), daemon=True)
                process.start()
                theirs.close()
                self._pool.append(_Worker(process, mine))
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers now: what they are still scoring no one will ask for."""
        for w in self._pool:
            w.process.terminate()
        for w in self._pool:
            w.process.join()
            w.conn.close()
        self._pool.clear()

    def _answer(self, tiling: DwTiling, limit: float) -> tuple[Outcome, bool] | None:
        for then, outcome, by_worker in self.known.get(tiling, ()):
            if answers(then, outcome, limit):
                return outcome, by_worker
        return None

    def _expected(self, tiling: DwTiling, limit: float) -> bool:
        """A result for (tiling, limit) is known or being computed."""
        if self._answer(tiling, limit) is not None:
            return True
        return self._sent(tiling, limit)

    def _sent(self, tiling: DwTiling, limit: float) -> bool:
        return any((tiling, limit) in w.jobs for w in self._pool)

    def plan(self, jobs: Iterable[tuple[DwTiling, float]]) -> None:
        """The requests expected next, in order (replacing the previous plan): idle workers
        take the first that no result answers yet."""
        if not self._pool:
            return
        self._queue = [job for job in jobs if not self._expected(*job)]
        self._pump(block=False)

    def _collect(self, w: _Worker) -> None:
        try:
            outcome: Outcome = w.conn.recv()
        except (EOFError, OSError):  # a worker that died: forget it, its jobs are scored here
            w.jobs.clear()
            self._pool.remove(w)
            return
        tiling, limit = w.jobs.pop(0)
        self.known.setdefault(tiling, []).append((limit, outcome, True))
        self.speculated += 1

    def _pump(self, block: bool) -> None:
        """Collect finished results (waiting for one when ``block``), then start idle workers
        on the queue."""
        busy = [w for w in self._pool if w.jobs]
        if busy:
            ready = wait([w.conn for w in busy], timeout=None if block else 0)
            for w in busy:
                while w in self._pool and w.jobs and w.conn in ready:
                    self._collect(w)
                    ready = wait([w.conn], timeout=0)
        for w in self._pool:
            while len(w.jobs) < DEPTH and self._queue:
                job = self._queue.pop(0)
                if self._expected(*job):
                    continue
                try:
                    w.conn.send(job)
                except OSError:
                    break
                w.jobs.append(job)

    def _score_here(self, tiling: DwTiling, limit: float, ahead: bool) -> Outcome:
        outcome = outcome_of(self.score, tiling, limit)
        self.known.setdefault(tiling, []).append((limit, outcome, ahead))
        self.speculated += ahead
        return outcome

    def outcome(self, tiling: DwTiling, limit: float = math.inf) -> Outcome:
        """The outcome of scoring ``tiling`` with cycle limit ``limit``."""
        self._pump(block=False)
        while (hit := self._answer(tiling, limit)) is None and self._sent(tiling, limit):
            # A worker is on it: score the next planned request here meanwhile (so both
            # processes work), or wait for it when nothing is planned.
            while self._queue and self._expected(*self._queue[0]):
                self._queue.pop(0)
            if self._queue:
                self._score_here(*self._queue.pop(0), ahead=True)
                self._pump(block=False)
            else:
                self._pump(block=True)
        if hit is not None:
            self.used += hit[1]
            return hit[0]
        self._queue = [job for job in self._queue if job != (tiling, limit)]
        self._pump(block=False)
        return self._score_here(tiling, limit, ahead=False)
