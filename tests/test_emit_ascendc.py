"""emit/: ``--emit ascendc`` and ``check-ascendc``.

* The tiling in the emitted host code, parsed back out of ``main.cpp``, is the
  ``#ascend.dw_tiling`` of the API-level ``ascend.init``, field for field, and the launch's
  block dim is the IR's.
* The kernel has one API call per API op of the IR, and one loop per ``scf.for``.
* Every layer of the correctness matrix (``test_runtime.SHAPES``, the layers the simulator
  runs and checks against the reference), on one core and on all of them, passes
  ``check-ascendc``; deliberately wrong calls fail it.
* The CLI: a missing ``-o``, a folder that is not ours, a missing parent, a missing g++ and a
  folder that is no project are one-line errors that leave nothing behind.
* The forward conv's project (``emit/forward.py``): the host fills the vendor's
  ``TConv3DApiTiling`` from the IR's ``#ascend.conv3d_tiling``, the kernel has one ``Conv3D``
  call per API op, and it passes the check while misuses of the API fail it (one project,
  compiled once, to keep the suite fast).
* dX's project (``emit/input_grad.py``): the host fills every field of
  ``TConv3DBackpropInputTiling`` from the IR's tiling, the kernel has one
  ``Conv3DBackpropInput`` call per API op and passes the check while misuses fail it, and three
  layers (stride 2; bf16 with asymmetric padding; singleCoreDin 4 over Di 7) built against the
  recording stand-in make the calls the API-level IR makes under the interpreter, the IR's
  loop over a core's depths with one SetStartPosition and Iterate series each (asc-devkit's
  SetSingleShape sets Din to 1), their GetTensorC depths covering every dX depth once and their
  data.py checking dX.
"""

from __future__ import annotations

import math
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import inprocess
import numpy as np
import pytest
from test_runtime import SHAPES
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.parser import Parser

from ascend_xdsl.dialects import api_conv3d as fwd
from ascend_xdsl.dialects import api_conv3d_bp_input as dx_api
from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects import formats
from ascend_xdsl.dialects.attributes import Conv3DTilingAttr
from ascend_xdsl.dialects.conv_shape import C0, FRACTAL
from ascend_xdsl.dialects.dw_tiling import DwTiling
from ascend_xdsl.dialects.hw_level import GetBlockIdxOp
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.emit import check as check_module
from ascend_xdsl.emit import forward as forward_emit
from ascend_xdsl.emit import kernel as kernel_module
from ascend_xdsl.emit.ascendc import (
    HOST_FILE,
    EmitError,
    Project,
    camel_case,
    emit_project,
    tiling_fields,
)
from ascend_xdsl.emit.check import CheckError, check_project
from ascend_xdsl.emit.common import README_FILE, EmitOptions
from ascend_xdsl.emit.forward import emit_forward_project
from ascend_xdsl.emit.input_grad import emit_input_grad_project
from ascend_xdsl.emit.project import MARKER, write_project
from ascend_xdsl.hw import load as load_hw
from ascend_xdsl.ir.program import conv_problem
from ascend_xdsl.lowering.build import build_module, shape_from_torch_args
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels, make_context
from ascend_xdsl.runtime.api import interpret_timed, random_inputs
from ascend_xdsl.runtime.executors import api_sim
from ascend_xdsl.runtime.executors.arith_functions import ExtraArithFunctions
from ascend_xdsl.runtime.forward import forward_levels, random_forward_inputs, run_conv3d
from ascend_xdsl.runtime.input_grad import (
    input_grad_levels,
    random_input_grad_inputs,
    run_conv3d_input,
)
from ascend_xdsl.tools import conv

HW = "atlas-a2-910b2"
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


def _modules(name: str, cores: int, stop_after: str = "api") -> dict[str, ModuleOp]:
    kw = dict(SHAPES[name])
    dtype = kw.pop("dtype", np.float16)
    problem = shape_from_torch_args(
        kw["x_shape"],  # type: ignore[arg-type]
        kw["w"],  # type: ignore[arg-type]
        stride=kw.get("stride", 1),  # type: ignore[arg-type]
        padding=kw.get("pads", 0),  # type: ignore[arg-type]
        dilation=kw.get("dilation", 1),  # type: ignore[arg-type]
        groups=kw.get("groups", 1),  # type: ignore[arg-type]
        dtype="f16" if dtype is np.float16 else "bf16",
    )
    options = CompileOptions.create(
        hw=HW,
        tiling="heuristic",
        cores=cores,
        override=str(kw.get("override", "")),
        dk=str(kw.get("dk", "separate")),
    )
    return compile_levels(build_module(problem), options, stop_after=stop_after)


def _project(name: str, cores: int, options: EmitOptions | None = None) -> tuple[ModuleOp, Project]:
    module = _modules(name, cores)["api"]
    return module, emit_project(module, HW, f"test {name}", options)


FIXED_LEGACY = EmitOptions(host_tiling="fixed", build="legacy")


def _ir_tiling(module: ModuleOp) -> DwTiling:
    return next(op for op in module.walk() if isinstance(op, api.InitOp)).tiling.tiling


def _host_assignments(host: str) -> dict[str, int]:
    """``t.<struct>.<field> = N;`` of FillTiling, as {"dwTiling.batch": N, ...}."""
    return {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^\s*t\.(\w+\.\w+) = (\d+);$", host, re.MULTILINE)
    }


# --------------------------------------------------------------------------------------------
# What the emitted code says
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "cores"),
    [("groups2", 1), ("fused_dk", 24), ("cin20", 4), ("order_n", 1), ("tall_streaming_k", 24)],
)
def test_host_tiling_is_the_ir_tiling(name: str, cores: int) -> None:
    """--host-tiling fixed --build legacy: FillTiling and ACLRT_LAUNCH_KERNEL."""
    module, project = _project(name, cores, FIXED_LEGACY)
    host = project.files[HOST_FILE]
    tiling = _ir_tiling(module).as_dict()
    assigned = _host_assignments(host)
    basic_block = ("single_core_m", "single_core_n", "single_core_k")
    expected = {
        f"{'basicBlockTiling' if f in basic_block else 'dwTiling'}.{camel_case(f)}": tiling[f]
        for f in tiling_fields()
    }
    assert {k: v for k, v in assigned.items() if not k.startswith("params.")} == expected
    assert len(expected) == 55  # the 52 fields of TConv3DBpFilterTiling and the basic block
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    (block_dim,) = re.findall(r"constexpr uint32_t kBlockDim = (\d+);", host)
    assert int(block_dim) == launch.blocks.value.data == _ir_tiling(module).core_num
    assert f"ACLRT_LAUNCH_KERNEL({project.kernel_name})(kBlockDim, stream," in host


def test_the_struct_field_names_are_the_vendors() -> None:
    """The camelCase names of DwTiling are the fields the shipped kernel_tiling.h declares
    (written from the vendor's struct), in the same order."""
    header = (check_module.include_dir() / "kernel_tiling" / "kernel_tiling.h").read_text()
    struct = header.split("struct TConv3DBpFilterTiling {")[1].split("};")[0]
    declared = re.findall(r"uint(?:32|64)_t (\w+) = 0;", struct)
    assert declared == [camel_case(f) for f in tiling_fields()][:-3]


@pytest.mark.parametrize(("name", "cores"), [("groups2", 1), ("fused_dk", 24), ("cout20", 4)])
def test_kernel_has_one_call_per_api_op(name: str, cores: int) -> None:
    module, project = _project(name, cores)
    kernel = project.files[project.kernel_file]
    ops = list(module.walk())
    calls = {
        api.InitOp: "Init(",
        api.SetGradOutputOp: "SetGradOutput(",
        api.SetInputOp: "SetInput(",
        api.SetSingleShapeOp: "SetSingleShape(",
        api.SetStartPositionOp: "SetStartPosition(",
        api.GetTensorCOp: "GetTensorC(",
        api.EndOp: "End()",
    }
    for op_type, call in calls.items():
        assert kernel.count(f"bpFilter.{call}") == sum(isinstance(o, op_type) for o in ops), call
    assert kernel.count("while (bpFilter.Iterate())") == sum(
        isinstance(o, scf.WhileOp) for o in ops
    )
    assert kernel.count("for (int64_t ") == sum(isinstance(o, scf.ForOp) for o in ops)
    assert kernel.count("AscendC::GetBlockIdx()") == 1
    assert "GetTensorC(dwGm[" in kernel and ", 1);" in kernel  # atomic, as the IR has it


def test_hw_level_is_refused() -> None:
    module = _modules("small", 1)
    hw = compile_levels(
        build_module(shape_from_torch_args((1, 16, 3, 6, 6), (16, 16, 2, 3, 3), dtype="f16")),
        CompileOptions.create(hw=HW, tiling="heuristic", cores=1),
    )["hw"]
    with pytest.raises(EmitError, match="takes the API level"):
        emit_project(hw, HW, "")
    with pytest.raises(EmitError, match=r"exactly one ascend\.launch"):
        emit_project(module["format"], HW, "")


# --------------------------------------------------------------------------------------------
# check-ascendc
# --------------------------------------------------------------------------------------------


@needs_gxx
@pytest.mark.parametrize("cores", [1, 24])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_matrix_layer_passes_the_syntax_check(tmp_path: Path, name: str, cores: int):
    _, project = _project(name, cores)
    write_project(tmp_path / "p", project)
    result = check_project(tmp_path / "p")
    assert result.files == (project.kernel_file, HOST_FILE)


