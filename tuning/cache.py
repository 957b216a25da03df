"""The tuner's on-disk cache: one JSON file per searched layer, in the user's cache directory.

A search costs seconds to tens of seconds per layer, and its answer depends only on the layer,
its element type, the hardware description, the cores, the search budget and the compiler (the
tiler, the lowering and the cost model that score the candidates). The key hashes all of them;
"the compiler" is the package version together with a digest of every source and data file of
the layers that take part (hw, dialects, passes, lowering, runtime, tuning), so an edit to the
cost model invalidates what it scored. Files live in ``platformdirs.user_cache_dir("ascend-xdsl")``
under ``tuning/`` (``$XDG_CACHE_HOME/ascend-xdsl/tuning`` on Linux) and are written atomically
(``runtime/reports/output.py``); an unreadable or stale-format file is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import asdict
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import platformdirs

from ascend_xdsl.dialects.conv_shape import ConvBpFilterShape
from ascend_xdsl.runtime.reports.output import write_atomically

FORMAT = 1
"""The layout of a cache file; bumped when :meth:`TuneResult.to_json` changes."""

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


def load(key: str) -> dict[str, Any] | None:
    """The cached search result under ``key``, or None (missing or unreadable)."""
    try:
        data = json.loads((cache_dir() / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    result = data.get("result")
    return result if isinstance(result, dict) else None


def store(key: str, result: dict[str, Any]) -> None:
    """Cache ``result`` under ``key``; a cache that cannot be written is skipped silently (the
    search's answer stands without it)."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / f"{key}.json", json.dumps({"format": FORMAT, "result": result}))
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
