"""The per-launch pool of core memories (``runtime/machine/core.py``, ``CorePool``): a core
that takes a finished core's memories sees them all zero, and pooling changes no result."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_xdsl.runtime.api import run_conv3d_weight
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.machine import core as core_module

LAYERS = [
    ((2, 16, 4, 8, 8), (32, 16, 3, 3, 3), 1, 1),
    ((1, 32, 4, 8, 8), (32, 8, 3, 3, 3), 1, 4),  # grouped: many cores, thin tiles
]


def _data(x_shape, w_shape, padding, groups):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(x_shape).astype(np.float16)
    d, h, w = (s + 2 * padding - k + 1 for s, k in zip(x_shape[2:], w_shape[2:], strict=True))
    dy = rng.standard_normal((x_shape[0], w_shape[0], d, h, w)).astype(np.float16)
    return x, dy


@pytest.mark.parametrize("executor", EXECUTORS)
@pytest.mark.parametrize("layer", LAYERS)
def test_pooling_changes_no_result(monkeypatch, executor, layer) -> None:
    x_shape, w_shape, padding, groups = layer
    x, dy = _data(x_shape, w_shape, padding, groups)
    given: list[bool] = []
    give = core_module.CorePool.give

    def checked_give(pool, core) -> None:
        give(pool, core)
        memory, mirror = pool._free[-1]
        given.append(all(not m.data.any() for m in memory.memories.values()) and not mirror.any())

    monkeypatch.setattr(core_module.CorePool, "give", checked_give)
    kwargs = dict(padding=padding, groups=groups, cores=4, executor=executor)
    pooled = run_conv3d_weight(x, w_shape, dy, **kwargs)
    assert given and all(given)
    monkeypatch.setattr(core_module.CorePool, "take", lambda pool, name: None)
    fresh = run_conv3d_weight(x, w_shape, dy, **kwargs)
    assert np.array_equal(pooled.grad_weight.view(np.uint32), fresh.grad_weight.view(np.uint32))
    assert pooled.cost is not None and fresh.cost is not None
    assert pooled.cost.cycles == fresh.cost.cycles