DEFAULT = EmitOptions()
WRONG = [
    # a misspelt member
    (DEFAULT, "kernel", "bpFilter.SetStartPosition(", "bpFilter.SetStartPos("),
    # dy (half) where dW (float) goes
    (DEFAULT, "kernel", "bpFilter.GetTensorC(dwGm[", "bpFilter.GetTensorC(dyGm["),
    # a call with one argument too many
    (DEFAULT, "kernel", "bpFilter.End();", "bpFilter.End(1);"),
    # an illegal ConvType combination: dW must be float
    (DEFAULT, "kernel", "FRACTAL_Z_3D, float>", "FRACTAL_Z_3D, half>"),
    # the docs' host-side spelling of the position, which the kernel-side headers lack
    (DEFAULT, "kernel", "ConvType<AscendC::TPosition::GM", "ConvType<ConvCommonApi::TPosition::GM"),
    # a <<<>>> launch missing a kernel argument, and one missing the stream
    (DEFAULT, "kernel", "(x, dy, dw, tiling);", "(x, dy, dw);"),
    (DEFAULT, "kernel", "<<<blockDim, nullptr, stream>>>", "<<<blockDim, stream>>>"),
    # the tiling API: a misspelt Set call
    (DEFAULT, "host", "tiler.SetStride(", "tiler.SetStrides("),
    # the host's launch missing an argument
    (DEFAULT, "host", ",\n        static_cast<uint8_t*>(tilingDev));", ");"),
    # legacy build and fixed tiling: a kernel type that does not exist
    (FIXED_LEGACY, "kernel", "KERNEL_TYPE_AIC_ONLY", "KERNEL_TYPE_MIX_AIC_3_0"),
    # a tiling field the struct does not have
    (FIXED_LEGACY, "host", "t.dwTiling.batch =", "t.dwTiling.batches ="),
    # a launch with an argument missing
    (FIXED_LEGACY, "host", ", tilingDev);", ");"),
]


@needs_gxx
@pytest.mark.parametrize(("options", "where", "good", "bad"), WRONG)
def test_a_wrong_call_fails_the_check(
    tmp_path: Path, options: EmitOptions, where: str, good: str, bad: str
):
    _, project = _project("small", 2, options)
    folder = write_project(tmp_path / "p", project)
    path = folder / (project.kernel_file if where == "kernel" else HOST_FILE)
    text = path.read_text()
    assert good in text
    path.write_text(text.replace(good, bad, 1))
    with pytest.raises(CheckError, match=r"^\S+\.(cpp|asc)[:\d]*: .*error: "):
        check_project(folder)


def test_no_compiler_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys):
    _, project = _project("small", 1)
    folder = write_project(tmp_path / "p", project)
    monkeypatch.setattr(check_module.shutil, "which", lambda _: None)
    code = conv.main(["check-ascendc", str(folder)])
    _, err = capsys.readouterr()
    assert code == 1
    assert err == (
        "ascend-conv: error: check-ascendc: g++ not found on PATH: install it to check "
        "emitted Ascend C\n"
    )


# --------------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------------

SMALL = ["bp-filter", "--input", "1,16,4,8,8", "--weight", "16,16,3,3,3", "--padding", "1"]


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = conv.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str, fragment: str) -> None:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("ascend-conv: error: ") and fragment in err, err


@needs_gxx
def test_emit_then_check_then_emit_again(tmp_path: Path, capsys):
    folder = tmp_path / "proj"
    code, out, err = _run(capsys, *SMALL, "--emit", "ascendc", "-o", str(folder))
    assert (code, err) == (0, "")
    files = ["CMakeLists.txt", "README.md", "conv3d_bp_filter_kernel.asc", "data.py", "main.cpp"]
    assert out == f"wrote {folder}: {', '.join(files)}\n"
    assert sorted(p.name for p in folder.iterdir()) == sorted([*files, MARKER])
    assert "--emit ascendc -o" in (folder / "README.md").read_text()
    code, out, err = _run(capsys, "check-ascendc", str(folder))
    assert (code, err) == (0, "") and "not a CANN build" in out
    # A previous emission is replaced whole, with the new tiling.
    code, _, err = _run(capsys, *SMALL, "--cores", "2", "--emit", "ascendc", "-o", str(folder))
    assert (code, err) == (0, "")
    assert "kBlockDim = 2;" in (folder / HOST_FILE).read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporaries


def test_emit_ascendc_needs_a_folder(capsys):
    code, out, err = _run(capsys, *SMALL, "--emit", "ascendc")
    assert code == 2 and out == ""
    _one_line(err, "--emit ascendc writes a project folder: give it with -o DIR")


def test_a_folder_that_is_not_ours_is_left_alone(tmp_path: Path, capsys):
    (tmp_path / "mine.txt").write_text("keep")
    code, _, err = _run(capsys, *SMALL, "--emit", "ascendc", "-o", str(tmp_path))
    assert code == 1
    _one_line(err, "is not empty and is not a previous --emit ascendc project")
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]
    # Nor is an emission someone added a file to.
    folder = tmp_path / "p"
    assert _run(capsys, *SMALL, "--emit", "ascendc", "-o", str(folder))[0] == 0
    (folder / "notes.txt").write_text("mine")
    code, _, err = _run(capsys, *SMALL, "--emit", "ascendc", "-o", str(folder))
    assert code == 1 and (folder / "notes.txt").read_text() == "mine"


def test_missing_parent_and_not_a_project(tmp_path: Path, capsys):
    code, _, err = _run(capsys, *SMALL, "--emit", "ascendc", "-o", str(tmp_path / "a" / "b"))
    assert code == 1
    _one_line(err, "No such file or directory")
    assert not (tmp_path / "a").exists()
    code, _, err = _run(capsys, "check-ascendc", str(tmp_path))
    assert code == 1
    _one_line(err, "has no emitted project")
    code, _, err = _run(capsys, "check-ascendc", str(tmp_path / "none"))
    assert code == 1
    _one_line(err, "is not a folder")


# --------------------------------------------------------------------------------------------
# docs/ascendc.md
# --------------------------------------------------------------------------------------------

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "ascendc.md"
BIN = Path(sys.executable).parent


def _page_blocks() -> list[tuple[str, list[str]]]:
    """(the prose paragraph just before it, its lines) of every fenced block of the page."""
    blocks: list[tuple[str, list[str]]] = []
    prose: list[str] = []
    body: list[str] | None = None
    gap = False
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if body is not None:
            if line.startswith("```"):
                blocks.append((" ".join(prose), body))
                body, prose = None, []
            else:
                body.append(line)
        elif line.startswith("```"):
            body = []
        elif not line.strip():
            gap = True
        else:
            prose = [*([] if gap else prose), line.strip()]
            gap = False
    return blocks


def _assert_excerpt(excerpt: list[str], text: str, what: str) -> None:
    """The parts of ``excerpt`` between ``...`` lines are consecutive lines of ``text``, in
    order."""
    lines = text.splitlines()
    parts: list[list[str]] = [[]]
    for line in excerpt:
        if line.strip() == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    at = 0
    for part in (p for p in parts if p):
        found = next(
            (i for i in range(at, len(lines) - len(part) + 1) if lines[i : i + len(part)] == part),
            None,
        )
        assert found is not None, f"{what}: not found in order:\n" + "\n".join(part)
        at = found + len(part)


@needs_gxx
def test_the_page_shows_what_the_commands_do(tmp_path: Path):
    blocks = _page_blocks()
    commands = [lines for _, lines in blocks if lines and lines[0].startswith("$ ")]
    assert len(commands) == 4  # dW's project and its check, dX's and its check
    for lines in commands:
        argv = shlex.split(lines[0][2:])
        argv[0] = str(BIN / Path(argv[0]).name)
        done = inprocess.run(argv, cwd=tmp_path)  # as a process would (tests/inprocess.py)
        assert (done.returncode, done.stderr) == (0, ""), lines[0]
        assert done.stdout.splitlines() == lines[1:], lines[0]
    excerpts = 0
    for prose, lines in blocks:
        if lines and lines[0].startswith("$ "):
            continue
        named = re.findall(r"`(d[wx]_project/[\w.]+)`", prose)
        source = named[-1] if named else "dw_project/main.cpp"  # "and launches on ..."
        _assert_excerpt(lines, (tmp_path / source).read_text(), source)
        excerpts += 1
    assert excerpts == 5


# --------------------------------------------------------------------------------------------
# data.py: the data contract of the host program
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "cores"), [("groups2", 1), ("bf16", 2), ("cin20", 24)])
def test_data_script_matches_the_host_and_checks_a_simulated_dw(
    tmp_path: Path, name: str, cores: int
):
    """data.py makes exactly the bytes main.cpp reads, and accepts the simulator's dW written
    in FRACTAL_Z_3D (the layout main.cpp writes) while rejecting a wrong one."""
    modules = _modules(name, cores, "hw")
    folder = write_project(tmp_path / "p", emit_project(modules["api"], HW, ""))
    script = [sys.executable, str(folder / "data.py")]
    data = tmp_path / "runs" / "data"  # make creates the folder
    run = inprocess.run([*script, "make", str(data), "3"])
    assert (run.returncode, run.stderr) == (0, "")
    host = (folder / HOST_FILE).read_text()
    sizes = dict(re.findall(r"constexpr size_t k(\w+)Bytes = (\d+);", host))
    assert (data / "x.bin").stat().st_size == int(sizes["X"])
    assert (data / "dy.bin").stat().st_size == int(sizes["Dy"])

    host_func = next(op for op in modules["api"].ops if isinstance(op, func.FuncOp))
    problem = conv_problem(host_func)
    assert problem is not None
    x, dy = random_inputs(problem, 3)
    dw, _ = interpret_timed(modules["hw"], HW, x, dy, timed=False)
    fz = formats.oihw_to_fractal_z_3d(dw, problem.groups, C0).astype(np.float32)
    assert fz.nbytes == int(sizes["Dw"])
    fz.tofile(data / "dw.bin")
    run = inprocess.run([*script, "check", str(data), "3"])
    assert run.returncode == 0 and "OK" in run.stdout, run.stdout + run.stderr
    # The vendor's verdict on the next line: CANN's precision standard for the problem's dtype.
    ours, standard = run.stdout.splitlines()
    assert ours.endswith(": OK")
    name = {"f16": "float16", "bf16": "bfloat16"}[problem.dtype]
    assert standard.startswith(f"CANN precision standard ({name}: MERE < 2^-")
    assert standard.endswith(": PASS")
    fz.reshape(-1)[0] += 1.0
    fz.tofile(data / "dw.bin")
    run = inprocess.run([*script, "check", str(data), "3"])
    assert run.returncode == 1, run.stdout
    assert run.stdout.splitlines()[1].endswith(": FAIL"), run.stdout


