"""The cost report of one kernel launch: cycles, seconds, efficiency, bound and critical path.

``runtime/cost/timing.py`` times each core on its own; this module combines the cores of a launch
into what a kernel engineer asks for: how fast the kernel would run on the target, what bounds
it, and where the time goes, in the words of ``msprof op`` (cube/mac, mte1, mte2, fixpipe,
scalar, cube_utilization). The makespan is the slowest core's, and at least the floor the
chip's shared bandwidth puts under it: all cores' GM traffic through L2, and the part the L2
model (:func:`l2_misses`, per GM tensor by its reuse distance) sends to HBM, each at the chip's
total (the cores' timelines already share both among the cores streaming,
``Timeline._gm_transfer``). docs/cost-model.md describes the model and its limits.
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from xdsl.ir import Operation

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw.cost_figures import CostFigures
from ascend_xdsl.hw.instructions import DATA_INSTRUCTIONS
from ascend_xdsl.hw.isa import Pipe
from ascend_xdsl.runtime.cost.timing import TIMED_PIPES, Timeline

if TYPE_CHECKING:
    from ascend_xdsl.runtime.cost.operator import OperatorCost

#: msprof's names of the pipes (PipeUtilization.csv): each instruction's pipe as its spec names
#: it (``hw/instructions/``), and the scalar unit.
MSPROF_NAMES: dict[Pipe, str] = {
    **{
        spec.pipe: spec.msprof_pipe
        for spec in DATA_INSTRUCTIONS
        if spec.pipe is not None and spec.msprof_pipe is not None
    },
    Pipe.S: "scalar",
}


def cube_dtype(launch: Operation) -> str:
    """The Cube's input type of a launch: the element type of its first 16-bit GM operand."""
    for operand in launch.operands:
        t = operand.type
        if isinstance(t, GmTensorType) and str(t.element_type) in ("f16", "bf16"):
            return str(t.element_type)
    return "f16"


@dataclass(frozen=True)
class CoreCost:
    """The timing of one core (one block of the launch)."""

    block: int
    cycles: float
    busy: dict[str, float]
    """Busy cycles per pipe, msprof's names; ``scalar`` counts issue and index arithmetic."""
    instructions: dict[str, int]
    critical: dict[str, float]
    gm_bytes: int
    timeline: Timeline | None = field(default=None, repr=False, compare=False)
    tensor_bytes: tuple[int, ...] = ()
    """``gm_bytes`` per GM tensor (``Timeline.tensor_bytes``: position 0 unknown, then the
    kernel's arguments)."""
    tensor_sizes: tuple[tuple[int, int], ...] = ()
    """(position, bytes) of each GM tensor counted in :attr:`tensor_bytes`."""
    """The core's full timeline (its slices), for traces and plots."""

    def to_json(self) -> dict[str, Any]:
        """The core in the report (docs/report.schema.json, ``core``): its fields by name."""
        return {
            "block": self.block,
            "cycles": self.cycles,
            "busy": dict(self.busy),
            "instructions": dict(self.instructions),
            "critical": dict(self.critical),
            "gm_bytes": self.gm_bytes,
        }


def core_cost(block: int, timeline: Timeline) -> CoreCost:
    f = timeline.figures
    busy = {MSPROF_NAMES[p]: timeline.busy[p] for p in TIMED_PIPES}
    issued = sum(timeline.count.values())
    busy["scalar"] = float((timeline.scalar_ops + issued) * f.scalar_op_cycles)
    names = {str(p): name for p, name in MSPROF_NAMES.items()}
    critical = {names.get(k, k): v for k, v in timeline.critical_path().items()}
    return CoreCost(
        block,
        timeline.cycles,
        busy,
        {MSPROF_NAMES[p]: timeline.count[p] for p in TIMED_PIPES},
        critical,
        timeline.gm_bytes,
        timeline,
        tuple(timeline.tensor_bytes),
        tuple(sorted(timeline.tensor_sizes.items())),
    )


@dataclass(frozen=True)
class CriticalOp:
    """One instruction of the program (an op, over all its executions) on a core's critical
    path: the pipe it runs on and the cycles of the path it accounts for."""

    op: Operation
    pipe: Pipe
    cycles: float


