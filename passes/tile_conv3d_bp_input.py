"""``ascend-tile-conv3d-bp-input``: attach a ``#ascend.conv3d_bp_input_tiling`` to every
format-level ``ascend.conv3d_backprop_input`` (dX; the analogue of ``ascend-tile-conv3d``).

``strategy`` (the values of ``passes/tiling_options.STRATEGIES``, as for dW and the forward):

* ``heuristic`` (default) — the vendor's tiling, reproduced in
  ``passes/conv3d_bp_input_tiling_heuristic.py``. The vendor's API tiler uses its own constant
  buffer sizes and one core (see there), so the pass checks the result against the target's L0
  sizes instead. ``cores`` caps the kernel's core count (None: the vendor's split as it is):
  :func:`fit_cores` merges the single-core shares, batch first, then D, M (whole rows) and N,
  until the split fits; ``cores=1`` gives one core the whole problem. A conv that already has a
  tiling keeps it if it fits the target, and fails the pass with the first rule it breaks
  otherwise. A problem the vendor's tiler refuses (groups other than 1) fails the pass with its
  reason.
* ``fixed`` — the tiling in ``tiling_file`` (one ``#ascend.conv3d_bp_input_tiling<...>``, or
  JSON: an object of ``Conv3DBpInputTiling`` fields or a report holding one under ``tiling``,
  what ``ascend-conv bp-input --report json`` writes), or without a file the one already on
  the op.
* ``tuned`` — the dX tiling search (``tuning/conv3d_bp_input_search.tune_input_grad``, imported
  by name through ``tiling_options.BP_INPUT_SEARCHES``: the tuner sits above the runtime),
  ``budget`` candidates at most, its disk cache unless ``use_cache`` is false.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import Conv3DBpInputTilingAttr
from ascend_xdsl.dialects.conv3d_bp_input_tiling import Conv3DBpInputTiling
from ascend_xdsl.dialects.conv_shape import C0, ConvBpFilterShape, ceil_div
from ascend_xdsl.dialects.op_level import Conv3DBackpropInputOp, shape_of_conv3d_input_op
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.passes.conv3d_bp_input_tiling_heuristic import (
    Conv3DBpInputTilingError,
    tile_conv3d_bp_input,
)
from ascend_xdsl.passes.hardware import cores_error, load_hw, read_tiling_file
from ascend_xdsl.passes.tiling_options import (
    BP_INPUT_SEARCHES,
    STRATEGIES,
    searched_tiling,
)


def read_conv3d_bp_input_tiling_file(ctx: Context, path: str) -> Conv3DBpInputTiling:
    """The dX tiling in the file at ``path``: one ``#ascend.conv3d_bp_input_tiling<...>``, or
    JSON (an object of fields, or a report with one under ``tiling``). Errors name the file."""
    return read_tiling_file(
        ctx, path, Conv3DBpInputTilingAttr, Conv3DBpInputTiling, "conv3d_bp_input_tiling"
    )


def core_count(t: Conv3DBpInputTiling) -> int:
    """The cores ``t``'s split uses (batch × D × M × N)."""
    return _split(t)[0] * _split(t)[1] * _split(t)[2] * _split(t)[3]


def tiling_fit_errors(t: Conv3DBpInputTiling, hw: HwConfig, cores: int) -> list[str]:
    """The rules ``t`` breaks on ``cores`` cores of ``hw`` (its own against the L0 sizes, then
    the core count)."""
    errors = t.errors(hw.l0a_size, hw.l0b_size, hw.l0c_size)
    if not errors and (used := core_count(t)) > cores:
        errors = [f"tiling uses {used} cores, more than {cores}"]
    return errors


