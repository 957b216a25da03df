"""The public Python API: ``conv3d_weight`` with ``torch.nn.grad.conv3d_weight`` semantics,
computed by compiling the dW kernel to the hardware level and interpreting that program.

``run_conv3d_weight`` does the same and returns the IR of every level and the modelled cost
next to the result. Both go through the runner (``runtime/runner.py``), the front door that
``ascend-conv`` and ``ascend-run`` use too: compiled with the typed compile options
(``lowering/options.py``) and cached per problem and options, so repeated calls only
interpret. ``interpret``, ``model_cost`` and ``run_compiled`` run a module already compiled,
through the same runner. This module is the public entry point of the runtime and, like the
tools, uses the compiler; the interpreter itself never imports a pass.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.ir.program import op_count
from ascend_xdsl.lowering.build import FUNC_NAME, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions, Override, load_target, override_text
from ascend_xdsl.passes.tiling_options import using_search_workers
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.machine import dtypes
from ascend_xdsl.runtime.reports.check import CheckResult, NonFiniteInputWarning, non_finite_note
from ascend_xdsl.runtime.runner import (
    CompileJob,
    ModuleJob,
    RunOptions,
    check_host_memory,
    compiled,
    random_inputs,
    run,
)
from ascend_xdsl.runtime.tensors import as_inputs

__all__ = [
    "Conv3dWeightResult",
    "KernelRun",
    "Override",
    "check_host_memory",
    "compiled_levels",
    "conv3d_weight",
    "interpret",
    "interpret_timed",
    "model_cost",
    "override_text",
    "problem_of",
    "random_inputs",
    "run_compiled",
    "run_conv3d_weight",
]

IntOr3 = int | Sequence[int]


class LevelCopies(Mapping[str, ModuleOp]):
    """The module of each level, as the caller's own copies.

    The runner hands out the modules of its compile cache, which the next call of the same
    problem runs: a caller who edits them (erases the launch) would change what that call
    computes. Each level is cloned the first time it is looked up, so ``conv3d_weight``, which
    never looks, pays nothing."""

    def __init__(self, modules: Mapping[str, ModuleOp]) -> None:
        self._cached = dict(modules)
        self._copies: dict[str, ModuleOp] = {}

    def __getitem__(self, level: str) -> ModuleOp:
        if level not in self._copies:
            self._copies[level] = self._cached[level].clone()
        return self._copies[level]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cached)

    def __len__(self) -> int:
        return len(self._cached)


@dataclass
class Conv3dWeightResult:
    """What one run gives: dW (float32, (Cout, Cin/g, kD, kH, kW)), the IR of each level (the
    caller's own copies, :class:`LevelCopies`), and the modelled cost of the hardware-level
    program on the target (None for other levels)."""

    grad_weight: Any
    """A numpy array, or a torch tensor when the inputs were tensors."""
    problem: ConvBpFilterShape
    modules: Mapping[str, ModuleOp] = field(default_factory=dict)
    cost: CostReport | None = None

    def __repr__(self) -> str:
        # The default repr prints every module in full (26 kB for a small layer): a notebook
        # wants one line, and the IR is one attribute away.
        dw = self.grad_weight
        kind = type(dw).__module__.split(".")[0]
        levels = ", ".join(f"{level}: {op_count(m)} ops" for level, m in self.modules.items())
        cost = "None" if self.cost is None else f"<{self.cost.cycles:,.0f} cycles>"
        return (
            f"Conv3dWeightResult(grad_weight={kind} {str(dw.dtype).removeprefix('torch.')} "
            f"{'x'.join(map(str, dw.shape))}, problem={self.problem!r}, "
            f"modules={{{levels}}}, cost={cost})"
        )


def problem_of(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
) -> ConvBpFilterShape:
    """The checked problem of torch-style arguments (numpy arrays or torch tensors, see
    ``runtime/tensors.py``); raises ``ValueError`` naming the problem."""
    inputs = as_inputs(input, grad_output)
    x, dy = inputs.x, inputs.dy
    problem = shape_from_torch_args(
        x.shape, weight_size, stride, padding, dilation, groups, dtypes.name_of(x.dtype)
    )
    if tuple(dy.shape) != problem.grad_output_shape:
        raise ValueError(
            f"grad_output shape {list(dy.shape)} does not match {list(problem.grad_output_shape)} "
            "implied by input, weight_size, stride, padding and dilation"
        )
    return problem


def compiled_levels(
    problem: ConvBpFilterShape,
    hw_name: str,
    tiling: str,
    cores: int | None,
    override: str,
    dk: str = "separate",
) -> Mapping[str, ModuleOp]:
    """The module after each level for ``problem``, the caller's own copies
    (:class:`LevelCopies`) of what the runner caches (compiling is deterministic;
    ``runtime.runner.clear_compile_cache()`` frees them)."""
    options = CompileOptions.create(
        hw=hw_name, cores=cores, tiling=tiling, override=override, dk=dk
    )
    return LevelCopies(compiled(problem, options))


def interpret(
    module: ModuleOp,
    hw: str | HwConfig,
    x: np.ndarray,
    dy: np.ndarray,
    executor: str = "compiled",
    max_iterations: int | None = None,
) -> np.ndarray:
    """Run the entry function of a compiled module on ``x`` and ``dy``; float32 dW.

    ``executor``: ``"compiled"`` translates each launched kernel to Python once (cached with
    the module), ``"interp"`` runs it op by op in xDSL's interpreter; both give the same bits.
    The run may take ``max_iterations`` loop iterations (``runtime/machine/budget.py``; None:
    the default), else it raises ``BudgetExceeded``."""
    return interpret_timed(module, hw, x, dy, executor, timed=False, max_iterations=max_iterations)[
        0
    ]


def interpret_timed(
    module: ModuleOp,
    hw: str | HwConfig,
    x: np.ndarray,
    dy: np.ndarray,
    executor: str = "compiled",
    timed: bool = True,
    max_iterations: int | None = None,
) -> tuple[np.ndarray, CostReport | None]:
    """:func:`interpret`, and with ``timed`` the cost model's report of the launch (the exact
    timeline of every instruction of every core, ``runtime/cost/report.py``)."""
    result = run(
        ModuleJob(module, load_target(hw), FUNC_NAME, (x, dy)),
        RunOptions(
            cost="full" if timed else "none", executor=executor, max_iterations=max_iterations
        ),
    )
    return result.grad_weight, result.cost


def run_conv3d_weight(
    input: np.ndarray,
    weight_size: Sequence[int],
    grad_output: np.ndarray,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
    *,
    hw: str | HwConfig = DEFAULT_HW,
    tiling: str = "heuristic",
    cores: int | None = None,
    override: Override = "",
    dk: str = "separate",
    level: str = "hw",
    executor: str = "compiled",
    cost: bool = True,
    max_iterations: int | None = None,
    cast: str | None = None,
    tune_workers: int | None = None,
) -> Conv3dWeightResult:
    """Compile and run the dW kernel, executing the program of ``level`` (default: hw) with
    ``executor`` (``"compiled"`` or ``"interp"``, see :func:`interpret`); with ``cost`` (the
    default) the hardware-level run is also timed by the cost model (``.cost``; it about
    doubles the run time, which ``conv3d_weight`` does not pay). ``tiling`` is
    ``"heuristic"``, ``"tuned"`` (the search of ``tuning/``, cached on disk) or
    ``"fixed:FILE"``; ``override`` is ``"FIELD=N ..."``, a sequence of ``"FIELD=N"`` or a
    mapping of fields to integers; the inputs, ``cast``, the errors, warnings and
    ``max_iterations`` are those of :func:`conv3d_weight` (``grad_weight`` is a torch tensor
    when the inputs are); so is ``tune_workers``."""
    inputs = as_inputs(input, grad_output, cast)
    problem = problem_of(inputs.x, weight_size, inputs.dy, stride, padding, dilation, groups)
    note = non_finite_note(inputs.x, inputs.dy)
    options = CompileOptions.create(hw=hw, cores=cores, tiling=tiling, override=override, dk=dk)
    if note is not None:
        warnings.warn(note, NonFiniteInputWarning, stacklevel=2)
    with using_search_workers(tune_workers):
        result = run(
            CompileJob(problem, options, level, (inputs.x, inputs.dy)),
            RunOptions(
                cost="full" if cost and level == "hw" else "none",
                executor=executor,
                max_iterations=max_iterations,
            ),
        )
    return Conv3dWeightResult(
        inputs.result(result.grad_weight), problem, LevelCopies(result.modules), result.cost
    )


def model_cost(
    module: ModuleOp,
    hw: str | HwConfig = DEFAULT_HW,
    entry: str = FUNC_NAME,
    problem: ConvBpFilterShape | None = None,
    max_iterations: int | None = None,
    cycle_limit: float = math.inf,
) -> list[CostReport]:
    """The cost-only mode: the cost report of every launch of ``entry`` without running its
    data (``runtime/cost/cost_only.py``: no tensors, no core memory, loops extrapolated where
    their iterations repeat). FLOPs are those of the dW formula of ``problem``, or of the
    problem ``entry`` computes when it is one (``ir/program.conv_problem``). ``cycle_limit``:
    raise ``CycleLimitExceeded`` as soon as a launch is sure to take longer."""
    result = run(
        ModuleJob(module, load_target(hw), entry, problem=problem),
        RunOptions(cost="cost-only", max_iterations=max_iterations, cycle_limit=cycle_limit),
    )
    return result.costs


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
    modules: Mapping[str, ModuleOp],
    problem: ConvBpFilterShape,
    *,
    hw: str | HwConfig,
    seed: int = 0,
    executor: str = "compiled",
    max_iterations: int | None = None,
) -> KernelRun:
    """Interpret the hardware-level program of ``modules`` on seeded random inputs, timed, and
    check it against the reference."""
    check_host_memory(problem)
    result = run(
        ModuleJob(modules["hw"], load_target(hw), FUNC_NAME, random_inputs(problem, seed), problem),
        RunOptions(executor=executor, max_iterations=max_iterations),
    )
    return KernelRun(result.grad_weight, result.run_seconds, result.check(), seed, result.cost)


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
    cast: str | None = None,
    tune_workers: int | None = None,
) -> Any:
    """dW like ``torch.nn.grad.conv3d_weight(input, weight_size, grad_output, ...)``.

    ``input`` (N, Cin, D, H, W) and ``grad_output`` (N, Cout, Do, Ho, Wo) are float16 or
    ml_dtypes.bfloat16 numpy arrays, or torch float16 or bfloat16 tensors (contiguous or not;
    dW is then a float32 torch tensor on the device of ``input``). Other types (float32) raise
    ``TypeError`` naming the conversion, unless ``cast="f16"`` or ``cast="bf16"`` asks to round
    them (``runtime/tensors.py``). stride, padding and dilation are an int or 3 values
    (padding also 6 values: front, back, up, down, left, right). Returns float32 dW of shape
    ``weight_size``, computed by the hardware-level program on every AI core of ``hw``.

    Integers may be any integer-like values (numpy integers) and sequences any sequence-like
    (lists, tuples, numpy arrays), as torch takes them; a wrong kind raises ``TypeError``, a
    bad value ``ValueError`` (``ConvProblemError``, ``PipelineError`` and its ``CompileError``,
    ``HostMemoryError`` for a layer beyond the machine's memory), with the messages the CLI
    prints. Inputs with an Inf or NaN warn (``NonFiniteInputWarning``, docs/runtime.md). The
    run may take ``max_iterations`` loop iterations (``runtime/machine/budget.py``, default 10**8).
    ``tiling="tuned"`` searches (when the cache has no answer) in ``tune_workers`` processes
    (default 1: this one only); the tiling found is the same for every count.
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
        cast=cast,
        tune_workers=tune_workers,
    ).grad_weight
