"""The front door: compile an op-level dW module through every IR level, from one description.

:data:`PIPELINE` is the single description of the compiler: an ordered list of
``(level, pass spec)`` pairs. A pass spec is an ordinary xDSL pipeline string (passes separated
by ``,`` with no space after it, options in ``{}`` separated by spaces) in which ``$name``
placeholders stand for the pipeline options of :class:`PipelineOptions`:

=================  =========================================================================
``$hw``            hardware description name (``hw/<name>.toml``), e.g. ``atlas-a2-910b2``
``$strategy``      tiling strategy: ``heuristic``, ``fixed`` or ``tuned``
``$tiling_file``   tiling file of the ``fixed`` strategy (``""`` otherwise), quoted
``$cores``         number of AI cores to use, ``0`` for every core of ``$hw``
``$override``      tiling fields to override, ``"iterate_order=1 base_k=64"``, quoted
``$dk``            ``separate`` (kd driver loop) or ``fused`` (kD in N), quoted
=================  =========================================================================

The entries of one level run in order; the module after the last entry of a level *is* that
level. ``"op"`` is the input and has no entry. Every pass is looked up by name in
``ascend_xdsl.lowering.registry.PASSES`` (the one place passes are registered), so this module
imports no pass: a stage whose pass is not registered yet fails with :class:`MissingPassError`
naming it, while the levels before it compile. Two consumers read :data:`PIPELINE`:

* :func:`compile` — the Python front door used by ``ascend-conv`` and the runtime API: returns
  the module after each level (``{"op": ..., "format": ..., "api": ..., "hw": ...}``);
* :class:`AscendPipelinePass` — ``ascend-pipeline{strategy=heuristic hw=atlas-a2-910b2 cores=0}``,
  the same chain as one ModulePass for ``ascend-opt`` / ``xdsl-opt``.

To add a pass, add it to ``PIPELINE`` (and to the registry); take options only through the
placeholders, so both consumers stay in step.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from string import Template

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpecParseError, parse_pipeline
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp
from ascend_xdsl.lowering.registry import DIALECTS, PASSES
from ascend_xdsl.passes.tiling_options import STRATEGIES

PassRegistry = Mapping[str, Callable[[], type[ModulePass]]]

PIPELINE: tuple[tuple[str, str], ...] = (
    ("format", "ascend-legalize-formats"),
    # The tiler works on (and keeps) format-level IR, but its choice is the input of the API
    # lowering, so it opens the "api" stage: "format" is the layout legalization alone.
    (
        "api",
        "ascend-tile-conv3d-bp-filter{strategy=$strategy hw=$hw cores=$cores"
        " tiling-file=$tiling_file override=$override dk=$dk}",
    ),
    ("api", "convert-conv-to-ascend-api"),
    ("hw", "lower-ascend-api-to-hw"),
    ("hw", "ascend-plan-buffers{hw=$hw}"),
    ("hw", "ascend-insert-sync{hw=$hw}"),
    # The tile walk recomputes tails and offsets from the loop indices; hoisting what is
    # invariant and folding what is repeated keeps the kernel's scalar work (and the IR) small.
    ("hw", "licm"),
    ("hw", "canonicalize"),
    ("hw", "cse"),
)
"""The compiler, level by level: ``(level, pass spec with $placeholders)``, in order."""

INPUT_LEVEL = "op"


def _levels(pipeline: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    levels = [INPUT_LEVEL]
    for level, _ in pipeline:
        if level != levels[-1]:
            if level in levels:
                raise AssertionError(f"pipeline level '{level}' is not contiguous")
            levels.append(level)
    return tuple(levels)


LEVELS: tuple[str, ...] = _levels(PIPELINE)
"""Every IR level in pipeline order: ``("op", "format", "api", "hw")``."""


class PipelineError(ValueError):
    """A pipeline that cannot be set up: bad option, unknown level, hardware or pass."""


class MissingPassError(PipelineError):
    """A stage names a pass that is not (yet) registered or cannot be loaded."""

    def __init__(self, pass_name: str, level: str, reason: str):
        self.pass_name = pass_name
        self.level = level
        super().__init__(
            f"cannot compile to the {level} level: pass '{pass_name}' {reason} "
            f"(levels available so far: {', '.join(LEVELS[: LEVELS.index(level)])})"
        )


class CompileError(PipelineError):
    """A pass rejected the problem or the options (a tiling that does not fit, a bad
    override): the pass's message, on one line, with the level it stopped at."""

    def __init__(self, level: str, cause: Exception):
        self.level = level
        text = str(cause).strip()
        first = text.splitlines()[0] if text else type(cause).__name__
        super().__init__(f"compilation failed: {first}")


