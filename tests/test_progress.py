"""The progress line of long simulations: shown on a terminal after a delay, silent otherwise."""

import io

from ascend_xdsl.runtime.reports.progress import CoreProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_terminal_shows_progress_and_clears_it():
    stream = Terminal()
    progress = CoreProgress(24, stream=stream, after=0.0)
    progress.update(7)
    progress.close()
    text = stream.getvalue()
    assert "\rsimulating: core 7/24," in text
    assert text.endswith("\r\x1b[K")


def test_short_runs_print_nothing():
    stream = Terminal()
    progress = CoreProgress(24, stream=stream, after=3600.0)
    progress.update(24)
    progress.close()
    assert stream.getvalue() == ""


def test_pipes_and_files_stay_quiet():
    stream = io.StringIO()  # not a terminal
    progress = CoreProgress(24, stream=stream, after=0.0)
    progress.update(1)
    progress.close()
    assert stream.getvalue() == ""


def test_a_long_check_shows_its_taps(monkeypatch):
    """The reference check (runtime/reports/check.py) moves a progress line over the taps of
    both reference sums (the exact values, then the magnitudes for the tolerance)."""
    import numpy as np

    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.runtime.reports import check as check_module
    from ascend_xdsl.runtime.reports.progress import CheckProgress
    from ascend_xdsl.runtime.runner import random_inputs

    stream = Terminal()

    class Immediate(CheckProgress):
        def __init__(self, total: int):
            super().__init__(total, stream=stream, after=0.0)

    monkeypatch.setattr(check_module, "CheckProgress", Immediate)
    problem = shape_from_torch_args((1, 16, 2, 4, 4), (16, 16, 1, 2, 3), padding=0)
    x, dy = random_inputs(problem)
    exact = check_module.reference_exact(problem, x, dy).astype(np.float32)
    result = check_module.check(problem, x, dy, exact, progress=True)
    assert result.ok and result.seconds > 0
    text = stream.getvalue()
    assert "\rchecking against the reference: tap 1/12," in text
    assert "tap 12/12," in text and text.endswith("\r\x1b[K")
    stream.truncate(0)
    check_module.check(problem, x, dy, exact)  # no progress unless asked
    assert stream.getvalue() == ""
