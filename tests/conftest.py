"""Session-wide test setup: the tuner's cache goes to a temporary folder, never the user's;
the order in which pytest-xdist's workers draw the files; and the fixtures more than one test
file uses.

``tuning/cache.py`` puts its files in ``platformdirs.user_cache_dir``, which follows
``XDG_CACHE_HOME`` on Linux; setting it here also covers the tools the tests run as
subprocesses (``ascend-opt ... strategy=tuned``, ``ascend-tune``), which inherit the environment.

The suite runs on pytest-xdist's workers (``-n auto --dist loadfile`` in pyproject.toml;
``pytest -n0`` runs it in one process), a whole file at a time (but for two files whose tests
share nothing, :func:`work_unit`), the longest first: a module's fixture (the tiling
searches of tests/test_tuning.py, 12 s of CPU) is computed once, the two Ray tests never start two
instances at once, and a test that reads what an earlier one of its file cached still finds it.
(``--dist loadgroup`` could keep smaller groups together, but its marks do not reach the
scheduler under pytest 9.2: pytest-xdist 3.8 renames ``item._nodeid``, which pytest 9.2 no
longer reads.) Each worker has its own tuning cache, as one process
had: what a summary prints depends on the cache (``--tiling tuned gives ...`` when it holds the
layer), so a cache shared with a worker that runs other tests at the same time would make the
documented outputs depend on the schedule. The few commands that two tests run the same way
run once per session for both, whichever worker asks first (tests/shared_runs.py).

The simulator's MMAD and the float32 reference sum through numpy's matmul, whose order follows
the kernel OpenBLAS picks for the CPU: an AVX-512 machine (``SkylakeX``) and an AVX2 one
(``Haswell``, ``Zen``) give dW's last bits differently. The suite pins bits (the digests of
tests/test_simulator_pinned.py, the README's precision line), so it asks OpenBLAS for its
Haswell kernel on every x86-64 machine, before numpy is first imported; the subprocesses of the
tests inherit the choice. ``OPENBLAS_CORETYPE`` set by the caller is kept.
"""

import gc
import os
import platform
import shutil
import signal
import tempfile
from pathlib import Path

import pytest
import shared_runs

from ascend_xdsl.ir import collector  # no numpy: OPENBLAS_CORETYPE below still applies

if platform.machine() in ("x86_64", "AMD64"):
    os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

# A worker's heap grows to some 3 million objects (the IR of every test's compiles, the caches
# of compiled modules and kernels): a full collection walks it in about half a second, and
# with Python's default thresholds each worker ran 26 to 35 of them, 11 to 18 s of CPU each
# (gc.callbacks, two whole runs on 2026-12-06). Collecting the young generation every
# collector.YOUNG (50 000) net allocations instead of 700 promotes fewer live objects, so full
# collections are rarer; the collector still frees every cycle. (ir/collector.py does the same
# inside compiles and runs for every caller; tests/test_collector.py sets Python's defaults
# for its own tests.)
gc.set_threshold(collector.YOUNG, *gc.get_threshold()[1:])

_CACHE = tempfile.mkdtemp(prefix="ascend-xdsl-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE


def pytest_configure(config: pytest.Config) -> None:
    """The folder of the runs that tests share (tests/shared_runs.py): the controlling process
    (or the only one, ``-n0``) makes it, and each pytest-xdist worker gets its name."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        shared_runs.FOLDER = Path(workerinput["shared_runs"])
    else:
        shared_runs.FOLDER = Path(tempfile.mkdtemp(prefix="ascend-xdsl-shared-runs-"))


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook, in the controlling process
def pytest_configure_node(node) -> None:  # xdist's WorkerController
    node.workerinput["shared_runs"] = str(shared_runs.folder())


def pytest_unconfigure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and shared_runs.FOLDER is not None:
        shutil.rmtree(shared_runs.FOLDER, ignore_errors=True)


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


FIRST = (
    "test_docs_commands.py",
    "test_tuning.py",
    "test_tune_parallel.py",
    "test_tune_cli.py",
    "test_emit_ascendc.py",
    "test_conv3d_search.py",
    "test_fuzz.py",
    "test_docs_excerpts.py",
    "test_filecheck.py",
    "test_transfer.py",
    "test_benchmarks.py",
    "test_search_space.py",
    "test_runtime.py",
    "test_grad_layers.py",
    "test_hardening.py",
    "test_cost_only.py",
    "test_sanitizer.py",
    "test_run_cli.py",
    "test_properties.py",
    "test_front_door.py",
    "test_inprocess.py",
)
"""The files whose tests take longest, longest first (a whole run's times per file, in
docs/performance.md, "Issue 15 part 7: the suite's time": the documented commands, the tiling
searches, Ray, g++ builds of the emitted projects, the fuzzers; 4 to 140 s of wall time each on
its worker in the two whole runs of 2,219 tests recorded there): a worker that drew one of them
last would finish alone. The many small files after them fill the end, so that both workers finish
within a second of each other. (Each page of test_docs_commands.py has a tuning cache of its
own, so what ran before it on its worker does not matter.) README's page comes before
test_tune_cli.py, which shows the same tuning sweep (tests/shared_runs.py): the page runs it
early, and the other file, drawn some 30 s later, finds it done. The other way round, both
asked for it within seconds of each other and the page's worker waited 9 s for it (two whole
runs on 2026-12-06)."""


def work_unit(nodeid: str) -> str:
    """What pytest-xdist hands a worker at once (:class:`_Scheduler`): a whole file, as
    ``--dist loadfile`` does (a module fixture is computed once, a test may read what an
    earlier one of its file cached), except in two files whose tests do not share anything:
    each page of test_docs_commands.py (up to a minute each, with a folder and a cache of the
    page's own) is a unit, and test_tune_cli.py is two, its Ray tests (which must not start
    two instances at once) and the rest."""
    path, _, test = nodeid.partition("::")
    name = Path(path).name
    if name == "test_docs_commands.py":
        return nodeid
    if name == "test_tune_cli.py" and "ray" in test.split("[", 1)[0]:
        return f"{path}::ray"
    return path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of :data:`FIRST` first, in that order (a stable sort: the other files, and
    each file's tests, keep their order)."""
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook, in the controlling process
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # -> xdist's scheduler
    """``--dist loadfile`` as pytest-xdist does it, with two changes: the units are drawn in
    the order of the collection (:func:`pytest_collection_modifyitems`: the longest first),
    where pytest-xdist would sort them by their number of tests (many quick tests say little
    about a file's time: test_docs_commands.py's few tests take minutes); and a unit is a
    :func:`work_unit`, not always a whole file."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class _Scheduler(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    config.option.loadscopereorder = False
    return _Scheduler(config, log)


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


@pytest.fixture
def python_sigint():
    """SIGINT as a fresh Python sets it up (``signal.default_int_handler``) for one test, then
    what it was. A test of Ctrl-C must not depend on what an earlier test in the same xdist
    worker left: a handler other than Python's makes ``_thread.interrupt_main`` do nothing, and
    an ignored SIGINT is inherited by a child process, whose Python then never raises
    KeyboardInterrupt (two Ctrl-C tests failed once that way in a whole run; a child started
    with a Python handler in place gets the default disposition back on exec)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