def critical_ops(timeline: Timeline) -> list[CriticalOp]:
    """The ops on ``timeline``'s critical path (``Timeline.critical_chain``), the most cycles
    first. A span that stands for many instructions (the cost-only mode's extrapolated or
    replayed loop iterations) is charged to its bottleneck pipe, as the critical path does, and
    shared among the ops of that pipe in proportion to their busy cycles in the instructions
    that were timed one by one (those of the replayed iterations included)."""
    cycles: dict[Operation, float] = defaultdict(float)
    pipes: dict[Operation, Pipe] = {}
    spans: dict[Pipe, float] = defaultdict(float)
    for link in timeline.critical_chain():
        s = link.slice
        if s.op is not None:
            cycles[s.op] += link.cycles
            pipes[s.op] = s.pipe
        else:
            spans[s.bottleneck or s.pipe] += link.cycles
    if spans:
        busy: dict[Pipe, dict[Operation, float]] = defaultdict(lambda: defaultdict(float))
        timed = [timeline.slices, *(r.slices for r in timeline.replayed)]
        for s in (s for group in timed for s in group):
            if s.op is not None:
                busy[s.pipe][s.op] += s.end - s.start
                pipes[s.op] = s.pipe
        for pipe, charged in spans.items():
            total = sum(busy[pipe].values())
            for op, b in busy[pipe].items():
                cycles[op] += charged * b / total
    ranked = sorted(cycles.items(), key=lambda kv: -kv[1])
    return [CriticalOp(op, pipes[op], c) for op, c in ranked if c > 0]


def count_problem_flops(reports: list[CostReport], problem: ConvBpFilterShape | None) -> None:
    """The one rule for a report's FLOPs: when the launches compute a known dW problem, its
    useful work, 2 x the multiply-adds of the formula (padding and fractal tails excluded);
    otherwise they keep what their mmads issued. The runner and the cost model both apply it."""
    if problem is not None:
        for report in reports:
            report.flops = 2.0 * problem.macs


def reuse_distance(streams: Sequence[tuple[float, float]], at: int) -> float:
    """The reuse distance of stream ``at``'s re-reads: the distinct bytes of the chip-wide
    stream between two accesses to the same byte of its tensor.

    ``streams`` holds per GM tensor (bytes moved by all cores, the tensor's bytes). A tensor
    moved ``r = moved / size`` times has its re-reads spread over the launch, one every
    ``1 / r`` of it: between two of them every tensor ``u`` moves ``moved_u / r`` bytes, of
    which at most its whole size are distinct. So the distance is the sum over the tensors of
    ``min(size_u, moved_u / r)``: a tensor re-read often (the dy panel of every N block) is
    re-read after a short stretch of the stream, a tensor read twice after half of it."""
    moved, size = streams[at]
    per_reuse = size / moved
    return sum(min(size_u, moved_u * per_reuse) for moved_u, size_u in streams)


def l2_misses(streams: Sequence[tuple[float, float]], l2_size: float) -> float:
    """Bytes of the GM traffic ``streams`` (per tensor: bytes moved, the tensor's bytes) that
    go to HBM. Each tensor's first touch misses (the L2 is cold at a launch's start: cann-bench
    clears it before every measured call); a re-read hits when its :func:`reuse_distance` fits
    the L2, and in the fraction ``l2_size / distance`` of it when it does not (the part of the
    window the L2 holds)."""
    misses = 0.0
    for at, (moved, size) in enumerate(streams):
        first = min(moved, size)
        again = moved - first
        misses += first
        if again > 0:
            distance = reuse_distance(streams, at)
            misses += again * (1.0 - min(1.0, l2_size / distance))
    return misses


