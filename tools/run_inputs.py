"""The inputs of an ``ascend-run`` entry: ``--input NAME=FILE.npy`` read and checked against
the argument's memref (the ``.npy`` header before any data), ``--random-inputs`` seeded, and the
host memory the run will need checked before any of it is allocated."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType

from ascend_xdsl.dialects.attributes import element_type_name
from ascend_xdsl.runtime.machine.host_memory import (
    RUN_FACTOR,
    HostMemoryError,
    check_host_bytes,
    tensor_bytes,
)
from ascend_xdsl.runtime.machine.values import np_dtype
from ascend_xdsl.tools.errors import CliError, first_line
from ascend_xdsl.tools.run_program import Argument

NPY_MAGIC = b"\x93NUMPY"

RANDOM_DTYPES = ("f16", "bf16", "f32")
"""Element types ``--random-inputs`` can fill."""


def parse_input_flags(flags: Sequence[str]) -> dict[str, str]:
    """``--input NAME=FILE.npy`` flags → {name: path}; malformed or repeated ones exit 2."""
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
    if expected.name == "bfloat16" and array.dtype == np.dtype("V2"):
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
