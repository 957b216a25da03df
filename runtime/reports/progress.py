"""Progress lines for long waits, shown only on a terminal.

The interpreter runs one AI core after the other; a run of the default layer takes about a
second, a large layer minutes, and the reference check of a large layer seconds more.
``Progress`` rewrites one line on standard error (``simulating: core 7/24, 12 s``,
``checking against the reference: tap 30/54, 3 s``) once the wait has lasted ``after`` seconds,
and prints nothing at all when standard error is not a terminal, so logs and pipes stay clean.
``LoopProgress``, fed by the run's loop budget (``runtime/machine/budget.py``), rewrites the same
line with the loop the run is in (``running: scf.while at k.mlir:12:5, 3,456,000 loop
iterations, 9 s``): a run that never ends says where.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from xdsl.ir import Operation

from ascend_xdsl.ir.locations import describe_op


class _TerminalLine:
    """One line of standard error (or ``stream``) rewritten in place, only on a terminal."""

    def __init__(self, stream: TextIO | None, after: float):
        self.stream = sys.stderr if stream is None else stream
        self.after = after
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def show(self, text: str) -> None:
        self.stream.write(f"\r{text}\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


class Progress(_TerminalLine):
    """``label done/total, N s`` on one line; ``update`` as the work advances, ``close`` after."""

    label = "done:"

    def __init__(self, total: int, *, stream: TextIO | None = None, after: float = 2.0):
        super().__init__(stream, after)
        self.total = total
        self.start = time.perf_counter()

    def update(self, done: int) -> None:
        """``done`` of ``total`` steps have finished."""
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < self.after:
            return
        self.show(f"{self.label} {done}/{self.total}, {elapsed:.0f} s")


class CoreProgress(Progress):
    """The cores of a simulated launch."""

    label = "simulating: core"


class CheckProgress(Progress):
    """The kernel taps of the reference sums the check computes (``runtime/reports/check.py``)."""

    label = "checking against the reference: tap"


class LoopProgress(_TerminalLine):
    """The loop a long run is in, on a terminal, once it has lasted ``after`` seconds."""

    def __init__(self, *, stream: TextIO | None = None, after: float = 3.0):
        super().__init__(stream, after)
        self._written = -1.0

    def update(self, op: Operation, taken: int, seconds: float) -> None:
        """The run has taken ``taken`` loop iterations in ``seconds``, the last in ``op``
        (rewritten at most twice a second)."""
        if not self.enabled or seconds < self.after or seconds - self._written < 0.5:
            return
        self._written = seconds
        self.show(f"running: {describe_op(op)}, {taken:,} loop iterations, {seconds:.0f} s")
