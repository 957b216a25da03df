"""The pass ``lower-ascend-api-to-hw``: small rewrite patterns, applied by one walk until none
applies.

Each pattern rewrites one op and reads the object's state through SSA (``calls.py``):

* ``LowerObjectCreation``: ``create`` and its ``init`` become the buffers ``Init`` allocates
  (``buffers.py``) and an ``InitState`` defining the object from them;
* ``LowerIterateLoop``: a ``while (iterate) { get_tensor_c }`` loop of an object with buffers
  becomes the tile walk of its single shape (``tile_walk.py``);
* ``EraseSpentSetCall``, ``EraseEnd``, ``EraseDeadInitState``: a ``set_*`` no loop is left to
  read, ``end``, and the state once nothing uses it, go; nothing is erased while it is used;
* ``RejectUnloweredCall``: an ``iterate`` or ``get_tensor_c`` outside an iterate loop, or an
  op that is not an API call using the object, fails the pass, naming the op.

Only objects made by ``ascend.create`` are lowered; an object handed in is left as it is.

* ``LowerConv3DObject``: a forward ``Conv3D`` object (``ascend.conv3d_create``) whole: its
  buffers where it is created, and each ``conv3d_iterate_all`` replaced by the forward walk
  (``conv3d_walk.py``) of the calls that reach it; the calls then go.
* ``LowerConv3DBpInputObject``: an input-gradient ``Conv3DBackpropInput`` object
  (``ascend.conv3d_bp_input_create``) the same way: its buffers where it is created, and each
  ``while (iterate) { get_tensor_c }`` loop on it replaced by the dX walk
  (``conv3d_bp_input_walk.py``) of the calls that reach the loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from xdsl.builder import Builder, ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects import api_conv3d as fwd
from ascend_xdsl.dialects import api_conv3d_bp_input as dx
from ascend_xdsl.dialects.api_level import OPS as API_CALLS
from ascend_xdsl.dialects.api_level import CreateOp, EndOp, GetTensorCOp, InitOp, IterateOp
from ascend_xdsl.dialects.types import Conv3DApiType, Conv3DBpFilterType, Conv3DBpInputType
from ascend_xdsl.hw import DEFAULT_HW, HwConfig
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.lowering.index_arith import Idx
from ascend_xdsl.lowering.lower_api_to_hw.buffers import allocate_buffers
from ascend_xdsl.lowering.lower_api_to_hw.calls import (
    InitState,
    IterateLoop,
    SetCall,
    created_here,
    read_by_a_loop,
    single_shape,
)
from ascend_xdsl.lowering.lower_api_to_hw.conv3d_bp_input_walk import (
    InputGradPlan,
    InputGradShape,
    InputGradWalk,
)
from ascend_xdsl.lowering.lower_api_to_hw.conv3d_walk import ForwardPlan, ForwardShape, ForwardWalk
from ascend_xdsl.lowering.lower_api_to_hw.tile_walk import TileWalk
from ascend_xdsl.passes.hardware import load_hw


class LowerObjectCreation(RewritePattern):
    """``create`` + ``init`` → the buffers, allocated where the object is declared, and the
    object's ``InitState``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CreateOp, rewriter: PatternRewriter) -> None:
        inits = [use.operation for use in op.result.uses if isinstance(use.operation, InitOp)]
        if len(inits) != 1:
            raise PassFailedException(
                f"{describe_op(op)}: the object must be initialised by exactly one ascend.init"
            )
        tiling, object_type = inits[0].tiling, op.result.type
        assert isinstance(object_type, Conv3DBpFilterType)
        with ImplicitBuilder(rewriter):
            buffers = allocate_buffers(tiling.tiling, object_type.element_type)
        rewriter.erase(inits[0])
        rewriter.replace(op, InitState(buffers, tiling, object_type))


