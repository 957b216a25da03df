"""lowering/pipeline.py: the one pipeline description, compile_levels and the ascend-pipeline pass.

The passes of the api and hw levels are written elsewhere; the tests that need them run on a
fake registry whose passes do nothing, which exercises the orchestration and nothing else.
"""

from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.api_conv3d_bp_input import Conv3DBpInputCreateOp
from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.lowering import pipeline
from ascend_xdsl.lowering.build import build_conv3d_bp_filter
from ascend_xdsl.lowering.legalize_formats import LegalizeFormatsPass
from ascend_xdsl.lowering.options import CompileError, CompileOptions, parse_tiling
from ascend_xdsl.lowering.pipeline import (
    LEVELS,
    PIPELINE,
    AscendPipelinePass,
    MissingPassError,
    PipelineError,
    compile_levels,
    pipeline_spec,
)
from ascend_xdsl.lowering.registry import PASSES


def _module() -> ModuleOp:
    return build_conv3d_bp_filter((1, 20, 4, 9, 9), (8, 10, 2, 3, 3), padding=1, groups=2)


def _trans_data_count(module: ModuleOp) -> int:
    return sum(isinstance(op, TransDataOp) for op in module.walk())


def test_levels_and_description():
    assert LEVELS == ("op", "format", "api", "hw")
    assert [stage.level for stage in PIPELINE] == ["format"] + ["api"] * 4 + ["hw"] * 6
    spec = pipeline_spec(CompileOptions.create(cores=4))
    assert "ascend-tile-conv3d-bp-filter{cores=4}" in spec
    assert pipeline_spec(CompileOptions.create(), "format") == "ascend-legalize-formats"
    assert [p.name for p in parse_pipeline(spec)] == [
        "ascend-legalize-formats",
        "ascend-tile-conv3d-bp-filter",
        "ascend-tile-conv3d",
        "ascend-tile-conv3d-bp-input",
        "convert-conv-to-ascend-api",
        "lower-ascend-api-to-hw",
        "ascend-plan-buffers",
        "ascend-insert-sync",
        "licm",
        "ascend-canonicalize",
        "ascend-cse",
    ]


def test_compile_to_format_level():
    module = _module()
    before = str(module)
    modules = compile_levels(module, stop_after="format")
    assert list(modules) == ["op", "format"]
    assert str(module) == before, "the input module must not be modified"
    assert str(modules["op"]) == before
    assert _trans_data_count(modules["format"]) == 3
    expected = module.clone()
    LegalizeFormatsPass().apply(Context(), expected)
    assert str(modules["format"]) == str(expected)


def test_compile_to_op_level_runs_nothing():
    modules = compile_levels(_module(), stop_after="op")
    assert list(modules) == ["op"]


def test_missing_pass_is_named():
    """The later levels' passes are looked up by name; without them compile says which."""
    registry = {"ascend-legalize-formats": PASSES["ascend-legalize-formats"]}
    with pytest.raises(MissingPassError) as info:
        compile_levels(_module(), registry=registry)
    assert info.value.pass_name == "ascend-tile-conv3d-bp-filter"
    assert info.value.level == "api"
    assert "'ascend-tile-conv3d-bp-filter' is not registered" in str(info.value)


def test_unloadable_pass_is_named():
    def broken() -> type[ModulePass]:
        raise ModuleNotFoundError("No module named 'ascend_xdsl.passes.nope'")

    registry = {"ascend-legalize-formats": broken}
    with pytest.raises(MissingPassError, match="'ascend-legalize-formats' cannot be loaded"):
        compile_levels(_module(), stop_after="format", registry=registry)


def _fake(pass_name: str, fields: tuple[str, ...] = ()) -> type[ModulePass]:
    """A pass that records the options it was built with and changes nothing."""
    namespace = {"__annotations__": dict.fromkeys(fields, "str | int | None")}
    namespace.update(dict.fromkeys(fields))
    namespace["name"] = pass_name
    namespace["apply"] = lambda self, ctx, op: None
    return dataclass(frozen=True)(type(pass_name.replace("-", "_"), (ModulePass,), namespace))


