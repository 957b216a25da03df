"""Reading an input file that the user names: bounded, decoded, and never a hang.

Every file a tool reads besides the program itself goes through :func:`read_text`: a tiling
file (``passes/tile_conv3d_bp_filter.py``), a layers file (``tuning/sweep.py``), the sources
and the marker of an emitted Ascend C project (``emit/``). It reads at most ``max_bytes`` (so
``/dev/zero`` is refused at the bound instead of filling memory), decodes UTF-8, and with
``regular_only`` opens without blocking and refuses anything but a regular file (a FIFO with no
writer would block ``open`` forever, a folder cannot be read). Each failure is one
:class:`InputFileError` line naming the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class InputFileError(ValueError):
    """An input file that cannot be read as asked; the message names it."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(
    path: str | Path, max_bytes: int, *, regular_only: bool = False, what: str = ""
) -> bytes:
    """At most ``max_bytes`` of the file at ``path`` (more is an error); ``what`` names the
    file's role in messages (``tiling file``)."""
    name = f"{what} '{path}'" if what else f"'{path}'"
    flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
    if regular_only:
        flags |= os.O_NONBLOCK  # a FIFO opens at once instead of waiting for a writer
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise InputFileError(f"cannot read {name}: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode) or (regular_only and not stat.S_ISREG(mode)):
            raise InputFileError(f"cannot read {name}: it is {_kind(mode)}, not a regular file")
        if regular_only:
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise InputFileError(f"cannot read {name}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if size > max_bytes:
        limit = f"{max_bytes // 2**20} MiB" if max_bytes >= 2**20 else f"{max_bytes // 1024} kB"
        raise InputFileError(f"{name}: larger than the {limit} it may have")
    return b"".join(chunks)


def read_text(
    path: str | Path, max_bytes: int, *, regular_only: bool = False, what: str = ""
) -> str:
    """:func:`read_bytes`, decoded as UTF-8 (a file that is not is an error naming the byte)."""
    data = read_bytes(path, max_bytes, regular_only=regular_only, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        name = f"{what} '{path}'" if what else f"'{path}'"
        line = data[: e.start].count(b"\n") + 1
        raise InputFileError(
            f"{name}: not UTF-8 text (byte 0x{data[e.start]:02x} at line {line})"
        ) from None
