// RUN: not ascend-opt %s -p lower-ascend-api-to-hw 2>&1 | filecheck %s

// What the forward hardware lowering cannot take fails the pass with one line: a tiling whose
// L0C tile's bias (n_l0 = 512 floats, 2 KB) does not fit the 1 KB bias table (the vendor's
// tiler counts the bias in its own type, 2 bytes for half: the heuristic never asks for it, a
// hand-written tiling may).

func.func @bias(%x5: !ascend.gm_tensor<NDC1HWC0, 1x16x1x32x32xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 1024x16x1x1x1xf16>, %b5: !ascend.gm_tensor<ND, 1024xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x1024x1x32x32xf16> {
  %y5 = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 1x1024x1x32x32xf16>
  ascend.launch @bias_kernel blocks 1 (%x5, %w5, %b5, %y5) {ascend.conv3d = {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x1x32x32xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 1024x16x1x1x1xf16>, !ascend.gm_tensor<ND, 1024xf16>, !ascend.gm_tensor<NDC1HWC0, 1x1024x1x32x32xf16>
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 1x1024x1x32x32xf16>
}
func.func @bias_kernel(%0: !ascend.gm_tensor<NDC1HWC0, 1x16x1x32x32xf16>, %1: !ascend.gm_tensor<FRACTAL_Z_3D, 1024x16x1x1x1xf16>, %2: !ascend.gm_tensor<ND, 1024xf16>, %3: !ascend.gm_tensor<NDC1HWC0, 1x1024x1x32x32xf16>) attributes {ascend.kernel} {
  %4 = ascend.get_block_idx : index
  %5 = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
  ascend.conv3d_init %5 tiling #ascend.conv3d_tiling<org_do = 1, org_co = 1024, org_ho = 32, org_wo = 32, org_di = 1, org_ci = 16, org_hi = 32, org_wi = 32, kernel_d = 1, kernel_h = 1, kernel_w = 1, single_core_do = 1, single_core_co = 1024, single_core_m = 1024, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 0, pad_tail = 0, pad_up = 0, pad_down = 0, pad_left = 0, pad_right = 0, m_l0 = 16, k_l0 = 16, n_l0 = 512, pbuffer_flag = 11, k_al1 = 16, k_al1_tail = 16, k_bl1 = 16, k_bl1_tail = 16, n_bl1 = 1024, m_al1 = 1024, k_bl1_div_k0 = 1, k_bl1_tail_div_k0 = 1, n_bl1_div_n_l0 = 2, m_al1_div_m_l0 = 64, cin1_in_al1 = 1, cin1_in_al1_tail = 1, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 1, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
  %6 = arith.constant 0 : index
  ascend.conv3d_set_weight %5, %1[%6] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 1024x16x1x1x1xf16>
  %7 = arith.constant 0 : index
  ascend.conv3d_set_bias %5, %2[%7] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>, !ascend.gm_tensor<ND, 1024xf16>
  %8 = arith.constant 0 : index
  %9 = arith.constant 0 : index
  ascend.conv3d_set_input_start_position %5, %8, %9 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
  %10 = arith.constant 1024 : index
  %11 = arith.constant 1 : index
  %12 = arith.constant 1024 : index
  ascend.conv3d_set_single_output_shape %5, %10, %11, %12 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
  %13 = arith.constant 0 : index
  ascend.conv3d_set_input %5, %0[%13] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x1x32x32xf16>
  %14 = arith.constant 0 : index
  ascend.conv3d_iterate_all %5, %3[%14] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x1024x1x32x32xf16>
  ascend.conv3d_end %5 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
  func.return
}
// CHECK: ascend-opt: error: lower-ascend-api-to-hw: the bias of one L0C tile (512 channels, 2048 bytes of floats) exceeds the bias table (1024 bytes)
