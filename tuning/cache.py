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

Transfer (``tuning/transfer.py``). Layers that differ only in the batch or the input's spatial
size (:data:`SCALED`) form a family, named by :func:`family_key` (the key without those sizes
and without the budget). :func:`store` also records each entry in its family's folder
(``families/<family key>/<key>``, an empty file), and :func:`family_members` lists them: the
cached layers a search of a new member of the family can start from.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import re
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


def _digest(**request: Any) -> str:
    """The hex SHA-256 of ``request`` with the layout and the compiler, as sorted JSON."""
    text = json.dumps({"format": FORMAT, **request, "compiler": compiler_version()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def cache_key(
    problem: ConvBpFilterShape, hw: str, cores: int, budget: int, op: str | None = None
) -> str:
    """The key of one search; ``op`` names a search other than dW's (``forward``:
    ``tuning/conv3d_search.py``), left out of the request for dW so its keys stay as they were."""
    extra = {} if op is None else {"op": op}
    return _digest(problem=asdict(problem), hw=hw, cores=cores, budget=budget, **extra)


SCALED = ("batch", "di", "hi", "wi")
"""The problem's fields that members of one family may differ in (ConvBpFilterShape's names)."""


def family_key(problem: ConvBpFilterShape, hw: str, cores: int) -> str:
    """The key of ``problem``'s family: :func:`cache_key` without the batch, the input's
    spatial size and the budget (a tiling tuned with another budget is as good a start)."""
    shared = {k: v for k, v in asdict(problem).items() if k not in SCALED}
    return _digest(family=shared, hw=hw, cores=cores)


def _family_dir(family: str) -> Path:
    return cache_dir() / "families" / family


_KEY = re.compile(r"[0-9a-f]{64}")


def family_members(family: str) -> list[str]:
    """The keys of the cached entries of ``family``, sorted (an entry may since have gone:
    :func:`load` then finds none)."""
    try:
        names = [p.name for p in _family_dir(family).iterdir()]
    except OSError:
        return []
    return sorted(n for n in names if _KEY.fullmatch(n))


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


def store(key: str, result: dict[str, Any], family: str | None = None) -> None:
    """Cache ``result`` under ``key``, a member of ``family`` (:func:`family_key`) when given; a
    cache that cannot be written is skipped silently (the search's answer stands without it)."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(
            entry_path(key), json.dumps({"format": FORMAT, "key": key, "result": result})
        )
        if family is not None:
            _family_dir(family).mkdir(parents=True, exist_ok=True)
            (_family_dir(family) / key).touch()
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
    the cache's own ``*.json`` files and family records are removed, never the folder's other
    contents."""
    removed = 0
    for path in entries():
        try:
            path.unlink()
            removed += 1
        except FileNotFoundError:
            pass  # another process cleared it first
    families = cache_dir() / "families"
    try:
        folders = [f for f in families.iterdir() if _KEY.fullmatch(f.name)]
    except OSError:
        return removed
    for folder in folders:
        with contextlib.suppress(OSError):
            for marker in folder.iterdir():
                if _KEY.fullmatch(marker.name):
                    marker.unlink(missing_ok=True)
            folder.rmdir()
    with contextlib.suppress(OSError):
        families.rmdir()
    return removed
