"""The forward convolution on the simulator: ``conv3d`` with ``torch.nn.functional.conv3d``
semantics, computed by compiling ``ascend.conv3d`` to the hardware level
(``lowering/lower_api_to_hw/conv3d_walk.py``) and running that program on the data machine.

``run_conv3d`` does the same and returns the IR of every level and the cost model's report of
each launch next to the result. Both go through the runner (``runtime/runner.py``) as a
``ModuleJob``, so the executors, the cost model and the sanitizer are the ones dW uses.

The hardware lowering walks one group (``groups`` 1), so a grouped convolution runs as one
launch per group on its slice of channels, as a framework splits a grouped conv it has no
grouped kernel for; the launches' costs are reported one by one and their cycles add up.
A bias goes through the bias table: torch's bias (the input's type) becomes the Conv3D API's
(half with half, float with bfloat16_t: exact), and each group's launch takes its slice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.lowering.build import (
    FORWARD_FUNC_NAME,
    build_forward_module,
    shape_from_torch_args,
)
from ascend_xdsl.lowering.options import CompileOptions, load_target
from ascend_xdsl.lowering.pipeline import BUILD_LOCK, compile_levels
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.machine import dtypes
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.runner import ModuleJob, RunOptions, run
from ascend_xdsl.runtime.tensors import (
    CASTS,
    _conversion_hint,
    _tensor_to_numpy,
    as_tensor_like,
    is_tensor,
)

__all__ = ["Conv3dResult", "conv3d", "forward_levels", "run_conv3d"]

IntOr3 = int | Sequence[int]
_CACHE: dict[tuple[str, ConvBpFilterShape, str, int | None, str], dict[str, ModuleOp]] = {}
_CACHE_SIZE = 32


@dataclass(frozen=True)
class Conv3dResult:
    """What :func:`run_conv3d` gives: the output (as the inputs were given: a numpy array or
    a torch tensor, in their type), the problem of one group, the modules of every level (of
    one group's launch) and the cost report of each launch (one per group; none uncosted)."""

    output: Any
    problem: ConvBpFilterShape
    modules: dict[str, ModuleOp]
    costs: list[CostReport] = field(default_factory=list)
    run_seconds: float = 0.0

    @property
    def cycles(self) -> float | None:
        """Modelled cycles of the whole forward (the launches run one after another)."""
        return sum(c.cycles for c in self.costs) if self.costs else None

    def __repr__(self) -> str:
        kind = type(self.output).__module__.split(".")[0]
        cycles = "None" if self.cycles is None else f"<{self.cycles:,.0f} cycles>"
        shape = "x".join(map(str, self.output.shape))
        return f"Conv3dResult(output={kind} {shape}, problem={self.problem!r}, cost={cycles})"


def _array(name: str, value: Any, cast: str | None) -> np.ndarray:
    array = _tensor_to_numpy(name, value) if is_tensor(value) else np.asarray(value)
    if cast is not None:
        if cast not in CASTS:
            raise ValueError(f"cast must be one of {', '.join(map(repr, CASTS))} or None")
        return array.astype(dtypes.of_name(cast))
    if not dtypes.is_cube_type(array.dtype):
        kind = f"a {value.dtype} tensor" if is_tensor(value) else f"a {array.dtype} array"
        raise TypeError(_conversion_hint(name, kind, is_tensor(value)))
    return array


def arrays_5d(
    op: str, first: tuple[str, Any], second: tuple[str, Any], cast: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """The two operands ``(name, value)`` of ``op`` as numpy arrays (:func:`_array`), checked
    to have one type and 5 dimensions each (shared with ``runtime/input_grad.py``)."""
    (a_name, a_value), (b_name, b_value) = first, second
    a, b = _array(a_name, a_value, cast), _array(b_name, b_value, cast)
    if a.dtype != b.dtype:
        raise TypeError(
            f"{a_name} and {b_name} must have the same type, got {a.dtype} and {b.dtype}"
        )
    if a.ndim != 5 or b.ndim != 5:
        raise ValueError(f"{op} takes a 5-D {a_name} and {b_name}, got {a.ndim}-D and {b.ndim}-D")
    return a, b


def random_forward_inputs(
    problem: ConvBpFilterShape, seed: int = 0, bias: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Seeded standard-normal x, weight and (with ``bias``) bias (Cout,) of ``problem``, in
    its element type, drawn in that order: what ``ascend-conv forward --seed [--bias]`` runs
    and an emitted forward project's ``data.py`` makes."""
    rng = np.random.default_rng(seed)
    dtype = dtypes.of_name(problem.dtype)
    x = rng.standard_normal(problem.input_shape).astype(dtype)
    w = rng.standard_normal(problem.weight_shape).astype(dtype)
    b = rng.standard_normal(problem.cout).astype(dtype) if bias else None
    return x, w, b


def forward_levels(
    problem: ConvBpFilterShape,
    hw: str | HwConfig = DEFAULT_HW,
    cores: int | None = None,
    tiling: str = "heuristic",
    *,
    bias: bool = False,
    use_cache: bool = True,
    progress: bool = False,
) -> dict[str, ModuleOp]:
    """The module after each level of the forward conv of ``problem`` (groups 1), with a bias
    argument when ``bias``, cached per problem, target, cores, bias and ``tiling``
    (``heuristic``, ``tuned``: the forward search of ``tuning/conv3d_search.py`` through the
    tiler, or ``fixed:FILE``, read each time: the file may change). ``use_cache`` False:
    ``tuned`` searches again (and the levels are compiled again); ``progress``: the search's
    bar on standard error when a terminal."""
    build = _build_forward_with_bias if bias else build_forward_module
    return cached_levels(build, problem, hw, cores, tiling, use_cache=use_cache, progress=progress)


def _build_forward_with_bias(problem: ConvBpFilterShape) -> ModuleOp:
    """The forward's op-level module with its bias argument (a builder of its own name, which
    is part of :func:`cached_levels`'s key)."""
    return build_forward_module(problem, bias=True)


def cached_levels(
    build: Callable[[ConvBpFilterShape], ModuleOp],
    problem: ConvBpFilterShape,
    hw: str | HwConfig = DEFAULT_HW,
    cores: int | None = None,
    tiling: str = "heuristic",
    *,
    use_cache: bool = True,
    progress: bool = False,
) -> dict[str, ModuleOp]:
    """The module after each level of the op-level module ``build(problem)``, cached per
    builder (the conv op, with or without its bias), problem, target, cores and tiling
    strategy (shared with the input gradient's ``runtime/input_grad.py``); a ``fixed:FILE``
    tiling is compiled each time."""
    target = load_target(hw)
    key = (build.__name__, problem, target.name, cores, tiling)
    with BUILD_LOCK:
        hit = _CACHE.get(key) if use_cache else None
        if hit is None:
            options = CompileOptions.create(
                hw=target, cores=cores, tiling=tiling, use_cache=use_cache, progress=progress
            )
            hit = compile_levels(build(problem), options)
            if len(_CACHE) >= _CACHE_SIZE:
                _CACHE.clear()
            if not tiling.startswith("fixed"):
                _CACHE[key] = hit
        return hit


def run_conv3d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
    *,
    hw: str | HwConfig = DEFAULT_HW,
    cores: int | None = None,
    tiling: str = "heuristic",
    executor: str = "compiled",
    cost: bool = True,
    sanitizer: Sanitizer | None = None,
    max_iterations: int | None = None,
    cast: str | None = None,
) -> Conv3dResult:
    """Compile and run the forward conv on the hardware-level program; with ``cost`` (the
    default) each launch is also timed by the cost model. Arguments as :func:`conv3d`;
    ``sanitizer`` checks the run's synchronisation (its hazards stay on it); ``tiling`` as
    :func:`forward_levels`."""
    if is_tensor(input) != is_tensor(weight) or (
        bias is not None and is_tensor(bias) != is_tensor(input)
    ):
        raise TypeError("input, weight and bias must all be torch tensors or all numpy arrays")
    x, w = arrays_5d("conv3d", ("input", input), ("weight", weight), cast)
    whole = shape_from_torch_args(
        x.shape, w.shape, stride, padding, dilation, groups, dtypes.name_of(x.dtype)
    )
    b = None if bias is None else _bias(bias, x.dtype, w.shape[0], cast)
    cin_g, cout_g = x.shape[1] // groups, w.shape[0] // groups
    problem = replace(whole, cin=cin_g, cout=cout_g, groups=1)
    modules = forward_levels(problem, hw, cores, tiling, bias=b is not None)

    def group_args(g: int) -> tuple[np.ndarray, ...]:
        xg = np.ascontiguousarray(x[:, g * cin_g : (g + 1) * cin_g])
        wg = np.ascontiguousarray(w[g * cout_g : (g + 1) * cout_g])
        return (xg, wg) if b is None else (xg, wg, b[g * cout_g : (g + 1) * cout_g].copy())

    return run_groups(
        modules,
        FORWARD_FUNC_NAME,
        problem,
        groups,
        group_args,
        input,
        hw=hw,
        cost=cost,
        executor=executor,
        sanitizer=sanitizer,
        max_iterations=max_iterations,
    )


def run_groups(
    modules: dict[str, ModuleOp],
    func_name: str,
    problem: ConvBpFilterShape,
    groups: int,
    group_args: Callable[[int], tuple[np.ndarray, ...]],
    like: Any,
    *,
    hw: str | HwConfig,
    cost: bool,
    executor: str,
    sanitizer: Sanitizer | None,
    max_iterations: int | None,
) -> Conv3dResult:
    """One launch of the hardware-level ``func_name`` per group on ``group_args(g)`` (the
    group's slices), the outputs joined along the channels and given back as ``like`` was
    (shared with the input gradient's ``runtime/input_grad.py``)."""
    target = load_target(hw)
    outputs, costs, seconds = [], [], 0.0
    for g in range(groups):
        result = run(
            ModuleJob(modules["hw"], target, func_name, group_args(g), problem),
            RunOptions(
                cost="full" if cost else "none",
                executor=executor,
                sanitizer=sanitizer,
                max_iterations=max_iterations,
                progress=False,
            ),
        )
        outputs.append(np.asarray(result.outputs[0]))
        costs.extend(result.costs)
        seconds += result.run_seconds
    y = outputs[0] if groups == 1 else np.concatenate(outputs, axis=1)
    return Conv3dResult(_like(y, like), problem, modules, costs, seconds)


def _bias(bias: Any, dtype: np.dtype, cout: int, cast: str | None) -> np.ndarray:
    """torch's bias (Cout,) in the input's type, as the Conv3D API takes it: half with a half
    input, float with a bfloat16 one (exact; ``op_level.BIAS_ELEMENT_TYPE``)."""
    b = _array("bias", bias, cast)
    if b.dtype != dtype:
        raise TypeError(f"bias must have the input's type {dtype}, got {b.dtype}")
    if b.shape != (cout,):
        raise ValueError(f"bias shape {tuple(b.shape)} must be ({cout},) (Cout of the weight)")
    return b.astype(np.float16 if dtype == np.float16 else np.float32)


def _like(y: np.ndarray, input: Any) -> Any:
    """``y`` as the caller gave ``input``: a numpy array, or a torch tensor of the input's
    type on its device."""
    if not is_tensor(input):
        return y
    return as_tensor_like(y.astype(np.float32), input, input.dtype)


def conv3d(
    input: Any,
    weight: Any,
    bias: Any = None,
    stride: IntOr3 = 1,
    padding: IntOr3 = 0,
    dilation: IntOr3 = 1,
    groups: int = 1,
    *,
    hw: str | HwConfig = DEFAULT_HW,
    tiling: str = "heuristic",
    executor: str = "compiled",
    max_iterations: int | None = None,
    cast: str | None = None,
) -> Any:
    """y like ``torch.nn.functional.conv3d(input, weight, bias, stride, padding, dilation,
    groups)``.

    ``input`` (N, Cin, D, H, W) and ``weight`` (Cout, Cin/groups, kD, kH, kW) are float16 or
    ml_dtypes.bfloat16 numpy arrays, or torch float16 / bfloat16 tensors (y is then a tensor of
    the same type on the input's device); other types raise ``TypeError`` naming the
    conversion, unless ``cast`` asks to round them. stride, padding and dilation are an int or
    3 values (padding also 6: front, back, up, down, left, right). y is accumulated in float32
    on the Cube and rounded to the input type (nearest even) by the fixpipe. A bad problem
    raises ``ValueError`` with the CLI's one-line message. ``bias`` (Cout,) has the input's
    type and goes through the bias table (float on the Cube, as a bfloat16 input's bias is).
    ``tiling``: ``heuristic`` (default), ``tuned`` (the forward tiling search, cached on disk:
    docs/passes.md, "tuned (forward)") or ``fixed:FILE``."""
    return run_conv3d(
        input,
        weight,
        bias,
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
    ).output
