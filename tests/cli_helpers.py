"""Helpers the command-line tests share (imported by name, like ``shared_runs``): a tool's
``main`` run in-process with its output captured, and the one-line error every tool prints
for bad input (the developers' guide: one line naming the problem, no traceback)."""

import re
from pathlib import Path

import numpy as np

from ascend_xdsl.tools import conv, run


def ascend_run(capsys, *argv) -> tuple[int, str, str]:
    """``ascend-run ARGV`` in-process: its exit code, standard output and error (what was
    printed before it is dropped)."""
    capsys.readouterr()
    code = run.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def ascend_conv(capsys, *argv) -> tuple[int, str, str]:
    """``ascend-conv ARGV`` in-process: its exit code, standard output and error."""
    code = conv.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *fragments: str) -> None:
    """``err`` is one ``ascend-conv: error:`` line, without a traceback, holding each of
    ``fragments``."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascend-conv: error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], err


# A grouped bf16 layer with every spatial argument uneven: what the forward and bp-input CLI
# tests both run, after the subcommand.
GROUPED_BF16 = [
    "--input", "2,8,5,6,7",
    "--weight", "12,4,2,3,3",
    "--stride", "2,1,1",
    "--padding", "0,1,1,0,2,1",
    "--dilation", "1,2,1",
    "--groups", "2",
    "--dtype", "bf16",
    "--cores", "3",
]  # fmt: skip


def reported_cycles(out: str) -> int:
    """The modelled cycles of a text report's first ``cycles:`` line (fails if there is none)."""
    cycles = [line for line in out.splitlines() if line.startswith("cycles: ")]
    assert cycles, out
    return int(cycles[0].split()[1].replace(",", ""))


CHECK_OK = r"check: max abs error .* of its tolerance\): OK"
"""The first line of a passing ``ascend-run --check``."""


def checked_run(capsys, program, folder: Path, inputs: dict[str, np.ndarray], written: str):
    """``ascend-run PROGRAM --input NAME=FILE... --check --output-dir FOLDER`` on ``inputs``
    saved as .npy files in ``folder``: asserts it exits 0 and its first line says the check
    passed; gives its output lines and the one result file matching ``written`` (a glob),
    loaded as float64."""
    argv: list[object] = [program]
    for name, array in inputs.items():
        np.save(folder / f"{name}.npy", array)
        argv += ["--input", f"{name}={folder / f'{name}.npy'}"]
    code, out, err = ascend_run(capsys, *argv, "--check", "--output-dir", folder)
    assert code == 0, err
    lines = out.splitlines()
    assert re.fullmatch(CHECK_OK, lines[0]), out
    (path,) = folder.glob(written)
    return lines, np.load(path).astype(np.float64)


COST_LINES = (
    "modelled on ",
    "pipes busy on the slowest core: ",
    "critical path: ",
    "cores: ",
    "end to end: ",
)
"""The beginnings of the cost model's summary lines, in order, which every op's summary prints
(``CostReport.summary_lines``; bp-filter indents them)."""


def cost_lines(out: str) -> list[str]:
    """The lines of a summary that start (after any indent) with one of :data:`COST_LINES`."""
    return [line.strip() for line in out.splitlines() if line.strip().startswith(COST_LINES)]


def assert_cost_lines(out: str) -> None:
    """``out`` has each cost line once, in order."""
    lines = cost_lines(out)
    assert [next(p for p in COST_LINES if line.startswith(p)) for line in lines] == list(
        COST_LINES
    ), out
