"""The data machine: one simulated AI Core executing a kernel with its data.

A :class:`Core` is a :class:`~ascend_xdsl.runtime.machine.machine.Machine`: it holds one block's
state (its memories, event flags and planned buffers) and has one handler per data instruction.
Each handler takes the instruction's operand values, binds them through the instruction's spec
(``hw/instructions/``: the geometry, checked against the ISA limits, and the addresses), runs
the spec's bounds check (the cost-only machine runs the same one), hands
the spec's effects to the sanitizer and the timing backend (``runtime/cost/timing.py``) when
there are any, and moves the data with the numpy backend (``runtime/machine/semantics.py``).
The xDSL interpreter (``runtime/executors/interpreter.py``) and the compiled executor
(``runtime/executors/compiled.py``) call exactly these handlers, so the two execute the same
instructions the same way and give bit-identical results (and the same timeline).

Decoded float32 mirrors. Casting 16-bit floats to float32 was the simulator's largest single
cost. The 16-bit GM tensors are decoded once (``GmTensor.as_f32``) and L1 has a float32 mirror
that ``data_copy`` (the only instruction that writes L1) writes instead of the bytes, so
``load3d`` and ``load2d`` read float32 values directly; the bytes are written from the mirror
when something reads them (a ``load3d`` in another element type, :meth:`Core.sync`).
A gather from a window of L1 that no ``data_copy`` has touched since is reused. The mirror is
used only while L1 has been written in one 16-bit element type; a second one (or a write other
than by ``data_copy``) writes the bytes and switches the mirror off for the rest of the core's
run. A float32 buffer (a bfloat16 conv's bias, which ``load_bias`` reads) is mirrored too, its
elements packed from its slot's first mirror element: no 16-bit buffer overlaps it, and the
writes of the 16-bit elements to the bytes write its bytes again after them.

Decoded L0 matrices. ``load3d`` computes the L0A/L0B tile as a matrix (the img2col gather); the
Cube then needs it in float32. Writing the fractal bytes and unpacking them again in every
``mmad`` was half of the mmad's time. So a load3d into L0A/L0B keeps the matrix and *owes* its
bytes: an ``mmad`` that reads exactly that tile (the same fractal geometry) takes the matrix,
and any other access to those bytes (a ``load2d`` or ``load3d`` over part of them, an ``mmad``
with another geometry, :meth:`Core.sync`) first writes every owed tile of the memory, oldest
first. A ``load2d`` from the mirror into L0A/L0B owes its fractals without reading them: the
forward's weight tile is one load2d, dX's one load2d per K row, so an ``mmad`` often reads the
fractals of several. When every owed tile under the mmad's operand is such fractals and they
cover it, the mmad takes its matrix from the mirror in one ``take`` (the newest load2d's
fractal where they overlap, ``semantics.fractals_index``); a write into the mirror elements
they read first copies their values out, and an access that needs those copies takes the
bytes. L0C works the same way: an ``mmad`` that initialises whole fractals leaves its product
as the owed Nz tile (over part of them, as the forward's and dX's Ho·Wo positions give, with
the bytes' values around it), later ``mmad``s of the same geometry add into it, and the
``fixpipe`` that reads it writes the bytes first. The owed bytes are the very values the
instructions computed, so this is exact: memory reads the same as if every instruction had
written its bytes at once.

The replay log. When ``Core.log`` is a list (``runtime/executors/replay.py`` sets it on a
launch's recorded cores), the fast paths above append their numpy steps to it (the data_copy
or fill into the mirror, the gather, the take of load2d'd fractals, the product and its
accumulation into an owed L0C tile, the fixpipe of an owed tile, a load_bias's row from the
mirror and its addition in a bias-init mmad), naming the matrices by registers; every other
path (bytes written or unpacked, the mirror switched off) sets it to None, as the core then
cannot be replayed. Recording changes nothing the core computes.

Dry runs. A recording core with ``dry`` set keeps the books and the log but moves no data:
its data_copies, fills and fixpipes make their checks only (``check_only``), and its gathers,
takes and products are read-only NaN stand-ins of the right shape (:func:`stand_in`) that
no step adds into. Its log is then the log of the real run (the paths taken depend on the
operands, never on the values), and replaying it gives the core's results; a dry run that
drops its log or raises anything is thrown away and the core run for real
(``runtime/executors/replay.py``). It never writes GM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.ir import Operation

from ascend_xdsl.dialects import formats
from ascend_xdsl.hw import instructions
from ascend_xdsl.hw.instructions import (
    DATA_COPY,
    FILL,
    FIXPIPE,
    LOAD2D,
    LOAD3D,
    LOAD_BIAS,
    MMAD,
    Bound,
    DataCopy,
    DataInstruction,
    Fill,
    Fixpipe,
    Load2d,
    Load3d,
    LoadBias,
    Mmad,
)
from ascend_xdsl.hw.isa import FRACTAL, FRACTAL_ELEMS
from ascend_xdsl.runtime.machine import dtypes
from ascend_xdsl.runtime.machine import semantics as ins
from ascend_xdsl.runtime.machine.machine import BufferSpec, MachineBase
from ascend_xdsl.runtime.machine.memory import CoreMemory
from ascend_xdsl.runtime.machine.values import Buffer, GmTensor

F32, F16 = dtypes.F32, dtypes.F16

#: Memories whose tiles the machine may hold as decoded matrices (see the module docstring).
MATRIX_MEMORIES = ("L0A", "L0B", "L0C")
_MAX_TILES = 32
_MAX_GATHERS = 32
_MAX_TAKES = 128
"""Takes of load2d'd fractals kept (``Core._takes``): a forward core reads each of its weight's
k-step tiles once per M tile, 54 of them on the default layer (8 KB each)."""
_MAX_BOUND = 4096


@dataclass(eq=False, slots=True)
class _Tile:
    """An L0 tile held as its float32 matrix, its bytes owed (see the module docstring)."""

    addr: int
    end: int
    matrix: np.ndarray
    """The matrix, decoded to float32 (exact: every 16-bit float is a float32)."""
    dtype: np.dtype
    """The element type the instruction wrote, which the owed bytes are in."""
    layout: str
    """The fractal layout of the bytes: "zz" (L0A), "zn" (L0B) or "nz" (L0C)."""
    reg: int = -1
    """The matrix's register in the core's replay log, when it records one."""

    def fractal_rows(self) -> tuple[int, int]:
        return self.matrix.shape[0] // FRACTAL, self.matrix.shape[1] // FRACTAL

    def elems(self) -> int:
        return self.matrix.size

    def layout_bytes(self) -> np.ndarray:
        if self.layout == "nz":
            return formats.to_nz(self.matrix).reshape(-1).astype(self.dtype, copy=False)
        return ins.l0_layout(self.matrix, self.layout == "zz", self.dtype)


@dataclass(eq=False, slots=True)
class _Fractals:
    """L0 fractals a load2d copied from the L1 mirror, their bytes owed and their values not
    read yet (see the module docstring): fractal ``i`` is the mirror's 256 elements from
    element ``first + i * g.src_step``, transposed with ``g.transpose``. The mirror holds
    them until a write into its elements ``[first, src_end)``, before which they are copied
    out (``values``, by ``Core._l1_changes``)."""

    addr: int
    end: int
    first: int
    src_end: int
    g: Load2d
    mirror: np.ndarray
    dtype: np.dtype
    """The element type of the destination, the mirror's (so the values are the mirror's)."""
    values: np.ndarray | None = None
    """The fractals' float32 values in their L0 order, once the mirror no longer holds them."""
    layout = "fractals"

    def elems(self) -> int:
        return self.g.dst_elems

    def keep_values(self) -> None:
        """Copy the fractals out of the mirror, which is about to change."""
        if self.values is None:
            self.values = np.empty(self.g.dst_elems, F32)
            ins.load2d_g(self.mirror, self.first, self.values, 0, self.g)

    def layout_bytes(self) -> np.ndarray:
        if self.values is not None:
            return self.values.astype(self.dtype)
        out = np.empty(self.g.dst_elems, self.dtype)
        ins.load2d_g(self.mirror, self.first, out, 0, self.g)
        return out


