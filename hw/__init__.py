"""Hardware descriptions of the Ascend AI Cores this compiler targets.

Each description is a TOML data file next to this module (``atlas-a2-910b2.toml``, ...,
``atlas-a3-9392.toml``), in which every figure carries its value, its unit, the source it was
taken from and its kind (one of :data:`KINDS`), and optionally a note on why it was chosen; the
CANN SoC name and NPU architecture (``soc_version``, ``npu_arch``) carry their source too.
Code never hard-codes a hardware figure: the tiler, the buffer planner, the verifiers and the
runtime all ask :func:`load` for the configured description, and the cost model asks
:func:`ascend_xdsl.hw.cost_figures.cost_figures`.
This package is pure data and imports nothing else of ours, so every layer may use it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

DEFAULT_HW = "atlas-a2-910b2"
"""The hardware every tool, pass and runtime function targets unless told otherwise."""

MEMORY_FIGURES: dict[str, tuple[str, str]] = {
    "L1": ("l1_size", "l1_align"),
    "L0A": ("l0a_size", "l0ab_align"),
    "L0B": ("l0b_size", "l0ab_align"),
    "L0C": ("l0c_size", "l0c_align"),
    "BT": ("bias_table_size", "bias_table_align"),
    "UB": ("ub_size", "ub_align"),
}
"""On-chip memory name -> the names of its (size, buffer alignment) figures, in bytes."""


KINDS: tuple[str, ...] = ("official", "vendor-measured", "third-party", "estimated")
"""The kinds of evidence a figure may rest on: vendor-authored documentation, configuration or
code; measurements the vendor published; figures quoted or measured by others; derived or assumed
here."""


class UnknownHardwareError(ValueError):
    """Raised for a hardware name that has no description file."""


@dataclass(frozen=True)
class Figure:
    value: int | float
    """The figure; for a measured table (:attr:`points`), its number of rows."""
    unit: str
    source: str
    kind: str
    note: str = ""
    points: tuple[tuple[float, float], ...] = ()
    """A measured curve, (x, y) rows with x increasing (e.g. transfer KB -> GiB/s); empty for a
    single value."""


@dataclass(frozen=True)
class HwConfig:
    """One AI Core generation/SKU: its figures by name, each with a source."""

    name: str
    description: str
    figures: dict[str, Figure]
    soc_version: str = ""
    """The CANN SoC name (``Ascend910B2``, ``Ascend910_9392``): what a build's SOC_VERSION and
    the platform file are called; empty for a description that names none."""
    npu_arch: str = ""
    """The NPU architecture the ``.asc`` build compiles for (``dav-2201``)."""

    def __getitem__(self, key: str) -> int | float:
        try:
            return self.figures[key].value
        except KeyError:
            raise KeyError(f"hardware '{self.name}' has no figure '{key}'") from None

    def points(self, key: str) -> tuple[tuple[float, float], ...]:
        """The rows of the table figure ``key`` (see :attr:`Figure.points`)."""
        self[key]  # the one "no figure" error
        rows = self.figures[key].points
        assert rows, f"figure '{key}' of '{self.name}' is not a table"
        return rows

    def int(self, key: str) -> int:
        value = self[key]
        assert isinstance(value, int), f"figure '{key}' of '{self.name}' is not an integer"
        return value

    @property
    def aic_count(self) -> int:
        return self.int("aic_count")

    @property
    def l1_size(self) -> int:
        return self.int("l1_size")

    @property
    def l0a_size(self) -> int:
        return self.int("l0a_size")

    @property
    def l0b_size(self) -> int:
        return self.int("l0b_size")

    @property
    def l0c_size(self) -> int:
        return self.int("l0c_size")

    @property
    def bias_table_size(self) -> int:
        return self.int("bias_table_size")

    @property
    def event_ids(self) -> int:
        return self.int("event_ids")

    @property
    def user_event_ids(self) -> int:
        """Event ids per pipe pair a kernel may use; the ids above are the framework's."""
        return self.int("user_event_ids")

    def memory_size(self, memory: str) -> int:
        """Bytes of the on-chip ``memory`` (``L1``, ``L0A``, ``L0B``, ``L0C``, ``BT``, ``UB``)."""
        return self.int(self._memory_figures(memory)[0])

    def memory_alignment(self, memory: str) -> int:
        """Byte alignment of a buffer address in the on-chip ``memory``."""
        return self.int(self._memory_figures(memory)[1])

    def _memory_figures(self, memory: str) -> tuple[str, str]:
        try:
            return MEMORY_FIGURES[memory]
        except KeyError:
            names = ", ".join(MEMORY_FIGURES)
            raise ValueError(f"'{memory}' is not an on-chip memory (one of {names})") from None


