"""tools/conv.py: ``ascend-conv bp-filter`` — default layer, emits, every bad-input class, -o.

Most tests call ``main(argv)`` in-process; one runs the installed console script to make sure
the exit code and the absence of a traceback hold end to end.
"""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from ascend_xdsl.runtime.reports import output
from ascend_xdsl.tools import conv

SCRIPT = os.path.join(os.path.dirname(sys.executable), "ascend-conv")


def run(capsys, *argv):
    code = conv.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *fragments: str):
    lines = err.strip().splitlines()
    assert lines, "expected an error message"
    assert lines[-1].startswith("ascend-conv: error: "), err
    assert all(not line.startswith("ascend-conv: error") for line in lines[:-1]), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]


def test_default_layer_emit_op(capsys):
    code, out, err = run(capsys, "bp-filter", "--emit", "op")
    assert code == 0
    assert "embedded default layer" in err and "--input 2,64,8,28,28" in err
    assert "func.func @conv3d_bp_filter(%x: memref<2x64x8x28x28xf16>" in out
    assert "pads [1, 1, 1, 1, 1, 1]" in out
    assert "-> memref<64x64x3x3x3xf32>" in out


def test_default_layer_emit_format(capsys):
    code, out, _ = run(capsys, "bp-filter", "--emit", "format")
    assert code == 0
    assert out.count("ascend.trans_data") == 3
    assert "!ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>" in out


def test_shape_flags_do_not_announce_the_default(capsys):
    code, out, err = run(
        capsys,
        "bp-filter",
        "--input", "1,32,4,8,8",
        "--weight", "16,16,1,3,3",
        "--groups", "2",
        "--stride", "1,2,2",
        "--padding", "0,0,1,1,1,0",
        "--dilation", "1",
        "--dtype", "bf16",
        "--emit", "op",
    )  # fmt: skip
    assert code == 0, err
    assert err == ""
    assert "memref<1x16x4x4x4xbf16>" in out  # dy: Ho = (8+2-3)/2+1, Wo = (8+1-3)/2+1
    assert "pads [0, 0, 1, 1, 1, 0]" in out and "groups 2" in out


def test_default_run_compiles_runs_checks_and_summarises(capsys, monkeypatch, tmp_path):
    # An empty tuning cache of its own: the summary gains a "--tiling tuned gives" line when the
    # cache holds this layer, which another test on the same worker may have tuned before.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    code, out, err = run(capsys, "bp-filter", "--cores", "4")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Conv3DBackpropFilter (dW), f16"
    assert "x 2x64x8x28x28  dy 2x64x8x28x28  dW 64x64x3x3x3 f32" in out
    assert "target atlas-a2-910b2 (24 AI cores, using 4: batch*dout 4)" in out
    assert "tiles base M/K/N 64/128/128" in out
    assert "-> format (6 ops) -> api" in out and "-> hw (" in out
    assert "ran the hw program on seeded random inputs (seed 0) in" in out
    check_line = next(line for line in lines if line.startswith("  check against"))
    assert re.match(r"  check against the reference in \d+\.\d\d s: max abs error", check_line)
    assert check_line.endswith(": OK")
    # CANN's precision standard on the same dW, on the line after (runtime/reports/precision.py).
    standard_line = lines[lines.index(check_line) + 1]
    assert standard_line.startswith("  CANN precision standard (float16: MERE < 2^-10, MARE < ")
    assert standard_line.endswith(": PASS")
    # The cost model's lines close the summary (runtime/cost/report.py).
    assert lines[-6].startswith("  modelled on atlas-a2-910b2: ") and " bound (waits on " in out
    assert lines[-5].startswith("  waits most on the ")
    assert lines[-4].startswith("  pipes busy on the slowest core: mte2 ")
    assert lines[-3].startswith("  critical path: ")
    assert lines[-2].startswith("  cores: 4, cycles ")
    # and the whole operator: TransData x and dy, MemSet dW, the kernel, TransData dW
    assert lines[-1].startswith("  end to end: ")
    assert " in 5 kernels (us): TransData x " in lines[-1]
    assert "using the embedded default layer" in err