def test_the_data_script_passes_the_linter(tmp_path: Path):
    """A project written inside this repository (the docs' commands, by hand) must not make
    ``ruff check .`` or ``ruff format --check .`` fail: its data.py is ruff-clean."""
    modules = _modules("bf16", 2, "api")
    folder = write_project(tmp_path / "p", emit_project(modules["api"], HW, ""))
    # The forward's and dX's data.py of a grouped layer too.
    layer = ((1, 40, 2, 6, 6), (32, 20, 1, 3, 3), {"groups": 2})
    _, fwd_module = _grouped(*layer, forward_levels, 2)
    forward = write_project(tmp_path / "f", emit_forward_project(fwd_module, HW, "", 2))
    _, dx_module = _grouped(*layer, input_grad_levels, 2)
    dx = write_project(tmp_path / "d", emit_input_grad_project(dx_module, HW, "", 2))
    config = str(Path(__file__).parent.parent / "pyproject.toml")
    ruff = str(Path(sys.executable).parent / "ruff")
    scripts = [str(f / "data.py") for f in (folder, forward, dx)]
    for command in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [ruff, *command, "--config", config, *scripts],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr


# --------------------------------------------------------------------------------------------
# The emitted project run on the CPU against a recording stand-in of the API
# --------------------------------------------------------------------------------------------

MOCK = Path(__file__).parent / "ascendc_mock"

_LAUNCHER = """#pragma once
#include <cstdio>
// The launch of tests/ascendc_mock: the kernel once per block index, on the CPU.
template <class K>
struct MockLauncher {
    K kernel;
    template <class... P>
    uint32_t operator()(uint32_t blockDim, aclrtStream, P... p)
    {
        for (uint32_t b = 0; b < blockDim; ++b) {
            g_mock_block = b;
            std::printf("block %u\\n", b);
            kernel(static_cast<uint8_t*>(p)...);
        }
        return 0;
    }
};
template <class K>
MockLauncher(K) -> MockLauncher<K>;
#define ACLRT_LAUNCH_KERNEL(kernel) MockLauncher{kernel}
"""


_ASC_LAUNCH = """#pragma once
#include <cstdio>
// The <<<blocks, l2ctrl, stream>>> launch of tests/ascendc_mock: the kernel once per block.
template <class K, class... P>
void MockLaunch(K kernel, uint32_t blockDim, void*, aclrtStream, P... p)
{
    for (uint32_t b = 0; b < blockDim; ++b) {
        g_mock_block = b;
        std::printf("block %u\\n", b);
        kernel(p...);
    }
}
"""


_ASC_LAUNCH_LOGGED = """#pragma once
#include <cstdio>
#include <vector>
// The <<<>>> launch of _ASC_LAUNCH that first logs each launch: "launch" and, for every
// operand, its address minus the first launch's (where in its buffer this launch starts).
template <class K, class... P>
void MockLaunch(K kernel, uint32_t blockDim, void*, aclrtStream, P... p)
{
    static std::vector<uint8_t*> first;
    const std::vector<uint8_t*> now{static_cast<uint8_t*>(p)...};
    if (first.empty()) {
        first = now;
    }
    std::printf("launch");
    for (size_t i = 0; i < now.size(); ++i) {
        std::printf(" %td", now[i] - first[i]);
    }
    std::printf("\\n");
    for (uint32_t b = 0; b < blockDim; ++b) {
        g_mock_block = b;
        std::printf("block %u\\n", b);
        kernel(p...);
    }
}
"""


