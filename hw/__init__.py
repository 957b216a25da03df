"""Hardware descriptions of the Ascend AI Cores this compiler targets.

Each description is a TOML data file next to this module (``atlas-a2-910b2.toml``, ...), in which
every figure carries the source it was taken from. Code never hard-codes a hardware figure: the
tiler, the buffer planner, the verifiers and the runtime all ask :func:`load` for the configured
description. This package is pure data and imports nothing else of ours, so every layer may use it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

DEFAULT_HW = "atlas-a2-910b2"


class UnknownHardwareError(ValueError):
    """Raised for a hardware name that has no description file."""


@dataclass(frozen=True)
class Figure:
    value: int | float
    unit: str
    source: str


@dataclass(frozen=True)
class HwConfig:
    """One AI Core generation/SKU: its figures by name, each with a source."""

    name: str
    description: str
    figures: dict[str, Figure]

    def __getitem__(self, key: str) -> int | float:
        try:
            return self.figures[key].value
        except KeyError:
            raise KeyError(f"hardware '{self.name}' has no figure '{key}'") from None

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
    def event_ids(self) -> int:
        return self.int("event_ids")


def available() -> list[str]:
    """Names of every hardware description shipped with the package."""
    files = resources.files(__name__).iterdir()
    return sorted(f.name.removesuffix(".toml") for f in files if f.name.endswith(".toml"))


@cache
def load(name: str = DEFAULT_HW) -> HwConfig:
    """The hardware description called ``name`` (e.g. ``atlas-a2-910b2``)."""
    path = resources.files(__name__) / f"{name}.toml"
    if not path.is_file():
        raise UnknownHardwareError(
            f"unknown hardware '{name}' (available: {', '.join(available())})"
        )
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    figures = {
        key: Figure(value=f["value"], unit=f.get("unit", ""), source=f["source"])
        for key, f in data.get("figures", {}).items()
    }
    return HwConfig(name=data["name"], description=data.get("description", ""), figures=figures)
