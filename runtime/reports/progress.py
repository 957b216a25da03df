"""A progress line for long simulations, shown only on a terminal.

The interpreter runs one AI core after the other; a run of the default layer takes about a
second, a large layer minutes. ``CoreProgress`` rewrites one line on standard error
(``simulating: core 7/24, 12 s``) once a run has lasted ``after`` seconds, and prints nothing at
all when standard error is not a terminal, so logs and pipes stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class CoreProgress:
    def __init__(self, total: int, *, stream: TextIO | None = None, after: float = 2.0):
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.after = after
        self.start = time.perf_counter()
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def update(self, done: int) -> None:
        """``done`` of ``total`` cores have finished."""
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < self.after:
            return
        self.stream.write(f"\rsimulating: core {done}/{self.total}, {elapsed:.0f} s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
