"""tools/run.py: ``ascend-run`` — examples, every level of a compiled kernel with --check and
--sanitize, corrupted kernels, every bad-input class, result files.

Most tests call ``main(argv)`` in-process; one runs the installed console script to make sure
the exit code and the absence of a traceback hold end to end.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.runtime.executors.interpreter import EXECUTORS
from ascend_xdsl.runtime.reports import output
from ascend_xdsl.tools import conv, run

SCRIPT = os.path.join(os.path.dirname(sys.executable), "ascend-run")
ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
MISSING_FLAG = Path(__file__).parent / "filecheck" / "Inputs" / "missing_flag.mlir"

SMALL = ["--input", "1,16,2,6,6", "--weight", "16,16,1,3,3", "--padding", "1", "--cores", "2"]
X_TYPE = "memref<1x16x2x6x6xf16>"


def ascend_run(capsys, *argv):
    code = run.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *fragments: str):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ascend-run: error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture(scope="session")
def kernels(tmp_path_factory) -> dict[str, Path]:
    """The small problem compiled to every level, as ascend-conv --emit writes it."""
    folder = tmp_path_factory.mktemp("kernels")
    paths = {}
    for level in ("op", "format", "api", "hw"):
        paths[level] = folder / f"{level}.mlir"
        assert conv.main(["bp-filter", *SMALL, "--emit", level, "-o", str(paths[level])]) == 0
    return paths


def _mutant(tmp_path: Path, source: Path, name: str, edit) -> Path:
    lines = source.read_text().splitlines(keepends=True)
    path = tmp_path / name
    path.write_text("".join(edit(lines)))
    return path


# ---------------------------------------------------------------------------------------------
# compiled kernels


@pytest.mark.parametrize("level", ["op", "format", "api", "hw"])
def test_every_level_checks(capsys, kernels, tmp_path, level):
    code, out, err = ascend_run(
        capsys, kernels[level], "--random-inputs", "--check", "--output-dir", tmp_path / "out"
    )
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert re.fullmatch(r"check: max abs error .* of its tolerance\): OK", lines[0]), out
    target = tmp_path / "out" / "conv3d_bp_filter.npy"
    assert lines[1] == f"wrote {target} (16x16x1x3x3 f32)"
    assert len(lines) == 2
    result = np.load(target)
    assert result.shape == (16, 16, 1, 3, 3) and result.dtype == np.float32
    assert sorted(p.name for p in target.parent.iterdir()) == ["conv3d_bp_filter.npy"]


def test_levels_agree_on_the_same_seed(capsys, kernels, tmp_path):
    results = {}
    for level in ("op", "hw"):
        folder = tmp_path / level
        code, _, err = ascend_run(
            capsys, kernels[level], "--random-inputs", "--seed", "7", "--output-dir", folder
        )
        assert code == 0, err
        results[level] = np.load(folder / "conv3d_bp_filter.npy")
    np.testing.assert_allclose(results["hw"], results["op"], rtol=1e-5, atol=1e-4)


def test_hw_level_sanitizes_clean(capsys, kernels, tmp_path):
    code, out, err = ascend_run(
        capsys, kernels["hw"], "--random-inputs", "--sanitize", "--output-dir", tmp_path
    )
    assert code == 0, err
    assert out.splitlines()[0] == "sanitizer: no hazards"


def test_given_inputs_and_seed(capsys, kernels, tmp_path):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 16, 2, 6, 6)).astype(np.float16)
    dy = rng.standard_normal((1, 16, 4, 6, 6)).astype(np.float16)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "dy.npy", dy)
    argv = [kernels["hw"], "--input", f"x={tmp_path / 'x.npy'}", "--output-dir"]
    code, out, err = ascend_run(
        capsys, *argv, tmp_path / "a", "--input", f"arg1={tmp_path / 'dy.npy'}", "--check"
    )
    assert code == 0, err
    assert "OK" in out
    got = np.load(tmp_path / "a" / "conv3d_bp_filter.npy")
    # x given, dy random: the seed changes only dy
    for seed, folder in (("0", "b"), ("0", "c"), ("1", "d")):
        code, _, err = ascend_run(
            capsys, *argv, tmp_path / folder, "--random-inputs", "--seed", seed
        )
        assert code == 0, err
    b, c, d = (np.load(tmp_path / f / "conv3d_bp_filter.npy") for f in "bcd")
    assert np.array_equal(b, c) and not np.array_equal(b, d) and not np.array_equal(got, b)


def test_bf16_inputs_from_npy(capsys, tmp_path):
    kernel = tmp_path / "bf16.mlir"
    argv = ["bp-filter", *SMALL, "--dtype", "bf16", "--emit", "hw", "-o", str(kernel)]
    assert conv.main(argv) == 0
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 16, 2, 6, 6)).astype(ml_dtypes.bfloat16)
    dy = rng.standard_normal((1, 16, 4, 6, 6)).astype(ml_dtypes.bfloat16)
    np.save(tmp_path / "x.npy", x)  # numpy stores bfloat16 as raw V2
    np.save(tmp_path / "dy.npy", dy)
    code, out, err = ascend_run(
        capsys,
        kernel,
        "--input", f"x={tmp_path / 'x.npy'}",
        "--input", f"dy={tmp_path / 'dy.npy'}",
        "--check",
        "--output-dir", tmp_path,
    )  # fmt: skip
    assert code == 0, err
    assert "OK" in out


def test_several_results_are_numbered(capsys, tmp_path):
    program = tmp_path / "two.mlir"
    program.write_text(
        "func.func @two(%a: memref<2x3xf32>) -> (memref<2x3xf32>, memref<2x3xf32>) {\n"
        "  func.return %a, %a : memref<2x3xf32>, memref<2x3xf32>\n"
        "}\n"
    )
    code, out, err = ascend_run(capsys, program, "--random-inputs", "--output-dir", tmp_path / "o")
    assert code == 0, err
    assert out.splitlines() == [
        f"wrote {tmp_path / 'o' / 'two.result0.npy'} (2x3 f32)",
        f"wrote {tmp_path / 'o' / 'two.result1.npy'} (2x3 f32)",
    ]
    a = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    assert np.array_equal(np.load(tmp_path / "o" / "two.result1.npy"), a)


def test_default_output_dir_is_the_current_one(capsys, kernels, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = ascend_run(capsys, kernels["op"], "--random-inputs")
    assert code == 0, err
    assert out == "wrote conv3d_bp_filter.npy (16x16x1x3x3 f32)\n"
    assert (tmp_path / "conv3d_bp_filter.npy").is_file()


def test_existing_result_is_replaced_whole(capsys, kernels, tmp_path):
    target = tmp_path / "conv3d_bp_filter.npy"
    target.write_text("old")
    code, _, err = ascend_run(capsys, kernels["op"], "--random-inputs", "--output-dir", tmp_path)
    assert code == 0, err
    assert np.load(target).shape == (16, 16, 1, 3, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conv3d_bp_filter.npy"]


def test_failed_write_leaves_no_file(capsys, kernels, tmp_path, monkeypatch):
    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "replace", fail)
    code, _, err = ascend_run(capsys, kernels["op"], "--random-inputs", "--output-dir", tmp_path)
    assert code == 1
    assert_one_line_error(err, "cannot write", "No space left on device")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# examples and hand-written programs


EXPECTED = {
    # file: (exit code, fragment of stdout or of the one-line error)
    "op_level.mlir": (0, "conv3d_dw.npy (64x64x3x3x3 f32)"),
    "format_level.mlir": (0, "conv3d_dw.npy (64x64x3x3x3 f32)"),
    "api_level.mlir": (0, "@main returned no results; nothing written"),
    "hw_level.mlir": (0, "conv3d_dw.npy (16x16x1x1x1 f32)"),
}


def test_every_example_is_covered():
    assert sorted(p.name for p in EXAMPLES) == sorted(EXPECTED)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples(capsys, tmp_path, path):
    code, out, err = ascend_run(capsys, path, "--random-inputs", "--output-dir", tmp_path)
    expected_code, fragment = EXPECTED[path.name]
    assert code == expected_code, err
    if code == 0:
        assert fragment in out and err == ""
    else:
        assert_one_line_error(err, fragment, "@dw_kernel", "%x")
        assert list(tmp_path.iterdir()) == []


def test_hw_example_checks_and_sanitizes_clean(capsys, tmp_path):
    path = ROOT / "examples" / "hw_level.mlir"
    args = ("--random-inputs", "--check", "--sanitize", "--output-dir", tmp_path)
    code, out, err = ascend_run(capsys, path, *args)
    assert code == 0, err
    assert "sanitizer: no hazards" in out and ": OK" in out


def test_a_launched_kernel_is_not_an_entry(capsys, tmp_path):
    path = ROOT / "examples" / "hw_level.mlir"
    code, _, err = ascend_run(capsys, path, "--entry", "dw_kernel", "--random-inputs")
    assert code == 1
    assert_one_line_error(err, "@dw_kernel is a kernel", "ascend.launch", "@conv3d_dw")


def test_api_example_kernel_is_not_an_entry(capsys):
    path = ROOT / "examples" / "api_level.mlir"
    code, _, err = ascend_run(capsys, path, "--entry", "conv3d_dw_kernel")
    assert code == 1
    assert_one_line_error(err, "@conv3d_dw_kernel is a kernel", "ascend.launch", "@main")


def test_missing_flag_is_reported_with_its_location(capsys, tmp_path):
    lines = MISSING_FLAG.read_text().splitlines()
    assert lines[14].startswith("  ascend.load3d")  # line 15, column 3
    assert lines[13].startswith("  ascend.data_copy")  # line 14, column 3
    code, out, err = ascend_run(
        capsys, MISSING_FLAG, "--random-inputs", "--sanitize", "--output-dir", tmp_path
    )
    assert code == 1
    assert err == ""
    hazard, summary, nothing = out.splitlines()
    assert hazard.startswith("hazard: RAW hazard on L1 bytes [0, 512) in block 0: ")
    assert f"ascend.load3d at {MISSING_FLAG}:15:3 on MTE1 reads what" in hazard
    assert f"ascend.data_copy at {MISSING_FLAG}:14:3 on MTE2 wrote" in hazard
    assert summary == "sanitizer: 1 hazard"
    assert nothing == "@host returned no results; nothing written"


def _first_wait(kind: str):
    def edit(lines: list[str]) -> list[str]:
        i = next(i for i, line in enumerate(lines) if f"ascend.wait_flag {kind}" in line)
        return lines[:i] + lines[i + 1 :]

    return edit


@pytest.mark.parametrize("executor", EXECUTORS)
def test_deleted_wait_is_a_hazard(capsys, kernels, tmp_path, executor):
    mutant = _mutant(tmp_path, kernels["hw"], "no_wait.mlir", _first_wait("MTE2 -> MTE1"))
    code, out, err = ascend_run(
        capsys,
        mutant,
        "--executor",
        executor,
        "--random-inputs",
        "--sanitize",
        "--output-dir",
        tmp_path / "o",
    )
    assert code == 1
    hazards = [line for line in out.splitlines() if line.startswith("hazard: ")]
    assert hazards and all("RAW hazard on L1" in h for h in hazards), out
    assert f"ascend.load3d at {mutant}:" in hazards[0]
    assert re.search(r"sanitizer: \d+ hazards? before the run failed", out), out
    # the set that lost its wait is still pending when the kernel ends
    assert_one_line_error(err, f"ascend.launch at {mutant}:6:5", "never waited")
    # in words, as the IR writes a flag, not a Python dict
    assert re.search(
        r"never waited at kernel end: MTE2 -> MTE1 event \d+ set \d+ times? without", err
    )
    assert "{(" not in err
    assert not (tmp_path / "o").exists()


def test_report_json_is_one_document(capsys, kernels, tmp_path):
    import json

    code, out, err = ascend_run(
        capsys, kernels["hw"], "--random-inputs", "--check", "--sanitize", "--report", "json",
        "--output-dir", tmp_path / "o",
    )  # fmt: skip
    assert code == 0, err
    document = json.loads(out)  # nothing else on stdout
    for key in ("cycles", "seconds", "flops", "tflops", "peak_tflops", "efficiency", "bound",
                "bottleneck", "pipes", "cores"):  # fmt: skip
        assert document["cost"][key] is not None, key
    assert len(document["launches"]) == 1 and document["hazards"] == []
    assert document["check"]["max_abs_error"] < document["check"]["tolerance"]
    assert document["check"]["ok"] and document["written"][0].endswith("conv3d_bp_filter.npy")
    # An op-level program has no hardware cost: the keys are there, and null.
    code, out, err = ascend_run(
        capsys, kernels["op"], "--random-inputs", "--report", "json", "--output-dir", tmp_path
    )
    assert code == 0, err
    document = json.loads(out)
    # An op-level program has no hardware cost: the keys are there, null and empty.
    assert document["launches"] == [] and document["cost"] is None
    assert document["problem"]["input"] == [1, 16, 2, 6, 6] and "tiling" in document


@pytest.mark.parametrize("executor", EXECUTORS)
def test_deleted_set_is_a_deadlock(capsys, kernels, tmp_path, executor):
    def edit(lines: list[str]) -> list[str]:
        i = next(i for i, line in enumerate(lines) if "ascend.set_flag MTE2 -> MTE1" in line)
        return lines[:i] + lines[i + 1 :]

    mutant = _mutant(tmp_path, kernels["hw"], "no_set.mlir", edit)
    line = next(
        n
        for n, text in enumerate(mutant.read_text().splitlines(), 1)
        if "ascend.wait_flag MTE2 -> MTE1" in text
    )
    code, _, err = ascend_run(
        capsys, mutant, "--executor", executor, "--random-inputs", "--output-dir", tmp_path / "o"
    )
    assert code == 1
    assert_one_line_error(err, f"ascend.wait_flag at {mutant}:{line}:", "deadlock")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("executor", EXECUTORS)
def test_overlapping_buffers_are_an_address_plan_error(capsys, kernels, tmp_path, executor):
    def edit(lines: list[str]) -> list[str]:
        (i,) = (i for i, line in enumerate(lines) if "local_tensor<B1" in line and "alloc" in line)
        lines[i] = re.sub(r"offset \d+", "offset 0", lines[i])  # B1 on top of A1
        return lines

    mutant = _mutant(tmp_path, kernels["hw"], "overlap.mlir", edit)
    code, _, err = ascend_run(
        capsys,
        mutant,
        "--executor",
        executor,
        "--random-inputs",
        "--check",
        "--output-dir",
        tmp_path / "o",
    )
    assert code == 1
    assert_one_line_error(err, "ascend.alloc_buffer at", "B1 buffer [0,", "overlaps A1 buffer")
    assert not (tmp_path / "o").exists() or list((tmp_path / "o").iterdir()) == []


def test_buffer_past_the_memory_fails_verification(capsys, kernels, tmp_path):
    def edit(lines: list[str]) -> list[str]:
        (i,) = (i for i, line in enumerate(lines) if "local_tensor<B1" in line and "alloc" in line)
        lines[i] = re.sub(r"offset \d+", "offset 524000", lines[i])
        return lines

    mutant = _mutant(tmp_path, kernels["hw"], "oob.mlir", edit)
    code, _, err = ascend_run(capsys, mutant, "--random-inputs", "--output-dir", tmp_path / "o")
    assert code == 1
    assert_one_line_error(err, "verification failed: ascend.alloc_buffer at", "does not fit in L1")
    assert "builtin.module" not in err and not (tmp_path / "o").exists()


@pytest.mark.parametrize("executor", EXECUTORS)
def test_out_of_bounds_access_names_the_op(capsys, tmp_path, executor):
    # data_copy of 64 blocks (2 KiB) into a 256-element A1 buffer at the end of L1: the
    # verifiers accept the buffer, the access runs past the memory.
    text = MISSING_FLAG.read_text()
    text = text.replace(
        "slots 1 offset 0 : !ascend.local_tensor<A1",
        "slots 1 offset 523776 : !ascend.local_tensor<A1",
    )
    text = text.replace("count %c1 len %c16", "count %c1 len %c64").replace(
        "%c16 = arith.constant 16 : index",
        "%c16 = arith.constant 16 : index\n  %c64 = arith.constant 64 : index",
    )
    program = tmp_path / "oob.mlir"
    program.write_text(text)
    code, _, err = ascend_run(
        capsys, program, "--executor", executor, "--random-inputs", "--output-dir", tmp_path / "o"
    )
    assert code == 1
    assert_one_line_error(err, f"ascend.data_copy at {program}:15:3", "out of bounds")


# ---------------------------------------------------------------------------------------------
# bad input: one line, the exit code, no traceback, no output


@pytest.fixture()
def npy_files(tmp_path) -> dict[str, Path]:
    files = {
        "wrong_shape": np.zeros((2, 3), np.float16),
        "wrong_dtype": np.zeros((1, 16, 2, 6, 6), np.float32),
        "good": np.zeros((1, 16, 2, 6, 6), np.float16),
    }
    paths = {}
    for name, array in files.items():
        paths[name] = tmp_path / f"{name}.npy"
        np.save(paths[name], array)
    paths["text"] = tmp_path / "text.npy"
    paths["text"].write_text("hello\n")
    paths["truncated"] = tmp_path / "truncated.npy"
    paths["truncated"].write_bytes(paths["good"].read_bytes()[:200])
    paths["npz"] = tmp_path / "a.npz"
    np.savez(paths["npz"], a=np.zeros(3))
    paths["folder"] = tmp_path / "folder.npy"
    paths["folder"].mkdir()
    return paths


NPY_CASES = {
    "wrong_shape": ["shape [2, 3] does not match memref<1x16x2x6x6xf16>"],
    "wrong_dtype": ["dtype float32 does not match", "expected float16"],
    "text": ["not an .npy file"],
    "truncated": ["truncated .npy file", "of its 2304 data bytes"],
    "npz": ["not an .npy file", ".npz"],
    "folder": ["cannot read"],
    "missing": ["cannot read", "No such file"],
}


@pytest.mark.parametrize("case", sorted(NPY_CASES))
def test_bad_npy(capsys, kernels, tmp_path, npy_files, case):
    path = npy_files.get(case, tmp_path / "missing.npy")
    out_dir = tmp_path / "o"
    code, out, err = ascend_run(
        capsys, kernels["hw"], "--input", f"x={path}", "--random-inputs", "--output-dir", out_dir
    )
    assert code == 1
    assert_one_line_error(err, f"--input x={path}: ", *NPY_CASES[case])
    assert out == "" and not out_dir.exists()


def test_wrong_shape_message_exactly(capsys, kernels, npy_files):
    path = npy_files["wrong_shape"]
    _, _, err = ascend_run(capsys, kernels["hw"], "--input", f"x={path}", "--random-inputs")
    assert err == (f"ascend-run: error: --input x={path}: shape [2, 3] does not match {X_TYPE}\n")


def _bad(kernels: dict[str, Path], tmp_path: Path) -> dict[str, tuple[list, int, list[str]]]:
    bad_syntax = tmp_path / "bad_syntax.mlir"
    bad_syntax.write_text("func.func @f(%x: memref<2xf16>) {\n  %y = ascend.bogus %x\n}\n")
    two = tmp_path / "two.mlir"
    two.write_text(
        "func.func @a(%x: memref<2xf32>) {\n  func.return\n}\n"
        "func.func @b(%x: memref<2xf32>) {\n  func.return\n}\n"
    )
    none = tmp_path / "none.mlir"
    none.write_text(
        "func.func @k(%x: memref<2xf32>) attributes {ascend.kernel} {\n  func.return\n}\n"
    )
    idx = tmp_path / "index_arg.mlir"
    idx.write_text("func.func @f(%n: index) {\n  func.return\n}\n")
    bad_tiling = tmp_path / "bad_tiling.mlir"
    bad_tiling.write_text(kernels["api"].read_text().replace("base_m = 16", "base_m = 17"))
    hw = str(kernels["hw"])
    return {
        "unparsable": (
            [bad_syntax],
            1,
            [f"{bad_syntax}:2:21: Operation ascend.bogus is not registered"],
        ),
        "invalid_attribute": (
            [bad_tiling, "--random-inputs"],
            1,
            [f"{bad_tiling}: dw_tiling: base_m must be a multiple of 16, got 17"],
        ),
        "no_file": ([tmp_path / "nope.mlir"], 1, ["cannot read", "No such file"]),
        "unknown_entry": (
            [hw, "--entry", "nope"],
            1,
            ["--entry nope: no such function", "@conv3d_bp_filter"],
        ),
        "kernel_entry": ([hw, "--entry", "conv3d_bp_filter_kernel"], 1, ["is a kernel"]),
        "several_entries": ([two], 1, ["several entry functions (@a, @b)", "--entry"]),
        "no_entry": ([none], 1, ["no entry function"]),
        "non_memref_argument": (
            [idx, "--random-inputs"],
            1,
            ["%n is index", "only memref arguments"],
        ),
        "missing_input": ([hw], 1, ["no data for argument %x", X_TYPE, "--random-inputs"]),
        "unknown_input_name": (
            [hw, "--input", "w=a.npy"],
            1,
            ["@conv3d_bp_filter has no argument %w", "x, dy"],
        ),
        "malformed_input": ([hw, "--input", "x"], 2, ["expected NAME=FILE.npy"]),
        "unknown_hw": (
            [hw, "--hw", "atlas-x", "--random-inputs"],
            1,
            ["unknown hardware 'atlas-x'", "atlas-a2-910b2"],
        ),
        "bad_seed": ([hw, "--seed", "many"], 2, ["--seed", "many"]),
        "unknown_flag": ([hw, "--fast"], 2, ["unrecognized arguments: --fast"]),
        "no_file_argument": ([], 2, ["FILE.mlir"]),
        "check_without_problem": (
            [two, "--entry", "a", "--check", "--random-inputs"],
            1,
            ["--check", "no recognisable dW or forward problem"],
        ),
    }


BAD_CASES = [
    "unparsable", "invalid_attribute", "no_file", "unknown_entry", "kernel_entry",
    "several_entries", "no_entry",
    "non_memref_argument", "missing_input", "unknown_input_name", "malformed_input",
    "unknown_hw", "bad_seed", "unknown_flag", "no_file_argument", "check_without_problem",
]  # fmt: skip


@pytest.mark.parametrize("case", BAD_CASES)
def test_bad_request(capsys, kernels, tmp_path, case):
    argv, expected_code, fragments = _bad(kernels, tmp_path)[case]
    out_dir = tmp_path / "o"
    code, out, err = ascend_run(capsys, *argv, "--output-dir", out_dir)
    assert code == expected_code
    assert_one_line_error(err, *fragments)
    assert out == "" and not out_dir.exists()


def test_every_bad_case_is_listed(kernels, tmp_path):
    assert sorted(BAD_CASES) == sorted(_bad(kernels, tmp_path))


def test_help(capsys):
    code, out, _ = ascend_run(capsys, "--help")
    assert code == 0 and "--random-inputs" in out and "--sanitize" in out


def test_console_script(kernels, tmp_path):
    ok = subprocess.run(
        [SCRIPT, kernels["hw"], "--random-inputs", "--check", "--output-dir", tmp_path],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("check: ") and ": OK\n" in ok.stdout
    bad = subprocess.run([SCRIPT, kernels["hw"]], capture_output=True, text=True)
    assert bad.returncode == 1
    assert bad.stderr.startswith("ascend-run: error: no data for argument %x")
    assert "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_one_argument_named_twice_is_refused(capsys, tmp_path):
    path = ROOT / "examples" / "op_level.mlir"
    npy = tmp_path / "x.npy"
    np.save(npy, np.zeros((2, 64, 8, 28, 28), np.float16))
    code, _, err = ascend_run(capsys, path, "--input", f"x={npy}", "--input", f"arg0={npy}")
    assert code == 2
    assert_one_line_error(err, "argument %x (arg0) is given twice")