@dataclass(frozen=True)
class PipelineOptions:
    """The one option set of the whole pipeline (what the ``$placeholders`` stand for)."""

    hw: str = hw_data.DEFAULT_HW
    strategy: str = "heuristic"
    tiling_file: str = ""
    cores: int = 0
    override: str = ""
    dk: str = "separate"

    def check(self) -> None:
        """Raise :class:`PipelineError` for an unknown hardware, strategy or bad tiling file."""
        try:
            hw_data.load(self.hw)
        except hw_data.UnknownHardwareError as e:
            raise PipelineError(str(e)) from None
        if self.strategy not in STRATEGIES:
            raise PipelineError(
                f"unknown tiling strategy '{self.strategy}' (expected {', '.join(STRATEGIES)})"
            )
        # fixed without a file takes the tiling already on the op (compile(tiling=DwTiling)).
        if self.tiling_file and self.strategy != "fixed":
            raise PipelineError("a tiling file goes with the fixed strategy, and only with it")
        path = self.tiling_file
        if path and not (os.path.isfile(path) and os.access(path, os.R_OK)):
            raise PipelineError(f"cannot read tiling file '{path}' (not a readable file)")
        if self.cores < 0:
            raise PipelineError(f"cores must be positive (or 0 for all), got {self.cores}")

    def substitutions(self) -> dict[str, str]:
        """Each option rendered in pipeline-string syntax (strings quoted)."""
        return {
            "hw": json.dumps(self.hw, ensure_ascii=False),
            "strategy": json.dumps(self.strategy, ensure_ascii=False),
            "tiling_file": json.dumps(self.tiling_file, ensure_ascii=False),
            "cores": str(self.cores),
            "override": json.dumps(self.override, ensure_ascii=False),
            "dk": json.dumps(self.dk, ensure_ascii=False),
        }


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


def default_registry() -> PassRegistry:
    """xDSL's own passes (``licm``, ``canonicalize``, ``cse``) and ours
    (``ascend_xdsl.lowering.registry.PASSES``), both lazy: the registries only name passes, so
    looking them up here imports no pass that the pipeline does not run."""
    from xdsl.transforms import get_all_passes

    return {**get_all_passes(), **PASSES}


def make_context() -> Context:
    """A context in which every xDSL dialect and the ascend dialect are registered (lazily)."""
    ctx = Context()
    for name, factory in {**get_all_dialects(), **DIALECTS}.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx


def pipeline_spec(options: PipelineOptions, stop_after: str = LEVELS[-1]) -> str:
    """The whole pipeline up to ``stop_after`` as one xDSL pipeline string (for ``-p``)."""
    if stop_after not in LEVELS:
        raise PipelineError(f"unknown level '{stop_after}' (expected {', '.join(LEVELS)})")
    subs = options.substitutions()
    last = LEVELS.index(stop_after)
    return ",".join(
        Template(spec).substitute(subs) for level, spec in PIPELINE if LEVELS.index(level) <= last
    )


def stage_passes(
    level: str, spec: str, options: PipelineOptions, registry: PassRegistry
) -> list[ModulePass]:
    """The pass instances of one pipeline entry, with its placeholders filled in."""
    text = Template(spec).substitute(options.substitutions())
    try:
        arg_specs = list(parse_pipeline(text))
    except ArgSpecParseError as e:  # a BaseException in xDSL 0.74
        raise PipelineError(f"bad pass spec '{text}' in the {level} stage: {e}") from None
    passes: list[ModulePass] = []
    for arg_spec in arg_specs:
        factory = registry.get(arg_spec.name)
        if factory is None:
            raise MissingPassError(arg_spec.name, level, "is not registered")
        try:
            pass_cls = factory()
        except ImportError as e:
            raise MissingPassError(arg_spec.name, level, f"cannot be loaded ({e})") from None
        try:
            passes.append(pass_cls.from_pass_spec(arg_spec))
        except ValueError as e:
            raise PipelineError(f"pass spec '{arg_spec}' in the {level} stage: {e}") from None
    return passes


