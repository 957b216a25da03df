"""Fuzzing the three tools with hypothesis: whatever the input, one line and a plain exit code.

* ``ascend-opt`` (with a random pass or the whole pipeline) and ``ascend-run`` get mutations of
  valid programs (every example, a hand-written kernel with a sanitizer finding and a compiled
  hardware-level kernel): tokens deleted, duplicated, swapped, inserted, numbers replaced by
  edge values, the file truncated;
* ``ascend-conv`` gets random sets of its flags, valid and not (``--emit ascendc`` and
  ``check-ascendc`` included), and ``ascend-conv forward`` its own (tiny layers, ``--trace``,
  ``--plot``, ``--emit ascendc``, ``--bias``): a refused request writes no file;
* the compiled hardware-level kernels get numbers replaced by edge values, and whatever the
  data run refuses at an instruction, the cost-only mode must refuse with the same message
  (issue 20: both machines run the instruction spec's one bounds check);
* integer ``arith`` of every width runs in the interpreter on random operands, against MLIR's
  definition; a tuning-cache entry with one field set to an edge value is refused by the
  cache's check in one line, or comes back legal and re-scored;
* ``ascend-tune`` gets random layers files (CSV and JSON: odd numbers, duplicated columns, extra
  cells, names with newlines) and flags, with the tuning itself replaced by fixed rows;
* ``check-ascendc`` gets hostile folders (names g++ reads as options or response files, folders,
  FIFOs and links to ``/dev/zero`` named ``*.cpp``, non-UTF-8 sources) with a fake g++ that logs
  what it is given: only absolute source paths, and never a marker file.

Each case calls the tool's ``main`` in-process (a subprocess per case would cost more than the
case) and must end with exit code 0, 1 or 2, no traceback and no "internal error" (a bug of
ours: ``tools/errors.run_tool``). The CI run is derandomized (the same cases every run, so a
failure reproduces) with 790 cases in all and takes about a minute; a longer, random run
is ``ASCEND_XDSL_FUZZ_EXAMPLES=20000 .venv/bin/pytest tests/test_fuzz.py`` (see
docs/runtime.md, "Fuzzing"). The simulator's budget is lowered to a few thousand loop iterations
and the host memory to 256 MiB, so that a mutated loop bound or shape fails fast instead of
running or allocating for real.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascend_xdsl.runtime.machine import host_memory
from ascend_xdsl.tools import conv, opt, run, tune
from ascend_xdsl.tuning.sweep import read_layers

ROOT = Path(__file__).parent.parent
LONG = int(os.environ.get("ASCEND_XDSL_FUZZ_EXAMPLES", "0"))
FUZZ = settings(
    max_examples=LONG or 200,
    deadline=None,
    derandomize=not LONG,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SCRATCH = Path(tempfile.mkdtemp(prefix="ascend-fuzz-"))

TOKEN = re.compile(
    r"\s+|//[^\n]*|\"(?:[^\"\\]|\\.)*\"|[%@^#!][\w.$-]*|\d+(?:\.\d+)?(?:e[+-]?\d+)?"
    r"|[A-Za-z_][\w.$]*|->|\S"
)
EDGE_NUMBERS = [
    "0",
    "1",
    "-1",
    "2",
    "3",
    "15",
    "16",
    "17",
    "255",
    "65535",
    "65536",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999",
    "1.5",
    "1e309",
]


def _sources() -> dict[str, str]:
    sources = {p.name: p.read_text() for p in sorted((ROOT / "examples").glob("*.mlir"))}
    missing_flag = ROOT / "tests" / "filecheck" / "Inputs" / "missing_flag.mlir"
    sources[missing_flag.name] = missing_flag.read_text()
    kernel = SCRATCH / "small_hw.mlir"
    small = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1", "--cores", "2"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert conv.main(["bp-filter", *small, "--emit", "hw", "-o", str(kernel)]) == 0
    sources[kernel.name] = kernel.read_text()
    return sources


SOURCES = _sources()


@st.composite
def mutated_programs(draw: st.DrawFn) -> str:
    text = SOURCES[draw(st.sampled_from(sorted(SOURCES)))]
    tokens = TOKEN.findall(text)
    assert "".join(tokens) == text
    for _ in range(draw(st.integers(1, 3))):
        if not tokens:
            break
        i = draw(st.integers(0, len(tokens) - 1))
        kind = draw(
            st.sampled_from(["delete", "duplicate", "swap", "insert", "number", "truncate"])
        )
        if kind == "delete":
            del tokens[i]
        elif kind == "duplicate":
            tokens.insert(i, tokens[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "insert":
            tokens.insert(i, draw(st.sampled_from(tokens)))
        elif kind == "number":
            numbers = [k for k, t in enumerate(tokens) if t[0].isdigit()]
            if numbers:
                k = draw(st.sampled_from(numbers))
                tokens[k] = draw(st.sampled_from(EDGE_NUMBERS))
        else:
            tokens = tokens[:i]
    return "".join(tokens)


def _call(main, argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def _call_out(main, argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _assert_clean(code: int, err: str, argv: list[str]) -> None:
    assert code in (0, 1, 2), (code, argv, err)
    assert "Traceback" not in err, (argv, err)
    assert "internal error" not in err, (argv, err)
    errors = [line for line in err.splitlines() if ": error: " in line]
    assert len(errors) <= 1, (argv, err)  # (exit 1 without one: hazards, a failed check)


@pytest.fixture(autouse=True)
def _small_machine(monkeypatch):
    monkeypatch.setattr(host_memory, "available_bytes", lambda: 256 * 2**20)


PIPELINES = [
    [],
    ["-p", "canonicalize,cse"],
    ["-p", "ascend-legalize-formats"],
    ["-p", "ascend-tile-conv3d-bp-filter{cores=1}"],
    ["-p", "convert-conv-to-ascend-api"],
    ["-p", "lower-ascend-api-to-hw"],
    ["-p", "ascend-plan-buffers"],
    ["-p", "ascend-insert-sync"],
    ["-p", "ascend-pipeline{cores=1}"],
]


@FUZZ
@given(program=mutated_programs(), pipeline=st.sampled_from(PIPELINES))
def test_ascend_opt_on_mutated_programs(program: str, pipeline: list[str]):
    path = SCRATCH / "opt.mlir"
    path.write_text(program)
    argv = [str(path), *pipeline, "-o", str(SCRATCH / "opt.out.mlir")]
    _assert_clean(*_call(opt.main, argv), argv)


@FUZZ
@given(
    program=mutated_programs(),
    extra=st.sampled_from(
        [
            [],
            ["--check"],
            ["--sanitize"],
            ["--cost-only"],
            ["--executor", "interp"],
            ["--report", "json"],
        ]
    ),
)
def test_ascend_run_on_mutated_programs(program: str, extra: list[str]):
    path = SCRATCH / "run.mlir"
    path.write_text(program)
    inputs = [] if extra == ["--cost-only"] else ["--random-inputs"]
    argv = [
        str(path),
        *inputs,
        *extra,
        "--max-iterations",
        "5000",
        "--output-dir",
        str(SCRATCH / "out"),
    ]
    _assert_clean(*_call(run.main, argv), argv)


def _ints_text(draw: st.DrawFn, count: int) -> str:
    values = draw(st.lists(st.integers(-2, 40), min_size=count, max_size=count))
    return ",".join(map(str, values))


@st.composite
def conv_flags(draw: st.DrawFn) -> list[str]:
    junk = st.sampled_from(
        [
            "",
            " ",
            "x",
            "-1",
            "0",
            "1,2",
            "1,,2",
            "99999999999999999999",
            "1e3",
            "３",
            "fixed:",
            "fixed:/dev/null",
            "heuristic:x",
        ]
    )
    argv = ["bp-filter"]
    if draw(st.booleans()):
        n, c, d, h, w = (
            draw(st.integers(1, 3)),
            draw(st.sampled_from([16, 32, 17, 8])),
            draw(st.integers(1, 5)),
            draw(st.integers(1, 10)),
            draw(st.integers(1, 10)),
        )
        argv += ["--input", f"{n},{c},{d},{h},{w}"]
        cout = draw(st.sampled_from([16, 32, 15]))
        kd, kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
        argv += ["--weight", f"{cout},{c},{kd},{kh},{kw}"]
    flags = {
        "--stride": st.sampled_from(["1", "2", "1,2,1"]) | junk,
        "--padding": st.sampled_from(["0", "1", "1,0,1", "0,1,0,1,1,0"]) | junk,
        "--dilation": st.sampled_from(["1", "2"]) | junk,
        "--groups": st.sampled_from(["1", "2", "16"]) | junk,
        "--dtype": st.sampled_from(["f16", "bf16", "f32"]),
        "--hw": st.sampled_from(["atlas-a2-910b2", "atlas-a2-910b4", "nosuch", "../x"]),
        "--tiling": st.sampled_from(["heuristic", "fixed:/nonexistent"]) | junk,
        "--override": st.sampled_from(
            [
                "base_k=64",
                "iterate_order=1",
                "base_k=64 base_k=32",
                "bogus=1",
                "base_m=0",
                "cl0_pbuffer=3",
            ]
        )
        | junk,
        "--dk": st.sampled_from(["separate", "fused", "other"]),
        "--cores": st.sampled_from(["1", "2", "24", "25", "0"]) | junk,
        "--seed": st.sampled_from(["0", "7", "-1"]) | junk,
        "--report": st.sampled_from(["text", "json", "xml"]),
        "--executor": st.sampled_from(["compiled", "interp"]),
    }
    for flag in draw(st.lists(st.sampled_from(sorted(flags)), max_size=5, unique=True)):
        argv += [flag, draw(flags[flag])]
    mode = draw(st.sampled_from(["op", "format", "api", "hw", "ascendc", "cost-only", "run"]))
    if mode == "cost-only":
        argv.append("--cost-only")
    elif mode != "run":
        argv += ["--emit", mode]
    if mode == "ascendc" or draw(st.booleans()):
        # an Ascend C project is a folder: a fresh one, the file of another case, or none
        target = draw(st.sampled_from(["conv.out", f"project{draw(st.integers(0, 10**9))}"]))
        argv += ["-o", str(SCRATCH / target)]
    if draw(st.integers(0, 9)) == 0:
        argv += ["--trace", str(SCRATCH / "trace.json")]
    # The budget is a flag of the run: with --emit it would be ignored, so it is refused there.
    return argv if "--emit" in argv else [*argv, "--max-iterations", "500"]


@FUZZ
@given(
    argv=conv_flags()
    | st.lists(st.sampled_from(["check-ascendc", str(SCRATCH), "/dev/null", "", "--x"]))
)
def test_ascend_conv_on_random_flags(argv: list[str]):
    _assert_clean(*_call(conv.main, argv), argv)


def _op_flags(junk: st.SearchStrategy[str], cores: str) -> dict[str, st.SearchStrategy[str]]:
    """The values of the flags ``ascend-conv forward`` and ``bp-input`` share (valid, and
    ``junk`` where a flag takes numbers); ``cores`` is the valid core count besides 1."""
    return {
        "--stride": st.sampled_from(["1", "2", "1,2,1"]) | junk,
        "--padding": st.sampled_from(["0", "1", "0,1,0,1,1,0"]) | junk,
        "--dilation": st.sampled_from(["1", "2"]) | junk,
        "--groups": st.sampled_from(["1", "2"]) | junk,
        "--dtype": st.sampled_from(["f16", "bf16", "f32"]),
        "--hw": st.sampled_from(["atlas-a2-910b2", "nosuch"]),
        "--tiling": st.sampled_from(["heuristic", "tuned"]) | junk,
        "--cores": st.sampled_from(["1", cores, "25", "0"]) | junk,
        "--seed": st.sampled_from(["0", "7", "-1"]) | junk,
        "--report": st.sampled_from(["text", "json", "xml"]),
    }


@st.composite
def forward_flags(draw: st.DrawFn) -> list[str]:
    """``ascend-conv forward``'s flags: tiny layers (so that a run is quick), its own flags
    (--bias, --tiling) and the ones it shares with bp-filter (--trace, --plot, --emit ascendc,
    --report, --cost-only), valid and not."""
    junk = st.sampled_from(["", " ", "x", "-1", "0", "1,2", "1,,2", "99999999999999999999", "３"])
    argv = ["forward"]
    shapes = draw(st.integers(0, 7)) > 0  # else the default layer, too big to run here
    if shapes:
        c = draw(st.sampled_from([16, 8, 17]))
        argv += ["--input", f"1,{c},{draw(st.integers(1, 3))},{draw(st.integers(1, 6))},5"]
        argv += ["--weight", f"{draw(st.sampled_from([16, 8]))},{c},1,{draw(st.integers(1, 3))},3"]
    flags = {
        **_op_flags(junk, "2"),
        "--executor": st.sampled_from(["compiled", "interp"]),
    }
    for flag in draw(st.lists(st.sampled_from(sorted(flags)), max_size=4, unique=True)):
        argv += [flag, draw(flags[flag])]
    if draw(st.integers(0, 9)) == 0:
        argv.append("--bias")
    mode = draw(st.sampled_from(["api", "hw", "ascendc", "cost-only", "run", "run"]))
    mode = mode if shapes else "api"
    if mode == "cost-only":
        argv.append("--cost-only")
    elif mode != "run":
        argv += ["--emit", mode]
    if mode == "ascendc" or draw(st.integers(0, 3)) == 0:
        target = draw(st.sampled_from(["fwd.out", f"fwd{draw(st.integers(0, 10**9))}", ""]))
        argv += ["-o", str(SCRATCH / target) if target else ""]
    for flag, name in (("--trace", "fwd-trace.json"), ("--plot", "fwd.svg"), ("--plot", "fwd.png")):
        if draw(st.integers(0, 7)) == 0:
            argv += [flag, str(SCRATCH / name)]
    return argv


def _files(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_size for p in folder.rglob("*")}


@settings(FUZZ, max_examples=LONG or 40)
@given(argv=forward_flags())
def test_ascend_conv_forward_on_random_flags(argv: list[str]):
    """Whatever the flags, one line and a plain exit code; a refused request (exit 2: a flag
    that cannot be parsed, a run flag with --emit, what forward does not support yet) leaves
    the scratch folder as it was: no half-written output, trace, plot or project."""
    before = _files(SCRATCH)
    code, out, err = _call_out(conv.main, argv)
    _assert_clean(code, err, argv)
    if code == 2:
        assert out == "" and err.count(": error: ") == 1, (argv, err)
        assert _files(SCRATCH) == before, argv
    assert not [p for p in SCRATCH.iterdir() if p.name.startswith(".")], argv  # temporaries


# -- integer arith and the tuning cache (issue #20) ------------------------------------------------

ARITH_FUZZ = settings(FUZZ, max_examples=LONG or 60)


@ARITH_FUZZ
@given(
    op=st.sampled_from(
        ["addi", "subi", "muli", "divsi", "remsi", "floordivsi", "ceildivsi", "minsi", "maxsi"]
    ),
    width=st.sampled_from([1, 8, 16, 32, 64]),
    data=st.data(),
)
def test_integer_arith_wraps_as_mlir(op: str, width: int, data) -> None:
    """Random operands of every width, in the interpreter, against MLIR's definition written
    independently (tests/test_hardening_api.py); undefined cases (a zero divisor, MIN / -1)
    are skipped."""
    from test_hardening_api import _function, _interpreted, _mlir

    values = st.integers(-(2 ** (width - 1)), 2 ** (width - 1) - 1)
    a, b = data.draw(values), data.draw(values)
    expected = _mlir(op, a, b, width)
    if expected is None:
        return
    args = (bool(a), bool(b)) if width == 1 else (a, b)
    assert _interpreted(_function(op, f"i{width}"), *args) == (expected,)


_HONEST: dict[str, object] = {}


def _honest_entry() -> dict:
    """A real search result of a small layer (heuristic only: budget 1), computed once."""
    if not _HONEST:
        from test_hardening_api import HW as TUNE_HW
        from test_hardening_api import TUNE_CORES, _tune_problem

        from ascend_xdsl.tuning.search import search

        _HONEST["entry"] = search(_tune_problem(), TUNE_HW, TUNE_CORES, budget=1).to_json()
    return _HONEST["entry"]  # type: ignore[return-value]


EDGE_VALUES = [0, -1, 1, 15, 17, -16, 2**31, 10**30, 1.0, -5.0, float("nan"), float("inf"), "7",
               None, True, [], {}]  # fmt: skip


@settings(FUZZ, max_examples=LONG or 8)
@given(data=st.data())
def test_a_mutated_cache_entry_is_refused_or_true(data) -> None:
    """One field of an honest entry (a tiling field, a score, a count) set to an edge value:
    the check refuses it (BadCacheEntry, one line) or what it returns is legal and re-scored."""
    import copy
    import math

    from test_hardening_api import HW as TUNE_HW
    from test_hardening_api import TUNE_CORES, _tune_problem

    from ascend_xdsl.hw import load as load_hw
    from ascend_xdsl.tuning.cached_search import BadCacheEntry, verified
    from ascend_xdsl.tuning.search import fits

    entry = copy.deepcopy(_honest_entry())
    side = data.draw(st.sampled_from(["heuristic", "tuned", None]))
    if side is None:
        target, keys = entry, ["candidates", "rejected", "seconds"]
    elif data.draw(st.booleans()):
        target, keys = entry[side]["tiling"], sorted(entry[side]["tiling"])
    else:
        target, keys = entry[side], ["cycles", "efficiency", "bound", "bottleneck"]
    key = data.draw(st.sampled_from(keys))
    target[key] = data.draw(st.sampled_from(EDGE_VALUES))
    try:
        result = verified(entry, _tune_problem(), TUNE_HW, TUNE_CORES)
    except BadCacheEntry as e:
        assert "\n" not in str(e)
        return
    hw = load_hw(TUNE_HW)
    for tiling, score in ((result.heuristic, result.heuristic_score),
                          (result.tuned, result.tuned_score)):  # fmt: skip
        assert fits(tiling, hw, TUNE_CORES)
        assert math.isfinite(score.cycles) and score.cycles > 0
    assert result.tuned_score.cycles <= result.heuristic_score.cycles


HW_NUMBERS = [*EDGE_NUMBERS[:13], "48", "64", "576", "2048", "4096"]
"""Integer edge values, and sizes near the small kernels' slots and tensors."""
HW_SOURCES = sorted(name for name, text in SOURCES.items() if "ascend.mmad" in text)
INSTRUCTION_ERROR = re.compile(
    r"ascend\.(data_copy|load3d|load2d|mmad|fixpipe|set_flag|wait_flag|alloc_buffer) at "
)


