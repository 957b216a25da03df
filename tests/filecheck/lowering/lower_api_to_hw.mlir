// RUN: ascend-opt %s -p lower-ascend-api-to-hw | filecheck %s
// RUN: ascend-opt %s -p lower-ascend-api-to-hw | filecheck %s --check-prefix=GONE

// lower-ascend-api-to-hw alone on a hand-written kernel: one object, two single shapes in one
// block. The second re-sets only the shape and the start row, so both loops read the same
// set_grad_output and set_input; a set_* that no loop reads (shadowed, or after the last loop)
// goes without trace. An object handed in as an argument is not this pass's to lower.

!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

#tiling = #ascend.dw_tiling<
  batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28,
  di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1,
  stride_d = 1, stride_h = 1, stride_w = 1,
  pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1,
  dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16,
  al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2,
  base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16,
  step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168,
  hf32_flag = 0,
  single_core_dk = 3, single_core_group = 1, single_core_cout = 64, single_core_ho = 28,
  single_core_batch = 16, single_core_cin = 64>

func.func @handed_in(%obj: !obj, %dw: !dwf, %i: index) {
  ascend.set_single_shape %obj, %i, %i, %i : !obj
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%i] atomic : !obj, !dwf
    scf.yield
  }
  func.return
}

func.func @two_shapes(%x: !act, %dy: !act, %dw: !dwf, %h: index) {
  %c0 = arith.constant 0 : index
  %m = arith.constant 64 : index
  %n = arith.constant 576 : index
  %k = arith.constant 784 : index
  %k2 = arith.constant 392 : index
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj
  ascend.set_grad_output %obj, %dy[%c0] : !obj, !act
  ascend.set_input %obj, %x[%c0] : !obj, !act
  ascend.set_single_shape %obj, %m, %n, %k2 : !obj
  ascend.set_single_shape %obj, %m, %n, %k : !obj
  ascend.set_start_position %obj, %c0 : !obj
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%c0] atomic : !obj, !dwf
    scf.yield
  }
  ascend.set_single_shape %obj, %m, %n, %k2 : !obj
  ascend.set_start_position %obj, %h : !obj
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%c0] : !obj, !dwf
    scf.yield
  }
  ascend.set_start_position %obj, %c0 : !obj
  ascend.end %obj : !obj
  func.return
}

// GONE-LABEL: func.func @handed_in(
// GONE:         ascend.set_single_shape %obj
// GONE:           ascend.iterate %obj
// GONE:           ascend.get_tensor_c %obj
// GONE-LABEL: func.func @two_shapes(
// GONE-NOT:     ascend.{{create|init|set_|iterate|get_tensor_c|end}}
// GONE-NOT:     lower_api_to_hw.

// CHECK-LABEL: func.func @two_shapes(
// The buffers of Init, where the object was created:
// CHECK:         %k2 = arith.constant 392 : index
// CHECK-NEXT:    ascend.alloc_buffer slots 2 : !ascend.local_tensor<A1, 8192xf16>
// CHECK-NEXT:    ascend.alloc_buffer slots 2 : !ascend.local_tensor<B1, 7168xf16>
// CHECK-NEXT:    ascend.alloc_buffer slots 2 : !ascend.local_tensor<A2, 8192xf16>
// CHECK-NEXT:    ascend.alloc_buffer slots 2 : !ascend.local_tensor<B2, 16384xf16>
// CHECK-NEXT:    ascend.alloc_buffer slots 2 : !ascend.local_tensor<CO1, 8192xf32>
// The first single shape reads the latest set_single_shape, K = 784: 7 k steps of 128 per
// tile (the ping-pong order counts them, the kk loop runs them), added into dW.
// CHECK:         scf.for %nb =
// CHECK-NOT:       arith.constant 4 : index
// CHECK:           arith.constant 7 : index
// CHECK-NOT:       arith.constant 4 : index
// CHECK:           scf.for %kk =
// CHECK:           ascend.data_copy %dy
// CHECK:           ascend.data_copy %x
// CHECK:           ascend.mmad
// CHECK:           ascend.fixpipe {{.*}} atomic :
// The second: K = 392 (4 k steps), from Ho row %h (x from Hi row %h - pad_up), no atomic.
// CHECK:         arith.subi %h,
// CHECK:         scf.for %nb_1 =
// CHECK-NOT:       arith.constant 7 : index
// CHECK:           arith.constant 4 : index
// CHECK-NOT:       arith.constant 7 : index
// CHECK:           scf.for %kk_1 =
// CHECK:           ascend.fixpipe %{{.*}} dst_stride %{{[0-9]+}} : !ascend.local_tensor<CO1, 8192xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>{{$}}
// CHECK-NOT:     ascend.
// CHECK:         func.return