def _mock_run(
    folder: Path,
    kernel_name: str,
    work: Path,
    tiling_values: str | None = None,
    log_launches: bool = False,
) -> list[str]:
    """Build kernel and host as one program against tests/ascendc_mock and run it on the data
    folder ``folder``; its call log. An ``.asc`` kernel is built from a copy whose ``<<<>>>``
    launch calls the stand-in's (with ``log_launches``, one that also logs each launch's
    operand addresses, :data:`_ASC_LAUNCH_LOGGED`); ``tiling_values`` is what the stand-in's
    GetTiling returns (the body of ``MockTilingValues``)."""
    (work / f"aclrtlaunch_{kernel_name}.h").write_text(_LAUNCHER)
    kernel = f"{kernel_name}.cpp"
    if (folder / f"{kernel_name}.asc").is_file():
        kernel = f"{kernel_name}.asc.cpp"
        text = (folder / f"{kernel_name}.asc").read_text()
        launch = re.sub(r"\b(\w+)<<<([^>]*)>>>\(", r"MockLaunch(\1, \2, ", text)
        (work / kernel).write_text('#include "mock_launch.h"\n' + launch)
        (work / "mock_launch.h").write_text(
            '#include "acl/acl.h"\n#include "kernel_operator.h"\n'
            + (_ASC_LAUNCH_LOGGED if log_launches else _ASC_LAUNCH)
        )
    (work / "mock_tiling_values.h").write_text(
        '#pragma once\n#include "kernel_tiling/kernel_tiling.h"\n'
        "inline void MockTilingValues(Conv3DBackpropFilterTilingData& t)\n{\n"
        f"{tiling_values or ''}}}\n"
    )
    (work / "driver.cpp").write_text(f'#include "{kernel}"\n#include "main.cpp"\n')
    includes = [MOCK, work, check_module.include_dir(), folder]
    program = work / "program"
    flags = ["-std=c++17", *(f"-I{p}" for p in includes)]
    build = subprocess.run(
        ["g++", *flags, str(work / "driver.cpp"), "-o", str(program)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(program), str(folder)], capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (0, ""), run.stderr
    return run.stdout.splitlines()


def _ir_calls(monkeypatch: pytest.MonkeyPatch, module: ModuleOp, x, dy) -> list[str]:
    """The API calls the API-level IR makes when the interpreter runs it, as the stand-in logs
    them (one GetTensorC line per single shape, as its Iterate is true once per shape)."""
    log: list[str] = []
    blocks = iter(range(10**6))

    def record(name: str, line: Callable[..., str]) -> None:
        original = getattr(api_sim, name)

        def wrapper(*args):
            text = line(*args)
            if text and not (text.startswith("GetTensorC") and log and log[-1] == text):
                log.extend(text.split("\n"))
            return original(*args)

        monkeypatch.setattr(api_sim, name, wrapper)

    def init_line(_obj, t: DwTiling) -> str:
        fields = (t.batch, t.cin1_g, t.base_m, t.base_k, t.base_n, t.bl1_bound)
        rest = (t.single_core_batch, t.single_core_cin)
        return f"block {next(blocks)}\nInit {' '.join(map(str, (*fields, *rest)))}"

    record("init", init_line)
    record("set_grad_output", lambda _o, _t, off: f"SetGradOutput {off}")
    record("set_input", lambda _o, _t, off: f"SetInput {off}")
    record("set_single_shape", lambda _o, m, n, k: f"SetSingleShape {m} {n} {k}")
    record("set_start_position", lambda _o, ho: f"SetStartPosition {ho}")
    record("get_tensor_c", lambda _o, _t, off, atomic: f"GetTensorC {off} {int(atomic)}")
    record("end", lambda _o: "End")
    interpret_timed(module, HW, x, dy, "interp", timed=False)
    return log


@needs_gxx
@pytest.mark.parametrize(
    ("name", "cores"),
    [("groups2", 1), ("fused_dk", 24), ("tall_streaming_k", 24), ("order_n", 4), ("cin20", 24)],
)
def test_the_project_makes_the_irs_calls(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, cores: int
):
    """Built against the recording stand-in and run on the CPU, the emitted host and kernel
    make, block by block, the API calls (offsets, shapes, start rows, atomic flag) that the
    interpreter makes running the API-level IR; Init sees the IR's tiling after the host's
    FillTiling and the kernel's word-by-word copy."""
    module, project = _project(name, cores, FIXED_LEGACY)
    folder = write_project(tmp_path / "p", project)
    made = inprocess.run([sys.executable, str(folder / "data.py"), "make", str(folder)])
    assert made.returncode == 0, made.stderr
    (work := tmp_path / "work").mkdir()
    got = _mock_run(folder, project.kernel_name, work)
    problem = conv_problem(next(op for op in module.ops if isinstance(op, func.FuncOp)))
    assert problem is not None
    x, dy = random_inputs(problem, 0)
    expected = _ir_calls(monkeypatch, module, x, dy)
    assert sum(line.startswith("SetSingleShape") for line in expected) > 0
    assert got == expected
    # The host zero-filled dW (the stand-in's device memory starts as 0x7f bytes) and wrote
    # it back: the stand-in computes nothing.
    dw = np.fromfile(folder / "dw.bin", dtype=np.uint8)
    assert dw.size > 0 and not dw.any()


@needs_gxx
@pytest.mark.parametrize(("name", "cores"), [("asym_pad6", 4), ("tall_streaming_k", 24)])
def test_the_default_project_asks_the_tiling_api_and_makes_the_irs_calls(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, cores: int
):
    """The default project (.asc kernel with its <<<>>> launch, host tiling from GetTiling)
    built against the stand-in: the host hands the tiling API the IR's problem, the tiling
    GetTiling returns reaches Init through the serialised buffer and the device copy, and the
    kernel makes the IR's calls block by block."""
    module, project = _project(name, cores)
    fixed = emit_project(module, HW, "", FIXED_LEGACY).files[HOST_FILE]
    # What the stand-in's GetTiling returns: the IR's tiling (the fixed host's FillTiling body).
    values = fixed.split("void FillTiling(Conv3DBackpropFilterTilingData& t)\n{\n")[1]
    values = values.split("\n}\n")[0] + "\n"
    folder = write_project(tmp_path / "p", project)
    made = inprocess.run([sys.executable, str(folder / "data.py"), "make", str(folder)])
    assert made.returncode == 0, made.stderr
    (work := tmp_path / "work").mkdir()
    got = _mock_run(folder, project.kernel_name, work, values)
    p = conv_problem(next(op for op in module.ops if isinstance(op, func.FuncOp)))
    assert p is not None

    def ints(name, v):
        return " ".join([name, *(str(i) for i in v)])

    # TPosition::GM 0; ConvFormat FRACTAL_Z_3D 10, NDC1HWC0 9; ConvDtype FLOAT32 1, FLOAT16 0.
    assert got[:10] == [
        "SetWeightType 0 10 1",
        "SetInputType 0 9 0",
        "SetGradOutputType 0 9 0",
        ints("SetInputShape", p.input_shape),
        ints("SetGradOutputShape", p.grad_output_shape),
        ints("SetWeightShape", p.weight_shape),
        ints("SetPadding", p.pads),
        ints("SetStride", p.strides),
        ints("SetDilation", p.dilations),
        "GetTiling",
    ]
    x, dy = random_inputs(p, 0)
    assert got[10:] == _ir_calls(monkeypatch, module, x, dy)


@needs_gxx
def test_the_division_helpers_round_as_arith_does(tmp_path: Path):
    """FloorDiv/CeilDiv/Min/Max as the kernel defines them, against Python's rounding (the
    semantics of arith.floordivsi / ceildivsi), negative operands included."""
    pairs = [(a, b) for a in range(-7, 8) for b in (-3, -2, -1, 1, 2, 5)]
    body = "".join(
        f'    std::printf("%lld %lld %lld %lld\\n", (long long)FloorDiv({a}, {b}), '
        f"(long long)CeilDiv({a}, {b}), (long long)Min({a}, {b}), (long long)Max({a}, {b}));\n"
        for a, b in pairs
    )
    helpers = "\n".join(kernel_module._HELPERS[h] for h in ("FloorDiv", "CeilDiv", "Min", "Max"))
    source = tmp_path / "helpers.cpp"
    source.write_text(
        "#include <cstdint>\n#include <cstdio>\n#define __aicore__\n"
        f"{helpers}\nint main()\n{{\n{body}    return 0;\n}}\n"
    )
    program = tmp_path / "helpers"
    subprocess.run(["g++", "-std=c++17", str(source), "-o", str(program)], check=True)
    got = subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout
    expected = "".join(f"{a // b} {-(-a // b)} {min(a, b)} {max(a, b)}\n" for a, b in pairs)
    assert got == expected


@needs_gxx
def test_ir_names_that_are_cpp_keywords_are_renamed(tmp_path: Path):
    """The emitter names C++ variables after the IR's name hints (%bdi, %dki); a hint that is
    a C++ keyword or one of the kernel's own names gets a fresh name instead."""
    module = _modules("small", 1)["api"]
    text = conv.ir_text(module).replace("%bdi", "%for").replace("%dki", "%bpFilter")
    parsed = Parser(make_context(), text).parse_module()
    project = emit_project(parsed, HW, "")
    kernel = project.files[project.kernel_file]
    assert "int64_t for " not in kernel and "int64_t bpFilter " not in kernel
    check_project(write_project(tmp_path / "p", project))


def test_errors_end_to_end_through_the_console_script(tmp_path: Path):
    """The installed ascend-conv: a file where the folder should be, and a broken project,
    are one line and an exit code, no traceback."""
    (tmp_path / "file").write_text("not a folder")
    script = str(BIN / "ascend-conv")
    done = subprocess.run(
        [script, *SMALL, "--emit", "ascendc", "-o", str(tmp_path / "file")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and done.stdout == ""
    _one_line(done.stderr, "it exists and is not a folder")
    assert (tmp_path / "file").read_text() == "not a folder"
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / HOST_FILE).write_text("int main() { return 0; }\n")
    (tmp_path / "p" / "k.cpp").write_text("void k();\n")
    done = subprocess.run(
        [script, "check-ascendc", str(tmp_path / "p")], capture_output=True, text=True
    )
    assert done.returncode == 1
    _one_line(
        done.stderr, 'expected one __global__ kernel (extern "C" __aicore__ or __cube__), found 0'
    )


# --------------------------------------------------------------------------------------------
# The host's tiling: the documented tiling API by default
# --------------------------------------------------------------------------------------------


def _set_calls(host: str) -> dict[str, tuple[str, ...]]:
    """``tiler.SetX(a, b, ...);`` of GetApiTiling, as {"SetX": ("a", "b", ...)}."""
    calls = re.findall(r"tiler\.(Set\w+)\(([^;]*)\);", host)
    return {name: tuple(a.strip() for a in args.split(",")) for name, args in calls}


@pytest.mark.parametrize(
    ("name", "cores"),
    [("small", 2), ("stride2", 1), ("asym_pad6", 4), ("dilation2", 1), ("bf16", 2), ("cin20", 4)],
)
def test_the_api_host_requests_the_problem_of_the_ir(name: str, cores: int) -> None:
    """The Set* calls of the emitted host are the problem of the IR's ascend.conv: shapes,
    padding, strides, dilations, data types; GetTiling is the optiling overload, and nothing
    of the compiler's own tiling is filled in."""
    module, project = _project(name, cores)
    host = project.files[HOST_FILE]
    p = conv_problem(next(op for op in module.ops if isinstance(op, func.FuncOp)))
    assert p is not None and not project.warnings
    dtype = {"f16": "FLOAT16", "bf16": "BF16"}[p.dtype]

    def ints(v):
        return tuple(str(i) for i in v)

    assert _set_calls(host) == {
        "SetWeightType": ("ConvCommonApi::TPosition::GM",
                          "ConvCommonApi::ConvFormat::FRACTAL_Z_3D",
                          "ConvCommonApi::ConvDtype::FLOAT32"),
        "SetInputType": ("ConvCommonApi::TPosition::GM", "ConvCommonApi::ConvFormat::NDC1HWC0",
                         f"ConvCommonApi::ConvDtype::{dtype}"),
        "SetGradOutputType": ("ConvCommonApi::TPosition::GM",
                              "ConvCommonApi::ConvFormat::NDC1HWC0",
                              f"ConvCommonApi::ConvDtype::{dtype}"),
        "SetInputShape": ints(p.input_shape),
        "SetGradOutputShape": ints(p.grad_output_shape),
        "SetWeightShape": ints(p.weight_shape),
        "SetPadding": ints(p.pads),
        "SetStride": ints(p.strides),
        "SetDilation": ints(p.dilations),
    }  # fmt: skip
    # The overload that keeps the problem fields, serialised for the kernel.
    assert "optiling::Conv3DBackpropFilterTilingData tiling;" in host
    assert "tiler.GetTiling(tiling) == -1" in host and "tiling.SaveToBuffer(" in host
    assert "AscendC::tiling::Conv3DBackpropFilterTilingData" not in host
    assert "FillTiling" not in host and not _host_assignments(host)
    # The IR's launch, through the kernel's <<<>>>: pure Cube, no MIX type.
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    assert f"constexpr uint32_t kBlockDim = {launch.blocks.value.data};" in host
    kernel = project.files[project.kernel_file]
    assert project.kernel_file.endswith(".asc") and "__global__ __cube__ void" in kernel
    assert "<<<blockDim, nullptr, stream>>>(x, dy, dw, tiling);" in kernel
    assert "MIX" not in kernel


@pytest.mark.parametrize(("name", "outside"), [("groups2", "groups 2"), ("fused_dk", "kD fused")])
def test_what_the_tiling_api_does_not_take_gets_the_fixed_tiling_and_a_warning(name, outside):
    _, project = _project(name, 1)
    (warning,) = project.warnings
    assert warning.startswith(outside) and "Conv3DBackpropFilterV2" in warning
    assert "FillTiling(tiling);" in project.files[HOST_FILE]
    assert "GetApiTiling" not in project.files[HOST_FILE]


def test_fixed_host_tiling_says_what_the_docs_say():
    _, project = _project("small", 1, EmitOptions(host_tiling="fixed"))
    (warning,) = project.warnings
    assert "当前暂不支持用户自定义配置TConv3DBpFilterTiling结构体中的参数" in warning
    readme = project.files["README.md"]
    assert "user-defined values are not supported yet" in readme


@needs_gxx
def test_the_legacy_build_is_ascendc_library_with_the_aic_only_kernel(tmp_path: Path):
    _, project = _project("small", 1, EmitOptions(build="legacy"))
    assert check_project(write_project(tmp_path / "p", project)).files == (
        "conv3d_bp_filter_kernel.cpp",
        HOST_FILE,
    )
    assert project.kernel_file == "conv3d_bp_filter_kernel.cpp"
    kernel = project.files[project.kernel_file]
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);" in kernel and "<<<" not in kernel
    cmake = project.files["CMakeLists.txt"]
    assert "ascendc_library(kernels STATIC conv3d_bp_filter_kernel.cpp)" in cmake
    assert 'set(SOC_VERSION "Ascend910B2"' in cmake
    assert "ACLRT_LAUNCH_KERNEL(conv3d_bp_filter_kernel)" in project.files[HOST_FILE]


@pytest.mark.parametrize("hw", ["atlas-a3-9362", "atlas-a3-9392"])
def test_an_a3_target_names_its_soc(hw: str):
    module = _modules("small", 2)["api"]
    for build, line in (
        ("asc", f"# --hw {hw}: SoC Ascend910_{hw[-4:]}, NPU architecture dav-2201."),
        ("legacy", f'set(SOC_VERSION "Ascend910_{hw[-4:]}" CACHE STRING "system on chip type")'),
    ):
        project = emit_project(module, hw, "", EmitOptions(build=build))
        assert line in project.files["CMakeLists.txt"].splitlines()
        assert project.files["README.md"].startswith(
            f"# conv3d_bp_filter: a Conv3DBackpropFilter (dW) kernel for Ascend910_{hw[-4:]}"
        )


# --------------------------------------------------------------------------------------------
# The forward conv's project (ascend-conv forward --emit ascendc, emit/forward.py)
# --------------------------------------------------------------------------------------------


def _forward_project(cores: int = 2) -> tuple[ModuleOp, Project]:
    problem = shape_from_torch_args((1, 16, 4, 8, 8), (32, 16, 3, 3, 3), stride=(1, 2, 1),
                                    padding=(1, 0, 1, 1, 2, 1), dilation=(1, 1, 2))  # fmt: skip
    module = forward_levels(problem, HW, cores)["api"]
    return module, emit_forward_project(module, HW, "test forward")


def _struct_fields(name: str) -> list[str]:
    header = (check_module.include_dir() / "kernel_tiling" / "kernel_tiling.h").read_text()
    struct = header.split(f"struct {name} {{")[1].split("};")[0]
    return re.findall(r"u?int(?:8|16|32|64)_t (\w+) = 0;", struct)


def test_forward_host_fills_the_vendor_struct_from_the_ir_tiling() -> None:
    """FillTiling sets fields of TConv3DApiTiling only (the shipped struct, written from
    conv3d_tilingdata.h: 67 fields), each attribute field to the IR's value under the vendor's
    name (the L1 tiling included), the derived products as the vendor's tiler computes them;
    the heuristic's tiling is the vendor's, so there is no warning."""
    module, project = _forward_project()
    host = project.files[HOST_FILE]
    assigned = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^\s*t\.(\w+) = (\d+);$", host, re.MULTILINE)
    }
    fields = _struct_fields("TConv3DApiTiling")
    assert len(fields) == 67 and set(assigned) <= set(fields)
    tiling = next(op for op in module.walk() if isinstance(op, fwd.Conv3DInitOp)).tiling.tiling
    own = {f: v for f, v in tiling.as_dict().items() if f not in forward_emit.CORE_SPLIT}
    assert {forward_emit.vendor_name(f): v for f, v in own.items()} == {
        k: assigned[k] for k in map(forward_emit.vendor_name, own)
    }
    assert assigned["pBufferFlag"] == tiling.pbuffer_flag and assigned["mL0"] == tiling.m_l0
    # Independent of the emitter: the products by their definitions (k0 = 16).
    assert assigned["orgHoxWo"] == tiling.org_ho * tiling.org_wo == 4 * 7
    assert assigned["oriHixOriWixk0"] == 8 * 8 * 16 and assigned["kernelHxkernelW"] == 9
    assert (
        assigned["kL0xorgCoAlignN0"] == tiling.k_l0 * 32 and assigned["nL0xk0"] == tiling.n_l0 * 16
    )
    assert set(forward_emit.L1_DECISION) <= set(assigned)
    assert (
        assigned["kAL1"] == tiling.k_al1 and assigned["iterateMNOrder"] == tiling.iterate_mn_order
    )
    assert assigned["kBL1DivK0"] == tiling.k_bl1_div_k0 and assigned["fixpParamsFullLoadFlag"] == 0
    assert assigned["cinOpt"] == 16 and assigned["coutOpt"] == 32
    # A 3x3 window of one Cin1 block: kAL1 is whole Cin1 blocks of 9 · 16 columns.
    assert assigned["kAL1"] % (9 * 16) == 0 and assigned["cin1InAL1"] == assigned["kAL1"] // 144
    assert project.warnings == ()
    assert "is the tiling `Conv3dTilingApi::Conv3dTiling::GetTiling` returns" in " ".join(
        project.files[README_FILE].split()
    )
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    assert f"constexpr uint32_t kBlockDim = {launch.blocks.value.data};" in host


