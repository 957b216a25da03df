"""Execution of the lowered dW kernel by the interpreter, against runtime/reference.py, and what
the host's allocations give a kernel that leaves its output unwritten.

The tolerance is the runtime's own (runtime/reports/check.py): both sides form every product exactly
and round only while summing in float32, so the result is compared with the exact (float64) sum
within the probabilistic rounding bound 4·u·sqrt(n)·sum|x·dy| per element, which a misplaced or
missing product or tile exceeds.
"""

from __future__ import annotations

from dataclasses import replace

import ml_dtypes
import numpy as np
import pytest
from xdsl.parser import Parser

from ascend_xdsl.dialects.hw_level import AllocBufferOp
from ascend_xdsl.lowering.pipeline import make_context
from ascend_xdsl.runtime.api import compiled_levels, problem_of, run_conv3d_weight
from ascend_xdsl.runtime.executors.interpreter import EXECUTORS, make_interpreter
from ascend_xdsl.runtime.machine.memory import MemoryAccessError
from ascend_xdsl.runtime.reference import conv3d_weight_reference
from ascend_xdsl.runtime.reports.check import check


def _data(
    x_shape: tuple[int, ...], dy_shape: tuple[int, ...], dtype: type = np.float16
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    x = rng.standard_normal(x_shape).astype(dtype)
    dy = rng.standard_normal(dy_shape).astype(dtype)
    return x, dy


def _dy_shape(
    x_shape: tuple[int, ...],
    w: tuple[int, ...],
    s: tuple[int, ...],
    p6: tuple[int, ...],
    d: tuple[int, ...],
) -> tuple[int, ...]:
    sp = tuple(
        (x_shape[2 + a] + p6[2 * a] + p6[2 * a + 1] - d[a] * (w[2 + a] - 1) - 1) // s[a] + 1
        for a in range(3)
    )
    return (x_shape[0], w[0], *sp)


def _check(got: np.ndarray, problem, x: np.ndarray, dy: np.ndarray) -> float:
    """The runtime's own check (runtime/reports/check.py: exact reference, derived tolerance)."""
    result = check(problem, x, dy, got)
    assert result.ok, result.describe()
    return result.max_abs_error


def _run(
    x_shape: tuple[int, ...],
    w: tuple[int, int, int, int, int],
    stride: tuple[int, int, int] = (1, 1, 1),
    pads: tuple[int, ...] = (0,) * 6,
    dilation: tuple[int, int, int] = (1, 1, 1),
    groups: int = 1,
    dtype: type = np.float16,
    level: str = "hw",
    **kw: object,
) -> float:
    """Run with both executors: the compiled one must give the interpreter's dW bit for bit."""
    x, dy = _data(x_shape, _dy_shape(x_shape, w, stride, pads, dilation), dtype)
    results = [
        run_conv3d_weight(
            x,
            w,
            dy,
            stride,
            pads,
            dilation,
            groups,
            level=level,
            executor=executor,
            **kw,  # type: ignore[arg-type]
        )
        for executor in EXECUTORS
    ]
    compiled, interp = (r.grad_weight for r in results)
    assert np.array_equal(compiled.view(np.uint32), interp.view(np.uint32))
    return _check(compiled, results[0].problem, x, dy)


DEFAULT_X = (2, 64, 8, 28, 28)
DEFAULT_W = (64, 64, 3, 3, 3)


@pytest.mark.parametrize("cores", [1, 4, 24])
def test_default_layer_hw(cores: int) -> None:
    _run(DEFAULT_X, DEFAULT_W, pads=(1,) * 6, cores=cores)


SHAPES: dict[str, dict[str, object]] = {
    "small": dict(x_shape=(1, 16, 3, 6, 6), w=(16, 16, 2, 3, 3)),
    "stride2": dict(x_shape=(1, 16, 5, 9, 9), w=(16, 16, 3, 3, 3), stride=(2, 2, 2)),
    "asym_pad6": dict(x_shape=(1, 16, 4, 7, 7), w=(16, 16, 2, 3, 3), pads=(1, 0, 2, 1, 0, 1)),
    "dilation2": dict(x_shape=(1, 16, 5, 9, 9), w=(16, 16, 2, 3, 3), dilation=(2, 2, 2)),
    "groups2": dict(x_shape=(1, 32, 3, 6, 6), w=(32, 16, 2, 3, 3), groups=2),
    "depthwise": dict(x_shape=(1, 16, 3, 6, 6), w=(16, 1, 2, 3, 3), groups=16),
    "cin20": dict(x_shape=(1, 20, 3, 6, 6), w=(16, 20, 2, 3, 3), pads=(1,) * 6),
    "cout20": dict(x_shape=(1, 16, 3, 6, 6), w=(20, 16, 1, 3, 3)),
    "kd1": dict(x_shape=(2, 16, 3, 6, 6), w=(16, 16, 1, 3, 3)),
    "kd3": dict(x_shape=(1, 16, 4, 6, 6), w=(16, 16, 3, 1, 1)),
    "howo_not16": dict(x_shape=(1, 16, 2, 7, 5), w=(16, 16, 1, 3, 3), pads=(0, 0, 1, 1, 1, 1)),
    "bf16": dict(x_shape=(1, 16, 3, 6, 6), w=(16, 16, 2, 3, 3), dtype=ml_dtypes.bfloat16),
    "order_n": dict(
        x_shape=(1, 32, 3, 8, 8), w=(32, 32, 2, 3, 3), pads=(1,) * 6, override="iterate_order=1"
    ),
    "order_m": dict(
        x_shape=(1, 32, 3, 8, 8), w=(32, 32, 2, 3, 3), pads=(1,) * 6, override="iterate_order=0"
    ),
    # Every input row of the only K block lies in the top padding: nothing is copied and the
    # img2col reads zeros (l1_h 0).
    "all_rows_padding": dict(
        x_shape=(1, 16, 1, 1, 1), w=(16, 16, 1, 1, 1), stride=(1, 2, 1), pads=(0, 0, 1, 0, 0, 0)
    ),
    # kD fused into N: depth padding clips the kd rows of the first and last output depths.
    "fused_dk": dict(x_shape=(1, 20, 5, 6, 6), w=(24, 20, 3, 3, 3), pads=(1,) * 6, dk="fused"),
    "fused_dk_stride2": dict(
        x_shape=(2, 16, 7, 5, 5),
        w=(16, 16, 3, 2, 2),
        stride=(2, 1, 1),
        pads=(2, 0, 0, 0, 1, 1),
        dk="fused",
    ),
    # Ho*Wo = 64*64 positions: K does not fit the A1/B1 slots, so both sides stream through L1.
    "tall_streaming_k": dict(
        x_shape=(1, 16, 1, 64, 64), w=(16, 16, 1, 3, 3), pads=(0, 0, 1, 1, 1, 1)
    ),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shape_matrix_hw(name: str) -> None:
    _run(**SHAPES[name], cores=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["small", "groups2", "stride2", "cin20"])
def test_shape_matrix_multicore(name: str) -> None:
    _run(**SHAPES[name], cores=4)  # type: ignore[arg-type]


A3 = "atlas-a3-9362"
"""The Atlas A3 part furthest from the default 910B2: 20 cores at 1.5 GHz and a 168 MiB L2."""


A3_SHAPES = [
    *("groups2", "fused_dk_stride2", "dilation2", "bf16", "cin20", "order_m", "tall_streaming_k")
]
"""Layers of the matrix that cover its axes (groups, fused Dk with strides and padding,
dilations, bf16, channel tails, the M iterate order, K streaming); the whole matrix on A3 would
add ~12 s to the suite."""


@pytest.mark.parametrize("name", A3_SHAPES)
def test_shape_matrix_a3(name: str) -> None:
    """The matrix compiled for an Atlas A3 part on every one of its cores (its own core split),
    run by the default executor and checked against the reference."""
    spec = dict(SHAPES[name])
    x_shape, w = spec.pop("x_shape"), spec.pop("w")
    stride, pads = spec.pop("stride", (1, 1, 1)), spec.pop("pads", (0,) * 6)
    dilation, groups = spec.pop("dilation", (1, 1, 1)), spec.pop("groups", 1)
    dtype = spec.pop("dtype", np.float16)
    x, dy = _data(x_shape, _dy_shape(x_shape, w, stride, pads, dilation), dtype)  # type: ignore[arg-type]
    result = run_conv3d_weight(
        x,
        w,
        dy,
        stride,
        pads,
        dilation,
        groups,
        hw=A3,
        cost=False,
        **spec,  # type: ignore[arg-type]
    )
    _check(result.grad_weight, result.problem, x, dy)


@pytest.mark.parametrize("level", ["format", "api"])
@pytest.mark.parametrize("name", ["small", "groups2", "asym_pad6", "cin20", "order_n"])
def test_upper_levels(level: str, name: str) -> None:
    _run(**SHAPES[name], level=level, cores=2)  # type: ignore[arg-type]


def _modules_with_moved_buffer():
    x_shape, w = (1, 32, 3, 8, 8), (32, 32, 2, 3, 3)
    x, dy = _data(x_shape, _dy_shape(x_shape, w, (1, 1, 1), (1,) * 6, (1, 1, 1)))
    p = problem_of(x, w, dy, 1, 1, 1, 1)
    # A private copy: the tests below corrupt the buffer plan.
    levels = {
        k: m.clone() for k, m in compiled_levels(p, "atlas-a2-910b2", "heuristic", 1, "").items()
    }
    return levels, None, x, dy, p


@pytest.mark.parametrize("executor", EXECUTORS)
def test_wrong_buffer_plan_is_detected(executor: str) -> None:
    """Also shows that the compiled executor never runs an edited kernel stale: the same module
    runs once with the right plan, then again after the edit."""
    levels, _, x, dy, p = _modules_with_moved_buffer()
    hw_module = levels["hw"]  # type: ignore[index]
    ref = conv3d_weight_reference(x, dy, p.weight_shape, p.strides, p.pads, p.dilations, p.groups)
    # Correct plan first.
    (good,) = make_interpreter(hw_module, executor=executor).call_op("conv3d_bp_filter", (x, dy))
    _check(good, p, x, dy)
    allocs = [op for op in hw_module.walk() if isinstance(op, AllocBufferOp)]
    b1 = next(a for a in allocs if str(a.buffer_type.tposition) == "B1")
    a1 = next(a for a in allocs if str(a.buffer_type.tposition) == "A1")
    # Move B1 onto A1: the x rows overwrite the dy rows in L1.
    b1.offset = a1.offset
    try:
        (bad,) = make_interpreter(hw_module, executor=executor).call_op("conv3d_bp_filter", (x, dy))
    except MemoryAccessError:
        return
    assert float(np.abs(bad - ref).max()) > 1.0


@pytest.mark.parametrize("executor", EXECUTORS)
def test_out_of_bounds_plan_raises(executor: str) -> None:
    levels, _, x, dy, _p = _modules_with_moved_buffer()
    hw_module = levels["hw"]  # type: ignore[index]
    allocs = [op for op in hw_module.walk() if isinstance(op, AllocBufferOp)]
    co1 = next(a for a in allocs if str(a.buffer_type.tposition) == "CO1")
    from xdsl.dialects.builtin import IntegerAttr, i64

    co1.offset = IntegerAttr(131072 - 64, i64)  # past the end of L0C
    with pytest.raises(MemoryAccessError):
        make_interpreter(hw_module, executor=executor).call_op("conv3d_bp_filter", (x, dy))


@pytest.mark.parametrize("executor", EXECUTORS)
def test_unplanned_buffer_raises(executor: str) -> None:
    levels, _, x, dy, _p = _modules_with_moved_buffer()
    hw_module = levels["hw"]  # type: ignore[index]
    alloc = next(op for op in hw_module.walk() if isinstance(op, AllocBufferOp))
    alloc.offset = None
    with pytest.raises(RuntimeError, match="no planned offset"):
        make_interpreter(hw_module, executor=executor).call_op("conv3d_bp_filter", (x, dy))


def test_the_cost_comes_with_the_hw_level_only_and_on_request() -> None:
    x, dy = _data((1, 16, 3, 6, 6), (1, 16, 2, 4, 4))
    timed = run_conv3d_weight(x, (16, 16, 2, 3, 3), dy)
    assert timed.cost is not None and timed.cost.cycles > 0
    assert run_conv3d_weight(x, (16, 16, 2, 3, 3), dy, cost=False).cost is None
    assert run_conv3d_weight(x, (16, 16, 2, 3, 3), dy, level="api").cost is None
    untimed = run_conv3d_weight(x, (16, 16, 2, 3, 3), dy, cost=False).grad_weight
    assert np.array_equal(timed.grad_weight, untimed)


def test_conv3d_weight_takes_the_executor() -> None:
    from ascend_xdsl.runtime import conv3d_weight

    x, dy = _data((1, 16, 3, 6, 6), (1, 16, 2, 4, 4))
    results = [conv3d_weight(x, (16, 16, 2, 3, 3), dy, executor=e) for e in EXECUTORS]
    assert np.array_equal(results[0], results[1])
    with pytest.raises(ValueError, match="unknown executor 'jit'"):
        conv3d_weight(x, (16, 16, 2, 3, 3), dy, executor="jit")


def test_problem_is_a_value() -> None:
    x, dy = _data((1, 16, 3, 6, 6), (1, 16, 2, 4, 4))
    p = problem_of(x, (16, 16, 2, 3, 3), dy, 1, 0, 1, 1)
    assert replace(p) == p and hash(p) == hash(replace(p))


def test_bad_arguments_are_one_line_errors() -> None:
    x, dy = _data((1, 16, 3, 6, 6), (1, 16, 2, 4, 4))
    with pytest.raises(ValueError, match="grad_output shape"):
        problem_of(x, (16, 16, 2, 3, 3), dy[:, :, :1], 1, 0, 1, 1)
    with pytest.raises(TypeError, match="float16 or bfloat16"):
        problem_of(x.astype(np.float32), (16, 16, 2, 3, 3), dy, 1, 0, 1, 1)


def test_default_layer_api() -> None:
    _run(DEFAULT_X, DEFAULT_W, pads=(1,) * 6, cores=24, level="api")


def test_integer_inputs_are_computed_exactly() -> None:
    """With small integers every float32 sum is exact in any order, so the hardware program must
    give the exact dW bit for bit (runtime.check.is_exact): a K stream of 4096 positions through
    L1, on two cores."""
    x_shape, w = (1, 16, 1, 64, 64), (32, 16, 1, 3, 3)
    rng = np.random.default_rng(5)
    x = rng.integers(-2, 3, x_shape).astype(np.float16)
    dy = rng.integers(-2, 3, _dy_shape(x_shape, w, (1, 1, 1), (0, 0, 1, 1, 1, 1), (1, 1, 1)))
    dy = dy.astype(np.float16)
    exact = conv3d_weight_reference(x, dy, w, (1, 1, 1), (0, 0, 1, 1, 1, 1), accumulate=np.float64)
    for executor in EXECUTORS:
        result = run_conv3d_weight(x, w, dy, 1, (0, 0, 1, 1, 1, 1), cores=2, executor=executor)
        assert np.array_equal(result.grad_weight, exact)
    assert check(result.problem, x, dy, result.grad_weight).tolerance == 0.0


def test_a_core_whose_rows_are_all_bottom_padding() -> None:
    """K split over 3 cores of Ho = 3 rows, stride 2, pad_down 2: the last core's only row reads
    input row 4 of 3, so its K block copies nothing and contributes nothing."""
    _run(
        (1, 16, 1, 3, 4),
        (16, 16, 1, 1, 1),
        stride=(1, 2, 1),
        pads=(0, 0, 0, 2, 0, 0),
        cores=3,
        override="k_dim=3 single_core_ho=1",
    )


@pytest.mark.parametrize("dk", ["separate", "fused"])
def test_every_output_depth_reads_only_padding(dk: str) -> None:
    """Do = 1 at depth -1 (stride 2, pad_front 1): no single shape has work, dW is all zeros and
    the kernel is just Init/End (found by fuzzing: the dead API calls used to stay behind)."""
    x, dy = _data((1, 16, 1, 3, 3), (1, 16, 1, 3, 3))
    result = run_conv3d_weight(x, (16, 16, 1, 1, 1), dy, (2, 1, 1), (1, 0, 0, 0, 0, 0), dk=dk)
    assert not result.grad_weight.any()


_UNWRITTEN = """
func.func @idle(%y: !ascend.gm_tensor<NDC1HWC0, 1x16x2x2x2xT>) attributes {ascend.kernel} {
  func.return
}
func.func @host() -> memref<1x16x2x2x2xT> {
  %y5 = ascend.ALLOC : !ascend.gm_tensor<NDC1HWC0, 1x16x2x2x2xT>
  ascend.launch @idle blocks 2 (%y5) : !ascend.gm_tensor<NDC1HWC0, 1x16x2x2x2xT>
  %y = ascend.trans_data %y5 : !ascend.gm_tensor<NDC1HWC0, 1x16x2x2x2xT> -> memref<1x16x2x2x2xT>
  func.return %y : memref<1x16x2x2x2xT>
}
"""


@pytest.mark.parametrize("executor", EXECUTORS)
@pytest.mark.parametrize(
    ("alloc", "element", "want"),
    [
        ("empty_gm", "f16", np.nan),
        ("empty_gm", "bf16", np.nan),
        ("empty_gm", "f32", np.nan),
        ("empty_gm", "i32", 0),
        ("alloc_gm", "f16", 0),
    ],
)
def test_an_unwritten_output_shows(executor: str, alloc: str, element: str, want: float) -> None:
    """What a kernel leaves unwritten: NaN in an ascend.empty_gm tensor (uninitialised on the
    chip; zero for an integer type, which has no NaN), zero in an ascend.alloc_gm one (zeroed),
    whichever executor runs the launch. The forward and dX tests rely on it: their outputs are
    empty_gm, so an element their kernels miss fails the comparison."""
    text = _UNWRITTEN.replace("ALLOC", alloc).replace("xT", f"x{element}")
    module = Parser(make_context(), text).parse_module()
    module.verify()
    (y,) = make_interpreter(module, executor=executor, progress=False).call_op("host", ())
    y = np.asarray(y, dtype=np.float64)
    assert y.shape == (1, 16, 2, 2, 2)
    if np.isnan(want):
        assert np.isnan(y).all()
    else:
        assert (y == want).all()
