"""The values the tiler's ``strategy`` and ``dk`` options accept, defined once, and the table
through which a searched strategy (``tuned``) reaches its search.

``ascend-tile-conv3d-bp-filter`` (``passes/tile_conv3d_bp_filter.py``) branches on them, and the
compile options (``lowering/options.py``) are checked against them before any pass is resolved.
They sit in a module of their own so that the front door can read them without importing the
tiler: the pipeline reaches every pass through the registry only, so a broken pass fails the
stage that needs it, not the import of the front door.

The search behind ``tuned`` scores candidate tilings by compiling them and running the cost
model, so it lives above the runtime (``tuning/``) and the tiler cannot import it. As the pass
registry (``lowering/registry.py``) names passes, :data:`SEARCHES` names each search by module
path and function, and :func:`search_for` imports it the first time the strategy runs: every
caller (``ascend-opt``, ``ascend-conv --tiling tuned``, ``conv3d_weight(tiling="tuned")``) takes
the same route, with nothing to import first (docs/passes.md, "tuned").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import TYPE_CHECKING, Protocol, TypeVar

from xdsl.utils.exceptions import PassFailedException

if TYPE_CHECKING:
    from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
    from ascend_xdsl.dialects.dw_tiling import DwTiling


class SearchResult(Protocol):
    """What a search returns: at least the tiling it chose."""

    @property
    def tuned(self) -> DwTiling: ...


class Search(Protocol):
    """(problem, hardware name, cores to use, budget, cache, progress) → its result; raises
    ``ValueError`` when nothing fits. ``budget`` None: the search's own default."""

    def __call__(
        self,
        problem: ConvBpFilterShape,
        hw: str,
        cores: int,
        *,
        use_cache: bool,
        progress: bool,
        **budget: int,
    ) -> SearchResult: ...


SEARCHES: dict[str, tuple[str, str]] = {"tuned": ("ascend_xdsl.tuning.cached_search", "tune")}
"""Searched strategy → (module, function) of its search, imported on first use. The names are
strings, so no layer below ``tuning/`` imports it (the import-linter counts imports, not
strings)."""

FORWARD_SEARCHES: dict[str, tuple[str, str]] = {
    "tuned": ("ascend_xdsl.tuning.conv3d_search", "tune_forward")
}
"""The same table for the forward conv's tiler (``ascend-tile-conv3d``): the search of a
``Conv3DTiling`` (``tuning/conv3d_search.py``), under the same strategy names."""

BP_INPUT_SEARCHES: dict[str, tuple[str, str]] = {
    "tuned": ("ascend_xdsl.tuning.conv3d_bp_input_search", "tune_input_grad")
}
"""The same table for the input gradient's tiler (``ascend-tile-conv3d-bp-input``): the search
of a ``Conv3DBpInputTiling`` (``tuning/conv3d_bp_input_search.py``)."""

STRATEGIES: tuple[str, ...] = ("heuristic", "fixed", *SEARCHES)
"""``heuristic``: the vendor host tiler re-derived; ``fixed``: a tiling given in a file (or
already on the op); ``tuned``: the best tiling the search of ``tuning/`` finds."""

DK_MODES: tuple[str, ...] = ("separate", "fused")
"""``separate``: a kd driver loop in the kernel; ``fused``: kD folded into the GEMM's N."""


class SearchUnavailable(Exception):
    """A searched strategy whose module cannot be imported (a broken or missing install)."""


def search_for(strategy: str, searches: dict[str, tuple[str, str]] | None = None) -> Search:
    """The search behind ``strategy`` (a key of ``searches``, :data:`SEARCHES` by default),
    imported now."""
    module, function = (SEARCHES if searches is None else searches)[strategy]
    try:
        return getattr(import_module(module), function)
    except (ImportError, AttributeError) as e:
        raise SearchUnavailable(
            f"strategy={strategy} needs its search {module}.{function}, which cannot be "
            f"loaded ({e})"
        ) from None


T = TypeVar("T")


def searched_tiling(
    strategy: str,
    searches: dict[str, tuple[str, str]],
    problem: ConvBpFilterShape,
    hw: str,
    cores: int,
    kind: type[T],
    *,
    budget: int | None,
    use_cache: bool,
    progress: bool,
) -> T:
    """The tiling the search of ``strategy`` (a key of ``searches``) finds, of type ``kind``,
    for the forward's and dX's tilers (dW's, with its Dk and override options, has its own):
    a search that cannot be loaded, finds nothing or gives another op's tiling fails the pass
    in one line."""
    extra = {} if budget is None else {"budget": budget}
    try:
        search = search_for(strategy, searches)
        found = search(problem, hw, cores, use_cache=use_cache, progress=progress, **extra)
    except SearchUnavailable as e:
        raise PassFailedException(str(e)) from None
    except ValueError as e:
        raise PassFailedException(f"no tuned tiling found: {e}") from None
    tuned = found.tuned
    if not isinstance(tuned, kind):  # a table entry naming another op's search
        raise PassFailedException(f"strategy={strategy} did not give a {kind.__name__}")
    return tuned


_search_workers: int | None = None


def search_workers() -> int | None:
    """How many processes a search scores its candidates in (:func:`using_search_workers`);
    None: the search's default, 1. The count changes how fast a search is, never
    what it finds (``tuning/speculate.py``), so it is set for the process rather than carried
    in the compile options and the pass (and so it is no part of the tuning cache's key)."""
    return _search_workers


@contextmanager
def using_search_workers(workers: int | None) -> Iterator[None]:
    """Searches started inside use ``workers`` processes (None: leave the setting as it is);
    ``ascend-conv --tune-workers``, ``ascend-tune --search-workers`` and the Python API's
    ``tune_workers`` set it."""
    global _search_workers
    if workers is None:
        yield
        return
    if workers < 1:
        raise ValueError(f"tune workers must be at least 1, got {workers}")
    before, _search_workers = _search_workers, workers
    try:
        yield
    finally:
        _search_workers = before