@dataclass(frozen=True)
class TileConv3DBpInputPass(ModulePass):
    """Attach a ``#ascend.conv3d_bp_input_tiling`` to every format-level dX conv."""

    name = "ascend-tile-conv3d-bp-input"

    strategy: str = "heuristic"
    hw: str = DEFAULT_HW
    cores: int | None = None
    """The most cores the kernel may use (None: the vendor's split; ``tuned`` then searches
    over every core of ``hw``)."""
    tiling_file: str = ""
    budget: int | None = None
    """``tuned``: candidates the search scores at most (None: its default)."""
    use_cache: bool = True
    """``tuned``: take the answer from the tuning cache when it has one."""
    progress: bool = False
    """``tuned``: a progress bar on standard error when it is a terminal."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        if self.strategy not in STRATEGIES:
            raise PassFailedException(
                f"unknown tiling strategy '{self.strategy}' "
                f"(expected one of {', '.join(STRATEGIES)})"
            )
        if self.cores is not None and self.cores < 1:
            raise PassFailedException(f"cores must be at least 1, got {self.cores}")
        hw = load_hw(self.hw)
        if self.cores is not None and (error := cores_error(self.cores, hw)) is not None:
            raise PassFailedException(error)
        # None keeps the vendor's split as it is (its API tiler knows one core); the checks
        # and the search then count every core of the target.
        cores = self.cores or hw.aic_count
        for conv in [o for o in op.walk() if isinstance(o, Conv3DBackpropInputOp)]:
            if not isinstance(conv.dy.type, GmTensorType):
                raise PassFailedException(
                    "ascend-tile-conv3d-bp-input runs on the format level: run "
                    "ascend-legalize-formats first"
                )
            problem = shape_of_conv3d_input_op(conv)
            if self.strategy == "fixed" and self.tiling_file:
                tiling = read_conv3d_bp_input_tiling_file(ctx, self.tiling_file)
                mismatch = tiling.problem_errors(problem)
                if mismatch:
                    raise PassFailedException(f"{self.tiling_file}: {mismatch[0]}")
            elif self.strategy in BP_INPUT_SEARCHES:
                tiling = self.searched_tiling(problem, hw, cores)
            elif conv.tiling is not None:
                tiling = conv.tiling.tiling
            elif self.strategy == "fixed":
                raise PassFailedException(
                    "strategy=fixed needs a tiling on the op "
                    "(tiling #ascend.conv3d_bp_input_tiling<...>)"
                )
            else:
                try:
                    tiling = tile_conv3d_bp_input(problem)
                except Conv3DBpInputTilingError as e:
                    raise PassFailedException(str(e)) from None
                if self.cores is not None:
                    tiling = fit_cores(tiling, self.cores)
            errors = tiling_fit_errors(tiling, hw, self.cores or core_count(tiling))
            if errors:
                raise PassFailedException(f"tiling does not fit {hw.name}: {errors[0]}")
            conv.properties["tiling"] = Conv3DBpInputTilingAttr(tiling)

    def searched_tiling(
        self, problem: ConvBpFilterShape, hw: HwConfig, cores: int
    ) -> Conv3DBpInputTiling:
        """The tiling the search of :attr:`strategy` finds (``BP_INPUT_SEARCHES``)."""
        return searched_tiling(
            self.strategy,
            BP_INPUT_SEARCHES,
            problem,
            hw.name,
            cores,
            Conv3DBpInputTiling,
            budget=self.budget,
            use_cache=self.use_cache,
            progress=self.progress,
        )


def _split(t: Conv3DBpInputTiling) -> list[int]:
    """Cores along batch, D, M and N (the group axis is one share: single_core_group is
    the whole of the vendor's one group)."""
    return [
        ceil_div(t.batch, t.single_core_batch),
        ceil_div(t.di, t.single_core_din),
        ceil_div(t.hi * t.wi, t.single_core_m),
        ceil_div(t.cin1_g, t.single_core_cin1),
    ]


def fit_cores(t: Conv3DBpInputTiling, cores: int) -> Conv3DBpInputTiling:
    """``t`` with its single-core shares merged, batch first, then D, M and N, until the
    kernel's (batch × D × M × N) core split is at most ``cores``."""
    for axis in range(4):
        split = _split(t)
        total = split[0] * split[1] * split[2] * split[3]
        if total <= cores:
            break
        allowed = max(1, cores // (total // split[axis]))
        if axis == 0:
            t = replace(t, single_core_batch=ceil_div(t.batch, allowed))
        elif axis == 1:
            t = replace(t, single_core_din=ceil_div(t.di, allowed))
        elif axis == 2:
            t = replace(t, single_core_m=ceil_div(t.hi, allowed) * t.wi)
        else:
            cin1 = ceil_div(t.cin1_g, allowed)
            t = replace(t, single_core_cin1=cin1, single_core_cin=cin1 * C0)
    return t
