"""The public Python API: ``conv3d_weight`` with ``torch.nn.grad.conv3d_weight`` semantics,
computed by compiling the dW kernel to the hardware level and interpreting that program.

``run_conv3d_weight`` does the same and returns the IR of every level next to the result.
Compilation goes through the same front door as ``ascend-conv`` (``lowering/build.py`` and
``lowering/pipeline.compile``) and is cached per problem and options, so repeated calls only
interpret. This module is the public entry point of the runtime and, like the tools, uses the
compiler; the interpreter itself (``interpreter.py``) never imports a pass.
"""

from __future__ import annotations

import math
import operator
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

import ml_dtypes
import numpy as np
from threadpoolctl import threadpool_limits
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.lowering.build import FUNC_NAME, build_module, shape_from_torch_args
from ascend_xdsl.lowering.pipeline import LEVELS
from ascend_xdsl.lowering.pipeline import compile as compile_module
from ascend_xdsl.runtime.cost.model import COST_ONLY
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.executors.interpreter import build_interpreter
from ascend_xdsl.runtime.machine.host_memory import RUN_FACTOR, check_host_bytes, tensor_bytes
from ascend_xdsl.runtime.reports.check import (
    CheckResult,
    NonFiniteInputWarning,
    check,
    non_finite_note,
)

IntOr3 = int | Sequence[int]

_DTYPES = {np.dtype(np.float16): "f16", np.dtype(ml_dtypes.bfloat16): "bf16"}


@dataclass
class Conv3dWeightResult:
    """What one run gives: dW (float32, (Cout, Cin/g, kD, kH, kW)), the IR of each level, and
    the modelled cost of the hardware-level program on the target (None for other levels)."""

    grad_weight: np.ndarray
    problem: ConvBpFilterShape
    modules: dict[str, ModuleOp] = field(default_factory=dict)
    cost: CostReport | None = None


Override = str | Mapping[str, int] | Sequence[str]
"""Tiling fields to replace: ``"base_k=64 iterate_order=1"``, ``["base_k=64", ...]`` or
``{"base_k": 64, ...}``."""


def override_text(override: Override) -> str:
    """``override`` in the pipeline's one spelling, ``"FIELD=N FIELD=N"``; ``TypeError`` for
    anything else."""
    if isinstance(override, str):
        return override
    if isinstance(override, Mapping):
        items = [f"{k}={operator.index(v)}" for k, v in override.items()]
    elif isinstance(override, Sequence) and all(isinstance(v, str) for v in override):
        items = list(override)
    else:
        raise TypeError(
            'override must be "FIELD=N ...", a sequence of "FIELD=N" or a mapping of fields '
            f"to integers, got {override!r}"
        )
    return " ".join(items)


def _cores(cores: object) -> int | None:
    if cores is None:
        return None
    if isinstance(cores, bool) or not hasattr(cores, "__index__"):
        raise TypeError(f"cores must be an integer or None, got {cores!r}")
    return operator.index(cores)


def problem_of(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
) -> ConvBpFilterShape:
    """The checked problem of torch-style arguments; raises ``ValueError`` naming the problem."""
    x, dy = np.asarray(input), np.asarray(grad_output)
    if x.dtype not in _DTYPES or dy.dtype != x.dtype:
        raise TypeError(
            f"input and grad_output must both be float16 or bfloat16, got {x.dtype} and {dy.dtype}"
        )
    problem = shape_from_torch_args(
        x.shape, weight_size, stride, padding, dilation, groups, _DTYPES[x.dtype]
    )
    if tuple(dy.shape) != problem.grad_output_shape:
        raise ValueError(
            f"grad_output shape {list(dy.shape)} does not match {list(problem.grad_output_shape)} "
            "implied by input, weight_size, stride, padding and dilation"
        )
    return problem


@cache
def compiled_levels(
    problem: ConvBpFilterShape,
    hw: str,
    tiling: str,
    cores: int | None,
    override: str,
    dk: str = "separate",
) -> dict[str, ModuleOp]:
    """The module after each level for ``problem`` (cached: compiling is deterministic)."""
    return compile_module(
        build_module(problem), hw=hw, tiling=tiling, core_num=cores, override=override, dk=dk
    )


def interpret(
    module: ModuleOp,
    hw: str,
    x: np.ndarray,
    dy: np.ndarray,
    executor: str = "compiled",
    max_iterations: int | None = None,
) -> np.ndarray:
    """Run the entry function of a compiled module on ``x`` and ``dy``; float32 dW.

    ``executor``: ``"compiled"`` translates each launched kernel to Python once (cached with
    the module), ``"interp"`` runs it op by op in xDSL's interpreter; both give the same bits.
    Single-threaded BLAS inside the run: the kernel's GEMMs are small and many, and OpenBLAS
    threads made loaded runs ten times slower. The run may take ``max_iterations`` loop
    iterations (``runtime/machine/budget.py``; None: the default), else it raises
    ``BudgetExceeded``."""
    return interpret_timed(module, hw, x, dy, executor, timed=False, max_iterations=max_iterations)[
        0
    ]


def interpret_timed(
    module: ModuleOp,
    hw: str,
    x: np.ndarray,
    dy: np.ndarray,
    executor: str = "compiled",
    timed: bool = True,
    max_iterations: int | None = None,
) -> tuple[np.ndarray, CostReport | None]:
    """:func:`interpret`, and with ``timed`` the cost model's report of the launch (the exact
    timeline of every instruction of every core, ``runtime/cost/report.py``)."""
    interpreter, functions = build_interpreter(
        module, hw, executor=executor, timed=timed, max_iterations=max_iterations
    )
    with threadpool_limits(limits=1, user_api="blas"):
        (dw,) = interpreter.call_op(FUNC_NAME, (x, dy))
    costs = functions.costs
    return np.asarray(dw, dtype=np.float32), (costs[-1] if timed and costs else None)


