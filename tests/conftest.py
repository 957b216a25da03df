"""Session-wide test setup: the tuner's cache goes to a temporary folder, never the user's;
and the fixtures more than one test file uses.

``tuning/cache.py`` puts its files in ``platformdirs.user_cache_dir``, which follows
``XDG_CACHE_HOME`` on Linux; setting it here also covers the tools the tests run as
subprocesses (``ascend-opt ... strategy=tuned``, ``ascend-tune``), which inherit the environment.
"""

import os
import tempfile

import pytest

_CACHE = tempfile.mkdtemp(prefix="ascend-xdsl-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE


@pytest.fixture(scope="session")
def cost_only_report():
    """A cost-only report on one core of a layer whose loops are both replayed and
    extrapolated (tests/test_trace.py, tests/test_pictures.py)."""
    from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
    from ascend_xdsl.lowering.options import CompileOptions
    from ascend_xdsl.lowering.pipeline import compile_levels
    from ascend_xdsl.runtime.cost.model import COST_ONLY

    problem = shape_from_torch_args((1, 16, 16, 8, 8), (16, 16, 3, 3, 3), padding=1)
    options = CompileOptions.create(hw="atlas-a2-910b2", cores=1)
    module = compile_levels(build_module(problem), options, verify=False)["hw"]
    (report,) = COST_ONLY.predict(module, options.hw, problem=problem)
    labels = {s.label for s in report.slowest.timeline.slices if s.label}
    assert any("replayed" in label for label in labels)
    assert any("extrapolated" in label for label in labels)
    return report
