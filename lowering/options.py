"""The typed options of one compile, checked once, from which the pipeline builds its passes.

:class:`CompileOptions` is what every front door hands the compiler (``lowering/pipeline.py``):
the target as its :class:`~ascend_xdsl.hw.HwConfig`, the cores as one int already checked
against it, the tiling (a strategy, a file or a :class:`DwTiling`), the override, the Dk mode
and the search's budget and cache. The pipeline turns it into pass instances directly
(``PIPELINE``'s option maps), so nothing is rendered to text and parsed back. Text is what the
edges speak: ``ascend-opt -p`` and ``ascend-pipeline{...}`` (:meth:`CompileOptions.from_text`)
and the tools' flags (:meth:`CompileOptions.create`, which takes the hardware by name and
``cores=None`` for every core). Both spellings build the same passes and give the same IR.

The error classes of the compiler live here too, below the pipeline, so that checking options
needs no pass and no pipeline.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.hw import DEFAULT_HW, HwConfig, UnknownHardwareError, load
from ascend_xdsl.passes.hardware import cores_error
from ascend_xdsl.passes.tiling_options import DK_MODES, STRATEGIES


class PipelineError(ValueError):
    """A pipeline that cannot be set up: bad option, unknown level, hardware or pass."""


class CompileError(PipelineError):
    """A pass rejected the problem or the options (a tiling that does not fit, a bad
    override): the pass's message, on one line, with the level it stopped at."""

    def __init__(self, level: str, cause: Exception | str):
        self.level = level
        text = str(cause).strip()
        self.reason = text.splitlines()[0] if text else type(cause).__name__
        """The pass's own message (what the pass reports when it runs alone)."""
        super().__init__(f"compilation failed: {self.reason}")


Override = str | Mapping[str, int] | Sequence[str]
"""Tiling fields to replace: ``"base_k=64 iterate_order=1"``, ``["base_k=64", ...]`` or
``{"base_k": 64, ...}``."""


def override_text(override: Override) -> str:
    """``override`` in the tiler's one spelling, ``"FIELD=N FIELD=N"``; ``TypeError`` for
    anything else. The text is split on white space by the tiler, so a mapping key or a
    sequence item is checked here, where it is still one item: a key must be a tiling field
    (``{"base_k=16 iterate_order": 1}`` would otherwise set two fields) and an item hold no
    white space (:class:`PipelineError`, naming it); the tiler checks the rest."""
    if isinstance(override, str):
        return override
    if isinstance(override, Mapping):
        fields = set(DwTiling.field_names())
        for key in override:
            if not isinstance(key, str) or key not in fields:
                raise PipelineError(f"override key {key!r} is not a dw_tiling field")
        items = [f"{k}={operator.index(v)}" for k, v in override.items()]
    elif isinstance(override, Sequence) and all(isinstance(v, str) for v in override):
        items = list(override)
        for item in items:
            if not item or item.split() != [item]:
                raise PipelineError(f"override item {item!r} is not one FIELD=N")
    else:
        raise TypeError(
            'override must be "FIELD=N ...", a sequence of "FIELD=N" or a mapping of fields '
            f"to integers, got {override!r}"
        )
    return " ".join(items)


def parse_tiling(tiling: str) -> tuple[str, str]:
    """``heuristic`` | ``tuned`` | ``fixed:FILE`` → (strategy, tiling file or "")."""
    strategy, sep, path = tiling.partition(":")
    if strategy == "fixed":
        if not sep or not path:
            raise PipelineError("tiling 'fixed' needs a file: fixed:FILE")
        return strategy, path
    if sep or strategy not in STRATEGIES:
        raise PipelineError(f"unknown tiling '{tiling}' (expected heuristic, tuned or fixed:FILE)")
    return strategy, ""


def load_target(hw: str | HwConfig) -> HwConfig:
    """The target of a front door's ``hw`` (a name or a description already loaded)."""
    if isinstance(hw, HwConfig):
        return hw
    try:
        return load(hw)
    except UnknownHardwareError as e:
        raise PipelineError(str(e)) from None


def checked_cores(cores: object, hw: HwConfig) -> int:
    """The user's ``cores`` (an integer, or None for every core of ``hw``) as the one int the
    compiler uses; ``TypeError`` for another kind, :class:`CompileError` out of range (the
    tiler's message, as before the options were checked up front)."""
    if cores is None:
        return hw.aic_count
    if isinstance(cores, bool) or not hasattr(cores, "__index__"):
        raise TypeError(f"cores must be an integer or None, got {cores!r}")
    count = operator.index(cores)  # type: ignore[arg-type]
    if (error := cores_error(count, hw)) is not None:
        raise CompileError("api", error)
    return count


