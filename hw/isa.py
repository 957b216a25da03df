"""The instruction model of the AI Cube core: what each hardware instruction does, in one place.

Every hardware-level op of the ``ascend`` dialect (``data_copy``, ``load3d``, ``load2d``,
``mmad``, ``fixpipe``, ``set_flag``/``wait_flag``, ``pipe_barrier``) is, for the purposes of
this project, a function of its operand integers. This module is that function, written once:

* the **pipe** it runs on (:class:`Pipe`);
* the **ISA limits** of its fields, read from ``isa.toml`` next to this file (the ranges of the
  Ascend C parameter structs, each with its source); the verifiers of
  ``dialects/hw_level.py``, the lowering and the simulator all read :data:`LIMITS`;
* its **geometry**, decoded and checked once per distinct set of operands (``DataCopy``,
  ``Load3d``, ``Load2d``, ``Mmad``, ``Fixpipe`` below, each ``decode``-d through a cache): the
  steps and extents in bytes that the numpy data backend (``runtime/machine/semantics.py``) moves;
* its **effects**: the byte ranges it reads and writes in each memory and its work (m, n, k,
  rows, bytes, stride, kernel), which the sanitizer (``runtime/machine/sanitizer.py``) checks and
  the cost model times.

Nothing here knows about xDSL or numpy; addresses are byte addresses inside one memory (an
on-chip memory of one core, or one GM tensor for ``"GM"``). The exact semantics are
docs/hw-level-spec.md; the instruction names and parameter structs are those of the Ascend C API
reference (hicann/asc-devkit: ``DataCopy``, ``LoadData`` with ``LoadData3DParamsV2`` /
``LoadData2DParams``, ``Mmad``, ``Fixpipe`` with ``FixpipeParamsV220``, ``SetFlag``/``WaitFlag``,
``PipeBarrier``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from xdsl.utils.str_enum import StrEnum

from ascend_xdsl.hw.intmath import ceil_div

BLOCK_BYTES = 32
"""One block: the unit of DataCopy lengths and strides and of the fixpipe dst stride."""

FRACTAL = 16
"""Rows and columns of one Cube fractal (16x16 elements), the M0/N0/K0 of the b16 types."""

FRACTAL_ELEMS = FRACTAL * FRACTAL

ACC_BYTES = 4
"""Bytes of one L0C accumulator (float32)."""


class Pipe(StrEnum):
    """The AI Core's instruction queues: S (scalar), V (vector), M (Cube), MTE1 (L1 -> L0),
    MTE2 (GM -> L1), MTE3 (UB -> GM), FIX (fixpipe L0C -> GM); ALL names every pipe in a
    barrier."""

    S = "S"
    V = "V"
    M = "M"
    MTE1 = "MTE1"
    MTE2 = "MTE2"
    MTE3 = "MTE3"
    FIX = "FIX"
    ALL = "ALL"


EVENT_PIPES: tuple[Pipe, ...] = tuple(p for p in Pipe if p != Pipe.ALL)
"""The pipes an event can connect (every pipe but ALL)."""


class InstructionError(ValueError):
    """An instruction whose operands break an ISA limit (one line naming op, field, value)."""


# ---------------------------------------------------------------------------------------------
# limits


@dataclass(frozen=True)
class Limit:
    """The legal values of one instruction field: ``lo <= v <= hi``, a multiple of ``multiple``."""

    lo: int
    hi: int | None
    multiple: int | None
    source: str

    def error(self, instr: str, what: str, value: int) -> str | None:
        """The one-line message for an illegal ``value`` (None when it is legal)."""
        if self.hi is not None and not self.lo <= value <= self.hi:
            return f"{instr} {what} {value} is not in [{self.lo}, {self.hi}]"
        if value < self.lo:
            below = "negative" if self.lo == 0 else f"below {self.lo}"
            return f"{instr} {what} {value} is {below}"
        if self.multiple is not None and value % self.multiple:
            return f"{instr} {what} {value} is not a multiple of {self.multiple}"
        return None


def _load_limits() -> dict[str, dict[str, Limit]]:
    text = (resources.files(__package__) / "isa.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)
    return {
        instr: {
            name: Limit(f["lo"], f.get("hi"), f.get("multiple"), f["source"])
            for name, f in fields.items()
        }
        for instr, fields in table.items()
    }


LIMITS: dict[str, dict[str, Limit]] = _load_limits()
"""``LIMITS[instruction][field]``, e.g. ``LIMITS["data_copy"]["count"]`` = [1, 4095]."""


def limit(instr: str, field: str) -> Limit:
    return LIMITS[instr][field]


def check(instr: str, field: str, value: int, what: str | None = None) -> None:
    """Raise :class:`InstructionError` if ``value`` breaks the limit of ``instr``'s ``field``
    (``what`` names it in the message when it is one of several values, e.g. "stride w")."""
    message = LIMITS[instr][field].error(instr, what or field, value)
    if message is not None:
        raise InstructionError(message)


# ---------------------------------------------------------------------------------------------
# effects


class Span(NamedTuple):
    """Bytes ``[lo, hi)`` of one memory ("GM" is the tensor the operand names)."""

    memory: str
    lo: int
    hi: int


class Work(NamedTuple):
    """How much an instruction does, in the units its pipe's throughput is given in."""

    bytes: int = 0
    m: int = 0
    n: int = 0
    k: int = 0
    rows: int = 0
    stride: tuple[int, int] = (1, 1)
    kernel: tuple[int, int] = (1, 1)
    element_bytes: int = 2
    """Bytes of the element type the instruction computes or moves (the Cube's rate depends on
    it)."""