def test_forward_tiling_that_is_not_the_vendors_is_named() -> None:
    """A kernel tiling other than GetTiling's (here a smaller kL0, its L1 tiling kept legal)
    makes the emission warn, naming each field that differs with the vendor's value."""
    module, _ = _forward_project()
    init = next(op for op in module.walk() if isinstance(op, fwd.Conv3DInitOp))
    t = init.tiling.tiling
    other = replace(t, k_l0=FRACTAL)
    assert other.errors(load_hw(HW).l1_size, 65536, 65536, 131072) == []
    init.properties["tiling"] = Conv3DTilingAttr(other)
    project = emit_forward_project(module, HW, "test forward")
    (warning,) = project.warnings
    assert f"kL0 16 (GetTiling: {t.k_l0})" in warning and "mL0" not in warning
    assert "**It is not the tiling" in project.files[README_FILE]


def test_forward_kernel_has_one_call_per_api_op() -> None:
    module, project = _forward_project()
    kernel = project.files[project.kernel_file]
    ops = list(module.walk())
    calls = {
        fwd.Conv3DInitOp: "Init(&tilingData)",
        fwd.Conv3DSetWeightOp: "SetWeight(wGm[",
        fwd.Conv3DSetInputStartPositionOp: "SetInputStartPosition(",
        fwd.Conv3DSetSingleOutputShapeOp: "SetSingleOutputShape(",
        fwd.Conv3DSetInputOp: "SetInput(xGm[",
        fwd.Conv3DIterateAllOp: "IterateAll(yGm[",
        fwd.Conv3DEndOp: "End()",
    }
    for op_type, call in calls.items():
        count = sum(isinstance(o, op_type) for o in ops)
        assert count > 0 and kernel.count(f"conv.{call}") == count, call
    assert kernel.count("for (int64_t ") == sum(isinstance(o, scf.ForOp) for o in ops)
    assert "AscendC::TPipe pipe;" in kernel.split("conv.Init(")[0]  # Init's doc: TPipe first
    assert "<<<blockDim, nullptr, stream>>>(x, w, y, tiling);" in kernel


FORWARD_WRONG = [
    # Iterate is private in conv3d_intf.h: a kernel calls IterateAll
    ("conv.IterateAll(yGm[", "conv.Iterate(yGm["),
    # the weight in the input's format (table 1: FRACTAL_Z_3D)
    ("FRACTAL_Z_3D, half>", "NDC1HWC0, half>"),
    # SetSingleOutputShape takes Co, Do and M
    ("conv.SetSingleOutputShape(", "conv.SetSingleOutputShape(1, "),
]


@needs_gxx
def test_forward_project_passes_the_check_and_a_wrong_call_fails_it(tmp_path: Path) -> None:
    """The forward project compiles against the shipped Conv3D declarations (one g++ run per
    source); each misuse of the API fails the kernel's compile."""
    _, project = _forward_project()
    folder = write_project(tmp_path / "p", project)
    assert check_project(folder).files == (project.kernel_file, HOST_FILE)
    path = folder / project.kernel_file
    good_text = path.read_text()
    for good, bad in FORWARD_WRONG:
        assert good in good_text, good
        path.write_text(good_text.replace(good, bad, 1))
        with pytest.raises(CheckError, match=r"^\S+\.asc[:\d]*: .*error: "):
            check_project(folder)


# --------------------------------------------------------------------------------------------
# dX's project (ascend-conv bp-input --emit ascendc, emit/input_grad.py)
# --------------------------------------------------------------------------------------------

DX_LAYERS = {
    # stride 2 (dy dilated), cores split over D and M, padding in the top rows (a negative
    # curHoStartIdx)
    "stride2": ((1, 16, 4, 8, 8), (32, 16, 3, 3, 3), {"stride": 2, "padding": 1}, 2),
    # stride 1, asymmetric padding, bf16, Cin 32 (two Cin1 blocks), on 4 cores
    "asym_bf16": (
        (1, 32, 3, 6, 5),
        (16, 32, 2, 3, 3),
        {"padding": (0, 1, 1, 0, 1, 1), "dtype": "bf16"},
        4,
    ),
    # singleCoreDin 4 on two cores over Di 7: the second core's single shape is the 3-depth
    # tail, and each core's kernel walks its shape's depths itself (asc-devkit's Din is 1)
    "din_tail": ((1, 16, 7, 8, 8), (16, 16, 3, 3, 3), {"padding": 1}, 2),
}


def _dx_module(name: str) -> ModuleOp:
    x, w, kw, cores = DX_LAYERS[name]
    return input_grad_levels(shape_from_torch_args(x, w, **kw), HW, cores)["api"]  # type: ignore[arg-type]


def _dx_project(name: str) -> tuple[ModuleOp, Project]:
    module = _dx_module(name)
    return module, emit_input_grad_project(module, HW, f"test {name}")


def _dx_tiling(module: ModuleOp):
    init = next(op for op in module.walk() if isinstance(op, dx_api.Conv3DBpInputInitOp))
    return init.tiling.tiling