def pipeline_passes(
    options: PipelineOptions,
    stop_after: str = LEVELS[-1],
    registry: PassRegistry | None = None,
) -> list[tuple[str, ModulePass]]:
    """Every ``(level, pass)`` needed to reach ``stop_after``, all resolved before any runs."""
    if stop_after not in LEVELS:
        raise PipelineError(f"unknown level '{stop_after}' (expected {', '.join(LEVELS)})")
    options.check()
    registry = default_registry() if registry is None else registry
    last = LEVELS.index(stop_after)
    return [
        (level, p)
        for level, spec in PIPELINE
        if LEVELS.index(level) <= last
        for p in stage_passes(level, spec, options, registry)
    ]


def compile(
    module: ModuleOp,
    *,
    hw: str = hw_data.DEFAULT_HW,
    tiling: str | DwTiling = "heuristic",
    core_num: int | None = None,
    stop_after: str | None = None,
    override: str = "",
    dk: str = "separate",
    registry: PassRegistry | None = None,
    verify: bool = True,
) -> dict[str, ModuleOp]:
    """Compile an op-level module; return the module after each level up to ``stop_after``.

    ``tiling`` is ``heuristic``, ``tuned``, ``fixed:FILE`` or a :class:`DwTiling`, which is put
    on the dW ops and compiled as ``fixed`` (no text in between: the tuner's candidates);
    ``override`` replaces tiling fields (``"iterate_order=1 base_k=64"``); ``core_num`` None
    uses every core of ``hw``. The input module is not modified; each returned module is its
    own copy, verified. ``verify=False`` (the tuner's inner loop) verifies nothing and keeps
    only the module of ``stop_after``, uncopied: about a third of a compile is verification.
    Raises :class:`PipelineError` (a ``ValueError``) for bad options,
    :class:`MissingPassError` when a pass needed to reach ``stop_after`` is not registered and
    :class:`CompileError` when a pass rejects the problem or its options.
    ``registry`` replaces the pass registry (for tests).
    """
    given = tiling if isinstance(tiling, DwTiling) else None
    strategy, tiling_file = ("fixed", "") if given else parse_tiling(str(tiling))
    options = PipelineOptions(
        hw=hw,
        strategy=strategy,
        tiling_file=tiling_file,
        cores=core_num or 0,
        override=override,
        dk=dk,
    )
    if core_num is not None and core_num <= 0:
        raise PipelineError(f"core_num must be positive, got {core_num}")
    passes = pipeline_passes(options, stop_after or LEVELS[-1], registry)
    ctx = make_context()
    if verify:
        module.verify()
    work = module.clone()
    if given is not None:
        for op in work.walk():
            if isinstance(op, Conv3DBackpropFilterOp):
                op.tiling = DwTilingAttr(given)
    if not verify:
        for level, p in passes:
            try:
                p.apply(ctx, work)
            except PassFailedException as e:
                raise CompileError(level, e) from None
        return {stop_after or LEVELS[-1]: work}
    modules = {INPUT_LEVEL: module.clone()}
    for i, (level, p) in enumerate(passes):
        try:
            p.apply(ctx, work)
        except PassFailedException as e:  # xDSL's exception, not a ValueError: ours is one
            raise CompileError(level, e) from None
        work.verify()
        if i + 1 == len(passes) or passes[i + 1][0] != level:
            modules[level] = work.clone()
    return modules


@dataclass(frozen=True)
class AscendPipelinePass(ModulePass):
    """The whole chain of :data:`PIPELINE` as one pass, with the one option set.

    ``ascend-pipeline{strategy=heuristic hw=atlas-a2-910b2 cores=0 tiling-file="" override=""
    stop-after=hw}``
    """

    name = "ascend-pipeline"

    strategy: str = "heuristic"
    hw: str = hw_data.DEFAULT_HW
    cores: int = 0
    tiling_file: str = ""
    override: str = ""
    dk: str = "separate"
    stop_after: str = LEVELS[-1]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = PipelineOptions(
            hw=self.hw,
            strategy=self.strategy,
            tiling_file=self.tiling_file,
            cores=self.cores,
            override=self.override,
            dk=self.dk,
        )
        try:
            passes = pipeline_passes(options, self.stop_after)
        except PipelineError as e:
            raise PassFailedException(f"{self.name}: {e}") from e
        for _, p in passes:
            p.apply(ctx, op)
