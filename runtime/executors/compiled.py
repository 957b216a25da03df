"""The compiled executor: each launched kernel translated once into a Python function.

Interpreting a lowered kernel op by op spends most of its time in xDSL's dispatch of the tens
of thousands of index, flag and loop ops around the few thousand instructions. This module
turns a kernel (a ``func.func`` that ``ascend.launch`` calls) into a Python function once: the
translator (``runtime/executors/translator.py``) writes its lines, with the cost-only mode's
loop signatures (``runtime/executors/loop_signatures.py``) when ``aggregate`` is set, and this
module compiles, caches and runs them. Every hardware instruction becomes one call of the
machine's handler of its spec (``runtime/machine/machine.py``), every API call one call of
``runtime/executors/api_sim.py`` — the same functions the xDSL interpreter calls, so the two
executors give bit-identical results and nothing computes dW another way. A data run's kernel
also has two translations for the replay (``runtime/executors/replay.py``), made on first use:
``noting="note"`` appends each instruction's key to ``core.stream`` instead of calling its
handler, ``noting="record"`` appends it and calls the handler.

The translation of a kernel is cached on its ``func.func`` together with a fingerprint of the
kernel (every op, operand, attribute and block, in order): a kernel edited after its first run
is translated again, never run stale. An exception raised by the generated code gets the
failing op as ``ascend_op`` (from the generated line it was raised on), so reports can name the
op by its file:line:column exactly as with the interpreter.

Ops the translator does not know raise :class:`UnsupportedOpError`, naming the op; the
interpreter (``executor="interp"``) runs any op xDSL can.
"""

from __future__ import annotations

import itertools
import linecache
import types
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ascend_xdsl.hw import HwConfig
from ascend_xdsl.hw.intmath import divsi, remsi
from ascend_xdsl.runtime.executors import api_sim
from ascend_xdsl.runtime.executors.loop_signatures import Interner, timing_relevant
from ascend_xdsl.runtime.executors.translator import BOUND, Translator, UnsupportedOpError
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.machine import Machine

__all__ = ["CompiledKernel", "UnsupportedOpError", "compile_kernel", "kernel_of"]


@dataclass(eq=False)
class CompiledKernel:
    """One kernel translated to Python: ``run(core, args)`` executes it on one core."""

    name: str
    source: str
    filename: str
    lines: dict[int, Operation]
    function: Callable[..., tuple[Any, ...]]
    signature: Callable[[int], int] | None = None
    """With ``aggregate``: the signature of a core's run by block index (``_ksig``), if the
    kernel computes one; cores with equal signatures take the same time."""
    budget_cell: list[Budget] = field(default_factory=lambda: [Budget()])
    """The budget the signature functions draw on (set by :meth:`run`, or by the caller
    before it calls :attr:`signature`)."""
    translate: Callable[[str], CompiledKernel] | None = None
    """Translates the same kernel again with another ``noting`` mode (:func:`compile_kernel`);
    set on a data run's kernel, for :meth:`noting`."""
    _variants: dict[str, CompiledKernel] = field(default_factory=dict)

    def noting(self, mode: str) -> CompiledKernel:
        """This kernel translated with ``noting=mode`` (``"note"`` or ``"record"``), once."""
        variant = self._variants.get(mode)
        if variant is None:
            assert self.translate is not None
            variant = self._variants[mode] = self.translate(mode)
        return variant

    def run(self, core: Machine, args: Sequence[Any]) -> tuple[Any, ...]:
        self.budget_cell[0] = core.budget
        try:
            return self.function(core, *args)
        except Exception as e:
            op = self.failing_op(e)
            if op is not None and getattr(e, "ascend_op", None) is None:
                e.ascend_op = op  # type: ignore[attr-defined]
            raise

    def failing_op(self, e: BaseException) -> Operation | None:
        """The op whose generated line raised ``e`` (the innermost one in this kernel)."""
        op = None
        tb: types.TracebackType | None = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                op = self.lines.get(tb.tb_lineno, op)
            tb = tb.tb_next
        return op


_SERIAL = itertools.count()


