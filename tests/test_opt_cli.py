"""ascend-opt: bad input is one line on stderr and exit 1, never a traceback or a partial file."""

import subprocess
import sys
from pathlib import Path

import inprocess
import pytest

ROOT = Path(__file__).parent.parent
OPT = str(Path(sys.executable).parent / "ascend-opt")
EXAMPLE = str(ROOT / "examples" / "op_level.mlir")


def opt(*args: str) -> subprocess.CompletedProcess[str]:
    """What ``ascend-opt ARGS`` exits with and prints, run in this process (tests/inprocess.py)."""
    return inprocess.run([OPT, *args])


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["/no/such/file.mlir"], "cannot read '/no/such/file.mlir': No such file or directory"),
        ([EXAMPLE, "-p", "nosuchpass"], "Unrecognized passes: ['nosuchpass']"),
        ([EXAMPLE, "-o", "/no/such/dir/out.mlir"], "cannot write '/no/such/dir/out.mlir'"),
        (
            [EXAMPLE, "-p", "ascend-legalize-formats,ascend-tile-conv3d-bp-filter{hw=atlas-a9}"],
            "unknown hardware 'atlas-a9'",
        ),
    ],
)
def test_bad_input_is_one_line(args, fragment):
    result = opt(*args)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("ascend-opt: error: ") and fragment in result.stderr


def test_failing_pass_leaves_no_output_file(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    override = 'ascend-pipeline{cores=1 override="base_m=512"}'
    result = opt(EXAMPLE, "-p", override, "-o", str(out))
    assert result.returncode == 1 and "L0A overflow" in result.stderr
    assert out.read_text() == "old\n" and sorted(tmp_path.iterdir()) == [out]
    result = opt(EXAMPLE, "-p", "ascend-legalize-formats", "-o", str(out))
    assert result.returncode == 0 and "ascend.trans_data" in out.read_text()


def test_parse_errors_are_one_line_with_their_location(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  ascend.bogus\n}\n")
    result = opt(str(bad))
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert (
        result.stderr == f"ascend-opt: error: {bad}:3:1: Operation ascend.bogus is not registered\n"
    )
    bad.write_text('"test.op"() : () -> !ascend.local_tensor<GM, 16xf16>\n')
    result = opt(str(bad))
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"ascend-opt: error: {bad}: local_tensor cannot be in GM")