@st.composite
def mutated_hw_programs(draw: st.DrawFn) -> str:
    """A hardware-level program with one to three of its numbers replaced by an edge value (a
    slot, an offset, a size or a loop bound: what reaches the instructions' bounds)."""
    text = SOURCES[draw(st.sampled_from(HW_SOURCES))]
    tokens = TOKEN.findall(text)
    numbers = [k for k, t in enumerate(tokens) if t[0].isdigit()]
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.sampled_from(numbers))
        tokens[k] = draw(st.sampled_from(HW_NUMBERS))
    return "".join(tokens)


@settings(FUZZ, max_examples=LONG or 30)
@given(program=mutated_hw_programs())
def test_cost_only_refuses_what_the_data_run_refuses(program: str):
    """The oracle of issue 20, item 5: a mutated hardware-level program that the data run
    refuses at an instruction, the cost-only mode refuses too, with the same message (both
    machines run the instruction spec's one bounds check)."""
    path = SCRATCH / "refuse.mlir"
    path.write_text(program)
    limits = ["--max-iterations", "5000"]
    out = ["--output-dir", str(SCRATCH / "out")]
    code, err = _call(run.main, [str(path), "--random-inputs", *limits, *out])
    _assert_clean(code, err, [str(path)])
    refused = INSTRUCTION_ERROR.search(err)
    if code != 1 or refused is None:
        return
    cost_code, cost_err = _call(run.main, [str(path), "--cost-only", *limits])
    assert cost_code == 1, (program, err, cost_err)
    message = err.split(": error: ", 1)[1].strip()
    cost_message = cost_err.split(": error: ", 1)[1].strip().removeprefix("cost-only: ")
    assert cost_message == message, (err, cost_err)


