"""The cost model's report as one picture: the slowest core's timeline and where its time goes.

``write_plot(report, path)`` draws one PNG with matplotlib (the ``plot`` extra, imported only
here and only when called, with the non-interactive Agg backend):

* top: the timeline of the slowest core (the one the launch's makespan is), one row per pipe
  (MTE2, MTE1, M, FIX), one bar per instruction coloured by its op, x in microseconds at the
  report's clock, with its critical path (``Timeline.critical_chain``) drawn over it as one
  line through the slices it covers. In a cost-only report, a loop span that stands for
  many instructions is a hatched grey bar: the instructions of a replayed iteration are
  drawn inside it like the others, an extrapolated span stays one bar;
* bottom: per pipe, its busy ratio on that core (busy cycles over the core's cycles) next to its
  share of the core's critical path (``Timeline.critical_path``: the two differ, and the second
  says what would make the kernel faster).

The title names the layer (``title``, when the caller knows it), the hardware and the cycles.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw.instructions import INSTRUCTIONS
from ascend_xdsl.hw.isa import Pipe
from ascend_xdsl.runtime.cost.report import MSPROF_NAMES, CoreCost, CostReport
from ascend_xdsl.runtime.cost.timing import TIMED_PIPES
from ascend_xdsl.runtime.reports.output import write_atomically

INSTALL_HINT = (
    "matplotlib is not installed: install the plot extra (pip install 'ascend-xdsl[plot]')"
)


class PlotUnavailable(RuntimeError):
    """matplotlib cannot be imported; the message says how to install it."""


#: Colours of the ops on the timeline, from their instruction specs (others get the next
#: colours of the cycle).
OP_COLOURS: dict[str, str] = {
    spec.op_name: spec.colour for spec in INSTRUCTIONS if spec.colour is not None
}
_SPARE_COLOURS = ("#937860", "#DA8BC3", "#8C8C8C", "#CCB974", "#64B5CD")

#: The pipes of the utilisation chart, in msprof's names, and the critical path's extra share.
_PIPE_ORDER = ("mte2", "mte1", "cube", "fixpipe", "scalar", "flag")

CRITICAL_COLOUR = "#D1495B"
SPAN_COLOUR = "#D9D9D9"

#: Legend names of the loop spans of the cost-only mode, by the start of their label
#: (``runtime/cost/cost_core.py`` counts the iterations in the label: one entry for all).
_SPAN_KINDS = (
    ("scf.for: iteration replayed", "replayed iteration"),
    ("scf.for:", "extrapolated iterations"),
)


def _span_kind(label: str) -> str:
    return next((name for prefix, name in _SPAN_KINDS if label.startswith(prefix)), label)


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable(INSTALL_HINT) from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def require_matplotlib() -> None:
    """Raise :class:`PlotUnavailable` now if the plot could not be drawn (before a long run)."""
    _pyplot()


def problem_title(problem: ConvBpFilterShape, op: str = "dW") -> str:
    """The layer, for the title: ``dW of x 2x64x8x28x28, w 64x64x3x3x3, f16`` (``op`` names
    the kernel: dW, or forward for ``ascend-conv forward``)."""

    def dims(shape: tuple[int, ...]) -> str:
        return "x".join(map(str, shape))

    def flag(values: tuple[int, ...]) -> str:
        return str(values[0]) if len(set(values)) == 1 else ",".join(map(str, values))

    extra: list[str] = []
    if any(problem.pads):
        extra.append(f"padding {flag(problem.pads)}")
    if any(d != 1 for d in problem.strides):
        extra.append(f"stride {flag(problem.strides)}")
    if any(d != 1 for d in problem.dilations):
        extra.append(f"dilation {flag(problem.dilations)}")
    if problem.groups > 1:
        extra.append(f"groups {problem.groups}")
    tail = "".join(f", {e}" for e in extra)
    return (
        f"{op} of x {dims(problem.input_shape)}, w {dims(problem.weight_shape)}, "
        f"{problem.dtype}{tail}"
    )


def _draw_critical_path(ax: Any, core: CoreCost, rows: dict[Pipe, int], us: float) -> bool:
    """The critical path as one line: along each slice it covers, then across to the next.
    Returns whether there was one to draw."""
    if core.timeline is None:
        return False
    xs: list[float] = []
    ys: list[float] = []
    for link in reversed(core.timeline.critical_chain()):
        s = link.slice
        if s.pipe not in rows:
            continue
        xs += [s.start * us, (s.start + link.cycles) * us]
        ys += [rows[s.pipe], rows[s.pipe]]
    if not xs:
        return False
    ax.plot(xs, ys, color=CRITICAL_COLOUR, linewidth=1.6, solid_joinstyle="round", zorder=5)
    return True


def _draw_timeline(ax: Any, plt: Any, report: CostReport, core: CoreCost, us: float) -> None:
    """(a) The slowest core's timeline: one row per pipe, one bar per instruction (or per
    aggregated span), coloured by op, and the critical path over it."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    colours = dict(OP_COLOURS)
    spare = iter(_SPARE_COLOURS * 4)
    rows = {pipe: i for i, pipe in enumerate(reversed(TIMED_PIPES))}  # MTE2 on top
    used: dict[str, str] = {}
    timeline = core.timeline
    slices = [(0.0, s) for s in timeline.slices] if timeline is not None else []
    if timeline is not None:
        slices += [(r.shift, s) for r in timeline.replayed for s in r.slices]
    bars: dict[tuple[int, str], list[tuple[float, float]]] = {}
    spans: dict[str, list[tuple[int, float, float]]] = {}
    for shift, s in slices:
        if s.pipe not in rows:
            continue
        if s.label is not None:
            spans.setdefault(_span_kind(s.label), []).append((rows[s.pipe], s.start, s.end))
            continue
        name = s.op.name if s.op is not None else str(s.pipe)
        if name not in colours:
            colours[name] = next(spare, "#999999")
        used[name] = colours[name]
        start = (s.start + shift) * us
        bars.setdefault((rows[s.pipe], name), []).append((start, (s.end - s.start) * us))
    hatches = {"replayed iteration": "///", "extrapolated iterations": "xxx"}
    for kind, kind_spans in spans.items():
        for row, start, end in kind_spans:
            ax.broken_barh(
                [(start * us, (end - start) * us)],
                (row - 0.42, 0.84),
                facecolors=SPAN_COLOUR,
                edgecolor="#888888",
                hatch=hatches.get(kind, ".."),
                linewidth=0.5,
            )
    for (row, name), spans_of in bars.items():
        ax.broken_barh(
            spans_of,
            (row - 0.38, 0.76),
            facecolors=colours[name],
            edgecolor="white",
            linewidth=0.3,
        )
    critical = _draw_critical_path(ax, core, rows, us)
    ax.set_yticks(
        list(rows.values()),
        [f"{p}  ({MSPROF_NAMES[p]})" for p in rows],
    )
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(0, max(core.cycles, 1.0) * us)
    ax.set_xlabel(f"time (µs at {report.figures.clock_hz / 1e9:g} GHz)")
    top_axis = ax.secondary_xaxis("top", functions=(lambda t: t / us, lambda c: c * us))
    top_axis.set_xlabel("cycles", fontsize=9)
    top_axis.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    which = f"the slowest of {len(report.cores)}" if len(report.cores) > 1 else "the only core"
    bars_are = "one bar per instruction"
    if spans:
        kinds = " or ".join(k.split()[0] for k in spans)  # "replayed", "extrapolated"
        bars_are += f", hatched: loop iterations cost-only {kinds}"
    ax.set_title(
        f"timeline of core {core.block} ({which}): {core.cycles:,.0f} cycles, {bars_are}",
        fontsize=11,
        pad=8,
    )
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    handles: list[Any] = [Patch(color=c, label=n.removeprefix("ascend.")) for n, c in used.items()]
    handles += [
        Patch(facecolor=SPAN_COLOUR, edgecolor="#888888", hatch=hatches.get(k, ".."), label=k)
        for k in spans
    ]
    if critical:
        handles.append(Line2D([], [], color=CRITICAL_COLOUR, linewidth=1.6, label="critical path"))
    if handles:
        ax.legend(
            handles=handles,
            loc="upper left",
            bbox_to_anchor=(1.005, 1.0),
            fontsize=9,
            frameon=False,
        )