@dataclass(frozen=True, eq=False)
class CompileOptions:
    """Everything a compile is asked, checked when it is made (use :meth:`create` or
    :meth:`from_text` from names and flags). Equal and hashed by :meth:`key` (``HwConfig``
    holds a dict), so compiles can be cached by their options."""

    hw: HwConfig
    cores: int
    """AI cores to use, in [1, ``hw.aic_count``]."""
    strategy: str = "heuristic"
    tiling_file: str = ""
    """The tiling file of the ``fixed`` strategy."""
    tiling: DwTiling | None = None
    """A tiling given as such: put on the dW ops and compiled as ``fixed`` (the tuner's
    candidates, with no text in between)."""
    override: str = ""
    dk: str = "separate"
    budget: int | None = None
    """``tuned``: candidates the search scores at most (None: the search's default)."""
    use_cache: bool = True
    """``tuned``: take the answer from the tuning cache when it has one."""
    progress: bool = False
    """``tuned``: the search's progress bar on standard error when it is a terminal."""

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise PipelineError(
                f"unknown tiling strategy '{self.strategy}' (expected {', '.join(STRATEGIES)})"
            )
        if self.tiling is not None and (self.strategy != "fixed" or self.tiling_file):
            raise PipelineError("a DwTiling is compiled as the fixed strategy, without a file")
        # fixed without a file takes the tiling already on the op (or the DwTiling given).
        if self.tiling_file and self.strategy != "fixed":
            raise PipelineError("a tiling file goes with the fixed strategy, and only with it")
        path = self.tiling_file
        if path and not (os.path.isfile(path) and os.access(path, os.R_OK)):
            raise PipelineError(f"cannot read tiling file '{path}' (not a readable file)")
        if (error := cores_error(self.cores, self.hw)) is not None:
            raise CompileError("api", error)
        if self.dk not in DK_MODES:
            raise CompileError(
                "api", f"unknown dk mode '{self.dk}' (expected one of {', '.join(DK_MODES)})"
            )

    @classmethod
    def create(
        cls,
        *,
        hw: str | HwConfig = DEFAULT_HW,
        cores: int | None = None,
        tiling: str | DwTiling = "heuristic",
        override: Override = "",
        dk: str = "separate",
        budget: int | None = None,
        use_cache: bool = True,
        progress: bool = False,
    ) -> CompileOptions:
        """The options of the Python API and the tools: ``hw`` by name (or loaded), ``cores``
        None for every core, ``tiling`` ``heuristic``, ``tuned``, ``fixed:FILE`` or a
        :class:`DwTiling`. Raises :class:`PipelineError` (a ``ValueError``; its
        :class:`CompileError` for what the tiler would reject) or ``TypeError``."""
        target = load_target(hw)
        given = tiling if isinstance(tiling, DwTiling) else None
        strategy, tiling_file = ("fixed", "") if given else parse_tiling(str(tiling))
        return cls(
            hw=target,
            cores=checked_cores(cores, target),
            strategy=strategy,
            tiling_file=tiling_file,
            tiling=given,
            override=override_text(override),
            dk=dk,
            budget=budget,
            use_cache=use_cache,
            progress=progress,
        )

    @classmethod
    def from_text(
        cls,
        *,
        hw_name: str,
        strategy: str,
        cores: int,
        tiling_file: str = "",
        override: str = "",
        dk: str = "separate",
        budget: int | None = None,
    ) -> CompileOptions:
        """The options of ``ascend-pipeline{...}``, whose ``cores=0`` means every core."""
        target = load_target(hw_name)
        if cores < 0:
            raise PipelineError(f"cores must be positive (or 0 for all), got {cores}")
        return cls(
            hw=target,
            cores=cores or target.aic_count,
            strategy=strategy,
            tiling_file=tiling_file,
            override=override,
            dk=dk,
            budget=budget,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CompileOptions) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[object, ...]:
        """What identifies the options: the target by name, and every other field."""
        return (
            self.hw.name,
            self.cores,
            self.strategy,
            self.tiling_file,
            self.tiling,
            self.override,
            self.dk,
            self.budget,
            self.use_cache,
            self.progress,
        )
