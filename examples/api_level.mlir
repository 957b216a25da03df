// API level: a dW kernel written against the Ascend C Conv3DBackpropFilter API, and its host.
//
// One op per API call, on an object of type !ascend.conv3d_bp_filter (the C++
// Conv3DBackpropFilter<INPUT, WEIGHT, GRAD_OUTPUT, GRAD_WEIGHT>). Its verifier enforces the
// call order: create, init first, the set_* calls before iterate, end last.
//
// This hand-written kernel runs on one core and makes one single shape: batch 0, output depth
// 0, kernel depth 0, i.e. M x N x K = 64 x 576 x 784 (Cout x 3*3*Cin x Ho*Wo). The kernel the
// compiler writes (ascend-conv bp-filter --emit api) adds the driver loops over batch*dout and
// kD, and splits them over the cores with ascend.get_block_idx.
//
// Run: ascend-opt examples/api_level.mlir

// Short names for the types used throughout (MLIR type aliases).
!obj = !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
!act = !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
!dwf = !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

// The tiling for this layer (see tests/filecheck/dialect/dw_tiling.mlir for its footprints):
// baseM 64 x baseK 128 x baseN 128, double-buffered, for 24 cores.
#tiling = #ascend.dw_tiling<
  // the problem
  batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28,
  di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1,
  stride_d = 1, stride_h = 1, stride_w = 1,
  pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1,
  dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16,
  // double buffering of L0A, L0B, L0C, A1 and B1
  al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2,
  // tile sizes
  base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16,
  step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168,
  hf32_flag = 0,
  // what one core handles: everything (no split over cores)
  single_core_dk = 3, single_core_group = 1, single_core_cout = 64, single_core_ho = 28,
  single_core_batch = 16, single_core_cin = 64>

// The kernel: runs once on every AI Core.
func.func @conv3d_dw_kernel(%x: !act, %dy: !act, %dw: !dwf) {
  %c0 = arith.constant 0 : index
  %m = arith.constant 64 : index
  %n = arith.constant 576 : index
  %k = arith.constant 784 : index

  // Conv3DBackpropFilter<...> dw; dw.Init(&tiling);
  %obj = ascend.create : !obj
  ascend.init %obj tiling #tiling : !obj

  // Where this single shape starts in dy and x (element offsets), its GEMM shape, and the
  // first Ho row of its K range.
  ascend.set_grad_output %obj, %dy[%c0] : !obj, !act
  ascend.set_input %obj, %x[%c0] : !obj, !act
  ascend.set_single_shape %obj, %m, %n, %k : !obj
  ascend.set_start_position %obj, %c0 : !obj

  // while (dw.Iterate()) { dw.GetTensorC(dW[off], /*enAtomic=*/true); }
  // Each iterate computes the next baseM x baseN tile into L0C; get_tensor_c adds it into dW.
  scf.while () : () -> () {
    %more = ascend.iterate %obj : !obj
    scf.condition(%more)
  } do {
    ascend.get_tensor_c %obj, %dw[%c0] atomic : !obj, !dwf
    scf.yield
  }

  // dw.End();
  ascend.end %obj : !obj
  func.return
}

// The host: allocates the tensors in global memory and launches the kernel on one core.
// alloc_gm returns zero-filled memory, which dW needs because the kernel accumulates into it.
func.func @main() {
  %x = ascend.alloc_gm : !act
  %dy = ascend.alloc_gm : !act
  %dw = ascend.alloc_gm : !dwf
  ascend.launch @conv3d_dw_kernel blocks 1 (%x, %dy, %dw) : !act, !act, !dwf
  func.return
}