def _draw_pipe_shares(ax: Any, plt: Any, core: CoreCost) -> None:
    """(b) Per pipe: its busy ratio on the core next to its share of the critical path."""
    cycles = core.cycles or 1.0
    names = [n for n in _PIPE_ORDER if n in core.busy or core.critical.get(n, 0.0) > 0]
    busy = [core.busy.get(n, 0.0) / cycles for n in names]
    critical = [core.critical.get(n, 0.0) / cycles for n in names]
    x = range(len(names))
    width = 0.38
    b1 = ax.bar(
        [i - width / 2 for i in x], busy, width, color="#6E7F8D", label="busy / core cycles"
    )
    b2 = ax.bar(
        [i + width / 2 for i in x],
        critical,
        width,
        color="#D1495B",
        label="share of the critical path",
    )
    for group in (b1, b2):
        for rect, name in zip(group, names, strict=True):
            if group is b1 and name not in core.busy:
                continue  # flag latency is on the critical path only, never "busy"
            h = rect.get_height()
            ax.annotate(
                f"{h:.0%}",
                (rect.get_x() + rect.get_width() / 2, h),
                xytext=(0, 2),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8,
            )
    ax.set_xticks(list(x), names)
    top = max([*busy, *critical, 0.0])
    ax.set_ylim(0, max(1.0, top) * 1.15)
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.set_ylabel(f"of core {core.block}'s cycles")
    ax.set_title(
        f"per pipe on core {core.block}: busy ratio and share of the critical path", fontsize=11
    )
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc="upper right", fontsize=9)