@pytest.mark.parametrize("name", sorted(DX_LAYERS))
def test_dx_host_fills_every_field_of_the_vendor_struct_from_the_ir_tiling(name: str) -> None:
    """FillTiling sets every field of TConv3DBackpropInputTiling (the shipped struct, written
    from conv3d_bp_input_tilingdata.h: 66 fields) through conv3DDxTiling, each to the IR's
    value: the attribute is the structure field for field, in its order."""
    module, project = _dx_project(name)
    host = project.files[HOST_FILE]
    assigned = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^\s*t\.conv3DDxTiling\.(\w+) = (-?\d+);$", host, re.MULTILINE)
    }
    fields = _struct_fields("TConv3DBackpropInputTiling")
    assert len(fields) == 66 and list(assigned) == fields
    values = list(_dx_tiling(module).as_dict().values())
    assert list(assigned.values()) == values
    # A few by name, independent of the emitter's renaming.
    t = _dx_tiling(module)
    assert (assigned["cout1G"], assigned["c0Bits"]) == (t.cout1_g, t.c0_bits)
    assert (assigned["singleCoreDin"], assigned["baseM"]) == (t.single_core_din, t.base_m)
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    assert f"constexpr uint32_t kBlockDim = {launch.blocks.value.data};" in host
    # The IR loops over a core's depths, one SetStartPosition and Iterate series each
    # (asc-devkit's SetSingleShape sets Din to 1): the kernel prints that scf.for when
    # singleCoreDin is above 1, and no warning.
    assert not [w for w in project.warnings if "singleCoreDin" in w]
    kernel = project.files[project.kernel_file]
    starts = [o for o in module.walk() if isinstance(o, dx_api.Conv3DBpInputSetStartPositionOp)]
    in_loop = sum(isinstance(o.parent_op(), scf.ForOp) for o in starts)
    assert in_loop == (len(starts) if t.single_core_din > 1 else 0)
    assert kernel.count("for (int64_t dl = 0; dl < ") == in_loop
    assert ("single shape's Din to 1" in project.files["README.md"]) == (t.single_core_din > 1)


def test_dx_kernel_has_one_call_per_api_op() -> None:
    module, project = _dx_project("stride2")
    kernel = project.files[project.kernel_file]
    ops = list(module.walk())
    calls = {
        dx_api.Conv3DBpInputInitOp: "Init(&tilingData.conv3DDxTiling)",
        dx_api.Conv3DBpInputSetGradOutputOp: "SetGradOutput(dyGm[",
        dx_api.Conv3DBpInputSetWeightOp: "SetWeight(wGm[",
        dx_api.Conv3DBpInputSetSingleShapeOp: "SetSingleShape(",
        dx_api.Conv3DBpInputSetStartPositionOp: "SetStartPosition(",
        dx_api.Conv3DBpInputIterateOp: "Iterate()",
        dx_api.Conv3DBpInputGetTensorCOp: "GetTensorC(dxGm[",
        dx_api.Conv3DBpInputEndOp: "End()",
    }
    for op_type, call in calls.items():
        count = sum(isinstance(o, op_type) for o in ops)
        assert count > 0 and kernel.count(f"gradInput.{call}") == count, call
    # and one C++ for per scf.for, among them the IR's loop over the core's two depths
    # (singleCoreDin 2) around each SetStartPosition: the emitter adds no loop of its own
    assert _dx_tiling(module).single_core_din == 2
    fors = sum(isinstance(o, scf.ForOp) for o in ops)
    assert kernel.count("for (int64_t ") == fors
    starts = [o for o in ops if isinstance(o, dx_api.Conv3DBpInputSetStartPositionOp)]
    assert starts and all(isinstance(o.parent_op(), scf.ForOp) for o in starts)
    assert "ConvBackpropApi::Conv3DBackpropInput<WeightType, InputSizeType" in kernel
    assert "<<<blockDim, nullptr, stream>>>(dy, w, dx, tiling);" in kernel


DX_WRONG = [
    # SetSingleShape takes M, K and N (conv3d_bp_input_intf.h)
    ("gradInput.SetSingleShape(", "gradInput.SetSingleShape(1, "),
    # SetStartPosition takes the D and the H start
    ("gradInput.SetStartPosition(", "gradInput.SetStartPosition(1, "),
    # the weight in GradOutput's format (table 1: FRACTAL_Z_3D)
    ("ConvFormat::FRACTAL_Z_3D, half>", "ConvFormat::NDC1HWC0, half>"),
    # Init takes the TConv3DBackpropInputTiling member, not the TilingData around it
    ("Init(&tilingData.conv3DDxTiling)", "Init(&tilingData)"),
    # a misspelt member
    ("gradInput.GetTensorC(", "gradInput.GetTensor("),
    # GetTensorC writes GradInput's type: a float tensor is not one
    ("AscendC::GlobalTensor<half> dxGm;", "AscendC::GlobalTensor<float> dxGm;"),
]


@needs_gxx
def test_dx_project_passes_the_check_and_a_wrong_call_fails_it(tmp_path: Path) -> None:
    """The dX project compiles against the shipped Conv3DBackpropInput declarations; each
    misuse of the API fails the kernel's compile."""
    _, project = _dx_project("stride2")
    folder = write_project(tmp_path / "p", project)
    assert check_project(folder).files == (project.kernel_file, HOST_FILE)
    path = folder / project.kernel_file
    good_text = path.read_text()
    for good, bad in DX_WRONG:
        assert good in good_text, good
        path.write_text(good_text.replace(good, bad, 1))
        with pytest.raises(CheckError, match=r"^\S+\.asc[:\d]*: .*error: "):
            check_project(folder)


@register_impls
class _ApiCallLog(InterpreterFunctions):
    """What the recorders of an API-level kernel share: the log, and the block index the
    kernel reads (:func:`_api_ir_calls` sets it before each block's call)."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []
        self.block = 0

    def _line(self, text: str) -> PythonValues:
        self.log.append(text)
        return ()

    @impl(GetBlockIdxOp)
    def _block_idx(self, interpreter, op, args) -> PythonValues:
        return (self.block,)


@register_impls
class _DxCallLog(_ApiCallLog):
    """The dX API-level kernel run by xDSL's interpreter, each API call logged as the
    stand-in prints it. As in asc-devkit, whose SetSingleShape sets Din to 1, an Iterate series
    computes the depth of the last SetStartPosition, and GetTensorC writes that depth; the IR
    itself loops over a core's depths. The stand-in has one tile per depth: the series' first
    Iterate is true, the next false."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # the D start of the last SetStartPosition
        self.fresh = False  # no Iterate since it

    @impl(dx_api.Conv3DBpInputCreateOp)
    def _create(self, interpreter, op, args) -> PythonValues:
        return ("gradInput",)

    @impl(dx_api.Conv3DBpInputInitOp)
    def _init(self, interpreter, op, args) -> PythonValues:
        t = op.tiling.tiling
        fields = (t.batch, t.cin1_g, t.base_m, t.base_k, t.base_n, t.single_core_din, t.step_m)
        return self._line(
            f"Init {' '.join(map(str, (*fields, t.single_core_m, t.single_core_cin)))}"
        )

    @impl(dx_api.Conv3DBpInputSetGradOutputOp)
    def _dy(self, interpreter, op, args) -> PythonValues:
        return self._line(f"SetGradOutput {args[2]}")

    @impl(dx_api.Conv3DBpInputSetWeightOp)
    def _w(self, interpreter, op, args) -> PythonValues:
        return self._line(f"SetWeight {args[2]}")

    @impl(dx_api.Conv3DBpInputSetSingleShapeOp)
    def _shape(self, interpreter, op, args) -> PythonValues:
        return self._line(f"SetSingleShape {args[1]} {args[2]} {args[3]}")

    @impl(dx_api.Conv3DBpInputSetStartPositionOp)
    def _start(self, interpreter, op, args) -> PythonValues:
        self.depth, self.fresh = args[1], True
        return self._line(f"SetStartPosition {args[1]} {args[2]}")

    @impl(dx_api.Conv3DBpInputIterateOp)
    def _iterate(self, interpreter, op, args) -> PythonValues:
        more, self.fresh = self.fresh, False
        return (more,)

    @impl(dx_api.Conv3DBpInputGetTensorCOp)
    def _get(self, interpreter, op, args) -> PythonValues:
        return self._line(f"GetTensorC {args[2]} 0 {self.depth}")

    @impl(dx_api.Conv3DBpInputEndOp)
    def _end(self, interpreter, op, args) -> PythonValues:
        return self._line("End")


def _api_ir_calls(module: ModuleOp, log: _ApiCallLog) -> list[str]:
    """The calls the module's API-level kernel makes, block by block, run by the interpreter
    with ``log`` recording its API calls (the kernel's GM tensors are their role names)."""
    launch = next(op for op in module.walk() if isinstance(op, LaunchOp))
    interpreter = Interpreter(module)
    for fns in (FuncFunctions(), ScfFunctions(), ArithFunctions(), log):
        interpreter.register_implementations(fns)
    interpreter.register_implementations(ExtraArithFunctions(), override=True)
    name = launch.callee.string_value()
    operands = tuple(f"arg{i}" for i in range(len(launch.args)))
    for block in range(launch.blocks.value.data):
        log.block = block
        log.log.append(f"block {block}")
        interpreter.call_op(name, operands)
    return log.log


def _dx_ir_calls(module: ModuleOp) -> list[str]:
    """The calls the API-level dX kernel makes, block by block, run by the interpreter."""
    return _api_ir_calls(module, _DxCallLog())


