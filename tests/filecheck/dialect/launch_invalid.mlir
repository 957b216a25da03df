// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of ascend.launch and ascend.empty_gm (launch.py), one chunk each.
// ascend.alloc_gm has no rule of its own beyond its result type (a gm_tensor).

func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 0 (%x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch needs at least 1 block, got 0

// -----

func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 24 (%x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel', which is not defined in the module

// -----

"memref.global"() <{sym_name = "kernel", sym_visibility = "private", type = memref<1xf32>, initial_value}> : () -> ()
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 24 (%x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel', which is a memref.global, not a func.func

// -----

func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
  ascend.launch @kernel blocks 24 (%x, %dw) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel' passes 2 arguments, the kernel takes 3

// -----

func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 24 (%x, %x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel': argument 1 has type !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, the kernel expects !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

// -----

// alloc_gm allocates in global memory only.
%t = ascend.alloc_gm : !ascend.local_tensor<A1, 16384xf16>
// CHECK: !ascend.local_tensor<A1, 16384xf16> should be of base attribute ascend.gm_tensor

// -----

// The ascend.conv attribute of a launch (issue 20): groups 0 contradicts every problem.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  ascend.launch @kernel blocks 1 (%x, %dy, %dw) {ascend.conv = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 0 : i64}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: ascend.conv: groups must be in [1, 65535], got 0

// -----

// Pads that contradict the launched tensors: with no padding the 3x3x3 kernel gives dy 2x6x6, the launch passes 4x8x8.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  ascend.launch @kernel blocks 1 (%x, %dy, %dw) {ascend.conv = {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: ascend.conv gives dy 2x16x2x6x6 for the launched x and dW, the launched dy is 2x16x4x8x8: its strides, pads or dilations contradict the tensors

// -----

// A field of the wrong size.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  ascend.launch @kernel blocks 1 (%x, %dy, %dw) {ascend.conv = {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: ascend.conv strides must be an array of 3 integers

// -----

// Not a dictionary.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  ascend.launch @kernel blocks 1 (%x, %dy, %dw) {ascend.conv = 1 : i64} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: ascend.conv must be a dictionary {strides, pads, dilations, groups}

// -----

// Pads that fit the tensors (front 0 + back 2 gives the same Do as 1 + 1) but not the tiling the
// kernel hands the API (ascend-conv bp-filter --input 1,16,2,4,4 --weight 16,16,1,1,1 --padding 1
// --cores 1 --emit api, with the launch's pads edited).
builtin.module {
  func.func @conv3d_bp_filter(%x: memref<1x16x2x4x4xf16>, %dy: memref<1x16x4x6x6xf16>) -> memref<16x16x1x1x1xf32> {
    %x5 = ascend.trans_data %x : memref<1x16x2x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x2x4x4xf16>
    %dy5 = ascend.trans_data %dy : memref<1x16x4x6x6xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xf16>
    %dwf = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
    ascend.launch @conv3d_bp_filter_kernel blocks 1 (%x5, %dy5, %dwf) {ascend.conv = {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 2, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x2x4x4xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
    %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32> -> memref<16x16x1x1x1xf32>
    func.return %dw : memref<16x16x1x1x1xf32>
  }
  func.func @conv3d_bp_filter_kernel(%0: !ascend.gm_tensor<NDC1HWC0, 1x16x2x4x4xf16>, %1: !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xf16>, %2: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>) attributes {ascend.kernel} {
    %3 = ascend.get_block_idx : index
    %4 = ascend.create : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
    ascend.init %4 tiling #ascend.dw_tiling<batch = 1, cin = 16, cout = 16, cin1_g = 1, cout1_g = 1, dout = 4, ho = 6, wo = 6, di = 2, hi = 4, wi = 4, dk = 1, hk = 1, wk = 1, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 16, base_k = 48, base_n = 16, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 512, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 16, single_core_ho = 6, single_core_batch = 4, single_core_cin = 16, batch_dim = 1, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 1, single_core_m = 16, single_core_n = 16, single_core_k = 48> : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
    %5 = arith.constant 0 : index
    %6 = arith.constant 4 : index
    %7 = arith.constant 1 : index
    scf.for %bdi = %5 to %6 step %7 {
      %8 = arith.constant 4 : index
      %9 = arith.cmpi slt, %bdi, %8 : index
      scf.if %9 {
        %10 = arith.constant 4 : index
        %11 = arith.floordivsi %bdi, %10 : index
        %12 = arith.constant 4 : index
        %13 = arith.remsi %bdi, %12 : index
        %14 = arith.constant -1 : index
        %15 = arith.addi %13, %14 : index
        %16 = arith.constant 0 : index
        %17 = arith.cmpi sge, %15, %16 : index
        %18 = arith.constant 2 : index
        %19 = arith.cmpi slt, %15, %18 : index
        %20 = arith.andi %17, %19 : i1
        scf.if %20 {
          %21 = arith.constant 2304 : index
          %22 = arith.muli %11, %21 : index
          %23 = arith.constant 576 : index
          %24 = arith.muli %13, %23 : index
          %25 = arith.addi %22, %24 : index
          %26 = arith.constant 512 : index
          %27 = arith.muli %11, %26 : index
          %28 = arith.constant 256 : index
          %29 = arith.muli %15, %28 : index
          %30 = arith.addi %27, %29 : index
          ascend.set_grad_output %4, %1[%25] : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x6x6xf16>
          ascend.set_input %4, %0[%30] : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>, !ascend.gm_tensor<NDC1HWC0, 1x16x2x4x4xf16>
          %31 = arith.constant 16 : index
          %32 = arith.constant 16 : index
          %33 = arith.constant 36 : index
          ascend.set_single_shape %4, %31, %32, %33 : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
          %34 = arith.constant 0 : index
          ascend.set_start_position %4, %34 : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
          %35 = arith.constant 0 : index
          scf.while () : () -> () {
            %36 = ascend.iterate %4 : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
            scf.condition(%36)
          } do {
            ascend.get_tensor_c %4, %2[%35] atomic : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
            scf.yield
          }
        }
      }
    }
    ascend.end %4 : !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
    func.return
  }
}
// CHECK: Operation does not verify: ascend.conv pads [0, 2, 1, 1, 1, 1] differ from the kernel's tiling (pad_front, pad_back, pad_up, pad_down, pad_left, pad_right = [1, 1, 1, 1, 1, 1])

// -----

// groups of another type.
func.func @kernel(%a0: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %a1: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %a2: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %a0 = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %a1 = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %a2 = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  ascend.launch @kernel blocks 1 (%a0, %a1, %a2) {ascend.conv = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = "one"}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: ascend.conv groups must be an integer

// -----

// The attribute on a launch that is not of x, dy and dW.
func.func @kernel(%a0: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %a1: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %a0 = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %a1 = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  ascend.launch @kernel blocks 1 (%a0, %a1) {ascend.conv = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: ascend.conv needs a launch of the three GM tensors x, dy, dW

// -----

// Two groups for a dW laid out for one (its FRACTAL_Z_3D type says groups 1).
func.func @kernel(%a0: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %a1: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %a2: !ascend.gm_tensor<FRACTAL_Z_3D, 16x8x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %a0 = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %a1 = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  %a2 = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x8x3x3x3xf32>
  ascend.launch @kernel blocks 1 (%a0, %a1, %a2) {ascend.conv = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 2 : i64}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x8x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: ascend.conv groups 2 differ from the launched dW's groups 1

// -----

// The ascend.conv3d record of a forward launch (x, weight -> y): pads that contradict y (no padding gives y 1x32x2x6x6).
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %w = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>
  %y = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%x, %w, %y) {ascend.conv3d = {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d gives y 1x32x2x6x6 for the launched x and weight, the launched y is 1x32x4x8x8: its strides, pads or dilations contradict the tensors

// -----

// The forward record: groups 0 contradicts every problem.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %w = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>
  %y = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%x, %w, %y) {ascend.conv3d = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 0 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d: groups must be in [1, 65535], got 0

// -----

// The forward record: a field of the wrong size.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %w = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>
  %y = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%x, %w, %y) {ascend.conv3d = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d dilations must be an array of 3 integers

// -----

// The forward record: groups not an integer.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %w = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>
  %y = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%x, %w, %y) {ascend.conv3d = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = "one"}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d groups must be an integer

// -----

// The forward record: not a dictionary.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %w = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>
  %y = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%x, %w, %y) {ascend.conv3d = 1 : i64} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d must be a dictionary {strides, pads, dilations, groups}

// -----

// The forward record on a launch of two tensors: there is no x, weight and y.
func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %y = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%x, %y) {ascend.conv3d = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d needs a launch of the GM tensors x, weight, (bias,) y

// -----

// The ascend.conv3d_backprop_input record of a dX launch (dy, weight -> dX): pads that contradict dy (no padding gives dy 1x16x2x6x6 for dX 1x16x4x8x8).
func.func @kernel(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %w = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  %dx = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%dy, %w, %dx) {ascend.conv3d_backprop_input = {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d_backprop_input gives dy 1x16x2x6x6 for the launched dX and weight, the launched dy is 1x16x4x8x8: its strides, pads or dilations contradict the tensors

// -----

// The dX record on a launch of two tensors: there is no dy, weight and dX.
func.func @kernel(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %dx = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%dy, %dx) {ascend.conv3d_backprop_input = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d_backprop_input needs a launch of the three GM tensors dy, weight, dX

// -----

// The dX record: a malformed field (shared with the other records' checks).
func.func @kernel(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %dx: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  func.return
}
func.func @host() {
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %w = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
  %dx = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%dy, %w, %dx) {ascend.conv3d_backprop_input = {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return
}
// CHECK: Operation does not verify: ascend.conv3d_backprop_input strides must be an array of 3 integers

// -----

// ascend.empty_gm is uninitialised: reading it back (trans_data) before a launch writes it.
func.func @kernel(%y: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  func.return
}
func.func @host() -> memref<1x16x4x8x8xf16> {
  %y5 = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %y = ascend.trans_data %y5 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> -> memref<1x16x4x8x8xf16>
  ascend.launch @kernel blocks 1 (%y5) : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return %y : memref<1x16x4x8x8xf16>
}
// CHECK: Operation does not verify: ascend.empty_gm is uninitialised, yet its first use, ascend.trans_data, is not an ascend.launch that writes it

// -----

// The same when the first use is nested in a region: scf.if's ancestor in the block reads it.
func.func @host(%c: i1) -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> {
  %y5 = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  scf.if %c {
    "test.op"(%y5) : (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) -> ()
  }
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
}
// CHECK: Operation does not verify: ascend.empty_gm is uninitialised, yet its first use, scf.if, is not an ascend.launch that writes it

// -----

// ascend.empty_gm makes a GM tensor, nothing else.
%y = "ascend.empty_gm"() : () -> memref<4xf16>
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: memref<4xf16> should be of base attribute ascend.gm_tensor