def run_conv3d_weight(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
    *,
    hw: str = DEFAULT_HW,
    tiling: str = "heuristic",
    cores: int | None = None,
    override: Override = "",
    dk: str = "separate",
    level: str = "hw",
    executor: str = "compiled",
    cost: bool = True,
    max_iterations: int | None = None,
) -> Conv3dWeightResult:
    """Compile and run the dW kernel, executing the program of ``level`` (default: hw) with
    ``executor`` (``"compiled"`` or ``"interp"``, see :func:`interpret`); with ``cost`` (the
    default) the hardware-level run is also timed by the cost model (``.cost``; it about
    doubles the run time, which ``conv3d_weight`` does not pay). ``override`` is
    ``"FIELD=N ..."``, a sequence of ``"FIELD=N"`` or a mapping of fields to integers; the
    errors, warnings and ``max_iterations`` are those of :func:`conv3d_weight`."""
    if level not in LEVELS:
        raise ValueError(f"unknown level '{level}' (expected one of {', '.join(LEVELS)})")
    problem = problem_of(input, weight_size, grad_output, stride, padding, dilation, groups)
    check_host_memory(problem)
    note = non_finite_note(input, grad_output)
    if note is not None:
        warnings.warn(note, NonFiniteInputWarning, stacklevel=2)
    levels = compiled_levels(problem, hw, tiling, _cores(cores), override_text(override), dk)
    dw, report = interpret_timed(
        levels[level],
        hw,
        np.asarray(input),
        np.asarray(grad_output),
        executor,
        cost and level == "hw",
        max_iterations,
    )
    if report is not None:
        report.flops = 2.0 * problem.macs
    return Conv3dWeightResult(dw, problem, dict(levels), report)


def model_cost(
    module: ModuleOp,
    hw: str = DEFAULT_HW,
    entry: str = FUNC_NAME,
    problem: ConvBpFilterShape | None = None,
    max_iterations: int | None = None,
    cycle_limit: float = math.inf,
) -> list[CostReport]:
    """The cost-only mode: the cost report of every launch of ``entry`` without running its
    data, from the cost model ``runtime/cost/model.COST_ONLY`` (``runtime/cost/cost_only.py``:
    no tensors, no core memory, loops extrapolated where their iterations repeat). With
    ``problem``, FLOPs are those of its dW formula. ``cycle_limit``: raise
    ``CycleLimitExceeded`` as soon as a launch is sure to take longer."""
    reports = COST_ONLY.predict(
        module, load_hw(hw), entry=entry, max_iterations=max_iterations, cycle_limit=cycle_limit
    )
    if problem is not None:
        for report in reports:
            report.flops = 2.0 * problem.macs
    return reports


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
    dtype = np.float16 if problem.dtype == "f16" else ml_dtypes.bfloat16
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(problem.input_shape, dtype=np.float32).astype(dtype)
    dy = rng.standard_normal(problem.grad_output_shape, dtype=np.float32).astype(dtype)
    return x, dy


@dataclass(frozen=True)
class KernelRun:
    """One run of a compiled hardware-level program on seeded random inputs, checked."""

    grad_weight: np.ndarray
    seconds: float
    check: CheckResult
    seed: int
    cost: CostReport | None = None
    """The modelled cost of the program on the target (the exact timeline)."""


def run_compiled(
    modules: dict[str, ModuleOp],
    problem: ConvBpFilterShape,
    *,
    hw: str,
    seed: int = 0,
    executor: str = "compiled",
    max_iterations: int | None = None,
) -> KernelRun:
    """Interpret the hardware-level program of ``modules`` on seeded random inputs and check it
    against the reference (the main job of ``ascend-conv``)."""
    check_host_memory(problem)
    x, dy = random_inputs(problem, seed)
    start = time.perf_counter()
    dw, cost = interpret_timed(modules["hw"], hw, x, dy, executor, max_iterations=max_iterations)
    seconds = time.perf_counter() - start
    if cost is not None:
        cost.flops = 2.0 * problem.macs
    return KernelRun(dw, seconds, check(problem, x, dy, dw), seed, cost)


def conv3d_weight(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
    *,
    hw: str = DEFAULT_HW,
    tiling: str = "heuristic",
    executor: str = "compiled",
    max_iterations: int | None = None,
) -> np.ndarray:
    """dW like ``torch.nn.grad.conv3d_weight(input, weight_size, grad_output, ...)``.

    ``input`` (N, Cin, D, H, W) and ``grad_output`` (N, Cout, Do, Ho, Wo) are float16 or
    ml_dtypes.bfloat16 numpy arrays; stride, padding and dilation are an int or 3 values
    (padding also 6 values: front, back, up, down, left, right). Returns float32 dW of shape
    ``weight_size``, computed by the hardware-level program on every AI core of ``hw``.

    Integers may be any integer-like values (numpy integers) and sequences any sequence-like
    (lists, tuples, numpy arrays), as torch takes them; a wrong kind raises ``TypeError``, a
    bad value ``ValueError`` (``ConvProblemError``, ``PipelineError`` and its ``CompileError``,
    ``HostMemoryError`` for a layer beyond the machine's memory), with the messages the CLI
    prints. Inputs with an Inf or NaN warn (``NonFiniteInputWarning``, docs/runtime.md). The
    run may take ``max_iterations`` loop iterations (``runtime/machine/budget.py``, default 10**8).
    """
    return run_conv3d_weight(
        input,
        weight_size,
        grad_output,
        stride,
        padding,
        dilation,
        groups,
        hw=hw,
        tiling=tiling,
        executor=executor,
        cost=False,
        max_iterations=max_iterations,
    ).grad_weight
