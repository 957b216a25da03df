"""The front door of the compiler: compile an op-level dW module through every IR level, from
one description.

:data:`PIPELINE` is the single description of the compiler: an ordered list of stages, each an
IR level, a pass name and the map from the typed compile options
(:class:`~ascend_xdsl.lowering.options.CompileOptions`) to the pass's options:

=================================  ===========================================================
``ascend-tile-conv3d-bp-filter``   ``strategy``, ``hw``, ``cores``, ``tiling-file``,
                                   ``override``, ``dk``, ``budget``, ``use-cache``, ``progress``
``ascend-tile-conv3d``             ``strategy``, ``hw``, ``cores``, ``tiling-file``,
                                   ``budget``, ``use-cache``, ``progress``
``ascend-tile-conv3d-bp-input``    the same as ``ascend-tile-conv3d``
``ascend-plan-buffers``            ``hw``
``ascend-insert-sync``             ``hw``
=================================  ===========================================================

The stages of one level run in order; the module after the last stage of a level *is* that
level. ``"op"`` is the input and has no stage. Every pass is looked up by name in
``ascend_xdsl.lowering.registry.PASSES`` (the one place passes are registered) and built from
the options directly, so this module imports no pass and nothing is rendered to text and parsed
back: a stage whose pass is not registered yet fails with :class:`MissingPassError` naming it,
while the levels before it compile. Two consumers read :data:`PIPELINE`:

* :func:`compile_levels` — the compile step of the runtime's runner (``runtime/runner.py``),
  which ``ascend-conv``, ``ascend-run`` and the Python API share: returns the module after each
  level (``{"op": ..., "format": ..., "api": ..., "hw": ...}``);
* :class:`AscendPipelinePass` — ``ascend-pipeline{strategy=heuristic hw=atlas-a2-910b2 cores=0}``,
  the same chain as one ModulePass for ``ascend-opt`` / ``xdsl-opt``, its text options read into
  the same :class:`CompileOptions` (:meth:`CompileOptions.from_text`).

To add a pass, add a stage to ``PIPELINE`` (and the pass to the registry); a pass takes options
only through its stage's map, so both consumers stay in step.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.attributes import DwTilingAttr
from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp
from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.ir import collector
from ascend_xdsl.lowering.options import CompileError, CompileOptions, PipelineError
from ascend_xdsl.lowering.registry import DIALECTS, PASSES

PassRegistry = Mapping[str, Callable[[], type[ModulePass]]]

PassOptions = Callable[[CompileOptions], dict[str, object]]
"""The options of one stage's pass, taken from the compile options."""


def _no_options(options: CompileOptions) -> dict[str, object]:
    return {}


def _tiler_options(options: CompileOptions) -> dict[str, object]:
    return {
        "strategy": options.strategy,
        "hw": options.hw.name,
        "cores": options.cores,
        "tiling_file": options.tiling_file,
        "override": options.override,
        "dk": options.dk,
        "budget": options.budget,
        "use_cache": options.use_cache,
        "progress": options.progress,
    }


def _forward_tiler_options(options: CompileOptions) -> dict[str, object]:
    return {
        "strategy": options.strategy,
        "hw": options.hw.name,
        "cores": options.cores,
        "tiling_file": options.tiling_file,
        "budget": options.budget,
        "use_cache": options.use_cache,
        "progress": options.progress,
    }


def _target_options(options: CompileOptions) -> dict[str, object]:
    return {"hw": options.hw.name}


@dataclass(frozen=True)
class Stage:
    """One pass of the pipeline: the level it belongs to, its registered name, its options."""

    level: str
    pass_name: str
    options: PassOptions = _no_options


PIPELINE: tuple[Stage, ...] = (
    Stage("format", "ascend-legalize-formats"),
    # The tiler works on (and keeps) format-level IR, but its choice is the input of the API
    # lowering, so it opens the "api" stage: "format" is the layout legalization alone.
    Stage("api", "ascend-tile-conv3d-bp-filter", _tiler_options),
    # The forward conv's tiler: ascend.conv3d ops only (a dW module passes through unchanged).
    Stage("api", "ascend-tile-conv3d", _forward_tiler_options),
    # The input gradient's tiler (the forward's options: strategy, target, core cap, search):
    # ascend.conv3d_backprop_input ops only.
    Stage("api", "ascend-tile-conv3d-bp-input", _forward_tiler_options),
    Stage("api", "convert-conv-to-ascend-api"),
    Stage("hw", "lower-ascend-api-to-hw", _target_options),
    Stage("hw", "ascend-plan-buffers", _target_options),
    Stage("hw", "ascend-insert-sync", _target_options),
    # The tile walk recomputes tails and offsets from the loop indices; hoisting what is
    # invariant and folding what is repeated keeps the kernel's scalar work (and the IR) small.
    Stage("hw", "licm"),
    # xDSL's canonicalize, skipped when no pattern could fire (then it only deletes dead code,
    # which is all it does on most kernels): the same output, a third of a candidate's compile
    # less (passes/cleanup.py).
    Stage("hw", "ascend-canonicalize"),
    # xDSL's cse, each op's memory effects computed once rather than at every query (a loop's
    # are its whole body's): the same output, cheaper (passes/cleanup.py).
    Stage("hw", "ascend-cse"),
)
"""The compiler, level by level, in order."""

