"""The cost-only mode's fast bookkeeping (runtime/cost/state.py, cost_core.py) decides exactly
what the plain formulas decide, so every report stays bit-identical.

The loop aggregation asks two questions per iteration it runs: is this state a repeat of the
step before (``repeats``, without building the two differences) and what is its memo key
(``Clocks.key``, integer millionths of a cycle instead of ``round(t, 6)``). Here both are
checked against the plain formulas written out in this file (the differences subtracted and
compared with ``math.isclose``; Python's ``round``), and whole cost-only runs on several
kernels are checked against runs whose bookkeeping is those plain formulas: same cycles, same
busy cycles and instructions per core, same critical path, same count of extrapolated
iterations.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, model_cost
from ascend_xdsl.runtime.cost import cost_core, state
from ascend_xdsl.runtime.cost.state import Clocks, Counters, Shape, TimelineState

HW = "atlas-a2-910b2"
REL, ABS = 1e-9, 1e-6


def plain_key(issue: float, later: tuple[float, ...]) -> tuple[float, ...]:
    """The memo key of a state's times as first written: each rounded with ``round``."""
    return tuple(round(v - issue, 6) if v > issue else 0.0 for v in later)


def plain_repeats(a: TimelineState, b: TimelineState, c: TimelineState) -> bool:
    """``a - b`` close to ``b - c``: the two differences built, then compared."""
    if not a.shape == b.shape == c.shape:
        return False
    first = [a.clocks.issue - b.clocks.issue] + [
        x - y for x, y in zip(a.clocks.later, b.clocks.later, strict=True)
    ]
    second = [b.clocks.issue - c.clocks.issue] + [
        x - y for x, y in zip(b.clocks.later, c.clocks.later, strict=True)
    ]
    first += [x - y for x, y in zip(a.counters.values(), b.counters.values(), strict=True)]
    second += [x - y for x, y in zip(b.counters.values(), c.counters.values(), strict=True)]
    pairs = zip(first, second, strict=True)
    return all(math.isclose(x, y, rel_tol=REL, abs_tol=ABS) for x, y in pairs)


# times near the key's decimal boundaries: exact binary ties (k/128), near-decimal ties, and
# plain floats over many magnitudes
_offsets = st.one_of(
    st.integers(0, 10**10).map(lambda k: k / 128),
    st.integers(0, 10**12).map(lambda k: (k + 0.5) / 1e6),
    st.floats(-1e7, 1e7, allow_nan=False),
    st.floats(0, 1e-5),
)
_bases = st.one_of(st.just(0.0), st.floats(0, 1e8), st.integers(0, 10**8).map(float))


@settings(max_examples=400, deadline=None)
@given(_bases, st.lists(_offsets, min_size=1, max_size=40))
def test_two_keys_are_equal_exactly_when_the_rounded_times_are(base, offsets):
    later = tuple(base + d for d in offsets)
    keys = state._key_units(base, later)
    plain = plain_key(base, later)
    # the same classes: each integer key is the rounded time in millionths
    assert [k / 10**6 for k in keys] == [float(p) for p in plain]


@pytest.mark.parametrize(
    ("v", "base"),
    [(0.0078125, 0.0), (1.0000005, 1.0), (100.0000015, 0.0), (3e9, 0.0), (5.0, 5.0), (4.0, 5.0)],
)
def test_the_key_of_ties_and_large_times_is_rounds(v, base):
    (k,) = state._key_units(base, (v,))
    assert k / 10**6 == plain_key(base, (v,))[0]


def _state(issue: float, later: list[float], counts: list[int]) -> TimelineState:
    shape = Shape((), (len(later),), (), 1, ())
    return TimelineState(
        shape,
        Clocks(issue, tuple(later)),
        Counters(counts[0], counts[1], counts[2], (1.0, 2.0, 3.0, 4.0), (1, 1, 1, 1), (0,)),
    )


_step = st.lists(st.floats(0, 1e4, allow_nan=False), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None)
@given(_step, _step, st.floats(-1e-5, 1e-5), st.integers(0, 3), st.integers(0, 2))
def test_repeats_is_the_difference_of_differences(start, step, wobble, where, extra):
    """Three states one step apart, the last step off by ``wobble`` at one time or by
    ``extra`` scalar ops: ``repeats`` says what comparing the built differences says."""
    c = _state(start[0], start[1:], [0, 0, 0])
    b = _state(
        c.clocks.issue + step[0],
        [x + d for x, d in zip(c.clocks.later, step[1:], strict=True)],
        [5, 8, 64],
    )
    off = [x + d for x, d in zip(b.clocks.later, step[1:], strict=True)]
    if where:
        off[where - 1] += wobble
    a = _state(b.clocks.issue + step[0], off, [10 + extra, 16, 128])
    assert state.repeats(a, b, c) == plain_repeats(a, b, c)


def test_states_of_another_shape_never_repeat():
    a = _state(2.0, [1.0, 2.0], [0, 0, 0])
    b = _state(1.0, [0.5, 1.0], [0, 0, 0])
    c = TimelineState(Shape((), (1,), (), 1, ()), Clocks(0.0, (0.0,)), a.counters)
    assert not state.repeats(a, b, c)


KERNELS = {
    "stem-like": (
        (1, 3, 8, 32, 32), (16, 3, 3, 7, 7), {"stride": (1, 2, 2), "padding": 3}, None, "",
    ),
    "default-layer": ((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), {"padding": 1}, None, ""),
    "streaming-k": (
        (1, 16, 2, 64, 64), (32, 16, 1, 3, 3), {"padding": (0, 1, 1)}, 1, "step_ka=1 step_kb=1",
    ),
    "order-n": ((2, 64, 6, 16, 16), (64, 64, 3, 3, 3), {"padding": 1}, 1, "iterate_order=1"),
    "huge": ((8, 512, 16, 112, 112), (512, 512, 3, 3, 3), {"padding": 1}, None, ""),
}  # fmt: skip


def _plain_steady(history, period):
    """The steady-state test as first written: build both differences, compare them."""
    if len(history) < 2 * period + 1:
        return None
    last, middle, first = history[-1], history[-1 - period], history[-1 - 2 * period]
    advance, before = last.minus(middle), middle.minus(first)
    if advance is None or before is None or not advance.close_to(before):
        return None
    return advance


def _summary(report):
    return (
        report.cycles,
        report.extrapolated,
        [(c.cycles, c.busy, c.instructions, c.critical, c.gm_bytes) for c in report.cores],
    )


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_cost_only_is_bit_identical_to_the_plain_bookkeeping(name, monkeypatch):
    x_shape, w, conv, cores, override = KERNELS[name]
    problem = shape_from_torch_args(x_shape, w, **conv)
    module = compiled_levels(problem, HW, "heuristic", cores, override)["hw"]
    (fast,) = model_cost(module, HW, problem=problem)
    monkeypatch.setattr(cost_core, "_steady", _plain_steady)
    monkeypatch.setattr(state, "_key_units", plain_key)
    (plain,) = model_cost(module, HW, problem=problem)
    assert fast.extrapolated > 0  # the bookkeeping was exercised
    assert _summary(fast) == _summary(plain)
