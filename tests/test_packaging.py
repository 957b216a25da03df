"""The package as pip installs it: every folder packaged, ``ascend_xdsl`` importable everywhere.

pyproject.toml lists the subpackages by hand, because they live in top-level folders mapped
onto ``ascend_xdsl``; a subpackage missing from the list is absent from a wheel while the
editable install of a developer can still hide it. These tests read the list against the tree,
build a real wheel and look inside, and import the package from the repository's root, where a
folder named like the package would shadow the installed one.
"""

import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import version
from pathlib import Path

import ascend_xdsl

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
FOLDERS: dict[str, str] = SETUPTOOLS["package-dir"]
"""Package name → repository folder, as pyproject.toml maps them."""


def _source_packages() -> set[str]:
    found = set()
    for name, folder in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *relative)))
    return found


def test_every_folder_with_an_init_is_listed():
    assert set(SETUPTOOLS["packages"]) == _source_packages()


def test_top_level_version():
    assert ascend_xdsl.__version__ == version("ascend-xdsl")


def test_imports_from_the_repository_root():
    # `python -c` puts the working directory first on sys.path: the package's own folder is
    # named package/, not ascend_xdsl/, so it cannot shadow the installed tree from here.
    code = "import ascend_xdsl, ascend_xdsl.hw.instructions; print(ascend_xdsl.__version__)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == version("ascend-xdsl")


def test_wheel_holds_every_module_and_data_file(tmp_path):
    # Built from a copy, so the build leaves nothing in the work tree.
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        (source / name).write_bytes((ROOT / name).read_bytes())
    expected = set()
    for name, folder in FOLDERS.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                relative = path.relative_to(ROOT / folder)
                (source / folder / relative).parent.mkdir(parents=True, exist_ok=True)
                (source / folder / relative).write_bytes(path.read_bytes())
                if path.suffix in (".py", ".toml", ".h"):
                    expected.add("/".join((*name.split("."), *relative.parts)))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, check=True,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        packaged = set(archive.namelist())
    assert expected - packaged == set()