def test_report_json_is_one_document_with_the_cost_keys(capsys):
    import json

    small = ["--input", "1,16,3,6,6", "--weight", "16,16,2,3,3", "--padding", "1"]
    code, out, err = run(capsys, "bp-filter", *small, "--report", "json")
    assert code == 0, err
    report = json.loads(out)  # the whole of stdout is one document
    for key in ("problem", "tiling", "cost", "launches", "check"):
        assert key in report, key
    assert report["check"]["ok"] is True
    cost = report["cost"]
    assert report["check"]["cann_precision"]["ok"] is True
    assert report["check"]["cann_precision"]["dtype"] == "float16"
    # 2 x the MACs of the formula: every weight element over N·Do·Ho·Wo = 1·4·6·6 positions.
    assert cost["flops"] == 2 * (16 * 16 * 2 * 3 * 3) * (1 * 4 * 6 * 6)
    assert 0 < cost["efficiency"] <= 1
    assert set(cost["pipes"]) == {"mte2", "mte1", "cube", "fixpipe", "scalar"}
    # the whole operator (issue 16): `seconds` stays the dW kernel's
    kernels = cost["kernels"]
    assert [k["name"].split()[0] for k in kernels] == [
        "TransData", "TransData", "MemSet", "conv3d_bp_filter_kernel", "TransData"
    ]  # fmt: skip
    assert all(set(k) == {"name", "seconds", "cycles"} for k in kernels)
    assert cost["end_to_end_seconds"] == sum(k["seconds"] for k in kernels)
    assert kernels[3]["seconds"] > cost["seconds"]  # the kernel plus its launch


def test_both_executors_check_the_same_numbers(capsys):
    small = ["--input", "1,16,3,6,6", "--weight", "16,16,2,3,3", "--padding", "1", "--cores", "2"]
    checks = []
    for executor in ("compiled", "interp"):
        code, out, err = run(capsys, "bp-filter", *small, "--executor", executor)
        assert code == 0, err
        # Everything but the wall-clock times: the check and the modelled cost.
        checks.append(re.sub(r"\d+\.\d+ s\b", "T s", out).splitlines())
    assert checks[0] == checks[1]
    assert any(line.endswith(": OK") for line in checks[0])
    assert any(line.startswith("  modelled on ") for line in checks[0])
    code, _, err = run(capsys, "bp-filter", *small, "--executor", "jit")
    assert code == 2 and "invalid choice: 'jit'" in err


def test_failed_check_prints_the_summary_and_exits_1(capsys, monkeypatch):
    real = conv.run_job

    def broken(job, options):
        result = real(job, options)
        dw = np.array(result.outputs[0], copy=True)
        dw[0, 0, 0, 0, 0] += 10.0  # what a kernel bug would do
        result.outputs = (dw,)
        return result

    monkeypatch.setattr(conv, "run_job", broken)
    code, out, err = run(capsys, "bp-filter", "--input", "1,16,2,6,6", "--weight", "16,16,1,3,3")
    assert code == 1
    (checked,) = [line for line in out.splitlines() if "check against the reference" in line]
    assert checked.endswith(": FAILED")
    (standard,) = [line for line in out.splitlines() if "CANN precision standard" in line]
    assert standard.endswith(": FAIL")
    assert out.rstrip().splitlines()[-1].startswith("  end to end: ")  # the whole summary
    assert_one_line_error(err, "dW is outside the tolerance of the reference")


@pytest.mark.parametrize(
    ("argv", "code", "fragments"),
    [
        # malformed shape flags (argparse-level: exit 2)
        (
            ["--input", "2,64,8", "--weight", "64,64,3,3,3"],
            2,
            ["--input: expected 5 comma-separated positive integers, got '2,64,8'"],
        ),
        (["--input", "2,64,8,8,x", "--weight", "64,64,3,3,3"], 2, ["--input: expected 5"]),
        (["--input", "2,64,8,8,8", "--weight", "64,64,0,3,3"], 2, ["--weight: expected 5"]),
        (["--stride", "1,2"], 2, ["--stride: expected 1 or 3 comma-separated positive"]),
        (["--padding", "1,2"], 2, ["--padding: expected 1, 3 or 6 comma-separated non-neg"]),
        (["--padding", "-1"], 2, ["--padding:"]),
        (["--dilation", "0"], 2, ["--dilation:"]),
        (["--groups", "two"], 2, ["--groups: expected a positive integer, got 'two'"]),
        (["--cores", "0"], 2, ["--cores: expected a positive integer"]),
        (["--dtype", "f32"], 2, ["argument --dtype: invalid choice: 'f32'"]),
        (["--bogus"], 2, ["unrecognized arguments: --bogus"]),
        # unknown level
        (["--emit", "asm"], 2, ["argument --emit: invalid choice: 'asm'"]),
        # illegal shapes (well-formed, rejected: exit 1)
        (["--input", "2,64,8,8,8"], 1, ["--input and --weight go together"]),
        (
            ["--input", "2,64,8,8,8", "--weight", "64,32,3,3,3"],
            1,
            ["illegal problem: weight has Cin/groups = 32"],
        ),
        (["--groups", "3"], 1, ["illegal problem:", "divisible by groups (3)"]),
        (["--stride", "1,64,1"], 1, ["illegal problem: stride H must be in [1, 63]"]),
        (
            ["--input", "1,64,2,2,2", "--weight", "64,64,3,3,3", "--padding", "0"],
            1,
            ["the dilated kernel does not fit"],
        ),
        # unknown hardware, tilings
        (
            ["--hw", "atlas-z9"],
            1,
            ["unknown hardware 'atlas-z9' (available: atlas-a2-910b1, atlas-a2-910b2"],
        ),
        (["--tiling", "magic"], 1, ["unknown tiling 'magic'"]),
        (["--tiling", "fixed:/no/such/tiling.json"], 1, ["cannot read tiling file"]),
    ],
)
def test_bad_input(capsys, argv, code, fragments):
    got, out, err = run(capsys, "bp-filter", "--emit", "op", *argv)
    assert got == code, err
    assert out == ""
    assert_one_line_error(err, *fragments)


