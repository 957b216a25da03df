"""The structure of the Chrome trace (runtime/reports/trace.py) and its counters
(runtime/reports/counters.py), on a full run and on a cost-only run.

Every event is checked for the fields its phase needs in the Trace Event Format (X, i, s/f, C,
M) and nothing else appears; then each kind of event against what it shows: the flows against
the critical path, the flag instants against the flag protocol, the S track against the
scalar unit's busy cycles, the counters against the memories' sizes and the GM bytes, and the
replayed iterations of a cost-only trace against the spans that hold them. The occupancy rule
is checked on a hand-made timeline.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from ascend_xdsl import hw
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.hw.isa import Effects, Pipe, Span, Work
from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels
from ascend_xdsl.runtime.api import run_compiled
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.cost.timing import Timeline
from ascend_xdsl.runtime.reports import counters, trace

HW = "atlas-a2-910b2"
META = {"process_name", "process_sort_index", "thread_name", "thread_sort_index"}
EPS = 1e-6  # microseconds: the float slack of a shifted timestamp


@pytest.fixture(scope="module")
def full() -> CostReport:
    """A full run of a small layer on two cores."""
    problem = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=1)
    modules = compile_levels(build_module(problem), CompileOptions.create(hw=HW, cores=2))
    cost = run_compiled(modules, problem, hw=HW).cost
    assert cost is not None
    return cost


@pytest.fixture(scope="module")
def cost_only(cost_only_report) -> CostReport:
    """A cost-only run of a layer whose loops are both replayed and extrapolated."""
    return cost_only_report


def _document(report: CostReport, tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "t.json"
    trace.write_trace(report, path)
    document = json.loads(path.read_text())  # valid JSON, or this raises
    assert document["displayTimeUnit"] == "ns"
    return document["traceEvents"]


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_fields(events: list[dict[str, Any]]) -> None:
    """The fields each phase needs, with the right types."""
    for e in events:
        ph = e["ph"]
        assert isinstance(e["name"], str) and e["name"], e
        assert isinstance(e["pid"], int), e
        if ph == "M":
            assert e["name"] in META and isinstance(e["args"], dict) and isinstance(e["tid"], int)
        elif ph == "X":
            assert isinstance(e["tid"], int) and _number(e["ts"]) and _number(e["dur"]), e
            assert e["dur"] >= 0 and e["ts"] >= 0
            assert isinstance(e["args"], dict)
        elif ph in ("i", "I"):
            assert isinstance(e["tid"], int) and _number(e["ts"]) and e["s"] in ("t", "p", "g")
        elif ph in ("s", "f"):
            assert isinstance(e["id"], int) and isinstance(e["cat"], str) and _number(e["ts"])
            assert isinstance(e["tid"], int)
            if ph == "f":
                assert e["bp"] == "e"
        elif ph == "C":
            assert _number(e["ts"]) and e["args"] and all(map(_number, e["args"].values()))
        else:
            pytest.fail(f"unexpected phase {ph!r}: {e}")


def _encloses(slices: list[dict[str, Any]], ts: float) -> bool:
    return any(s["ts"] - EPS <= ts <= s["ts"] + s["dur"] + EPS for s in slices)


@pytest.mark.parametrize("which", ["full", "cost_only"])
def test_every_event_has_the_fields_of_its_phase(which, request, tmp_path):
    report = request.getfixturevalue(which)
    events = _document(report, tmp_path)
    _check_fields(events)
    assert {e["ph"] for e in events} == {"M", "X", "i", "s", "f", "C"}
    # flows: one start and one finish per id, the finish not before the start, each bound to
    # a slice of its track (an X event enclosing its timestamp)
    tracks: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            tracks[(e["pid"], e["tid"])].append(e)
    flows: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)
    for e in events:
        if e["ph"] in ("s", "f"):
            assert e["ph"] not in flows[e["id"]], "an id used twice"
            flows[e["id"]][e["ph"]] = e
            assert _encloses(tracks[(e["pid"], e["tid"])], e["ts"]), e
    for pair in flows.values():
        assert set(pair) == {"s", "f"}
        assert pair["s"]["pid"] == pair["f"]["pid"]
        assert pair["f"]["ts"] >= pair["s"]["ts"] - EPS
    # the instants sit on a named track of their process
    named = {(e["pid"], e["tid"]) for e in events if e["name"] == "thread_name"}
    assert all((e["pid"], e["tid"]) in named for e in events if e["ph"] in ("i", "X"))


def test_flows_follow_the_critical_path(full, tmp_path):
    events = _document(full, tmp_path)
    us = 1e6 / full.figures.clock_hz
    for core in full.cores:
        chain = list(reversed(core.timeline.critical_chain()))
        starts = sorted(e["ts"] for e in events if e["ph"] == "s" and e["pid"] == core.block)
        ends = sorted(e["ts"] for e in events if e["ph"] == "f" and e["pid"] == core.block)
        assert len(starts) == len(ends) == len(chain) - 1 > 0
        assert starts == pytest.approx(sorted(link.slice.start * us for link in chain[:-1]))
        assert ends == pytest.approx(sorted(link.slice.start * us for link in chain[1:]))
        # the slices on the path carry the cycles they cover; with the gaps, the makespan
        marked = [
            e["args"]["critical_cycles"]
            for e in events
            if e["ph"] == "X" and e["pid"] == core.block and "critical_cycles" in e["args"]
        ]
        assert sum(marked) == pytest.approx(sum(link.cycles for link in chain))
        gaps = sum(link.gap + link.lead for link in chain)
        assert sum(marked) + gaps == pytest.approx(core.cycles)


def test_flag_instants_pair_sets_with_their_waits(full, tmp_path):
    events = _document(full, tmp_path)
    us = 1e6 / full.figures.clock_hz
    latency = full.figures.flag_latency_cycles * us
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    for core in full.cores:
        sets: dict[str, list[float]] = defaultdict(list)
        waits: dict[str, list[float]] = defaultdict(list)
        for e in events:
            if e["ph"] != "i" or e["pid"] != core.block:
                continue
            kind, route, event_id = e["name"].split()
            src, dst = route.split("->")
            track = names[(e["pid"], e["tid"])]
            assert track == (src if kind == "set_flag" else dst), e
            (sets if kind == "set_flag" else waits)[f"{route} {event_id}"].append(e["ts"])
        assert sets and waits
        for key, arrived in waits.items():
            fired = sets[key]
            assert len(arrived) <= len(fired)
            # first in, first out: the k-th wait is released by the k-th set, a latency later
            for at, when in zip(arrived, fired, strict=False):
                assert at == pytest.approx(when + latency)


def test_scalar_track_adds_up_to_the_scalar_busy_cycles(full, tmp_path):
    events = _document(full, tmp_path)
    us = 1e6 / full.figures.clock_hz
    for core in full.cores:
        spans = sorted(
            (e["ts"], e["dur"])
            for e in events
            if e["ph"] == "X" and e["pid"] == core.block and e["tid"] == trace.SCALAR_TRACK
        )
        assert spans and all(e["name"] == "issue" for e in events if e.get("cat") == "S")
        for (t0, d0), (t1, _) in pairwise(spans):
            assert t0 + d0 <= t1 + EPS  # busy spans do not overlap
        # the scalar unit also issues every set_flag and wait_flag (the report's scalar busy
        # ratio counts the instructions and the index arithmetic only)
        flags = sum(1 for e in events if e["ph"] == "i" and e["pid"] == core.block)
        issue = (core.busy["scalar"] + flags * full.figures.scalar_op_cycles) * us
        assert sum(d for _, d in spans) == pytest.approx(issue)
        assert spans[-1][0] + spans[-1][1] == pytest.approx(core.timeline.issue * us)


def _integral(steps: counters.Steps, end: float) -> float:
    total = 0.0
    for (t, value), (t_next, _) in zip(steps, [*steps[1:], (end, 0.0)], strict=True):
        total += value * (t_next - t)
    return total


@pytest.mark.parametrize("which", ["full", "cost_only"])
def test_counters_stay_within_the_memories_and_count_the_gm_bytes(which, request, tmp_path):
    report = request.getfixturevalue(which)
    events = _document(report, tmp_path)
    sizes = {m: hw.load(HW).memory_size(m) for m in ("L1", "L0A", "L0B", "L0C")}
    names = Counter(e["name"] for e in events if e["ph"] == "C")
    assert {f"{m} bytes" for m in ("L1", "L0A", "L0B", "L0C")} <= set(names)
    assert "GM GB/s" in names
    for e in events:
        if e["ph"] == "C" and e["name"].endswith(" bytes"):
            memory = e["name"].removesuffix(" bytes")
            assert 0 <= e["args"]["bytes"] <= sizes[memory], e
    for core in report.cores:
        for memory, steps in counters.occupancy(core.timeline).items():
            assert steps[-1][1] == 0, memory  # everything is released by the end
            assert max(v for _, v in steps) > 0
    if which == "full":  # every byte is timed one by one: the rate integrates to the bytes
        for core in report.cores:
            steps = counters.gm_bandwidth(core.timeline)
            assert _integral(steps, core.cycles) == pytest.approx(core.gm_bytes)


def test_cost_only_trace_opens_the_replayed_iterations(cost_only, tmp_path):
    events = _document(cost_only, tmp_path)
    timeline = cost_only.slowest.timeline
    slices = [e for e in events if e["ph"] == "X" and e["tid"] != trace.SCALAR_TRACK]
    parents = [e for e in slices if "replayed" in e["name"]]
    children = [e for e in slices if e["args"].get("replayed")]
    assert parents and all(e["args"]["aggregated"] for e in parents)
    assert len(children) == sum(len(r.slices) for r in timeline.replayed) > 0
    # an instruction, or a loop's aggregated span inside a replayed iteration of a short loop
    assert all(e["name"].startswith("ascend.") or e["args"].get("aggregated") for e in children)
    assert any(e["name"].startswith("ascend.") for e in children)
    for child in children:  # nested: inside a replayed span of its own track
        track = [p for p in parents if p["tid"] == child["tid"]]
        assert any(
            p["ts"] - EPS <= child["ts"] and child["ts"] + child["dur"] <= p["ts"] + p["dur"] + EPS
            for p in track
        ), child
    extrapolated = [e for e in slices if "extrapolated" in e["name"]]
    assert extrapolated and all(e["args"]["aggregated"] for e in extrapolated)


def test_occupancy_of_a_hand_made_timeline():
    """Write L1 [0, 512) (MTE2, 10 cycles), read it into L0A (MTE1), accumulate twice into
    L0C and read that out: L1 is in use from the write's start to the read's end, L0C from the
    first mmad to the fixpipe's end, once (the second mmad continues the first)."""
    t = Timeline(cost_figures(HW))

    def run(pipe: Pipe, length: float, reads: tuple[Span, ...], writes: tuple[Span, ...]):
        effects = Effects(pipe, reads, writes, Work(bytes=512), "")
        gm = 512 if any(s.memory == "GM" for s in (*reads, *writes)) else 0
        t.run(None, pipe, length, gm, 0, effects)

    def handover(src: Pipe, dst: Pipe) -> None:
        t.set_flag(src, dst, 0)
        t.wait_flag(src, dst, 0)

    l1, l0a, l0c = Span("L1", 0, 512), Span("L0A", 0, 512), Span("L0C", 0, 1024)
    run(Pipe.MTE2, 10, (Span("GM", 0, 512),), (l1,))
    handover(Pipe.MTE2, Pipe.MTE1)
    run(Pipe.MTE1, 5, (l1,), (l0a,))
    handover(Pipe.MTE1, Pipe.M)
    run(Pipe.M, 4, (l0a,), (l0c,))
    run(Pipe.M, 4, (l0a, l0c), (l0c,))
    handover(Pipe.M, Pipe.FIX)
    run(Pipe.FIX, 6, (l0c,), (Span("GM", 0, 1024),))
    s = t.slices
    assert s[0].end < s[1].start and s[1].end < s[2].start and s[3].end < s[4].start
    occupancy = counters.occupancy(t)
    assert occupancy["L1"] == [(s[0].start, 512), (s[1].end, 0)]
    assert occupancy["L0A"] == [(s[1].start, 512), (s[3].end, 0)]
    assert occupancy["L0C"] == [(s[2].start, 1024), (s[4].end, 0)]
    rate = counters.gm_bandwidth(t)
    assert rate[0] == (s[0].start, pytest.approx(512 / 10))
    assert _integral(rate, t.cycles) == pytest.approx(1024)
