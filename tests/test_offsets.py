"""The GM offset formulas agree everywhere they are evaluated.

The NDC1HWC0 and FRACTAL_Z_3D offsets and the input-row origin are written once
(``dialects/formats.py``, ``dialects/dw_tiling_offsets.py``) over an ``IndexArith``. For several
problems (groups, fused Dk, strides, padding) and their real tilings, these tests evaluate them
(a) on ints and numpy arrays, (b) against the numpy layout conversions: the element stored at a
computed offset is the logical element it names, and (c) into the lowering's IR
(``index_arith.IDX_ARITH``) with dynamic SSA inputs, evaluated by a small arith evaluator: all
three give the same numbers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, SSAValue

from ascend_xdsl import hw
from ascend_xdsl.dialects import formats as F
from ascend_xdsl.dialects.conv_shape import C0, ConvBpFilterShape
from ascend_xdsl.dialects.dw_tiling import (
    DwTiling,
)
from ascend_xdsl.dialects.dw_tiling_offsets import (
    fixpipe_dst_stride,
    grad_output_element,
    grad_output_strides,
    input_element,
    input_start_row,
    input_strides,
    tensor_c_offset,
    weight_strides,
)
from ascend_xdsl.lowering.index_arith import IDX_ARITH
from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling
from ascend_xdsl.runtime.machine import semantics as instructions

INT = F.INT_ARITH
RNG = np.random.default_rng(7)


@dataclass(frozen=True)
class Problem:
    shape: ConvBpFilterShape
    tiling: DwTiling

    @property
    def groups(self) -> int:
        return self.shape.groups

    @property
    def mag(self) -> int:
        return self.shape.group_enlargement.mag_factor


def _problem(
    x: tuple[int, ...], w: tuple[int, ...], cores: int = 1, fused: bool = False, **kw: object
) -> Problem:
    shape = ConvBpFilterShape.from_shapes(x, w, **kw)
    return Problem(shape, heuristic_tiling(shape, hw.load(), cores, fuse_dk=fused))


PROBLEMS = {
    "groups2-stride2-pad": lambda: _problem(
        (2, 48, 4, 9, 9), (32, 24, 2, 3, 3), 6, groups=2, strides=(2, 2, 2), pads=(1,) * 6
    ),
    "depthwise-pad": lambda: _problem(
        (1, 32, 3, 10, 10), (32, 1, 3, 3, 3), 4, groups=32, pads=(1,) * 6
    ),
    "fused-dk-stride2": lambda: _problem(
        (2, 16, 5, 8, 8), (32, 16, 3, 3, 3), 8, fused=True, strides=(2, 2, 2), pads=(1,) * 6
    ),
    "odd-channels-asym-pad": lambda: _problem(
        (1, 20, 3, 9, 9), (24, 20, 2, 3, 3), strides=(1, 2, 2), pads=(1, 0, 2, 0, 1, 2)
    ),
}


@pytest.fixture(params=sorted(PROBLEMS), scope="module")
def problem(request: pytest.FixtureRequest) -> Problem:
    return PROBLEMS[request.param]()


def _data(shape: tuple[int, ...]) -> np.ndarray:
    # Distinct values (as float64: up to 2**53 exact) so that a wrong offset cannot hit an
    # equal element by accident.
    return np.arange(1, int(np.prod(shape)) + 1, dtype=np.float64).reshape(shape)


def _tensors(p: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    s = p.shape
    x = _data((s.batch, s.cin, s.di, s.hi, s.wi))
    dy = _data((s.batch, s.cout, s.dout, s.ho, s.wo))
    w = _data((s.cout, s.cin // s.groups, s.kd, s.kh, s.kw))
    return x, dy, w


def _sample(n: int, *sizes: int) -> list[np.ndarray]:
    return [RNG.integers(0, size, n) for size in sizes]


# ------------------------------------------------------------------ (a) + (b): ints vs layouts


def test_tiling_strides_are_the_storage_strides(problem):
    """The strides the lowering reads from the tiling are those of the converted arrays."""
    p, t = problem, problem.tiling
    x, dy, w = _tensors(p)
    for arr, strides in ((x, input_strides(t)), (dy, grad_output_strides(t))):
        stored = F.ncdhw_to_ndc1hwc0(arr, C0)
        expect = tuple(b // stored.itemsize for b in stored.strides[:5])
        assert (strides.n, strides.d, strides.c1, strides.h, strides.w) == expect
    fz = F.oihw_to_fractal_z_3d(w, p.groups, C0)
    ws = weight_strides(t)
    # The 4-D storage's first axis is the rows (G, kd, c1, kh, kw): kw is one row.
    assert ws.kw == fz.strides[0] // fz.itemsize
    assert ws.co * 16 == fz.strides[1] // fz.itemsize
    rows = p.shape.kd * t.cin1_g * p.shape.kh * p.shape.kw
    assert ws.g * (fz.shape[0] // rows) == fz.size


def test_element_offsets_name_the_logical_elements(problem):
    """Random logical elements of x, dy and dW sit at the offsets the formulas give, for both
    the element-level functions and the block offsets with the tiling's strides."""
    p, t = problem, problem.tiling
    x, dy, w = _tensors(p)
    for arr, strides in ((x, input_strides(t)), (dy, grad_output_strides(t))):
        flat = F.ncdhw_to_ndc1hwc0(arr, C0).reshape(-1)
        n, c, d, h, ww = _sample(200, *arr.shape)
        off = F.ndc1hwc0_offset(n, c, d, h, ww, arr.shape, C0)
        np.testing.assert_array_equal(flat[off], arr[n, c, d, h, ww])
        block = F.ndc1hwc0_block_offset(INT, strides, n, d, c // C0, h, ww, c % C0)
        np.testing.assert_array_equal(block, off)
        # Python ints give the same numbers as the arrays.
        assert F.ndc1hwc0_offset(int(n[0]), int(c[0]), int(d[0]), int(h[0]), int(ww[0]),
                                 arr.shape, C0) == off[0]  # fmt: skip
    flat = F.oihw_to_fractal_z_3d(w, p.groups, C0).reshape(-1)
    co, ci, kd, kh, kw = _sample(200, *w.shape)
    off = F.fractal_z_3d_offset(co, ci, kd, kh, kw, w.shape, p.groups, C0)
    np.testing.assert_array_equal(flat[off], w[co, ci, kd, kh, kw])
    g_e, co_e, ci_e = F.enlarged_group_index(co, ci, w.shape[0] // p.groups, w.shape[1], p.mag)
    ws = weight_strides(t)
    block = F.fractal_z_3d_block_offset(INT, ws, g_e, kd, ci_e // C0, kh, kw, co_e, ci_e % C0)
    np.testing.assert_array_equal(block, off)


def _origins(p: Problem, rng: np.random.Generator) -> list[dict[str, int]]:
    """Single-shape origins as the API lowering forms them: enlarged group, batch, output depth,
    first cout / Cin1 row of the group, first Ho row, and the kd slice (separate Dk)."""
    t = p.tiling
    out = []
    for _ in range(12):
        g = int(rng.integers(0, t.group))
        group_cout = min(t.cout1_g * C0, p.shape.cout - g * p.mag * (p.shape.cout // p.groups))
        out.append(
            {
                "g": g,
                "nb": int(rng.integers(0, t.batch)),
                "do": int(rng.integers(0, t.dout)),
                "m_start": int(rng.integers(0, max(1, group_cout // C0))) * C0,
                "ho_start": int(rng.integers(0, t.ho)),
                "kd": int(rng.integers(0, t.dk)),
            }
        )
    return out


def test_single_shape_matrices_read_the_logical_elements(problem):
    """A[m, p] and the x rows of a single shape, addressed from the SetGradOutput / SetInput
    offsets the lowering forms, are the dy and x elements the GEMM needs."""
    p, t = problem, problem.tiling
    x, dy, _ = _tensors(p)
    dy_flat = F.ncdhw_to_ndc1hwc0(dy, C0).reshape(-1)
    x_flat = F.ncdhw_to_ndc1hwc0(x, C0).reshape(-1)
    cout_g, cin_g = p.shape.cout // p.groups, p.shape.cin // p.groups
    for o in _origins(p, RNG):
        g, nb, do, m_start, ho_start = o["g"], o["nb"], o["do"], o["m_start"], o["ho_start"]
        dy_off = F.ndc1hwc0_block_offset(
            INT, grad_output_strides(t), nb, do, g * t.cout1_g + m_start // C0, ho_start, 0, 0
        )
        # Rows of this group (the enlarged group's real channels) and positions from ho_start.
        # Rows of this group's real channels from m_start, positions from ho_start.
        real_cout = min(p.mag * cout_g, p.shape.cout - g * p.mag * cout_g)
        rows = np.arange(min(2 * C0, real_cout - m_start))
        pos = np.arange((t.ho - ho_start) * t.wo)
        idx = grad_output_element(INT, t, dy_off, rows[:, None], pos[None, :])
        chan = g * p.mag * cout_g + m_start + rows[:, None]
        ho, wo = ho_start + pos[None, :] // t.wo, pos[None, :] % t.wo
        logical = dy[nb, chan, do, ho, wo]
        np.testing.assert_array_equal(dy_flat[idx], logical)

        hi_start = input_start_row(INT, t, ho_start)
        assert hi_start == max(0, ho_start * t.stride_h - t.pad_up)
        din = do * t.stride_d - t.pad_front + o["kd"] * t.dilation_d
        if not 0 <= din < t.di:
            continue
        # The single shape's first Cin1 row inside the group (a core's n_start // C0).
        real_cin = min(p.mag * cin_g, p.shape.cin - g * p.mag * cin_g)
        c1_start = int(RNG.integers(0, -(-real_cin // C0)))
        x_off = F.ndc1hwc0_block_offset(
            INT, input_strides(t), nb, din, g * t.cin1_g + c1_start, hi_start, 0, 0
        )
        chans = np.arange(c1_start * C0, real_cin)[:, None, None]
        h, w = np.meshgrid(np.arange(hi_start, t.hi), np.arange(t.wi), indexing="ij")
        c1_rel = chans // C0 - c1_start
        idx = input_element(INT, t, x_off, hi_start, c1_rel, h[None], w[None], chans % C0)
        logical = x[nb, g * p.mag * cin_g + chans, din, h[None], w[None]]
        np.testing.assert_array_equal(x_flat[idx], logical)


def test_fused_dk_rows_run_on_into_the_next_depths():
    """With kD fused, a (kd, c1) row r is taken as a C1 index past cin1_g: the linear offsets
    then land on depth din0 + r // cin1_g of x and on row (kd, c1) of dW."""
    p = PROBLEMS["fused-dk-stride2"]()
    t = p.tiling
    assert t.fused_dk and p.groups == 1
    x, _, w = _tensors(p)
    x_flat = F.ncdhw_to_ndc1hwc0(x, C0).reshape(-1)
    dw_flat = F.oihw_to_fractal_z_3d(w, 1, C0).reshape(-1)
    din0 = 1 * t.stride_d - t.pad_front
    for r in range(t.dk * t.cin1_g):
        kd, c1 = divmod(r, t.cin1_g)
        if not 0 <= din0 + kd < t.di:
            continue
        off = F.ndc1hwc0_block_offset(INT, input_strides(t), 1, din0, r, 2, 3, 5)
        assert x_flat[off] == x[1, c1 * C0 + 5, din0 + kd, 2, 3]
        off = F.fractal_z_3d_block_offset(INT, weight_strides(t), 0, 0, r, 1, 2, 7, 4)
        assert dw_flat[off] == w[7, c1 * C0 + 4, kd, 1, 2]


def test_fixpipe_writes_each_tile_element_to_its_weight(problem):
    """An L0C tile written by fixpipe at tensor_c_offset with fixpipe_dst_stride lands on the
    FRACTAL_Z_3D elements of the weights its rows (cout) and columns (c1, kh, kw, c0) name.

    Also with 16 × 16 tiles, so that every problem has tiles beyond the first on both axes."""
    for t in (problem.tiling, replace(problem.tiling, base_m=16, base_n=16)):
        _check_fixpipe_tiles(problem, t)


def _check_fixpipe_tiles(p: Problem, t: DwTiling) -> None:
    s = p.shape
    fz_shape = F.fractal_z_3d_shape(s.cout, s.cin // s.groups, s.kd, s.kh, s.kw, s.groups, C0)
    ws = weight_strides(t)
    m_tiles = -(-t.cout1_g * C0 // t.base_m)
    n_total = s.kh * s.kw * t.cin1_g * C0
    for o in _origins(p, RNG)[:8]:
        g, kd = o["g"], (0 if t.fused_dk else o["kd"])
        off_c = F.fractal_z_3d_block_offset(INT, ws, g, kd, 0, 0, 0, 0, 0)
        mt, nt = int(RNG.integers(0, m_tiles)), int(RNG.integers(0, -(-n_total // t.base_n)))
        m = min(t.base_m, t.cout1_g * C0 - mt * t.base_m)
        n = min(t.base_n, n_total - nt * t.base_n)
        tile = _data((m, n)).astype(np.float32)
        gm = np.zeros(int(np.prod(fz_shape)), np.float32)
        dst = tensor_c_offset(INT, t, off_c, mt, nt)
        c_nz = F.to_nz(tile)
        instructions.fixpipe(
            c_nz.reshape(-1), gm, dst, m, n, c_nz.shape[1] * 16, fixpipe_dst_stride(t), False
        )
        r, j = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
        co_e = mt * t.base_m + r
        col = nt * t.base_n + j
        c1, ci0 = col // (s.kh * s.kw * C0), col % C0
        kh, kw = (col // (s.kw * C0)) % s.kh, (col // C0) % s.kw
        expect = F.fractal_z_3d_block_offset(INT, ws, g, kd, c1, kh, kw, co_e, ci0)
        np.testing.assert_array_equal(gm[expect], tile)
        # The diagonal entries are real weights: the element-level formula agrees.
        cout_g, cin_g = s.cout // s.groups, s.cin // s.groups
        slot, ci_e = co_e // cout_g, c1 * C0 + ci0
        real = (slot < p.mag) & (slot == ci_e // cin_g) & (g * p.mag + slot < s.groups)
        if real.any():
            co = (g * p.mag + slot) * cout_g + co_e % cout_g
            ci = ci_e - slot * cin_g
            wshape = (s.cout, cin_g, s.kd, s.kh, s.kw)
            logical = F.fractal_z_3d_offset(
                co[real], ci[real], kd, kh[real], kw[real], wshape, s.groups, C0
            )
            np.testing.assert_array_equal(logical, expect[real])


def test_fixpipe_dst_stride_is_one_fractal_z_3d_row_in_blocks(problem):
    t = problem.tiling
    # One row is cout1_g·16 fp32 of C0 = 16 channels; a block is 32 bytes (8 fp32).
    assert fixpipe_dst_stride(t) == t.cout1_g * 16 * C0 * 4 // 32


# ------------------------------------------------------------------ (c): the lowering's IR


_ARITH_EVAL: dict[type, Callable[[int, int], int]] = {
    arith.AddiOp: operator.add,
    arith.SubiOp: operator.sub,
    arith.MuliOp: operator.mul,
    arith.FloorDivSIOp: operator.floordiv,
    arith.CeilDivSIOp: lambda a, b: -(-a // b),
    arith.RemSIOp: lambda a, b: a - b * int(a / b),  # truncating, like C
    arith.MaxSIOp: max,
    arith.MinSIOp: min,
}


def _evaluate(v: SSAValue | int, env: dict[SSAValue, int]) -> int:
    """The value of an index expression built by index_arith, for block arguments ``env``."""
    if isinstance(v, int):
        return v
    if v in env:
        return env[v]
    op = v.owner
    if isinstance(op, arith.ConstantOp):
        return op.value.value.data
    a, b = (_evaluate(operand, env) for operand in op.operands)
    return _ARITH_EVAL[type(op)](a, b)


def _in_ir(fn: Callable[..., object], args: list[int], dynamic: list[bool]) -> tuple[int, Block]:
    """Evaluate ``fn(IDX_ARITH, *args)`` in the IR, the ``dynamic`` args as block arguments."""
    block = Block(arg_types=[IndexType()] * len(args))
    with ImplicitBuilder(block):
        pairs = enumerate(zip(args, dynamic, strict=True))
        ins = [block.args[i] if d else a for i, (a, d) in pairs]
        result = fn(IDX_ARITH, *ins)
    env = {block.args[i]: a for i, a in enumerate(args)}
    assert isinstance(result, int | SSAValue)
    if all(dynamic):
        assert isinstance(result, SSAValue), "a formula of dynamic inputs folded to a constant"
    return _evaluate(result, env), block


def _formulas(t: DwTiling) -> dict[str, tuple[Callable[..., object], int]]:
    """Each shared formula as ``f(ar, *coords)`` with the bound on its coordinates."""
    dy_s, x_s, ws = grad_output_strides(t), input_strides(t), weight_strides(t)
    return {
        "dy": (lambda ar, *c: F.ndc1hwc0_block_offset(ar, dy_s, *c), 6),
        "x": (lambda ar, *c: F.ndc1hwc0_block_offset(ar, x_s, *c), 6),
        "dw": (lambda ar, *c: F.fractal_z_3d_block_offset(ar, ws, *c), 7),
        "input_start_row": (lambda ar, ho: input_start_row(ar, t, ho), 1),
        "A[m, p]": (lambda ar, off, m, p: grad_output_element(ar, t, off, m, p), 3),
        "x element": (lambda ar, *c: input_element(ar, t, *c), 6),
        "tensor_c": (lambda ar, off, mt, nt: tensor_c_offset(ar, t, off, mt, nt), 3),
    }


def test_lowering_ir_computes_the_same_offsets(problem):
    """Every shared formula built into arith ops from dynamic (and partly static) inputs
    evaluates to what it gives on ints."""
    t = problem.tiling
    for name, (fn, arity) in _formulas(t).items():
        for trial in range(20):
            args = [int(a) for a in RNG.integers(0, 40, arity)]
            if name == "x element":
                args[3] = args[1] + args[3]  # h >= hi_start
            dynamic = [True] * arity if trial < 10 else list(RNG.integers(0, 2, arity) == 1)
            got, _ = _in_ir(fn, args, dynamic)
            assert got == fn(INT, *args), (name, args, dynamic)


def test_lowering_ir_folds_zero_coordinates():
    """The single-shape origins pass w = c0 = 0 (and kh = kw = ci0 = 0): the IR holds one
    multiply per dynamic coordinate and nothing for the zeros."""
    t = PROBLEMS["groups2-stride2-pad"]().tiling
    dy_s = grad_output_strides(t)
    block = Block(arg_types=[IndexType()] * 4)
    with ImplicitBuilder(block):
        F.ndc1hwc0_block_offset(IDX_ARITH, dy_s, *block.args, 0, 0)
    names = sorted(op.name for op in block.ops)
    assert names == ["arith.addi"] * 3 + ["arith.constant"] * 4 + ["arith.muli"] * 4
