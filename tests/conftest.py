"""Session-wide test setup: the tuner's cache goes to a temporary folder, never the user's;
the tests that share a module's fixture stay on one pytest-xdist worker; and the fixtures more
than one test file uses.

``tuning/cache.py`` puts its files in ``platformdirs.user_cache_dir``, which follows
``XDG_CACHE_HOME`` on Linux; setting it here also covers the tools the tests run as
subprocesses (``ascend-opt ... strategy=tuned``, ``ascend-tune``), which inherit the environment.

The suite runs on pytest-xdist's workers (``-n auto --dist loadgroup`` in pyproject.toml;
``pytest -n0`` runs it in one process). Each worker has its own tuning cache, as one process
had: what a summary prints depends on the cache (``--tiling tuned gives ...`` when it holds the
layer), so a cache shared with a worker that runs other tests at the same time would make the
documented outputs depend on the schedule.
"""

import os
import tempfile
from pathlib import Path

import pytest

_CACHE = tempfile.mkdtemp(prefix="ascend-xdsl-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: known only with its plugin
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml): one worker per CPU when the whole suite runs (``pytest``
    with no path, or a folder); none (this process) for named files or tests, where starting
    workers (each imports xDSL and the compiler) costs more than it saves and would take a
    second core from the machine's other users."""
    named = config.args_source == pytest.Config.ArgsSource.ARGS and not any(
        Path(arg).is_dir() for arg in config.args
    )
    cpus = len(os.sched_getaffinity(0))
    return 0 if named or cpus < 2 else cpus


FIRST = ("test_docs_commands.py", "test_docs_excerpts.py", "test_tune_cli.py", "test_tuning.py")
"""The files whose tests take longest (tens of seconds each: tiling searches, Ray, every
documented command), run first: a worker that draws one of them last would finish alone."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the marks (its worker's hook)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A module-scoped fixture is computed once per worker that runs a test using it (the
    tiling searches of tests/test_tuning.py, 25 s): such tests are one group, which
    ``--dist loadgroup`` sends to one worker. The other tests are scheduled one by one, the
    files of :data:`FIRST` first (a stable sort: each file's tests keep their order)."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        if any(d and d[-1].scope == "module" for d in defs):
            item.add_marker(pytest.mark.xdist_group(f"module:{item.nodeid.split('::')[0]}"))
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))


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
