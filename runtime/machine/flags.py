"""Event flags between the pipes of one AI Core (``set_flag`` / ``wait_flag``).

The simulator executes a core's instruction stream in program order, one instruction at a time,
so the pipes never really overlap and a flag has nothing to delay. What it can still check is
the *protocol* of docs/hw-level-spec.md: each ``set_flag src -> dst event id`` increments a
counter for (src, dst, id), each ``wait_flag`` consumes one. A wait whose counter is zero would
block its pipe forever in this order of execution (nothing earlier can release it), so it raises
:class:`FlagDeadlockError`; sets left unconsumed at the end of a kernel are reported by
:meth:`FlagState.pending`, which the interpreter turns into an end-of-kernel error.

IR-independent: pipes are the instruction model's :class:`~ascend_xdsl.hw.isa.Pipe` (a string
enum, so "MTE2" works too); which events are legal is the model's ``event_error``.
"""

from __future__ import annotations

from ascend_xdsl import hw
from ascend_xdsl.hw.isa import EVENT_PIPES, Pipe, event_error


class FlagDeadlockError(RuntimeError):
    """A ``wait_flag`` that no earlier ``set_flag`` can satisfy."""


FlagKey = tuple[str, str, int]

_VALID: set[tuple[str, str, int, int]] = set()
"""(src, dst, id, event ids) found legal: the check is a pure function of them, so each is
checked once per process rather than once per core (a thin layer's many cores paid for it)."""


class FlagState:
    """Counters of set-but-not-yet-waited events, per (src pipe, dst pipe, event id)."""

    def __init__(self, event_ids: int | None = None) -> None:
        """``event_ids``: the ids a kernel may use per pipe pair (default: the hardware figure
        ``user_event_ids``; the ids above are reserved for the framework)."""
        self.event_ids = hw.load().int("user_event_ids") if event_ids is None else event_ids
        self._counts: dict[FlagKey, int] = {}
        """Sets not yet waited for; a key is present once it has been checked."""
        self._sorted: tuple[FlagKey, ...] = ()
        """The keys of :attr:`_counts`, sorted, as of when it had that many (keys are only
        ever added, so the count tells whether they are current)."""

    def _check(self, op: str, src: str, dst: str, event: int) -> FlagKey:
        if (src, dst, event, self.event_ids) in _VALID:
            return (str(src), str(dst), event)
        names = ", ".join(sorted(EVENT_PIPES))
        for pipe in (src, dst):
            if pipe not in EVENT_PIPES:
                raise ValueError(f"{op} pipe '{pipe}' is not one of {names}")
        message = event_error(op, Pipe(src), Pipe(dst), event, self.event_ids)
        if message is not None:
            raise ValueError(message)
        _VALID.add((src, dst, event, self.event_ids))
        return (str(src), str(dst), event)

    # A kernel uses a handful of distinct events many thousand times: each (src, dst, id) is
    # checked the first time a set or a wait uses it (both check the same rules).

    def set(self, src: str, dst: str, event: int) -> None:
        self.set_flag(None, src, dst, event)

    def wait(self, src: str, dst: str, event: int) -> None:
        self.wait_flag(None, src, dst, event)

    # The handler forms (``runtime/machine/machine.py``): the op comes first and is not used,
    # so that an unobserved machine runs a kernel's flags without a wrapper per flag.

    def set_flag(self, op: object, src: str, dst: str, event: int) -> None:
        key = (src, dst, event)
        counts = self._counts
        if key not in counts:
            self._check("set_flag", src, dst, event)
        counts[key] = counts.get(key, 0) + 1

    def wait_flag(self, op: object, src: str, dst: str, event: int) -> None:
        key = (src, dst, event)
        n = self._counts.get(key)
        if n is None:
            self._check("wait_flag", src, dst, event)
        if not n:
            raise FlagDeadlockError(
                f"wait_flag {src}->{dst} event {event} has no matching set_flag (deadlock)"
            )
        self._counts[key] = n - 1

    def counts(self) -> tuple[tuple[FlagKey, int], ...]:
        """Every event used so far with its count of sets not yet waited for, sorted (the
        cost-only mode's snapshot of the flags)."""
        return tuple(sorted(self._counts.items()))

    def sorted_counts(self) -> tuple[tuple[FlagKey, ...], tuple[int, ...]]:
        """:meth:`counts` as two tuples, the events and their counts (the cost-only mode takes
        this at every loop iteration it runs: the events are sorted again only when one was
        added)."""
        counts = self._counts
        keys = self._sorted
        if len(keys) != len(counts):
            keys = self._sorted = tuple(sorted(counts))
        return keys, tuple([counts[k] for k in keys])

    def add(self, growth: tuple[tuple[FlagKey, int], ...], times: int = 1) -> None:
        """Add ``times`` x ``growth`` (a difference of two :meth:`counts` over the same
        events) to the counts: the sets and waits of iterations that were not run."""
        for key, n in growth:
            self._counts[key] += n * times

    def pending(self) -> dict[FlagKey, int]:
        """Events set but never waited for, with their counts (empty when balanced)."""
        return {(str(s), str(d), e): n for (s, d, e), n in sorted(self._counts.items()) if n}

    def describe_pending(self) -> str:
        """:meth:`pending` in words, as the IR writes a flag: ``MTE2 -> MTE1 event 0 set 20
        times without a wait``, one clause per event."""
        return ", ".join(
            f"{src} -> {dst} event {event} set {n} time{'s' if n != 1 else ''} without a wait"
            for (src, dst, event), n in self.pending().items()
        )