# -- ascend-tune: layers files and flags ----------------------------------------------------------

LAYER_CELLS = [
    "1,16,2,6,6", "16,16,1,3,3", "[1, 16, 2, 6, 6]", "1", "0", "-1", "2", "3", "1,1,1",
    "1_000", "١", "+1", " 1 ", "1,,2", "", "f16", "bf16", "f64", "x", "1e3", "99999999999999999999",
    "a\nb", "0", "forward", "bp-input", "bp-filter", "Forward", "bp_filter",
]  # fmt: skip
LAYER_COLUMNS = [
    "name", "input", "weight", "stride", "padding", "dilation", "groups", "dtype", "op",
]  # fmt: skip


def _fake_rows(layers, **kwargs) -> list[dict]:
    """Tuning is not what is fuzzed here: one row per parsed layer, in the tool's format."""
    row = {
        "heuristic_cycles": 2.0, "tuned_cycles": 1.0, "speedup": 2.0,
        "heuristic_efficiency": 0.1, "efficiency": 0.2, "bound": "memory",
        "bottleneck": "mte1", "tiling_summary": "base 16/16/16",
    }  # fmt: skip
    return [{"layer": layer.name, "op": layer.op, **row} for layer in layers]


@st.composite
def layers_files(draw: st.DrawFn) -> str:
    """A CSV (random columns, some twice, rows of random cells, some too long) or a JSON list
    of objects with random values."""
    columns = draw(st.lists(st.sampled_from(LAYER_COLUMNS), min_size=1, max_size=9))
    rows = draw(
        st.lists(
            st.lists(st.sampled_from(LAYER_CELLS), min_size=len(columns) - 1,
                     max_size=len(columns) + 2),
            min_size=0, max_size=3,
        )
    )  # fmt: skip
    if draw(st.booleans()):
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
        text = out.getvalue()
        return text.replace('"', "", 1) if draw(st.integers(0, 9)) == 0 else text
    cell = st.sampled_from(LAYER_CELLS) | st.integers(-2, 20) | st.lists(st.integers(-1, 20))
    records = [dict(zip(columns, [draw(cell) for _ in columns], strict=True)) for _ in rows]
    return json.dumps(records)


