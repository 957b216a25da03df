"""The ``xdsl.universe`` entry point: lets plain ``xdsl-opt`` parse ascend IR and run our passes.

Everything resolves lazily, so merely having the package installed costs xdsl-opt nothing.
"""

from xdsl.universe import Universe

from ascend_xdsl.lowering.registry import DIALECTS, PASSES

UNIVERSE = Universe(all_dialects=DIALECTS, all_passes=PASSES)