def test_no_command(capsys):
    code, _, err = run(capsys)
    assert code == 2
    assert_one_line_error(err, "a command is required")


def test_unreadable_tiling_file(capsys, tmp_path):
    path = tmp_path / "tiling.json"
    path.write_text("{}")
    path.chmod(0)
    if os.access(path, os.R_OK):
        pytest.skip("running as a user who can read anything")
    code, _, err = run(capsys, "bp-filter", "--emit", "op", "--tiling", f"fixed:{path}")
    assert code == 1
    assert_one_line_error(err, "cannot read tiling file")


def test_tiling_file_that_is_a_folder(capsys, tmp_path):
    code, _, err = run(capsys, "bp-filter", "--emit", "op", "--tiling", f"fixed:{tmp_path}")
    assert code == 1
    assert_one_line_error(err, "cannot read tiling file", "not a readable file")


def test_output_file_is_written_whole(capsys, tmp_path):
    target = tmp_path / "format.mlir"
    code, out, _ = run(capsys, "bp-filter", "--emit", "format", "-o", str(target))
    assert code == 0 and out == ""
    assert target.read_text().count("ascend.trans_data") == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["format.mlir"], "no temp file left"


def test_output_file_untouched_on_error(capsys, tmp_path):
    target = tmp_path / "out.mlir"
    target.write_text("old\n")
    code, _, _ = run(capsys, "bp-filter", "--hw", "nope", "--emit", "op", "-o", str(target))
    assert code == 1
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]


def test_output_rename_failure_leaves_old_file(capsys, tmp_path, monkeypatch):
    target = tmp_path / "out.mlir"
    target.write_text("old\n")

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "replace", fail)
    code, _, err = run(capsys, "bp-filter", "--emit", "op", "-o", str(target))
    assert code == 1
    assert_one_line_error(err, "cannot write", "No space left on device")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"], "temp file cleaned up"


def test_output_into_missing_folder(capsys, tmp_path):
    code, _, err = run(capsys, "bp-filter", "--emit", "op", "-o", str(tmp_path / "no" / "x"))
    assert code == 1
    assert_one_line_error(err, "cannot write")