@settings(FUZZ, max_examples=LONG or 100)
@given(
    text=layers_files(),
    flags=st.lists(
        st.sampled_from(
            ["--format", "json", "csv", "table", "--budget", "0", "1", "--cores", "99", "-o", "",
             "--ray-timeout", "-1", "x", "--workers", "--hw", "nope", "--no-cache"]
        ),
        max_size=4,
    ),
)  # fmt: skip
def test_ascend_tune_on_random_layers_files_and_flags(text: str, flags: list[str]):
    path = SCRATCH / "layers.txt"
    path.write_text(text, encoding="utf-8")
    argv = [str(path), *flags]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tune, "tune_layers", _fake_rows)
        code, out, err = _call_out(tune.main, argv)
    _assert_clean(code, err, argv)
    if code == 0 and "--format" not in flags and "-o" not in flags:
        rows = len(out.splitlines()) - 1  # the header, then one line per layer: names escaped
        assert rows == len(_fake_rows(read_layers(str(path)))), (text, out)


# -- check-ascendc: hostile folders --------------------------------------------------------------

HOSTILE_NAMES = ["kernel.cpp", "main.cpp", "-o.cpp", "@opts.cpp", "opts.cpp", "x.cpp", "-.cpp"]
HOSTILE_KINDS = ["kernel", "host", "options", "binary", "folder", "fifo", "devzero", "empty"]
CONTENTS = {
    "kernel": b'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n',
    "host": b"int main() { return 0; }\n",
    "options": b"-wrapper /bin/sh,-c,touch${IFS}PWNED main.cpp\n",
    "binary": b"\xff\xfe\x00",
    "empty": b"",
}


