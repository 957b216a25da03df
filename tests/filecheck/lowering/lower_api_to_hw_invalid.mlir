// RUN: ascend-opt %s -p lower-ascend-api-to-hw --split-input-file --verify-diagnostics | filecheck %s
// RUN: not ascend-opt %s -p lower-ascend-api-to-hw --split-input-file 2>&1 | filecheck %s --check-prefix=FIRST

// Every call sequence lower-ascend-api-to-hw cannot lower, one chunk each: the error is one line
// naming the op and where it is, its location if it has one, else its place in its function
// (op #N of @f, counting the function as #0) in the input. Each chunk verifies, so the
// ascend.create verifier's own rules (one init first, one end last, the four set_* calls somewhere
// before the first iterate) hold; what fails is what this pass needs beyond them.
// FIRST is how ascend-opt reports the first of them without --verify-diagnostics.

// The loop's block has no set_grad_output: the one before the scf.for is in another block,
// which the lowering does not follow into the loop body.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
func.func @k(%x: !act, %dy: !act, %dw: !dwf, %i: index) {
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  ascend.set_grad_output %obj, %dy[%i] : !obj, !act
  scf.for %j = %i to %i step %i {
    ascend.set_input %obj, %x[%i] : !obj, !act
    ascend.set_single_shape %obj, %i, %i, %i : !obj
    ascend.set_start_position %obj, %i : !obj
    scf.while () : () -> () {
      %more = ascend.iterate %obj : !obj
      scf.condition(%more)
    } do {
      ascend.get_tensor_c %obj, %dw[%i] atomic : !obj, !dwf
      scf.yield
    }
  }
  ascend.end %obj : !obj
  func.return
}
// CHECK: ascend.iterate (op #9 of @k) without a preceding ascend.set_grad_output in its block
// FIRST: ascend-opt: error: ascend.iterate (op #9 of @k) without a preceding ascend.set_grad_output in its block

// -----

// The shape is set in a region before the loop, not in the loop's block: it may not run.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
func.func @k(%x: !act, %dy: !act, %dw: !dwf, %i: index) {
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  ascend.set_grad_output %obj, %dy[%i] : !obj, !act
  ascend.set_input %obj, %x[%i] : !obj, !act
  ascend.set_start_position %obj, %i : !obj
  %c = "test.op"() : () -> i1
  scf.if %c {
    ascend.set_single_shape %obj, %i, %i, %i : !obj
  }
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%i] atomic : !obj, !dwf
    scf.yield
  }
  ascend.end %obj : !obj
  func.return
}
// CHECK: ascend.iterate (op #11 of @k) without a preceding ascend.set_single_shape in its block

// -----

// A set_single_shape inside an scf.if between the block's own and the loop may or may not
// run: the shape the loop reads is not known.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
func.func @k(%x: !act, %dy: !act, %dw: !dwf, %i: index) {
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  ascend.set_grad_output %obj, %dy[%i] : !obj, !act
  ascend.set_input %obj, %x[%i] : !obj, !act
  ascend.set_single_shape %obj, %i, %i, %i : !obj
  ascend.set_start_position %obj, %i : !obj
  %c = "test.op"() : () -> i1
  scf.if %c {
    ascend.set_single_shape %obj, %i, %i, %i : !obj
  }
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%i] atomic : !obj, !dwf
    scf.yield
  }
  ascend.end %obj : !obj
  func.return
}
// CHECK: ascend.iterate (op #12 of @k) reads a single shape that ascend.set_single_shape (op #9 of @k), in a nested region before it, may change

// -----

// get_tensor_c outside an iterate loop has no tile to write.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
func.func @k(%x: !act, %dy: !act, %dw: !dwf, %i: index) {
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  ascend.set_grad_output %obj, %dy[%i] : !obj, !act
  ascend.set_input %obj, %x[%i] : !obj, !act
  ascend.set_single_shape %obj, %i, %i, %i : !obj
  ascend.set_start_position %obj, %i : !obj
  ascend.get_tensor_c %obj, %dw[%i] atomic : !obj, !dwf
  ascend.end %obj : !obj
  func.return
}
// CHECK: ascend.get_tensor_c (op #7 of @k) is not part of a while (iterate) { get_tensor_c } loop

// -----

// Only `while (iterate) { get_tensor_c }` is lowered: the extra op in the body would be lost.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
func.func @k(%x: !act, %dy: !act, %dw: !dwf, %i: index) {
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  ascend.set_grad_output %obj, %dy[%i] : !obj, !act
  ascend.set_input %obj, %x[%i] : !obj, !act
  ascend.set_single_shape %obj, %i, %i, %i : !obj
  ascend.set_start_position %obj, %i : !obj
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%i] atomic : !obj, !dwf
    "test.op"() : () -> ()
    scf.yield
  }
  ascend.end %obj : !obj
  func.return
}
// CHECK: ascend.get_tensor_c (op #10 of @k) is not part of a while (iterate) { get_tensor_c } loop

// -----

// The object handed to an op that is not an API call: what that op does with it is unknown.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
func.func @k(%x: !act, %dy: !act, %dw: !dwf, %i: index) {
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  "test.op"(%obj) : (!obj) -> ()
  ascend.end %obj : !obj
  func.return
}
// CHECK: test.op (op #3 of @k) takes a Conv3DBackpropFilter object: only the API calls on one can be lowered

// -----

// An op with a location is named by it.
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
#tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>
func.func @k(%x: !act, %dy: !act, %dw: !dwf, %i: index) {
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  ascend.set_grad_output %obj, %dy[%i] : !obj, !act
  ascend.set_input %obj, %x[%i] : !obj, !act
  ascend.set_single_shape %obj, %i, %i, %i : !obj
  scf.for %j = %i to %i step %i {
    ascend.set_start_position %obj, %j : !obj
  }
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj loc("kernel.mlir":41:7)
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%i] atomic : !obj, !dwf
    scf.yield
  }
  ascend.end %obj : !obj
  func.return
}
// CHECK: ascend.iterate at kernel.mlir:41:7 without a preceding ascend.set_start_position in its block
