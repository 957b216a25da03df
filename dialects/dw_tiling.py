"""The tiling of a dW kernel: every field of the vendor's ``TConv3DBpFilterTiling``.

``DwTiling`` is the plain-Python record (one field per ``TConv3DBpFilterTiling`` field of
hicann/asc-devkit ``include/adv_api/conv_backprop/conv3d_bp_filter_tilingdata.h``, in the vendor's
order, spelled in snake_case) plus the multi-core split that the operator-level tiling adds
(``batch_dim`` … ``dk_dim``, the ``params`` of hicann/ops-nn ``conv/conv3d_backprop_filter_v2/
op_kernel/arch22/conv3d_backprop_filter_v2_tiling_data.h``) and the DEVKIT basic block
(``single_core_m/n/k``). The tiler produces it, the ``#ascend.dw_tiling`` attribute carries it
through the IR, and the lowering and runtime read it.

The small formulas that size the x (B1) buffer — how many Ho rows a run of K positions can touch,
how many input rows and Cin1 rows that means, and the resulting ``bl1Bound`` (hicann/asc-devkit
``impl/adv_api/tiling/conv_backprop/conv3d_bp_filter_tiling.cpp`` on the host,
``dav_v220/conv3d_bp_filter_sub_func.h`` in the kernel) — live here too, because both the host
tiler (``passes/dw_tiling_heuristic.py``) and :meth:`DwTiling.errors` (which the
``#ascend.dw_tiling`` verifier calls) need exactly the same numbers. Conventions for the
per-core shares are documented on :class:`DwTiling`.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any

from ascend_xdsl.dialects.conv_shape import FRACTAL
from ascend_xdsl.dialects.conv_shape import align_up as _align_up
from ascend_xdsl.dialects.conv_shape import ceil_div as _ceil_div

L0C_ELEMENT_BYTES = 4
"""The accumulator in L0C is fp32 whatever the input type."""


def element_bytes(channel_size: int) -> int:
    """Bytes of one x/dy element: a C0 block is always 32 bytes (C0 = 32 B / element size)."""
    return 32 // channel_size


def ho_rows_bound(k_positions: int, wo: int) -> int:
    """Host bound on the Ho rows that one B1 block of ``k_positions`` (Ho·Wo positions) can touch.

    This is the host tiler's ``hoCal`` (asc-devkit ``conv3d_bp_filter_tiling.cpp``, bl1Bound). A
    block starting mid-row spills
    into one more row, so unless the block length and Wo divide one another the bound is
    ⌊k/Wo⌋ + 2 (or 2 when the block is shorter than a row). It is never below
    :func:`rows_to_copy`, which is what the kernel really copies.
    """
    if k_positions % wo == 0 or wo % k_positions == 0:
        return _ceil_div(k_positions, wo)
    if k_positions > wo:
        return k_positions // wo + 2
    return 2


def rows_to_copy(kbl1: int, wo: int) -> int:
    """Ho rows the kernel copies for one B1 block of ``kbl1`` positions (``CalRows2Copy`` in
    asc-devkit ``dav_v220/conv3d_bp_filter_sub_func.h``).

    Blocks start at multiples of ``kbl1``, so when ``kbl1`` (or twice it) is a whole number of rows,
    every block starts at a row start or exactly mid-row and ⌈kbl1/Wo⌉ rows suffice.
    """
    if kbl1 < wo:
        return 1 if wo % kbl1 == 0 else 2
    rows = _ceil_div(kbl1, wo)
    if kbl1 % wo == 0 or (2 * kbl1) % wo == 0:
        return rows
    return rows + 1


def hi_rows_for(ho_rows: int, stride_h: int, kh: int, dilation_h: int) -> int:
    """Input (Hi) rows that ``ho_rows`` consecutive output rows read: (r−1)·sH + (kH−1)·dH + 1."""
    return (ho_rows - 1) * stride_h + (kh - 1) * dilation_h + 1


def cin1_copy_len(n_elements: int, khw: int) -> int:
    """Cin1 rows one B1 block must hold to cover ``n_elements`` of N ((c1, kh, kw, c0) flattened).

    N runs over kH·kW fractal columns per C1 row, so a window of ⌈n/16⌉ columns spans
    ⌈cols/(kH·kW)⌉ C1 rows, plus one when a window can straddle a C1 boundary: when it is shorter
    than one row and does not divide it, or when two windows do not end on a row boundary
    (``cin1CopyLen`` in asc-devkit ``conv3d_bp_filter_tiling.cpp``).
    """
    cols = _ceil_div(n_elements, FRACTAL)
    if cols == 0:
        return 0
    rows = _ceil_div(cols, khw)
    if (khw > cols and khw % cols != 0) or (2 * cols) % khw != 0:
        rows += 1
    return rows


def bl1_bound_for(
    *,
    base_k: int,
    step_kb: int,
    base_n: int,
    step_n: int,
    wo: int,
    wi: int,
    kh: int,
    kw: int,
    stride_h: int,
    dilation_h: int,
    cin1_rows: int | None = None,
) -> int:
    """Elements of one B1 (x) buffer: worst-case Hi rows × Wi × Cin1 rows × C0 (``bl1Bound``).

    The channel factor is the fractal 16, as in the vendor tiler (equal to C0 for 2-byte types).
    ``cin1_rows`` is the number of Cin1 rows the GEMM has: a B1 block never holds more (the
    kernel copies the rows its N window spans, clipped at the GEMM's N). The vendor's formula
    ignores it, which for one or two Cin1 rows (an RGB stem) can double the bound; ours caps it.
    """
    hi = hi_rows_for(ho_rows_bound(base_k * step_kb, wo), stride_h, kh, dilation_h)
    rows = cin1_copy_len(step_n * base_n, kh * kw)
    if cin1_rows is not None:
        rows = min(rows, cin1_rows)
    return hi * wi * rows * FRACTAL


ITERATE_ORDER_M = 0
"""ORDER_M: N innermost, the A1 (dy) block stays resident in L1."""
ITERATE_ORDER_N = 1
"""ORDER_N: M innermost, the B1 (x) block stays resident in L1."""


@dataclass(frozen=True)
class DwTiling:
    """Every field of one dW kernel's tiling.

    Conventions (shared by the tiler, the verifier and the lowering):

    * GEMM sizes are per *enlarged* group (``conv_shape.GroupEnlargement``): M = cout1_g·C0,
      N = hk·wk·cin1_g·C0 and Dk is iterated separately (the DEVKIT API's ``seperateDk``), K =
      Ho·Wo; or, when ``fused_dk``, N = dk·hk·wk·cin1_g·C0: the kD input slices of one output
      depth are consecutive Cin1 rows (groups 1, dilation_d 1), ``single_core_dk`` and
      ``dk_dim`` are 1 and ``single_core_cin`` counts (dk × cin1) rows·C0 (ops-nn
      ``op_kernel/arch22/conv3d_backprop_filter_v2.h``, non-``seperateDk`` mode).
    * ``single_core_{batch,group,dk,cout,ho,cin}`` are the share of the whole problem that one
      core handles, and the driver loop on that core walks all of it: batch·dout pairs, groups, dk
      slices, then one GEMM of single_core_cout × (hk·wk·single_core_cin) × single_core_ho·wo.
      The ``*_dim`` fields split each axis over cores, so ``dim × share`` covers the axis.
    * ``single_core_m/n/k`` are the vendor's basic block (``basicBlockTiling``) for that per-core
      GEMM; 0 means "not given". Like the vendor's, a basic block may overhang the per-core
      extent by less than one L1 block (step × base); the kernel clips the tail.
    """

    # -- problem (TConv3DBpFilterTiling fields 1-28) --
    batch: int
    cin: int
    cout: int
    cin1_g: int
    cout1_g: int
    dout: int
    ho: int
    wo: int
    di: int
    hi: int
    wi: int
    dk: int
    hk: int
    wk: int
    group: int
    stride_d: int
    stride_h: int
    stride_w: int
    pad_front: int
    pad_back: int
    pad_up: int
    pad_down: int
    pad_left: int
    pad_right: int
    dilation_d: int
    dilation_h: int
    dilation_w: int
    channel_size: int
    # -- buffering (29-33) --
    al0_pbuffer: int
    bl0_pbuffer: int
    cl0_pbuffer: int
    al1_pbuffer: int
    bl1_pbuffer: int
    # -- tile sizes (34-45) --
    base_m: int
    base_k: int
    base_n: int
    m0: int
    k0: int
    n0: int
    step_m: int
    step_n: int
    step_ka: int
    step_kb: int
    iterate_order: int
    bl1_bound: int
    hf32_flag: int
    # -- per-core shares (47-52) --
    single_core_dk: int
    single_core_group: int
    single_core_cout: int
    single_core_ho: int
    single_core_batch: int
    single_core_cin: int
    # -- multi-core split (OPSNN params block) --
    batch_dim: int = 1
    group_dim: int = 1
    m_dim: int = 1
    k_dim: int = 1
    n_dim: int = 1
    dk_dim: int = 1
    # -- DEVKIT basicBlockTiling --
    single_core_m: int = 0
    single_core_n: int = 0
    single_core_k: int = 0

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DwTiling:
        """The inverse of :meth:`as_dict`; rejects unknown or missing fields and non-integers."""
        names = cls.field_names()
        unknown = sorted(set(d) - set(names))
        if unknown:
            raise ValueError(f"unknown DwTiling field(s): {', '.join(unknown)}")
        required = [f.name for f in fields(cls) if f.default is MISSING]
        missing = [name for name in required if name not in d]
        if missing:
            raise ValueError(f"missing DwTiling field(s): {', '.join(missing)}")
        for name, value in d.items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"DwTiling field {name} must be an integer, got {value!r}")
        return cls(**d)

    @property
    def gemm_m(self) -> int:
        """M of one enlarged group: Cout1 per group × C0."""
        return self.cout1_g * self.channel_size

    @property
    def required_bl1_bound(self) -> int:
        """B1 elements this tiling's K and N steps can need (:func:`bl1_bound_for`)."""
        return bl1_bound_for(
            base_k=self.base_k,
            step_kb=self.step_kb,
            base_n=self.base_n,
            step_n=self.step_n,
            wo=self.wo,
            wi=self.wi,
            kh=self.hk,
            kw=self.wk,
            stride_h=self.stride_h,
            dilation_h=self.dilation_h,
            cin1_rows=self.single_core_cin // self.channel_size,
        )

    def errors(self, l1_size: int, l0a_size: int, l0b_size: int, l0c_size: int) -> list[str]:
        """Every internal inconsistency of this tiling, as precise one-line messages.

        Checks the field domains, the L0A/L0B/L0C/L1 footprints against the given buffer sizes
        (bytes), and that the per-core shares and the multi-core split cover the problem without
        an idle core. Empty if the tiling is consistent.
        """
        errs = self._domain_errors()
        if errs:
            # Footprints and shares are meaningless (or divide by zero) on a broken domain.
            return errs
        errs += self._buffer_errors(l1_size, l0a_size, l0b_size, l0c_size)
        errs += self._share_errors()
        return errs

    def _domain_errors(self) -> list[str]:
        errs: list[str] = []
        positive = [
            *("batch", "cin", "cout", "cin1_g", "cout1_g", "dout", "ho", "wo", "di", "hi", "wi"),
            *("dk", "hk", "wk", "group", "stride_d", "stride_h", "stride_w"),
            *("dilation_d", "dilation_h", "dilation_w", "base_m", "base_k", "base_n"),
            *("single_core_dk", "single_core_group", "single_core_cout", "single_core_ho"),
            *("single_core_batch", "single_core_cin"),
            *("batch_dim", "group_dim", "m_dim", "k_dim", "n_dim", "dk_dim"),
        ]
        for name in positive:
            value = getattr(self, name)
            if value < 1:
                errs.append(f"{name} must be positive, got {value}")
        for name in ("pad_front", "pad_back", "pad_up", "pad_down", "pad_left", "pad_right"):
            if getattr(self, name) < 0:
                errs.append(f"{name} must not be negative, got {getattr(self, name)}")
        if self.channel_size != 16:
            errs.append(f"channel_size (C0) must be 16 for 2-byte types, got {self.channel_size}")
        if self.m0 != FRACTAL or self.n0 != FRACTAL:
            errs.append(f"m0 and n0 must be {FRACTAL}, got m0={self.m0}, n0={self.n0}")
        if self.k0 != self.channel_size:
            errs.append(f"k0 must equal channel_size {self.channel_size}, got {self.k0}")
        for name in ("base_m", "base_n"):
            value = getattr(self, name)
            if value >= 1 and value % FRACTAL:
                errs.append(f"{name} must be a multiple of {FRACTAL}, got {value}")
        if self.base_k >= 1 and self.k0 >= 1 and self.base_k % self.k0:
            errs.append(f"base_k must be a multiple of k0 ({self.k0}), got {self.base_k}")
        for name in ("al0_pbuffer", "bl0_pbuffer", "cl0_pbuffer", "al1_pbuffer", "bl1_pbuffer"):
            value = getattr(self, name)
            if value not in (1, 2):
                errs.append(f"{name} must be 1 or 2, got {value}")
        for name in ("step_m", "step_n", "step_ka", "step_kb"):
            value = getattr(self, name)
            if value < 1:
                errs.append(f"{name} must be at least 1, got {value}")
        # The vendor tiler makes them multiples of each other (UpdateStepMNK), and the kernel's
        # K walk relies on it: between two A1 block boundaries no B1 block ends, or vice versa.
        low, high = sorted((self.step_ka, self.step_kb))
        if low >= 1 and high % low:
            errs.append(
                f"step_ka ({self.step_ka}) and step_kb ({self.step_kb}) must be multiples of "
                "one another"
            )
        if self.iterate_order not in (ITERATE_ORDER_M, ITERATE_ORDER_N):
            errs.append(
                f"iterate_order must be 0 (ORDER_M) or 1 (ORDER_N), got {self.iterate_order}"
            )
        if self.hf32_flag not in (0, 1):
            errs.append(f"hf32_flag must be 0 or 1, got {self.hf32_flag}")
        for name in ("single_core_m", "single_core_n", "single_core_k"):
            if getattr(self, name) < 0:
                errs.append(f"{name} must not be negative, got {getattr(self, name)}")
        return errs

    def _buffer_errors(
        self, l1_size: int, l0a_size: int, l0b_size: int, l0c_size: int
    ) -> list[str]:
        errs: list[str] = []
        nbytes = element_bytes(self.channel_size)
        # Load3D pads the K extent of an L0 tile to the 16-row fractal, so size with that.
        k16 = _align_up(self.base_k, FRACTAL)
        for buf, size, base, name, pbuf in (
            ("L0A", l0a_size, self.base_m, "base_m", self.al0_pbuffer),
            ("L0B", l0b_size, self.base_n, "base_n", self.bl0_pbuffer),
        ):
            one = base * k16 * nbytes
            if one * pbuf > size:
                errs.append(
                    f"{buf} overflow: {name} {base} x base_k {k16} (16-aligned) x {nbytes} B = "
                    f"{one} B x{pbuf} = {one * pbuf} B, {buf} has {size} B"
                )
        c_one = self.base_m * self.base_n * L0C_ELEMENT_BYTES
        if c_one * self.cl0_pbuffer > l0c_size:
            errs.append(
                f"L0C overflow: base_m {self.base_m} x base_n {self.base_n} x "
                f"{L0C_ELEMENT_BYTES} B = {c_one} B x{self.cl0_pbuffer} = "
                f"{c_one * self.cl0_pbuffer} B, L0C has {l0c_size} B"
            )
        a1 = self.step_ka * self.base_k * self.step_m * self.base_m * nbytes
        b1 = self.bl1_bound * nbytes
        total = a1 * self.al1_pbuffer + b1 * self.bl1_pbuffer
        if total > l1_size:
            errs.append(
                f"L1 overflow: A1 needs {a1} B x{self.al1_pbuffer} + B1 needs {b1} B "
                f"x{self.bl1_pbuffer} = {total} B, L1 has {l1_size} B"
            )
        need = self.required_bl1_bound
        if self.bl1_bound < need:
            errs.append(
                f"bl1_bound {self.bl1_bound} is below the {need} elements one B1 block can need "
                f"(base_k {self.base_k} x step_kb {self.step_kb}, base_n {self.base_n} x "
                f"step_n {self.step_n})"
            )
        return errs

    @property
    def fused_dk(self) -> bool:
        """kD fused into N (no dk driver loop): dk > 1 with one dk slice and one dk piece."""
        return self.dk > 1 and self.single_core_dk == 1 and self.dk_dim == 1

    def _share_errors(self) -> list[str]:
        errs: list[str] = []
        c0 = self.channel_size
        dk_rows = self.dk if self.fused_dk else 1
        axes = (
            ("batch*dout", self.batch * self.dout, "batch_dim", self.batch_dim,
             "single_core_batch", self.single_core_batch),
            ("group", self.group, "group_dim", self.group_dim,
             "single_core_group", self.single_core_group),
            ("dk", self.dk // dk_rows, "dk_dim", self.dk_dim, "single_core_dk",
             self.single_core_dk),
            ("cout1_g*C0", self.gemm_m, "m_dim", self.m_dim,
             "single_core_cout", self.single_core_cout),
            ("dk*cin1_g*C0" if self.fused_dk else "cin1_g*C0", dk_rows * self.cin1_g * c0,
             "n_dim", self.n_dim, "single_core_cin", self.single_core_cin),
            ("ho", self.ho, "k_dim", self.k_dim, "single_core_ho", self.single_core_ho),
        )  # fmt: skip
        for axis, total, dim_name, dim, share_name, share in axes:
            if dim * share < total:
                errs.append(
                    f"{dim_name} {dim} x {share_name} {share} = {dim * share} does not cover "
                    f"{axis} = {total}"
                )
            elif (dim - 1) * share >= total:
                errs.append(
                    f"{dim_name} {dim} leaves a core idle: {dim - 1} x {share_name} {share} "
                    f"already covers {axis} = {total}"
                )
        if self.single_core_cout % FRACTAL:
            errs.append(
                f"single_core_cout must be a multiple of {FRACTAL}, got {self.single_core_cout}"
            )
        if self.single_core_cin % c0:
            errs.append(
                f"single_core_cin must be a multiple of C0 ({c0}), got {self.single_core_cin}"
            )
        # The vendor's basic block is a multiple of one L1 block (step x base) and may overhang
        # the per-core extent by less than one such block (its tail is clipped at run time).
        max_step_k = max(self.step_ka, self.step_kb)
        per_core = (
            ("single_core_m", self.single_core_m, "single_core_cout", self.single_core_cout,
             self.step_m * self.base_m),
            ("single_core_n", self.single_core_n, "hk*wk*single_core_cin",
             self.hk * self.wk * self.single_core_cin, self.step_n * self.base_n),
            ("single_core_k", self.single_core_k, "single_core_ho*wo (C0-aligned)",
             _align_up(self.single_core_ho * self.wo, c0), max_step_k * self.base_k),
        )  # fmt: skip
        for name, value, extent_name, extent, l1_block in per_core:
            limit = _align_up(extent, l1_block)
            if value > limit:
                errs.append(
                    f"{name} {value} exceeds the per-core {extent_name} = {extent} rounded up "
                    f"to whole L1 blocks of {l1_block} ({limit})"
                )
        return errs

    @property
    def core_num(self) -> int:
        """Cores used by the kernel (the launch's block dim)."""
        return self.batch_dim * self.group_dim * self.m_dim * self.k_dim * self.n_dim * self.dk_dim

    def core_split(self) -> list[tuple[str, int]]:
        """The axes the cores are split over, with their piece counts (those above 1), in the
        order reports show them: batch*dout, group, dk, M, N, K."""
        axes = (
            ("batch*dout", self.batch_dim),
            ("group", self.group_dim),
            ("dk", self.dk_dim),
            ("M", self.m_dim),
            ("N", self.n_dim),
            ("K", self.k_dim),
        )
        return [(axis, dim) for axis, dim in axes if dim > 1]
