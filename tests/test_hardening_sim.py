"""Issue 20, items 5, 6 and 12: the simulator on hand-edited programs.

* item 5: a program the data run refuses at an instruction (an offset past its slot or GM
  tensor, a feature map or window larger than its buffer, ``mmad`` with m = 17) is refused by
  the cost-only mode too, with the same message: both machines run the instruction spec's one
  bounds check (``DataInstruction.windows`` / ``check``, ``MachineBase.bounds``);
* item 6: the sanitizer names a GM race between blocks, a launch overwriting an earlier one's
  result and an accumulation onto stale L0C, with the op's location; the loop rules of
  ``ir/loops.py`` (the ``ascend.conv`` rules of the launch verifier are FileCheck tests,
  ``tests/filecheck/dialect/launch_invalid.mlir``);
* item 12: an endless ``scf.while`` stops at ``--max-seconds``, shows the loop it is in on a
  terminal, and Ctrl-C names it.

Every program is a mutation of two kernels the pipeline compiles for a small layer (on 2 cores
and on 1), made once for the module.
"""

from __future__ import annotations

import _thread
import contextlib
import io
import re
import threading
import time
from pathlib import Path

import pytest
from xdsl.dialects import scf

from ascend_xdsl.ir.locations import parse_file
from ascend_xdsl.lowering.pipeline import make_context
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.machine.budget import Budget, TimeLimitExceeded
from ascend_xdsl.runtime.reports.progress import LoopProgress
from ascend_xdsl.tools import conv, run

SMALL = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1"]


