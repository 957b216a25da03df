// RUN: not ascend-opt %s -p 'ascend-tile-conv3d{cores=1}' 2>&1 | filecheck %s
// RUN: not ascend-opt %s -p 'ascend-tile-conv3d{cores=99}' 2>&1 | filecheck %s --check-prefix=CORES
// RUN: not ascend-opt %s -p 'ascend-tile-conv3d{hw=atlas-a9}' 2>&1 | filecheck %s --check-prefix=HW
// RUN: not ascend-opt %S/../dialect/conv3d.mlir --split-input-file -p ascend-tile-conv3d 2>&1 | filecheck %s --check-prefix=LEVEL
// RUN: not ascend-opt %s -p 'ascend-tile-conv3d{strategy=best}' 2>&1 | filecheck %s --check-prefix=STRATEGY
// RUN: not ascend-opt %s -p 'ascend-tile-conv3d{strategy=fixed tiling-file="%s"}' 2>&1 | filecheck %s --check-prefix=FILE

// ascend-tile-conv3d's failures, each one line: a tiling on the op that needs more cores than
// the pass may use, a core count the target does not have, an unknown target, and an op-level
// conv (the pass runs on the format level), an unknown strategy, and a tiling file that holds no
// #ascend.conv3d_tiling (this file).

func.func @two_cores(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16> {
  %y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 16, k_l0 = 16, n_l0 = 16, pbuffer_flag = 0, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 4, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 2> : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  func.return %y : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
}
// CHECK: ascend-opt: error: tiling does not fit atlas-a2-910b2: tiling uses 2 cores, more than 1
// CORES: ascend-opt: error: cores must be in [1, 24] for atlas-a2-910b2, got 99
// HW: ascend-opt: error: unknown hardware 'atlas-a9'
// LEVEL: ascend-opt: error: ascend-tile-conv3d runs on the format level: run ascend-legalize-formats first
// STRATEGY: ascend-opt: error: unknown tiling strategy 'best' (expected one of heuristic, fixed, tuned)
// FILE: ascend-opt: error: {{.*}}tile_conv3d_invalid.mlir:{{[0-9]+}}:1: not a #ascend.conv3d_tiling: attribute expected
