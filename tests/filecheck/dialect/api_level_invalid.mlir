// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of the API-level ops (api_level.py), one chunk each: the tensor handed to
// set_grad_output / set_input / get_tensor_c must match the object's ConvType, and the calls on
// an object from ascend.create must follow the API's call order (CreateOp.verify_).
// The chunks with an ascend.init verify its #ascend.dw_tiling, so they need DwTiling.errors
// (tiling branch); the others do not.

// The dy tensor is bf16, the object's grad_output f16.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = "test.op"() : () -> !obj
%dy = "test.op"() : () -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xbf16>
ascend.set_grad_output %obj, %dy[%i] : !obj, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xbf16>
// CHECK: Operation does not verify: ascend.set_grad_output expects the object's grad_output <GM, NDC1HWC0, f16>, got a tensor in NDC1HWC0 of bf16

// -----

// The x tensor is in the dW format.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = "test.op"() : () -> !obj
ascend.set_input %obj, %dw[%i] : !obj, !dwf
// CHECK: Operation does not verify: ascend.set_input expects the object's input <GM, NDC1HWC0, f16>, got a tensor in FRACTAL_Z_3D of f32

// -----

// The dW tensor is an activation.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = "test.op"() : () -> !obj
ascend.get_tensor_c %obj, %x[%i] atomic : !obj, !act
// CHECK: Operation does not verify: ascend.get_tensor_c expects the object's grad_weight <GM, FRACTAL_Z_3D, f32>, got a tensor in NDC1HWC0 of f16

// -----

// A call in another block than the one declaring the object.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
func.func @f() {
  %obj = ascend.create : !obj
  cf.br ^next
^next:
  ascend.end %obj : !obj
  func.return
}
// CHECK: Operation does not verify: ascend.end uses the object outside its block

// -----

// No ascend.init at all.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.end %obj : !obj
// CHECK: Operation does not verify: the object must be initialised by exactly one ascend.init, before any other call

// -----

// A call before ascend.init.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.set_input %obj, %x[%i] : !obj, !act
ascend.init %obj tiling #tiling : !obj
ascend.end %obj : !obj
// CHECK: Operation does not verify: the object must be initialised by exactly one ascend.init, before any other call

// -----

// Two ascend.init.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.init %obj tiling #tiling : !obj
ascend.init %obj tiling #tiling : !obj
ascend.end %obj : !obj
// CHECK: Operation does not verify: the object must be initialised by exactly one ascend.init, before any other call

// -----

// No ascend.end.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.init %obj tiling #tiling : !obj
// CHECK: Operation does not verify: the object must be finished by exactly one ascend.end, after every other call

// -----

// A call after ascend.end.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.init %obj tiling #tiling : !obj
ascend.end %obj : !obj
ascend.set_input %obj, %x[%i] : !obj, !act
// CHECK: Operation does not verify: the object must be finished by exactly one ascend.end, after every other call

// -----

// ascend.iterate without a preceding ascend.set_grad_output.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.init %obj tiling #tiling : !obj
ascend.set_input %obj, %x[%i] : !obj, !act
ascend.set_single_shape %obj, %i, %i, %i : !obj
scf.while () : () -> () {
  %more = ascend.iterate %obj : !obj
  scf.condition(%more)
} do {
  scf.yield
}
ascend.end %obj : !obj
// CHECK: Operation does not verify: ascend.iterate needs a preceding ascend.set_grad_output

// -----

// ascend.iterate without a preceding ascend.set_input.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.init %obj tiling #tiling : !obj
ascend.set_grad_output %obj, %x[%i] : !obj, !act
ascend.set_single_shape %obj, %i, %i, %i : !obj
scf.while () : () -> () {
  %more = ascend.iterate %obj : !obj
  scf.condition(%more)
} do {
  scf.yield
}
ascend.end %obj : !obj
// CHECK: Operation does not verify: ascend.iterate needs a preceding ascend.set_input

// -----

// ascend.iterate without a preceding ascend.set_single_shape.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.init %obj tiling #tiling : !obj
ascend.set_grad_output %obj, %x[%i] : !obj, !act
ascend.set_input %obj, %x[%i] : !obj, !act
scf.while () : () -> () {
  %more = ascend.iterate %obj : !obj
  scf.condition(%more)
} do {
  scf.yield
}
ascend.end %obj : !obj
// CHECK: Operation does not verify: ascend.iterate needs a preceding ascend.set_single_shape

// -----

// ascend.iterate without a preceding ascend.set_start_position.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
%x, %dw, %i = "test.op"() : () -> (!act, !dwf, index)
%obj = ascend.create : !obj
ascend.init %obj tiling #tiling : !obj
ascend.set_grad_output %obj, %x[%i] : !obj, !act
ascend.set_input %obj, %x[%i] : !obj, !act
ascend.set_single_shape %obj, %i, %i, %i : !obj
scf.while () : () -> () {
  %more = ascend.iterate %obj : !obj
  scf.condition(%more)
} do {
  scf.yield
}
ascend.end %obj : !obj
// CHECK: Operation does not verify: ascend.iterate needs a preceding ascend.set_start_position

// -----

// A single shape with K = 0 (a constant; a computed one is refused when the call runs).
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
%obj = "test.op"() : () -> !obj
%m = arith.constant 64 : index
%k = arith.constant 0 : index
ascend.set_single_shape %obj, %m, %m, %k : !obj
// CHECK: Operation does not verify: ascend.set_single_shape K must be at least 1, got 0

// -----

// A single shape with N = -144.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
%obj = "test.op"() : () -> !obj
%m = arith.constant 64 : index
%n = arith.constant -144 : index
ascend.set_single_shape %obj, %m, %n, %m : !obj
// CHECK: Operation does not verify: ascend.set_single_shape N must be at least 1, got -144

// -----

// A start row of -3.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
%obj = "test.op"() : () -> !obj
%row = arith.constant -3 : index
ascend.set_start_position %obj, %row : !obj
// CHECK: Operation does not verify: ascend.set_start_position hoStartIdx must not be negative, got -3

// -----

// An x offset of -1.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
%obj = "test.op"() : () -> !obj
%x = "test.op"() : () -> !act
%off = arith.constant -1 : index
ascend.set_input %obj, %x[%off] : !obj, !act
// CHECK: Operation does not verify: ascend.set_input offset must not be negative, got -1
