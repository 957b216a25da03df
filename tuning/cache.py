"""The tuner's on-disk cache: one JSON file per searched layer, in the user's cache directory.

A search costs seconds to tens of seconds per layer, and its answer depends only on the layer,
its element type, the hardware description, the cores, the search budget and the compiler (the
tiler, the lowering and the cost model that score the candidates). The key hashes all of them;
"the compiler" is the package version together with a digest of every source and data file of
the layers that take part (hw, dialects, passes, lowering, runtime, tuning), so an edit to the
cost model invalidates what it scored. Files live in ``platformdirs.user_cache_dir("ascend-xdsl")``
under ``tuning/`` (``$XDG_CACHE_HOME/ascend-xdsl/tuning`` on Linux) and are written atomically
(``runtime/reports/output.py``).

A file is data from disk, not trusted: :func:`load` reads regular files only (a FIFO or a link
to a device is refused unopened for reading, so it neither blocks nor fills the memory), at most
:data:`MAX_ENTRY_BYTES`, and checks that the file is JSON of this :data:`FORMAT` written under
the key asked for (a file copied from another layer's key says so). Anything else raises
:class:`CacheEntryError`; a missing file is a miss. What the entry *says* (its tilings and
cycles) is checked by its user, ``tuning/cached_search.py`` (docs/runtime.md, "The tuning
cache").
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import stat
from dataclasses import asdict
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import platformdirs

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.runtime.reports.output import write_atomically

FORMAT = 2
"""The layout of a cache file; bumped when :meth:`TuneResult.to_json` changes (2: the file
names its key)."""

MAX_ENTRY_BYTES = 64 * 1024
"""A cache file holds two tilings and their scores, about 4 kB."""


class CacheEntryError(ValueError):
    """A cache file that exists but is not a cache entry of the key asked for."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"tuning cache entry {path}: {reason}")


_PORTIONS = ("hw", "dialects", "passes", "lowering", "runtime", "tuning")


def cache_dir() -> Path:
    return Path(platformdirs.user_cache_dir("ascend-xdsl")) / "tuning"


@cache
def compiler_version() -> str:
    """``<package version>+<digest of the compiler's sources and data files>``."""
    try:
        release = version("ascend-xdsl")
    except PackageNotFoundError:  # a source tree on the path, not installed
        release = "0"
    digest = hashlib.sha256()
    for portion in _PORTIONS:
        for root in importlib.import_module(f"ascend_xdsl.{portion}").__path__:
            base = Path(root)
            for path in sorted(p for p in base.rglob("*") if p.suffix in (".py", ".toml")):
                digest.update(f"{portion}/{path.relative_to(base)}".encode())
                digest.update(path.read_bytes())
    return f"{release}+{digest.hexdigest()[:16]}"


def cache_key(problem: ConvBpFilterShape, hw: str, cores: int, budget: int) -> str:
    text = json.dumps(
        {
            "format": FORMAT,
            "problem": asdict(problem),
            "hw": hw,
            "cores": cores,
            "budget": budget,
            "compiler": compiler_version(),
        },
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def entry_path(key: str) -> Path:
    return cache_dir() / f"{key}.json"


def _read_regular(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most :data:`MAX_ENTRY_BYTES`; None
    if it does not exist."""
    try:
        # O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a
        # writer; the file's kind is then checked on the descriptor, before any read.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise CacheEntryError(path, f"cannot be opened ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise CacheEntryError(path, "is not a regular file")
        try:
            data = f.read(MAX_ENTRY_BYTES + 1)
        except OSError as e:
            raise CacheEntryError(path, f"cannot be read ({e.strerror})") from None
    if len(data) > MAX_ENTRY_BYTES:
        raise CacheEntryError(
            path, f"is larger than the {MAX_ENTRY_BYTES // 1024} kB an entry takes"
        )
    return data


def load(key: str) -> dict[str, Any] | None:
    """The cached search result under ``key`` as written, or None when there is none;
    :class:`CacheEntryError` when the file is not an entry of ``key`` (its content is checked
    by the caller)."""
    path = entry_path(key)
    data = _read_regular(path)
    if data is None:
        return None
    try:
        entry = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise CacheEntryError(path, "is not JSON") from None
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        raise CacheEntryError(path, f"is not in the cache format {FORMAT}")
    if entry.get("key") != key:
        raise CacheEntryError(path, "was written for another request (its key differs)")
    result = entry.get("result")
    if not isinstance(result, dict):
        raise CacheEntryError(path, "holds no search result")
    return result


def store(key: str, result: dict[str, Any]) -> None:
    """Cache ``result`` under ``key``; a cache that cannot be written is skipped silently (the
    search's answer stands without it)."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(
            entry_path(key), json.dumps({"format": FORMAT, "key": key, "result": result})
        )
    except OSError:
        pass


def entries() -> list[Path]:
    """The cache's files (``ascend-tune --cache-info``)."""
    try:
        return sorted(cache_dir().glob("*.json"))
    except OSError:
        return []


def clear() -> int:
    """Delete every cached search (``ascend-tune --clear-cache``); how many files went. Only
    the cache's own ``*.json`` files are removed, never the folder's other contents."""
    removed = 0
    for path in entries():
        try:
            path.unlink()
            removed += 1
        except FileNotFoundError:
            pass  # another process cleared it first
    return removed