# The steps of a replay log (``Core.log``; ``runtime/executors/replay.py`` replays them).
COPY = 0
"""``(COPY, gm, mirror, dst_off, geometry, element_bytes)``: a data_copy into the L1 mirror
(its GM offset is the instruction's own, from the stream)."""
GATHER = 1
"""``(GATHER, reg, first, geometry)``: a load3d's img2col gather from the mirror's element
``first`` into register ``reg``."""
MATMUL = 2
"""``(MATMUL, reg, a_reg, a_shape, b_reg, b_shape)``: an mmad's product of the leading
``a_shape`` and ``b_shape`` of two registers."""
SET = 3
"""``(SET, tile_reg, m, n, product_reg)``: an mmad writes its product into an owed L0C tile."""
ADD = 4
"""``(ADD, tile_reg, m, n, product_reg)``: an mmad adds its product into an owed L0C tile."""
FIX = 5
"""``(FIX, tile_reg, l0c_view, gm, geometry)``: a fixpipe of an owed L0C tile's values (its
GM offset is the instruction's own, from the stream)."""
TAKE = 6
"""``(TAKE, reg, index)``: an mmad operand whose fractals load2d's copied from the L1 mirror,
taken from the mirror by the element ``index`` (``semantics.fractals_index``) into register
``reg``."""
ZERO = 7
"""``(ZERO, mirror, dst_off, geometry, element_bytes)``: a fill of zeros into the L1 mirror."""
INIT = 8
"""``(INIT, tile_reg, m, n, product_reg, shape)``: an mmad writes its product into a new owed
L0C tile of ``shape`` whose other elements are zero."""
BIAS = 9
"""``(BIAS, reg, first, elems)``: a load_bias from the L1 mirror, its ``elems`` floats from the
mirror's element ``first`` into register ``reg`` (the bias table row)."""
BIASED = 10
"""``(BIASED, product_reg, bias_reg, n)``: a bias-init mmad adds the first ``n`` floats of
the bias row in ``bias_reg`` to its product (broadcast over M)."""


_NO_VALUES = np.float32(np.nan).tobytes()


def stand_in(shape: tuple[int, ...]) -> np.ndarray:
    """A dry run's read-only float32 matrix of ``shape`` (one NaN, every stride 0): the shape
    of a value it does not compute. NaN, so that a stand-in that leaked into memory or GM
    would show in the results (the ``ndarray`` constructor, not ``broadcast_to``: a tenth of
    the cost)."""
    return np.ndarray(shape, F32, _NO_VALUES, 0, (0,) * len(shape))


def fixpipe_values(matrix: np.ndarray, g: Fixpipe) -> np.ndarray:
    """The ``(blocks, m, 16)`` values a fixpipe reads from an owed L0C tile's matrix whose N
    blocks are the fixpipe's (see ``Core._nz_values``)."""
    block_rows = matrix[: g.m, : g.blocks * FRACTAL].reshape(g.m, g.blocks, FRACTAL)
    return block_rows.transpose(1, 0, 2)


