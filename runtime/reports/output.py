"""Output files, written so that a reader never sees half of one.

``write_atomically`` writes to a temporary file in the target's folder and renames it over the
target: the target holds either its old content or the complete new one, and a failed or
interrupted write leaves no stray file behind. ``ascend-opt -o``, ``ascend-conv -o``,
``ascend-tune -o``, ``ascend-run``'s result files and the cost model's traces and plots all go
through it (it lives in the runtime so that both the runtime and the tools can use it).

Only a regular file (or a name that does not exist yet) is replaced that way. A target that is
a device or a FIFO (``-o /dev/stdout``, ``-o >(gzip > x.gz)``) is written directly: renaming a
file over it would replace the device node with a regular file. A folder is refused.

``write_error`` is the one-line reason a write failed, the same in every tool.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

_REASONS = {
    # What the system's own text leaves unclear for an output path.
    errno.EISDIR: "it is a folder",
    errno.EBUSY: "it is a folder in use (a mount point, or the current folder?)",
    errno.EXDEV: "it lies on another file system than the folder it is in (a mount point?): "
    "write into a folder inside it instead",
}


def write_error(path: str | Path | None, e: OSError) -> str:
    """``cannot write 'PATH': <reason>`` (``standard output`` for None): one line, whatever
    the errno."""
    reason = _REASONS.get(e.errno or 0) or e.strerror or str(e)
    return f"cannot write {'standard output' if path is None else repr(str(path))}: {reason}"


def is_special(path: str | Path) -> bool:
    """Whether ``path`` names (through any symlinks) something that is neither a regular file
    nor a folder: a device, a FIFO, a socket. Such a target is written in place."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def write_atomically(path: str | Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8, or bytes) to a temporary file next to ``path`` and
    rename it over ``path``; a device or FIFO is written directly, a folder refused
    (``IsADirectoryError``). Every failure is an ``OSError``."""
    target = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if is_special(target):
        with open(target, "wb") as f:
            f.write(data)
        return
    # The temporary name keeps a short prefix of the target's: a name near the 255-byte limit
    # must not fail only because ".NAME.XXXXXXXX.tmp" is longer.
    prefix = f".{target.name[:64]}."
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=prefix, suffix=".tmp")
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
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
