"""A progress line for long waits, shown only on a terminal.

The interpreter runs one AI core after the other; a run of the default layer takes about a
second, a large layer minutes, and the reference check of a large layer seconds more.
``Progress`` rewrites one line on standard error (``simulating: core 7/24, 12 s``,
``checking against the reference: tap 30/54, 3 s``) once the wait has lasted ``after`` seconds,
and prints nothing at all when standard error is not a terminal, so logs and pipes stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``label done/total, N s`` on one line; ``update`` as the work advances, ``close`` after."""

    label = "done:"

    def __init__(self, total: int, *, stream: TextIO | None = None, after: float = 2.0):
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.after = after
        self.start = time.perf_counter()
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def update(self, done: int) -> None:
        """``done`` of ``total`` steps have finished."""
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < self.after:
            return
        self.stream.write(f"\r{self.label} {done}/{self.total}, {elapsed:.0f} s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


class CoreProgress(Progress):
    """The cores of a simulated launch."""

    label = "simulating: core"


class CheckProgress(Progress):
    """The kernel taps of the reference sums the check computes (``runtime/reports/check.py``)."""

    label = "checking against the reference: tap"
