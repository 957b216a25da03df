"""The program ``ascend-run`` runs: the file parsed and verified, the entry picked, its
arguments read off its signature. Every complaint is a :class:`CliError` naming the file, the
op or the argument."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError

from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.ir.dominance import check_dominance
from ascend_xdsl.ir.locations import describe_op, parse_file
from ascend_xdsl.ir.loops import check_loops
from ascend_xdsl.ir.program import entry_functions, find_function, is_kernel
from ascend_xdsl.lowering.pipeline import make_context
from ascend_xdsl.runtime.machine.values import np_dtype
from ascend_xdsl.tools.errors import (
    CliError,
    SourceError,
    describe_parse_error,
    first_line,
    read_program,
)


def load_module(path: str) -> ModuleOp:
    """Parse and verify ``path``; every failure is a :class:`CliError` naming where."""
    try:
        text = read_program(path)
    except SourceError as e:
        raise CliError(str(e)) from None
    try:
        module = parse_file(make_context(), text, path)
    except ParseError as e:
        raise CliError(describe_parse_error(e)) from None
    except DiagnosticException as e:  # an attribute verifier failing while parsing
        raise CliError(f"{path}: {first_line(e)}") from None
    except RecursionError:
        raise CliError(f"{path}: nested too deeply to parse") from None
    try:
        module.verify()
        check_dominance(module)
        check_loops(module)
    except DiagnosticException as e:
        where = getattr(e, "ascend_op", None) or _failing_op(module)
        prefix = f"{describe_op(where)}: " if where is not None else ""
        raise CliError(f"verification failed: {prefix}{first_line(e)}") from None
    except RecursionError:
        raise CliError(f"{path}: nested too deeply to verify") from None
    return module


def _failing_op(module: ModuleOp) -> Operation | None:
    """The first op (in program order) whose own verifier fails; only called on failure."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException:
            return op
    return None


def pick_entry(module: ModuleOp, name: str | None) -> func.FuncOp:
    entries = entry_functions(module)
    names = ", ".join(f"@{f.sym_name.data}" for f in entries)
    if name is None:
        if len(entries) == 1:
            return entries[0]
        if not entries:
            raise CliError("the module has no entry function (a defined func.func, not a kernel)")
        raise CliError(f"the module has several entry functions ({names}): pick one with --entry")
    f = find_function(module, name.removeprefix("@"))
    if f is None:
        raise CliError(f"--entry {name}: no such function (entry functions: {names or 'none'})")
    if is_kernel(module, f):
        raise CliError(
            f"--entry {name}: @{f.sym_name.data} is a kernel; it runs on the AI Cores through "
            f"an ascend.launch, not as an entry (entry functions: {names or 'none'})"
        )
    if not f.body.blocks:
        raise CliError(f"--entry {name}: @{f.sym_name.data} is only declared, it has no body")
    return f


@dataclass(frozen=True)
class Argument:
    index: int
    name: str
    """The SSA name hint (``x`` for ``%x``), else ``argN``."""
    type: MemRefType

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.type.get_shape())

    @property
    def dtype(self) -> np.dtype:
        return np_dtype(self.type.element_type)


def arguments(entry: func.FuncOp) -> list[Argument]:
    """The entry's arguments; only memrefs are supported (what every level's entry takes)."""
    args: list[Argument] = []
    for i, arg in enumerate(entry.args):
        name = arg.name_hint or f"arg{i}"
        if not isinstance(arg.type, MemRefType):
            hint = ""
            if isinstance(arg.type, GmTensorType):
                hint = " (a function on !ascend.gm_tensor is a kernel: run its host function)"
            raise CliError(
                f"@{entry.sym_name.data}: argument %{name} is {arg.type}; only memref arguments "
                f"are supported at the entry{hint}"
            )
        try:
            np_dtype(arg.type.element_type)
        except TypeError:
            raise CliError(
                f"@{entry.sym_name.data}: argument %{name} has element type "
                f"{arg.type.element_type}, which the simulator does not support"
            ) from None
        args.append(Argument(i, name, arg.type))
    for i, t in enumerate(entry.function_type.outputs.data):
        if not isinstance(t, MemRefType):
            raise CliError(
                f"@{entry.sym_name.data}: result {i} is {t}; only memref results are supported"
            )
    return args