class LowerIterateLoop(RewritePattern):
    """``while (iterate) { get_tensor_c }`` → the tile walk of the loop's single shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        loop = IterateLoop.of(op)
        if loop is None or not created_here(loop.obj):
            return
        # Checked on every visit, so on the first, while nothing before the loop has changed
        # yet and the error can say where the iterate is in the input (see the walk below).
        shape = single_shape(loop)
        state = loop.obj.owner
        if not isinstance(state, InitState):
            return  # lowered once the object has its buffers
        with ImplicitBuilder(rewriter):
            TileWalk(state.tiling.tiling, state.buffers, shape).emit()
        rewriter.erase(op)


class EraseSpentSetCall(RewritePattern):
    """A ``set_*`` that no iterate loop after it in its block is left to read."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SetCall, rewriter: PatternRewriter) -> None:
        if isinstance(op.obj.owner, InitState) and not read_by_a_loop(op):
            rewriter.erase(op)


class EraseEnd(RewritePattern):
    """``end``: the buffers live for the whole kernel, so releasing them is nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: EndOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.obj.owner, InitState):
            rewriter.erase(op)


class EraseDeadInitState(RewritePattern):
    """The object's state once every call on it is lowered."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: InitState, rewriter: PatternRewriter) -> None:
        if not op.object.uses:
            rewriter.erase(op)


