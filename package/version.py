"""The version of ascend-xdsl, from the installed distribution's metadata.

Imported by the package's ``__init__`` (``ascend_xdsl.__version__``), by every tool's
``--version`` (``tools/errors.OneLineParser``) and by ``python -m ascend_xdsl --version``. It is
its own module so that those read the version without importing anything else.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ascend-xdsl")
except PackageNotFoundError:  # a source tree on the path, not installed
    __version__ = "0+unknown"
