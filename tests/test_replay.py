"""Replayed cores (``runtime/executors/replay.py``) give the bits of the per-instruction run.

Each layer runs its data run (``interpret``, the compiled executor) twice on the same inputs:
as it is, where the launch's later cores replay a recorded core's numpy steps, and with the
replay switched off, every core executing its instructions one by one; dW must be the same
bit for bit, in float16 and bfloat16, and cores must actually have been replayed. The forward
conv and dX (``run_conv3d``, ``run_conv3d_input``: load2d's into L0B, fills of padding, L0C
tiles of Ho·Wo positions off the 16 grid) are compared the same way, and the forward with a
bias (its load_bias's and bias-init mmads are recorded steps). A sanitised or timed run
must not replay (the sanitizer and the timeline see every instruction)."""

from __future__ import annotations

import collections
import gc
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import instructions, load
from ascend_xdsl.lowering.build import FUNC_NAME, shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, interpret, random_inputs
from ascend_xdsl.runtime.executors import replay
from ascend_xdsl.runtime.forward import run_conv3d
from ascend_xdsl.runtime.input_grad import run_conv3d_input
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.core import Core
from ascend_xdsl.runtime.machine.machine import BufferSpec
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.machine.values import GmTensor
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, run

HW = "atlas-a2-910b2"

# name: (x, weight, stride, padding, dilation, groups)
LAYERS = {
    "slowfast-lateral": ((1, 8, 32, 56, 56), (16, 8, 5, 1, 1), (8, 1, 1), (2, 0, 0), 1, 1),
    "x3d-dw": ((1, 48, 8, 14, 14), (48, 1, 3, 3, 3), 1, 1, 1, 48),
    "grouped": ((1, 32, 4, 8, 8), (32, 8, 3, 3, 3), 1, 1, 1, 4),
    "strided-dilated": ((2, 16, 6, 12, 12), (32, 16, 3, 3, 3), (1, 2, 2), (1, 2, 1), (1, 2, 1), 1),
    "one-channel": ((1, 1, 16, 16, 16), (32, 1, 3, 3, 3), 1, 1, 1, 1),
    "default-small": ((2, 64, 4, 14, 14), (64, 64, 3, 3, 3), 1, 1, 1, 1),
}


# name: (x, weight, stride, padding, dilation, groups) of the forward and dX runs: Ho·Wo
# positions off the 16 grid, padding depths (fills), stride and dilation (dX fills its dilated
# dy), groups with a channel tail, and a layer whose cores replay stacked by default.
OP_LAYERS = {
    "default-small": LAYERS["default-small"],
    "strided-dilated": LAYERS["strided-dilated"],
    "grouped": LAYERS["grouped"],
    "wide": ((1, 64, 4, 20, 20), (256, 64, 3, 3, 3), 1, 1, 1, 1),
}
OPS = ("forward", "forward-bias", "bp-input")


def _op(op: str, name: str, dtype: str, seed: int) -> np.ndarray:
    """The forward conv's y (``forward-bias``: with a bias, drawn after x and w) or dX of
    ``OP_LAYERS[name]`` on seeded inputs (compiled, untimed: the replay's runs)."""
    x_shape, w_shape, *args = OP_LAYERS[name]
    problem = shape_from_torch_args(x_shape, w_shape, *args, dtype)
    rng = np.random.default_rng(seed)
    t = np.float16 if dtype == "f16" else ml_dtypes.bfloat16
    w = rng.standard_normal(w_shape).astype(t)
    if op.startswith("forward"):
        x = rng.standard_normal(x_shape).astype(t)
        b = rng.standard_normal(w_shape[0]).astype(t) if op == "forward-bias" else None
        return np.asarray(run_conv3d(x, w, b, *args, cost=False).output)
    dy = rng.standard_normal(problem.grad_output_shape).astype(t)
    return np.asarray(run_conv3d_input(x_shape, w, dy, *args, cost=False).output)


