// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s

// The forward Conv3D API as IR (api_conv3d.py): the object type with and without a bias type,
// the #ascend.conv3d_tiling its init takes, and the calls in the documented order (per batch:
// SetInput, IterateAll, End, as the docs' multi-batch example), and with Iterate/GetTensorC.

!obj = !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
func.func @with_bias(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %b: !ascend.gm_tensor<ND, 16xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %obj = ascend.conv3d_create : !obj
  ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2> : !obj
  ascend.conv3d_set_weight %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  ascend.conv3d_set_bias %obj, %b[%c0] : !obj, !ascend.gm_tensor<ND, 16xf16>
  ascend.conv3d_set_input_start_position %obj, %c0, %c0 : !obj
  ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !obj
  scf.for %n = %c0 to %c2 step %c1 {
    %off = arith.muli %n, %c4096 : index
    ascend.conv3d_set_input %obj, %x[%off] : !obj, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
    ascend.conv3d_iterate_all %obj, %y[%off] : !obj, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
    ascend.conv3d_end %obj : !obj
  }
  func.return
}
// CHECK-LABEL: func.func @with_bias
// CHECK:         %obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
// CHECK-NEXT:    ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1> : !ascend.conv3d_api<
// CHECK-NEXT:    ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<{{.*}}>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
// CHECK-NEXT:    ascend.conv3d_set_bias %obj, %b[%c0] : !ascend.conv3d_api<{{.*}}>, !ascend.gm_tensor<ND, 16xf16>
// CHECK-NEXT:    ascend.conv3d_set_input_start_position %obj, %c0, %c0 : !ascend.conv3d_api<
// CHECK-NEXT:    ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<
// CHECK-NEXT:    scf.for %n = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %off = arith.muli %n, %c4096 : index
// CHECK-NEXT:      ascend.conv3d_set_input %obj, %x[%off] : !ascend.conv3d_api<{{.*}}>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK-NEXT:      ascend.conv3d_iterate_all %obj, %y[%off] : !ascend.conv3d_api<{{.*}}>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK-NEXT:      ascend.conv3d_end %obj : !ascend.conv3d_api<

// -----

// No bias type (three conv types), bf16; Iterate/GetTensorC instead of IterateAll.
!obj = !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, NDC1HWC0, bf16>>
func.func @iterate(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xbf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xbf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xbf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %obj = ascend.conv3d_create : !obj
  ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !obj
  ascend.conv3d_set_weight %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xbf16>
  ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !obj
  ascend.conv3d_set_input %obj, %x[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xbf16>
  scf.while () : () -> () {
    %more = ascend.conv3d_iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.conv3d_get_tensor_c %obj, %y[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xbf16>
    scf.yield
  }
  ascend.conv3d_end %obj : !obj
  func.return
}
// CHECK-LABEL: func.func @iterate
// CHECK:         %obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, NDC1HWC0, bf16>>
// CHECK:           %more = ascend.conv3d_iterate %obj : !ascend.conv3d_api<
// CHECK:           ascend.conv3d_get_tensor_c %obj, %y[%c0] : !ascend.conv3d_api<{{.*}}>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xbf16>
// CHECK:         ascend.conv3d_end %obj : !ascend.conv3d_api<