@pytest.fixture(scope="module")
def logging_compiler():
    """A fake g++ first on PATH that records its arguments and succeeds (fast; the hole the
    fuzzing looks for is in what the check passes to it, not in what g++ makes of it)."""
    folder = SCRATCH / "fakebin"
    folder.mkdir(exist_ok=True)
    log = SCRATCH / "gxx.log"
    script = folder / "g++"
    script.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a" >> "{log}"; done\n')
    script.chmod(0o755)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
        yield log


@settings(FUZZ, max_examples=LONG or 60)
@given(files=st.dictionaries(st.sampled_from(HOSTILE_NAMES), st.sampled_from(HOSTILE_KINDS)))
def test_check_ascendc_on_hostile_folders(logging_compiler, files: dict[str, str]):
    folder = Path(tempfile.mkdtemp(dir=SCRATCH, prefix="hostile-"))
    for name, kind in files.items():
        path = folder / name
        if kind == "folder":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "devzero":
            path.symlink_to("/dev/zero")
        else:
            path.write_bytes(CONTENTS[kind])
    logging_compiler.unlink(missing_ok=True)
    argv = ["check-ascendc", ".", "--timeout", "20"]  # "." as the issue ran it: bare names
    here = os.getcwd()
    os.chdir(folder)
    try:
        code, err = _call(conv.main, argv)
    finally:
        os.chdir(here)
    _assert_clean(code, err, [*argv, files])
    passed = logging_compiler.read_text().splitlines() if logging_compiler.exists() else []
    sources = [a for a in passed if a.endswith(".cpp")]
    assert all(a.startswith(str(folder) + "/") for a in sources), (files, passed)
    assert not any(a.startswith("@") or a.endswith(("-o.cpp", "/-.cpp")) for a in passed)
    assert not (folder / "PWNED").exists() and not Path("PWNED").exists()


