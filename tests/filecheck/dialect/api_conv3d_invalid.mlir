// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of the forward Conv3D API (api_conv3d.py: the call order on
// ascend.conv3d_create and each call's operands), of !ascend.conv3d_api (types.py) and of
// #ascend.conv3d_tiling (attributes.py, conv3d_tiling.Conv3DTiling.errors), one chunk each.

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: the Conv3D object must be initialised by exactly one ascend.conv3d_init, before any other call

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK: Operation does not verify: the Conv3D object's last call must be an ascend.conv3d_end

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_single_output_shape %obj, %c16, %c4, %c64 : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_iterate_all needs a preceding ascend.conv3d_set_weight

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_set_weight %obj, %w[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
ascend.conv3d_set_input %obj, %x[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_iterate_all %obj, %y[%c0] : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
ascend.conv3d_end %obj : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK: Operation does not verify: ascend.conv3d_iterate_all needs a preceding ascend.conv3d_set_single_output_shape

// -----

%x, %w, %b, %y = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>)
%c0, %c1, %c4, %c16, %c64, %cm1 = "test.op"() : () -> (index, index, index, index, index, index)
%obj = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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
ascend.conv3d_init %obj tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15> : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
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

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15>} : () -> ()
// CHECK: conv3d_tiling is missing field(s) m_l0

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, mystery = 1>} : () -> ()
// CHECK: conv3d_tiling has no field 'mystery'

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, m_l0 = 1>} : () -> ()
// CHECK: conv3d_tiling field 'm_l0' given twice

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 0, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15>} : () -> ()
// CHECK: conv3d_tiling: org_co must be at least 1, got 0

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 24, pbuffer_flag = 15>} : () -> ()
// CHECK: conv3d_tiling: n_l0 (24) must be a multiple of 16

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 32>} : () -> ()
// CHECK: conv3d_tiling: pbuffer_flag has 5 bits, got 32

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 65, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15>} : () -> ()
// CHECK: conv3d_tiling: single_core_m (65) exceeds the whole problem's 64

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 2, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15>} : () -> ()
// CHECK: conv3d_tiling: do_dim (1) cores of 2 do not cover 4

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 144, n_l0 = 16, pbuffer_flag = 15, batch_dim = 2>} : () -> ()
// CHECK: conv3d_tiling: batch_dim (2) exceeds the batch (1)

// -----

"test.op"() {t = #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 8, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 64, k_l0 = 512, n_l0 = 16, pbuffer_flag = 15>} : () -> ()
// CHECK: conv3d_tiling: the L0A tiles take 131072 bytes, more than its 65536
