"""``--trace FILE.json`` and ``--plot FILE.png`` of ``ascend-conv`` and ``ascend-run``: the cost
reports drawn as a Chrome trace (``runtime/reports/trace.py``) and a PNG
(``runtime/reports/plot.py``), each file written atomically, each failure one line."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.reports.output import is_special, write_error
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
            raise CliError(f"--trace: {write_error(trace, e)}") from None
    if plot:
        try:
            write_plot(reports[-1], plot, title)
        except PlotUnavailable as e:
            raise CliError(f"--plot: {e}") from None
        except OSError as e:
            raise CliError(f"--plot: {write_error(plot, e)}") from None


def same_file(a: str, b: str) -> bool:
    """Whether two output paths name one file (after symlinks, or the same existing inode)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_distinct_outputs(outputs: dict[str, str | None]) -> None:
    """Refuse (exit 2) two output flags that name the same file: the second write would
    replace the first."""
    given = [(flag, path) for flag, path in outputs.items() if path]
    for i, (flag, path) in enumerate(given):
        for other, other_path in given[i + 1 :]:
            if same_file(path, other_path):
                raise CliError(
                    f"{flag} and {other} both name '{path}': give each output its own file",
                    exit_code=2,
                )


def check_picture_paths(trace: str | None, plot: str | None, output: str | None = None) -> None:
    """Fail now, before a long run, if the folder of a --trace or --plot file does not exist,
    two outputs name the same file, the plot's name does not end in .png (it is only ever a
    PNG), or --plot could not be drawn."""
    check_distinct_outputs({"--trace": trace, "--plot": plot, "-o": output})
    for flag, path in (("--trace", trace), ("--plot", plot)):
        if path and not Path(path).resolve().parent.is_dir():
            raise CliError(f"{flag}: cannot write '{path}': No such file or directory")
        if path and os.path.isdir(path):
            raise CliError(f"{flag}: cannot write '{path}': it is a folder")
    if plot and Path(plot).suffix.lower() != ".png" and not is_special(plot):
        raise CliError(
            f"--plot {plot}: the plot is written as PNG only: give a file name ending in .png",
            exit_code=2,
        )
    if plot:
        try:
            require_matplotlib()
        except PlotUnavailable as e:
            raise CliError(f"--plot: {e}") from None
