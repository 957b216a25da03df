"""Sections of docs/benchmarks.md that one script owns and the others keep.

bench_tuning.py writes the page, and other scripts (bench_transfer.py) record their results in
a ``## `` section of their own on the same page. :func:`with_section` puts a script's section
in (replacing the one of the same heading), and :func:`keeping_others` adds to a page written
again the sections of the old one it does not write itself: so bench_tuning.py keeps them.
"""

from __future__ import annotations

import re

_HEADING = re.compile(r"^## .*$", re.MULTILINE)


def _sections(text: str) -> list[tuple[str, str]]:
    """The page's ``## `` sections as (heading, whole section text), in order."""
    starts = [m.start() for m in _HEADING.finditer(text)]
    bounds = zip(starts, [*starts[1:], len(text)][: len(starts)], strict=True)
    return [(text[a:b].split("\n", 1)[0], text[a:b]) for a, b in bounds]


def keeping_others(page: str, old: str) -> str:
    """``page`` followed by the sections of ``old`` (the page it replaces) whose heading
    ``page`` does not have: the sections another script wrote."""
    own = {heading for heading, _ in _sections(page)}
    kept = "".join(body for heading, body in _sections(old) if heading not in own)
    return page if not kept else page.rstrip("\n") + "\n\n" + kept.rstrip("\n") + "\n"


def with_section(text: str, section: str) -> str:
    """``text`` with ``section`` (starting with its ``## `` heading) in place of the section of
    that heading, or at the end."""
    heading = section.split("\n", 1)[0]
    section = section.rstrip("\n") + "\n"
    for old_heading, body in _sections(text):
        if old_heading == heading:
            rest = "\n" if body.endswith("\n\n") else ""
            return text.replace(body, section + rest, 1)
    return text.rstrip("\n") + "\n\n" + section
