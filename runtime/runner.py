"""The runner: compile, run and cost one dW kernel, the one way every front door does it.

``ascend-conv bp-filter``, ``ascend-run`` and the Python API (``conv3d_weight``,
``run_conv3d_weight``, ``interpret``, ``model_cost``) all call :func:`run`, so they share one
policy for what surrounds a run:

* the job is either a problem to compile (:class:`CompileJob`: the compile options of
  ``lowering/options.py``, then the program of one level) or a module to run as it is
  (:class:`ModuleJob`, what ``ascend-run`` reads from a file);
* a full run is refused up front when the host memory cannot hold it
  (``runtime/machine/host_memory.py``);
* BLAS runs single-threaded inside a run (``threadpoolctl``): the kernel's GEMMs are small and
  many, and OpenBLAS threads made loaded runs ten times slower;
* the cost mode is ``full`` (the exact timeline of every instruction), ``cost-only`` (no data:
  ``runtime/cost/cost_only.py``) or ``none``;
* the FLOPs of every cost report follow one rule (``runtime/cost/report.count_problem_flops``):
  2 × the multiply-adds of the dW problem the job computes when it is known, else what the
  mmads issued;
* a failure while interpreting keeps its type and says which op it failed in (``ascend_op``, as
  the compiled executor already does), so a tool can name the op and a library caller still
  catches what it caught before.

The executors, the machine and the cost model (``runtime/executors``, ``runtime/machine``,
``runtime/cost``) are reached through their public functions only: ``build_interpreter``, the
cost model ``COST_ONLY`` and ``CostReport``.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from threadpoolctl import ThreadpoolController
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from ascend_xdsl.dialects import api_level
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import HwConfig
from ascend_xdsl.ir import collector
from ascend_xdsl.ir.program import conv_problem, find_function
from ascend_xdsl.lowering.build import FUNC_NAME, build_module
from ascend_xdsl.lowering.options import CompileError, CompileOptions
from ascend_xdsl.lowering.pipeline import BUILD_LOCK, LEVELS, compile_from, compile_levels
from ascend_xdsl.runtime.cost.model import COST_ONLY
from ascend_xdsl.runtime.cost.operator import operator_cost
from ascend_xdsl.runtime.cost.report import CostReport, count_problem_flops
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS, build_interpreter
from ascend_xdsl.runtime.machine import dtypes
from ascend_xdsl.runtime.machine.budget import Budget, Interrupted
from ascend_xdsl.runtime.machine.host_memory import RUN_FACTOR, check_host_bytes, tensor_bytes
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.reports.check import CheckResult, check
from ascend_xdsl.runtime.reports.progress import LoopProgress

CostMode = Literal["full", "cost-only", "none"]
COST_MODES: tuple[str, ...] = ("full", "cost-only", "none")


@dataclass(frozen=True)
class CompileJob:
    """A problem to compile with ``options`` and run at ``level``, on ``inputs`` (x, dy) or,
    without them, on seeded standard-normal inputs (``seed``)."""

    problem: ConvBpFilterShape
    options: CompileOptions
    level: str = LEVELS[-1]
    inputs: tuple[np.ndarray, np.ndarray] | None = None
    seed: int = 0


@dataclass(frozen=True)
class ModuleJob:
    """A module to run as it is: ``entry`` (a function or its name) on ``inputs``, on ``hw``.
    ``problem`` is the dW problem the entry computes, for the FLOPs; None: read from the entry
    (``ir/program.conv_problem``), if it is one."""

    module: ModuleOp
    hw: HwConfig
    entry: str | func.FuncOp = FUNC_NAME
    inputs: Sequence[np.ndarray] = ()
    problem: ConvBpFilterShape | None = None


@dataclass(frozen=True)
class RunOptions:
    """How a job runs: the cost mode, the executor (``compiled`` or ``interp``, the same
    bits), the sanitizer that checks the run's synchronisation (its hazards stay on it, also
    when the run fails), the progress line of long runs, the loop budget
    (``runtime/machine/budget.py``; None: the default), the wall-clock limit in seconds
    (``max_seconds``; None: none) and, for ``cost-only``, the cycles past which a launch stops
    being timed (``CycleLimitExceeded``)."""

    cost: CostMode = "full"
    executor: str = "compiled"
    sanitizer: Sanitizer | None = None
    progress: bool = True
    max_iterations: int | None = None
    cycle_limit: float = math.inf
    max_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.cost not in COST_MODES:
            raise ValueError(f"unknown cost mode '{self.cost}' (expected {', '.join(COST_MODES)})")
        if self.executor not in EXECUTORS:
            raise ValueError(
                f"unknown executor '{self.executor}' (expected {', '.join(EXECUTORS)})"
            )


@dataclass
class RunResult:
    """What one job gave: the compiled levels (none for a :class:`ModuleJob`), the inputs and
    outputs of the entry (none in cost-only mode), the cost report of every launch (none
    without a cost mode) and the seconds compiling and running took."""

    problem: ConvBpFilterShape | None
    modules: dict[str, ModuleOp]
    inputs: tuple[np.ndarray, ...]
    outputs: tuple[Any, ...]
    costs: list[CostReport] = field(default_factory=list)
    compile_seconds: float = 0.0
    run_seconds: float = 0.0
    seed: int | None = None

    @property
    def grad_weight(self) -> np.ndarray:
        """The entry's (only) result as float32: dW."""
        return np.asarray(self.outputs[0], dtype=np.float32)

    @property
    def cost(self) -> CostReport | None:
        """The cost report of the last launch (the dW kernel's), if the job was costed."""
        return self.costs[-1] if self.costs else None

    def check(self, progress: bool = True) -> CheckResult:
        """dW against the reference on the job's x and dy (``runtime/reports/check.py``, with
        its progress line on a terminal after 2 s unless not ``progress``); ``ValueError`` when
        the job computes no known problem or its result is not dW."""
        if self.problem is None or len(self.inputs) < 2 or len(self.outputs) != 1:
            raise ValueError("the job computes no recognisable dW problem")
        x, dy = self.inputs[0], self.inputs[1]
        return check(self.problem, x, dy, np.asarray(self.outputs[0]), progress=progress)


