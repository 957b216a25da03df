"""Output files, written so that a reader never sees half of one.

``write_atomically`` writes to a temporary file in the target's folder and renames it over the
target: the target holds either its old content or the complete new one, and a failed or
interrupted write leaves no stray file behind. ``ascend-opt -o``, ``ascend-conv -o``,
``ascend-run``'s result files and the cost model's traces and plots all go through it (it lives
in the runtime so that both the runtime and the tools can use it).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: str | Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8, or bytes) to a temporary file next to ``path`` and
    rename it over ``path``."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        # mkstemp creates the file 0600; give it the mode a plain open() would (or keep the
        # mode of the file it replaces).
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        if isinstance(content, str):
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(content)
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(content)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
