// RUN: ascend-opt %s --split-input-file -p 'ascend-tile-conv3d{cores=4}' | filecheck %s
// RUN: ascend-opt %s --split-input-file -p 'ascend-tile-conv3d{cores=1}' | filecheck %s --check-prefix=ONE

// ascend-tile-conv3d attaches the forward tiling (passes/conv3d_tiling_heuristic.py): the
// vendor's L0 tile (mL0/kL0/nL0 and the ping-pong bits), its L1 tiling (here both x and the
// weight loaded whole, the weight bypassing L1 because its tile is one L0B tile, the bias
// whole in L1) and the core split, batch first, then Dout, then Cout, then M.

func.func @f(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %b: !ascend.gm_tensor<ND, 32xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16> {
  %y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<ND, 32xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
  func.return %y : !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
}
// CHECK: %y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_tiling<org_do = 4, org_co = 32, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 2, single_core_co = 32, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 432, n_l0 = 32, pbuffer_flag = 4, k_al1 = 432, k_al1_tail = 432, k_bl1 = 0, k_bl1_tail = 432, n_bl1 = 0, m_al1 = 64, k_bl1_div_k0 = 0, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 0, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 1, iterate_mn_order = 0, bias_full_load_flag = 1, batch = 2, batch_dim = 2, do_dim = 2, co_dim = 1, m_dim = 1>
// ONE: single_core_do = 4, single_core_co = 32, single_core_m = 64, {{.*}} m_l0 = 64, k_l0 = 432, n_l0 = 32, pbuffer_flag = 4, k_al1 = 432, k_al1_tail = 432, k_bl1 = 0, k_bl1_tail = 432, n_bl1 = 0, m_al1 = 64, k_bl1_div_k0 = 0, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 0, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 1, iterate_mn_order = 0, bias_full_load_flag = 1, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>

// -----

// A tiling already on the op is kept when it fits.
func.func @kept(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> {
  %y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 16, k_l0 = 16, n_l0 = 16, pbuffer_flag = 0, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 4, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return %y : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @kept
// CHECK: m_l0 = 16, k_l0 = 16, n_l0 = 16, pbuffer_flag = 0, k_al1 = 432,
