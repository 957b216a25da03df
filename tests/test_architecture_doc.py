"""docs/architecture.md stays true to the package tree.

Its "Module map" section lists every module of the project's packages, one line each (a path
and what the file is for); this test fails when a module is added, moved or removed without the
map following, and when any page of docs/ or the README names a project file that does not
exist. Together they keep the architecture page from drifting again (it once said that cost-only
and the search were "not built yet" long after both were).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PACKAGES = ("hw", "dialects", "ir", "passes", "lowering", "runtime", "tuning", "emit", "tools",
            "package")  # fmt: skip
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A project path as the pages write it: one of our folders, then a file with a suffix, or a
# module and one of its names (``runtime/api.model_cost``). The pages also cite the vendor's
# repositories, whose tests/ folders are not ours: of tests/ only our own kinds of file count.
PATH = re.compile(
    r"(?<![\w/.-])((?:(?:" + "|".join(PACKAGES) + r"|benchmarks|examples)/"
    r"|tests/(?=test_|filecheck/|fidelity/|ascendc_mock/|conftest))[\w/.-]*\.\w+)"
)
SUFFIXES = {"py", "md", "toml", "json", "mlir", "png", "h", "cfg", "csv", "txt", "npy", "cpp"}


def package_modules() -> set[str]:
    return {
        str(p.relative_to(ROOT))
        for package in PACKAGES
        for p in (ROOT / package).rglob("*.py")
        if "__pycache__" not in p.parts
    }


def module_map() -> list[str]:
    """The paths of the fenced block under the "## Module map" heading."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## Module map\n", 1)
    assert len(section) == 2, "docs/architecture.md has no '## Module map' section"
    block = section[1].split("```", 2)[1]
    paths = []
    for line in block.splitlines():
        first = line.split()[0] if line.split() else ""
        if first.endswith(".py"):
            paths.append(first)
    return paths


def test_the_module_map_lists_every_module_once():
    listed = module_map()
    duplicated = sorted({p for p in listed if listed.count(p) > 1})
    assert not duplicated, f"listed twice in the module map: {duplicated}"
    missing = sorted(package_modules() - set(listed))
    assert not missing, f"modules missing from docs/architecture.md's module map: {missing}"
    gone = sorted(set(listed) - package_modules())
    assert not gone, f"the module map names modules that do not exist: {gone}"


def stale_reference(path: str) -> str | None:
    """Why ``path`` (a file, or ``module.name``) names nothing, or None when it exists."""
    stem, _, suffix = path.rpartition(".")
    if suffix in SUFFIXES:
        return None if (ROOT / path).exists() else "no such file"
    module = ROOT / f"{stem}.py"
    if not module.exists():
        return f"no module {stem}.py"
    defined = re.compile(rf"^\s*(?:def|class|async def)\s+{suffix}\b|^{suffix}\s*[:=]", re.M)
    if not defined.search(module.read_text(encoding="utf-8")):
        return f"{stem}.py defines no {suffix}"
    return None


def test_every_file_the_docs_name_exists():
    stale = []
    for page in PAGES:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for path in PATH.findall(line):
                path = path.rstrip(".")
                why = None if "*" in path else stale_reference(path)
                if why is not None:
                    stale.append(f"{page.relative_to(ROOT)}:{n}: {path}: {why}")
    assert not stale, "pages name files that do not exist:\n" + "\n".join(stale)
