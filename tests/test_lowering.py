"""The compiler's main path on the lowering matrix of the lowering issue.

Every case lowers to hardware-level IR that verifies and holds the AI Core's instructions
(data_copy, load3d, mmad, fixpipe) and the flags between pipes inside loops, with no API call
and none of the API lowering's own state left; and the size of the lowered IR does not depend on
the size of the problem. Where the API lowering fails, it names the op by its place in the input.
"""

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import builtin, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.api_level import OPS as API_CALLS
from ascend_xdsl.dialects.api_level import IterateOp, SetInputOp
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.lowering.build import build_conv3d_bp_filter
from ascend_xdsl.lowering.index_arith import add, for_loop, if_
from ascend_xdsl.lowering.lower_api_to_hw import LowerAscendApiToHwPass
from ascend_xdsl.lowering.lower_api_to_hw.calls import InitState
from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.lowering.pipeline import compile_levels, make_context

HW_OPS = (
    "ascend.data_copy",
    "ascend.load3d",
    "ascend.mmad",
    "ascend.fixpipe",
    "ascend.set_flag",
    "ascend.wait_flag",
)

# (id, input NCDHW, weight, keyword arguments of build_conv3d_bp_filter, cores)
CASES = [
    ("default", (2, 64, 8, 28, 28), (64, 64, 3, 3, 3), {"padding": 1}, None),
    ("stride2", (1, 32, 4, 16, 16), (32, 32, 1, 3, 3), {"stride": (1, 2, 2)}, 1),
    ("asym_pad", (1, 16, 4, 12, 12), (16, 16, 2, 3, 3), {"padding": (1, 0, 2, 0, 1, 2)}, 1),
    ("dilation", (1, 16, 6, 14, 14), (16, 16, 2, 3, 3), {"dilation": (2, 2, 2)}, 1),
    ("groups2", (1, 32, 3, 10, 10), (32, 16, 1, 3, 3), {"groups": 2, "padding": 1}, 1),
    ("depthwise", (1, 32, 3, 10, 10), (32, 1, 3, 3, 3), {"groups": 32, "padding": 1}, 4),
    ("odd_channels", (1, 20, 3, 9, 9), (24, 20, 1, 3, 3), {}, 1),
    ("kd3", (1, 16, 5, 8, 8), (16, 16, 3, 1, 1), {}, 1),
    ("howo_not_16", (1, 16, 2, 7, 9), (16, 16, 1, 2, 2), {}, 1),
    ("multicore", (2, 64, 8, 28, 28), (64, 64, 3, 3, 3), {"padding": 1}, 24),
    ("bf16", (1, 16, 2, 8, 8), (16, 16, 1, 3, 3), {"dtype": "bf16", "padding": 1}, 1),
]


def _inside_loop(op) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            return True
        parent = parent.parent_op()
    return False


def _lower(shape, weight, kwargs, cores) -> dict[str, builtin.ModuleOp]:
    module = build_conv3d_bp_filter(shape, weight, **kwargs)
    return compile_levels(module, CompileOptions.create(cores=cores))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_lowers_to_hardware_instructions_in_loops(case):
    _, shape, weight, kwargs, cores = case
    levels = _lower(shape, weight, kwargs, cores)
    hw = levels["hw"]
    hw.verify()
    for name in HW_OPS:
        ops = [op for op in hw.walk() if op.name == name]
        assert ops, f"no {name} in the lowered IR"
        assert any(_inside_loop(op) for op in ops), f"{name} is not inside a loop"
    assert not [op for op in hw.walk() if isinstance(op, (*API_CALLS, InitState))]


def test_both_iterate_orders():
    """The tile walk nests M-L1 blocks outside N-L1 blocks for ORDER_M and the other way."""
    from xdsl.context import Context
    from xdsl.passes import PassPipeline

    from ascend_xdsl.lowering.convert_conv_to_api import ConvertConvToAscendApiPass
    from ascend_xdsl.passes.tile_conv3d_bp_filter import TileConv3DBpFilterPass

    orders = {}
    for order in (0, 1):
        module = build_conv3d_bp_filter((1, 64, 2, 16, 16), (256, 64, 1, 3, 3), padding=1)
        fmt = compile_levels(module, CompileOptions.create(cores=1), stop_after="format")["format"]
        override = f"iterate_order={order} base_m=64 base_n=64 step_m=1 step_n=1"
        PassPipeline(
            (
                TileConv3DBpFilterPass(cores=1, override=override),
                ConvertConvToAscendApiPass(),
                LowerAscendApiToHwPass(),
            )
        ).apply(Context(), fmt)
        fmt.verify()
        names = [op.body.block.args[0].name_hint for op in fmt.walk() if isinstance(op, scf.ForOp)]
        orders[order] = [n for n in names if n in ("mb", "nb")]
    assert orders[0][:2] == ["mb", "nb"]
    assert orders[1][:2] == ["nb", "mb"]


def _op_count(module: builtin.ModuleOp) -> int:
    return sum(1 for _ in module.walk())


def test_lowered_ir_does_not_grow_with_the_problem():
    small = _lower((1, 16, 4, 8, 8), (16, 16, 3, 3, 3), {"padding": 1}, 24)["hw"]
    large = _lower((8, 512, 16, 112, 112), (512, 512, 3, 3, 3), {"padding": 1}, 24)["hw"]
    larger = _lower((16, 1024, 32, 224, 224), (1024, 1024, 3, 3, 3), {"padding": 1}, 24)["hw"]
    n_small, n_large, n_larger = _op_count(small), _op_count(large), _op_count(larger)
    # The tiny layer's loops mostly run once and fold away; past that the kernel is the same
    # loop nest whatever the size: 16x the data of the large layer changes the count by the odd
    # tail that stops being a compile-time constant, not by a multiple.
    assert n_large <= 3 * n_small, (n_small, n_large)
    assert abs(n_larger - n_large) <= 4, (n_large, n_larger)


def test_an_api_lowering_error_names_the_op_by_its_place_in_the_input():
    # The create comes first and its lowering inserts the buffers before everything else, so
    # only a walk that meets the loop before the create can still say where the loop was.
    module = build_conv3d_bp_filter((1, 16, 2, 8, 8), (16, 16, 1, 3, 3), padding=1)
    api = compile_levels(module, CompileOptions.create(cores=1), stop_after="api")["api"]
    Rewriter.erase_op(next(op for op in api.walk() if isinstance(op, SetInputOp)))
    iterate = next(op for op in api.walk() if isinstance(op, IterateOp))
    expected = f"{describe_op(iterate)} without a preceding ascend.set_input in its block"
    assert "(op #" in expected
    with pytest.raises(PassFailedException) as failed:
        LowerAscendApiToHwPass().apply(make_context(), api)
    assert str(failed.value) == expected


def test_code_that_never_runs_leaves_no_use_behind():
    """A loop that runs zero times, or an if that is statically false, is built aside and
    erased with its references, so what it used (a buffer, an offset) has no use from it."""
    block = Block(arg_types=[IndexType()])
    outside = block.args[0]
    with ImplicitBuilder(block):
        with for_loop(0, 0) as i:
            add(add(outside, i), outside)
        with if_(False):
            add(outside, 1)
    assert not block.ops
    assert not outside.uses