def compile_kernel(
    kernel: func.FuncOp,
    target: HwConfig,
    timed: bool = False,
    aggregate: bool = False,
    noting: str = "",
) -> CompiledKernel:
    """Translate ``kernel`` into Python (not cached: see :func:`kernel_of`); ``timed`` also
    counts its index arithmetic for the timing backend, ``aggregate`` (which implies it) runs
    its loops through ``core.loop``, for the cost-only mode (``runtime/cost/cost_only.py``);
    ``noting`` (``"note"`` or ``"record"``, untimed only) notes every instruction inline in
    ``core.stream``, as a replay's cores do (:attr:`Translator.noting`)."""
    assert not (noting and (timed or aggregate))
    t = Translator(target, timed or aggregate, aggregate=aggregate, noting=noting)
    if aggregate:
        t.relevant = timing_relevant(kernel)
    params = [t.fresh(arg, "a") for arg in kernel.body.block.args]
    t.block(kernel.body.block)
    signed = False
    if aggregate:
        try:
            t.kernel_signature(kernel)
            signed = True
        except (KeyError, UnsupportedOpError):  # e.g. a block index inside a loop
            pass
    bound = (*BOUND, "loop") if aggregate else BOUND
    prologue = [f"    {name} = core.{name}" for name in bound]
    prologue += [f"    {name} = core.handler({t.const(spec)})" for spec, name in t.handlers.items()]
    prologue.append("    take = core.budget.take")
    if noting:
        prologue += [
            "    N = core.stream.keys.append",
            "    O = core.stream.offsets.append",
            "    named = core.named",
        ]
    head = f"def kernel(core{''.join(', ' + p for p in params)}):"
    # Line numbers of the body shift by the prologue: the writer counted from line 2.
    shift = len(prologue)
    lines = {line + shift: op for line, op in t.out.ops.items()}
    source = "\n".join([head, *prologue, *t.out.lines, "    return ()", "", *t.helpers])
    name = kernel.sym_name.data
    filename = f"<ascend kernel @{name} #{next(_SERIAL)}>"
    namespace: dict[str, Any] = {
        "K": tuple(t.consts),
        "_remsi": remsi,
        "_divsi": divsi,
        "ApiObject": api_sim.ApiObject,
        "api_init": api_sim.init,
        "api_iterate": api_sim.iterate,
        "api_get_tensor_c": api_sim.get_tensor_c,
        "_intern": Interner(),
        "_budget": [Budget()],
    }
    exec(compile(source, filename, "exec"), namespace)
    # So that tracebacks and debuggers can show the generated lines.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    signature = namespace["_ksig"] if signed else None
    compiled = CompiledKernel(
        name, source, filename, lines, namespace["kernel"], signature, namespace["_budget"]
    )
    if not (timed or aggregate or noting):
        ref = weakref.ref(kernel)

        def variant(mode: str) -> CompiledKernel:
            # weak: the cache keeps a kernel's translations only as long as the kernel
            source = ref()
            if source is None:
                raise RuntimeError(f"@{name}: the kernel is gone")
            return compile_kernel(source, target, noting=mode)

        compiled.translate = variant
    return compiled


def fingerprint(kernel: func.FuncOp) -> tuple[object, ...]:
    """Everything in ``kernel`` that the translation depends on: each op (its class, identity,
    parent block, operands, results, properties and attributes) in walk order.

    Kept and compared as the tuple itself, not hashed: attributes are immutable, so an edit
    puts a new object in place, and comparing the same objects stops at their identity while
    hashing them walks every attribute each launch (a tenth of a thin layer's run). The
    tuple holds attributes and ids only, nothing that refers back to the kernel."""
    return tuple(
        (
            type(op),
            id(op),
            id(op.parent),
            tuple(map(id, op.operands)),
            tuple(map(id, op.results)),
            tuple(op.properties.items()),
            tuple(op.attributes.items()),
            tuple(len(r.blocks) for r in op.regions),
        )
        for op in kernel.walk()
    )


_CACHE: weakref.WeakKeyDictionary[
    func.FuncOp, dict[tuple[str, bool, bool], tuple[tuple[object, ...], CompiledKernel]]
] = weakref.WeakKeyDictionary()


def kernel_of(
    module: ModuleOp, name: str, target: HwConfig, timed: bool = False, aggregate: bool = False
) -> CompiledKernel:
    """The compiled kernel ``@name`` of ``module``, translated once and cached until the
    kernel changes (see :func:`fingerprint`)."""
    kernel = next(
        (op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name),
        None,
    )
    if kernel is None:
        raise RuntimeError(f"ascend.launch: no function @{name} in the module")
    key = fingerprint(kernel)
    variants = _CACHE.setdefault(kernel, {})
    cached = variants.get((target.name, timed, aggregate))
    if cached is not None and cached[0] == key:
        return cached[1]
    compiled = compile_kernel(kernel, target, timed, aggregate)
    variants[(target.name, timed, aggregate)] = (key, compiled)
    return compiled
