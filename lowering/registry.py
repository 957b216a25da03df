"""Names of every dialect and pass of ours, each resolved lazily on first use.

This is the one place a pass is registered. ``compile_levels`` and the ``ascend-pipeline`` pass
(``lowering/pipeline.py``) look the pipeline's passes up here; ``ascend-opt`` (``tools/opt.py``)
and the ``xdsl.universe`` entry point for plain ``xdsl-opt`` (``tools/universe.py``) register
these same names. It lives in ``lowering`` because it names passes of both ``passes`` and
``lowering`` and is read by the layers above (runtime, tools), never by those below.

Every entry is a module path and a class name resolved with ``import_module`` when the pass is
first asked for, so importing the registry imports no pass: a missing or broken pass fails only
the compile that needs it (``MissingPassError``), and xdsl-opt pays nothing for the entry point.
"""

from collections.abc import Callable
from importlib import import_module

from xdsl.ir import Dialect
from xdsl.passes import ModulePass


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        return getattr(import_module(module), cls)

    return load


def ascend_dialect() -> Dialect:
    from ascend_xdsl.dialects.ascend import Ascend

    return Ascend


DIALECTS: dict[str, Callable[[], Dialect]] = {"ascend": ascend_dialect}

PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "ascend-legalize-formats": _lazy(
        "ascend_xdsl.lowering.legalize_formats", "LegalizeFormatsPass"
    ),
    "ascend-pipeline": _lazy("ascend_xdsl.lowering.pipeline", "AscendPipelinePass"),
    "ascend-tile-conv3d-bp-filter": _lazy(
        "ascend_xdsl.passes.tile_conv3d_bp_filter", "TileConv3DBpFilterPass"
    ),
    "ascend-tile-conv3d": _lazy("ascend_xdsl.passes.tile_conv3d", "TileConv3DPass"),
    "ascend-tile-conv3d-bp-input": _lazy(
        "ascend_xdsl.passes.tile_conv3d_bp_input", "TileConv3DBpInputPass"
    ),
    "convert-conv-to-ascend-api": _lazy(
        "ascend_xdsl.lowering.convert_conv_to_api", "ConvertConvToAscendApiPass"
    ),
    "lower-ascend-api-to-hw": _lazy(
        "ascend_xdsl.lowering.lower_api_to_hw", "LowerAscendApiToHwPass"
    ),
    "ascend-plan-buffers": _lazy("ascend_xdsl.passes.plan_buffers", "PlanBuffersPass"),
    "ascend-insert-sync": _lazy("ascend_xdsl.passes.insert_sync", "InsertSyncPass"),
    "ascend-canonicalize": _lazy("ascend_xdsl.passes.cleanup", "AscendCanonicalizePass"),
    "ascend-cse": _lazy("ascend_xdsl.passes.cleanup", "AscendCSEPass"),
}
