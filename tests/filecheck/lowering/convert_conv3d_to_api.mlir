// RUN: ascend-opt %s --split-input-file -p 'ascend-tile-conv3d{cores=4},convert-conv-to-ascend-api' | filecheck %s
// RUN: not ascend-opt %s --split-input-file -p convert-conv-to-ascend-api 2>&1 | filecheck %s --check-prefix=UNTILED

// convert-conv-to-ascend-api on a tiled forward ascend.conv3d (lowering/conv3d_api_kernel.py):
// the host allocates y uninitialised (ascend.empty_gm: the kernel writes all of it) and launches
// batch_dim·do_dim·co_dim·m_dim cores; the kernel splits its
// block index (M fastest), initialises one Conv3D object, sets the weight, the bias, its start
// position and single output shape once, and per batch of its share calls SetInput, IterateAll
// and End, with the NDC1HWC0 / FRACTAL_Z_3D offsets of dialects/formats.py. The launch records
// the conv (ascend.conv3d, torch's three pads as six) for ascend-run --check.

func.func @fwd(%x5: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %b5: !ascend.gm_tensor<ND, 32xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16> {
  %y5 = ascend.conv3d %x5, %w5 bias %b5 strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<ND, 32xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
}
// CHECK-LABEL: func.func @fwd(
// CHECK-NEXT:    %y5 = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
// CHECK-NEXT:    ascend.launch @fwd_kernel blocks 4 (%x5, %w5, %b5, %y5) {ascend.conv3d = {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<ND, 32xf16>, !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
// CHECK-NEXT:    func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
// CHECK:       func.func @fwd_kernel(%0: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %1: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, %2: !ascend.gm_tensor<ND, 32xf16>, %3: !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>) attributes {ascend.kernel} {
// CHECK-NEXT:    %4 = ascend.get_block_idx : index
// Two Dout cores (do_dim = 2) inside two batch cores: do = block mod 2, batch = block / 2.
// CHECK:         %6 = arith.remsi %4, %5 : index
// CHECK:         %8 = arith.floordivsi %4, %7 : index
// CHECK:         %10 = arith.remsi %8, %9 : index
// CHECK:         %13 = ascend.conv3d_create : !ascend.conv3d_api<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>
// CHECK-NEXT:    ascend.conv3d_init %13 tiling #ascend.conv3d_tiling<{{.*}}single_core_do = 2, single_core_co = 32, single_core_m = 64, {{.*}}batch_dim = 2, do_dim = 2, co_dim = 1, m_dim = 1>
// The core's Dout share: min(2, 4 - 2·do).
// CHECK:         %15 = arith.muli %6, %14 : index
// CHECK:         %17 = arith.subi %16, %15 : index
// CHECK:         %19 = arith.minsi %18, %17 : index
// CHECK:         scf.if %21 {
// CHECK:           ascend.conv3d_set_weight %13, %1[%22]
// CHECK:           ascend.conv3d_set_bias %13, %2[%23]
// Din start = do_start·stride_d − pad_head.
// CHECK:           %25 = arith.subi %15, %24 : index
// CHECK-NEXT:      %26 = arith.constant 0 : index
// CHECK-NEXT:      ascend.conv3d_set_input_start_position %13, %25, %26
// CHECK:           ascend.conv3d_set_single_output_shape %13, %27, %19, %28
// CHECK:           scf.if %30 {
// x from its batch (4096 elements a batch); y from (batch, Dout start): 8192 a batch, 2048 a depth.
// CHECK-NEXT:        %31 = arith.constant 4096 : index
// CHECK-NEXT:        %32 = arith.muli %10, %31 : index
// CHECK-NEXT:        %33 = arith.constant 8192 : index
// CHECK-NEXT:        %34 = arith.muli %10, %33 : index
// CHECK-NEXT:        %35 = arith.constant 2048 : index
// CHECK-NEXT:        %36 = arith.muli %15, %35 : index
// CHECK-NEXT:        %37 = arith.addi %34, %36 : index
// CHECK-NEXT:        ascend.conv3d_set_input %13, %0[%32]
// CHECK-NEXT:        ascend.conv3d_iterate_all %13, %3[%37]
// CHECK-NEXT:        ascend.conv3d_end %13
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// UNTILED: ascend-opt: error: convert-conv-to-ascend-api needs a tiling on ascend.conv3d: run ascend-tile-conv3d