def test_console_script_exit_code_and_no_traceback():
    result = subprocess.run(
        [SCRIPT, "bp-filter", "--input", "2,64,8", "--weight", "64,64,3,3,3"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "ascend-conv: error: --input: expected 5 comma-separated positive integers, got '2,64,8'\n"
    )


def test_fixed_tiling_from_a_file_is_the_one_compiled(capsys, tmp_path):
    """--tiling fixed:FILE compiles with the #ascend.dw_tiling written in FILE (here: the
    heuristic's own choice for one core, with ORDER_N forced), and the kernel still checks."""
    shape = ("--input", "1,32,2,8,8", "--weight", "48,32,1,3,3", "--padding", "1", "--cores", "1")
    code, api, err = run(
        capsys, "bp-filter", *shape, "--override", "iterate_order=1", "--emit", "api"
    )
    assert code == 0, err
    start = api.index("#ascend.dw_tiling<")
    tiling = api[start : api.index(">", start) + 1]
    assert "iterate_order = 1" in tiling
    path = tmp_path / "tiling.mlir"
    path.write_text(tiling + "\n")
    code, out, err = run(capsys, "bp-filter", *shape, "--tiling", f"fixed:{path}")
    assert code == 0, err
    assert "order N (B1 resident)" in out and "tiling fixed:" in out
    assert "check against the reference" in out and ": OK\n" in out
    path.write_text(re.sub(r"base_m = \d+", "base_m = 116", tiling) + "\n")
    code, out, err = run(capsys, "bp-filter", *shape, "--tiling", f"fixed:{path}")
    assert code == 1 and out == ""
    assert_one_line_error(err, f"{path}: dw_tiling: base_m must be a multiple of 16, got 116")


def test_written_files_get_the_usual_mode(capsys, tmp_path):
    """mkstemp creates 0600 files; what the tools write is readable like any file they'd open."""
    target = tmp_path / "op.mlir"
    code, _, err = run(capsys, "bp-filter", "--emit", "op", "-o", str(target))
    assert code == 0, err
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    target.chmod(0o640)
    code, _, err = run(capsys, "bp-filter", "--emit", "op", "-o", str(target))
    assert code == 0 and target.stat().st_mode & 0o777 == 0o640


def test_the_readme_cost_example_is_what_the_tool_prints(capsys):
    """README.md, "What the kernel costs on the NPU": the command and the lines shown."""
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    section = readme.split("### What the kernel costs on the NPU", 1)[1].split("\n### ", 1)[0]
    command = next(line for line in section.splitlines() if "ascend-conv bp-filter" in line)
    shown = [line for line in section.splitlines() if line.startswith("  ")]
    code, out, err = run(capsys, *command.split()[1:])
    assert code == 0, err
    assert shown and all(line in out.splitlines() for line in shown), out


# ---------------------------------------------------------------------------------------------
# what to do about it: the critical instruction, the cached tuned gain, compare

SMALL = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1", "--cores", "1"]
WAITS = re.compile(r"^  waits most on (.+), (\d+)% of the critical path$", re.M)


def _json(capsys, *argv) -> dict:
    """The cost section of ``--report json`` (docs/report.schema.json)."""
    import json

    code, out, err = run(capsys, *argv, "--report", "json")
    assert code == 0, err
    return json.loads(out)["cost"]


@pytest.fixture
def no_search(monkeypatch, tmp_path):
    """An empty tuning cache, and a search that fails the test if anything starts one."""
    from ascend_xdsl.tuning import cached_search

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def searched(*args, **kwargs):
        raise AssertionError("the summary must never search")

    monkeypatch.setattr(cached_search, "search", searched)


def test_summary_names_the_instruction_the_critical_path_waits_on(capsys, no_search):
    code, out, err = run(capsys, "bp-filter", *SMALL)
    assert code == 0, err
    lines = out.splitlines()
    modelled = next(i for i, line in enumerate(lines) if "modelled on" in line)
    (match,) = WAITS.finditer(out)
    assert lines[modelled + 1] == match.group(0)  # right under "... bound (waits on PIPE)"
    pipe = re.search(r"waits on (\w+)\)", lines[modelled]).group(1)
    report = _json(capsys, "bp-filter", *SMALL)
    share = report["pipes"][pipe]["critical_cycles"] / report["cycles"]
    # the instruction is one of its pipe's: at most that pipe's share of the path
    assert 0 < int(match.group(2)) <= round(100 * share)
    what = {"mte2": "the data_copy of ", "mte1": "the load3d into L0"}[pipe]
    assert match.group(1).startswith(what), match.group(1)
    assert "--tiling tuned gives" not in out  # nothing cached, nothing searched


def test_summary_names_load3d_and_its_operand(capsys, no_search):
    code, out, _ = run(capsys, "bp-filter", "--cost-only")  # the default layer: MTE1-bound
    assert code == 0
    (match,) = WAITS.finditer(out)
    assert match.group(1) == "the load3d into L0B (img2col of x)"


def _cache_answer(same: bool = False) -> tuple[float, float]:
    """Store a tuning answer for the small problem (the cache's check re-scores an entry and
    refuses made-up cycles, docs/runtime.md "The tuning cache"): the heuristic's tiling as the
    tuned one too, or what a short real search finds. Returns the heuristic's and the tuned
    cycles."""
    from ascend_xdsl.hw import DEFAULT_HW
    from ascend_xdsl.hw import load as load_hw
    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling
    from ascend_xdsl.tuning import cache
    from ascend_xdsl.tuning.search import BUDGET, TuneResult, score_tiling, search

    problem = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=1)
    if same:
        heuristic = heuristic_tiling(problem, load_hw(DEFAULT_HW), 1)
        score = score_tiling(problem, DEFAULT_HW, heuristic)
        result = TuneResult(heuristic, score, heuristic, score, 1, 0, 1.0)
    else:
        result = search(problem, DEFAULT_HW, 1, budget=12)
        assert result.tuned_score.cycles < result.heuristic_score.cycles
    cache.store(cache.cache_key(problem, DEFAULT_HW, 1, BUDGET), result.to_json())
    return result.heuristic_score.cycles, result.tuned_score.cycles


