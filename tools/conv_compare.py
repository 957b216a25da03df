"""What ``ascend-conv compare`` prints: two tilings of one problem side by side.

Each side is one cost-only run of the problem (``runtime/runner.py``) with its tiling; the table
puts, per side, the cycles and time, the efficiency against the peak, the bound and the pipe it
waits on, each pipe's busy ratio and share of the critical path on the slowest core, and the
instruction the critical path waits on most (``tools/conv_report.critical_step``); then the
tiling fields that differ. ``tools/conv.py`` runs the two sides.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.runtime.reports.plot import problem_title
from ascend_xdsl.runtime.runner import RunResult
from ascend_xdsl.tools.conv_report import critical_step, tiling_of

#: The pipes of the table, in msprof's names (the critical path adds "flag").
PIPES = ("mte2", "mte1", "cube", "fixpipe", "scalar")


@dataclass(frozen=True)
class Side:
    """One tiling of the comparison: its name as given (``heuristic``, ``fixed:t.txt``, with
    its overrides) and its run."""

    name: str
    result: RunResult


#: Basic-block fields whose 0 means "not given" (``DwTiling``), shown as such.
NOT_GIVEN = frozenset({"single_core_m", "single_core_n", "single_core_k"})


class _Rows:
    """Rows of three columns: a label, then A and B right-aligned (the sides are named above
    the table, so long names do not widen it)."""

    width = 20

    def __init__(self) -> None:
        self.lines = [self.row("", "A", "B")]

    def row(self, label: str, a: str, b: str, note: str = "") -> str:
        w = self.width
        return f"  {label:<22}{a:>{w}}{b:>{w}}  {note}".rstrip()

    def add(self, label: str, a: str, b: str, note: str = "") -> None:
        self.lines.append(self.row(label, a, b, note))


def _field(name: str, value: int) -> str:
    return "not given" if value == 0 and name in NOT_GIVEN else str(value)


def _ratio(a: float, b: float) -> str:
    """How B compares with A in cycles, in words."""
    if a == b:
        return "same"
    return f"B {a / b:.2f}x faster" if b < a else f"B {b / a:.2f}x slower"


def compare_table(problem: ConvBpFilterShape, a: Side, b: Side) -> str:
    """The comparison of ``a`` and ``b`` (see the module docstring)."""
    costs = [side.result.cost for side in (a, b)]
    assert costs[0] is not None and costs[1] is not None
    ca, cb = costs
    cores = len(ca.cores)
    t = _Rows()
    t.add("cycles", f"{ca.cycles:,.0f}", f"{cb.cycles:,.0f}", _ratio(ca.cycles, cb.cycles))
    t.add("time (us)", f"{ca.seconds * 1e6:,.1f}", f"{cb.seconds * 1e6:,.1f}")
    t.add("TFLOP/s", f"{ca.tflops:.1f}", f"{cb.tflops:.1f}")
    t.add("of peak", f"{ca.efficiency:.1%}", f"{cb.efficiency:.1%}")
    t.add("bound (waits on)", f"{ca.bound} ({ca.bottleneck})", f"{cb.bound} ({cb.bottleneck})")
    t.lines.append("  busy on the slowest core")
    ra, rb = ca.pipe_ratios(), cb.pipe_ratios()
    for pipe in PIPES:
        t.add(f"  {pipe}", f"{ra.get(pipe, 0.0):.0%}", f"{rb.get(pipe, 0.0):.0%}")
    t.lines.append("  critical path of the slowest core")
    pa, pb = ca.slowest.critical, cb.slowest.critical
    ta, tb = sum(pa.values()) or 1.0, sum(pb.values()) or 1.0
    for pipe in (*PIPES, "flag"):
        t.add(f"  {pipe}", f"{pa.get(pipe, 0.0) / ta:.0%}", f"{pb.get(pipe, 0.0) / tb:.0%}")
    fa, fb = (tiling_of(side.result.modules).as_dict() for side in (a, b))
    differ = [name for name in fa if fa[name] != fb[name]]
    if differ:
        t.lines.append("  tiling fields that differ")
        for name in differ:
            t.add(f"  {name}", _field(name, fa[name]), _field(name, fb[name]))
    else:
        t.lines.append("  the two tilings are the same")
    for label, side in (("A", a), ("B", b)):
        step = critical_step(side.result)
        if step:
            t.lines.append(f"  {label} waits most on {step}")
    head = (
        f"compare on {ca.hw}: {problem_title(problem)} (cost only, {cores} "
        f"core{'s' if cores != 1 else ''})"
    )
    return "\n".join([head, f"  A: {a.name}", f"  B: {b.name}", *t.lines]) + "\n"
