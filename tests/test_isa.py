"""The instruction model (hw/isa.py): one table of limits, effects, and the machine on top.

The ISA limits live in hw/isa.toml only: lowering one of them changes what the verifier and the
simulator accept alike. The effects are checked against hand-computed byte ranges of
docs/hw-level-spec.md. The machine's decoded L0 tiles and L1 mirror are checked to leave the
memories exactly as writing every instruction's bytes at once would.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.utils.exceptions import VerifyException

from ascend_xdsl.dialects.hw_level import _limit
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.hw import isa
from ascend_xdsl.hw.instructions import DataCopy, Fixpipe, Mmad
from ascend_xdsl.runtime.machine import semantics as ins
from ascend_xdsl.runtime.machine.core import Core
from ascend_xdsl.runtime.machine.machine import BufferSpec
from ascend_xdsl.runtime.machine.values import GmTensor


def test_every_limit_has_a_source():
    for instr, fields in isa.LIMITS.items():
        for name, limit in fields.items():
            assert limit.source, (instr, name)
            assert limit.hi is None or limit.lo <= limit.hi


def test_the_simulator_reads_the_table(monkeypatch):
    monkeypatch.setitem(isa.LIMITS["mmad"], "k", isa.Limit(1, 100, None, "test"))
    Mmad.decode.cache_clear()
    try:
        a = np.zeros(4096, np.float16)
        with pytest.raises(isa.InstructionError, match=r"mmad k 128 is not in \[1, 100\]"):
            ins.mmad(a, a, np.zeros(4096, np.float32), 16, 16, 128, True)
    finally:
        Mmad.decode.cache_clear()


def test_verifier_reads_the_table(monkeypatch):
    k = arith.ConstantOp(IntegerAttr(128, IndexType())).result
    _limit(k, "mmad", "k")  # legal on the real table
    monkeypatch.setitem(isa.LIMITS["mmad"], "k", isa.Limit(1, 100, None, "test"))
    with pytest.raises(VerifyException, match=r"k must be in \[1, 100\], got 128"):
        _limit(k, "mmad", "k")


def test_effects_are_the_spec_footprints():
    g = DataCopy.decode(3, 2, 5, 1)  # 3 runs of 2 blocks, gaps 5 (GM) and 1 (L1) blocks
    e = g.effects(100, "L1", 64)
    assert e.pipe == isa.Pipe.MTE2
    assert e.reads == (isa.Span("GM", 100, 100 + (2 * 7 + 2) * 32),)
    assert e.writes == (isa.Span("L1", 64, 64 + (2 * 3 + 2) * 32),)
    m = Mmad.decode(20, 40, 10, 2)  # M1 2, N1 3, K1 1
    e = m.effects(("L0A", 0), ("L0B", 512), ("L0C", 1024), init=False)
    assert e.reads == (
        isa.Span("L0A", 0, 2 * 1 * 256 * 2),
        isa.Span("L0B", 512, 512 + 1 * 3 * 256 * 2),
        isa.Span("L0C", 1024, 1024 + 3 * 2 * 256 * 4),
    )
    assert m.effects(("L0A", 0), ("L0B", 0), ("L0C", 0), init=True).reads[-1].memory == "L0B"
    f = Fixpipe.decode(20, 32, 32, 64, True)  # 2 blocks of 20 rows
    assert f.effects("L0C", 0, 0).reads == (isa.Span("L0C", 0, (32 * 16 + 20 * 16) * 4),)
    assert f.effects("L0C", 0, 8).writes == (isa.Span("GM", 8, 8 + (64 * 8 + 20 * 16) * 4),)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
def test_owed_tiles_leave_the_bytes_as_direct_writes(dtype):
    """load3d into L0B keeps a matrix; a load2d over half of it, an mmad that reads it with
    another geometry, an owed L0C tile that a second mmad adds into, and sync() must all see
    the bytes that direct writes would have left."""
    rng = np.random.default_rng(0)
    fmap = rng.standard_normal(2 * 6 * 6 * 16).astype(np.float32).astype(dtype)
    gm_type = GmTensorType.__new__(GmTensorType)  # only .data is used by data_copy
    gm = GmTensor(gm_type, fmap)
    core = Core(0)
    dt = np.dtype(dtype)
    l1 = core.alloc_buffer(BufferSpec("L1", "B1", dt, 4096, 1, 0, 8192))
    l0b = core.alloc_buffer(BufferSpec("L0B", "B2", dt, 8192, 1, 0, 16384))
    l0a = core.alloc_buffer(BufferSpec("L0A", "A2", dt, 4096, 1, 0, 8192))
    l0c = core.alloc_buffer(BufferSpec("L0C", "CO1", np.dtype(np.float32), 4096, 1, 0, 16384))
    core.data_copy(None, gm, 0, l1, 0, 0, 1, fmap.size // 16, 0, 0)  # type: ignore[arg-type]
    st = ((3, 3), (1, 1), (1, 1), False)  # kernel, stride, dilation, transpose
    window = (6, 6, 32, 0, 64, 0, 32, 1, 1, 1, 1)  # l1_h, l1_w, ch, k0, kext, m0, mext, pads
    core.load3d(None, *st, l1, 0, 0, l0b, 0, *window)  # type: ignore[arg-type]
    # The same load written directly, as bytes.
    expect = np.zeros(8192, dt)
    geometry = dict(
        zip(
            ("l1_h", "l1_w", "channels", "k_start", "k_ext", "m_start", "m_ext"),
            window[:7],
            strict=True,
        )
    )
    ins.load3d(
        fmap, 0, expect, pad=window[7:], kernel=(3, 3), stride=(1, 1), dilation=(1, 1),
        transpose=False, **geometry,
    )  # fmt: skip
    # An mmad with k 16 of the 32 positions (K1 1): another geometry than the tile's, same N1.
    core.data_copy(None, gm, 0, l1, 0, 0, 1, 16, 0, 0)  # type: ignore[arg-type]
    a_vals = rng.standard_normal(16 * 16).astype(np.float32).astype(dtype)
    l0a.slot(0)[:256] = a_vals
    core.mmad(None, l0a, 0, l0b, 0, l0c, 0, 16, 64, 16, True)  # type: ignore[arg-type]
    c_expect = np.zeros(4096, np.float32)
    ins.mmad(a_vals, expect, c_expect, 16, 64, 16, True)
    core.mmad(None, l0a, 0, l0b, 0, l0c, 0, 16, 64, 16, False)  # type: ignore[arg-type]
    ins.mmad(a_vals, expect, c_expect, 16, 64, 16, False)  # the owed L0C tile accumulates
    core.sync()
    assert np.array_equal(l0c.slot(0)[: c_expect.size], c_expect)
    # A load2d over the first half overwrites bytes of the (now written) tile.
    core.load2d(None, False, l1, 0, 0, l0b, 0, 0, 2, 1)  # type: ignore[arg-type]
    ins.load2d(l1.slot(0), 0, expect, 0, 2, 1, False)
    core.sync()
    assert np.array_equal(l0b.slot(0).view(np.uint16), expect.view(np.uint16))


def test_a_reused_gather_follows_the_bytes_it_read():
    """The machine reuses the gather of an unchanged L1 window; a data_copy into the window
    must make the next load read the new values."""
    rng = np.random.default_rng(1)
    first = rng.standard_normal(16 * 64).astype(np.float16)
    second = rng.standard_normal(16 * 64).astype(np.float16)
    core = Core(0)
    f16 = np.dtype(np.float16)
    a1 = core.alloc_buffer(BufferSpec("L1", "A1", f16, 1024, 1, 0, 2048))
    a2 = core.alloc_buffer(BufferSpec("L0A", "A2", f16, 1024, 1, 0, 2048))
    st = ((1, 1), (1, 1), (1, 1), True)  # kernel, stride, dilation, transpose
    window = (1, 64, 16, 0, 16, 0, 64, 0, 0, 0, 0)  # the A side: 16 channels x 64 positions
    gm_type = GmTensorType.__new__(GmTensorType)
    for data in (first, first, second):
        core.data_copy(None, GmTensor(gm_type, data), 0, a1, 0, 0, 1, 64, 0, 0)  # type: ignore[arg-type]
        core.load3d(None, *st, a1, 0, 0, a2, 0, *window)  # type: ignore[arg-type]
        core.sync()
        expect = np.zeros(1024, f16)
        geometry = dict(
            zip(("l1_h", "l1_w", "channels", "k_start", "k_ext", "m_start", "m_ext"), window[:7],
                strict=True)
        )  # fmt: skip
        ins.load3d(
            data, 0, expect, pad=(0, 0, 0, 0), kernel=(1, 1), stride=(1, 1), dilation=(1, 1),
            transpose=True, **geometry,
        )  # fmt: skip
        assert np.array_equal(a2.slot(0).view(np.uint16), expect.view(np.uint16))


class _Twin:
    """A Core and the bytes direct writes would leave (the semantics functions applied to
    plain arrays), run side by side: L1 (B1) of 4096 elements, L0A, L0B and L0C."""

    def __init__(self, dtype: type) -> None:
        self.dt = np.dtype(dtype)
        self.core = Core(0)
        self.l1 = self.core.alloc_buffer(BufferSpec("L1", "B1", self.dt, 4096, 1, 0, 8192))
        self.l0a = self.core.alloc_buffer(BufferSpec("L0A", "A2", self.dt, 2048, 1, 0, 4096))
        self.l0b = self.core.alloc_buffer(BufferSpec("L0B", "B2", self.dt, 4096, 1, 0, 8192))
        f32 = np.dtype(np.float32)
        self.l0c = self.core.alloc_buffer(BufferSpec("L0C", "CO1", f32, 4096, 1, 0, 16384))
        self.bytes = {
            "l1": np.zeros(4096, self.dt),
            "l0a": np.zeros(2048, self.dt),
            "l0b": np.zeros(4096, self.dt),
            "l0c": np.zeros(4096, np.float32),
        }

    def copy(self, values: np.ndarray, dst_off: int = 0) -> None:
        gm = GmTensor(GmTensorType.__new__(GmTensorType), values.astype(self.dt))
        self.core.data_copy(None, gm, 0, self.l1, 0, dst_off, 1, values.size // 16, 0, 0)  # type: ignore[arg-type]
        self.bytes["l1"][dst_off : dst_off + values.size] = gm.data

    def load2d(self, src: int, dst: int, repeat: int, stride: int, transpose: bool) -> None:
        self.core.load2d(None, transpose, self.l1, 0, src, self.l0b, 0, dst, repeat, stride)  # type: ignore[arg-type]
        ins.load2d(self.bytes["l1"], src, self.bytes["l0b"], dst, repeat, stride, transpose)

    def mmad(self, m: int, n: int, k: int, init: bool) -> None:
        self.core.mmad(None, self.l0a, 0, self.l0b, 0, self.l0c, 0, m, n, k, init)  # type: ignore[arg-type]
        ins.mmad(self.bytes["l0a"], self.bytes["l0b"], self.bytes["l0c"], m, n, k, init)

    def check(self) -> None:
        self.core.sync()
        for name, want in self.bytes.items():
            got = getattr(self, name).slot(0)
            assert got.tobytes() == want.tobytes(), name


def _values(rng: np.random.Generator, size: int) -> np.ndarray:
    return rng.standard_normal(size).astype(np.float32)


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
def test_owed_load2d_fractals_leave_the_bytes_as_direct_writes(dtype, transpose):
    """The fractals of load2d's from the mirror stay owed and the mmad takes them as one
    matrix: one load2d of a whole B tile (the forward), one per K row with a source stride
    (dX), a later load2d over part of them (its fractals win), an mmad over fewer K rows, a
    tile only partly owed (the rest read from the bytes), a source overwritten between the
    load2d and the mmad (the mmad reads what the load2d read), and the same fractals loaded
    again after their source changed (the kept take is not reused) must all leave the
    bytes, L0C's and L0B's, that direct writes would have."""
    rng = np.random.default_rng(3)
    twin = _Twin(dtype)
    twin.copy(_values(rng, 4096))
    a = _values(rng, 2048).astype(twin.dt)
    twin.l0a.slot(0)[:] = a
    twin.bytes["l0a"][:] = a
    twin.load2d(512, 0, 6, 1, transpose)  # a whole 3 x 2 fractal B tile
    twin.mmad(32, 32, 48, True)
    for row in range(3):  # one load2d per K row, its fractals 5 apart in L1
        twin.load2d(256 * row, 512 * row, 2, 5, transpose)
    twin.mmad(32, 32, 48, False)
    twin.load2d(2560, 256, 2, 1, transpose)  # over part of two rows' fractals
    twin.mmad(32, 32, 48, False)
    twin.mmad(32, 32, 16, False)  # one K row of the same fractals
    twin.check()
    twin.load2d(3072, 0, 2, 1, transpose)  # the first K row owed, the rest written
    twin.mmad(32, 32, 48, False)
    twin.load2d(0, 0, 6, 1, transpose)
    twin.copy(_values(rng, 2048))  # over the load2d's source before its mmad
    twin.mmad(32, 32, 48, False)
    twin.load2d(512, 0, 6, 1, transpose)  # the first tile's fractals again, changed since
    twin.mmad(32, 32, 48, False)
    twin.check()


def test_an_mmad_over_part_of_its_fractals_keeps_the_rest_of_l0c():
    """An initialising mmad whose m and n are not whole fractals owes its L0C tile: the
    fractals' other elements keep the bytes' values (here written before), and the next mmad
    adds into the tile."""
    rng = np.random.default_rng(4)
    twin = _Twin(np.float16)
    twin.copy(_values(rng, 4096))
    a = _values(rng, 2048).astype(np.float16)
    twin.l0a.slot(0)[:] = a
    twin.bytes["l0a"][:] = a
    before = _values(rng, 4096)
    twin.l0c.slot(0)[:] = before
    twin.bytes["l0c"][:] = before
    twin.load2d(0, 0, 4, 1, False)
    twin.mmad(20, 24, 32, True)  # 2 x 2 fractals of C, 20 x 24 of them written
    twin.mmad(20, 24, 32, False)
    twin.check()
