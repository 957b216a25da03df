"""One run per test session of a command that several tests run the same way.

Some commands are both shown in the docs (tests/test_docs_commands.py runs them) and run by
a test of their own: README's tuning sweep (``ascend-tune examples/layers.json --workers 2``,
two tunings on a process pool, the most expensive command of the suite) and benchmark scripts
with the quick flags. (The page runs the sweep after its ``ascend-conv bp-input ... --tiling
tuned``, whose cache entry records its own search time, so no two runs of it leave the same
bytes: that command is shared too, and tests/test_tune_cli.py runs it before the sweep, so that
both tests reach the sweep with the same cache.) Run twice, they would print the same lines
twice: :func:`run` runs such a command once per session and hands every test that asks the same
finished run, whichever pytest-xdist worker it is on. Each test still checks everything it
checked before, on the command's real output in this session.

What makes two runs "the same", so that sharing changes nothing a test can see:

* the same argv; the command runs in a scratch folder of its own that sees the repository's
  examples/, tests/ and benchmarks/ and an empty docs/ (as test_docs_commands.py's pages do),
  so a relative path means the same for every caller, and the caller's folder is untouched (the
  commands shared read only the repository and write nothing but the tuning cache);
* the same tuning cache before the run: the key holds a digest of the project's files in the
  caller's ``$XDG_CACHE_HOME`` (names and bytes), the run starts from a copy of them, and
  afterwards the caller's cache holds what the run left there, as if the command had run on it;
* no other environment of its own (the caller's extra variables would be part of the key; no
  shared command has any).

The finished runs lie in a folder of the session (tests/conftest.py creates it in the
controlling process and hands it to every worker; ``pytest -n0`` has its own), one file per
key, written under an exclusive ``flock`` of the key: a second worker asking for a run the
first is computing waits for it instead of computing it again.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pickle
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import inprocess

ROOT = Path(__file__).resolve().parent.parent
FOLDER: Path | None = None
"""The session's folder of finished runs: set by tests/conftest.py (pytest_configure)."""


def folder() -> Path:
    global FOLDER
    if FOLDER is None:  # imported outside the suite's conftest: a folder of this process
        FOLDER = Path(tempfile.mkdtemp(prefix="ascend-xdsl-shared-runs-"))
    return FOLDER


PROJECT = "ascend-xdsl"
"""The project's folder in ``$XDG_CACHE_HOME`` (tuning/cache.py): other programs' caches there
(matplotlib's font list, after a ``--plot``) change how fast a run is, not what it prints, so
they are neither part of the key nor copied."""


def _files(cache: Path) -> dict[str, bytes]:
    """Every file of the project's cache under ``cache``, by its path relative to ``cache``
    (none when it does not exist)."""
    ours = cache / PROJECT
    if not ours.is_dir():
        return {}
    return {
        str(p.relative_to(cache)): p.read_bytes() for p in sorted(ours.rglob("*")) if p.is_file()
    }


def _key(argv: Sequence[str], cache: dict[str, bytes]) -> str:
    digest = hashlib.sha256(json.dumps(list(argv)).encode())
    for name, data in cache.items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:32]


def _scratch(where: Path) -> Path:
    """A folder laid out as test_docs_commands.py lays out a page's."""
    for name in ("examples", "tests", "benchmarks"):
        (where / name).symlink_to(ROOT / name)
    (where / "docs").mkdir()
    return where


def _compute(argv: list[str], cache: dict[str, bytes], timeout: float | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="shared-run-", dir=folder()) as tmp:
        cwd = _scratch(Path(tmp))
        home = cwd / ".cache"
        for name, data in cache.items():
            (home / name).parent.mkdir(parents=True, exist_ok=True)
            (home / name).write_bytes(data)
        env = {**os.environ, "XDG_CACHE_HOME": str(home)}
        done = inprocess.run(argv, cwd=cwd, env=env, timeout=timeout)
        return {
            "returncode": done.returncode,
            "stdout": done.stdout,
            "stderr": done.stderr,
            "cache": _files(home),
        }


def run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cache: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """``inprocess.run(argv)`` with ``$XDG_CACHE_HOME`` = ``cache`` (this process's when
    None), computed once per session for that argv and that cache's contents; afterwards
    ``cache`` holds what the run left in it."""
    args = [os.fspath(a) for a in argv]
    home = Path(cache if cache is not None else os.environ["XDG_CACHE_HOME"])
    before = _files(home)
    key = _key(args, before)
    result = folder() / f"{key}.pickle"
    with open(folder() / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held while computing: another worker waits
        try:
            if result.exists():
                done = pickle.loads(result.read_bytes())
            else:
                done = _compute(args, before, timeout)
                partial = result.with_suffix(".partial")
                partial.write_bytes(pickle.dumps(done))
                partial.replace(result)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    for name in set(before) - set(done["cache"]):
        (home / name).unlink()
    for name, data in done["cache"].items():
        if before.get(name) != data:
            (home / name).parent.mkdir(parents=True, exist_ok=True)
            (home / name).write_bytes(data)
    return subprocess.CompletedProcess(args, done["returncode"], done["stdout"], done["stderr"])
