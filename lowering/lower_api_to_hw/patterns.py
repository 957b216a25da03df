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
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from ascend_xdsl.dialects.api_level import OPS as API_CALLS
from ascend_xdsl.dialects.api_level import CreateOp, EndOp, GetTensorCOp, InitOp, IterateOp
from ascend_xdsl.dialects.types import Conv3DBpFilterType
from ascend_xdsl.ir.locations import describe_op
from ascend_xdsl.lowering.lower_api_to_hw.buffers import allocate_buffers
from ascend_xdsl.lowering.lower_api_to_hw.calls import (
    InitState,
    IterateLoop,
    SetCall,
    created_here,
    read_by_a_loop,
    single_shape,
)
from ascend_xdsl.lowering.lower_api_to_hw.tile_walk import TileWalk


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


@dataclass(frozen=True)
class LowerAscendApiToHwPass(ModulePass):
    """Expand every Conv3DBackpropFilter object into buffers and the hardware tile walk."""

    name = "lower-ascend-api-to-hw"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        # Backwards, so every op is first visited before anything in front of it has changed:
        # an object is lowered once its create is reached, after all its calls, and only what
        # follows the create moves. A check that fails on that first visit names the op by
        # its place in the input. Trivial dead-code elimination stays off: ops the input left
        # unused are not this pass's to remove.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
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
