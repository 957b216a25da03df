"""``--trace FILE.json`` and ``--plot FILE.png`` of ``ascend-conv`` and ``ascend-run``: the cost
reports drawn as a Chrome trace (``runtime/reports/trace.py``) and a PNG
(``runtime/reports/plot.py``), each file written atomically, each failure one line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.reports.plot import PlotUnavailable, require_matplotlib, write_plot
from ascend_xdsl.runtime.reports.trace import write_trace
from ascend_xdsl.tools.errors import CliError


def write_pictures(
    reports: Sequence[CostReport], trace: str | None, plot: str | None, title: str | None
) -> None:
    """``--trace``: every report (launch) in ``reports``; ``--plot``: the last one. Each file is
    written atomically; a failure is a :class:`CliError` and leaves no file."""
    if trace:
        try:
            write_trace(reports, trace)
        except OSError as e:
            raise CliError(f"--trace: cannot write '{trace}': {e.strerror or e}") from None
    if plot:
        try:
            write_plot(reports[-1], plot, title)
        except PlotUnavailable as e:
            raise CliError(f"--plot: {e}") from None
        except OSError as e:
            raise CliError(f"--plot: cannot write '{plot}': {e.strerror or e}") from None


def check_picture_paths(trace: str | None, plot: str | None) -> None:
    """Fail now, before a long run, if the folder of a --trace or --plot file does not exist
    (or --plot could not be drawn)."""
    for flag, path in (("--trace", trace), ("--plot", plot)):
        if path and not Path(path).resolve().parent.is_dir():
            raise CliError(f"{flag}: cannot write '{path}': No such file or directory")
    if plot:
        try:
            require_matplotlib()
        except PlotUnavailable as e:
            raise CliError(f"--plot: {e}") from None