def _call(main, argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


@pytest.fixture(scope="module")
def kernels(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("kernels")
    texts = {}
    for cores in ("2", "1"):
        path = folder / f"small{cores}.mlir"
        assert (
            _call(
                conv.main, ["bp-filter", *SMALL, "--cores", cores, "--emit", "hw", "-o", str(path)]
            )[0]
            == 0
        )
        texts[cores] = path.read_text()
    return texts


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    return path


def _error(output: str) -> str:
    lines = [line for line in output.splitlines() if ": error: " in line]
    assert len(lines) == 1, output
    return lines[0].split(": error: ", 1)[1]


# -- item 5: cost-only refuses what the data run refuses ---------------------------------------

LOAD3D_A = "ascend.load3d %6[%11, %11]"
MMAD_M = "m %37 n %64 k %34 init"
ILLEGAL = {
    # data_copy into A1 at element 576 of a 768-element slot: 576 more run past it
    "data_copy_destination_offset": [
        ("ascend.data_copy %1[%28] -> %6[%11, %11]", "ascend.data_copy %1[%28] -> %6[%11, %26]")
    ],
    # data_copy from dy at its end (element 2304 of 2304)
    "data_copy_gm_offset": [
        ("ascend.data_copy %1[%28] -> %6[%11, %11]", "ascend.data_copy %1[%24] -> %6[%11, %11]")
    ],
    "load3d_source_offset": [(LOAD3D_A, "ascend.load3d %6[%11, %42]")],
    # a 2048x2048 feature map of 16 channels: 128 MiB, far beyond L1 (and its slot)
    "load3d_feature_map_beyond_l1": [("fmap %12, %34, %37 window", "fmap %42, %42, %37 window")],
    # a window of 2048 rows of 16 into a 768-element L0A slot
    "load3d_huge_window": [
        ("window %11, %37, %11, %39 pad %11", "window %11, %37, %11, %42 pad %11")
    ],
    # m = 17 takes two fractal rows of A: 1536 elements of a 768-element slot
    "mmad_m_17": [
        (
            "%43 = arith.constant 32 : index",
            "%43 = arith.constant 32 : index\n%m17 = arith.constant 17 : index",
        ),
        (MMAD_M, "m %m17 n %64 k %34 init"),
    ],
    "fixpipe_gm_offset": [("-> %2[%66]", "-> %2[%42]")],
}
MESSAGES = {  # the range each one reaches, and the size of its slot or tensor
    "data_copy_destination_offset": ("data_copy destination elements [576, 1152)", 768),
    "data_copy_gm_offset": ("data_copy GM source elements [2304, 2880)", 2304),
    "load3d_source_offset": ("load3d source elements [2048, 2624)", 768),
    "load3d_feature_map_beyond_l1": ("load3d source elements [0, 67108864)", 768),
    "load3d_huge_window": ("load3d destination elements [0, 32768)", 768),
    "mmad_m_17": ("mmad A elements [0, 1536)", 768),
    "fixpipe_gm_offset": ("fixpipe GM destination elements [2048, 4096)", 2304),
}


@pytest.mark.parametrize("case", sorted(ILLEGAL))
def test_cost_only_refuses_what_the_data_run_refuses_with_the_same_message(tmp_path, kernels, case):
    text = kernels["2"]
    for old, new in ILLEGAL[case]:
        text = _edit(text, old, new)
    path = _write(tmp_path, case, text)
    code, data = _call(run.main, [str(path), "--random-inputs", "--output-dir", str(tmp_path)])
    assert code == 1
    cost_code, cost = _call(run.main, [str(path), "--cost-only"])
    assert cost_code == 1
    message = _error(data)
    assert _error(cost) == f"cost-only: {message}"
    where, size = MESSAGES[case]
    assert message.endswith(f"{where} out of bounds ({size} elements)"), message
    assert re.match(r"ascend\.(data_copy|load3d|mmad|fixpipe) at .*:\d+:\d+: ", message)
    assert not list(tmp_path.glob("*.npy"))


def test_a_buffer_beyond_its_memory_is_refused_by_both_machines(tmp_path, kernels):
    # The verifier leaves the offset to the planner; both machines reserve it in the memory.
    text = _edit(kernels["2"], "slots 2 offset 3072 :", "slots 2 offset 524288 :")
    path = _write(tmp_path, "beyond", text)
    code, data = _call(run.main, [str(path), "--random-inputs", "--output-dir", str(tmp_path)])
    if code == 0:
        pytest.skip("the verifier accepts no such offset")  # pragma: no cover
    cost_code, cost = _call(run.main, [str(path), "--cost-only"])
    assert cost_code == 1
    assert _error(cost).removeprefix("cost-only: ") == _error(data)


# -- item 6: sanitizer findings ----------------------------------------------------------------


def _sanitize(tmp_path: Path, name: str, text: str) -> list[str]:
    path = _write(tmp_path, name, text)
    code, output = _call(
        run.main, [str(path), "--random-inputs", "--sanitize", "--output-dir", str(tmp_path)]
    )
    findings = [line for line in output.splitlines() if line.startswith("hazard: ")]
    assert code == (1 if findings else 0), output
    return findings


def _no_atomic(text: str) -> str:
    return _edit(text, " atomic :", " :")


def test_the_compiled_kernels_have_no_finding(tmp_path, kernels):
    assert _sanitize(tmp_path, "two", kernels["2"]) == []
    assert _sanitize(tmp_path, "one", kernels["1"]) == []


def test_a_fixpipe_without_atomic_add_where_two_cores_write_is_a_gm_race(tmp_path, kernels):
    (finding,) = _sanitize(tmp_path, "race", _no_atomic(kernels["2"]))
    assert "GM race on bytes [0, 1024) in launch 1" in finding
    assert re.search(r"ascend\.fixpipe at .*race\.mlir:\d+:\d+ in block 1", finding)
    assert "in block 0 both write them, not both with atomic add" in finding


def test_an_unsplit_kernel_launched_on_two_blocks_without_atomic_add_races(tmp_path, kernels):
    text = _no_atomic(_edit(kernels["1"], "blocks 1 (", "blocks 2 ("))
    (finding,) = _sanitize(tmp_path, "unsplit", text)
    assert "GM race" in finding and "in block 1 and" in finding


def test_a_kernel_launched_twice_into_the_same_dw_without_atomic_add(tmp_path, kernels):
    text = _no_atomic(kernels["1"])
    launch = next(line for line in text.splitlines() if "ascend.launch" in line)
    (finding,) = _sanitize(tmp_path, "twice", _edit(text, launch, f"{launch}\n{launch}"))
    assert "GM overwrite of bytes [0, 1024)" in finding
    assert "in launch 2 writes them without atomic add over what" in finding
    assert "wrote in launch 1, whose result is lost" in finding


def test_the_same_kernel_launched_twice_with_atomic_add_is_no_race(tmp_path, kernels):
    launch = next(line for line in kernels["1"].splitlines() if "ascend.launch" in line)
    assert _sanitize(tmp_path, "atomic", _edit(kernels["1"], launch, f"{launch}\n{launch}")) == []


def test_an_mmad_with_init_false_on_a_fresh_l0c_is_a_stale_accumulation(tmp_path, kernels):
    text = _edit(kernels["2"], "%41 = arith.constant true", "%41 = arith.constant false")
    findings = _sanitize(tmp_path, "stale", text)
    assert findings, "no finding"
    assert re.search(
        r"stale accumulation on L0C bytes \[0, \d+\) in block 0: ascend\.mmad at "
        r".*stale\.mlir:\d+:\d+ accumulates onto bytes no instruction wrote since the kernel "
        r"started",
        findings[0],
    )


def test_an_mmad_with_init_false_after_a_fixpipe_drained_l0c(tmp_path, kernels):
    # Every tile in L0C slot 0, every mmad accumulating: the second tile's mmad adds to the
    # first tile's result, which the fixpipe has already moved out.
    text = _edit(kernels["1"], "%37 = arith.constant true", "%37 = arith.constant false")
    text = _edit(text, "-> %7[%57]", "-> %7[%8]")
    text = _edit(text, "ascend.fixpipe %7[%57]", "ascend.fixpipe %7[%8]")
    findings = _sanitize(tmp_path, "drained", text)
    pattern = r"ascend\.mmad at .*accumulates onto bytes no instruction wrote since "
    pattern += r"ascend\.fixpipe at .*drained\.mlir:\d+:\d+ drained them"
    assert any(re.search(pattern, f) for f in findings), findings


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        ("%11 to %4 step %11", "scf.for step must be positive, got 0"),
        ("%4 to %11 step %12", "scf.for from 2 to 0 never runs"),
    ],
)
def test_ascend_run_refuses_a_loop_that_cannot_mean_what_it_says(
    tmp_path, kernels, bounds, message
):
    path = _write(tmp_path, "loop", _edit(kernels["2"], "%11 to %4 step %12", bounds))
    for extra in (["--random-inputs"], ["--cost-only"]):
        code, output = _call(run.main, [str(path), *extra, "--output-dir", str(tmp_path)])
        assert code == 1
        error = _error(output)
        assert error.startswith("verification failed: scf.for at ") and message in error


