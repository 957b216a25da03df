"""The bias table: the L1 -> BT copy (``load_bias``) and the mmad's bias-init mode, as numpy
semantics, instruction specs (effects, limits, cost) and on the machine, against plain
references written here."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl import hw
from ascend_xdsl.dialects.enums import PhysicalMemory, TPosition
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.hw.instructions import LOAD_BIAS, MMAD, LoadBias, Mmad
from ascend_xdsl.hw.isa import InstructionError, Pipe
from ascend_xdsl.runtime.machine import semantics as ins
from ascend_xdsl.runtime.machine.memory import MemoryAccessError


def nz_to_matrix(c: np.ndarray, m: int, n: int) -> np.ndarray:
    """C[r, j] = c[j//16][r//16][r%16][j%16] (the Nz layout), read element by element."""
    m1 = -(-m // 16)
    out = np.empty((m, n), np.float32)
    for r in range(m):
        for j in range(n):
            out[r, j] = c[((j // 16) * m1 + r // 16) * 256 + (r % 16) * 16 + j % 16]
    return out


def zz(a: np.ndarray) -> np.ndarray:
    m, k = a.shape
    m1, k1 = -(-m // 16), -(-k // 16)
    p = np.zeros((m1 * 16, k1 * 16), a.dtype)
    p[:m, :k] = a
    return np.ascontiguousarray(p.reshape(m1, 16, k1, 16).transpose(0, 2, 1, 3)).reshape(-1)


def zn(b: np.ndarray) -> np.ndarray:
    k, n = b.shape
    k1, n1 = -(-k // 16), -(-n // 16)
    p = np.zeros((k1 * 16, n1 * 16), b.dtype)
    p[:k, :n] = b
    return np.ascontiguousarray(p.reshape(k1, 16, n1, 16).transpose(0, 2, 3, 1)).reshape(-1)


def test_c2_is_the_bias_table_of_the_hardware_description():
    assert TPosition.C2.memory == PhysicalMemory.BT
    cfg = hw.load()
    assert cfg.memory_size("BT") == cfg.bias_table_size == 1024
    assert cfg.memory_alignment("BT") == 64
    assert "BiasTable" in cfg.figures["bias_table_size"].source


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_load_bias_widens_len_64_byte_blocks(dtype):
    rng = np.random.default_rng(1)
    src = rng.standard_normal(80).astype(dtype)
    dst = np.full(64, -7.0, np.float32)
    g = LoadBias.decode(2, np.dtype(dtype).itemsize)
    ins.load_bias_g(src, 8, dst, g)
    count = 128 // np.dtype(dtype).itemsize  # two 64-byte blocks of the source
    assert g.elems == count
    assert np.array_equal(dst[:count], src[8 : 8 + count].astype(np.float64).astype(np.float32))
    assert np.all(dst[count:] == -7.0)


def test_load_bias_errors():
    with pytest.raises(InstructionError, match=r"load_bias len 0 is not in \[1, 65535\]"):
        LoadBias.decode(0, 2)
    g = LoadBias.decode(1, 2)
    with pytest.raises(MemoryAccessError, match=r"load_bias source elements \[8, 40\)"):
        ins.load_bias_g(np.zeros(32, np.float16), 8, np.zeros(64, np.float32), g)
    with pytest.raises(MemoryAccessError, match=r"load_bias destination elements \[0, 32\)"):
        ins.load_bias_g(np.zeros(32, np.float16), 0, np.zeros(16, np.float32), g)
    with pytest.raises(ValueError, match="source element type bfloat16 is not float16"):
        ins.load_bias_g(np.zeros(32, ml_dtypes.bfloat16), 0, np.zeros(32, np.float32), g)


@pytest.mark.parametrize("m, n, k", [(20, 37, 45), (16, 16, 16), (1, 5, 3)])
def test_mmad_bias_init_starts_from_the_bias_broadcast_over_m(m, n, k):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    n1 = -(-n // 16)
    bias = rng.standard_normal(n1 * 16).astype(np.float32)
    c = np.full(-(-m // 16) * n1 * 256, 99.0, np.float32)
    ins.mmad(zz(a), zn(b), c, m, n, k, init=True, bias=bias)
    exact = bias[:n].astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(nz_to_matrix(c, m, n), exact, rtol=1e-5, atol=1e-5)
    # Without init the bias is not read: C accumulates.
    ins.mmad(zz(a), zn(b), c, m, n, k, init=False, bias=np.zeros(0, np.float32))
    twice = exact + a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(nz_to_matrix(c, m, n), twice, rtol=1e-5, atol=1e-5)


def test_mmad_bias_must_cover_the_n_fractals():
    a = np.zeros(256, np.float16)
    c = np.zeros(512, np.float32)
    with pytest.raises(MemoryAccessError, match=r"mmad bias elements \[0, 32\) out of bounds"):
        ins.mmad(a, np.zeros(512, np.float16), c, 16, 17, 16, True, np.zeros(16, np.float32))


class _Buf:
    """A buffer operand: one slot of ``elements`` at ``base`` in ``memory``."""

    def __init__(self, memory: str, base: int, element_bytes: int, elements: int = 4096):
        self.memory, self.base = memory, base
        self.element_bytes, self.elements, self.layout = element_bytes, elements, (memory, base)

    def address(self, slot: int) -> int:
        return self.base + slot * self.elements * self.element_bytes


def test_load_bias_spec_effects_and_cost():
    bound = LOAD_BIAS.bind(_Buf("L1", 1024, 2), 0, 16, _Buf("BT", 128, 4), 0, 3)
    effects = LOAD_BIAS.effects(bound)
    assert effects.pipe == Pipe.MTE1
    assert [(s.memory, s.lo, s.hi) for s in effects.reads] == [("L1", 1056, 1056 + 192)]
    # 96 halves widened: 384 bytes of floats.
    assert [(s.memory, s.lo, s.hi) for s in effects.writes] == [("BT", 128, 128 + 384)]
    figures = cost_figures(hw.DEFAULT_HW)
    assert LOAD_BIAS.cost(figures, effects) == 192 / 32
    assert LOAD_BIAS.latency(figures, effects) == 20


def test_mmad_spec_reads_the_bias_only_when_it_initialises():
    a, b, c, bt = _Buf("L0A", 0, 2), _Buf("L0B", 0, 2), _Buf("L0C", 0, 4), _Buf("BT", 64, 4)
    with_init = MMAD.effects(MMAD.bind(a, 0, b, 0, c, 0, 16, 20, 16, True, bt, 0))
    assert ("BT", 64, 64 + 32 * 4) in [(s.memory, s.lo, s.hi) for s in with_init.reads]
    assert "L0C" not in [s.memory for s in with_init.reads]
    accumulate = MMAD.effects(MMAD.bind(a, 0, b, 0, c, 0, 16, 20, 16, False, bt, 0))
    assert "BT" not in [s.memory for s in accumulate.reads]
    plain = MMAD.effects(MMAD.bind(a, 0, b, 0, c, 0, 16, 20, 16, True))
    figures = cost_figures(hw.DEFAULT_HW)
    assert MMAD.cost(figures, with_init) == MMAD.cost(figures, plain)
    assert Mmad.decode(16, 20, 16, 2).bias_elems == 32