@st.composite
def bp_input_flags(draw: st.DrawFn) -> list[str]:
    """Random flags of ``ascend-conv bp-input`` (small shapes, every mode including --emit
    ascendc, --trace and --plot, --tiling tuned and fixed:FILE, --no-cache, the refused flags
    among them: --bias), valid and not; forward's own are :func:`forward_flags`."""
    junk = st.sampled_from(["", "x", "-1", "0", "1,2", "99999999999999999999", "３"])
    argv = ["bp-input"]
    if draw(st.integers(0, 9)):
        c, cout = draw(st.sampled_from([16, 17, 8])), draw(st.sampled_from([16, 32, 15]))
        argv += ["--input", f"{draw(st.integers(1, 2))},{c},{draw(st.integers(1, 4))},"
                 f"{draw(st.integers(1, 8))},{draw(st.integers(1, 8))}"]  # fmt: skip
        argv += ["--weight", f"{cout},{c},{draw(st.integers(1, 3))},2,{draw(st.integers(1, 3))}"]
    flags = {
        **_op_flags(junk, "3"),
        "--emit": st.sampled_from(["op", "format", "api", "hw", "ascendc"]),
    }
    # --tiling fixed:FILE: a dX tiling of a layer the shapes above may draw (1x16x2x4x4 input,
    # 16x16x1x2x1 weight), a file that is not there, and one that is no tiling.
    flags["--tiling"] = flags["--tiling"] | st.sampled_from(
        [f"fixed:{DX_TILING}", f"fixed:{SCRATCH / 'none.json'}", "fixed:/dev/null", "fixed:"]
    )
    for flag in draw(st.lists(st.sampled_from(sorted(flags)), max_size=4, unique=True)):
        argv += [flag, draw(flags[flag])]
    argv += draw(
        st.sampled_from(
            [[], ["--cost-only"], ["--bias"], ["-o", str(SCRATCH / "op")], ["--no-cache"]]
        )
    )
    for flag, name in (("--trace", "dx-trace.json"), ("--plot", "dx.svg"), ("--plot", "dx.png")):
        if draw(st.integers(0, 7)) == 0:
            argv += [flag, str(SCRATCH / name)]
    return argv