class Effects(NamedTuple):
    """What one executed instruction does: its pipe, the bytes it reads and writes, its work."""

    pipe: Pipe
    reads: tuple[Span, ...] = ()
    writes: tuple[Span, ...] = ()
    work: Work = Work()


# ---------------------------------------------------------------------------------------------
# MTE2: DataCopy GM -> L1


@dataclass(frozen=True, slots=True)
class DataCopy:
    """``count`` runs of ``len`` 32-byte blocks; run ``i`` reads GM from ``i * src_step`` and
    writes from ``i * dst_step`` (bytes, relative to the two start addresses)."""

    count: int
    run: int
    src_step: int
    dst_step: int

    pipe = Pipe.MTE2

    @staticmethod
    @lru_cache(maxsize=4096)
    def decode(count: int, length: int, src_stride: int, dst_stride: int) -> DataCopy:
        for field, v in (
            ("count", count),
            ("len", length),
            ("src_stride", src_stride),
            ("dst_stride", dst_stride),
        ):
            check("data_copy", field, v)
        return DataCopy(
            count,
            length * BLOCK_BYTES,
            (length + src_stride) * BLOCK_BYTES,
            (length + dst_stride) * BLOCK_BYTES,
        )

    @property
    def src_bytes(self) -> int:
        return (self.count - 1) * self.src_step + self.run

    @property
    def dst_bytes(self) -> int:
        return (self.count - 1) * self.dst_step + self.run

    def effects(self, src: int, dst_memory: str, dst: int) -> Effects:
        return Effects(
            self.pipe,
            (Span("GM", src, src + self.src_bytes),),
            (Span(dst_memory, dst, dst + self.dst_bytes),),
            Work(bytes=self.count * self.run, rows=self.count),
        )


# ---------------------------------------------------------------------------------------------
# MTE1: LoadData L1 -> L0A/L0B


def out_width(l1_w: int, pad_left: int, pad_right: int, kw: int, sw: int, dw: int) -> int:
    """``Wout`` of load3d: output positions per feature-map row."""
    return (l1_w + pad_left + pad_right - dw * (kw - 1) - 1) // sw + 1


_PAD_SIDES = ("top", "bottom", "left", "right")


