"""Writing an emitted project folder so that a reader never sees half of one.

:func:`write_project` writes every file into a fresh temporary folder next to the target and
renames it into place, so the target is either absent, its previous content, or the complete
new project. A target that exists must be empty or a previous emission (it holds the
:data:`MARKER` file listing what was emitted); anything else is refused rather than
overwritten, so ``-o`` cannot delete a user's folder.

A target that is a symlink is resolved first: the project is written into the folder the link
points to (the link itself stays), and the temporary folder is made next to that folder, so
nothing is written beside the link or anywhere else.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from ascend_xdsl.emit.common import Project
from ascend_xdsl.ir.files import InputFileError, read_text
from ascend_xdsl.runtime.reports.output import write_error

MARKER = ".ascend-xdsl-emit"
"""The file that marks a folder as written by ``--emit ascendc``: one emitted path a line."""


MAX_MARKER_BYTES = 64 * 1024
"""A marker lists a handful of file names."""


class ProjectWriteError(Exception):
    """The project cannot be written where asked (the message names the folder)."""


def _is_previous_emission(folder: Path) -> bool:
    marker = folder / MARKER
    if not marker.is_file():
        return False
    try:
        listed = set(read_text(marker, MAX_MARKER_BYTES, regular_only=True).split())
    except InputFileError:
        return False  # not a marker we wrote: the folder is not ours
    present = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    return present <= listed | {MARKER}


def write_project(folder: str | Path, project: Project) -> Path:
    """Write ``project`` into ``folder`` (created, or replaced if it is a previous emission)."""
    try:
        target = Path(os.path.realpath(folder))  # a symlink: the folder it points to
        parent = target.parent
        if not parent.is_dir():
            raise ProjectWriteError(f"cannot write '{folder}': No such file or directory")
        if target.exists():
            if not target.is_dir():
                raise ProjectWriteError(f"cannot write '{folder}': it exists and is not a folder")
            if any(target.iterdir()) and not _is_previous_emission(target):
                raise ProjectWriteError(
                    f"cannot write '{folder}': the folder is not empty and is not a previous "
                    "--emit ascendc project"
                )
    except OSError as e:
        raise ProjectWriteError(write_error(folder, e)) from None
    try:
        fresh = Path(tempfile.mkdtemp(dir=parent, prefix=f".{target.name[:64]}.", suffix=".tmp"))
    except OSError as e:
        raise ProjectWriteError(write_error(folder, e)) from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(fresh, 0o777 & ~umask)  # mkdtemp makes it 0700; give it a plain mkdir's mode
        for path, text in project.files.items():
            (fresh / path).parent.mkdir(parents=True, exist_ok=True)
            (fresh / path).write_text(text, encoding="utf-8")
        (fresh / MARKER).write_text("\n".join(sorted(project.files)) + "\n", encoding="utf-8")
        if target.exists():
            old = Path(tempfile.mkdtemp(dir=parent, prefix=f".{target.name[:64]}.", suffix=".old"))
            os.rmdir(old)
            os.replace(target, old)
            try:
                os.replace(fresh, target)
            except OSError:
                os.replace(old, target)  # put the previous project back
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(fresh, target)
    except OSError as e:
        shutil.rmtree(fresh, ignore_errors=True)
        raise ProjectWriteError(write_error(folder, e)) from None
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return target