def _fake_registry() -> dict:
    registry = dict(pipeline.default_registry())
    registry["ascend-tile-conv3d-bp-filter"] = lambda: _fake(
        "ascend-tile-conv3d-bp-filter",
        (
            "strategy",
            "hw",
            "cores",
            "tiling_file",
            "override",
            "dk",
            "budget",
            "use_cache",
            "progress",
        ),
    )
    registry["convert-conv-to-ascend-api"] = lambda: _fake("convert-conv-to-ascend-api")
    registry["ascend-tile-conv3d"] = lambda: _fake(
        "ascend-tile-conv3d",
        ("strategy", "hw", "cores", "tiling_file", "budget", "use_cache", "progress"),
    )
    registry["ascend-tile-conv3d-bp-input"] = lambda: _fake(
        "ascend-tile-conv3d-bp-input",
        ("strategy", "hw", "cores", "tiling_file", "budget", "use_cache", "progress"),
    )
    registry["lower-ascend-api-to-hw"] = lambda: _fake("lower-ascend-api-to-hw", ("hw",))
    registry["ascend-plan-buffers"] = lambda: _fake("ascend-plan-buffers", ("hw",))
    registry["ascend-insert-sync"] = lambda: _fake("ascend-insert-sync", ("hw",))
    return registry


def test_all_levels_with_fake_later_passes():
    modules = compile_levels(_module(), registry=_fake_registry())
    assert list(modules) == list(LEVELS)
    assert len({id(m) for m in modules.values()}) == 4, "each level is its own copy"


def test_options_reach_the_passes(tmp_path):
    tiling = tmp_path / "my tiling.json"
    tiling.write_text("{}")
    options = CompileOptions.create(hw="atlas-a2-910b3", tiling=f"fixed:{tiling}", cores=4)
    passes = dict(
        (p.name, p) for _, p in pipeline.pipeline_passes(options, registry=_fake_registry())
    )
    tiler = passes["ascend-tile-conv3d-bp-filter"]
    assert (tiler.strategy, tiler.hw, tiler.cores, tiler.tiling_file) == (
        "fixed",
        "atlas-a2-910b3",
        4,
        str(tiling),
    )
    assert passes["ascend-plan-buffers"].hw == "atlas-a2-910b3"
    forward = passes["ascend-tile-conv3d"]
    assert (forward.strategy, forward.hw, forward.cores, forward.tiling_file) == (
        "fixed",
        "atlas-a2-910b3",
        4,
        str(tiling),
    )
    dx = passes["ascend-tile-conv3d-bp-input"]
    assert (dx.strategy, dx.hw, dx.cores, dx.tiling_file) == (
        "fixed",
        "atlas-a2-910b3",
        4,
        str(tiling),
    )
    assert passes["lower-ascend-api-to-hw"].hw == "atlas-a2-910b3"