@needs_gxx
@pytest.mark.parametrize("name", sorted(DX_LAYERS))
def test_the_dx_project_makes_the_irs_calls_and_data_py_checks_dx(tmp_path: Path, name: str):
    """Built against the recording stand-in and run on the CPU, the emitted host and kernel
    make, block by block, the API calls (offsets, single shapes, D and H starts) the
    API-level IR makes when the interpreter runs it, the IR's loop over a core's depths with one
    SetStartPosition and Iterate series each, as asc-devkit's SetSingleShape sets Din to 1;
    their GetTensorC depths cover every dX depth once per base. Init sees the IR's tiling
    after the host's FillTiling and the kernel's word-by-word copy. data.py made the inputs
    main.cpp read (it checks their sizes), the host allocated dX without zeroing it
    (``ascend.empty_gm``: the kernel writes every element; the stand-in computes nothing, so dX
    holds the stand-in device memory's 0x7f bytes) and wrote it back, and data.py's check
    accepts the simulator's dX and rejects that one."""
    module, project = _dx_project(name)
    folder = write_project(tmp_path / "p", project)
    script = [sys.executable, str(folder / "data.py")]
    made = inprocess.run([*script, "make", str(folder)])
    assert (made.returncode, made.stderr) == (0, "")
    (work := tmp_path / "work").mkdir()
    got = _mock_run(folder, project.kernel_name, work)
    # Over all cores, the stand-in's Iterate (asc-devkit's Din of 1) visits every dX depth
    # of each GetTensorC base (one batch, Cin block and row block) exactly once.
    visited: dict[int, list[int]] = {}
    for line in got:
        if line.startswith("GetTensorC "):
            _, offset, _atomic, depth = line.split()
            visited.setdefault(int(offset), []).append(int(depth))
    di = _dx_tiling(module).di
    assert visited and all(sorted(d) == list(range(di)) for d in visited.values()), visited
    expected = _dx_ir_calls(module)
    assert sum(line.startswith("SetSingleShape") for line in expected) > 0
    assert got == expected
    dx_bytes = np.fromfile(folder / "dx.bin", dtype=np.uint8)
    assert dx_bytes.size > 0 and (dx_bytes == 0x7F).all()  # no aclrtMemset before the kernel
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 1 and run.stdout.strip().endswith(": FAILED"), run.stdout
    # The simulator's dX of the same seeded inputs, written as main.cpp writes it.
    x, w, kw, cores = DX_LAYERS[name]
    problem = shape_from_torch_args(x, w, **kw)  # type: ignore[arg-type]
    weight, dy = random_input_grad_inputs(problem, 0)
    res = run_conv3d_input(problem.input_shape, weight, dy, problem.strides, problem.pads,
                           problem.dilations, 1, hw=HW, cores=cores)  # fmt: skip
    formats.ncdhw_to_ndc1hwc0(np.asarray(res.output), C0).tofile(folder / "dx.bin")
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 0 and run.stdout.strip().endswith(": OK"), run.stdout + run.stderr


@needs_gxx
def test_the_dx_kernels_depth_loop_needs_the_isfirstiter_reset(tmp_path: Path) -> None:
    """asc-devkit's Iterate sets isFirstIter_ only in Init (and IterateAll, which
    Conv3DBpInputIntf does not offer): without the kernel's reset after each depth's series, the
    stand-in's second depth would carry on from the first one's finished loop, and it aborts."""
    _, project = _dx_project("din_tail")
    folder = write_project(tmp_path / "p", project)
    path = folder / project.kernel_file
    reset = "gradInput.ctx.isFirstIter_ = true;"
    assert path.read_text().count(reset) == 1
    path.write_text(path.read_text().replace(reset, ""))
    made = inprocess.run([sys.executable, str(folder / "data.py"), "make", str(folder)])
    assert made.returncode == 0, made.stderr
    (work := tmp_path / "work").mkdir()
    with pytest.raises(AssertionError, match=r"without ctx\.isFirstIter_ = true"):
        _mock_run(folder, project.kernel_name, work)


def test_dx_emission_refuses_a_module_without_the_api() -> None:
    with pytest.raises(EmitError, match="makes no Conv3DBackpropInput object"):
        emit_input_grad_project(_forward_project()[0], HW, "")


# Grouped layers (one launch per group, as the simulator runs them: runtime/forward.run_groups)
# --------------------------------------------------------------------------------------------

GROUPED_DX = {
    # Cin/G 20 and Cout/G 16: each group's dX has two C1 blocks, the second one padded on its
    # own (the whole layer's NDC1HWC0 would have three), two cores
    "groups2_cin20": ((1, 40, 3, 6, 6), (32, 20, 2, 3, 3), {"padding": 1, "groups": 2}, 2),
    # three groups of 16 channels, stride 2, one core
    "groups3_stride2": ((1, 48, 4, 6, 6), (48, 16, 3, 3, 3), {"stride": 2, "groups": 3}, 1),
}