INPUT_LEVEL = "op"


def _levels(pipeline: tuple[Stage, ...]) -> tuple[str, ...]:
    levels = [INPUT_LEVEL]
    for stage in pipeline:
        if stage.level != levels[-1]:
            if stage.level in levels:
                raise AssertionError(f"pipeline level '{stage.level}' is not contiguous")
            levels.append(stage.level)
    return tuple(levels)


LEVELS: tuple[str, ...] = _levels(PIPELINE)
"""Every IR level in pipeline order: ``("op", "format", "api", "hw")``."""


class MissingPassError(PipelineError):
    """A stage names a pass that is not (yet) registered or cannot be loaded."""

    def __init__(self, pass_name: str, level: str, reason: str):
        self.pass_name = pass_name
        self.level = level
        super().__init__(
            f"cannot compile to the {level} level: pass '{pass_name}' {reason} "
            f"(levels available so far: {', '.join(LEVELS[: LEVELS.index(level)])})"
        )


def default_registry() -> PassRegistry:
    """xDSL's own passes (``licm``) and ours
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


def _check_level(stop_after: str) -> int:
    if stop_after not in LEVELS:
        raise PipelineError(f"unknown level '{stop_after}' (expected {', '.join(LEVELS)})")
    return LEVELS.index(stop_after)


def stage_pass(stage: Stage, options: CompileOptions, registry: PassRegistry) -> ModulePass:
    """The pass instance of one stage, built from ``options``."""
    factory = registry.get(stage.pass_name)
    if factory is None:
        raise MissingPassError(stage.pass_name, stage.level, "is not registered")
    try:
        pass_cls = factory()
    except ImportError as e:
        raise MissingPassError(stage.pass_name, stage.level, f"cannot be loaded ({e})") from None
    fields = stage.options(options)
    known = {f.name for f in dataclasses.fields(pass_cls) if f.init}
    for name in fields:
        if name not in known:
            raise PipelineError(
                f"pass '{stage.pass_name}' in the {stage.level} stage has no option "
                f'"{name.replace("_", "-")}"'
            )
    return pass_cls(**fields)


def pipeline_passes(
    options: CompileOptions,
    stop_after: str = LEVELS[-1],
    registry: PassRegistry | None = None,
) -> list[tuple[str, ModulePass]]:
    """Every ``(level, pass)`` needed to reach ``stop_after``, all resolved before any runs."""
    last = _check_level(stop_after)
    registry = default_registry() if registry is None else registry
    return [
        (stage.level, stage_pass(stage, options, registry))
        for stage in PIPELINE
        if LEVELS.index(stage.level) <= last
    ]


def pipeline_spec(options: CompileOptions, stop_after: str = LEVELS[-1]) -> str:
    """The passes up to ``stop_after`` as one xDSL pipeline string (for ``-p``), each with the
    options that differ from its defaults. A :class:`DwTiling` given as such has no text: the
    string says ``strategy="fixed"``, which takes the tiling on the op."""
    return ",".join(str(p.pipeline_pass_spec()) for _, p in pipeline_passes(options, stop_after))


BUILD_LOCK = threading.RLock()
"""Held while passes run: they are not safe to run in two threads at once.

