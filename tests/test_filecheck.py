"""Runs every FileCheck test (tests/filecheck/**/*.mlir) through lit, one pytest item per file.

This is what makes the one test command (`pytest`) run the unit tests and the IR tests together.
"""

import subprocess
import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).parent / "filecheck"
TESTS = sorted(
    p for p in SUITE.rglob("*.mlir") if not {"Output", "Inputs"} & set(p.relative_to(SUITE).parts)
)
LIT = [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())"]


def test_suite_is_not_empty():
    assert TESTS, f"no FileCheck tests found under {SUITE}"


@pytest.mark.parametrize("path", TESTS, ids=[str(p.relative_to(SUITE)) for p in TESTS])
def test_filecheck(path: Path):
    result = subprocess.run([*LIT, "-v", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    # lit exits 0 when it discovered nothing: make sure this file really ran.
    assert "Passed: 1" in result.stdout, result.stdout + result.stderr
