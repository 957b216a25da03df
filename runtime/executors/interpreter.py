"""The reference executor: xDSL's interpreter with functions for every ``ascend`` op.

``make_interpreter(module, ...)`` returns an ``xdsl.interpreter.Interpreter`` with xDSL's stock
``func``, ``scf``, ``arith``, ``builtin`` and ``memref`` functions, the faster index ``arith`` of
``runtime/executors/arith_functions.py``, and :class:`AscendFunctions`, which executes:

* the op level (``conv3d_backprop_filter`` on memrefs or gm_tensors) by the reference formula
  (``runtime/reference.py``);
* the format level and the host (``trans_data``, ``alloc_gm``, ``empty_gm``, ``launch``) on
  the values of ``runtime/machine/values.py``;
* the API level through ``runtime/executors/api_sim.py``;
* the hardware level through the per-core machine ``runtime/machine/core.py`` (the instruction
  model, the numpy backend, flags and the sanitizer).

``ascend.launch`` runs the kernel once per block index, each on a fresh :class:`Core`. With
``executor="interp"`` the kernel's ops are interpreted one by one here; with ``"compiled"`` (the
default) each kernel is translated once into Python by ``runtime/executors/compiled.py``, which
calls the same machine and API functions, so both give bit-identical results.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.ir import Operation

from ascend_xdsl import hw
from ascend_xdsl.dialects import api_level, hw_level, launch
from ascend_xdsl.dialects.format_level import TransDataOp
from ascend_xdsl.dialects.op_level import (
    Conv3DBackpropFilterOp,
    Conv3DBackpropInputOp,
    Conv3DOp,
    shape_of_conv3d_input_op,
    shape_of_conv3d_op,
    shape_of_conv_op,
)
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.runtime.cost.report import CostReport
from ascend_xdsl.runtime.cost.timing import Timeline
from ascend_xdsl.runtime.executors import api_sim, compiled, replay
from ascend_xdsl.runtime.executors.arith_functions import ExtraArithFunctions
from ascend_xdsl.runtime.executors.launch import new_report, run_blocks
from ascend_xdsl.runtime.machine.budget import Budget
from ascend_xdsl.runtime.machine.core import Core, CorePool
from ascend_xdsl.runtime.machine.machine import BufferSpec, KernelError, Machine, buffer_spec
from ascend_xdsl.runtime.machine.sanitizer import Sanitizer
from ascend_xdsl.runtime.machine.values import (
    GmTensor,
    empty_gm,
    from_gm,
    groups_of,
    np_dtype,
    to_gm,
    zeros_gm,
)
from ascend_xdsl.runtime.reference import (
    conv3d_input_reference,
    conv3d_reference,
    conv3d_weight_reference,
)

__all__ = ["EXECUTORS", "AscendFunctions", "KernelError", "build_interpreter", "make_interpreter"]

EXECUTORS = ("compiled", "interp")
"""How launched kernels run: translated to Python once (default), or op by op by xDSL."""


class AscendFunctions(InterpreterFunctions):
    """Interpreter functions of the ascend dialect (all levels)."""

    def __init__(
        self,
        hw_name: str = hw.DEFAULT_HW,
        sanitizer: Sanitizer | None = None,
        progress: bool = True,
        executor: str = "compiled",
        timed: bool = False,
        max_iterations: int | None = None,
        budget: Budget | None = None,
    ) -> None:
        super().__init__()
        if executor not in EXECUTORS:
            raise ValueError(
                f"unknown executor '{executor}' (expected one of {', '.join(EXECUTORS)})"
            )
        self.progress = progress
        self.hw_name = hw_name
        self.target = hw.load(hw_name)
        self.sanitizer = sanitizer
        self.executor = executor
        self.timed = timed
        self.budget = Budget(max_iterations) if budget is None else budget
        """The loop iterations the run has left, shared by every core
        (``runtime/machine/budget.py``; ``budget``, when given, instead of ``max_iterations``)."""
        self.costs: list[CostReport] = []
        """With ``timed``, the cost of every launch run so far (``runtime/cost/report.py``)."""
        self.core: Machine | None = None
        self._static: dict[Operation, object] = {}

    def _core(self) -> Machine:
        if self.core is None:
            raise RuntimeError("hardware-level op executed outside an ascend.launch")
        return self.core

    # -- op level ---------------------------------------------------------------------------

    @impl(Conv3DBackpropFilterOp)
    def run_conv(
        self, interpreter: Interpreter, op: Conv3DBackpropFilterOp, args: PythonValues
    ) -> PythonValues:
        x, dy = args
        p = shape_of_conv_op(op)
        on_gm = isinstance(x, GmTensor)
        xa = from_gm(x) if on_gm else x
        dya = from_gm(dy) if on_gm else dy
        cout, cin_g, kd, kh, kw = op.result.type.get_shape()  # type: ignore[union-attr]
        dw = conv3d_weight_reference(
            xa, dya, (cout, cin_g, kd, kh, kw), p.strides, p.pads, p.dilations, p.groups
        )
        if on_gm:
            return (to_gm(cast(GmTensorType, op.result.type), dw, p.groups),)
        return (dw,)

    @impl(Conv3DOp)
    def run_conv3d(
        self, interpreter: Interpreter, op: Conv3DOp, args: PythonValues
    ) -> PythonValues:
        p = shape_of_conv3d_op(op)
        on_gm = isinstance(args[0], GmTensor)
        x, w, *bias = (from_gm(a) if on_gm else a for a in args)
        y = conv3d_reference(
            x, w, bias[0] if bias else None, p.strides, p.pads, p.dilations, p.groups
        )
        y = y.astype(np_dtype(op.result.type.element_type))  # type: ignore[union-attr]
        if on_gm:
            return (to_gm(cast(GmTensorType, op.result.type), y),)
        return (y,)

    @impl(Conv3DBackpropInputOp)
    def run_conv3d_input(
        self, interpreter: Interpreter, op: Conv3DBackpropInputOp, args: PythonValues
    ) -> PythonValues:
        p = shape_of_conv3d_input_op(op)
        on_gm = isinstance(args[0], GmTensor)
        dy, w = (from_gm(a) if on_gm else a for a in args)
        dx = conv3d_input_reference(p.input_shape, w, dy, p.strides, p.pads, p.dilations, p.groups)
        dx = dx.astype(np_dtype(op.result.type.element_type))  # type: ignore[union-attr]
        if on_gm:
            return (to_gm(cast(GmTensorType, op.result.type), dx),)
        return (dx,)

    # -- format level / host ----------------------------------------------------------------

    @impl(TransDataOp)
    def run_trans_data(
        self, interpreter: Interpreter, op: TransDataOp, args: PythonValues
    ) -> PythonValues:
        (src,) = args
        if isinstance(op.result.type, GmTensorType):
            groups = groups_of(op.result.type)
            arr = np.asarray(src, dtype=np_dtype(op.result.type.element_type))
            return (to_gm(op.result.type, arr, groups),)
        assert isinstance(op.result.type, MemRefType)
        return (from_gm(src).astype(np_dtype(op.result.type.element_type), copy=False),)

    @impl(launch.AllocGmOp)
    def run_alloc_gm(
        self, interpreter: Interpreter, op: launch.AllocGmOp, args: PythonValues
    ) -> PythonValues:
        t = op.result.type
        assert isinstance(t, GmTensorType)
        return (zeros_gm(t),)

    @impl(launch.EmptyGmOp)
    def run_empty_gm(
        self, interpreter: Interpreter, op: launch.EmptyGmOp, args: PythonValues
    ) -> PythonValues:
        t = op.result.type
        assert isinstance(t, GmTensorType)
        return (empty_gm(t),)

    @impl(launch.LaunchOp)
    def run_launch(
        self, interpreter: Interpreter, op: launch.LaunchOp, args: PythonValues
    ) -> PythonValues:
        callee = op.callee.string_value()
        kernel = None
        if self.executor == "compiled":
            kernel = compiled.kernel_of(interpreter.module, callee, self.target, self.timed)
        report = None
        if self.timed:
            report = new_report(op, self.hw_name, cost_figures(self.hw_name), args)

        pool = CorePool()
        if self.sanitizer is not None:
            self.sanitizer.new_launch()

        bounded: dict[Any, Any] = {}  # the bounds check's memo, shared by the cores

        if replay.replaying(kernel, self.timed, self.sanitizer):
            assert kernel is not None
            blocks = op.blocks.value.data
            replayer = replay.Replayer(
                kernel, args, self.target, self.budget, pool, bounded, blocks
            )
            run_blocks(op, blocks, self.budget, replayer.make, replayer.run, None, self.progress)
            replayer.flush()  # the cores still pending
            return ()

        def make(block: int, timeline: Timeline | None) -> Machine:
            core = Core(block, self.target, self.sanitizer, timeline, self.budget, pool)
            core.share_bounds(bounded)
            return core

        def run(core: Machine) -> None:
            if kernel is not None:
                kernel.run(core, args)
                return
            self.core = core
            try:
                interpreter.call_op(callee, args)
            finally:
                self.core = None

        run_blocks(op, op.blocks.value.data, self.budget, make, run, report, self.progress)
        if report is not None:
            self.costs.append(report)
        return ()

    # -- hardware level ---------------------------------------------------------------------

    @impl(hw_level.GetBlockIdxOp)
    def run_get_block_idx(
        self, interpreter: Interpreter, op: hw_level.GetBlockIdxOp, args: PythonValues
    ) -> PythonValues:
        return (self._core().block_idx,)

    @impl(hw_level.AllocBufferOp)
    def run_alloc_buffer(
        self, interpreter: Interpreter, op: hw_level.AllocBufferOp, args: PythonValues
    ) -> PythonValues:
        core = self._core()
        spec = self._static.get(op)
        if spec is None:
            spec = self._static[op] = buffer_spec(op, self.target)
        return (core.alloc_buffer(cast(BufferSpec, spec)),)

    def run_instruction(
        self, interpreter: Interpreter, op: hw_level.HwOp, args: PythonValues
    ) -> PythonValues:
        """Every hardware instruction: the machine's handler of the op's spec, given the op,
        its static properties (taken once per op) and its operands."""
        spec = op.SPEC
        assert spec is not None
        static = self._static.get(op)
        if static is None:
            static = self._static[op] = spec.static(op)
        if len(args) < len(spec.operands):
            # Absent optional operands (an mmad without a bias) are None, in the spec's order.
            present = iter(args)
            args = tuple(
                None if getattr(op, name) is None else next(present) for name in spec.operands
            )
        self._core().handler(spec)(op, *cast(tuple[Any, ...], static), *args)
        return ()

    # -- API level (tile granularity) -------------------------------------------------------

    @impl(api_level.CreateOp)
    def run_create(
        self, interpreter: Interpreter, op: api_level.CreateOp, args: PythonValues
    ) -> PythonValues:
        return (api_sim.ApiObject(),)

    @impl(api_level.InitOp)
    def run_init(
        self, interpreter: Interpreter, op: api_level.InitOp, args: PythonValues
    ) -> PythonValues:
        api_sim.init(args[0], op.tiling.tiling)
        return ()

    @impl(api_level.SetGradOutputOp)
    def run_set_grad_output(
        self, interpreter: Interpreter, op: api_level.SetGradOutputOp, args: PythonValues
    ) -> PythonValues:
        api_sim.set_grad_output(*args)
        return ()

    @impl(api_level.SetInputOp)
    def run_set_input(
        self, interpreter: Interpreter, op: api_level.SetInputOp, args: PythonValues
    ) -> PythonValues:
        api_sim.set_input(*args)
        return ()

    @impl(api_level.SetSingleShapeOp)
    def run_set_single_shape(
        self, interpreter: Interpreter, op: api_level.SetSingleShapeOp, args: PythonValues
    ) -> PythonValues:
        api_sim.set_single_shape(*args)
        return ()

    @impl(api_level.SetStartPositionOp)
    def run_set_start_position(
        self, interpreter: Interpreter, op: api_level.SetStartPositionOp, args: PythonValues
    ) -> PythonValues:
        api_sim.set_start_position(*args)
        return ()

    @impl(api_level.IterateOp)
    def run_iterate(
        self, interpreter: Interpreter, op: api_level.IterateOp, args: PythonValues
    ) -> PythonValues:
        return (api_sim.iterate(args[0]),)

    @impl(api_level.GetTensorCOp)
    def run_get_tensor_c(
        self, interpreter: Interpreter, op: api_level.GetTensorCOp, args: PythonValues
    ) -> PythonValues:
        api_sim.get_tensor_c(*args, op.atomic is not None)
        return ()

    @impl(api_level.EndOp)
    def run_end(
        self, interpreter: Interpreter, op: api_level.EndOp, args: PythonValues
    ) -> PythonValues:
        api_sim.end(args[0])
        return ()


# One implementation for every instruction op, registered under each op type (xDSL's ``impl``
# keys an implementation by its op class).
for _spec, _op in hw_level.INSTRUCTION_OPS.items():
    setattr(AscendFunctions, f"run_{_spec.name}", impl(_op)(AscendFunctions.run_instruction))
register_impls(AscendFunctions)  # it registers on the class itself and returns it


@register_impls
class BudgetedScfFunctions(InterpreterFunctions):
    """xDSL's ``scf.for`` and ``scf.condition``, drawing on the run's budget (the host
    function's loops, and the kernels' with ``executor="interp"``): an ``scf.for`` takes its
    trip count at its entry, an ``scf.while`` one iteration per ``scf.condition``. Registered
    over ``ScfFunctions``, not as a listener, so that the other ops pay nothing."""

    def __init__(self, budget: Budget) -> None:
        super().__init__()
        self.budget = budget

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues) -> PythonValues:
        lb, ub, step, *carried = args
        self.budget.take(len(range(lb, ub, step)), op)
        values = tuple(carried)
        for i in range(lb, ub, step):  # as xDSL's ScfFunctions.run_for
            values = interpreter.run_ssacfg_region(op.body, (i, *values), "for_loop")
        return values

    @impl_terminator(scf.ConditionOp)
    def run_condition(
        self, interpreter: Interpreter, op: scf.ConditionOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        self.budget.take(1, op.parent_op() or op)
        return ReturnedValues(args), ()


class ScalarCounter(Interpreter.Listener):
    """Counts the index arithmetic the interpreter runs inside a kernel, for the timing backend
    (the compiled executor counts the same ops in its generated code)."""

    def __init__(self, functions: AscendFunctions) -> None:
        self.functions = functions

    def will_interpret_op(self, op: Operation, args: PythonValues) -> None:
        core = self.functions.core
        if (
            core is not None
            and op.dialect_name() == "arith"
            and not isinstance(op, arith.ConstantOp)
        ):
            core.scalar(1)

    def did_interpret_op(self, op: Operation, results: PythonValues) -> None:
        pass


def make_interpreter(
    module: ModuleOp,
    hw_name: str = hw.DEFAULT_HW,
    sanitizer: Sanitizer | None = None,
    progress: bool = True,
    executor: str = "compiled",
    timed: bool = False,
    max_iterations: int | None = None,
) -> Interpreter:
    """An interpreter for ``module`` with the stock func/scf/arith/builtin/memref functions and
    the ascend ones; with a ``sanitizer``, every hardware access is checked for hazards; with
    ``progress``, long launches show a progress line on a terminal; ``executor`` chooses how
    launched kernels run (``EXECUTORS``); with ``timed``, every launch is timed by the cost model
    (see :func:`build_interpreter` for its reports)."""
    return build_interpreter(module, hw_name, sanitizer, progress, executor, timed, max_iterations)[
        0
    ]


def build_interpreter(
    module: ModuleOp,
    hw_name: str = hw.DEFAULT_HW,
    sanitizer: Sanitizer | None = None,
    progress: bool = True,
    executor: str = "compiled",
    timed: bool = False,
    max_iterations: int | None = None,
    budget: Budget | None = None,
) -> tuple[Interpreter, AscendFunctions]:
    """:func:`make_interpreter`, and the :class:`AscendFunctions` it registered, whose
    ``costs`` are the cost reports of the launches run (with ``timed``). The run may take
    ``max_iterations`` loop iterations (``runtime/machine/budget.py``; None: the default), or
    draws on ``budget`` when one is given (its time limit and progress line too)."""
    interpreter = Interpreter(module)
    functions = AscendFunctions(
        hw_name, sanitizer, progress, executor, timed, max_iterations, budget
    )
    for fns in (
        FuncFunctions(),
        ScfFunctions(),
        ArithFunctions(),
        BuiltinFunctions(),
        MemRefFunctions(),
        functions,
    ):
        interpreter.register_implementations(fns)
    interpreter.register_implementations(ExtraArithFunctions(), override=True)
    interpreter.register_implementations(BudgetedScfFunctions(functions.budget), override=True)
    if timed and executor == "interp":
        interpreter.listeners = (*interpreter.listeners, ScalarCounter(functions))
    return interpreter, functions