def test_summary_gives_the_tuned_gain_from_the_cache_only(capsys, no_search):
    base, tuned = _cache_answer()
    code, out, _ = run(capsys, "bp-filter", *SMALL)
    assert code == 0
    line = (
        f"  --tiling tuned gives {base / tuned:.2f}x ({base:,.0f} -> {tuned:,.0f} cycles, "
        "from the tuning cache)"
    )
    assert line in out.splitlines()
    # the same layer on two cores is another cache entry: not there, nothing said
    code, out, _ = run(capsys, "bp-filter", *SMALL[:-1], "2")
    assert code == 0 and "tuned" not in out.split("modelled on", 1)[1]


def test_summary_says_when_the_tiling_is_the_tuned_one(capsys, no_search):
    _cache_answer(same=True)
    code, out, _ = run(capsys, "bp-filter", *SMALL)
    assert code == 0
    assert "  this is the tuned tiling (from the tuning cache)" in out.splitlines()


def _compare_rows(out: str) -> dict[str, list[str]]:
    rows = {}
    for line in out.splitlines()[4:]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) >= 3:
            rows[cells[0]] = cells[1:]
    return rows


def test_compare_two_tilings_side_by_side(capsys, no_search):
    code, out, err = run(
        capsys, "compare", *SMALL, "heuristic", "heuristic", "--override-b", "base_k=32"
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("compare on atlas-a2-910b2: dW of x 1x16x2x6x6")
    assert lines[1:3] == ["  A: heuristic", "  B: heuristic base_k=32"]
    assert lines[3].split() == ["A", "B"]
    rows = _compare_rows(out)
    a = _json(capsys, "bp-filter", *SMALL, "--cost-only")
    b = _json(capsys, "bp-filter", *SMALL, "--cost-only", "--override", "base_k=32")
    assert rows["cycles"][:2] == [f"{a['cycles']:,.0f}", f"{b['cycles']:,.0f}"]
    faster = a["cycles"] / b["cycles"]
    word = f"B {faster:.2f}x faster" if faster > 1 else f"B {1 / faster:.2f}x slower"
    assert rows["cycles"][2] == word
    assert rows["bound (waits on)"] == [
        f"{a['bound']} ({a['bottleneck']})",
        f"{b['bound']} ({b['bottleneck']})",
    ]
    for pipe in ("mte2", "mte1", "cube", "fixpipe"):  # busy first, then the critical path
        busy, critical = [line for line in lines if line.strip().startswith(pipe + " ")]
        assert busy.split()[1:] == [f"{r['pipes'][pipe]['ratio']:.0%}" for r in (a, b)]
        assert critical.split()[1:] == [
            f"{r['pipes'][pipe]['critical_cycles'] / r['core_spread']['max_cycles']:.0%}"
            for r in (a, b)
        ]
    from ascend_xdsl.hw import load as load_hw
    from ascend_xdsl.lowering.build import shape_from_torch_args
    from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling

    problem = shape_from_torch_args((1, 16, 2, 6, 6), (16, 16, 1, 3, 3), padding=1)
    base_k = heuristic_tiling(problem, load_hw("atlas-a2-910b2"), 1).base_k
    assert base_k != 32 and rows["base_k"] == [str(base_k), "32"]
    assert "tiling fields that differ" in out
    sides = re.findall(r"^  ([AB]) waits most on .+, \d+% of the critical path$", out, re.M)
    assert sides == ["A", "B"]


def test_compare_the_same_tiling(capsys, no_search):
    code, out, _ = run(capsys, "compare", *SMALL, "heuristic", "heuristic")
    assert code == 0
    assert _compare_rows(out)["cycles"][2] == "same"
    assert "the two tilings are the same" in out


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["heuristic", "bogus"], ["bogus"]),
        (["heuristic", "fixed:/no/such/file"], ["/no/such/file"]),
        (["heuristic", "heuristic", "--override-b", "nonsense=1"], ["nonsense"]),
    ],
)
def test_compare_bad_tiling_is_one_line(capsys, no_search, argv, fragments):
    code, out, err = run(capsys, "compare", *SMALL, *argv)
    assert code in (1, 2) and out == ""
    assert_one_line_error(err, *fragments)
