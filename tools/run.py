"""``ascend-run``: interpret an ascend IR program of any level on the numpy simulator.

``ascend-run FILE.mlir [options]`` parses FILE (every op gets its ``file:line:col``, see
``ir/locations.py``), verifies it, calls one entry function with numpy inputs and writes
its results as ``.npy`` files.

* ``--entry NAME`` picks the function; by default the only entry function of the module
  (``runtime/program.entry_functions``: defined, and not a kernel). Kernels (``ascend.kernel``,
  or the callee of an ``ascend.launch``) run through a launch and cannot be called directly.
* ``--input NAME=FILE.npy`` (repeatable) gives the data of the argument whose SSA name is
  ``%NAME`` (or ``argN``, the N-th argument); ``--random-inputs`` fills every other argument with
  standard-normal data from ``numpy.random.default_rng(--seed)``, in argument order. Each array
  must have exactly the argument's memref shape and element type (bf16 may also be the raw
  2-byte ``V2`` dtype that ``numpy.save`` writes for ``ml_dtypes.bfloat16``).
* Each result goes to ``--output-dir`` (default: the current directory) as ``<entry>.npy``, or
  ``<entry>.result<i>.npy`` when there are several, each written atomically
  (``runtime/output.write_atomically``), with one ``wrote ...`` line per file.
* ``--check`` compares the (single) result with the exact reference of the dW problem the entry
  computes (``runtime/program.conv_problem``, ``runtime/check.check``) on the first two inputs
  (x, dy); ``--sanitize`` runs with the synchronisation sanitizer and lists every hazard.
* ``--hw NAME`` is the hardware description the core memories are sized from.
* ``--report json`` prints the cost model's report of the launch; ``--trace FILE.json`` writes
  the timeline of every core of every launch as a Chrome trace (``runtime/reports/trace.py``;
  several launches are separate processes, one after the other in time) and ``--plot FILE.png`` a
  picture of the last launch (``runtime/reports/plot.py``, the ``plot`` extra). Any of the three
  times the run; the pictures are written atomically before the results.

Standard output gets the report (``hazard:``, ``sanitizer:``, ``check:`` and ``wrote`` lines);
an error is one line on standard error (``ascend-run: error: ...``), never a traceback: exit
code 2 for flags that cannot be parsed, 1 for anything else (unreadable or invalid program,
bad inputs, a failure while interpreting — named with the op being interpreted —, hazards,
a failed check, a loop beyond ``--max-iterations``). An error writes nothing; hazards or a failed
check still write the (complete) results, for inspection, and exit 1. Ctrl-C is 130, a closed
standard output 141, an internal error (a bug of ours) 70 (``tools/errors.run_tool``).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError

from ascend_xdsl import hw as hw_data
from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.ir.dominance import check_dominance
from ascend_xdsl.ir.locations import describe_op, parse_file
from ascend_xdsl.ir.program import conv_problem, entry_functions, find_function, is_kernel
from ascend_xdsl.lowering.pipeline import make_context
from ascend_xdsl.runtime.cost.cost_only import cost_only
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS, build_interpreter
from ascend_xdsl.runtime.machine.host_memory import (
    RUN_FACTOR,
    HostMemoryError,
    check_host_bytes,
    tensor_bytes,
)
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.machine.values import np_dtype
from ascend_xdsl.runtime.reports.check import check, non_finite_note
from ascend_xdsl.runtime.reports.output import write_atomically
from ascend_xdsl.runtime.reports.plot import problem_title
from ascend_xdsl.tools.conv import (
    add_max_iterations_flag,
    check_no_empty_values,
    check_picture_paths,
    int_at_least,
    write_pictures,
)
from ascend_xdsl.tools.errors import (
    CliError,
    OneLineParser,
    SourceError,
    add_debug_flag,
    describe_parse_error,
    first_line,
    read_program,
    run_tool,
)

PROG = "ascend-run"

NPY_MAGIC = b"\x93NUMPY"

RANDOM_DTYPES = ("f16", "bf16", "f32")
"""Element types ``--random-inputs`` can fill."""


def make_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Interpret an ascend IR program (any level) on the numpy simulator.",
    )
    parser.add_argument("file", metavar="FILE.mlir", help="the program")
    parser.add_argument("--entry", metavar="NAME", help="function to call (default: the only one)")
    parser.add_argument(
        "--input",
        metavar="NAME=FILE.npy",
        action="append",
        default=[],
        help="data of argument %%NAME (or argN); repeatable",
    )
    parser.add_argument(
        "--random-inputs",
        action="store_true",
        help="fill every argument without --input with seeded standard-normal data",
    )
    parser.add_argument("--seed", metavar="N", type=int_at_least(0), default=0, help="default 0")
    parser.add_argument(
        "--output-dir", metavar="DIR", default=".", help="where results go (default: .)"
    )
    parser.add_argument(
        "--check", action="store_true", help="compare the result with the dW reference"
    )
    parser.add_argument("--sanitize", action="store_true", help="report synchronisation hazards")
    parser.add_argument("--hw", metavar="NAME", default=hw_data.DEFAULT_HW, help="hardware")
    parser.add_argument(
        "--cost-only",
        action="store_true",
        help="model the launches' cost without running any data (no inputs, no results; "
        "loops extrapolated where their iterations repeat)",
    )
    parser.add_argument(
        "--report",
        choices=("text", "json"),
        default="text",
        help="the report (text, default), or one JSON document on stdout: the cost model's "
        "report of the launch (docs/cost-model.md) with the hazards, the check and the files "
        "written",
    )
    parser.add_argument(
        "--trace",
        metavar="FILE.json",
        help="write the modelled timeline as a Chrome trace for ui.perfetto.dev: a process per "
        "core, a track per pipe; several launches are all traced, one after the other",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="write a PNG of the last launch: its slowest core's timeline and each pipe's busy "
        "ratio and critical-path share (needs matplotlib: pip install 'ascend-xdsl[plot]')",
    )
    add_debug_flag(parser)
    add_max_iterations_flag(parser)
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="compiled",
        help="how kernels run: translated to Python once (compiled, default) or op by op by "
        "xDSL's interpreter (interp); both give the same bits",
    )
    return parser


# ---------------------------------------------------------------------------------------------
# the program


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


# ---------------------------------------------------------------------------------------------
# inputs


def _parse_input_flags(flags: Sequence[str]) -> dict[str, str]:
    given: dict[str, str] = {}
    for flag in flags:
        name, sep, path = flag.partition("=")
        name = name.strip().removeprefix("%")
        if not sep or not name or not path:
            raise CliError(f"--input: expected NAME=FILE.npy, got '{flag}'", exit_code=2)
        if name in given:
            raise CliError(f"--input {name}: given twice", exit_code=2)
        given[name] = path
    return given


def load_npy(arg: Argument, path: str) -> np.ndarray:
    """The array in ``path`` for ``arg``, checked against its memref type."""
    what = f"--input {arg.name}={path}"
    try:
        with open(path, "rb") as f:
            magic = f.read(len(NPY_MAGIC))
            if magic != NPY_MAGIC:
                kind = "an .npz archive" if magic.startswith(b"PK") else "no .npy header"
                raise CliError(f"{what}: not an .npy file ({kind})")
            f.seek(0)
            # The header first: its shape and dtype are checked before a byte of data is
            # allocated (a header can claim 10**12 elements), and the file must hold them.
            version = np.lib.format.read_magic(f)
            read_header = (
                np.lib.format.read_array_header_1_0
                if version == (1, 0)
                else np.lib.format.read_array_header_2_0
            )
            shape, _, dtype = read_header(f)
            header_end = f.tell()
            if tuple(shape) != arg.shape:
                raise CliError(f"{what}: shape {list(shape)} does not match {arg.type}")
            stored = math.prod(shape) * dtype.itemsize
            size = os.fstat(f.fileno()).st_size
            if not dtype.hasobject and size - header_end < stored:
                raise CliError(
                    f"{what}: truncated .npy file ({size - header_end} of its {stored} data bytes)"
                )
            f.seek(0)
            array = np.lib.format.read_array(f, allow_pickle=False)
    except OSError as e:
        raise CliError(f"{what}: cannot read: {e.strerror or e}") from None
    except (ValueError, EOFError) as e:
        raise CliError(f"{what}: corrupt .npy file ({first_line(e)})") from None
    if tuple(array.shape) != arg.shape:
        raise CliError(f"{what}: shape {list(array.shape)} does not match {arg.type}")
    expected = arg.dtype
    if expected == np.dtype(ml_dtypes.bfloat16) and array.dtype == np.dtype("V2"):
        array = array.view(expected)  # numpy.save writes ml_dtypes.bfloat16 as raw V2
    if array.dtype != expected:
        raise CliError(
            f"{what}: dtype {array.dtype} does not match {arg.type} (expected {expected})"
        )
    return np.ascontiguousarray(array)


def check_run_memory(entry: func.FuncOp, args: Sequence[Argument]) -> None:
    """Refuse, before allocating anything, a run whose arguments and results need more host
    memory than the machine has (``runtime/machine/host_memory.py``)."""
    tensors = [(a.shape, a.dtype.itemsize) for a in args]
    for t in entry.function_type.outputs.data:
        if isinstance(t, MemRefType):
            tensors.append((tuple(t.get_shape()), np_dtype(t.element_type).itemsize))
    try:
        check_host_bytes(
            int(tensor_bytes(tensors) * RUN_FACTOR),
            f"running @{entry.sym_name.data} (its arguments and results)",
            "--cost-only models its launches without their data",
        )
    except HostMemoryError as e:
        raise CliError(str(e)) from None


def gather_inputs(
    args: Sequence[Argument], entry: str, given: dict[str, str], random: bool, seed: int
) -> list[np.ndarray]:
    by_name = {a.name: a for a in args} | {f"arg{a.index}": a for a in args}
    for name in given:
        if name not in by_name:
            known = ", ".join(a.name for a in args) or "none"
            raise CliError(f"--input {name}: @{entry} has no argument %{name} (arguments: {known})")
    paths: dict[int, str] = {}
    for name, path in given.items():
        arg = by_name[name]
        if arg.index in paths:
            raise CliError(
                f"--input {name}: argument %{arg.name} (arg{arg.index}) is given twice", exit_code=2
            )
        paths[arg.index] = path
    rng = np.random.default_rng(seed)
    values: list[np.ndarray] = []
    for a in args:
        if a.index in paths:
            values.append(load_npy(a, paths[a.index]))
        elif random:
            kind = element_type_name(a.type.element_type)
            if kind not in RANDOM_DTYPES:
                raise CliError(
                    f"--random-inputs: argument %{a.name} has element type {kind}; random data "
                    f"is for {', '.join(RANDOM_DTYPES)} (give --input {a.name}=FILE.npy)"
                )
            values.append(rng.standard_normal(a.shape).astype(a.dtype))
        else:
            raise CliError(
                f"no data for argument %{a.name} ({a.type}) of @{entry}: give "
                f"--input {a.name}=FILE.npy or --random-inputs"
            )
    return values


# ---------------------------------------------------------------------------------------------
# running


@dataclass
class OpTracker(Interpreter.Listener):
    """Which op the interpreter is in: ops started and not finished, innermost last. After an
    exception its last entry is the op that failed (a launch, for an end-of-kernel error)."""

    stack: list[Operation] = field(default_factory=list)

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        self.stack.append(op)

    def did_interpret_op(self, op: Operation, results: PythonValues) -> None:
        self.stack.pop()


BUGS = (AssertionError, AttributeError, NameError)
"""Exceptions that no program makes the simulator raise on purpose: a bug of ours. Any other
failure while interpreting is a finding about the program, named with its op."""


def run_entry(
    module: ModuleOp,
    entry: func.FuncOp,
    inputs: Sequence[np.ndarray],
    hw_name: str,
    sanitizer: Sanitizer | None,
    executor: str = "compiled",
    costs: list[CostReport] | None = None,
    max_iterations: int | None = None,
) -> tuple[Any, ...]:
    """Run ``entry`` on ``inputs``; any failure becomes a :class:`CliError` naming its op (the
    compiled executor names a kernel op on the exception, ``ascend_op``; the interpreter's ops
    are tracked by a listener).

    Named apart from ``runtime.api.interpret`` (the library call): this one is the CLI's, with
    the op tracker and the one-line error."""
    interpreter, functions = build_interpreter(
        module,
        hw_name,
        sanitizer,
        executor=executor,
        timed=costs is not None,
        max_iterations=max_iterations,
    )
    if costs is not None:
        functions.costs = costs  # the launches' reports land in the caller's list
    tracker = OpTracker()
    interpreter.listeners = (*interpreter.listeners, tracker)
    try:
        return tuple(interpreter.call_op(entry, tuple(inputs)))
    except BUGS:
        raise  # not a finding about the program: an internal error (tools/errors.run_tool)
    except Exception as e:
        failing = getattr(e, "ascend_op", None) or (tracker.stack[-1] if tracker.stack else None)
        where = f"{describe_op(failing)}: " if failing is not None else ""
        raise CliError(f"{where}{first_line(e)}") from None


def _dims(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape)) or "scalar"


def result_files(entry: func.FuncOp, count: int) -> list[str]:
    name = entry.sym_name.data
    if count == 1:
        return [f"{name}.npy"]
    return [f"{name}.result{i}.npy" for i in range(count)]


def write_results(
    entry: func.FuncOp, results: Sequence[Any], output_dir: str
) -> list[tuple[Path, np.ndarray, MemRefType]]:
    """Serialize every result first (so a bad one writes nothing), then write each atomically."""
    types = entry.function_type.outputs.data
    encoded: list[tuple[Path, bytes, np.ndarray, MemRefType]] = []
    for name, value, t in zip(result_files(entry, len(results)), results, types, strict=True):
        assert isinstance(t, MemRefType)
        array = np.ascontiguousarray(np.asarray(value), dtype=np_dtype(t.element_type))
        if tuple(array.shape) != tuple(t.get_shape()):
            raise CliError(f"result {name}: shape {list(array.shape)} does not match {t}")
        buffer = io.BytesIO()
        np.save(buffer, array, allow_pickle=False)
        encoded.append((Path(output_dir) / name, buffer.getvalue(), array, t))
    if encoded:
        try:
            os.makedirs(output_dir, exist_ok=True)
            for path, data, _, _ in encoded:
                write_atomically(path, data)
        except OSError as e:
            raise CliError(f"cannot write to '{output_dir}': {e.strerror or e}") from None
    return [(path, array, t) for path, _, array, t in encoded]


def report_hazards(sanitizer: Sanitizer, when: str = "", show: bool = True) -> bool:
    """Print every hazard and the count (unless not ``show``); True if there is any."""
    n = len(sanitizer.hazards)
    if show:
        for hazard in sanitizer.hazards:
            print(f"hazard: {hazard.describe()}")
        count = f"{n} hazard{'s' if n != 1 else ''}" if n else "no hazards"
        print(f"sanitizer: {count}{when}")
    return n > 0


def run(args: argparse.Namespace) -> int:
    """Run the request; print the report; return the exit code (CliError for failures)."""
    try:
        hw_data.load(args.hw)
    except hw_data.UnknownHardwareError as e:
        raise CliError(f"--hw: {e}") from None
    given = _parse_input_flags(args.input)
    check_picture_paths(args.trace, args.plot)
    module = load_module(args.file)
    entry = pick_entry(module, args.entry)
    entry_name = entry.sym_name.data
    if args.cost_only:
        return run_cost_only(args, module, entry, given)
    params = arguments(entry)
    problem = None
    if args.check:
        problem = conv_problem(entry)
        n_results = len(entry.function_type.outputs.data)
        if problem is None or len(params) < 2 or n_results != 1:
            raise CliError(
                f"--check: @{entry_name} computes no recognisable dW problem "
                "(expected x, dy -> dW around an ascend.conv3d_backprop_filter or ascend.launch)"
            )
    out_dir = Path(args.output_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise CliError(f"--output-dir {args.output_dir}: not a directory")
    check_run_memory(entry, params)
    inputs = gather_inputs(params, entry_name, given, args.random_inputs, args.seed)
    if len(inputs) >= 2 and (problem or conv_problem(entry)) is not None:
        note = non_finite_note(inputs[0], inputs[1])
        if note is not None:
            print(f"{PROG}: warning: {note}", file=sys.stderr)
    sanitizer = Sanitizer.for_hw(args.hw) if args.sanitize else None
    as_json = args.report == "json"
    pictures = bool(args.trace or args.plot)
    costs: list[CostReport] | None = [] if as_json or pictures else None
    try:
        results = run_entry(
            module, entry, inputs, args.hw, sanitizer, args.executor, costs, args.max_iterations
        )
    except CliError:
        if sanitizer is not None and not as_json:  # what was found before the failure
            report_hazards(sanitizer, " before the run failed")
        raise
    failed = False
    document: dict[str, Any] = {}
    if sanitizer is not None:
        failed |= report_hazards(sanitizer, show=not as_json)
        document["hazards"] = [h.describe() for h in sanitizer.hazards]
    if problem is not None:
        try:
            result = check(problem, inputs[0], inputs[1], np.asarray(results[0]))
        except ValueError as e:
            raise CliError(f"--check: {first_line(e)}") from None
        if not as_json:
            print(f"check: {result.describe()}")
        document["check"] = {"ok": result.ok, "description": result.describe()}
        failed |= not result.ok
    if pictures:
        if not costs:
            flag = "--trace" if args.trace else "--plot"
            raise CliError(f"{flag}: @{entry_name} launched no kernel: there is no timeline")
        problem_of_entry = conv_problem(entry)
        if problem_of_entry is not None:
            costs[-1].flops = 2.0 * problem_of_entry.macs
        title = problem_title(problem_of_entry) if problem_of_entry is not None else None
        write_pictures(costs, args.trace, args.plot, title)
        if not as_json:
            n = len(costs)
            if args.trace:
                print(
                    f"wrote {args.trace} (trace of {'the launch' if n == 1 else f'{n} launches'})"
                )
            if args.plot:
                print(f"wrote {args.plot} (plot of the {'last ' if n > 1 else ''}launch)")
    written = write_results(entry, results, args.output_dir)
    if as_json:
        document["written"] = [str(path) for path, _, _ in written]
        print(json.dumps(cost_document(entry, costs or [], document), indent=2))
        return 1 if failed else 0
    for path, array, t in written:
        print(f"wrote {path} ({_dims(array.shape)} {element_type_name(t.element_type)})")
    if not written:
        print(f"@{entry_name} returned no results; nothing written")
    return 1 if failed else 0


def run_cost_only(
    args: argparse.Namespace, module: ModuleOp, entry: func.FuncOp, given: dict[str, str]
) -> int:
    """``--cost-only``: the cost of every launch of ``entry`` without its data; prints the
    cost lines (or the JSON document), writes the pictures, writes no results."""
    for flag, used in (
        ("--check", args.check),
        ("--sanitize", args.sanitize),
        ("--input", bool(given)),
        ("--random-inputs", args.random_inputs),
    ):
        if used:
            raise CliError(f"--cost-only runs no data: {flag} cannot be used with it")
    try:
        costs = cost_only(module, entry, args.hw, args.max_iterations)
    except BUGS:
        raise
    except Exception as e:  # a kernel the model cannot take, in one line
        where = getattr(e, "ascend_op", None)
        prefix = f"{describe_op(where)}: " if where is not None else ""
        raise CliError(f"cost-only: {prefix}{first_line(e)}") from None
    problem = conv_problem(entry)
    if problem is not None:
        for report in costs:
            report.flops = 2.0 * problem.macs
    if (args.trace or args.plot) and not costs:
        flag = "--trace" if args.trace else "--plot"
        raise CliError(f"{flag}: @{entry.sym_name.data} launched no kernel: there is no timeline")
    if costs:
        title = problem_title(problem) if problem is not None else None
        write_pictures(costs, args.trace, args.plot, title)
    if args.report == "json":
        print(json.dumps(cost_document(entry, costs, {"cost_only": True}), indent=2))
        return 0
    for i, report in enumerate(costs):
        if len(costs) > 1:
            print(f"launch {i}:")
        for line in report.summary_lines():
            print(line)
    if not costs:
        print(f"@{entry.sym_name.data} launches no kernel: nothing to model")
    return 0


def cost_document(
    entry: func.FuncOp, costs: Sequence[CostReport], extra: dict[str, Any]
) -> dict[str, Any]:
    """The ``--report json`` document: the cost report of the entry's launch (the last one if
    it has several; the count is ``launches``), the useful FLOPs of its dW problem when it is
    one, and ``extra`` (hazards, check, written files). A program without a launch has no
    hardware cost: its cost keys are null."""
    document: dict[str, Any]
    if costs:
        report = costs[-1]
        problem = conv_problem(entry)
        if problem is not None:
            report.flops = 2.0 * problem.macs
        document = report.to_json()
    else:
        document = dict.fromkeys(COST_KEYS)
    document["launches"] = len(costs)
    document.update(extra)
    return document


COST_KEYS = ("cycles", "seconds", "flops", "tflops", "peak_tflops", "efficiency", "bound",
             "bottleneck", "pipes", "cores")  # fmt: skip
"""The keys of the cost report every ``--report json`` document has (docs/cost-model.md)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ascend-run``; interrupts, a closed standard output and internal errors end as
    ``tools/errors.run_tool`` says."""
    return run_tool(PROG, lambda: _main(argv), argv)


def _main(argv: Sequence[str] | None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    check_no_empty_values(parser, args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
