"""Event flags between the pipes of one AI Core (``set_flag`` / ``wait_flag``).

The simulator executes a core's instruction stream in program order, one instruction at a time,
so the pipes never really overlap and a flag has nothing to delay. What it can still check is
the *protocol* of docs/hw-level-spec.md: each ``set_flag src -> dst event id`` increments a
counter for (src, dst, id), each ``wait_flag`` consumes one. A wait whose counter is zero would
block its pipe forever in this order of execution (nothing earlier can release it), so it raises
:class:`FlagDeadlockError`; sets left unconsumed at the end of a kernel are reported by
:meth:`FlagState.pending`, which the interpreter turns into an end-of-kernel error.

IR-independent: pipes are the plain strings of the dialect's ``Pipe`` enum ("MTE2", "M", ...).
"""

from __future__ import annotations

from collections import Counter

from ascend_xdsl import hw

PIPES: frozenset[str] = frozenset({"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"})


class FlagDeadlockError(RuntimeError):
    """A ``wait_flag`` that no earlier ``set_flag`` can satisfy."""


FlagKey = tuple[str, str, int]


class FlagState:
    """Counters of set-but-not-yet-waited events, per (src pipe, dst pipe, event id)."""

    def __init__(self, event_ids: int | None = None) -> None:
        self.event_ids = hw.load().event_ids if event_ids is None else event_ids
        self._counts: Counter[FlagKey] = Counter()

    def _check(self, op: str, src: str, dst: str, event: int) -> FlagKey:
        for pipe in (src, dst):
            if pipe not in PIPES:
                raise ValueError(f"{op} pipe '{pipe}' is not one of {', '.join(sorted(PIPES))}")
        if src == dst:
            raise ValueError(f"{op} {src}->{dst}: source and destination pipe are the same")
        if not 0 <= event < self.event_ids:
            raise ValueError(f"{op} {src}->{dst} event {event} is not in [0, {self.event_ids})")
        return (src, dst, event)

    def set(self, src: str, dst: str, event: int) -> None:
        self._counts[self._check("set_flag", src, dst, event)] += 1

    def wait(self, src: str, dst: str, event: int) -> None:
        key = self._check("wait_flag", src, dst, event)
        if self._counts[key] == 0:
            raise FlagDeadlockError(
                f"wait_flag {src}->{dst} event {event} has no matching set_flag (deadlock)"
            )
        self._counts[key] -= 1

    def pending(self) -> dict[FlagKey, int]:
        """Events set but never waited for, with their counts (empty when balanced)."""
        return {key: n for key, n in sorted(self._counts.items()) if n}
