"""The L2 model that follows each GM tensor's own stream (runtime/cost/report.py, docs/cost-model.md
"L2 and HBM"): the reuse distance of a tensor's re-reads, the bytes that go to HBM, and the
per-tensor traffic each core's timeline counts for it, equal in a full run and in cost-only.

The expected values are worked by hand from the definitions in the docstrings (distinct bytes
of the stream between two reads of one byte; first touches miss), not by the code under test."""

from __future__ import annotations

import pytest

from ascend_xdsl.hw import load
from ascend_xdsl.lowering.build import FUNC_NAME, shape_from_torch_args
from ascend_xdsl.runtime.api import compiled_levels, model_cost, random_inputs
from ascend_xdsl.runtime.cost.report import l2_misses, reuse_distance
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, run

HW = "atlas-a2-910b2"
MB = 1 << 20
L2 = 192 * MB


def test_a_tensor_read_once_misses_every_byte():
    assert l2_misses([(100.0 * MB, 100.0 * MB)], L2) == 100 * MB
    # half of a tensor read once (a stride that skips planes): only what is read misses
    assert l2_misses([(50.0 * MB, 100.0 * MB)], L2) == 50 * MB


def test_the_reuse_distance_of_a_tensor_re_read_in_every_block():
    # A (16 MB) read 8 times, one pass per N block, beside B (64 MB) read once: between two
    # reads of one byte of A the stream moves all of A and an eighth of B.
    streams = [(128.0 * MB, 16.0 * MB), (64.0 * MB, 64.0 * MB)]
    assert reuse_distance(streams, 0) == 16 * MB + 8 * MB
    # the re-reads fit the 192 MB L2: only the first touches miss
    assert l2_misses(streams, L2) == 16 * MB + 64 * MB


def test_re_reads_past_the_l2_miss_in_the_part_that_does_not_fit():
    # one 400 MB tensor read twice: the second pass re-reads each byte 400 MB later, and the
    # L2 holds 192 of those 400 MB
    streams = [(800.0 * MB, 400.0 * MB)]
    assert reuse_distance(streams, 0) == 400 * MB
    assert l2_misses(streams, L2) == pytest.approx(400 * MB + 400 * MB * (1 - 192 / 400))


def test_a_small_tensor_re_read_often_hits_beside_a_large_stream():
    # the uniform rule (hit = L2 / all tensor bytes) would send 1 - 192/1024 of the small
    # tensor's re-reads to HBM; its own stream re-reads it every 8 MB of the 1 GB stream
    streams = [(128.0 * MB, 1.0 * MB), (1024.0 * MB, 1024.0 * MB)]
    assert reuse_distance(streams, 0) == 1 * MB + 8 * MB
    assert l2_misses(streams, L2) == 1 * MB + 1024 * MB


SHAPE = shape_from_torch_args((1, 16, 4, 8, 8), (32, 16, 3, 3, 3), padding=1)


def _traffic(report):  # per tensor position, summed over the cores
    total: dict[int, int] = {}
    for core in report.cores:
        for at, moved in enumerate(core.tensor_bytes):
            total[at] = total.get(at, 0) + moved
    return total, dict(pair for core in report.cores for pair in core.tensor_sizes)


def test_each_core_counts_its_gm_bytes_per_kernel_argument_in_both_modes():
    module = compiled_levels(SHAPE, HW, "heuristic", None, "")["hw"]
    fast = model_cost(module, HW, problem=SHAPE)[-1]
    x, dy = random_inputs(SHAPE, 0)
    full = run(ModuleJob(module, load(HW), FUNC_NAME, (x, dy)), RunOptions(progress=False)).cost
    assert full is not None
    for report in (fast, full):
        traffic, sizes = _traffic(report)
        assert sum(traffic.values()) == sum(c.gm_bytes for c in report.cores)
        assert traffic.get(0, 0) == 0  # every GM operand is a kernel argument
        assert set(sizes) == {1, 2, 3}  # x, dy and dW, in the kernel's argument order
        assert sizes[3] == 32 * 16 * 27 * 4  # dW in FRACTAL_Z_3D, float32
    assert _traffic(fast) == _traffic(full)
    assert fast.hbm_bytes == full.hbm_bytes
    # everything fits the L2: the first touch of each tensor is all that misses
    traffic, sizes = _traffic(fast)
    assert fast.hbm_bytes == sum(min(traffic[at], sizes[at]) for at in sizes)