def _grouped(x, w, kw, levels, cores):
    """The whole layer, and the API-level module of one group (the simulator's compile)."""
    whole = shape_from_torch_args(x, w, **kw)
    g = whole.groups
    one = shape_from_torch_args((x[0], x[1] // g, *x[2:]), (w[0] // g, *w[1:]),
                                **{**kw, "groups": 1})  # fmt: skip
    return whole, levels(one, HW, cores)["api"]


@needs_gxx
@pytest.mark.parametrize("name", sorted(GROUPED_DX))
def test_the_grouped_dx_project_launches_once_per_group_and_data_py_checks_dx(
    tmp_path: Path, name: str
):
    """A grouped dX project built against the stand-in: main.cpp launches the one group's
    kernel once per group, launch g on each buffer from g group sizes on (the addresses the
    stand-in logs), each launch making the API calls of the IR; data.py lays the inputs out per
    group (main.cpp checks the files' sizes), and its check accepts the simulator's grouped dX
    written per group, rejects the stand-in's (which computes nothing), the same dX with two
    groups swapped, and the whole layer's NDC1HWC0 (one padding for all channels, and D
    outside C1: a group's channels are not one block of it, so each launch needs its own
    tensors)."""
    x, w, kw, cores = GROUPED_DX[name]
    whole, module = _grouped(x, w, kw, input_grad_levels, cores)
    g = whole.groups
    project = emit_input_grad_project(module, HW, f"test {name}", g)
    folder = write_project(tmp_path / "p", project)
    script = [sys.executable, str(folder / "data.py")]
    made = inprocess.run([*script, "make", str(folder)])
    assert (made.returncode, made.stderr) == (0, "")
    (work := tmp_path / "work").mkdir()
    got = _mock_run(folder, project.kernel_name, work, log_launches=True)
    n, cin, d, h, wi = whole.input_shape
    cin_g, cout_g = cin // g, whole.cout // g
    _, _, do, ho, wo = whole.grad_output_shape
    bytes_ = 2  # f16
    dy_group = math.prod(formats.ndc1hwc0_shape(n, cout_g, do, ho, wo, C0)) * bytes_
    w_group = math.prod(formats.fractal_z_3d_shape(cout_g, cin_g, *whole.weight_shape[2:], 1, C0))
    dx_group = math.prod(formats.ndc1hwc0_shape(n, cin_g, d, h, wi, C0)) * bytes_
    calls = _dx_ir_calls(module)
    expected: list[str] = []
    for i in range(g):
        expected += [f"launch {i * dy_group} {i * w_group * bytes_} {i * dx_group} 0", *calls]
    assert sum(line.startswith("SetSingleShape") for line in calls) > 0
    assert got == expected
    assert (folder / "dx.bin").stat().st_size == g * dx_group
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 1 and run.stdout.strip().endswith(": FAILED"), run.stdout
    # The simulator's grouped dX of the same seeded inputs (one launch per group).
    weight, dy = random_input_grad_inputs(whole, 0)
    res = run_conv3d_input(whole.input_shape, weight, dy, whole.strides, whole.pads,
                           whole.dilations, g, hw=HW, cores=cores)  # fmt: skip
    dx = np.asarray(res.output)
    groups = [dx[:, i * cin_g : (i + 1) * cin_g] for i in range(g)]

    def write(parts) -> None:
        flat = [formats.ncdhw_to_ndc1hwc0(np.ascontiguousarray(p), C0).ravel() for p in parts]
        np.concatenate(flat).tofile(folder / "dx.bin")

    write(groups)
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 0 and run.stdout.strip().endswith(": OK"), run.stdout + run.stderr
    write([groups[1], groups[0], *groups[2:]])
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 1 and run.stdout.strip().endswith(": FAILED"), run.stdout
    formats.ncdhw_to_ndc1hwc0(dx, C0).tofile(folder / "dx.bin")
    run = inprocess.run([*script, "check", str(folder)])
    if cin_g % C0:  # the whole layer's padding differs from the groups': not even the size fits
        assert run.returncode == 1 and "dx.bin: expected" in run.stderr, run.stderr
    else:  # the same size, but the whole layer's C1 blocks of a depth hold every group's
        assert run.returncode == 1 and run.stdout.strip().endswith(": FAILED"), run.stdout


@needs_gxx
def test_the_grouped_forward_project_launches_once_per_group(tmp_path: Path) -> None:
    """A grouped forward project (Cin/G 20, not a multiple of 16): the host holds each
    buffer as the groups' tensors back to back, each sized in its own layout, and launches the
    one group's kernel once per group from g group sizes on; the project passes the syntax
    check against the shipped Conv3D declarations, and its README says how the data files
    are laid out."""
    whole, module = _grouped((1, 40, 2, 6, 6), (32, 20, 1, 3, 3), {"groups": 2}, forward_levels, 2)
    project = emit_forward_project(module, HW, "test grouped forward", whole.groups)
    folder = write_project(tmp_path / "p", project)
    assert check_project(folder).files == (project.kernel_file, HOST_FILE)
    host = project.files[HOST_FILE]
    x_group = math.prod(formats.ndc1hwc0_shape(1, 20, 2, 6, 6, C0)) * 2
    y_group = math.prod(formats.ndc1hwc0_shape(1, 16, 2, 4, 4, C0)) * 2
    assert "    constexpr size_t kGroups = 2;" in host
    assert f"    constexpr size_t kXGroupBytes = {x_group};" in host
    assert f"    constexpr size_t kYGroupBytes = {y_group};" in host
    assert "    constexpr size_t kXBytes = kGroups * kXGroupBytes;" in host
    assert "for (size_t g = 0; g < kGroups; ++g) {" in host
    assert host.count("static_cast<uint8_t*>(xDev) + g * kXGroupBytes,") == 1
    assert "## Groups" in project.files[README_FILE]
    # An ungrouped layer's host has no loop.
    assert "kGroups" not in _forward_project()[1].files[HOST_FILE]


@pytest.mark.parametrize("groups", [1, 2])
def test_the_forward_data_py_lays_out_per_group_and_checks_y(tmp_path: Path, groups: int):
    """The forward project's data.py: make writes x and w in the sizes main.cpp reads (each
    group's slice in its own layout, Cin/G 20), and check accepts the simulator's y of those
    inputs written per group, as main.cpp writes it, and rejects it with one element changed."""
    x, w = (1, 20 * groups, 2, 6, 6), (16 * groups, 20, 1, 3, 3)
    whole, module = _grouped(x, w, {"padding": 1, "groups": groups}, forward_levels, 2)
    project = emit_forward_project(module, HW, "test forward data", groups)
    folder = write_project(tmp_path / "p", project)
    script = [sys.executable, str(folder / "data.py")]
    made = inprocess.run([*script, "make", str(folder)])
    assert (made.returncode, made.stderr) == (0, "")
    host = project.files[HOST_FILE]
    for f, b in (("x", "X"), ("w", "W")):
        name = f"k{b}GroupBytes" if groups > 1 else f"k{b}Bytes"
        size = int(re.search(rf"constexpr size_t {name} = (\d+);", host)[1])  # type: ignore[index]
        assert (folder / f"{f}.bin").stat().st_size == groups * size
    missing = inprocess.run([*script, "check", str(folder)])
    assert missing.returncode == 1 and "no such file" in missing.stderr
    xs, ws, _ = random_forward_inputs(whole, 0)
    res = run_conv3d(xs, ws, None, whole.strides, whole.pads, whole.dilations, groups, hw=HW,
                     cores=2)  # fmt: skip
    y = np.asarray(res.output)
    cout_g = whole.cout // groups
    parts = [y[:, g * cout_g : (g + 1) * cout_g] for g in range(groups)]
    flat = np.concatenate([formats.ncdhw_to_ndc1hwc0(np.ascontiguousarray(p), C0).ravel()
                           for p in parts])  # fmt: skip
    flat.tofile(folder / "y.bin")
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 0 and run.stdout.strip().endswith(": OK"), run.stdout + run.stderr
    flat[0] += 8
    flat.tofile(folder / "y.bin")
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 1 and run.stdout.strip().endswith(": FAILED"), run.stdout


@register_impls
class _ForwardCallLog(_ApiCallLog):
    """The forward API-level kernel run by xDSL's interpreter, each API call logged as the
    stand-in prints it: IterateAll with the stand-in's model of asc-devkit's walk, one tile
    per L0 tile of the last SetSingleOutputShape (Do x ceil(M / mL0) x ceil(Co / nL0)), and
    whether SetBias came before it since Init."""

    def __init__(self) -> None:
        super().__init__()
        self.shape = (0, 0, 0)  # Co, Do, M of the last SetSingleOutputShape
        self.bias = False
        self.l0 = (1, 1)  # the tiling's mL0, nL0

    @impl(fwd.Conv3DCreateOp)
    def _create(self, interpreter, op, args) -> PythonValues:
        return ("conv",)

    @impl(fwd.Conv3DInitOp)
    def _init(self, interpreter, op, args) -> PythonValues:
        t = op.tiling.tiling
        self.l0, self.bias = (t.m_l0, t.n_l0), False
        fields = (t.single_core_do, t.single_core_co, t.single_core_m, t.m_l0, t.k_l0, t.n_l0)
        return self._line(f"Init {' '.join(map(str, fields))} {t.bias_full_load_flag}")

    @impl(fwd.Conv3DSetInputOp)
    def _x(self, interpreter, op, args) -> PythonValues:
        return self._line(f"SetInput {args[2]}")

    @impl(fwd.Conv3DSetWeightOp)
    def _w(self, interpreter, op, args) -> PythonValues:
        return self._line(f"SetWeight {args[2]}")

    @impl(fwd.Conv3DSetBiasOp)
    def _bias(self, interpreter, op, args) -> PythonValues:
        self.bias = True
        return self._line(f"SetBias {args[2]}")

    @impl(fwd.Conv3DSetSingleOutputShapeOp)
    def _shape(self, interpreter, op, args) -> PythonValues:
        self.shape = (args[1], args[2], args[3])
        return self._line(f"SetSingleOutputShape {args[1]} {args[2]} {args[3]}")

    @impl(fwd.Conv3DSetInputStartPositionOp)
    def _start(self, interpreter, op, args) -> PythonValues:
        return self._line(f"SetInputStartPosition {args[1]} {args[2]}")

    @impl(fwd.Conv3DIterateAllOp)
    def _iterate_all(self, interpreter, op, args) -> PythonValues:
        (co, do, m), (m_l0, n_l0) = self.shape, self.l0
        tiles = do * -(-m // m_l0) * -(-co // n_l0)
        return self._line(f"IterateAll {args[2]} {tiles} {int(self.bias)}")

    @impl(fwd.Conv3DEndOp)
    def _end(self, interpreter, op, args) -> PythonValues:
        return self._line("End")


FORWARD_MOCK_CASES = {
    # stride, padding and dilation on every axis, two cores
    "plain": ((1, 16, 4, 8, 8), (32, 16, 3, 3, 3), {"padding": 1, "dilation": (1, 1, 2)}, False),
    "bias": ((1, 16, 4, 8, 8), (32, 16, 3, 3, 3), {"padding": 1, "stride": 2}, True),
    # Cin/G 20 and Cout/G 24: each group's x and y padded on their own, its bias (24 halves)
    # padded to a whole 64-byte block on its own
    "grouped_bias": ((1, 40, 2, 6, 6), (48, 20, 1, 3, 3), {"padding": 1, "groups": 2}, True),
}


@needs_gxx
@pytest.mark.parametrize("name", sorted(FORWARD_MOCK_CASES))
def test_the_forward_project_makes_the_irs_calls_and_data_py_checks_y(tmp_path: Path, name: str):
    """Built against the recording stand-in (tests/ascendc_mock/lib/conv/conv3d/conv3d_api.h)
    and run on the CPU, the emitted forward host and kernel make, launch by launch and block by
    block, the API calls (offsets, start positions, single shapes, SetBias, IterateAll's tile
    walk) the API-level IR makes when the interpreter runs it, and Init sees the IR's tiling
    (biasFullLoadFlag included) after FillTiling and the kernel's copy. data.py made the
    inputs main.cpp reads (their sizes checked), bias.bin among them in ND, per group; its
    check accepts the simulator's y of those inputs and rejects the stand-in's (which computes
    nothing) and, with a bias, the y of the same x and w without it."""
    x, w, kw, bias = FORWARD_MOCK_CASES[name]
    whole, module = _grouped(x, w, kw, partial(forward_levels, bias=bias), 2)
    g = whole.groups
    project = emit_forward_project(module, HW, f"test {name}", g)
    folder = write_project(tmp_path / "p", project)
    script = [sys.executable, str(folder / "data.py")]
    made = inprocess.run([*script, "make", str(folder)])
    assert (made.returncode, made.stderr) == (0, "")
    host = project.files[HOST_FILE]
    if bias:
        name_ = "kBiasGroupBytes" if g > 1 else "kBiasBytes"
        size = int(re.search(rf"constexpr size_t {name_} = (\d+);", host)[1])  # type: ignore[index]
        cout_g = whole.cout // g
        assert size == -(-cout_g * 2 // formats.ND_BLOCK_BYTES) * formats.ND_BLOCK_BYTES
        assert (folder / "bias.bin").stat().st_size == g * size
    else:
        assert not (folder / "bias.bin").exists() and "kBiasBytes" not in host
    (work := tmp_path / "work").mkdir()
    got = _mock_run(folder, project.kernel_name, work, log_launches=g > 1)
    calls = _api_ir_calls(module, _ForwardCallLog())
    assert sum(line.startswith("IterateAll") for line in calls) > 1
    assert all(line.endswith(f" {int(bias)}") for line in calls if line.startswith("IterateAll"))
    assert any(line.startswith("SetBias") for line in calls) == bias
    if g == 1:
        assert got == calls
    else:
        # Launch i gets each buffer (x, w, bias, y in the launch's order) from i group sizes
        # on, and the one tiling.
        sizes = [int(v) for v in re.findall(r"constexpr size_t k\w+GroupBytes = (\d+);", host)]
        expected: list[str] = []
        for i in range(g):
            expected += [f"launch {' '.join(str(i * b) for b in sizes)} 0", *calls]
        assert len(sizes) == 4 and got == expected
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 1 and run.stdout.strip().endswith(": FAILED"), run.stdout
    xs, ws, bs = random_forward_inputs(whole, 0, bias)

    def write_y(b) -> None:
        res = run_conv3d(xs, ws, b, whole.strides, whole.pads, whole.dilations, g, hw=HW, cores=2)
        y = np.asarray(res.output)
        formats.grouped_ncdhw_to_ndc1hwc0(y, g, C0).tofile(folder / "y.bin")

    write_y(bs)
    run = inprocess.run([*script, "check", str(folder)])
    assert run.returncode == 0 and run.stdout.strip().endswith(": OK"), run.stdout + run.stderr
    if bias:
        write_y(None)
        run = inprocess.run([*script, "check", str(folder)])
        assert run.returncode == 1 and run.stdout.strip().endswith(": FAILED"), run.stdout
