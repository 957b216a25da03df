"""Python's cyclic garbage collector, set for compiling and simulating.

xDSL IR is a graph of objects that point at each other (an op at its block and the block at
its ops, a value at its uses), so a compile allocates tens of thousands of container objects,
and a simulation thousands more (tiles, log steps, records). With Python's default thresholds
the young generation is collected every 700 net allocations, so most of a compile's IR is
still alive at some collection and is promoted; once enough has been promoted, a full
collection walks every object of the process, the compiler's and the caller's. Measured on this
machine (``gc.callbacks``, CPU s): the full collections were 0.8 to 1.2 s of a 8.6 to 9.2 s
tiling search of the default layer (6 or 7 of them), and one full collection took 70 ms of a
0.28 s simulation of unet3d-enc1 (benchmarks/layers.json) in a process that had compiled it.

:func:`fewer_collections` raises the young generation's threshold to :data:`YOUNG` while a
compile, a simulation or a tiling candidate runs (the two older thresholds are kept). The
collector still runs, and the cycles of a compile that is over are still freed, mostly while
young; only fewer live objects are promoted on the way. The search above took 7.9 to 8.0 s
with it, with no full collection and the same peak memory (119 MB). The outputs cannot change:
the collector frees only unreachable objects.

:func:`paused` turns the collector off for work that makes no cycles at all (the cost-only
run). Both settings are the process's: the first of nested or concurrent blocks (threads)
changes them and the last one out puts back what it found.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 50_000
"""The young generation's threshold inside :func:`fewer_collections` (Python's default: 700)."""

_lock = threading.Lock()


def _new_lock() -> None:
    """A forked child gets a free lock: a tiling search forks its workers (tuning/speculate.py),
    and another thread of the parent may hold the lock at that moment."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_new_lock)

_young_depth = 0
_saved_thresholds: tuple[int, ...] = ()
_paused_depth = 0
_was_enabled = True


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect the young generation every :data:`YOUNG` net allocations inside the block
    (never less often than the caller had set; a collector turned off stays off)."""
    global _young_depth, _saved_thresholds
    with _lock:
        if _young_depth == 0:
            _saved_thresholds = gc.get_threshold()
            if 0 < _saved_thresholds[0] < YOUNG:
                gc.set_threshold(YOUNG, *_saved_thresholds[1:])
        _young_depth += 1
    try:
        yield
    finally:
        with _lock:
            _young_depth -= 1
            if _young_depth == 0:
                gc.set_threshold(*_saved_thresholds)


@contextmanager
def paused() -> Iterator[None]:
    """No cycle collection inside the block, for work that makes no reference cycles
    (reference counting still frees what it drops); the collector is as it was afterwards.

    The cost-only run (``runtime/cost/cost_only.py``) allocates hundreds of thousands of small
    tuples (states, slices, keys) and keeps many alive (every core's slices), none of them in
    cycles: each full collection walked the whole growing heap, about a third of the forward
    conv's run on 8x512x16x112x112 (1.5 s against 1.1 s paused)."""
    global _paused_depth, _was_enabled
    with _lock:
        if _paused_depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused_depth += 1
    try:
        yield
    finally:
        with _lock:
            _paused_depth -= 1
            if _paused_depth == 0 and _was_enabled:
                gc.enable()
