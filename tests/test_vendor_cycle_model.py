"""Our timeline against the vendor's own dW cost model, per k step and per pipe.

The vendor's dW tiler chooses tilings with per-k-step cycle formulas (the CANN cube tiling
library, namespace optiling::cachetiling, that hicann/ops-nn's conv backprop tilers use;
search-index file ids 8307047919 ``cube/algorithm/calculator/cycle_calculator.cc``,
8821634953 ``cube/util/cube_util.cc``, 7829058875 ``cube/constants/constants_define.h``).
They are reimplemented below from their description, each cited, for the fp16 path of dW
(A = dy through a 2-D load, B = img2col(x) through Load3D):

* MTE1 A: ``GetMte1ACycle`` = 20 (k1971Mte1Load2dCost) + k1·512 B / 256 (L1 read) +
  m1·k1·512 B / 256 (L0A write);
* MTE1 B: ``GetMte1BCycle`` = 42 (k1971Mte1Load3dCost) + k1·n1·512 B / the Table 4 rate with
  n = 16 / Wi ((16 - 1) / Wi when 16 % Wo == 0) row switches (``GetLoad3dThroughput``);
* Cube: ``GetMadCycle`` = m1·k1·n1 + 20 (k1971MadCost);
* FIX, per L0C tile: ``GetFixpCycle`` = bytes / 256 + bytes / 128 (L0C read, then out);
* MTE2, per L1 stage: ``GetMte2ACycle`` / ``GetMte2BCycle`` = 300 (k1971Mte2Latency) + bytes /
  96 (k1971HbmBandwidth); evaluated here on the bytes our kernel copies per k step.

(m1, k1, n1 are the base tile in 16-element fractals.) Our side is the cost-only timeline of the
heuristic kernel on the DEVKIT tilings it reproduces (tests/test_dw_tiling_heuristic.py), one
core: each pipe's busy cycles over the k steps (mmads) or, for FIX, over the stores. The test
prints every ratio and requires each pipe within 10 % or within the band its difference is
explained by in docs/cost-model.md ("Against the vendor's own dW cost model").
"""

from __future__ import annotations

import pytest

from ascend_xdsl.hw import load
from ascend_xdsl.hw.cost_figures import cost_figures
from ascend_xdsl.hw.instructions.load3d import FRACTAL_POSITIONS
from ascend_xdsl.lowering.build import shape_from_torch_args
from ascend_xdsl.passes.dw_tiling_heuristic import heuristic_tiling
from ascend_xdsl.runtime.api import compiled_levels, model_cost

HW = "atlas-a2-910b2"
FRACTAL_BYTES = 512  # kFractalSize (256) x kFp16Bytes


def vendor_row_switches(wi: int, wo: int) -> int:
    """GetMte1BCycle's n: 16 / Wi, or (16 - 1) / Wi when Wo divides 16."""
    return (FRACTAL_POSITIONS - 1) // wi if FRACTAL_POSITIONS % wo == 0 else FRACTAL_POSITIONS // wi


def vendor_load3d_rate(switches: int, stride_w: int, l0a: bool) -> int:
    """GetLoad3dThroughput: 512 / (n + 2 [+ 2 for L0B]) at stride 1, 512 / (n + [2] + 2s) at
    strides 2, 4, 8, else 32 / 28 (no floor on the formula rows)."""
    band = 0 if l0a else 2
    if stride_w == 1:
        return 512 // (switches + 2 + band)
    if stride_w in (2, 4, 8):
        return 512 // (switches + band + 2 * stride_w)
    return 32 if l0a else 28


def vendor_per_k_step(m1: int, k1: int, n1: int, wi: int, wo: int, stride_w: int) -> dict:
    rate_b = vendor_load3d_rate(vendor_row_switches(wi, wo), stride_w, l0a=False)
    return {
        "mte1 A": 20 + k1 * FRACTAL_BYTES // 256 + m1 * k1 * FRACTAL_BYTES // 256,
        "mte1 B": 42 + k1 * n1 * FRACTAL_BYTES // rate_b,
        "cube": m1 * k1 * n1 + 20,
        "fixpipe": m1 * n1 * 256 * 4 // 256 + m1 * n1 * 256 * 4 // 128,
    }