@dataclass(frozen=True, slots=True)
class Load3d:
    """img2col of a ``[C1][l1_h][l1_w][C0]`` feature map (docs/hw-level-spec.md): reads
    ``fmap_bytes`` from the source address, writes ``out_bytes`` from the destination slot."""

    l1_h: int
    l1_w: int
    channels: int
    k_start: int
    k_ext: int
    m_start: int
    m_ext: int
    pad: tuple[int, int, int, int]
    kernel: tuple[int, int]
    stride: tuple[int, int]
    dilation: tuple[int, int]
    transpose: bool
    element_bytes: int
    wout: int

    pipe = Pipe.MTE1

    @staticmethod
    @lru_cache(maxsize=4096)
    def decode(
        l1_h: int,
        l1_w: int,
        channels: int,
        k_start: int,
        k_ext: int,
        m_start: int,
        m_ext: int,
        pad: tuple[int, int, int, int],
        kernel: tuple[int, int],
        stride: tuple[int, int],
        dilation: tuple[int, int],
        transpose: bool,
        element_bytes: int,
    ) -> Load3d:
        for field, values in (("kernel", kernel), ("stride", stride), ("dilation", dilation)):
            for axis, v in zip("hw", values, strict=True):
                check("load3d", field, v, f"{field} {axis}")
        for side, v in zip(_PAD_SIDES, pad, strict=True):
            check("load3d", "pad", v, f"pad {side}")
        for field, v in (
            ("m_ext", m_ext),
            ("k_ext", k_ext),
            ("channels", channels),
            ("l1_h", l1_h),
            ("l1_w", l1_w),
            ("k_start", k_start),
            ("m_start", m_start),
        ):
            check("load3d", field, v)
        kh, kw = kernel
        wout = out_width(l1_w, pad[2], pad[3], kw, stride[1], dilation[1])
        if wout < 1:
            raise InstructionError(
                f"load3d kernel w extent {dilation[1] * (kw - 1) + 1} exceeds the padded width "
                f"{l1_w + pad[2] + pad[3]} (Wout {wout})"
            )
        columns = channels * kh * kw
        if k_start + k_ext > columns:
            raise InstructionError(
                f"load3d columns [{k_start}, {k_start + k_ext}) exceed channels*kh*kw = {columns}"
            )
        return Load3d(
            l1_h,
            l1_w,
            channels,
            k_start,
            k_ext,
            m_start,
            m_ext,
            pad,
            kernel,
            stride,
            dilation,
            transpose,
            element_bytes,
            wout,
        )

    @property
    def fmap_elems(self) -> int:
        return self.channels * self.l1_h * self.l1_w

    @property
    def out_elems(self) -> int:
        return self.m_ext * self.k_ext

    @property
    def fmap_bytes(self) -> int:
        return self.fmap_elems * self.element_bytes

    def effects(self, src_memory: str, src: int, dst_memory: str, dst: int) -> Effects:
        eb = self.element_bytes
        out = self.out_elems * eb
        return Effects(
            self.pipe,
            (Span(src_memory, src, src + self.fmap_elems * eb),),
            (Span(dst_memory, dst, dst + out),),
            Work(
                bytes=out,
                m=self.m_ext,
                k=self.k_ext,
                rows=self.kernel[0],
                stride=self.stride,
                kernel=self.kernel,
            ),
        )


@dataclass(frozen=True, slots=True)
class Load2d:
    """``repeat`` whole fractals; fractal ``i`` is read at ``i * src_step`` and written at
    ``i * FRACTAL_ELEMS`` (elements), optionally transposed."""

    repeat: int
    src_step: int
    transpose: bool
    element_bytes: int

    pipe = Pipe.MTE1

    @staticmethod
    @lru_cache(maxsize=1024)
    def decode(repeat: int, src_stride: int, transpose: bool, element_bytes: int) -> Load2d:
        check("load2d", "repeat", repeat)
        check("load2d", "src_stride", src_stride)
        return Load2d(repeat, src_stride * FRACTAL_ELEMS, transpose, element_bytes)

    @property
    def src_elems(self) -> int:
        return (self.repeat - 1) * self.src_step + FRACTAL_ELEMS

    @property
    def dst_elems(self) -> int:
        return self.repeat * FRACTAL_ELEMS

    def effects(self, src_memory: str, src: int, dst_memory: str, dst: int) -> Effects:
        eb = self.element_bytes
        return Effects(
            self.pipe,
            (Span(src_memory, src, src + self.src_elems * eb),),
            (Span(dst_memory, dst, dst + self.dst_elems * eb),),
            Work(bytes=self.dst_elems * eb, rows=self.repeat),
        )


# ---------------------------------------------------------------------------------------------
# M: Mmad L0A x L0B -> L0C


def fractals(v: int) -> int:
    """Whole 16-element fractal rows/columns covering ``v``."""
    return ceil_div(v, FRACTAL)