class RejectUnloweredCall(RewritePattern):
    """What no pattern lowers and would leave the object alive: fail, naming the op."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, IterateOp | GetTensorCOp):
            if created_here(op.obj) and IterateLoop.around(op) is None:
                raise PassFailedException(
                    f"{describe_op(op)} is not part of a while (iterate) {{ get_tensor_c }} loop"
                )
        elif not isinstance(op, (*API_CALLS, InitState)) and any(
            created_here(operand) for operand in op.operands
        ):
            raise PassFailedException(
                f"{describe_op(op)} takes a Conv3DBackpropFilter object: only the API calls on "
                "one can be lowered"
            )


def _reaching(call: Operation, obj: SSAValue, kind: type[Operation]) -> Operation:
    """The ``kind`` call on ``obj`` whose value ``call`` reads: the nearest one before it in its
    block or, failing that, before an op enclosing it. One in a nested region in between may
    run or not: an error, as is none at all."""
    here: Operation | None = call
    while here is not None:
        block = here.parent_block()
        if block is None:
            break
        before = here.prev_op
        while before is not None:
            if isinstance(before, kind) and before.operands[0] is obj:
                return before
            for inner in before.walk():
                if inner is not before and isinstance(inner, kind) and inner.operands[0] is obj:
                    raise PassFailedException(
                        f"{describe_op(call)} reads a {kind.name} that {describe_op(inner)}, "
                        "in a nested region before it, may change"
                    )
            before = before.prev_op
        here = block.parent_op()
        if isinstance(here, builtin.ModuleOp):
            break
    raise PassFailedException(f"{describe_op(call)} without a preceding {kind.name}")


_Init = TypeVar("_Init", bound=Operation)


def _calls_and_init(
    op: Operation, obj: SSAValue, init: type[_Init]
) -> tuple[list[Operation], _Init]:
    """The calls on the object ``obj`` (which ``op`` creates) and its one ``init`` call, or a
    one-line error naming ``op``."""
    calls = [use.operation for use in obj.uses]
    inits = [c for c in calls if isinstance(c, init)]
    if len(inits) != 1:
        raise PassFailedException(
            f"{describe_op(op)}: the object must be initialised by exactly one {init.name}"
        )
    return calls, inits[0]


def _forward_shape(call: fwd.Conv3DIterateAllOp) -> ForwardShape:
    obj = call.obj
    set_x = _reaching(call, obj, fwd.Conv3DSetInputOp)
    set_w = _reaching(call, obj, fwd.Conv3DSetWeightOp)
    pos = _reaching(call, obj, fwd.Conv3DSetInputStartPositionOp)
    shape = _reaching(call, obj, fwd.Conv3DSetSingleOutputShapeOp)
    assert isinstance(set_x, fwd.Conv3DSetInputOp) and isinstance(set_w, fwd.Conv3DSetWeightOp)
    assert isinstance(pos, fwd.Conv3DSetInputStartPositionOp)
    assert isinstance(shape, fwd.Conv3DSetSingleOutputShapeOp)
    obj_type = obj.type
    assert isinstance(obj_type, Conv3DApiType)
    bias = None
    if obj_type.has_bias:
        set_b = _reaching(call, obj, fwd.Conv3DSetBiasOp)
        assert isinstance(set_b, fwd.Conv3DSetBiasOp)
        bias = (set_b.tensor, set_b.offset)
    return ForwardShape(
        x=set_x.tensor,
        off_x=set_x.offset,
        w=set_w.tensor,
        off_w=set_w.offset,
        y=call.tensor,
        off_y=call.offset,
        di_start=pos.di_start,
        m_start=pos.m_start,
        co=shape.co,
        do=shape.do,
        m=shape.m,
        bias=bias,
    )


@dataclass
class LowerConv3DObject(RewritePattern):
    """A forward ``Conv3D`` object: buffers at ``conv3d_create``, the forward walk in place of
    each ``conv3d_iterate_all``; every call on it is then erased."""

    hw: HwConfig

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: fwd.Conv3DCreateOp, rewriter: PatternRewriter) -> None:
        calls, init = _calls_and_init(op, op.result, fwd.Conv3DInitOp)
        for c in calls:
            if isinstance(c, fwd.Conv3DIterateOp | fwd.Conv3DGetTensorCOp):
                raise PassFailedException(
                    f"{describe_op(c)}: only ascend.conv3d_iterate_all is lowered to the "
                    "hardware level"
                )
            if not isinstance(c, fwd.OPS):
                raise PassFailedException(
                    f"{describe_op(c)} takes a Conv3D object: only the API calls on one can be "
                    "lowered"
                )
        obj_type = op.result.type
        assert isinstance(obj_type, Conv3DApiType)
        bias_type = obj_type.role("bias").element_type if obj_type.has_bias else None
        plan = ForwardPlan.of(init.tiling.tiling, self.hw, bias_type)
        walks = [(c, _forward_shape(c)) for c in calls if isinstance(c, fwd.Conv3DIterateAllOp)]
        element_type = obj_type.role("input").element_type
        with ImplicitBuilder(rewriter):
            buffers = plan.allocate(element_type)
        for call, shape in walks:
            with ImplicitBuilder(Builder(InsertPoint.before(call))):
                ForwardWalk(plan, buffers, shape).emit()
        for c in calls:
            rewriter.erase(c)
        rewriter.erase(op)


def _dx_loop(c: dx.Conv3DBpInputIterateOp | dx.Conv3DBpInputGetTensorCOp) -> scf.WhileOp:
    """The ``while (iterate) { get_tensor_c }`` loop a dX ``iterate`` or ``get_tensor_c`` is
    part of (the API kernel's ``_iterate_loop``), or a one-line error naming the call."""
    loop = c.parent_op()
    if isinstance(loop, scf.WhileOp) and len(loop.before_region.block.ops) == 2:
        iterate, cond = loop.before_region.block.ops
        body = list(loop.after_region.block.ops)
        if (
            isinstance(iterate, dx.Conv3DBpInputIterateOp)
            and isinstance(cond, scf.ConditionOp)
            and cond.condition is iterate.more
            and len(body) == 2
            and isinstance(body[0], dx.Conv3DBpInputGetTensorCOp)
            and body[0].obj is iterate.obj
            and isinstance(body[1], scf.YieldOp)
        ):
            return loop
    raise PassFailedException(
        f"{describe_op(c)} is not part of a while (iterate) {{ get_tensor_c }} loop"
    )


def _input_grad_shape(loop: scf.WhileOp, obj: SSAValue) -> InputGradShape:
    get_c = loop.after_region.block.first_op
    assert isinstance(get_c, dx.Conv3DBpInputGetTensorCOp)
    set_dy = _reaching(loop, obj, dx.Conv3DBpInputSetGradOutputOp)
    set_w = _reaching(loop, obj, dx.Conv3DBpInputSetWeightOp)
    shape = _reaching(loop, obj, dx.Conv3DBpInputSetSingleShapeOp)
    assert isinstance(set_dy, dx.Conv3DBpInputSetGradOutputOp)
    assert isinstance(set_w, dx.Conv3DBpInputSetWeightOp)
    assert isinstance(shape, dx.Conv3DBpInputSetSingleShapeOp)
    # SetStartPosition is optional (its docs state no constraint): 0 and 0 without one.
    try:
        pos = _reaching(loop, obj, dx.Conv3DBpInputSetStartPositionOp)
    except PassFailedException as e:
        if "without a preceding" not in str(e):
            raise
        din: Idx = 0
        ho: Idx = 0
    else:
        assert isinstance(pos, dx.Conv3DBpInputSetStartPositionOp)
        din, ho = pos.din_start, pos.ho_start
    return InputGradShape(
        dy=set_dy.tensor,
        off_dy=set_dy.offset,
        w=set_w.tensor,
        off_w=set_w.offset,
        dx=get_c.tensor,
        off_dx=get_c.offset,
        m=shape.m,
        k=shape.k,
        n=shape.n,
        din_start=din,
        ho_start=ho,
    )


@dataclass
class LowerConv3DBpInputObject(RewritePattern):
    """An input-gradient ``Conv3DBackpropInput`` object: buffers at its create, the dX walk in
    place of each iterate loop; every call on it is then erased."""

    l1_size: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: dx.Conv3DBpInputCreateOp, rewriter: PatternRewriter) -> None:
        calls, init = _calls_and_init(op, op.result, dx.Conv3DBpInputInitOp)
        loops: list[scf.WhileOp] = []
        for c in calls:
            if not isinstance(c, dx.OPS):
                raise PassFailedException(
                    f"{describe_op(c)} takes a Conv3DBackpropInput object: only the API calls "
                    "on one can be lowered"
                )
            if isinstance(c, dx.Conv3DBpInputIterateOp | dx.Conv3DBpInputGetTensorCOp):
                loop = _dx_loop(c)
                if loop not in loops:
                    loops.append(loop)
        plan = InputGradPlan.of(init.tiling.tiling, self.l1_size)
        walks = [(loop, _input_grad_shape(loop, op.result)) for loop in loops]
        obj_type = op.result.type
        assert isinstance(obj_type, Conv3DBpInputType)
        element_type = obj_type.role("grad_output").element_type
        with ImplicitBuilder(rewriter):
            buffers = plan.allocate(element_type)
        for loop, shape in walks:
            with ImplicitBuilder(Builder(InsertPoint.before(loop))):
                InputGradWalk(plan, buffers, shape).emit()
        for loop in loops:
            rewriter.erase(loop)  # with the iterate and get_tensor_c inside it
        for c in calls:
            if not isinstance(c, dx.Conv3DBpInputIterateOp | dx.Conv3DBpInputGetTensorCOp):
                rewriter.erase(c)
        rewriter.erase(op)


@dataclass(frozen=True)
class LowerAscendApiToHwPass(ModulePass):
    """Expand every Conv3DBackpropFilter object into buffers and the hardware tile walk."""

    name = "lower-ascend-api-to-hw"

    hw: str = DEFAULT_HW
    """The target, whose L1 size bounds the forward walk's input windows (and whose bias
    table its bias tile)."""

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # Backwards, so every op is first visited before anything in front of it has changed:
        # an object is lowered once its create is reached, after all its calls, and only what
        # follows the create moves. A check that fails on that first visit names the op by
        # its place in the input. Trivial dead-code elimination stays off: ops the input left
        # unused are not this pass's to remove.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    LowerConv3DObject(load_hw(self.hw)),
                    LowerConv3DBpInputObject(load_hw(self.hw).l1_size),
                    LowerObjectCreation(),
                    LowerIterateLoop(),
                    EraseSpentSetCall(),
                    EraseEnd(),
                    EraseDeadInitState(),
                    RejectUnloweredCall(),
                ],
                dce_enabled=False,
            ),
            walk_reverse=True,
        ).rewrite_module(op)