# DEVKIT network cases the heuristic reproduces (asc-devkit
# test_conv3d_backprop_filter_api_tiling_network.cpp; tests/test_dw_tiling_heuristic.py):
# name -> (x, weight, stride, padding).
CASES = {
    "015": ((1, 128, 1, 128, 128), (256, 128, 1, 1, 1), 1, 0),
    "011": ((1, 64, 6, 130, 130), (16, 64, 3, 3, 3), 1, 0),
    "007": ((1, 4, 8, 32, 32), (1152, 4, 1, 2, 2), (1, 2, 2), 0),
}
"""011 and 007 with fewer input planes than the vendor's fixture (22 and 120): the depth does
not change the base tile or a k step, only how many there are."""

# Each pipe's agreement: (low, high) of ours / vendor's. 10 % unless docs/cost-model.md explains
# the difference, and then the band of that explanation (pinned so a change shows).
BANDS = {
    # the vendor charges a fixed 20 + 42 cycles per k step as occupancy (it does not pipeline);
    # ours is one issue cycle a load, its 28 / 50 cycles of latency going to completion
    "mte1": (0.65, 1.10),
    # k1971MadCost 20 a Mmad against msKPP's 2 (+ 21 on completion), and our mean over k
    # steps includes the short K-tail steps the vendor's full-tile formula does not have
    "cube": (0.70, 1.10),
    # msKPP's measured L0C -> GM curve (117-119 B/cycle from 10 KB) against 1 / (1/256 + 1/128)
    "fixpipe": (0.60, 0.90),
    # msKPP's GM -> L1 curve (up to 156 B/cycle, 210 on completion) against a flat 96 B/cycle
    # plus 300 per copy as occupancy
    "mte2": (0.50, 0.70),
}


def _ours(name: str):
    x, w, stride, pad = CASES[name]
    problem = shape_from_torch_args(x, w, stride=stride, padding=pad)
    module = compiled_levels(problem, HW, "heuristic", 1, "")["hw"]
    report = model_cost(module, HW, problem=problem)[-1]
    return problem, module, report


@pytest.mark.parametrize("name", sorted(CASES))
def test_per_k_step_busy_cycles_against_the_vendors_cycle_calculator(name, capsys):
    problem, _, report = _ours(name)
    core = report.slowest
    steps = core.instructions["cube"]
    ours = {
        "mte1": core.busy["mte1"] / steps,
        "cube": core.busy["cube"] / steps,
        "fixpipe": core.busy["fixpipe"] / core.instructions["fixpipe"],
        "mte2": core.busy["mte2"] / steps,
    }
    t = heuristic_tiling(problem, load(HW), 1)
    m1, k1, n1 = t.base_m // 16, t.base_k // 16, t.base_n // 16
    vendor = vendor_per_k_step(m1, k1, n1, problem.wi, problem.wo, problem.strides[2])
    # MTE2: the vendor's flat rule on the bytes our kernel copies per k step (one L1 stage of
    # A and one of B per k_l1 / k_l0 steps; 300 cycles per copy).
    copies = core.instructions["mte2"]
    moved = report.gm_traffic[0]  # one core: all its GM traffic
    stored = t.base_m * t.base_n * 4 * core.instructions["fixpipe"]
    vendor_mte2 = (300 * copies + (moved - stored) / 96) / steps
    theirs = {
        "mte1": vendor["mte1 A"] + vendor["mte1 B"],
        "cube": vendor["cube"],
        "fixpipe": vendor["fixpipe"],
        "mte2": vendor_mte2,
    }
    f = cost_figures(HW)
    with capsys.disabled():
        print(f"\n{name}: base M/K/N {t.base_m}/{t.base_k}/{t.base_n}, Wi {problem.wi} "
              f"Wo {problem.wo}, {steps} k steps")  # fmt: skip
        for pipe in ours:
            ratio = ours[pipe] / theirs[pipe]
            print(f"  {pipe:8s} ours {ours[pipe]:9.1f}  vendor {theirs[pipe]:9.1f}  "
                  f"ratio {ratio:.3f}")  # fmt: skip
    for pipe, (lo, hi) in BANDS.items():
        assert lo <= ours[pipe] / theirs[pipe] <= hi, (name, pipe, ours[pipe], theirs[pipe])
    # The one reading both models share exactly: the Load3D rate into L0B.
    switches = vendor_row_switches(problem.wi, problem.wo)
    if problem.wi == problem.wo and problem.strides[2] == 1:
        assert f.load3d_bytes_per_cycle("L0B", 1, switches) == max(
            vendor_load3d_rate(switches, 1, l0a=False), 28
        )
