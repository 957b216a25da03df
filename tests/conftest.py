"""Session-wide test setup: the tuner's cache goes to a temporary folder, never the user's;
the order in which pytest-xdist's workers draw the files; and the fixtures more than one test
file uses.

``tuning/cache.py`` puts its files in ``platformdirs.user_cache_dir``, which follows
``XDG_CACHE_HOME`` on Linux; setting it here also covers the tools the tests run as
subprocesses (``ascend-opt ... strategy=tuned``, ``ascend-tune``), which inherit the environment.

The suite runs on pytest-xdist's workers (``-n auto --dist loadfile`` in pyproject.toml;
``pytest -n0`` runs it in one process), a whole file at a time: a module's fixture (the tiling
searches of tests/test_tuning.py, 25 s) is computed once, the two Ray tests never start two
instances at once, and a test that reads what an earlier one of its file cached still finds it.
(``--dist loadgroup`` could keep smaller groups together, but its marks do not reach the
scheduler under pytest 9.2: pytest-xdist 3.8 renames ``item._nodeid``, which pytest 9.2 no
longer reads.) Each worker has its own tuning cache, as one process
had: what a summary prints depends on the cache (``--tiling tuned gives ...`` when it holds the
layer), so a cache shared with a worker that runs other tests at the same time would make the
documented outputs depend on the schedule.

The simulator's MMAD and the float32 reference sum through numpy's matmul, whose order follows
the kernel OpenBLAS picks for the CPU: an AVX-512 machine (``SkylakeX``) and an AVX2 one
(``Haswell``, ``Zen``) give dW's last bits differently. The suite pins bits (the digests of
tests/test_simulator_pinned.py, the README's precision line), so it asks OpenBLAS for its
Haswell kernel on every x86-64 machine, before numpy is first imported; the subprocesses of the
tests inherit the choice. ``OPENBLAS_CORETYPE`` set by the caller is kept.
"""

import os
import platform
import tempfile
from pathlib import Path

import pytest

if platform.machine() in ("x86_64", "AMD64"):
    os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

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
"""The files whose tests take longest (tens of seconds each: every documented command, tiling
searches, Ray), run first: a worker that drew one of them last would finish alone. README's
page (test_docs_commands.py) also runs before anything on its worker tunes the default layer,
as in one process: its summary shown has no "--tiling tuned gives" line."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of :data:`FIRST` first, in that order (a stable sort: the other files, and
    each file's tests, keep their order)."""
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