def render_plot(report: CostReport, title: str | None = None) -> bytes:
    """The PNG of ``report`` (see the module docstring), as bytes."""
    plt = _pyplot()
    fig = plot_figure(report, title)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI)
    plt.close(fig)
    return out.getvalue()


DPI = 110


def plot_figure(report: CostReport, title: str | None = None) -> Any:
    """The matplotlib figure of ``report`` (see the module docstring); the caller closes it."""
    plt = _pyplot()
    core = report.slowest
    us = 1e6 / report.figures.clock_hz
    fig, (ax_t, ax_u) = plt.subplots(
        2, 1, figsize=(13, 9), gridspec_kw={"height_ratios": [3, 2], "hspace": 0.4}
    )
    _draw_timeline(ax_t, plt, report, core, us)
    _draw_pipe_shares(ax_u, plt, core)
    head = f"{title}\n" if title else ""
    fig.suptitle(
        f"{head}{report.hw}: {report.cycles:,.0f} cycles = {report.seconds * 1e6:,.1f} µs, "
        f"{report.efficiency:.1%} of peak, {report.bound} bound (waits on {report.bottleneck})",
        fontsize=12,
    )
    # the legend right of the timeline: room for its longest entry ("extrapolated iterations")
    fig.subplots_adjust(left=0.1, right=0.8, top=0.84 if title else 0.86, bottom=0.06)
    return fig


def write_plot(report: CostReport, path: str | Path, title: str | None = None) -> None:
    """Write the PNG of ``report`` to ``path``, atomically. Raises :class:`PlotUnavailable`
    without matplotlib, ``OSError`` for an unwritable path (leaving no file)."""
    write_atomically(path, render_plot(report, title))
