"""``check-ascendc --cann``: the emitted project against a CANN or asc-devkit tree.

* On fake trees (CI has no real one): the tree's headers are the ones compiled and the shipped
  ones fill only what it lacks; ``$ASCEND_HOME_PATH`` is the default and ``--cann`` wins; the
  kernel is compiled in CANN's CPU mode, with the project's ``__NPU_ARCH__``, against the
  tree's basic API, which takes the device builtins from the prelude unless the tree has
  tikicpulib's headers; ``kernel_tiling.h`` is generated from the tree's ``*tilingdata.h`` as
  an asc-devkit build does.
* On a real tree, when ``ASCEND_XDSL_REAL_CANN`` names one (skipped otherwise): the default
  layer's project, kernel and host, compiles against the real high-level and basic API, and
  so does a forward project (``Conv3dApi::Conv3D``, f16 and bf16) and a dX project
  (``ConvBackpropApi::Conv3DBackpropInput``, f16 and bf16).
* A misused API (a wrong alias, a wrong signature) fails the shipped-header check, and the
  real-tree check when there is a real tree.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from test_emit_ascendc import _project, needs_gxx

from ascend_xdsl.emit import cann as cann_module
from ascend_xdsl.emit import check as check_module
from ascend_xdsl.emit.ascendc import HOST_FILE
from ascend_xdsl.emit.check import CheckError, check_project
from ascend_xdsl.emit.common import EmitOptions
from ascend_xdsl.emit.project import write_project
from ascend_xdsl.tools import conv

REAL_TREE = os.environ.get("ASCEND_XDSL_REAL_CANN", "")
"""A real CANN install or asc-devkit checkout (docs/ascendc.md names the one checked)."""

needs_real_tree = pytest.mark.skipif(
    not REAL_TREE or not Path(REAL_TREE).is_dir() or shutil.which("g++") is None,
    reason="set ASCEND_XDSL_REAL_CANN to a CANN or asc-devkit tree (and install g++)",
)


def _fake_devkit(root: Path) -> Path:
    """An asc-devkit source layout (include/adv_api for lib/, include/utils/tiling) holding
    copies of the shipped declarations, and an acl; no kernel_tiling.h (generated at build)."""
    shipped = check_module.include_dir()
    layout = {
        "include/acl/acl.h": "acl/acl.h",
        "include/adv_api/conv_backprop/conv3d_bp_filter_api.h": (
            "lib/conv_backprop/conv3d_bp_filter_api.h"
        ),
        "include/adv_api/conv_backprop/conv3d_bp_filter_tiling.h": (
            "lib/conv_backprop/conv3d_bp_filter_tiling.h"
        ),
        "include/adv_api/conv/common/conv_common.h": "lib/conv/common/conv_common.h",
        "include/adv_api/conv/conv3d/conv3d_api.h": "lib/conv/conv3d/conv3d_api.h",
        "include/utils/tiling/platform/platform_ascendc.h": "tiling/platform/platform_ascendc.h",
    }
    for target, source in layout.items():
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shipped / source, root / target)
    return root


# The shape of asc-devkit's basic API in CPU mode (include/basic_api/kernel_basic_intf.h at
# mirror-cann/asc-devkit 82b89a1): tikicpulib's headers under ASCENDC_CPU_DEBUG, code that
# uses the device builtins, and a branch on __NPU_ARCH__. The declarations the kernel needs
# follow it (the shipped ones).
_BASIC_API_HEAD = """#pragma once
#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1
#include "stub_def.h"
#include "stub_fun.h"
#endif
static_assert(__NPU_ARCH__ == 2201, "the project's NPU architecture");
inline void FakeBarrier(__ubuf__ half* ub)
{
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    pipe_barrier(PIPE_ALL);
    static_cast<void>(get_ctrl() & 1);
    static_cast<void>(ub);
}
"""


def _fake_basic_api(tree: Path) -> Path:
    """Give the fake tree a basic API shaped like the real one; its entry header."""
    intf = tree / cann_module.BASIC_API
    intf.parent.mkdir(parents=True)
    shipped = (check_module.include_dir() / "kernel_operator.h").read_text()
    # half and bfloat16_t are the device compiler's, from tikicpulib's headers in CPU mode.
    shipped = re.sub(r"struct (half|bfloat16_t) \{[^}]*\};", "", shipped)
    intf.write_text(_BASIC_API_HEAD + shipped)
    (tree / "include/kernel_operator.h").write_text('#include "kernel_basic_intf.h"\n')
    return intf


@needs_gxx
def test_check_against_an_installed_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    _, project = _project("small", 2)
    folder = write_project(tmp_path / "p", project)
    tree = _fake_devkit(tmp_path / "devkit")
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    assert check_module.cann_root(None) is None
    result = check_project(folder, check_module.cann_root(str(tree)))
    assert result.cann == tree and result.shipped == ("kernel_tiling/kernel_tiling.h",)
    assert result.generated == ()
    # The tree's header is the one compiled, not the shipped one: break it and the check says so.
    api_header = tree / "include/adv_api/conv_backprop/conv3d_bp_filter_api.h"
    api_header.write_text("#error from the installed tree\n" + api_header.read_text())
    with pytest.raises(CheckError, match="error: #error from the installed tree"):
        check_project(folder, tree)
    # ASCEND_HOME_PATH is the default; --cann wins over it.
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tree))
    assert check_module.cann_root(None) == tree
    assert check_module.cann_root(str(tmp_path)) == tmp_path
    code = conv.main(["check-ascendc", str(folder)])
    assert code == 1
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "nowhere"))
    with pytest.raises(CheckError, match=r"^\$ASCEND_HOME_PATH .*nowhere: no such folder$"):
        check_module.cann_root(None)
    (empty := tmp_path / "empty").mkdir()
    with pytest.raises(CheckError, match="not a CANN tree"):
        check_project(folder, empty)


@needs_gxx
def test_the_trees_basic_api_is_compiled_in_cpu_mode(tmp_path: Path, capsys):
    """The kernel reads the tree's basic API with ASCENDC_CPU_DEBUG and the project's
    __NPU_ARCH__; the device builtins come from the prelude, or from the tree's own
    tikicpulib headers when it has them."""
    _, project = _project("small", 2)
    folder = write_project(tmp_path / "p", project)
    tree = _fake_devkit(tmp_path / "devkit")
    intf = _fake_basic_api(tree)
    result = check_project(folder, tree)
    assert result.prelude == (*cann_module.DEVICE_PRELUDE, *cann_module.HOST_PRELUDE)
    assert conv.main(["check-ascendc", str(folder), "--cann", str(tree)]) == 0
    out = capsys.readouterr().out
    assert "the kernel in CANN's CPU mode" in out and "from the prelude: stub_def.h" in out
    # It is the tree's basic API that is compiled: break it and the check says so.
    good = intf.read_text()
    intf.write_text(good.replace("pipe_barrier(PIPE_ALL);", "pipe_barrier(PIPE_NONE);"))
    with pytest.raises(CheckError, match=r"kernel_basic_intf\.h:.*'PIPE_NONE' was not declared"):
        check_project(folder, tree)
    intf.write_text(good)
    # A tree with tikicpulib's headers (an installed CANN) uses its own.
    tik = tree / "tools/tikicpulib/lib/include"
    tik.mkdir(parents=True)
    for name in cann_module.DEVICE_PRELUDE:
        (tik / name).write_text("#error from the tree's tikicpulib\n")
    with pytest.raises(CheckError, match="error: #error from the tree's tikicpulib"):
        check_project(folder, tree)
    for name in cann_module.DEVICE_PRELUDE:
        shutil.copy(cann_module.prelude_dir("device") / name, tik / name)
    result = check_project(folder, tree)
    assert result.prelude == cann_module.HOST_PRELUDE


def test_the_npu_architecture_is_the_projects(tmp_path: Path):
    """__NPU_ARCH__ is read off the project's CMakeLists.txt: the ASC flow names the
    architecture, the legacy flow the SoC (an A3 part's too)."""
    cmake = tmp_path / "CMakeLists.txt"
    cmake.write_text('set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture")\n')
    assert cann_module.npu_arch(tmp_path) == "2201"
    cmake.write_text('set(SOC_VERSION "Ascend910_9392" CACHE STRING "system on chip type")\n')
    assert cann_module.npu_arch(tmp_path) == "2201"
    cmake.write_text('set(SOC_VERSION "Ascend310P1")\n')
    with pytest.raises(cann_module.TreeError, match="SoC Ascend310P1 is none of the known"):
        cann_module.npu_arch(tmp_path)
    cmake.write_text("project(x)\n")
    with pytest.raises(cann_module.TreeError, match="names no NPU architecture"):
        cann_module.npu_arch(tmp_path)
    cmake.unlink()
    with pytest.raises(cann_module.TreeError, match=r"CMakeLists\.txt"):
        cann_module.npu_arch(tmp_path)


def _tilingdata(kernel_tiling: str) -> str:
    """The structures of a kernel_tiling.h written back as metadef's tiling-data macros, the
    form asc-devkit's *tilingdata.h files hold them in."""
    lines = []
    for line in kernel_tiling.splitlines():
        if m := re.match(r"struct (\w+) \{$", line):
            lines.append(f"BEGIN_TILING_DATA_DEF({m.group(1)})")
        elif m := re.match(r"\s+(\w+) (\w+) = 0;$", line):
            lines.append(f"TILING_DATA_FIELD_DEF({m.group(1)}, {m.group(2)});")
        elif m := re.match(r"\s+(\w+) (\w+);$", line):
            lines.append(f"TILING_DATA_FIELD_DEF_STRUCT({m.group(1)}, {m.group(2)});")
        elif line == "};":
            lines.append("END_TILING_DATA_DEF;")
    return "\n".join(lines) + "\n"


def test_kernel_tiling_is_generated_as_the_build_does(tmp_path: Path):
    """Each structure packed to 8 in AscendC::tiling, fields zero-initialised, arrays and
    nested structures, the legacy names exported; None without *tilingdata.h."""
    assert cann_module.kernel_tiling_header([]) is None
    source = tmp_path / "include/adv_api/x/x_tilingdata.h"
    source.parent.mkdir(parents=True)
    source.write_text(
        '#include "register/tilingdata_base.h"\nnamespace optiling {\n'
        "BEGIN_TILING_DATA_DEF(TConv3DBpFilterTiling)\n"
        "TILING_DATA_FIELD_DEF(uint32_t, batch);\n"
        "TILING_DATA_FIELD_DEF_ARR(uint8_t, 4, pad);\n"
        "END_TILING_DATA_DEF;\n"
        "BEGIN_TILING_DATA_DEF(Outer)\n"
        "TILING_DATA_FIELD_DEF_STRUCT(TConv3DBpFilterTiling, inner);\n"
        "END_TILING_DATA_DEF;\n}\n"
    )
    text = cann_module.kernel_tiling_header([source])
    assert text is not None
    body = text[text.index("namespace tiling {") : text.index("}  // namespace tiling")]
    assert body.splitlines()[1:] == [
        "#pragma pack(push, 8)",
        "struct TConv3DBpFilterTiling {",
        "    uint32_t batch = 0;",
        "    uint8_t pad[4] = {};",
        "};",
        "#pragma pack(pop)",
        "#pragma pack(push, 8)",
        "struct Outer {",
        "    TConv3DBpFilterTiling inner;",
        "};",
        "#pragma pack(pop)",
    ]
    assert "using AscendC::tiling::TConv3DBpFilterTiling;" in text
    assert "using AscendC::tiling::Outer;" not in text


@needs_gxx
def test_the_check_compiles_the_generated_kernel_tiling(tmp_path: Path):
    """A tree with *tilingdata.h and no kernel_tiling.h: the kernel reads the structures
    generated from the tree's definitions."""
    _, project = _project("small", 2)
    folder = write_project(tmp_path / "p", project)
    tree = _fake_devkit(tmp_path / "devkit")
    shipped = (check_module.include_dir() / "kernel_tiling/kernel_tiling.h").read_text()
    data = tree / "include/adv_api/conv_backprop/conv3d_bp_filter_tilingdata.h"
    data.write_text(_tilingdata(shipped))
    result = check_project(folder, tree)
    assert result.generated == ("kernel_tiling/kernel_tiling.h",) and result.shipped == ()
    data.write_text(data.read_text().replace(", dwTiling);", ", dwTilings);"))
    with pytest.raises(CheckError, match="no member named 'dwTiling'"):
        check_project(folder, tree)


LEGACY = EmitOptions(build="legacy")
MISUSE = [
    # the usage doc's host-side alias of the position, which the kernel-side headers lack
    (
        EmitOptions(),
        "kernel",
        "ConvType<AscendC::TPosition::GM",
        "ConvType<ConvCommonApi::TPosition::GM",
        "TPosition",
    ),
    # a wrong signature: SetSingleShape takes (singleShapeM, singleShapeN, singleShapeK)
    (
        EmitOptions(),
        "kernel",
        "bpFilter.SetSingleShape(16, ",
        "bpFilter.SetSingleShape(",
        "SetSingleShape",
    ),
    # the tiling API's Set call misspelt
    (EmitOptions(), "host", "tiler.SetStride(", "tiler.SetStrides(", "SetStrides"),
    # a kernel type that does not exist (the real build's precompile pass rejects it)
    (
        LEGACY,
        "kernel",
        "KERNEL_TYPE_AIC_ONLY",
        "KERNEL_TYPE_MIX_AIC_3_0",
        "KERNEL_TYPE_MIX_AIC_3_0",
    ),
]


def _check_misused(tmp_path: Path, tree: Path | None, misuse: tuple) -> None:
    """Plant the misuse in the small layer's project: the check fails at the planted line
    with an error that names what was planted."""
    options, where, good, bad, named = misuse
    _, project = _project("small", 2, options)
    folder = write_project(tmp_path / "p", project)
    path = folder / (project.kernel_file if where == "kernel" else HOST_FILE)
    text = path.read_text()
    assert good in text
    path.write_text(text.replace(good, bad, 1))
    line = text[: text.index(good)].count("\n") + 1
    with pytest.raises(CheckError, match=rf"^{re.escape(path.name)}:{line}:\d+: error: .*{named}"):
        check_project(folder, tree)


@needs_gxx
@pytest.mark.parametrize("misuse", MISUSE, ids=[m[4] for m in MISUSE])
def test_a_misused_api_fails_the_shipped_headers(tmp_path: Path, misuse):
    _check_misused(tmp_path, None, misuse)


@needs_real_tree
@pytest.mark.parametrize("misuse", MISUSE, ids=[m[4] for m in MISUSE])
def test_a_misused_api_fails_the_real_headers(tmp_path: Path, misuse):
    _check_misused(tmp_path, Path(REAL_TREE), misuse)


@needs_real_tree
def test_the_default_layers_project_compiles_against_the_real_tree(tmp_path: Path, capsys):
    """Kernel and host of the default layer (no shape flags) against the real high-level and
    basic API; what the tree lacks comes from the prelude (an asc-devkit tree) or nowhere (an
    installed CANN)."""
    folder = tmp_path / "p"
    assert conv.main(["bp-filter", "--emit", "ascendc", "-o", str(folder)]) == 0
    result = check_project(folder, Path(REAL_TREE))
    assert result.files == ("conv3d_bp_filter_kernel.asc", HOST_FILE)
    assert set(result.prelude) <= {*cann_module.DEVICE_PRELUDE, *cann_module.HOST_PRELUDE}


@needs_real_tree
@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_the_forward_project_compiles_against_the_real_tree(tmp_path: Path, capsys, dtype):
    """The forward kernel (Conv3dApi::Conv3D, IterateAll) and its host against the real
    conv3d_api.h / conv3d_intf.h and TConv3DApiTiling; a call of the private Iterate fails."""
    folder = tmp_path / "p"
    argv = ["forward", "--input", "1,16,4,8,8", "--weight", "16,16,3,3,3", "--padding", "1"]
    assert conv.main([*argv, "--dtype", dtype, "--emit", "ascendc", "-o", str(folder)]) == 0
    result = check_project(folder, Path(REAL_TREE))
    assert result.files == ("conv3d_kernel.asc", HOST_FILE)
    kernel = folder / "conv3d_kernel.asc"
    kernel.write_text(kernel.read_text().replace("conv.IterateAll(yGm[", "conv.Iterate(yGm["))
    with pytest.raises(CheckError, match="error: "):
        check_project(folder, Path(REAL_TREE))


@needs_real_tree
@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_the_dx_project_compiles_against_the_real_tree(tmp_path: Path, capsys, dtype):
    """The dX kernel (ConvBackpropApi::Conv3DBackpropInput, while (Iterate) GetTensorC) and its
    host against the real conv3d_bp_input_api.h / _intf.h and TConv3DBackpropInputTiling (the
    kernel instantiates its Load2D path, whose intrinsics and bare NoQuant the prelude has); a
    SetSingleShape of the wrong arity fails."""
    folder = tmp_path / "p"
    argv = ["bp-input", "--input", "1,16,4,8,8", "--weight", "32,16,3,3,3", "--padding", "1"]
    argv += ["--stride", "2", "--cores", "2", "--dtype", dtype]
    assert conv.main([*argv, "--emit", "ascendc", "-o", str(folder)]) == 0
    capsys.readouterr()
    result = check_project(folder, Path(REAL_TREE))
    assert result.files == ("conv3d_input_kernel.asc", HOST_FILE)
    kernel = folder / "conv3d_input_kernel.asc"
    text = kernel.read_text()
    kernel.write_text(text.replace("gradInput.SetSingleShape(", "gradInput.SetSingleShape(1, "))
    with pytest.raises(CheckError, match="error: "):
        check_project(folder, Path(REAL_TREE))