# -- item 12: the wall-clock limit, the loop's progress line, Ctrl-C ---------------------------

ENDLESS = """func.func @k(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>) {
  %true = arith.constant true
  scf.while () : () -> () {
    scf.condition(%true)
  } do {
    scf.yield
  }
  func.return
}
func.func @host(%x: memref<2x16x1x4x4xf16>) {
  %x5 = ascend.trans_data %x : memref<2x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>
  ascend.launch @k blocks 1 (%x5) : !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>
  func.return
}
"""


@pytest.mark.parametrize("mode", [*(["--executor", e] for e in EXECUTORS), ["--cost-only"]])
def test_an_endless_while_stops_at_max_seconds_naming_the_loop(tmp_path, mode):
    path = _write(tmp_path, "endless", ENDLESS)
    inputs = [] if mode == ["--cost-only"] else ["--random-inputs"]
    start = time.monotonic()
    code, output = _call(
        run.main, [str(path), *inputs, *mode, "--max-seconds", "0.3", "--output-dir", str(tmp_path)]
    )
    assert time.monotonic() - start < 30  # the budget alone would take minutes
    assert code == 1
    error = _error(output).removeprefix("cost-only: ")
    assert error.startswith(f"scf.while at {path}:3:3: scf.while is still running "), error
    assert "when the run's time limit of 0.3 s is spent" in error
    assert "--max-seconds" in error


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_loop_shows_which_loop_it_is_in_on_a_terminal():
    module = parse_file(make_context(), ENDLESS, "endless.mlir")
    loop = next(op for op in module.walk() if isinstance(op, scf.WhileOp))
    terminal = _Terminal()
    progress = LoopProgress(stream=terminal, after=0.0)
    budget = Budget(10**6, progress=progress)
    for _ in range(5000):
        budget.take(1, loop)
    assert "running: scf.while at endless.mlir:3:3, 1,0" in terminal.getvalue()
    progress.close()
    assert terminal.getvalue().endswith("\r\x1b[K")
    quiet = io.StringIO()  # not a terminal: nothing
    budget = Budget(10**6, progress=LoopProgress(stream=quiet, after=0.0))
    for _ in range(5000):
        budget.take(1, loop)
    assert quiet.getvalue() == ""


def test_the_time_limit_is_checked_by_the_budget():
    module = parse_file(make_context(), ENDLESS, "endless.mlir")
    loop = next(op for op in module.walk() if isinstance(op, scf.WhileOp))
    budget = Budget(10**9, max_seconds=0.05)
    with pytest.raises(TimeLimitExceeded) as info:
        while True:
            budget.take(1, loop)
    assert info.value.ascend_op is loop
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="max_seconds"):
            Budget(max_seconds=bad)


def test_ctrl_c_names_the_loop_the_run_was_in(tmp_path, python_sigint):
    path = _write(tmp_path, "endless", ENDLESS)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        code, output = _call(
            run.main, [str(path), "--random-inputs", "--output-dir", str(tmp_path)]
        )
    finally:
        timer.cancel()
    assert code == 130
    assert f"ascend-run: interrupted in scf.while at {path}:3:3" in output


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "x", ""])
def test_the_max_seconds_flag_is_checked(value):
    for main, argv in ((run.main, ["f.mlir"]), (conv.main, ["bp-filter"])):
        code, output = _call(main, [*argv, f"--max-seconds={value}"])
        assert code == 2
        assert "--max-seconds" in output


def test_ascend_conv_takes_max_seconds():
    code, output = _call(
        conv.main, ["bp-filter", *SMALL, "--cores", "1", "--cost-only", "--max-seconds", "600"]
    )
    assert code == 0, output