def _count_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The cores replayed, alone or stacked, from now on (``[alone + stacked, stacked]``)."""
    count = [0, 0]
    original, stacked = replay.replay, replay.replay_stacked

    def counted(*args: Any) -> None:
        count[0] += 1
        original(*args)

    def counted_stacked(record: Any, program: Any, offsets: list[list[int]], arena: Any) -> None:
        count[0] += len(offsets)
        count[1] += len(offsets)
        stacked(record, program, offsets, arena)

    monkeypatch.setattr(replay, "replay", counted)
    monkeypatch.setattr(replay, "replay_stacked", counted_stacked)
    return count


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("name", LAYERS)
def test_replay_gives_the_per_instruction_bits(
    name: str, dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = shape_from_torch_args(*LAYERS[name], dtype)
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 1)
    count = _count_replays(monkeypatch)
    replayed = interpret(module, HW, x, dy)
    assert count[0] > 0, "no core was replayed"
    with monkeypatch.context() as m:
        m.setattr(replay, "replaying", lambda *args: False)
        count[0] = 0
        per_instruction = interpret(module, HW, x, dy)
        assert count[0] == 0
    assert replayed.dtype == per_instruction.dtype == np.float32
    assert replayed.tobytes() == per_instruction.tobytes()
    # Not trivially equal: the layer computes something.
    assert np.count_nonzero(replayed) > replayed.size // 2


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("name", LAYERS)
def test_stacked_replay_gives_the_per_core_bits(
    name: str, dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every record replayed stacked (``replay_stacked``: no step threshold, chunks of a few
    cores, so that a launch has full chunks and a last partial one) against every core
    replayed alone and against every core run instruction by instruction: the same bits."""
    problem = shape_from_torch_args(*LAYERS[name], dtype)
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 5)
    count = _count_replays(monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(replay, "_MIN_STACKED_STEPS", 0)
        m.setattr(replay, "_STACK_BYTES", 1)
        one_by_one = interpret(module, HW, x, dy)  # chunks of one core
        assert count[1] > 0, "no core was replayed stacked"
    for chunk_bytes in (3 << 20, 1 << 30):
        with monkeypatch.context() as m:
            m.setattr(replay, "_MIN_STACKED_STEPS", 0)
            m.setattr(replay, "_STACK_BYTES", chunk_bytes)
            count[:] = [0, 0]
            stacked = interpret(module, HW, x, dy)
            assert count[1] > 0, "no core was replayed stacked"
            assert stacked.tobytes() == one_by_one.tobytes()
    with monkeypatch.context() as m:
        m.setattr(replay, "STACKING", False)
        count[:] = [0, 0]
        alone = interpret(module, HW, x, dy)
        assert count[0] > 0 and count[1] == 0
    with monkeypatch.context() as m:
        m.setattr(replay, "replaying", lambda *args: False)
        per_instruction = interpret(module, HW, x, dy)
    assert stacked.tobytes() == alone.tobytes() == per_instruction.tobytes()
    assert np.count_nonzero(stacked) > stacked.size // 2


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("name", OP_LAYERS)
@pytest.mark.parametrize("op", OPS)
def test_forward_and_dx_replays_give_the_per_instruction_bits(
    op: str, name: str, dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forward conv's and dX's later cores replay (their load2d's, fills and partial L0C
    tiles are recorded steps), with the bits of every core run instruction by instruction."""
    count = _count_replays(monkeypatch)
    replayed = _op(op, name, dtype, 1)
    assert count[0] > 0, "no core was replayed"
    with monkeypatch.context() as m:
        m.setattr(replay, "replaying", lambda *args: False)
        count[0] = 0
        per_instruction = _op(op, name, dtype, 1)
        assert count[0] == 0
    assert replayed.tobytes() == per_instruction.tobytes()
    # Not trivially equal (dX of a strided layer is zero where no dy position reads x).
    assert np.count_nonzero(replayed) > replayed.size // 4


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("name", OP_LAYERS)
@pytest.mark.parametrize("op", OPS)
def test_forward_and_dx_stacked_replays_give_the_per_core_bits(
    op: str, name: str, dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``test_stacked_replay_gives_the_per_core_bits``, for the forward conv and dX: every
    record stacked in chunks of one core, of a few and of all, every core replayed alone, and
    every core run instruction by instruction give the same bits."""
    count = _count_replays(monkeypatch)
    results = []
    for chunk_bytes in (1, 3 << 20, 1 << 30):
        with monkeypatch.context() as m:
            m.setattr(replay, "_MIN_STACKED_STEPS", 0)
            m.setattr(replay, "_STACK_BYTES", chunk_bytes)
            count[:] = [0, 0]
            results.append(_op(op, name, dtype, 5).tobytes())
            assert count[1] > 0, "no core was replayed stacked"
    with monkeypatch.context() as m:
        m.setattr(replay, "STACKING", False)
        count[:] = [0, 0]
        results.append(_op(op, name, dtype, 5).tobytes())
        assert count[0] > 0 and count[1] == 0
    with monkeypatch.context() as m:
        m.setattr(replay, "replaying", lambda *args: False)
        results.append(_op(op, name, dtype, 5).tobytes())
    assert results == [results[-1]] * len(results)


def test_a_thin_layer_replays_stacked(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the default thresholds, the later cores of x3d-dw-res4 (benchmarks/layers.json,
    some 400 steps a core) replay stacked, with the bits of cores replayed alone."""
    problem = shape_from_torch_args((1, 216, 16, 14, 14), (216, 1, 3, 3, 3), 1, 1, 1, 216, "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    count = _count_replays(monkeypatch)
    stacked = interpret(module, HW, x, dy)
    assert count[1] > 1
    monkeypatch.setattr(replay, "STACKING", False)
    assert interpret(module, HW, x, dy).tobytes() == stacked.tobytes()


def _dry_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Per core run to be recorded from now on: its block and whether its dry run stood (no
    real run after it)."""
    runs: list[tuple[int, bool]] = []
    original = replay.Replayer._record

    def recorded(self: replay.Replayer, core: replay.RecordingCore) -> None:
        dry = self.drying
        original(self, core)
        runs.append((core.block_idx, dry and core.real is None))

    monkeypatch.setattr(replay.Replayer, "_record", recorded)
    return runs


@pytest.mark.parametrize("name", ["one-channel", "x3d-dw", "strided-dilated"])
def test_dry_recorded_cores_give_the_bits_of_real_ones(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cores to be recorded run dry (their books and log, no numpy work) and are replayed
    (stacked: every record is, here); with dry runs off they run for real: the same bits, and
    the same as every core run instruction by instruction."""
    problem = shape_from_torch_args(*LAYERS[name], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 3)
    monkeypatch.setattr(replay, "_MIN_STACKED_STEPS", 0)
    runs = _dry_runs(monkeypatch)
    dry = interpret(module, HW, x, dy)
    assert runs and all(stood for _, stood in runs), runs
    with monkeypatch.context() as m:
        m.setattr(replay, "DRYING", False)
        runs.clear()
        real = interpret(module, HW, x, dy)
        assert runs and not any(stood for _, stood in runs)
    with monkeypatch.context() as m:
        m.setattr(replay, "replaying", lambda *args: False)
        per_instruction = interpret(module, HW, x, dy)
    assert dry.tobytes() == real.tobytes() == per_instruction.tobytes()
    assert np.count_nonzero(dry) > dry.size // 2


def test_a_record_replayed_alone_ends_the_dry_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dry core whose record is not replayed stacked (few steps) is replayed alone, which
    costs what its real run's numpy work does: the launch's later cores to be recorded run
    for real. The bits are the per-instruction run's."""
    problem = shape_from_torch_args(*LAYERS["slowfast-lateral"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 2)
    runs = _dry_runs(monkeypatch)
    dry = interpret(module, HW, x, dy)
    assert len(runs) > 1 and runs[0][1] and not any(stood for _, stood in runs[1:]), runs
    with monkeypatch.context() as m:
        m.setattr(replay, "replaying", lambda *args: False)
        assert dry.tobytes() == interpret(module, HW, x, dy).tobytes()


def test_a_dry_run_that_fails_late_is_run_for_real_and_wrote_no_gm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A dry run that raises after some of its fixpipes (here: made to raise at its second) is
    thrown away and the core runs for real: had the dry fixpipes written GM (their values are
    NaN stand-ins), dW would not be the per-instruction run's."""
    problem = shape_from_torch_args(*LAYERS["one-channel"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 4)
    with monkeypatch.context() as m:
        m.setattr(replay, "replaying", lambda *args: False)
        per_instruction = interpret(module, HW, x, dy)
    fixpipe = Core.fixpipe
    calls = [0]

    def failing(self: Core, *operands: Any) -> None:
        fixpipe(self, *operands)
        if self.dry:
            calls[0] += 1
            if calls[0] % 2 == 0:
                raise RuntimeError("a dry run's failure")

    monkeypatch.setattr(Core, "fixpipe", failing)
    monkeypatch.setattr(replay, "_MIN_STACKED_STEPS", 0)
    runs = _dry_runs(monkeypatch)
    assert interpret(module, HW, x, dy).tobytes() == per_instruction.tobytes()
    assert calls[0] >= 2 and runs and not all(stood for _, stood in runs)


def test_an_error_in_a_dry_recorded_core_is_the_real_runs() -> None:
    """An error in a core to be recorded (here: the loop iteration budget runs out in it) is
    raised by its real run, with the same message as without replay."""
    problem = shape_from_torch_args(*LAYERS["one-channel"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    messages = []
    for replaying in (True, False):
        with pytest.MonkeyPatch.context() as m:
            if not replaying:
                m.setattr(replay, "replaying", lambda *args: False)
            with pytest.raises(Exception) as info:
                interpret(module, HW, x, dy, max_iterations=40)
            messages.append((type(info.value), str(info.value)))
    assert messages[0] == messages[1]
    assert "iteration" in messages[0][1]


@pytest.mark.parametrize("dry", [True, False])
def test_a_data_run_leaves_no_cycle_for_the_collector(
    dry: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every core of a replayed launch drops its handlers (its bound methods: a reference
    cycle) when the launch loop is done with it, so that a recorded core's log and stream go
    with the launch, not in a cycle collection after it (16 892 objects, 4.6 ms, in every
    unet3d-enc1 run); a dry run thrown away for a real one included."""
    problem = shape_from_torch_args(*LAYERS["one-channel"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    monkeypatch.setattr(replay, "_MIN_STACKED_STEPS", 0)
    if not dry:  # every dry run fails: each recorded core also runs for real
        product = Core._product

        def failing(self: Core, *operands: Any) -> Any:
            if self.dry:
                raise RuntimeError("a dry run's failure")
            return product(self, *operands)

        monkeypatch.setattr(Core, "_product", failing)
    interpret(module, HW, x, dy)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        interpret(module, HW, x, dy)
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert not [name for name in left if name.endswith("Core")], left
    assert len(left) < 100, collections.Counter(left).most_common(5)


def test_a_second_run_replays_again_with_new_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = shape_from_torch_args(*LAYERS["x3d-dw"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    results = []
    for seed in (2, 3):
        x, dy = random_inputs(problem, seed)
        replayed = interpret(module, HW, x, dy)
        with monkeypatch.context() as m:
            m.setattr(replay, "replaying", lambda *args: False)
            assert replayed.tobytes() == interpret(module, HW, x, dy).tobytes()
        results.append(replayed)
    assert results[0].tobytes() != results[1].tobytes()


@pytest.mark.parametrize("sanitized", [True, False])
def test_observed_runs_execute_every_instruction(
    sanitized: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = shape_from_torch_args(*LAYERS["grouped"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    count = _count_replays(monkeypatch)
    sanitizer = Sanitizer.for_hw(HW) if sanitized else None
    result = run(
        ModuleJob(module, load(HW), FUNC_NAME, (x, dy)),
        RunOptions(sanitizer=sanitizer, progress=False),
    )
    assert count[0] == 0
    assert result.cost is not None
    assert result.grad_weight.tobytes() == interpret(module, HW, x, dy).tobytes()
    assert count[0] > 0


def test_a_record_too_large_to_hold_is_not_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = shape_from_torch_args(*LAYERS["x3d-dw"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    replayed = interpret(module, HW, x, dy)
    count = _count_replays(monkeypatch)
    monkeypatch.setattr(replay, "_MAX_BYTES", 1024)
    assert interpret(module, HW, x, dy).tobytes() == replayed.tobytes()
    assert count[0] == 0


def test_threads_replay_their_own_launches() -> None:
    """The records live in one launch: runs in threads at once give their own bits."""
    problems = [shape_from_torch_args(*LAYERS[n], "f16") for n in ("x3d-dw", "grouped")]
    modules = [compiled_levels(p, HW, "heuristic", None, "")["hw"] for p in problems]
    inputs = [random_inputs(p, 4) for p in problems]
    alone = [interpret(m, HW, *xs).tobytes() for m, xs in zip(modules, inputs, strict=True)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(interpret, modules[i % 2], HW, *inputs[i % 2]) for i in range(8)]
        results = [f.result().tobytes() for f in futures]
    assert results == [alone[i % 2] for i in range(8)]


def test_an_instruction_outside_the_recorded_set_stops_the_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A core that runs an instruction whose steps the log does not record (here: mmad taken
    out of the set) is not replayed: its later cores run instruction by instruction."""
    problem = shape_from_torch_args(*LAYERS["grouped"], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    replayed = interpret(module, HW, x, dy)
    count = _count_replays(monkeypatch)
    monkeypatch.setattr(replay, "RECORDED", replay.RECORDED - {instructions.MMAD})
    assert interpret(module, HW, x, dy).tobytes() == replayed.tobytes()
    assert count[0] == 0


def test_a_float_bias_in_l1_keeps_the_mirror_on_with_the_bytes_of_direct_writes() -> None:
    """A bfloat16 conv's float32 bias copied into L1 (by the 16-bit buffers the mirror holds)
    keeps the mirror on, so its cores are recorded: the float slot's mirror holds its
    elements packed, load_bias reads them there, and every settle of the 16-bit elements
    (which may span the float slot) writes the float bytes again. L1 and the bias table must
    read as direct writes leave them, even with float bits whose 16-bit halves are NaNs."""
    core = Core(0)
    bf16, f32 = np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)
    c1 = core.alloc_buffer(BufferSpec("L1", "C1", f32, 32, 1, 0, 128))
    a1 = core.alloc_buffer(BufferSpec("L1", "A1", bf16, 1024, 1, 128, 2048))
    c2 = core.alloc_buffer(BufferSpec("BT", "C2", f32, 32, 1, 0, 128))
    rng = np.random.default_rng(0)
    bias = rng.standard_normal(32).astype(f32)
    bias.view(np.uint32)[::3] = (bias.view(np.uint32)[::3] & 0xFFFF0000) | 0x7FC1  # NaN halves
    gm_type = GmTensorType.__new__(GmTensorType)
    x = [rng.standard_normal(1024).astype(bf16) for _ in range(2)]
    core.data_copy(None, GmTensor(gm_type, x[0]), 0, a1, 0, 0, 1, 64, 0, 0)  # type: ignore[arg-type]
    core.data_copy(None, GmTensor(gm_type, bias), 0, c1, 0, 0, 1, 4, 0, 0)  # type: ignore[arg-type]
    core.load_bias(None, c1, 0, 0, c2, 0, 2)  # type: ignore[arg-type]
    core.sync()  # the 16-bit elements, then the float slot
    core.data_copy(None, GmTensor(gm_type, x[1]), 0, a1, 0, 0, 1, 64, 0, 0)  # type: ignore[arg-type]
    core.load_bias(None, c1, 0, 0, c2, 0, 2)  # type: ignore[arg-type]
    assert core._mirror_ok
    core.sync()
    assert c1.slot(0).tobytes() == bias.tobytes()
    assert c2.slot(0).tobytes() == bias.tobytes()
    assert a1.slot(0).tobytes() == x[1].tobytes()


@pytest.mark.parametrize("name", ["strided-dilated", "grouped"])
def test_inline_noting_notes_what_the_handlers_note(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernels a replay runs note each instruction inline (``noting="note"`` on the
    stream cores, ``"record"`` on the recorded ones); on every block they note the keys and
    GM offsets that the noting handlers (``_Stream.noting``) note from the plain kernel's
    calls, so a core is replayed exactly when its instructions are a recorded core's."""
    problem = shape_from_torch_args(*LAYERS[name], "f16")
    module = compiled_levels(problem, HW, "heuristic", None, "")["hw"]
    x, dy = random_inputs(problem, 0)
    launches: list[replay.Replayer] = []
    original = replay.Replayer.run

    def run(self: replay.Replayer, machine: Any) -> None:
        if self not in launches:
            launches.append(self)
        original(self, machine)

    monkeypatch.setattr(replay.Replayer, "run", run)
    interpret(module, HW, x, dy)
    (launch,) = launches
    first = launch.first
    assert first is not None
    streams = []
    for block in range(launch.blocks):
        by_handlers = replay.StreamCore(block, Budget(), first)
        launch.kernel.run(by_handlers, launch.args)
        inline = replay.StreamCore(block, Budget(), first)
        launch.kernel.noting("note").run(inline, launch.args)
        recorded = launch._recording(block)
        launch.kernel.noting("record").run(recorded, launch.args)
        expected = (by_handlers.stream.keys, by_handlers.stream.offsets)
        assert (inline.stream.keys, inline.stream.offsets) == expected
        assert (recorded.stream.keys, recorded.stream.offsets) == expected
        streams.append(expected)
    # Not trivially equal: blocks note GM offsets, and not all the same ones.
    assert any(offsets for _, offsets in streams)
    assert len({tuple(offsets) for _, offsets in streams}) > 1
