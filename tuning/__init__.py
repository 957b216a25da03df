"""The tiling search (``strategy=tuned``), its on-disk cache and ``ascend-tune``'s layer sweeps.

This package sits between the runtime and the tools: it compiles candidate tilings and scores
them with the runtime's cost-only model (``search.py``), caches the answers (``cache.py``), and
runs a file of layers on a local process pool or on Ray (``sweep.py``). Importing it registers
:func:`~ascend_xdsl.tuning.cached_search.tuned_tiling` as the search behind the tiler's
``strategy=tuned`` (``passes/tiling_options.py``), which the tiler cannot import itself.
"""

from ascend_xdsl.passes.tiling_options import register_tuned_search
from ascend_xdsl.tuning.cached_search import tune, tuned_tiling

register_tuned_search(tuned_tiling)

__all__ = ["tune", "tuned_tiling"]