The lowering builds IR with xDSL's ``ImplicitBuilder``. Its current builder is per thread,
but to reach it, the outermost ``ImplicitBuilder`` of a thread replaces the class attribute
``Operation.__post_init__`` (process-wide) with a wrapper and puts back, on exit, whatever it
found on entry. Two threads building at once interleave those saves and restores: one thread's
builder stops receiving ops while it is still open (ops go missing: "value defined out of its
IsolatedFromAbove parent"), or the wrapper ends up wrapped twice and each op is inserted twice
("Can't add to a block an operation already attached to a block"). Nothing in the passes
themselves is shared, so one lock around a compile is the whole fix: under the GIL a second
compile could not run in parallel anyway. Re-entrant, because the ``tuned`` strategy compiles
its candidates from inside the tiler pass."""


def compile_levels(
    module: ModuleOp,
    options: CompileOptions | None = None,
    *,
    stop_after: str | None = None,
    registry: PassRegistry | None = None,
    verify: bool = True,
) -> dict[str, ModuleOp]:
    """Compile an op-level module; return the module after each level up to ``stop_after``.

    ``options`` (default: :meth:`CompileOptions.create` with its defaults) say the target,
    cores, tiling, override and Dk mode; a :class:`DwTiling` in ``options.tiling`` is put on
    the dW ops and compiled as ``fixed`` (no text in between: the tuner's candidates). The
    input module is not modified; each returned module is its own copy, verified.
    ``verify=False`` (the tuner's inner loop) verifies nothing and keeps only the module of
    ``stop_after``, uncopied: about a third of a compile is verification. Raises
    :class:`PipelineError` (a ``ValueError``) for a bad level, :class:`MissingPassError` when a
    pass needed to reach ``stop_after`` is not registered and :class:`CompileError` when a pass
    rejects the problem or its options. ``registry`` replaces the pass registry (for tests).
    """
    with BUILD_LOCK, collector.fewer_collections():
        return _compile_levels(module, options, stop_after, registry, verify)


def _compile_levels(
    module: ModuleOp,
    options: CompileOptions | None,
    stop_after: str | None,
    registry: PassRegistry | None,
    verify: bool,
) -> dict[str, ModuleOp]:
    options = CompileOptions.create() if options is None else options
    stop_after = stop_after or LEVELS[-1]
    passes = pipeline_passes(options, stop_after, registry)
    ctx = make_context()
    if verify:
        module.verify()
    work = module.clone()
    if options.tiling is not None:
        for op in work.walk():
            if isinstance(op, Conv3DBackpropFilterOp):
                op.tiling = DwTilingAttr(options.tiling)
    if not verify:
        for level, p in passes:
            try:
                p.apply(ctx, work)
            except PassFailedException as e:
                raise CompileError(level, e) from None
        return {stop_after: work}
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


def compile_from(module: ModuleOp, level: str, options: CompileOptions | None = None) -> ModuleOp:
    """A copy of ``module``, a program already at ``level``, compiled to the last level by
    the stages after ``level`` (an API-level program written by hand: the cost-only mode
    times hardware-level kernels, so it lowers one as the pipeline would). Raises
    :class:`CompileError` naming the level when a pass rejects it."""
    options = CompileOptions.create() if options is None else options
    start = _check_level(level)
    passes = [(lvl, p) for lvl, p in pipeline_passes(options) if LEVELS.index(lvl) > start]
    ctx = make_context()
    with BUILD_LOCK, collector.fewer_collections():
        work = module.clone()
        for stage_level, p in passes:
            try:
                p.apply(ctx, work)
            except PassFailedException as e:
                raise CompileError(stage_level, e) from None
        work.verify()
    return work


@dataclass(frozen=True)
class AscendPipelinePass(ModulePass):
    """The whole chain of :data:`PIPELINE` as one pass, with the one option set.

    ``ascend-pipeline{strategy=heuristic hw=atlas-a2-910b2 cores=0 tiling-file="" override=""
    dk=separate stop-after=hw}``; ``cores=0`` is every core of ``hw``.
    """

    name = "ascend-pipeline"

    strategy: str = "heuristic"
    hw: str = DEFAULT_HW
    cores: int = 0
    tiling_file: str = ""
    override: str = ""
    dk: str = "separate"
    budget: int | None = None
    stop_after: str = LEVELS[-1]

    def options(self) -> CompileOptions:
        """The text options as the typed ones (:class:`PipelineError` if they are bad)."""
        return CompileOptions.from_text(
            hw_name=self.hw,
            strategy=self.strategy,
            cores=self.cores,
            tiling_file=self.tiling_file,
            override=self.override,
            dk=self.dk,
            budget=self.budget,
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            passes = pipeline_passes(self.options(), self.stop_after)
        except CompileError as e:  # what the tiler says of its options, as it says it
            raise PassFailedException(e.reason) from e
        except PipelineError as e:
            raise PassFailedException(f"{self.name}: {e}") from e
        with BUILD_LOCK:
            for _, p in passes:
                p.apply(ctx, op)
