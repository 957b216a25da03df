// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s

// The Conv3DBackpropInput API as IR (api_conv3d_bp_input.py): the object, the
// #ascend.conv3d_bp_input_tiling its init takes (the fields the vendor's tiler sets to constants
// left out, printed back), and the calls in the docs' order, Iterate/GetTensorC in a while loop.

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_set_start_position %obj, %c0, %c0 : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.conv3d_bp_input_set_weight %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  scf.while () : () -> () {
    %more = ascend.conv3d_bp_input_iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.conv3d_bp_input_get_tensor_c %obj, %dx[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
    scf.yield
  }
  ascend.conv3d_bp_input_end %obj : !obj
  func.return
}

// CHECK-LABEL: func.func @dx
// CHECK:         %obj = ascend.conv3d_bp_input_create : !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK-NEXT:    ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, base_d = 1, base_batch = 1, base_group = 1, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, step_batch = 1, step_group = 1, iterate_order = 0, hf32_flag = 0, init_output_flag = 0, reserved = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !ascend.conv3d_bp_input<
// CHECK-NEXT:    ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !ascend.conv3d_bp_input<
// CHECK-NEXT:    ascend.conv3d_bp_input_set_start_position %obj, %c0, %c0 : !ascend.conv3d_bp_input<
// CHECK-NEXT:    ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !ascend.conv3d_bp_input<{{.*}}>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK-NEXT:    ascend.conv3d_bp_input_set_weight %obj, %w[%c0] : !ascend.conv3d_bp_input<{{.*}}>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
// CHECK-NEXT:    scf.while
// CHECK-NEXT:      %more = ascend.conv3d_bp_input_iterate %obj : !ascend.conv3d_bp_input<
// CHECK:           ascend.conv3d_bp_input_get_tensor_c %obj, %dx[%c0] : !ascend.conv3d_bp_input<
// CHECK:         ascend.conv3d_bp_input_end %obj : !ascend.conv3d_bp_input<

// -----

// One SetStartPosition and Iterate series per dX depth, in a loop after one SetSingleShape:
// the public API's way to cover several depths (asc-devkit's SetSingleShape sets Din to 1), and
// the call order the API kernel makes (lowering/conv3d_bp_input_api_kernel.py).
!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx_depths(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %ho = arith.constant -1 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.conv3d_bp_input_set_weight %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  scf.for %d = %c0 to %c4 step %c1 {
    ascend.conv3d_bp_input_set_start_position %obj, %d, %ho : !obj
    scf.while () : () -> () {
      %more = ascend.conv3d_bp_input_iterate %obj : !obj
      scf.condition(%more)
    } do {
      ascend.conv3d_bp_input_get_tensor_c %obj, %dx[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
      scf.yield
    }
  }
  ascend.conv3d_bp_input_end %obj : !obj
  func.return
}

// CHECK-LABEL: func.func @dx_depths
// CHECK:         ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !ascend.conv3d_bp_input<
// CHECK-NEXT:    scf.for %d = %c0 to %c4 step %c1
// CHECK-NEXT:      ascend.conv3d_bp_input_set_start_position %obj, %d, %ho : !ascend.conv3d_bp_input<
// CHECK-NEXT:      scf.while
// CHECK-NEXT:        %more = ascend.conv3d_bp_input_iterate %obj : !ascend.conv3d_bp_input<
// CHECK:             ascend.conv3d_bp_input_get_tensor_c %obj, %dx[%c0] : !ascend.conv3d_bp_input<
// CHECK:         ascend.conv3d_bp_input_end %obj : !ascend.conv3d_bp_input<
