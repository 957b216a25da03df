"""runtime/machine/budget.py: programs that would never end stop with one line naming their loop, in
both executors and the cost-only mode, through ascend-run, ascend-conv and the Python API; the
launch verifier bounds ``blocks`` by the runtime's ``uint32`` blockDim."""

from pathlib import Path

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.runtime.api import conv3d_weight, random_inputs
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.machine.budget import DEFAULT_MAX_ITERATIONS, Budget, BudgetExceeded
from ascend_xdsl.tools import conv, run

GM = "!ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>"


def _program(kernel_body: str, blocks: int = 1) -> str:
    return f"""func.func @k(%x: {GM}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
{kernel_body}
  func.return
}}
func.func @host(%x: memref<2x16x1x4x4xf16>) {{
  %x5 = ascend.trans_data %x : memref<2x16x1x4x4xf16> -> {GM}
  ascend.launch @k blocks {blocks} (%x5) : {GM}
  func.return
}}
"""


HUGE_FOR = """  %big = arith.constant 1099511627776 : index
  scf.for %i = %c0 to %big step %c1 {
    %a = arith.addi %i, %c1 : index
  }"""

NESTED_FOR = """  %big = arith.constant 1099511627776 : index
  %c4 = arith.constant 4 : index
  scf.for %j = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %big step %c1 {
      %a = arith.addi %i, %j : index
    }
  }"""

ENDLESS_WHILE = """  scf.while () : () -> () {
    scf.condition(%true)
  } do {
    scf.yield
  }"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prog.mlir"
    path.write_text(text)
    return path


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("executor", EXECUTORS)
@pytest.mark.parametrize(
    ("body", "line"), [(HUGE_FOR, "prog.mlir:6:3"), (NESTED_FOR, "prog.mlir:8:5")]
)
def test_a_loop_beyond_the_budget_fails_at_once_naming_the_loop(
    tmp_path, capsys, executor, body, line
):
    path = _write(tmp_path, _program(body))
    argv = [str(path), "--random-inputs", "--executor", executor, "--output-dir", str(tmp_path)]
    assert run.main(argv) == 1
    message = _one_line(capsys.readouterr().err)
    assert f"scf.for at {path.parent}/{line}" in message, message
    assert "1,099,511,627,776 iterations" in message and "--max-iterations" in message
    assert not list(tmp_path.glob("*.npy"))


@pytest.mark.parametrize("mode", [["--executor", "compiled"], ["--executor", "interp"]])
def test_an_endless_while_stops_when_the_budget_is_spent(tmp_path, capsys, mode):
    path = _write(tmp_path, _program(ENDLESS_WHILE))
    argv = [str(path), "--random-inputs", "--max-iterations", "1000", *mode]
    assert run.main([*argv, "--output-dir", str(tmp_path)]) == 1
    message = _one_line(capsys.readouterr().err)
    assert "scf.while at" in message and "prog.mlir:5:3" in message
    assert "still looping when the run's budget of 1,000 loop iterations is spent" in message


def test_the_cost_only_mode_has_the_budget_too(tmp_path, capsys):
    for body in (HUGE_FOR, NESTED_FOR):
        path = _write(tmp_path, _program(body))
        assert run.main([str(path), "--cost-only"]) == 1
        message = _one_line(capsys.readouterr().err)
        assert "scf.for at" in message and "beyond the run's budget" in message


def test_a_launch_of_a_billion_blocks_is_stopped_by_the_budget(tmp_path, capsys):
    path = _write(tmp_path, _program("", blocks=10**9))
    for extra in ([], ["--cost-only"]):
        argv = [str(path), *extra] if extra else [str(path), "--random-inputs"]
        assert run.main([*argv, "--output-dir", str(tmp_path)]) == 1
        message = _one_line(capsys.readouterr().err)
        assert "ascend.launch at" in message and "1,000,000,000 blocks" in message


def test_the_verifier_bounds_blocks_by_the_uint32_block_dim(tmp_path, capsys):
    path = _write(tmp_path, _program("", blocks=2**32))
    assert run.main([str(path), "--random-inputs"]) == 1
    message = _one_line(capsys.readouterr().err)
    assert "verification failed" in message and "uint32 blockDim" in message
    # the largest legal value passes the verifier
    from ascend_xdsl.ir.locations import parse_file
    from ascend_xdsl.lowering.pipeline import make_context

    module = parse_file(make_context(), _program("", blocks=2**32 - 1), "p.mlir")
    module.verify()
    module = parse_file(make_context(), _program("", blocks=2**32), "p.mlir")
    with pytest.raises(VerifyException):
        module.verify()


def test_the_budget_option_is_checked(capsys):
    for value in ("0", "-3", "", "x"):
        assert run.main(["f.mlir", f"--max-iterations={value}"]) == 2
        assert "--max-iterations: expected a positive integer" in _one_line(capsys.readouterr().err)
    with pytest.raises(ValueError, match="positive"):
        Budget(0)
    with pytest.raises(TypeError, match="integer"):
        Budget(1.5)  # type: ignore[arg-type]
    assert Budget(np.int64(5)).limit == 5
    assert Budget().limit == DEFAULT_MAX_ITERATIONS


SMALL = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=1)


@pytest.mark.parametrize("executor", EXECUTORS)
def test_a_real_kernel_runs_within_its_budget_and_not_beyond(executor):
    x, dy = random_inputs(SMALL)
    dw = conv3d_weight(x, (16, 16, 1, 3, 3), dy, padding=1, executor=executor)
    again = conv3d_weight(
        x, (16, 16, 1, 3, 3), dy, padding=1, executor=executor, max_iterations=10_000
    )
    assert np.array_equal(dw, again)
    with pytest.raises(BudgetExceeded, match="beyond the run's budget of 3 loop iterations"):
        conv3d_weight(x, (16, 16, 1, 3, 3), dy, padding=1, executor=executor, max_iterations=3)


def test_ascend_conv_takes_the_budget_option(capsys):
    argv = ["bp-filter", "--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1"]
    assert conv.main([*argv, "--cores", "1", "--max-iterations", "2"]) == 1
    message = _one_line(capsys.readouterr().err)
    assert message.startswith("ascend-conv: error: simulation failed: ")
    assert "beyond the run's budget of 2 loop iterations" in message
    assert conv.main([*argv, "--cores", "1", "--cost-only", "--max-iterations", "2"]) == 1
    assert "budget of 2 loop iterations" in _one_line(capsys.readouterr().err)


def test_a_snapshot_gives_back_what_was_drawn_since() -> None:
    """What a replayed launch gives back when a core it noted runs again (replay.py): the
    iterations, the next look at the clock and the loop drawn on, all three."""
    budget = Budget(limit=20_000)
    loop, other = object(), object()
    budget.take(5, loop)  # type: ignore[arg-type]
    state = budget.snapshot()
    budget.take(19_000, other)  # type: ignore[arg-type]  # past the next look at the clock
    assert (budget.left, budget.loop) == (20_000 - 19_005, other)
    budget.restore(state)
    assert budget.snapshot() == state
    assert (budget.left, budget.loop) == (20_000 - 5, loop)
    budget.take(19_995, loop)  # type: ignore[arg-type]  # all that is left, again
    assert budget.left == 0
