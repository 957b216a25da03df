// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ascend-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// The Conv3DBackpropFilter API calls, one op each, on a !ascend.conv3d_bp_filter object.
// The first chunk is a complete kernel body in the API's call order (create, init, set_*,
// iterate loop, get_tensor_c, end); its #ascend.dw_tiling is the one of dw_tiling.mlir.

!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

func.func @kernel(%x: !act, %dy: !act, %dw: !dwf) {
  %c0 = arith.constant 0 : index
  %m = arith.constant 64 : index
  %n = arith.constant 576 : index
  %k = arith.constant 784 : index
  %obj = ascend.create : !obj
  ascend.init %obj tiling #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0> : !obj
  ascend.set_grad_output %obj, %dy[%c0] : !obj, !act
  ascend.set_input %obj, %x[%c0] : !obj, !act
  ascend.set_single_shape %obj, %m, %n, %k : !obj
  ascend.set_start_position %obj, %c0 : !obj
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%c0] atomic : !obj, !dwf
    scf.yield
  }
  ascend.end %obj : !obj
  func.return
}
// CHECK-LABEL: func.func @kernel
// CHECK:         %obj = ascend.create : [[OBJ:!ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>]]
// CHECK-NEXT:    ascend.init %obj tiling #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0> : [[OBJ]]
// CHECK-NEXT:    ascend.set_grad_output %obj, %dy[%c0] : [[OBJ]], !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-NEXT:    ascend.set_input %obj, %x[%c0] : [[OBJ]], !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-NEXT:    ascend.set_single_shape %obj, %m, %n, %k : [[OBJ]]
// CHECK-NEXT:    ascend.set_start_position %obj, %c0 : [[OBJ]]
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK-NEXT:      %more = ascend.iterate %obj : [[OBJ]]
// CHECK-NEXT:      scf.condition(%more)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      ascend.get_tensor_c %obj, %dw[%c0] atomic : [[OBJ]], !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    ascend.end %obj : [[OBJ]]

// CHECK-GENERIC:      %obj = "ascend.create"() : () -> [[GOBJ:!ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>]]
// CHECK-GENERIC-NEXT: "ascend.init"(%obj) <{tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>}> : ([[GOBJ]]) -> ()
// CHECK-GENERIC-NEXT: "ascend.set_grad_output"(%obj, %dy, %c0) : ([[GOBJ]], !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, index) -> ()
// CHECK-GENERIC-NEXT: "ascend.set_input"(%obj, %x, %c0) : ([[GOBJ]], !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, index) -> ()
// CHECK-GENERIC-NEXT: "ascend.set_single_shape"(%obj, %m, %n, %k) : ([[GOBJ]], index, index, index) -> ()
// CHECK-GENERIC-NEXT: "ascend.set_start_position"(%obj, %c0) : ([[GOBJ]], index) -> ()
// CHECK-GENERIC:      %more = "ascend.iterate"(%obj) : ([[GOBJ]]) -> i1
// CHECK-GENERIC:      "ascend.get_tensor_c"(%obj, %dw, %c0) <{atomic}> : ([[GOBJ]], !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>, index) -> ()
// CHECK-GENERIC:      "ascend.end"(%obj) : ([[GOBJ]]) -> ()

// -----

// bf16 object handed in from outside (no create, so no call-order rule applies), and a
// get_tensor_c without atomic accumulation.
%obj, %x, %dw, %i = "test.op"() : () -> (!ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>, index)
ascend.set_input %obj, %x[%i] : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xbf16>
ascend.get_tensor_c %obj, %dw[%i] : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
// CHECK:      ascend.set_input %obj, %x[%i] : [[BOBJ:!ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>]], !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xbf16>
// CHECK-NEXT: ascend.get_tensor_c %obj, %dw[%i] : [[BOBJ]], !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
// CHECK-GENERIC:      "ascend.set_input"(%obj, %x, %i) : ([[BGOBJ:!ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>]], !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xbf16>, index) -> ()
// CHECK-GENERIC-NEXT: "ascend.get_tensor_c"(%obj, %dw, %i) : ([[BGOBJ]], !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>, index) -> ()
