// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of the forward Conv3D API (api_conv3d.py: the call order on
// ascend.conv3d_create and each call's operands), of !ascend.conv3d_api (types.py) and of
// #ascend.conv3d_tiling (attributes.py, conv3d_tiling.Conv3DTiling.errors), one chunk each.

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: the Conv3D object must be initialised by exactly one ascend.conv3d_init, before any other call

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: the Conv3D object must be initialised by exactly one ascend.conv3d_init, before any other call

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK: Operation does not verify: the Conv3D object's last call must be an ascend.conv3d_end

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_iterate_all needs a preceding ascend.conv3d_set_weight

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_iterate_all needs a preceding ascend.conv3d_set_single_output_shape

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
%more = ascend.conv3d_iterate %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_iterate needs a preceding ascend.conv3d_set_input

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
// CHECK: Operation does not verify: ascend.conv3d_iterate_all needs a preceding ascend.conv3d_set_bias

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_get_tensor_c %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
%more = ascend.conv3d_iterate %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_get_tensor_c needs a preceding ascend.conv3d_iterate

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_end must follow an ascend.conv3d_iterate_all or ascend.conv3d_iterate

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_bias %obj, %b[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<ND, 16xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_set_bias on a Conv3D object without a bias type (SetBias must not be called then)

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_set_input expects the object's input <GM, NDC1HWC0, f16>, got a tensor in FRACTAL_Z_3D of f16

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%cneg = arith.constant -1 : index
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%cneg] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_set_input offset must not be negative, got -1

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%czero = arith.constant 0 : index
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %czero : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_set_single_output_shape singleM must be at least 1, got 0

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%cneg = arith.constant -2 : index
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input_start_position %obj, %c0, %cneg : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_set_input_start_position mStartPos must not be negative, got -2

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>>
// CHECK: conv3d_api takes 3 or 4 conv types (input, weight, output[, bias]), got 2

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<A1, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: conv3d_api input must be in GM, got A1

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: conv3d_api weight must be in format FRACTAL_Z_3D, got NDC1HWC0

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f32>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>, #ascend.conv_type<GM, NDC1HWC0, f32>>
// CHECK: conv3d_api input element type must be f16 or bf16, got f32

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, bf16>>
// CHECK: conv3d_api output element type (bf16) must equal the input's (f16)

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, bf16>>
// CHECK: conv3d_api bias element type must be f16 or f32, got bf16

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, f16>>
// CHECK: conv3d_api bias element type must be f32 with a bf16 input, got f16

// -----

%o = "test.op"() : () -> !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NCDHW, f16>>
// CHECK: conv3d_api bias must be in format ND, got NCDHW

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0>} : () -> ()
// CHECK: conv3d_tiling is missing field(s) m_l0

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, mystery = 1>} : () -> ()
// CHECK: conv3d_tiling has no field 'mystery'

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 64, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, m_l0 = 1>} : () -> ()
// CHECK: conv3d_tiling field 'm_l0' given twice

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 0, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0>} : () -> ()
// CHECK: conv3d_tiling: org_co must be at least 1, got 0

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 24, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0>} : () -> ()
// CHECK: conv3d_tiling: n_l0 (24) must be a multiple of 16

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 32, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0>} : () -> ()
// CHECK: conv3d_tiling: pbuffer_flag has 5 bits, got 32

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 65, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 80, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 2, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0>} : () -> ()
// CHECK: conv3d_tiling: single_core_m (65) exceeds the whole problem's 64

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 2, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0>} : () -> ()
// CHECK: conv3d_tiling: do_dim (1) cores of 2 do not cover 4

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch_dim = 2>} : () -> ()
// CHECK: conv3d_tiling: batch_dim (2) exceeds the batch (1)

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 432, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 0, k_bl1_tail = 432, n_bl1 = 0, m_al1 = 64, k_bl1_div_k0 = 0, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 0, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 1, iterate_mn_order = 0, bias_full_load_flag = 0>} : () -> ()
// CHECK: conv3d_tiling: the L0A tiles take 110592 bytes, more than its 65536

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 2, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: al1_full_load must be 0 or 1, got 2

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 200, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: k_al1 (200) must be a factor of Cin1 (1) or whole kernel depths of Cin1 blocks of 144 columns (kernel_h·kernel_w·16), at most K (432)

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 64, n_l0 = 16, pbuffer_flag = 15, k_al1 = 288, k_al1_tail = 144, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 2, cin1_in_al1_tail = 1, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: k_l0 (64) must divide k_al1 (288)

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 288, k_al1_tail = 288, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 2, cin1_in_al1_tail = 2, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: k_al1_tail (288) must be K mod k_al1 (or k_al1 when it divides K): 144

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 1, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: a bypassed weight (bl1_bypass_flag 1) has no B1 tile: k_bl1 and n_bl1 must be 0, got 432 and 16

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 0, k_bl1_tail = 40, n_bl1 = 0, m_al1 = 64, k_bl1_div_k0 = 0, k_bl1_tail_div_k0 = 2, n_bl1_div_n_l0 = 0, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 1, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: k_bl1_tail (40) of a bypassed weight must be a multiple of 16 up to K (432)

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 32, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: m_al1 (32) of a tile loaded whole must be one core's whole M in fractals (64)

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 48, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 0, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: m_al1 (48) must be a multiple of m_l0 (64) up to one core's M (64)

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 144, k_bl1_tail = 144, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 9, k_bl1_tail_div_k0 = 9, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: a weight loaded whole (bl1_full_load 1) needs k_bl1 = K (432), got 144

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 1, cin1_in_al1 = 2, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 2, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: cin1_in_al1 (2) must be k_al1 / (kernel_h·kernel_w·16): 3

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 512, org_ho = 56, org_wo = 56, org_di = 4, org_ci = 512, org_hi = 56, org_wi = 56, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 1, single_core_co = 96, single_core_m = 3136, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 256, k_l0 = 64, n_l0 = 96, pbuffer_flag = 27, k_al1 = 576, k_al1_tail = 576, k_bl1 = 576, k_bl1_tail = 576, n_bl1 = 96, m_al1 = 3136, k_bl1_div_k0 = 36, k_bl1_tail_div_k0 = 36, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 13, cin1_in_al1 = 4, cin1_in_al1_tail = 4, bl1_full_load = 0, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0, batch = 1, batch_dim = 1, do_dim = 4, co_dim = 6, m_dim = 1>} : () -> ()
// CHECK: conv3d_tiling: the L1 tiles take 9854976 bytes, more than its 524288
