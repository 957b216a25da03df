"""The values the tiler's ``strategy`` and ``dk`` options accept, defined once, and the hook
through which ``strategy=tuned`` reaches the tiling search.

``ascend-tile-conv3d-bp-filter`` (``passes/tile_conv3d_bp_filter.py``) branches on them, and the
front door (``lowering/pipeline.py``) checks ``compile()``'s options against them before any pass
is resolved. They sit in a module of their own so that the pipeline can read them without
importing the tiler: the pipeline reaches every pass through the registry only, so a broken pass
fails the stage that needs it, not the import of the front door.

The search behind ``tuned`` scores candidate tilings by compiling them and running the cost
model, so it lives above the runtime (``tuning/``) and the tiler cannot import it. Instead the
tuning package registers its search here when it is imported (``register_tuned_search``; the
tools import it), and the tiler asks :func:`tuned_search` for it (docs/passes.md, "tuned").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
    from ascend_xdsl.dialects.dw_tiling import DwTiling
    from ascend_xdsl.hw import HwConfig

STRATEGIES: tuple[str, ...] = ("heuristic", "fixed", "tuned")
"""``heuristic``: the vendor host tiler re-derived; ``fixed``: a tiling given in a file (or
already on the op); ``tuned``: the best tiling the search of ``tuning/`` finds."""

DK_MODES: tuple[str, ...] = ("separate", "fused")
"""``separate``: a kd driver loop in the kernel; ``fused``: kD folded into the GEMM's N."""

TunedSearch = Callable[["ConvBpFilterShape", "HwConfig", int], "DwTiling"]
"""(problem, hardware, cores to use) → the tuned tiling; raises ``ValueError`` when nothing fits."""

_tuned_search: list[TunedSearch] = []


def register_tuned_search(search: TunedSearch) -> None:
    """Make ``search`` the function behind ``strategy=tuned`` (the last registration wins)."""
    _tuned_search[:] = [search]


def tuned_search() -> TunedSearch | None:
    """The registered search, or None when no tuning package has been imported."""
    return _tuned_search[0] if _tuned_search else None