@dataclass(frozen=True, slots=True)
class Mmad:
    """``C[:m, :n] (+)= A[:m, :k] @ B[:k, :n]``: A Zz (M1, K1, 16, 16), B Zn (K1, N1, 16, 16),
    C Nz (N1, M1, 16, 16) float32, each from element 0 of its slot."""

    m: int
    n: int
    k: int
    m1: int
    n1: int
    k1: int
    element_bytes: int

    pipe = Pipe.M

    @staticmethod
    @lru_cache(maxsize=4096)
    def decode(m: int, n: int, k: int, element_bytes: int) -> Mmad:
        check("mmad", "m", m)
        check("mmad", "n", n)
        check("mmad", "k", k)
        return Mmad(m, n, k, fractals(m), fractals(n), fractals(k), element_bytes)

    @property
    def a_elems(self) -> int:
        return self.m1 * self.k1 * FRACTAL_ELEMS

    @property
    def b_elems(self) -> int:
        return self.k1 * self.n1 * FRACTAL_ELEMS

    @property
    def c_elems(self) -> int:
        return self.n1 * self.m1 * FRACTAL_ELEMS

    def effects(
        self,
        a: tuple[str, int],
        b: tuple[str, int],
        c: tuple[str, int],
        init: bool,
    ) -> Effects:
        eb = self.element_bytes
        (am, a0), (bm, b0), (cm, c0) = a, b, c
        c_span = Span(cm, c0, c0 + self.c_elems * ACC_BYTES)
        reads = (Span(am, a0, a0 + self.a_elems * eb), Span(bm, b0, b0 + self.b_elems * eb))
        return Effects(
            self.pipe,
            reads if init else (*reads, c_span),
            (c_span,),
            Work(m=self.m, n=self.n, k=self.k, element_bytes=eb),
        )


# ---------------------------------------------------------------------------------------------
# FIX: Fixpipe L0C -> GM


@dataclass(frozen=True, slots=True)
class Fixpipe:
    """NZ -> NZ: ``n / 16`` blocks of ``m`` rows of 16 float32; block ``j`` is read at
    ``j * src_step`` and written at ``j * dst_step`` (elements), added with ``atomic``."""

    m: int
    n: int
    blocks: int
    src_step: int
    dst_step: int
    atomic: bool

    pipe = Pipe.FIX

    @staticmethod
    @lru_cache(maxsize=1024)
    def decode(m: int, n: int, src_stride: int, dst_stride: int, atomic: bool) -> Fixpipe:
        check("fixpipe", "n", n)
        check("fixpipe", "m", m)
        check("fixpipe", "src_stride", src_stride)
        check("fixpipe", "dst_stride", dst_stride)
        return Fixpipe(
            m,
            n,
            n // FRACTAL,
            src_stride * FRACTAL,
            dst_stride * (BLOCK_BYTES // ACC_BYTES),
            atomic,
        )

    @property
    def run(self) -> int:
        """Elements of one block (``m`` rows of 16)."""
        return self.m * FRACTAL

    @property
    def src_elems(self) -> int:
        return (self.blocks - 1) * self.src_step + self.run

    @property
    def dst_elems(self) -> int:
        return (self.blocks - 1) * self.dst_step + self.run

    def effects(self, src_memory: str, src: int, dst: int) -> Effects:
        return Effects(
            self.pipe,
            (Span(src_memory, src, src + self.src_elems * ACC_BYTES),),
            (Span("GM", dst, dst + self.dst_elems * ACC_BYTES),),
            Work(bytes=self.m * self.n * ACC_BYTES, m=self.m, n=self.n),
        )


# ---------------------------------------------------------------------------------------------
# events


def event_error(instr: str, src: Pipe, dst: Pipe, event: int, user_event_ids: int) -> str | None:
    """Why ``instr src -> dst event`` is illegal, or None. Ids from ``user_event_ids`` up are
    reserved for the framework (the hardware figure ``user_event_ids``)."""
    if Pipe.ALL in (src, dst):
        return f"{instr} pipe ALL cannot be an event endpoint, got {src} -> {dst}"
    if src == dst:
        return f"{instr} {src}->{dst}: source and destination pipe are the same"
    if not 0 <= event < user_event_ids:
        return f"{instr} {src}->{dst} event {event} is not in [0, {user_event_ids})"
    return None
