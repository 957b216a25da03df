"""``ascend-tile-conv3d``: attach a ``#ascend.conv3d_tiling`` to every format-level forward
``ascend.conv3d`` (the analogue for the forward op of ``ascend-tile-conv3d-bp-filter``).

``strategy`` (the values of ``passes/tiling_options.STRATEGIES``, as for dW):

* ``heuristic`` (default) — ``passes/conv3d_tiling_heuristic.py`` (the vendor's tiler, L0 and
  L1, and the project's core split) for the target ``hw`` and ``cores`` cores (0: all of the
  target's).
  A conv that already has a tiling keeps it if it fits the target (a hand-written tiling, or
  the tuner's candidate), and fails the pass with the first rule it breaks otherwise.
* ``fixed`` — the tiling in ``tiling_file`` (one ``#ascend.conv3d_tiling<...>``, or JSON: an
  object of ``Conv3DTiling`` fields or a report holding one under ``tiling``, what
  ``ascend-conv forward --report json`` writes), or without a file the one already on the op.
* ``tuned`` — the forward tiling search (``tuning/conv3d_search.tune_forward``, imported by name
  through ``tiling_options.FORWARD_SEARCHES``: the tuner sits above the runtime), ``budget``
  candidates at most, its disk cache unless ``use_cache`` is false. A conv with a bias is
  refused (the search scores bias-free kernels; the bias table is not lowered yet).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.conv3d_tiling import Conv3DTiling
from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.dialects.op_level import Conv3DOp, shape_of_conv3d_op
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.passes.conv3d_tiling_heuristic import conv3d_tiling
from ascend_xdsl.passes.hardware import cores_error, load_hw, read_tiling_file
from ascend_xdsl.passes.tiling_options import (
    FORWARD_SEARCHES,
    STRATEGIES,
    searched_tiling,
)


def read_conv3d_tiling_file(ctx: Context, path: str) -> Conv3DTiling:
    """The forward tiling in the file at ``path``: one ``#ascend.conv3d_tiling<...>``, or JSON
    (an object of fields, or a report with one under ``tiling``). Errors name the file."""
    return read_tiling_file(ctx, path, Conv3DTilingAttr, Conv3DTiling, "conv3d_tiling")


def tiling_fit_errors(t: Conv3DTiling, hw: HwConfig, cores: int) -> list[str]:
    """The rules ``t`` breaks on ``cores`` cores of ``hw`` (its own, then the core count)."""
    errors = t.errors(hw.l1_size, hw.l0a_size, hw.l0b_size, hw.l0c_size)
    used = t.batch_dim * t.do_dim * t.co_dim * t.m_dim
    if not errors and used > cores:
        errors = [f"tiling uses {used} cores, more than {cores}"]
    return errors


@dataclass(frozen=True)
class TileConv3DPass(ModulePass):
    """Attach a ``#ascend.conv3d_tiling`` to every format-level forward conv."""

    name = "ascend-tile-conv3d"

    strategy: str = "heuristic"
    hw: str = DEFAULT_HW
    cores: int = 0
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
        hw = load_hw(self.hw)
        cores = self.cores or hw.aic_count
        if (error := cores_error(cores, hw)) is not None:
            raise PassFailedException(error)
        for conv in [o for o in op.walk() if isinstance(o, Conv3DOp)]:
            if not isinstance(conv.x.type, GmTensorType):
                raise PassFailedException(
                    "ascend-tile-conv3d runs on the format level: run ascend-legalize-formats first"
                )
            problem = shape_of_conv3d_op(conv)
            if self.strategy == "fixed" and self.tiling_file:
                tiling = read_conv3d_tiling_file(ctx, self.tiling_file)
                mismatch = tiling.problem_errors(problem)
                if mismatch:
                    raise PassFailedException(f"{self.tiling_file}: {mismatch[0]}")
            elif self.strategy in FORWARD_SEARCHES:
                if conv.bias is not None:
                    raise PassFailedException(
                        f"strategy={self.strategy} tunes a forward conv without a bias "
                        "(the bias table is not lowered yet)"
                    )
                tiling = self.searched_tiling(problem, hw, cores)
            elif conv.tiling is not None:
                tiling = conv.tiling.tiling
            elif self.strategy == "fixed":
                raise PassFailedException(
                    "strategy=fixed needs a tiling on the op (tiling #ascend.conv3d_tiling<...>)"
                )
            else:
                tiling = conv3d_tiling(problem, hw, cores, has_bias=conv.bias is not None)
            errors = tiling_fit_errors(tiling, hw, cores)
            if errors:
                raise PassFailedException(f"tiling does not fit {hw.name}: {errors[0]}")
            conv.properties["tiling"] = Conv3DTilingAttr(tiling)

    def searched_tiling(self, problem: ConvBpFilterShape, hw: HwConfig, cores: int) -> Conv3DTiling:
        """The tiling the search of :attr:`strategy` finds (``FORWARD_SEARCHES``)."""
        return searched_tiling(
            self.strategy,
            FORWARD_SEARCHES,
            problem,
            hw.name,
            cores,
            Conv3DTiling,
            budget=self.budget,
            use_cache=self.use_cache,
            progress=self.progress,
        )
