// RUN: ascend-opt %s --split-input-file -p convert-conv-to-ascend-api --verify-diagnostics | filecheck %s
// RUN: not ascend-opt %s --split-input-file -p convert-conv-to-ascend-api 2>&1 | filecheck %s --check-prefix=FIRST

// What the dX kernel needs of a tiling beyond the tiling's own rules
// (lowering/conv3d_bp_input_api_kernel.py, kernel_errors): one line each.

// M shares must be whole dX rows: the core's first row is m·single_core_m / Wi.
func.func @rows(%dy5: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_bp_input_tiling<batch = 2, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 2, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 1, single_core_ho = 1, base_m = 64, base_k = 144, base_n = 16, base_d = 1, base_batch = 1, base_group = 1, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, step_batch = 1, step_group = 1, iterate_order = 1, hf32_flag = 0, init_output_flag = 0, reserved = 0, single_core_batch = 1, single_core_m = 20, single_core_cin = 16> : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
}
// CHECK: convert-conv-to-ascend-api: single_core_m (20) is not whole rows of Wi (8)
// FIRST: ascend-opt: error: convert-conv-to-ascend-api: single_core_m (20) is not whole rows of Wi (8)

// -----

// A Cout share smaller than the enlarged group's Cout would split K across cores, whose dX
// parts would then need an atomic sum: not done.
func.func @ksplit(%dy5: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_bp_input_tiling<batch = 2, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 2, single_core_group = 1, single_core_cout = 8, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 1, single_core_ho = 1, base_m = 64, base_k = 144, base_n = 16, base_d = 1, base_batch = 1, base_group = 1, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, step_batch = 1, step_group = 1, iterate_order = 1, hf32_flag = 0, init_output_flag = 0, reserved = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
}
// CHECK: convert-conv-to-ascend-api: single_core_cout (8) splits an enlarged group's Cout (16): the dX kernel does not split K across cores
