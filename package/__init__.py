"""ascend-xdsl: an xDSL compiler and numpy simulator for Ascend AI Core convolution kernels.

The package's subpackages are the repository's top-level folders (pyproject.toml maps them):
``dialects``, ``passes``, ``lowering``, ``runtime``, ``tuning``, ``emit``, ``tools``, ``ir`` and
``hw`` (docs/architecture.md draws the layering). This module imports none of them, so
``import ascend_xdsl`` is cheap; the public API is ``ascend_xdsl.runtime``.
"""

from ascend_xdsl.version import __version__

__all__ = ["__version__"]