def run(job: CompileJob | ModuleJob, options: RunOptions | None = None) -> RunResult:
    """Compile (a :class:`CompileJob`), run and cost ``job`` as ``options`` say."""
    options = RunOptions() if options is None else options
    if isinstance(job, CompileJob):
        return _run_compiled(job, options)
    entry = _entry(job.module, job.entry)
    problem = job.problem if job.problem is not None else conv_problem(entry)
    result = RunResult(problem, {}, tuple(job.inputs), ())
    _execute(result, job.module, entry, job.hw, options)
    return result


def _run_compiled(job: CompileJob, options: RunOptions) -> RunResult:
    if job.level not in LEVELS:
        raise ValueError(f"unknown level '{job.level}' (expected one of {', '.join(LEVELS)})")
    if options.cost != "cost-only":
        check_host_memory(job.problem)
    start = time.perf_counter()
    try:
        modules = compiled(job.problem, job.options)
    except (VerifyException, DiagnosticException) as e:  # a level the verifier rejects
        raise CompileError(job.level, e) from None
    compile_seconds = time.perf_counter() - start
    if options.cost == "cost-only":
        inputs: tuple[np.ndarray, ...] = ()
    elif job.inputs is not None:
        inputs = (np.asarray(job.inputs[0]), np.asarray(job.inputs[1]))
    else:
        inputs = random_inputs(job.problem, job.seed)
    seed = job.seed if job.inputs is None and inputs else None
    module = modules[job.level]
    result = RunResult(job.problem, dict(modules), inputs, (), [], compile_seconds, 0.0, seed)
    _execute(result, module, _entry(module, FUNC_NAME), job.options.hw, options)
    return result


def _execute(
    result: RunResult,
    module: ModuleOp,
    entry: func.FuncOp,
    hw: HwConfig,
    options: RunOptions,
) -> None:
    """Run ``entry`` of ``module`` on ``result.inputs`` as ``options`` say; fill ``result``."""
    start = time.perf_counter()
    progress = LoopProgress() if options.progress else None
    budget = Budget(options.max_iterations, options.max_seconds, progress)
    try:
        if options.cost == "cost-only":
            if _has_api_calls(module):
                # The model times hardware instructions: lower the API calls as the pipeline does.
                module = compile_from(module, "api", CompileOptions.create(hw=hw))
            costs = COST_ONLY.predict(
                module,
                hw,
                entry=entry.sym_name.data,
                cycle_limit=options.cycle_limit,
                budget=budget,
            )
        else:
            with collector.fewer_collections():
                result.outputs, costs = _interpret(
                    module, entry, result.inputs, hw, options, budget
                )
    except KeyboardInterrupt:
        if budget.loop is None:
            raise
        raise Interrupted(budget.loop) from None
    finally:
        if progress is not None:
            progress.close()
    result.run_seconds = time.perf_counter() - start
    count_problem_flops(costs, result.problem)
    if costs:  # the dW kernel's report carries the whole operator's kernels
        costs[-1].operator = operator_cost(entry, costs, costs[-1].figures)
    result.costs = costs


