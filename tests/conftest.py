"""Session-wide test setup: the tuner's cache goes to a temporary folder, never the user's.

``tuning/cache.py`` puts its files in ``platformdirs.user_cache_dir``, which follows
``XDG_CACHE_HOME`` on Linux; setting it here also covers the tools the tests run as
subprocesses (``ascend-opt ... strategy=tuned``, ``ascend-tune``), which inherit the environment.
"""

import os
import tempfile

_CACHE = tempfile.mkdtemp(prefix="ascend-xdsl-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
