// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every rule of the Conv3DBackpropInput API ops (api_conv3d_bp_input.py: the call order on
// ascend.conv3d_bp_input_create, tensor roles, constant operands) and of
// #ascend.conv3d_bp_input_tiling (conv3d_bp_input_tiling.py), one chunk each.

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
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
// CHECK: the Conv3DBackpropInput object must be initialised by exactly one ascend.conv3d_bp_input_init, before any other call

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
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
// CHECK: the Conv3DBackpropInput object must be initialised by exactly one ascend.conv3d_bp_input_init, before any other call

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.conv3d_bp_input_set_weight %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  scf.while () : () -> () {
    %more = ascend.conv3d_bp_input_iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.conv3d_bp_input_get_tensor_c %obj, %dx[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
    scf.yield
  }
  func.return
}
// CHECK: the Conv3DBackpropInput object's last call must be an ascend.conv3d_bp_input_end

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
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
// CHECK: ascend.conv3d_bp_input_iterate needs a preceding ascend.conv3d_bp_input_set_grad_output

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
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
// CHECK: ascend.conv3d_bp_input_iterate needs a preceding ascend.conv3d_bp_input_set_weight

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
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
// CHECK: ascend.conv3d_bp_input_iterate needs a preceding ascend.conv3d_bp_input_set_single_shape

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.conv3d_bp_input_set_weight %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  ascend.conv3d_bp_input_get_tensor_c %obj, %dx[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %more = ascend.conv3d_bp_input_iterate %obj : !obj
  ascend.conv3d_bp_input_end %obj : !obj
  func.return
}
// CHECK: ascend.conv3d_bp_input_get_tensor_c needs a preceding ascend.conv3d_bp_input_iterate

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.conv3d_bp_input_set_weight %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  ascend.conv3d_bp_input_end %obj : !obj
  %more = ascend.conv3d_bp_input_iterate %obj : !obj
  ascend.conv3d_bp_input_end %obj : !obj
  func.return
}
// CHECK: ascend.conv3d_bp_input_end must follow an ascend.conv3d_bp_input_iterate

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %w[%c0] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
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
// CHECK: ascend.conv3d_bp_input_set_grad_output expects the object's grad_output

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  ascend.conv3d_bp_input_set_grad_output %obj, %dy[%c0] : !obj, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %m1 = arith.constant -1 : index
  ascend.conv3d_bp_input_set_weight %obj, %w[%m1] : !obj, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
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
// CHECK: ascend.conv3d_bp_input_set_weight offset must not be negative, got -1

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c0, %c16 : !obj
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
// CHECK: ascend.conv3d_bp_input_set_single_shape singleShapeK must be at least 1, got 0

// -----

!obj = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
func.func @dx(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c144 = arith.constant 144 : index
  %c16 = arith.constant 16 : index
  %obj = ascend.conv3d_bp_input_create : !obj
  ascend.conv3d_bp_input_init %obj tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !obj
  ascend.conv3d_bp_input_set_single_shape %obj, %c64, %c144, %c16 : !obj
  %m1 = arith.constant -1 : index
  ascend.conv3d_bp_input_set_start_position %obj, %m1, %c0 : !obj
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
// CHECK: ascend.conv3d_bp_input_set_start_position curDinStartIdx must not be negative, got -1

// -----

"test.op"() {t = #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 136, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16>} : () -> ()
// CHECK: conv3d_bp_input_tiling: base_k (136) must be a multiple of 16

// -----

"test.op"() {t = #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 3, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16>} : () -> ()
// CHECK: conv3d_bp_input_tiling: al0_pbuffer must be 1 or 2, got 3

// -----

"test.op"() {t = #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 512, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16>} : () -> ()
// CHECK: conv3d_bp_input_tiling: the L0A tiles take 294912 bytes, more than its 65536

// -----

"test.op"() {t = #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 5, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16>} : () -> ()
// CHECK: conv3d_bp_input_tiling: single_core_din (5) exceeds the whole problem's 4

// -----

"test.op"() {t = #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 3, single_core_batch = 1, single_core_m = 64, single_core_cin = 16>} : () -> ()
// CHECK: conv3d_bp_input_tiling: init_output_flag must be 0, 1 or 2, got 3

// -----

"test.op"() {t = #ascend.conv3d_bp_input_tiling<batch = 1, cin = 0, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16>} : () -> ()
// CHECK: conv3d_bp_input_tiling: cin must be at least 1, got 0

// -----

"test.op"() {t = #ascend.conv3d_bp_input_tiling<cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16>} : () -> ()
// CHECK: conv3d_bp_input_tiling is missing field(s) batch
