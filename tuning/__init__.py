"""The tiling search (``strategy=tuned``), its on-disk cache and ``ascend-tune``'s layer sweeps.

This package sits between the runtime and the tools: it compiles candidate tilings and scores
them with the runtime's cost-only model (``search.py``), caches the answers (``cache.py``), and
runs a file of layers on a local process pool or on Ray (``sweep.py``). The tiler's
``strategy=tuned`` reaches :func:`~ascend_xdsl.tuning.api.tune` by name, through the table of
searches in ``passes/tiling_options.py``; importing this package registers nothing.
"""

from ascend_xdsl.tuning.api import tune, tuned_tiling

__all__ = ["tune", "tuned_tiling"]
