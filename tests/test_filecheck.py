"""Runs every FileCheck test (tests/filecheck/**/*.mlir) with lit, one pytest item per file.

This is what makes the one test command (`pytest`) run the unit tests and the IR tests together.
lit runs in this process and runs the tools of the RUN lines in it too (tests/lit_inprocess.py):
a new Python per command would cost most of the suite's time. A failure shows lit's report, the
one `lit -v FILE` prints. `lit tests/filecheck` runs the same tests as real processes, and the
last test here checks that it still does.
"""

import subprocess
import sys
from pathlib import Path

import lit.Test
import pytest
from lit_inprocess import run_test

SUITE = Path(__file__).parent / "filecheck"
TESTS = sorted(
    p for p in SUITE.rglob("*.mlir") if not {"Output", "Inputs"} & set(p.relative_to(SUITE).parts)
)
LIT = [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())"]


def test_suite_is_not_empty():
    assert TESTS, f"no FileCheck tests found under {SUITE}"


@pytest.mark.parametrize("path", TESTS, ids=[str(p.relative_to(SUITE)) for p in TESTS])
def test_filecheck(path: Path):
    outcome = run_test(path)
    # Only a pass: lit counts an expected failure as a success too.
    assert outcome.passed, outcome.report()


def test_a_failing_check_fails_with_lit_report(tmp_path: Path):
    """A RUN line whose output misses a CHECK fails the item, with the command and
    filecheck's complaint in the report."""
    (tmp_path / "lit.cfg").write_text((SUITE / "lit.cfg").read_text())
    test = tmp_path / "fails.mlir"
    test.write_text(
        "// RUN: ascend-opt %s | filecheck %s\n"
        '"test.op"() : () -> ()\n'
        "// CHECK: ascend.no_such_op\n"
    )
    outcome = run_test(test)
    assert outcome.code == lit.Test.FAIL, outcome.report()
    report = outcome.report()
    assert "# executed command: ascend-opt" in report, report
    assert 'error: Couldn\'t match "ascend.no_such_op"' in report, report
    assert "# error: command failed with exit status: 1" in report, report


def test_lit_runs_a_file_standalone():
    """`lit tests/filecheck` is what a developer runs: the same file (``not``, ``2>&1``, pipes)
    passes with every command a real process."""
    path = SUITE / "passes" / "plan_buffers_invalid.mlir"
    result = subprocess.run([*LIT, "-v", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    # lit exits 0 when it discovered nothing: make sure this file really ran.
    assert "Passed: 1" in result.stdout, result.stdout + result.stderr