class CorePool:
    """The memories of the finished cores of one launch, handed to its next cores.

    Allocating and zeroing a core's memories and its L1 mirror (about 2 MB) was a tenth of a
    thin layer's run. A kernel reaches a core's memories only through its planned buffers
    (``alloc_buffer``: every view, mirror slice and owed tile lies inside one), so zeroing the
    finished core's buffer spans gives a memory that reads as a fresh, all-zero one."""

    def __init__(self) -> None:
        self._free: list[tuple[CoreMemory, np.ndarray]] = []
        self.timings: dict[tuple[int, tuple[object, ...]], tuple[object, tuple[Any, ...]]] = {}
        """The costed instructions of the launch's timelines (``Core._observe``): the cores
        of one launch share the cost figures and the L2 share, so one costing serves all."""

    def take(self, target_name: str) -> tuple[CoreMemory, np.ndarray] | None:
        for i, (memory, _) in enumerate(self._free):
            if memory.hw_name == target_name:
                return self._free.pop(i)
        return None

    def give(self, core: Core) -> None:
        memories = core.memory.memories
        l1 = core._l1_touched()
        for memory, _, lo, hi in core.buffers:
            if memory == "L1" and l1 is not None:
                continue
            memories[memory].data[lo:hi] = 0
            if memory == "L1":
                core._mirror[lo // 2 : (hi + 1) // 2] = 0
        if l1 is not None and l1[0] < l1[1]:
            lo, hi = l1
            memories["L1"].data[lo:hi] = 0
            core._mirror[lo // 2 : (hi + 1) // 2] = 0
        self._free.append((core.memory, core._mirror))


@dataclass(eq=False)
class Core(MachineBase):
    """The data machine: the machine state of one block (one AI Core running the kernel)."""

    pool: CorePool | None = None
    """Where the core takes its memories from and returns them at :meth:`finish` (one per
    launch); without one it allocates them."""
    memory: CoreMemory = field(init=False)
    _tiles: dict[str, list[_Tile | _Fractals]] = field(init=False)
    """The owed tiles of each L0 memory, oldest first."""

    def __post_init__(self) -> None:
        super().__post_init__()
        pooled = self.pool.take(self.target.name) if self.pool is not None else None
        if pooled is not None:
            self.memory, self._mirror = pooled
        else:
            self.memory = CoreMemory(self.target)
            self._mirror = np.zeros(self.memory["L1"].size // 2, F32)
        self._gathers: dict[tuple[int, int], tuple[Load3d, np.ndarray, int, int]] = {}
        """Gathers from the mirror by (source address, geometry): the geometry, the matrix,
        the end of the L1 bytes it read and the matrix's replay register."""
        self._biases: dict[int, tuple[int, int]] = {}
        """The bias table rows load_bias's wrote from the L1 mirror while recording, by first
        byte: the end byte and the row's replay register."""
        self._takes: dict[tuple[int, ins.FractalsKey], tuple[np.ndarray, int, int]] = {}
        """Takes of load2d'd fractals from the mirror (``_fractals_matrix``) by (first L1
        byte, fractals): the matrix, the end of the L1 bytes it read and its register."""
        self.log: list[tuple[Any, ...]] | None = None
        """When set (``runtime/executors/replay.py``), the numpy steps of the run's fast paths
        are appended to it; any other step sets it back to None (the run cannot be replayed)."""
        self.dry = False
        """A dry run (see the module docstring): set with ``log`` by the replay only."""
        self._regs = 0
        self._reg = -1
        self._mirror_dtype: np.dtype | None = None
        self._mirror_ok = True
        self._l1_stale: tuple[int, int] | None = None
        self._wide: dict[int, int] = {}
        """The float32 L1 slots mirrored data_copies wrote (first byte: end byte): their
        mirror holds their float32 elements packed from the slot's first element."""
        self._l1_written = (0, 0)
        """The L1 bytes ``[lo, hi)`` mirrored data_copies wrote so far: while the mirror is on,
        nothing else of L1 (its bytes or its mirror) has been written."""
        """The L1 bytes ``[lo, hi)`` the mirror is ahead of (written to the mirror only)."""
        self._tiles = {name: [] for name in MATRIX_MEMORIES}
        if self.sanitizer is not None:
            self.sanitizer.new_core(self.block_idx)
        self._timings = self.pool.timings if self.pool is not None else {}
        self._bound: dict[tuple[object, ...], tuple[Any, ...]] = {}
        """load3d's and mmad's checked bindings by operand values (:meth:`_remember`)."""
        if self.timeline is not None:
            self._timeline = self.timeline
        self._handlers.update(
            {
                instructions.DATA_COPY: self.data_copy,
                instructions.FILL: self.fill,
                instructions.LOAD3D: self.load3d,
                instructions.LOAD2D: self.load2d,
                instructions.LOAD_BIAS: self.load_bias,
                instructions.MMAD: self.mmad,
                instructions.FIXPIPE: self.fixpipe,
            }
        )

    def finish(self) -> None:
        super().finish()
        if self.pool is not None:
            # Only a core that ended cleanly: its memory is not looked at again.
            self.pool.give(self)
            self.pool = None

    # -- the L1 mirror ----

    def _l1_touched(self) -> tuple[int, int] | None:
        """The L1 bytes the run may have written, or None for any of its L1 buffers' bytes."""
        return self._l1_written if self._mirror_ok else None

    def _mirror_of(self, buf: Buffer, slot: int, view: np.ndarray) -> np.ndarray | None:
        """The float32 mirror of ``buf``'s slot, if L1 is mirrored in the view's type."""
        if buf.memory != "L1" or not self._mirror_ok or view.dtype != self._mirror_dtype:
            return None
        base = buf.address(slot) // 2
        return self._mirror[base : base + view.size]

    def _wide_of(self, base: int, elems: int) -> np.ndarray:
        """The mirror of the float32 L1 slot of ``elems`` elements at byte ``base``: its
        elements packed from the slot's first mirror element (the 16-bit elements' of its
        first bytes; no 16-bit buffer reads them, as buffers never overlap)."""
        return self._mirror[base // 2 : base // 2 + elems]

    def _mirror_takes(self, dtype: np.dtype) -> bool:
        """Whether a write of ``dtype`` elements into L1 can go to the mirror (L1 is mirrored
        in one 16-bit type per core run)."""
        if self._mirror_ok and dtypes.is_cube_type(dtype) and self._mirror_dtype in (None, dtype):
            self._mirror_dtype = dtype
            return True
        return False

    def _settle_l1(self) -> None:
        """Write the L1 bytes the mirror holds ahead of them (exact: they are 16-bit values)."""
        if self._l1_stale is not None:
            self.log = None
            lo, hi = self._l1_stale
            if self._mirror_dtype is not None:
                view = self.memory.view("L1", lo, (hi - lo) // 2, self._mirror_dtype)
                view[:] = self._mirror[lo // 2 : hi // 2]
            # after the 16-bit elements, which may span the float32 slots (buffers never
            # overlap, so nothing else is there)
            for base, end in self._wide.items():
                elems = (end - base) // 4
                self.memory.view("L1", base, elems, F32)[:] = self._wide_of(base, elems)
            self._l1_stale = None

    def _mirror_off(self) -> None:
        """L1 is written other than by a mirrored data_copy: bytes only from now on."""
        self._settle_l1()
        self.log = None
        self._mirror_ok = False
        self._wide.clear()
        self._gathers.clear()
        self._takes.clear()

    def _mirror_written(self, lo: int, hi: int) -> None:
        """L1 bytes ``[lo, hi)`` were written into the mirror only: the bytes are stale there,
        and gathers of them are forgotten."""
        stale = self._l1_stale
        self._l1_stale = (lo, hi) if stale is None else (min(stale[0], lo), max(stale[1], hi))
        w_lo, w_hi = self._l1_written
        self._l1_written = (lo, hi) if w_lo == w_hi else (min(w_lo, lo), max(w_hi, hi))
        if self._gathers:
            self._forget_gathers(lo, hi)
        if self._takes:
            for key in [k for k, v in self._takes.items() if k[0] < hi and lo < v[1]]:
                del self._takes[key]

    def _forget_gathers(self, lo: int, hi: int) -> None:
        """L1 bytes ``[lo, hi)`` change: forget the gathers that read any of them."""
        stale = [k for k, v in self._gathers.items() if k[0] < hi and lo < v[2]]
        for key in stale:
            del self._gathers[key]

    def _remember(self, key: tuple[object, ...], entry: tuple[Any, ...]) -> None:
        """Keep the binding of one set of operand values, with what follows from it (its
        slot views and addresses) and its checks made: binding is a pure function of them
        (the buffers' places are fixed), and a kernel's inner loops repeat a few sets many
        times. Bounded: a kernel whose operands never repeat starts over."""
        if len(self._bound) >= _MAX_BOUND:
            self._bound.clear()
        self._bound[key] = entry

    def _bind(self, op: Operation, spec: DataInstruction, values: tuple[Any, ...]) -> Bound:
        """``values`` (an instruction's properties and operands) bound through ``spec`` and
        checked, and handed to :meth:`_observe` when observed."""
        bound = spec.bind(*values)
        self.bounds(spec, bound, values)
        if self.observed:
            self._observe(op, spec, bound)
        return bound

    def _observe(self, op: Operation, spec: DataInstruction, bound: Bound) -> None:
        """Hand an instruction's effects to the sanitizer and the timing backend.

        Timed only, the effects are built and costed once per distinct ``(geometry, chip)``:
        as in the cost-only machine, instructions with the same geometry and on-chip addresses
        have the same effects on chip, and their timing (``Timeline.cost_of``) does not depend
        on the GM address. A thin layer issues thousands of instructions of a few such keys,
        and building their spans and costing them was a fifth of its run. The key holds the
        geometry's identity (decoding interns it) and the entry the geometry, so the identity
        cannot be reused while the entry lives."""
        if self.sanitizer is not None:
            effects = spec.effects(bound)
            self.sanitizer.record(op, effects)
            if self.timeline is not None:
                self.timeline.instruction(op, effects)
            return
        g = bound.geometry
        key = (id(g), bound.chip)
        hit = self._timings.get(key)
        if hit is None or hit[0] is not g:
            hit = self._timings[key] = (g, self._timeline.cost_of(spec.effects(bound)))
        self._timeline.run(op, *hit[1])

    # -- owed L0 bytes ------------------------------------------------------------------------

    def _write_tile(self, memory: str, tile: _Tile | _Fractals) -> None:
        self.log = None
        view = self.memory.view(memory, tile.addr, tile.elems(), tile.dtype)
        view[:] = tile.layout_bytes()

    def _settle(self, memory: str, lo: int, hi: int) -> None:
        """Before an access to ``[lo, hi)`` through the bytes: if an owed tile overlaps it,
        write every owed tile of the memory, oldest first (later tiles overwrite earlier ones
        where they overlap, as the loads did), and forget them."""
        tiles = self._tiles.get(memory)
        if tiles and any(t.addr < hi and lo < t.end for t in tiles):
            for tile in tiles:
                self._write_tile(memory, tile)
            tiles.clear()

    def _owe(self, memory: str, tile: _Tile | _Fractals) -> None:
        """Record ``tile`` as the newest owed tile; tiles it covers entirely are dead."""
        tiles = self._tiles[memory]
        tiles[:] = [t for t in tiles if not (tile.addr <= t.addr and t.end <= tile.end)]
        tiles.append(tile)
        if len(tiles) > _MAX_TILES:  # many partly overwritten tiles: pay the bytes once
            self._settle(memory, tile.addr, tile.end)

    def sync(self) -> None:
        """Write every owed byte (memory then reads as if written instruction by instruction)."""
        self._settle_l1()
        for memory, tiles in self._tiles.items():
            for tile in tiles:
                self._write_tile(memory, tile)
            tiles.clear()

    def _tile_at(self, memory: str, addr: int, end: int) -> _Tile | _Fractals | None:
        """The owed tile starting at ``addr`` if it is the newest one overlapping
        ``[addr, end)`` and covers it (so reading its matrix reads what the bytes would)."""
        for tile in reversed(self._tiles.get(memory, ())):
            if tile.addr < end and addr < tile.end:
                return tile if tile.addr == addr and end <= tile.end else None
        return None

    def _matrix(self, buf: Buffer, addr: int, view: np.ndarray, g: Mmad, side: str) -> np.ndarray:
        """mmad operand ``side`` ("A" or "B") in float32: the owed tile when the mmad reads
        exactly its fractals, else unpacked from the bytes.

        A is Zz (M1, K1) and B is Zn (K1, N1): in both, one block row of the tile is ``cols``
        fractals, so the mmad reads the tile's own fractals when it has the same number of
        block columns (and no more block rows), or reads a prefix of its first block row."""
        if side == "A":
            layout, rows_used, cols_used, elems = "zz", g.m1, g.k1, g.a_elems
            shape, unpack = (g.m, g.k), ins.unpack_a
        else:
            layout, rows_used, cols_used, elems = "zn", g.k1, g.n1, g.b_elems
            shape, unpack = (g.k, g.n), ins.unpack_b
        end = addr + elems * view.itemsize
        tile = self._tile_at(buf.memory, addr, end)
        if type(tile) is _Tile and tile.layout == layout and tile.dtype == view.dtype:
            rows, cols = tile.fractal_rows()
            same_rows = cols_used == cols and rows_used <= rows
            if same_rows or (rows_used == 1 and cols_used <= cols):
                self._reg = tile.reg
                return tile.matrix[: shape[0], : shape[1]]
        else:
            grid = (layout == "zz", rows_used, cols_used)
            matrix = self._fractals_matrix(buf.memory, addr, end, view.dtype, grid)
            if matrix is not None:
                return matrix[: shape[0], : shape[1]]
        self._settle(buf.memory, addr, end)
        self.log = None
        return unpack(view, g)

    def _define(self, kind: int, *fields: Any) -> int:
        """Record a step of ``kind`` that names a new matrix register (its first field, then
        ``fields``) and return the register; -1 when the core does not record."""
        if self.log is None:
            return -1
        reg = self._regs
        self._regs += 1
        self.log.append((kind, reg, *fields))
        return reg

    def _fractals_matrix(
        self, memory: str, addr: int, end: int, dtype: np.dtype, grid: tuple[bool, int, int]
    ) -> np.ndarray | None:
        """The float32 matrix of the ``grid`` (Zz or not, fractal rows, fractal columns) of
        fractals an mmad reads from ``[addr, end)``, when every owed tile there is a load2d's
        (``_Fractals``: all transposed or none, in ``dtype``, on whole fractals of the operand)
        and together they cover it: each fractal is then the newest load2d's that wrote it,
        so the matrix reads what the bytes would. None otherwise (the bytes are written).

        Taken from the mirror at the mmad, not at the load2d's: the fractals' mirror elements
        are unchanged since (``_l1_changes``). The same fractals of an unchanged mirror give
        the same matrix (the forward walk loads each weight tile for several M tiles), so it
        is kept, and forgotten as the gathers are when the mirror there changes."""
        tiles = [t for t in self._tiles[memory] if t.addr < end and addr < t.end]
        if not tiles:
            return None
        zz, rows, cols = grid
        count = rows * cols
        size = FRACTAL_ELEMS * dtype.itemsize
        bases = [-1] * count
        transpose = None
        for tile in tiles:  # oldest first: a newer load2d's fractal replaces an older one's
            if type(tile) is not _Fractals or tile.values is not None or tile.dtype != dtype:
                return None
            if (tile.addr - addr) % size:
                return None
            g = tile.g
            if transpose is None:
                transpose = g.transpose
            elif g.transpose != transpose:
                return None
            p = (tile.addr - addr) // size
            for i in range(max(0, -p), min(g.repeat, count - p)):
                bases[p + i] = tile.first + i * g.src_step
        if -1 in bases:
            return None
        key = (tuple(bases), transpose, zz, rows, cols)
        lo = min(bases) * 2  # the mirror's bytes, as the gathers' (16-bit elements)
        hit = self._takes.get((lo, key))
        if hit is not None:
            self._reg = hit[2]
            return hit[0]
        index = ins.fractals_index(key)
        # the index lies inside the mirror
        matrix = stand_in(index.shape) if self.dry else self._mirror.take(index, mode="clip")
        reg = self._define(TAKE, index)
        if len(self._takes) >= _MAX_TAKES:
            self._takes.clear()
        self._takes[lo, key] = (matrix, (max(bases) + FRACTAL_ELEMS) * 2, reg)
        self._reg = reg
        return matrix

    def _l1_changes(self, lo: int, hi: int) -> None:
        """The mirror's L1 bytes ``[lo, hi)`` are about to be written: the owed load2d
        fractals that read any of them copy their values out (mostly fractals an mmad has
        read already and a later load2d overwrites: a replay need not copy them; an access
        that does read them takes the bytes, which drops the replay log)."""
        for memory in ("L0A", "L0B"):
            for tile in self._tiles[memory]:
                if type(tile) is _Fractals and tile.first * 2 < hi and lo < tile.src_end * 2:
                    tile.keep_values()

    # -- buffers ------------------------------------------------------------------------------

    def alloc_buffer(self, spec: BufferSpec) -> Buffer:
        """The buffer of ``spec``; buffers live for the whole kernel, so two may never overlap."""
        self.reserve(spec)
        views = [
            self.memory.slot_view(spec.memory, spec.offset, s, spec.slots, spec.count, spec.dtype)
            for s in range(spec.slots)
        ]
        eb = spec.dtype.itemsize
        return Buffer(spec.memory, spec.offset, spec.slots, spec.stride, eb, spec.count, views)

    # -- instructions -------------------------------------------------------------------------

    # Each takes the op, its static properties and its operands (``hw/instructions/``: the
    # spec's ``properties`` then ``operands``) and binds them through the spec.

    def data_copy(
        self,
        op: Operation,
        src: GmTensor,
        src_off: int,
        dst: Buffer,
        slot: int,
        dst_off: int,
        *fields: int,
    ) -> None:
        """``fields``: count, len, src_stride, dst_stride (``DataCopy``)."""
        bound = DATA_COPY.bind(src, src_off, dst, slot, dst_off, *fields)
        self.bounds(DATA_COPY, bound, (src, src_off, dst, slot, dst_off, *fields))
        g: DataCopy = bound.geometry
        lo = bound.chip[1]
        view = dst.slot(slot)
        if self.observed:
            self._observe(op, DATA_COPY, bound)
        if dst.memory in self._tiles:
            self._settle(dst.memory, lo, lo + g.dst_bytes)
        hi = lo + g.dst_bytes
        if dst.memory == "L1" and self._mirror_takes(view.dtype):
            # Into the float32 mirror only; the bytes follow when something reads them.
            ins.check_same_type("data_copy", src, view)
            mirror = self._mirror_of(dst, slot, view)
            assert mirror is not None
            self._l1_changes(lo, hi)
            source = src.as_f32()
            ins.data_copy_g(source, src_off, mirror, dst_off, g, view.itemsize, self.dry)
            if self.log is not None:
                self.log.append((COPY, src, mirror, dst_off, g, view.itemsize))
            self._mirror_written(lo, hi)
            return
        if dst.memory == "L1" and view.dtype == F32 and self._mirror_ok:
            # A float32 L1 buffer (a bfloat16 conv's bias) while L1 is mirrored: its elements
            # go to the mirror too, packed (``_wide_of``), and the bytes follow at a settle.
            ins.check_same_type("data_copy", src, view)
            base = dst.address(slot)
            mirror = self._wide_of(base, view.size)
            ins.data_copy_g(src.data, src_off, mirror, dst_off, g, check_only=self.dry)
            if self.log is not None:
                self.log.append((COPY, src, mirror, dst_off, g, view.itemsize))
            self._wide[base] = base + view.nbytes
            self._mirror_written(base, base + view.nbytes)
            return
        if dst.memory == "L1":
            self._mirror_off()
        self.log = None
        ins.data_copy_g(src.data, src_off, view, dst_off, g)

    def fill(
        self,
        op: Operation,
        dst: Buffer,
        slot: int,
        dst_off: int,
        repeat: int,
        block_num: int,
        dst_gap: int,
    ) -> None:
        """Zeros into L1 (``Fill``): into the float32 mirror while L1 is mirrored, as a
        mirrored data_copy writes, else into the bytes."""
        bound = self._bind(op, FILL, (dst, slot, dst_off, repeat, block_num, dst_gap))
        g: Fill = bound.geometry
        lo = bound.chip[1]
        hi = lo + g.dst_bytes
        if dst.memory in self._tiles:
            self._settle(dst.memory, lo, hi)
        view = dst.slot(slot)
        if dst.memory == "L1" and self._mirror_takes(view.dtype):
            mirror = self._mirror_of(dst, slot, view)
            assert mirror is not None
            self._l1_changes(lo, hi)
            ins.fill_g(mirror, dst_off, g, view.itemsize, self.dry)
            if self.log is not None:
                self.log.append((ZERO, mirror, dst_off, g, view.itemsize))
            self._mirror_written(lo, hi)
            return
        self.log = None
        if dst.memory == "L1":
            self._mirror_off()
        ins.fill_g(view, dst_off, g)

    def load3d(
        self,
        op: Operation,
        kernel: tuple[int, int],
        stride: tuple[int, int],
        dilation: tuple[int, int],
        transpose: bool,
        src: Buffer,
        src_slot: int,
        src_off: int,
        dst: Buffer,
        dst_slot: int,
        *geometry: int,
    ) -> None:
        """``geometry``: the op's remaining operands, l1_h, l1_w, channels, k_start, k_ext,
        m_start, m_ext and the pads top, bottom, left, right (``Load3d``)."""
        # The op fixes the static properties; the core's buffers live as long as it does.
        key = (id(op), id(src), src_slot, src_off, id(dst), dst_slot, geometry)
        values = (kernel, stride, dilation, transpose, src, src_slot, src_off, dst, dst_slot)
        entry = self._load_entry(op, LOAD3D, key, values, self._bind_load3d, src)
        _, g, s_addr, _, sview, dview, checked, d_addr, d_end = entry
        if src.memory == "L1" and self._mirror_ok and sview.dtype == self._mirror_dtype:
            # The same window of unchanged L1 gives the same matrix (the ORDER_M walk reloads
            # each A tile for every N tile): gather it once.
            # Keyed by the geometry's identity (decoding interns it) to skip hashing its
            # fields; the entry keeps the geometry alive, so the id cannot be reused.
            gather = (s_addr, id(g))
            hit = self._gathers.get(gather)
            if hit is not None and hit[0] is g:
                matrix, reg = hit[1], hit[3]
            else:
                # The mirror holds the slot's elements from its address / 2 on, and the
                # source's bounds were checked with the binding (``checked``).
                reg = -1
                if checked:
                    if self.dry:
                        shape = (g.k_ext, g.m_ext) if g.transpose else (g.m_ext, g.k_ext)
                        matrix = stand_in(shape)
                    else:
                        matrix = ins.load3d_gather(self._mirror, s_addr // 2, g)
                    reg = self._define(GATHER, s_addr // 2, g)
                else:
                    self.log = None
                    base = s_addr // 2 - src_off  # the slot's first element in the mirror
                    mirror = self._mirror[base : base + sview.size]
                    matrix = ins.load3d_matrix(mirror, src_off, g)
                if len(self._gathers) >= _MAX_GATHERS:
                    self._gathers.clear()
                self._gathers[gather] = (g, matrix, s_addr + g.fmap_bytes, reg)
        else:
            self.log = None
            reg = -1
            if src.memory == "L1":
                self._settle_l1()
            matrix = ins.load3d_matrix(sview, src_off, g).astype(F32)
        if dst.memory == "L1":
            self._mirror_off()
        tiles = self._tiles.get(dst.memory)
        if tiles is None:
            self.log = None
            dview[: g.out_elems] = ins.l0_layout(matrix, g.a_side, dview.dtype)
            return
        layout = "zz" if g.a_side else "zn"
        self._owe(dst.memory, _Tile(d_addr, d_end, matrix, dview.dtype, layout, reg))

    def _load_entry(
        self,
        op: Operation,
        spec: DataInstruction,
        key: tuple[Any, ...],
        values: tuple[Any, ...],
        bind: Callable[[tuple[Any, ...], tuple[Any, ...]], tuple[Any, ...]],
        src: Buffer,
    ) -> tuple[Any, ...]:
        """A load's remembered binding (``bind(key, values)`` the first time: the binding, its
        geometry, the source's first and end byte, ...), observed, with the owed bytes of its
        source ``src`` written first."""
        entry = self._bound.get(key)
        if entry is None:
            entry = bind(key, values)
        if self.observed:
            self._observe(op, spec, entry[0])
        if src.memory in self._tiles:
            self._settle(src.memory, entry[2], entry[3])
        return entry

    def _bind_load3d(self, key: tuple[Any, ...], values: tuple[Any, ...]) -> tuple[Any, ...]:
        """Bind one set of load3d operand values (``values``: the static properties to the
        destination slot; ``key``: them by identity, and the geometry operands) and check them,
        remembered by ``key``: the binding, its geometry, the source's first and end byte, the
        two slot views, whether the source's feature map lies inside its slot, and the
        destination's first and end byte."""
        geometry = key[-1]
        src, src_slot, src_off, dst, dst_slot = values[4:]
        bound = LOAD3D.bind(*values, *geometry)
        self.bounds(LOAD3D, bound, (*values, *geometry))
        g: Load3d = bound.geometry
        _, s_addr, _, d_addr = bound.chip
        sview, dview = src.slot(src_slot), dst.slot(dst_slot)
        ins.check_same_type("load3d", sview, dview)
        ins.check_extent("load3d", "destination", 0, g.out_elems, dview.size)
        # load3d_matrix's own source check, made here once: the gathers from the mirror then
        # skip it (else they take load3d_matrix's way, which raises its error).
        checked = src_off >= 0 and src_off + g.fmap_elems <= sview.size
        s_end = s_addr + g.fmap_elems * src.element_bytes
        d_end = d_addr + g.out_elems * dst.element_bytes
        entry = (bound, g, s_addr, s_end, sview, dview, checked, d_addr, d_end)
        self._remember(key, entry)
        return entry

    def load2d(
        self,
        op: Operation,
        transpose: bool,
        src: Buffer,
        src_slot: int,
        src_off: int,
        dst: Buffer,
        dst_slot: int,
        dst_off: int,
        repeat: int,
        src_stride: int,
    ) -> None:
        key = (id(op), transpose, id(src), src_slot, src_off, id(dst), dst_slot, dst_off)
        values = (transpose, src, src_slot, src_off, dst, dst_slot, dst_off, repeat, src_stride)
        key += (repeat, src_stride)
        entry = self._load_entry(op, LOAD2D, key, values, self._bind_load2d, src)
        _, g, s_addr, s_end, view, dview, d_addr, d_end, owable = entry
        if src.memory == "L1" and dst.memory != "L1":
            # While L1 is mirrored the mirror holds its current values: read the fractals
            # there rather than write the mirror back to the bytes before every load.
            mirror = self._mirror_of(src, src_slot, view)
            if mirror is not None:
                if owable:
                    # Owed: the mmad that reads them takes them as a matrix from the mirror.
                    first = s_addr // 2
                    tile = _Fractals(d_addr, d_end, first, s_end // 2, g, self._mirror, dview.dtype)
                    self._owe(dst.memory, tile)
                    return
                if dst.memory in self._tiles:
                    self._settle(dst.memory, d_addr, d_end)
                self.log = None
                ins.load2d_g(mirror, src_off, dview, dst_off, g)
                return
            self._settle_l1()
        if dst.memory in self._tiles:
            self._settle(dst.memory, d_addr, d_end)
        self.log = None
        if dst.memory == "L1":
            self._mirror_off()
        ins.load2d_g(view, src_off, dview, dst_off, g)

    def _bind_load2d(self, key: tuple[Any, ...], values: tuple[Any, ...]) -> tuple[Any, ...]:
        """Bind one set of load2d operand values (``values``; ``key``: them, the buffers by
        identity) and check them, remembered by ``key``: the binding, its geometry, the
        source's first and end byte, the two slot views, the destination's first and end byte,
        and whether the fractals may be owed (into L0A or L0B from L1 in one type, inside
        both slots: what ``load2d_g`` checks, made here once)."""
        src, src_slot, src_off, dst, dst_slot, dst_off = values[1:7]
        bound = LOAD2D.bind(*values)
        self.bounds(LOAD2D, bound, values)
        g: Load2d = bound.geometry
        _, s_addr, _, d_addr = bound.chip
        view, dview = src.slot(src_slot), dst.slot(dst_slot)
        s_end = s_addr + g.src_elems * src.element_bytes
        d_end = d_addr + g.dst_elems * dst.element_bytes
        owable = (
            src.memory == "L1"
            and dst.memory in ("L0A", "L0B")
            and view.dtype == dview.dtype
            and 0 <= src_off <= view.size - g.src_elems
            and 0 <= dst_off <= dview.size - g.dst_elems
        )
        entry = (bound, g, s_addr, s_end, view, dview, d_addr, d_end, owable)
        self._remember(key, entry)
        return entry

    def load_bias(
        self,
        op: Operation,
        src: Buffer,
        src_slot: int,
        src_off: int,
        dst: Buffer,
        dst_slot: int,
        length: int,
    ) -> None:
        """Floats into the bias table (``LoadBias``): from the L1 mirror while L1 is mirrored
        (a half source's mirror holds its values widened, as the instruction widens them; a
        float one's is packed, ``_wide_of``), else from the bytes. The table is no matrix
        memory: its floats are written at once, and while recording the row is a register
        (:data:`BIAS`) that the bias-init mmad reads (:meth:`_mmad_bias`)."""
        bound = self._bind(op, LOAD_BIAS, (src, src_slot, src_off, dst, dst_slot, length))
        g: LoadBias = bound.geometry
        view, table = src.slot(src_slot), dst.slot(dst_slot)
        d_addr = bound.chip[3]
        d_end = d_addr + g.elems * ins.F32.itemsize
        if self._biases:
            for addr in [a for a, (end, _) in self._biases.items() if a < d_end and d_addr < end]:
                del self._biases[addr]
        mirror = None
        if view.dtype == F16:
            mirror = self._mirror_of(src, src_slot, view)
        elif view.dtype == F32 and self._mirror_ok and src.memory == "L1":
            base = src.address(src_slot)
            mirror = self._wide_of(base, view.size) if base in self._wide else None
        if mirror is not None:
            ins.load_bias_g(mirror, src_off, table, g)
            if self.log is not None:
                first = src.address(src_slot) // 2 + src_off
                self._biases[d_addr] = (d_end, self._define(BIAS, first, g.elems))
            return
        if src.memory == "L1":
            self._settle_l1()
        self.log = None
        ins.load_bias_g(view, src_off, table, g)

    def mmad(
        self,
        op: Operation,
        a: Buffer,
        a_slot: int,
        b: Buffer,
        b_slot: int,
        c: Buffer,
        c_slot: int,
        m: int,
        n: int,
        k: int,
        init: bool,
        bias: Buffer | None = None,
        bias_slot: int | None = None,
    ) -> None:
        if bias is not None:
            self._mmad_bias(op, (a, a_slot, b, b_slot, c, c_slot, m, n, k, init, bias, bias_slot))
            return
        key = (id(a), a_slot, id(b), b_slot, id(c), c_slot, m, n, k, init)
        entry = self._bound.get(key)
        if entry is None:
            entry = self._bind_mmad(key, a, b, c)
        bound, g, av, bv, cv, a_addr, b_addr, c_addr = entry
        if self.observed:
            self._observe(op, MMAD, bound)
        product, reg = self._product(a, a_addr, av, b, b_addr, bv, g)
        self._accumulate(c, c_addr, cv, g, product, bool(init), reg)

    def _product(
        self,
        a: Buffer,
        a_addr: int,
        av: np.ndarray,
        b: Buffer,
        b_addr: int,
        bv: np.ndarray,
        g: Mmad,
    ) -> tuple[np.ndarray, int]:
        """An mmad's ``A @ B`` in float32, and its replay register (:data:`MATMUL`)."""
        a_matrix = self._matrix(a, a_addr, av, g, "A")
        a_reg = self._reg
        b_matrix = self._matrix(b, b_addr, bv, g, "B")
        if not self.dry:
            product = a_matrix @ b_matrix
        elif a_matrix.shape[1] == b_matrix.shape[0]:
            product = stand_in((a_matrix.shape[0], b_matrix.shape[1]))
        else:  # what the product would raise, raised by the real run instead
            raise ValueError("a dry mmad's operands do not match")
        return product, self._define(MATMUL, a_reg, a_matrix.shape, self._reg, b_matrix.shape)

    def _mmad_bias(self, op: Operation, values: tuple[Any, ...]) -> None:
        """An mmad with a bias operand (``values``: :meth:`mmad`'s operands; the bias-init mode
        when ``init``): the product plus the bias row when it initialises C. Recorded when the
        row is one a recorded load_bias wrote (:data:`BIASED`)."""
        a, a_slot, b, b_slot, c, c_slot, _, _, _, init, bias, bias_slot = values
        bound = MMAD.bind(*values)
        self.bounds(MMAD, bound, values)
        g: Mmad = bound.geometry
        av, bv, cv = a.slot(a_slot), b.slot(b_slot), c.slot(c_slot)
        ins.mmad_operands(av, bv, cv, g)
        if self.observed:
            self._observe(op, MMAD, bound)
        a_addr, b_addr, c_addr = bound.chip[3:6]
        product, reg = self._product(a, a_addr, av, b, b_addr, bv, g)
        if init:
            assert bias_slot is not None
            product = product + ins.bias_row(bias.slot(bias_slot), g)[: g.n]
            if self.log is not None:
                t_addr = bound.chip[8]
                row = self._biases.get(t_addr)
                if row is None or row[0] < t_addr + g.bias_elems * ins.F32.itemsize:
                    self.log = None
                else:
                    self.log.append((BIASED, reg, row[1], g.n))
        self._accumulate(c, c_addr, cv, g, product, bool(init), reg)

    def _bind_mmad(self, key: tuple[Any, ...], a: Buffer, b: Buffer, c: Buffer) -> tuple[Any, ...]:
        """Bind one set of mmad operand values (``key``: them, the buffers ``a``, ``b`` and
        ``c`` by identity) and check them, remembered by ``key``: the binding, its geometry,
        the three slot views and the three addresses."""
        _, a_slot, _, b_slot, _, c_slot, m, n, k, init = key
        values = (a, a_slot, b, b_slot, c, c_slot, m, n, k, init, None, None)
        bound = MMAD.bind(*values)
        self.bounds(MMAD, bound, values)
        g: Mmad = bound.geometry
        av, bv, cv = a.slot(a_slot), b.slot(b_slot), c.slot(c_slot)
        ins.mmad_operands(av, bv, cv, g)
        entry = (bound, g, av, bv, cv, *bound.chip[3:6])
        self._remember(key, entry)
        return entry

    def _accumulate(
        self,
        buf: Buffer,
        addr: int,
        view: np.ndarray,
        g: Mmad,
        product: np.ndarray,
        init: bool,
        reg: int = -1,
    ) -> None:
        """``C[:m, :n] (+)= product``: on the owed L0C tile when the mmad has its fractal
        geometry, as a new owed tile when it overwrites whole fractals, else on the bytes."""
        end = addr + g.c_elems * ins.F32.itemsize
        shape = (g.m1 * FRACTAL, g.n1 * FRACTAL)
        tile = self._tile_at(buf.memory, addr, end)
        if tile is not None and tile.layout == "nz" and tile.matrix.shape == shape:
            if self.dry:
                pass  # its values are the replay's
            elif init:
                tile.matrix[: g.m, : g.n] = product
            else:
                tile.matrix[: g.m, : g.n] += product
            if self.log is not None:
                self.log.append((SET if init else ADD, tile.reg, g.m, g.n, reg))
            return
        tiles = self._tiles.get(buf.memory)
        if tiles is not None and init and product.shape == shape:
            self._owe(buf.memory, _Tile(addr, end, product, F32, "nz", reg))
            return
        if tiles is not None and init and not any(t.addr < end and addr < t.end for t in tiles):
            self._owe(buf.memory, self._part_tile(addr, end, view, g, product, reg))
            return
        self._settle(buf.memory, addr, end)
        self.log = None
        ins.accumulate(view, product, g, init)

    def _part_tile(
        self, addr: int, end: int, view: np.ndarray, g: Mmad, product: np.ndarray, reg: int
    ) -> _Tile:
        """The owed Nz tile of an initialising mmad that writes part of its whole fractals
        (``m`` or ``n`` not a multiple of 16, as the forward's and dX's Ho·Wo positions and
        channel tails give) over bytes no tile owes: those bytes' values, ``product`` in
        ``[:m, :n]``. While the core records, no instruction has written L0C's bytes (each
        such write drops the log) and they read zero, so the replay starts the tile from zeros
        (:data:`INIT`); the check keeps that exact whatever wrote them."""
        matrix = formats.from_nz(
            view[: g.c_elems].reshape(g.n1, g.m1, FRACTAL, FRACTAL),
            *(g.m1 * FRACTAL, g.n1 * FRACTAL),
        )
        tile_reg = -1
        if self.log is not None:
            if matrix.any():
                self.log = None
            else:
                tile_reg = self._define(INIT, g.m, g.n, reg, matrix.shape)
        matrix[: g.m, : g.n] = product
        return _Tile(addr, end, matrix, F32, "nz", tile_reg)

    def fixpipe(
        self,
        op: Operation,
        atomic: bool,
        src: Buffer,
        slot: int,
        dst: GmTensor,
        dst_off: int,
        m: int,
        n: int,
        src_stride: int,
        dst_stride: int,
    ) -> None:
        bound = FIXPIPE.bind(atomic, src, slot, dst, dst_off, m, n, src_stride, dst_stride)
        self.bounds(FIXPIPE, bound, (atomic, src, slot, dst, dst_off, m, n, src_stride, dst_stride))
        g: Fixpipe = bound.geometry
        s_addr = bound.chip[1]
        if self.observed:
            self._observe(op, FIXPIPE, bound)
            if self.sanitizer is not None:
                runs, atomic = FIXPIPE.gm_writes(bound), FIXPIPE.atomic(bound)
                self.sanitizer.record_gm(op, dst, dst.nbytes, runs, atomic)
        values = None
        if src.memory in self._tiles:
            end = s_addr + g.src_elems * ins.F32.itemsize
            values = self._nz_values(src.memory, s_addr, end, g)
            if values is None:
                self._settle(src.memory, s_addr, end)
        if values is None:
            self.log = None
        elif self.log is not None:
            self.log.append((FIX, self._reg, src.slot(slot), dst, g))
        ins.fixpipe_g(src.slot(slot), dst.data, dst_off, g, values, self.dry)
        if not self.dry:
            dst.written()

    def _nz_values(self, memory: str, addr: int, end: int, g: Fixpipe) -> np.ndarray | None:
        """What a fixpipe reads from ``[addr, end)``, as ``(blocks, m, 16)`` values, when the
        newest owed tile there is an Nz tile whose N blocks are the fixpipe's blocks (its
        source step is one block of the tile): then the tile's matrix holds exactly those
        values and its bytes stay owed. None otherwise (the bytes are written first)."""
        tile = self._tile_at(memory, addr, end)
        if tile is None or tile.layout != "nz":
            return None
        rows, cols = tile.matrix.shape
        width = g.blocks * FRACTAL
        if g.src_step != rows * FRACTAL or g.m > rows or width > cols:
            return None
        self._reg = tile.reg
        return fixpipe_values(tile.matrix, g)