_NOT_HARDWARE = frozenset({"isa"})
"""Data files here that describe no hardware (``isa.toml``: the instruction limits)."""


def available() -> list[str]:
    """Names of every hardware description shipped with the package."""
    files = resources.files(__name__).iterdir()
    names = (f.name.removesuffix(".toml") for f in files if f.name.endswith(".toml"))
    return sorted(n for n in names if n not in _NOT_HARDWARE)


@cache
def load(name: str = DEFAULT_HW) -> HwConfig:
    """The hardware description called ``name`` (e.g. ``atlas-a2-910b2``)."""
    path = resources.files(__name__) / f"{name}.toml"
    if name in _NOT_HARDWARE or not path.is_file():
        raise UnknownHardwareError(
            f"unknown hardware '{name}' (available: {', '.join(available())})"
        )
    return parse(path.read_text(encoding="utf-8"), f"{name}.toml")


def parse(text: str, file: str) -> HwConfig:
    """The hardware description in the TOML ``text``; ``file`` names it in error messages.

    Raises ValueError, in one line naming ``file`` and the figure, for a figure without a value,
    a source or a valid kind."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{file}: {e}") from None
    if "name" not in data:
        raise ValueError(f"{file}: no 'name'")
    figures = {key: _figure(file, key, f) for key, f in data.get("figures", {}).items()}
    names = {key: _sourced_name(file, data, key) for key in ("soc_version", "npu_arch")}
    return HwConfig(
        name=data["name"], description=data.get("description", ""), figures=figures, **names
    )


def _sourced_name(file: str, data: dict[str, object], key: str) -> str:
    """A name the toml gives with its source (``soc_version``, ``npu_arch``), or ""."""
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"{file}: '{key}' is not a string")
    source = data.get(f"{key}_source")
    if value and (not isinstance(source, str) or not source.strip()):
        raise ValueError(f"{file}: '{key}' has no '{key}_source'")
    return value


def _figure(file: str, key: str, f: object) -> Figure:
    where = f"{file}: figure '{key}'"
    if not isinstance(f, dict):
        raise ValueError(f"{where} is not a table")
    points = _points(where, f.get("points"))
    value = len(points) if points else f.get("value")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{where} has no numeric value")
    source = f.get("source")
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"{where} has no source")
    kind = f.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where} has kind {kind!r}, not one of {', '.join(KINDS)}")
    note = f.get("note", "")
    if not isinstance(note, str):
        raise ValueError(f"{where} has a note that is not a string")
    return Figure(
        value=value, unit=f.get("unit", ""), source=source, kind=kind, note=note, points=points
    )


def _points(where: str, rows: object) -> tuple[tuple[float, float], ...]:
    """The rows of a table figure: at least two [x, y] number pairs, x increasing."""
    if rows is None:
        return ()
    if not isinstance(rows, list) or len(rows) < 2:
        raise ValueError(f"{where} has points that are not a list of at least two [x, y] rows")
    out: list[tuple[float, float]] = []
    for row in rows:
        ok = isinstance(row, list) and len(row) == 2
        if not ok or any(isinstance(v, bool) or not isinstance(v, int | float) for v in row):
            raise ValueError(f"{where} has a point {row!r} that is not an [x, y] number pair")
        if out and row[0] <= out[-1][0]:
            raise ValueError(f"{where} has points whose x does not increase at {row!r}")
        out.append((float(row[0]), float(row[1])))
    return tuple(out)