def test_pass_without_the_option_is_reported():
    registry = _fake_registry()
    registry["ascend-plan-buffers"] = lambda: _fake("ascend-plan-buffers")
    with pytest.raises(PipelineError, match=r"ascend-plan-buffers.*has no option \"hw\""):
        compile_levels(_module(), registry=registry)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hw": "atlas-z9"}, "unknown hardware 'atlas-z9'"),
        ({"tiling": "magic"}, "unknown tiling 'magic'"),
        ({"tiling": "fixed"}, "needs a file"),
        ({"tiling": "fixed:/no/such/file.json"}, "cannot read tiling file"),
        ({"cores": 0}, r"compilation failed: cores must be in \[1, 24\]"),
        ({"cores": 25}, r"cores must be in \[1, 24\] for atlas-a2-910b2, got 25"),
        ({"dk": "both"}, "unknown dk mode 'both'"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(PipelineError, match=message):
        CompileOptions.create(**kwargs)


def test_bad_level():
    with pytest.raises(PipelineError, match="unknown level 'asm'"):
        compile_levels(_module(), stop_after="asm")


def test_cores_is_one_checked_int():
    assert CompileOptions.create().cores == 24
    assert CompileOptions.create(hw="atlas-a2-910b3").cores == 20
    with pytest.raises(TypeError, match="cores must be an integer or None"):
        CompileOptions.create(cores=True)
    with pytest.raises(CompileError):
        CompileOptions(hw=CompileOptions.create().hw, cores=0)


def test_parse_tiling():
    assert parse_tiling("heuristic") == ("heuristic", "")
    assert parse_tiling("fixed:a:b.json") == ("fixed", "a:b.json")


def test_pipeline_pass_stops_after_format():
    module = _module()
    AscendPipelinePass(stop_after="format").apply(Context(), module)
    module.verify()
    assert _trans_data_count(module) == 3


def test_pipeline_pass_reports_missing_pass(monkeypatch):
    monkeypatch.setattr(
        pipeline,
        "default_registry",
        lambda: {"ascend-legalize-formats": PASSES["ascend-legalize-formats"]},
    )
    with pytest.raises(PassFailedException, match="'ascend-tile-conv3d-bp-filter'"):
        AscendPipelinePass().apply(Context(), _module())


def test_pipeline_pass_spec_round_trips():
    p = AscendPipelinePass.from_pass_spec(
        next(parse_pipeline("ascend-pipeline{strategy=fixed hw=atlas-a2-910b3 cores=8}"))
    )
    assert (p.strategy, p.hw, p.cores, p.stop_after) == ("fixed", "atlas-a2-910b3", 8, "hw")
    assert "ascend-pipeline" in PASSES and PASSES["ascend-pipeline"]() is AscendPipelinePass


def test_defaults_have_one_definition():
    # The pipeline and each pass default to the same hardware, and the pipeline's option check
    # accepts exactly the strategies the tiler implements: one definition each, not copies.
    from ascend_xdsl.hw import DEFAULT_HW
    from ascend_xdsl.passes import tiling_options
    from ascend_xdsl.passes.insert_sync import InsertSyncPass
    from ascend_xdsl.passes.plan_buffers import PlanBuffersPass
    from ascend_xdsl.passes.tile_conv3d_bp_filter import TileConv3DBpFilterPass

    hws = {CompileOptions.create().hw.name, AscendPipelinePass().hw}
    hws |= {TileConv3DBpFilterPass().hw, PlanBuffersPass().hw, InsertSyncPass().hw}
    assert hws == {DEFAULT_HW}
    from ascend_xdsl.lowering import options

    assert options.STRATEGIES is tiling_options.STRATEGIES


DX_MODULE = """
func.func @dx(%dy: memref<2x16x4x8x8xf16>, %w: memref<16x16x3x3x3xf16>)
    -> memref<2x16x4x8x8xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1]
    pads [1, 1, 1] dilations [1, 1, 1] groups 1
    : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
  func.return %dx : memref<2x16x4x8x8xf16>
}
"""


def _dx_module() -> ModuleOp:
    return Parser(pipeline.make_context(), DX_MODULE).parse_module()


def test_dx_compiles_to_the_api_level():
    """The dX tiler and lowering run in the pipeline: the api level launches the kernel on
    the tiling's 2 batch x 4 depth cores."""
    api = compile_levels(_dx_module(), stop_after="api")["api"]
    launches = [op for op in api.walk() if isinstance(op, LaunchOp)]
    assert [op.blocks.value.data for op in launches] == [8]
    assert sum(isinstance(op, Conv3DBpInputCreateOp) for op in api.walk()) == 1


def test_dx_compiles_to_the_hw_level():
    """Below the API level dX is the hardware walk (conv3d_bp_input_walk.py): no API call is
    left, and dy reaches L0A by load3d, the weight L0B by transposing load2d."""
    hw = compile_levels(_dx_module())["hw"]
    names = [op.name for op in hw.walk()]
    assert not [n for n in names if n.startswith("ascend.conv3d_bp_input")]
    assert {"ascend.load3d", "ascend.load2d", "ascend.mmad", "ascend.fixpipe"} <= set(names)


def test_dx_stride_in_hw_zeroes_a1_and_dilates_dy():
    """A stride above 1 in H or W: dy is copied into A1 dilated, after a fill zeroes it."""
    text = (
        DX_MODULE.replace("%dy: memref<2x16x4x8x8", "%dy: memref<2x16x4x4x4")
        .replace(": memref<2x16x4x8x8xf16>, memref<16", ": memref<2x16x4x4x4xf16>, memref<16")
        .replace("strides [1, 1, 1]", "strides [1, 2, 2]")
    )
    hw = compile_levels(Parser(pipeline.make_context(), text).parse_module())["hw"]
    names = [op.name for op in hw.walk()]
    assert "ascend.fill" in names
    assert names.index("ascend.fill") < names.index("ascend.data_copy")
