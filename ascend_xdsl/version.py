"""The version of ascend-xdsl, from the installed distribution's metadata.

``ascend_xdsl`` is a namespace package spread over the repository's top-level folders (see
pyproject.toml), which is also what lets import-linter check each folder as a layer of its own;
a namespace package runs no code, so it cannot carry ``ascend_xdsl.__version__`` itself. The
version is here instead: ``from ascend_xdsl.version import __version__``, and every tool's
``--version`` (``tools/errors.OneLineParser``) and ``python -m ascend_xdsl --version`` print it.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ascend-xdsl")
except PackageNotFoundError:  # a source tree on the path, not installed
    __version__ = "0+unknown"