DX_TILING = SCRATCH / "dx_tiling.json"
"""A dX tiling (the vendor's) of one layer :func:`bp_input_flags` may draw, for --tiling fixed."""


@settings(FUZZ, max_examples=LONG or 40)
@given(argv=bp_input_flags())
def test_ascend_conv_bp_input_on_random_flags(argv: list[str]):
    """bp-input: every flag set is a result, or one line and exit 1 or 2. ``--tiling tuned``
    searches with a budget of 2 candidates (a layer's search is the dX search's own tests'),
    in the fuzz run's own cache."""
    from unittest import mock

    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.passes.conv3d_bp_input_tiling_heuristic import tile_conv3d_bp_input
    from ascend_xdsl.tuning import conv3d_bp_input_search as dx

    if not DX_TILING.exists():
        layer = shape_from_torch_args((1, 16, 2, 4, 4), (16, 16, 1, 2, 1))
        DX_TILING.write_text(json.dumps(tile_conv3d_bp_input(layer).as_dict()))
    with (
        mock.patch.dict(os.environ, {"XDG_CACHE_HOME": str(SCRATCH / "cache")}),
        mock.patch.object(dx, "BP_INPUT", replace(dx.BP_INPUT, budget=2)),
    ):
        _assert_clean(*_call(conv.main, argv), argv)
