"""The tiling search (``strategy=tuned``), its on-disk cache and ``ascend-tune``'s layer sweeps.

This package sits between the runtime and the tools: it compiles candidate tilings and scores
them with the runtime's cost-only model (``search.py``), caches the answers (``cache.py``), and
runs a file of layers on a local process pool or on Ray (``sweep.py``). The tiler's
``strategy=tuned`` reaches :func:`~ascend_xdsl.tuning.cached_search.tune` by name, through the
table of searches in ``passes/tiling_options.py``; importing this package registers nothing.
"""

from ascend_xdsl.tuning.cached_search import tune

__all__ = ["tune"]
