"""The tiling of a dW kernel: every field of the vendor's ``TConv3DBpFilterTiling``.

``DwTiling`` is the plain-Python record (one field per ``TConv3DBpFilterTiling`` field, research
sheet §2.1, in the vendor's order, spelled in snake_case) plus the multi-core split that the
operator-level tiling adds (``batch_dim`` … ``dk_dim``, research §2.1 OPSNN params) and the
DEVKIT basic block (``single_core_m/n/k``). The tiler produces it, the ``#ascend.dw_tiling``
attribute carries it through the IR, and the lowering and runtime read it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

ITERATE_ORDER_M = 0
"""ORDER_M: N innermost, the A1 (dy) block stays resident in L1."""
ITERATE_ORDER_N = 1
"""ORDER_N: M innermost, the B1 (x) block stays resident in L1."""


@dataclass(frozen=True)
class DwTiling:
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

    @property
    def core_num(self) -> int:
        """Cores used by the kernel (the launch's block dim)."""
        return self.batch_dim * self.group_dim * self.m_dim * self.k_dim * self.n_dim * self.dk_dim
