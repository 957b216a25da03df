"""The synchronisation sanitizer: unit behaviour, no false alarm on the pipeline's own kernels,
and mutation testing — delete each wait_flag of a lowered kernel in turn.

A deleted wait either unorders a real hand-over between two pipes (the sanitizer must report
the hazard), or it is one of the drains at kernel exit that only balance the loop-carried
presets (nothing is accessed after them: the flag model reports the set that is never waited).
Every other outcome fails the test — including a mutant without any consequence, which would
mean ascend-insert-sync inserted a redundant flag.
"""

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func, scf

from ascend_xdsl.dialects.hw_level import AllocBufferOp, WaitFlagOp
from ascend_xdsl.ir.locations import parse_file
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.lowering.pipeline import make_context
from ascend_xdsl.runtime.api import compiled_levels, problem_of
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS, KernelError, make_interpreter
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer


def _run(module, x, dy, executor: str = "compiled") -> tuple[Sanitizer, str | None]:
    sanitizer = Sanitizer.for_hw("atlas-a2-910b2")
    try:
        interpreter = make_interpreter(module, sanitizer=sanitizer, executor=executor)
        interpreter.call_op("conv3d_bp_filter", (x, dy))
    except KernelError as e:
        return sanitizer, str(e)
    return sanitizer, None


# Shapes whose loops all run at least twice, so that every loop-carried flag is exercised.
KERNELS = {
    "order_m": ((2, 32, 3, 8, 8), (48, 32, 2, 3, 3), 1, 1, ""),
    "order_n": ((2, 32, 3, 8, 8), (48, 32, 2, 3, 3), 1, 1, "iterate_order=1"),
    "streaming_k": ((1, 16, 2, 40, 40), (32, 16, 1, 3, 3), 1, 1, "step_ka=1 step_kb=1"),
    "two_cores": ((2, 32, 3, 8, 8), (48, 32, 2, 3, 3), 1, 2, ""),
    "fused_dk": ((2, 32, 3, 8, 8), (48, 32, 2, 3, 3), 1, 1, "", "fused"),
}


def _kernel(name: str):
    x_shape, w, pad, cores, override, *dk = KERNELS[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(np.float16)
    dy_shape = shape_from_torch_args(x_shape, w, padding=pad).grad_output_shape
    dy = rng.standard_normal(dy_shape).astype(np.float16)
    problem = problem_of(x, w, dy, 1, pad)
    levels = compiled_levels(problem, "atlas-a2-910b2", "heuristic", cores, override, *dk)
    return levels["hw"], x, dy


def _is_drain(op: WaitFlagOp) -> bool:
    """A wait in the kernel's top-level block after its last loop: balances a preset."""
    block = op.parent_block()
    kernel = op.parent_op()
    if not isinstance(kernel, func.FuncOp) or block is not kernel.body.block:
        return False
    later = op.next_op
    while later is not None:
        if isinstance(later, scf.ForOp | scf.IfOp):
            return False
        later = later.next_op
    return True


@pytest.mark.parametrize("executor", EXECUTORS)
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_pipeline_kernels_have_no_hazard(name, executor):
    module, x, dy = _kernel(name)
    sanitizer, error = _run(module, x, dy, executor)
    assert error is None
    assert sanitizer.hazards == [], [h.describe() for h in sanitizer.hazards]


def test_both_executors_report_the_same_hazards():
    """The sanitizer sees the same effects, in the same order, from either executor."""
    module, x, dy = _kernel("order_m")
    ops = list(module.walk())
    waits = [i for i, op in enumerate(ops) if isinstance(op, WaitFlagOp) and not _is_drain(op)]
    mutant = module.clone()
    victim = list(mutant.walk())[waits[len(waits) // 2]]
    victim.detach()
    victim.erase()
    reports = [
        [h.describe() for h in _run(mutant, x, dy, executor)[0].hazards] for executor in EXECUTORS
    ]
    assert reports[0] and reports[0] == reports[1]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_deleted_wait_is_caught(name):
    module, x, dy = _kernel(name)
    waits = [i for i, op in enumerate(module.walk()) if isinstance(op, WaitFlagOp)]
    assert len(waits) >= 6
    for index in waits:
        mutant = module.clone()
        op = list(mutant.walk())[index]
        assert isinstance(op, WaitFlagOp)
        drain = _is_drain(op)
        what = f"wait_flag {op.src_pipe} -> {op.dst_pipe} (op #{index})"
        op.detach()
        op.erase()
        sanitizer, error = _run(mutant, x, dy)
        if drain:
            assert sanitizer.hazards == [], what
            assert error is not None and "never waited" in error, what
        else:
            assert sanitizer.hazards, f"deleting {what} went unnoticed"
            kinds = {h.kind for h in sanitizer.hazards}
            assert kinds <= {"RAW", "WAR", "WAW"}


HAND_WRITTEN = Path(__file__).parent / "filecheck" / "Inputs" / "missing_flag.mlir"


def _hand_written(with_flags: bool) -> Sanitizer:
    text = HAND_WRITTEN.read_text()
    if with_flags:
        text = text.replace(
            "  ascend.load3d",
            "  ascend.set_flag MTE2 -> MTE1 event %c0\n"
            "  ascend.wait_flag MTE2 -> MTE1 event %c0\n  ascend.load3d",
        )
    module = parse_file(make_context(), text, "missing_flag.mlir")
    sanitizer = Sanitizer.for_hw("atlas-a2-910b2")
    dy = np.ones((1, 16, 1, 4, 4), np.float16)
    make_interpreter(module, sanitizer=sanitizer).call_op("host", (dy,))
    return sanitizer


def test_hand_written_hazard_names_both_ops_and_the_buffer():
    hazards = _hand_written(with_flags=False).hazards
    assert len(hazards) == 1
    text = hazards[0].describe()
    assert text.startswith("RAW hazard on L1 bytes [0, 512)")
    assert "ascend.load3d at missing_flag.mlir:15:3 on MTE1 reads what" in text
    assert "ascend.data_copy at missing_flag.mlir:14:3 on MTE2 wrote" in text


def test_flag_orders_the_hand_written_kernel():
    assert _hand_written(with_flags=True).hazards == []


def test_war_and_barrier():
    class Op:  # stands in for an Operation: only identity matters to the sanitizer
        name = "test.op"
        location = None

        def parent_op(self):
            return None

    reader, writer = Op(), Op()
    s = Sanitizer({"L1": 1024})
    s.access(reader, "MTE1", "L1", 0, 64, False, s.tick("MTE1"))
    s.access(writer, "MTE2", "L1", 32, 96, True, s.tick("MTE2"))
    assert [h.kind for h in s.hazards] == ["WAR"]
    assert (s.hazards[0].lo, s.hazards[0].hi) == (32, 64)
    s = Sanitizer({"L1": 1024})
    s.access(reader, "MTE1", "L1", 0, 64, False, s.tick("MTE1"))
    s.barrier("ALL")
    s.access(writer, "MTE2", "L1", 0, 64, True, s.tick("MTE2"))
    assert s.hazards == []


def test_buffers_are_planned_in_the_kernels():
    module, _, _ = _kernel("order_m")
    assert all(op.offset is not None for op in module.walk() if isinstance(op, AllocBufferOp))