def _has_api_calls(module: ModuleOp) -> bool:
    return any(isinstance(op, api_level.OPS) for op in module.walk())


@dataclass
class _OpTracker(Interpreter.Listener):
    """Which op the interpreter is in: ops started and not finished, innermost last. After an
    exception its last entry is the op that failed (a launch, for an end-of-kernel error)."""

    stack: list[Operation] = field(default_factory=list)

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        self.stack.append(op)

    def did_interpret_op(self, op: Operation, results: PythonValues) -> None:
        self.stack.pop()


def _interpret(
    module: ModuleOp,
    entry: func.FuncOp,
    inputs: Sequence[np.ndarray],
    hw: HwConfig,
    options: RunOptions,
    budget: Budget,
) -> tuple[tuple[Any, ...], list[CostReport]]:
    interpreter, functions = build_interpreter(
        module,
        hw.name,
        options.sanitizer,
        progress=options.progress,
        executor=options.executor,
        timed=options.cost == "full",
        budget=budget,
    )
    tracker = _OpTracker()
    interpreter.listeners = (*interpreter.listeners, tracker)
    try:
        with _one_blas_thread():
            outputs = tuple(interpreter.call_op(entry, tuple(inputs)))
    except Exception as e:
        # Keep the exception as it is (callers catch its type) and say where it happened.
        if getattr(e, "ascend_op", None) is None and tracker.stack:
            with contextlib.suppress(AttributeError):  # an exception type without a __dict__
                e.ascend_op = tracker.stack[-1]  # type: ignore[attr-defined]
        raise
    return outputs, list(functions.costs)


_BLAS: ThreadpoolController | None = None


def _one_blas_thread() -> contextlib.AbstractContextManager[Any]:
    """BLAS on one thread inside the block. The controller is made once per process: making
    one scans the libraries the process has loaded (0.2 to 1 ms, a twentieth of a thin
    layer's data run, at every run); numpy's BLAS, the only one a run calls, is loaded when
    numpy is imported, before any run."""
    global _BLAS
    if _BLAS is None:
        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _entry(module: ModuleOp, entry: str | func.FuncOp) -> func.FuncOp:
    if isinstance(entry, func.FuncOp):
        return entry
    function = find_function(module, entry)
    if function is None:
        raise ValueError(f"no function @{entry} in the module")
    return function


def compiled(problem: ConvBpFilterShape, options: CompileOptions) -> dict[str, ModuleOp]:
    """The module after each level for ``problem``, cached (the last 128 problems and options:
    compiling is deterministic; :func:`clear_compile_cache` frees them). A tiling file is read
    at every compile: it may have changed since the last.

    Safe to call from several threads: compiles take turns (``lowering.pipeline.BUILD_LOCK``
    says why), and the lookup waits for them, so threads asking for the same problem on a
    cold cache compile it once."""
    if options.tiling_file:
        return compile_levels(build_module(problem), options)
    with BUILD_LOCK:
        return _compiled(problem, options)


@lru_cache(maxsize=128)
def _compiled(problem: ConvBpFilterShape, options: CompileOptions) -> dict[str, ModuleOp]:
    return compile_levels(build_module(problem), options)


def clear_compile_cache() -> None:
    """Forget every cached compile (benchmarks keep their memory flat with it)."""
    _compiled.cache_clear()


def check_host_memory(problem: ConvBpFilterShape) -> None:
    """Raise ``HostMemoryError`` (a ``ValueError``) before a full run of ``problem`` that
    would need more host memory than the machine has (``runtime/machine/host_memory.py``)."""
    size = 2 if problem.dtype in ("f16", "bf16") else 4
    needed = tensor_bytes(
        [
            (problem.input_shape, size),
            (problem.grad_output_shape, size),
            (problem.weight_shape, 4),
        ]
    )
    check_host_bytes(
        int(needed * RUN_FACTOR),
        f"a full run of x {'x'.join(map(str, problem.input_shape))}",
        "model its cost without its data (model_cost, ascend-conv --cost-only)",
    )


def random_inputs(problem: ConvBpFilterShape, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Seeded standard-normal x and dy of ``problem``, in its element type."""
    dtype = dtypes.of_name(problem.dtype)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(problem.input_shape, dtype=np.float32).astype(dtype)
    dy = rng.standard_normal(problem.grad_output_shape, dtype=np.float32).astype(dtype)
    return x, dy
