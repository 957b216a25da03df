"""The input gradient (dX) on the simulator: ``conv3d_input`` with
``torch.nn.grad.conv3d_input`` semantics, computed by compiling ``ascend.conv3d_backprop_input``
to the hardware level (``lowering/lower_api_to_hw/conv3d_bp_input_walk.py``) and running that
program on the data machine.

``run_conv3d_input`` does the same and returns the IR of every level and the cost model's report
of each launch next to the result. The module beside it, ``runtime/forward.py``, does the same
for the forward conv; the two share the argument checks, the cache of compiled levels and the
shape of the result (:class:`~ascend_xdsl.runtime.forward.Conv3dResult`).

The hardware lowering walks one group, so a grouped dX runs as one launch per group on its
slice of channels (dy's and dX's channels, the weight's output channels), as the forward does;
the launches' costs are reported one by one and their cycles add up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.lowering.build import (
    INPUT_GRAD_FUNC_NAME,
    ConvProblemError,
    build_input_grad_module,
    shape_from_torch_args,
)
from ascend_xdsl.runtime.forward import (
    Conv3dResult,
    arrays_5d,
    cached_levels,
    run_groups,
)
from ascend_xdsl.runtime.machine import dtypes
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.tensors import is_tensor

__all__ = ["conv3d_input", "input_grad_levels", "random_input_grad_inputs", "run_conv3d_input"]

IntOr3 = int | Sequence[int]


def input_grad_levels(
    problem: ConvBpFilterShape,
    hw: str | HwConfig = DEFAULT_HW,
    cores: int | None = None,
    tiling: str = "heuristic",
    *,
    use_cache: bool = True,
    progress: bool = False,
) -> dict[str, ModuleOp]:
    """The module after each level of the input gradient of ``problem`` (groups 1), cached per
    problem, target, cores and ``tiling`` (``heuristic``, ``tuned``: the dX search of
    ``tuning/conv3d_bp_input_search.py`` through the tiler, or ``fixed:FILE``, read each time).
    ``use_cache`` False: ``tuned`` searches again; ``progress``: the search's bar on standard
    error when a terminal (as ``runtime/forward.forward_levels``)."""
    return cached_levels(
        build_input_grad_module,
        problem,
        hw,
        cores,
        tiling,
        use_cache=use_cache,
        progress=progress,
    )


def _input_size(input_size: Any) -> tuple[int, int, int, int, int]:
    try:
        size = tuple(int(v) for v in input_size)
    except (TypeError, ValueError):
        raise ValueError(f"input_size must be 5 integers, got {input_size!r}") from None
    if len(size) != 5:
        raise ValueError(f"input_size must be 5 integers (N, Cin, D, H, W), got {list(size)}")
    return size  # type: ignore[return-value]


def random_input_grad_inputs(
    problem: ConvBpFilterShape, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Seeded standard-normal weight and dy of ``problem``, in its element type: what
    ``ascend-conv bp-input --seed`` runs and an emitted dX project's ``data.py`` makes."""
    rng = np.random.default_rng(seed)
    dtype = dtypes.of_name(problem.dtype)
    w = rng.standard_normal(problem.weight_shape).astype(dtype)
    dy = rng.standard_normal(problem.grad_output_shape).astype(dtype)
    return w, dy


def run_conv3d_input(
    input_size: Any,
    weight: Any,
    grad_output: Any,
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
    """Compile and run dX on the hardware-level program; with ``cost`` (the default) each
    launch is also timed by the cost model. Arguments as :func:`conv3d_input`; ``sanitizer``
    checks the run's synchronisation (its hazards stay on it); ``tiling`` as
    :func:`input_grad_levels`."""
    if is_tensor(weight) != is_tensor(grad_output):
        raise TypeError("weight and grad_output must both be torch tensors or both numpy arrays")
    w, dy = arrays_5d("conv3d_input", ("weight", weight), ("grad_output", grad_output), cast)
    size = _input_size(input_size)
    whole = shape_from_torch_args(
        size, w.shape, stride, padding, dilation, groups, dtypes.name_of(w.dtype)
    )
    if tuple(dy.shape) != whole.grad_output_shape:
        raise ConvProblemError(
            f"grad_output shape {list(dy.shape)} does not match "
            f"{list(whole.grad_output_shape)} implied by input_size, weight and the stride, "
            "padding and dilation"
        )
    cin_g, cout_g = size[1] // groups, w.shape[0] // groups
    problem = replace(whole, cin=cin_g, cout=cout_g, groups=1)
    modules = input_grad_levels(problem, hw, cores, tiling)

    def group_args(g: int) -> tuple[np.ndarray, ...]:
        dyg = np.ascontiguousarray(dy[:, g * cout_g : (g + 1) * cout_g])
        return dyg, np.ascontiguousarray(w[g * cout_g : (g + 1) * cout_g])

    return run_groups(
        modules,
        INPUT_GRAD_FUNC_NAME,
        problem,
        groups,
        group_args,
        grad_output,
        hw=hw,
        cost=cost,
        executor=executor,
        sanitizer=sanitizer,
        max_iterations=max_iterations,
    )


def conv3d_input(
    input_size: Any,
    weight: Any,
    grad_output: Any,
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
    """dX like ``torch.nn.grad.conv3d_input(input_size, weight, grad_output, stride, padding,
    dilation, groups)``.

    ``input_size`` is the forward input's (N, Cin, D, H, W); ``weight`` (Cout, Cin/groups, kD,
    kH, kW) and ``grad_output`` (N, Cout, Do, Ho, Wo) are float16 or ml_dtypes.bfloat16 numpy
    arrays, or torch float16 / bfloat16 tensors (dX is then a tensor of the same type on
    grad_output's device); other types raise ``TypeError`` naming the conversion, unless
    ``cast`` asks to round them. stride, padding and dilation are an int or 3 values (padding
    also 6: front, back, up, down, left, right). dX is accumulated in float32 on the Cube and
    rounded to the input type (nearest even) by the fixpipe. ``tiling``: ``heuristic`` (the
    vendor's), ``tuned`` (the dX tiling search, cached on disk) or ``fixed:FILE``. A bad problem
    raises ``ValueError`` with the CLI's one-line message."""
    return run_conv3d_input(
        input_size,
        weight,
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
    ).output
