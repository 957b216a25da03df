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