@dataclass
class CostReport:
    """The cost of one launch on ``hw``."""

    hw: str
    figures: CostFigures
    dtype: str
    flops: float
    """The useful floating-point operations (2 x the multiply-adds of the dW formula when the
    launch computes a known problem, else of the mmads as issued)."""
    cores: list[CoreCost] = field(default_factory=list)
    extrapolated: int = 0
    """Loop iterations the cost-only mode extrapolated instead of running (0 for a full run)."""
    tensor_bytes: int = 0
    """Bytes of the GM tensors the launch reads and writes (its operands), for the L2 model."""
    operator: OperatorCost | None = None
    """The whole operator this launch is the dW kernel of: every kernel of the host function
    (``runtime/cost/operator.py``); None when only the launch was costed."""

    @property
    def core_cycles(self) -> float:
        return max((c.cycles for c in self.cores), default=0.0)

    @property
    def gm_traffic(self) -> tuple[float, float]:
        """(bytes through L2, bytes from HBM) of the launch's GM traffic, by the L2 model
        (:func:`l2_misses`) over every GM tensor the cores moved bytes of."""
        traffic: dict[int, float] = defaultdict(float)
        sizes: dict[int, int] = {}
        for core in self.cores:
            for at, moved in enumerate(core.tensor_bytes):
                traffic[at] += moved
            sizes.update(core.tensor_sizes)
        total = float(sum(c.gm_bytes for c in self.cores))
        unknown = traffic.pop(0, 0.0)
        streams = [(traffic[at], float(sizes[at])) for at in sorted(traffic) if traffic[at]]
        from_hbm = l2_misses(streams, float(self.figures.l2_size))
        if unknown:  # bytes no kernel argument names: the uniform rule over the launch's tensors
            unique = min(unknown, float(self.tensor_bytes or unknown))
            hit = min(1.0, self.figures.l2_size / self.tensor_bytes) if self.tensor_bytes else 0.0
            from_hbm += unique + (unknown - unique) * (1.0 - hit)
        return total, from_hbm

    @property
    def bandwidth_cycles(self) -> float:
        """The floor the chip's shared bandwidth puts under the makespan: all GM traffic
        through L2 at the chip's L2 rate, and the part that misses L2 at the HBM rate."""
        through_l2, from_hbm = self.gm_traffic
        clock = self.figures.clock_hz
        l2 = through_l2 / (self.figures.l2_bytes_per_second_total / clock)
        hbm = from_hbm / (self.figures.hbm_bytes_per_second_total / clock)
        return max(l2, hbm)

    @property
    def cycles(self) -> float:
        return max(self.core_cycles, self.bandwidth_cycles)

    @property
    def seconds(self) -> float:
        return self.cycles / self.figures.clock_hz

    @property
    def tflops(self) -> float:
        return self.flops / self.seconds / 1e12 if self.seconds else 0.0

    @property
    def peak_tflops(self) -> float:
        return self.figures.peak_flops(self.dtype) / 1e12

    @property
    def efficiency(self) -> float:
        return self.tflops / self.peak_tflops if self.peak_tflops else 0.0

    @property
    def slowest(self) -> CoreCost:
        return max(self.cores, key=lambda c: c.cycles)

    @property
    def bottleneck(self) -> str:
        """The pipe (or "flag", "S" for scalar issue, "gm bandwidth" for the chip's L2/HBM
        floor) the makespan waits on most: the largest share of the slowest core's critical
        path."""
        if self.bandwidth_cycles > self.core_cycles:
            return "gm bandwidth"
        critical = self.slowest.critical
        return max(critical, key=lambda k: critical[k]) if critical else "none"

    @property
    def bound(self) -> str:
        """The roofline's word: compute (the Cube), memory (GM, MTE2 or MTE1), or latency
        (flags, issue, fixpipe: neither the Cube nor a bandwidth)."""
        b = self.bottleneck
        if b == "cube":
            return "compute"
        if b in ("mte2", "mte1", "gm bandwidth"):
            return "memory"
        return "latency"

    def pipe_ratios(self) -> dict[str, float]:
        """Each pipe's busy cycles over the makespan, on the slowest core."""
        core = self.slowest
        return {
            name: busy / core.cycles if core.cycles else 0.0 for name, busy in core.busy.items()
        }

    # The keys of the JSON report (docs/report.schema.json, ``cost``) that are not fields
    # above are the properties below, under the same names: ``report.pipes`` is
    # ``report.to_json()["pipes"]``.

    @property
    def pipes(self) -> dict[str, dict[str, float]]:
        """Per pipe of the slowest core: busy cycles, their ratio to the makespan, and the
        cycles the critical path spends on it."""
        core = self.slowest
        return {
            name: {
                "busy_cycles": core.busy[name],
                "ratio": ratio,
                "critical_cycles": core.critical.get(name, 0.0),
            }
            for name, ratio in self.pipe_ratios().items()
        }

    @property
    def critical_path(self) -> dict[str, dict[str, float]]:
        """The slowest core's critical path by what it waits on (the pipes, ``flag`` for the
        set/wait latency, ``S`` for scalar issue): cycles and share of the path, largest
        first."""
        critical = self.slowest.critical
        total = sum(critical.values()) or 1.0
        ranked = sorted(critical.items(), key=lambda kv: -kv[1])
        return {name: {"cycles": cycles, "share": cycles / total} for name, cycles in ranked}

    @property
    def cube_utilization(self) -> float:
        return self.pipe_ratios().get("cube", 0.0)

    @property
    def core_spread(self) -> dict[str, float]:
        """How many cores ran and the spread of their cycles."""
        return {
            "count": len(self.cores),
            "min_cycles": min((c.cycles for c in self.cores), default=0.0),
            "max_cycles": self.core_cycles,
            "mean_cycles": sum(c.cycles for c in self.cores) / max(len(self.cores), 1),
        }

    @property
    def bandwidth_floor_cycles(self) -> float:
        return self.bandwidth_cycles

    @property
    def gm_bytes(self) -> float:
        return self.gm_traffic[0]

    @property
    def hbm_bytes(self) -> float:
        return self.gm_traffic[1]

    @property
    def extrapolated_iterations(self) -> int:
        return self.extrapolated

    @property
    def end_to_end_seconds(self) -> float | None:
        """The whole operator's time (TransData in and out, the dW MemSet, the launches), or
        None when only the launch was costed."""
        return None if self.operator is None else self.operator.end_to_end_seconds

    @property
    def kernels(self) -> list[dict[str, Any]] | None:
        """Each kernel of the whole operator in host order (name, seconds, cycles), or None."""
        return None if self.operator is None else [k.to_json() for k in self.operator.kernels]

    JSON_KEYS: ClassVar[tuple[str, ...]] = (
        "hw", "dtype", "cycles", "seconds", "flops", "tflops", "peak_tflops", "efficiency",
        "bound", "bottleneck", "pipes", "critical_path", "cube_utilization", "cores",
        "core_spread", "bandwidth_floor_cycles", "gm_bytes", "hbm_bytes",
        "extrapolated_iterations",
    )  # fmt: skip
    """The keys of :meth:`to_json`, each an attribute of the same name."""

    def to_json(self) -> dict[str, Any]:
        """The launch's cost as JSON (docs/report.schema.json, ``cost``)."""
        document = {key: getattr(self, key) for key in self.JSON_KEYS}
        document["cores"] = [core.to_json() for core in self.cores]
        if self.operator is not None:  # optional keys of the schema
            document["end_to_end_seconds"] = self.end_to_end_seconds
            document["kernels"] = self.kernels
        return document

    def __repr__(self) -> str:
        # The dataclass repr prints every core and the cost figures: one line instead.
        return (
            f"CostReport(hw={self.hw!r}, {self.cycles:,.0f} cycles = "
            f"{self.seconds * 1e6:,.1f} us, {self.efficiency:.1%} of peak, {self.bound} bound "
            f"(waits on {self.bottleneck}), {len(self.cores)} cores)"
        )

    def _repr_html_(self) -> str:
        """A notebook's view: the summary lines and a table of the pipes."""
        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{p['busy_cycles']:,.0f}</td>"
            f"<td>{p['ratio']:.0%}</td><td>{p['critical_cycles']:,.0f}</td></tr>"
            for name, p in self.pipes.items()
        )
        lines = "".join(f"<li>{html.escape(line)}</li>" for line in self.summary_lines())
        return (
            f"<div><b>CostReport</b><ul>{lines}</ul><table><tr><th>pipe</th>"
            "<th>busy cycles</th><th>busy</th><th>on the critical path</th></tr>"
            f"{rows}</table></div>"
        )

    def summary_lines(self) -> list[str]:
        """The cost lines of the ``ascend-conv`` summary."""
        ratios = "  ".join(f"{n} {r:.0%}" for n, r in self.pipe_ratios().items())
        path = "  ".join(f"{k} {v['share']:.0%}" for k, v in self.critical_path.items())
        cores = self.core_spread
        lines = [
            f"modelled on {self.hw}: {self.cycles:,.0f} cycles = {self.seconds * 1e6:,.1f} us, "
            f"{self.tflops:.1f} TFLOP/s of {self.peak_tflops:.1f} peak "
            f"({self.efficiency:.1%}), {self.bound} bound (waits on {self.bottleneck})",
            f"pipes busy on the slowest core: {ratios}",
            f"critical path: {path}",
            f"cores: {cores['count']}, cycles {cores['min_cycles']:,.0f} to "
            f"{cores['max_cycles']:,.0f}",
        ]
        if self.operator is not None:
            kernels = "  ".join(f"{k.name} {k.seconds * 1e6:,.1f}" for k in self.operator.kernels)
            lines.append(
                f"end to end: {self.operator.end_to_end_seconds * 1e6:,.1f} us in "
                f"{len(self.operator.kernels)} kernels (us): {kernels}"
            )
        return lines
