// RUN: ascend-opt %s --split-input-file -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input,convert-conv-to-ascend-api' | filecheck %s
// RUN: ascend-opt %s --split-input-file -p convert-conv-to-ascend-api --verify-diagnostics | filecheck %s --check-prefix=UNTILED
// The full pipeline takes each chunk's kernel on to the hardware level (no API call is left).
// RUN: ascend-opt %s --split-input-file -p ascend-pipeline | filecheck %s --check-prefix=HW

// convert-conv-to-ascend-api on a tiled ascend.conv3d_backprop_input (dX,
// lowering/conv3d_bp_input_api_kernel.py): the host allocates dX uninitialised (ascend.empty_gm:
// the kernel writes all of it) and launches one core per
// (N, M, batch, D, group) share of the tiling; the kernel splits its block index (N fastest),
// initialises one Conv3DBackpropInput object and, per batch of its share, calls SetGradOutput,
// SetWeight, SetSingleShape, then per dX depth of its D share SetStartPosition and while
// (Iterate) GetTensorC (asc-devkit's SetSingleShape sets Din to 1: one series, one depth; an
// scf.for when the share has more than one depth), then one End.

// The vendor tiler's choice: one M share (64 = Hi·Wi), one D row and one batch a core, so
// 2 batch cores x 4 depth cores.
func.func @plain(%dy: memref<2x16x4x8x8xf16>, %w: memref<16x16x3x3x3xf16>) -> memref<2x16x4x8x8xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
  func.return %dx : memref<2x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @plain(
// CHECK:         %dx5 = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK-NEXT:    ascend.launch @plain_kernel blocks 8 (%dy5, %w5, %dx5)
// CHECK:       func.func @plain_kernel(%0: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %1: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, %2: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>) attributes {ascend.kernel} {
// CHECK-NEXT:    %3 = ascend.get_block_idx : index
// batch = block mod 2, depth = block / 2 mod 4.
// CHECK:         %5 = arith.remsi %3, %4 : index
// CHECK:         %9 = arith.remsi %7, %8 : index
// CHECK:         %12 = ascend.conv3d_bp_input_create : !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
// CHECK-NEXT:    ascend.conv3d_bp_input_init %12 tiling #ascend.conv3d_bp_input_tiling<{{.*}}single_core_din = 1{{.*}}single_core_batch = 1, single_core_m = 64, single_core_cin = 16>
// The core's depth share: min(1, 4 - d).
// CHECK:         %16 = arith.minsi %15, %14 : index
// CHECK:         scf.if %18 {
// CHECK:           scf.if %20 {
// dy and dX from the core's batch (4096 elements a batch), the weight from its start.
// CHECK-NEXT:        %21 = arith.constant 4096 : index
// CHECK-NEXT:        %22 = arith.muli %5, %21 : index
// CHECK:             ascend.conv3d_bp_input_set_grad_output %12, %0[%22]
// CHECK-NEXT:        %25 = arith.constant 0 : index
// CHECK-NEXT:        ascend.conv3d_bp_input_set_weight %12, %1[%25]
// M = 64 positions, K = Cout1·kD·kH·kW·C0 = 432, N = 16 channels.
// CHECK-NEXT:        %26 = arith.constant 64 : index
// CHECK-NEXT:        %27 = arith.constant 432 : index
// CHECK-NEXT:        %28 = arith.constant 16 : index
// CHECK-NEXT:        ascend.conv3d_bp_input_set_single_shape %12, %26, %27, %28
// The D start is the core's depth; the H start row 0 - backprop_pad_up = -1.
// CHECK-NEXT:        %29 = arith.constant -1 : index
// CHECK-NEXT:        ascend.conv3d_bp_input_set_start_position %12, %9, %29
// CHECK-NEXT:        scf.while () : () -> () {
// CHECK-NEXT:          %30 = ascend.conv3d_bp_input_iterate %12
// CHECK-NEXT:          scf.condition(%30)
// CHECK-NEXT:        } do {
// CHECK-NEXT:          ascend.conv3d_bp_input_get_tensor_c %12, %2[%24]
// CHECK-NEXT:          scf.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    ascend.conv3d_bp_input_end %12
// CHECK-NEXT:    func.return

// UNTILED: convert-conv-to-ascend-api needs the format level: run ascend-legalize-formats
// HW-LABEL: func.func @plain_kernel(
// HW-NOT:     ascend.conv3d_bp_input_
// HW:         ascend.load3d
// HW:         ascend.load2d {{.*}} transpose
// HW:         ascend.fixpipe

// -----

// A tiling given on the op (kept: it fits) with an M share of 3 dX rows (24 of 64 positions):
// 3 M cores inside 2 batch and 4 depth cores. M core m starts at dX row 3m, the padded dy row
// 3m - 1 (SetStartPosition) and the real dy row max(0, ceil((3m - 1) / 1)) (SetGradOutput:
// 128 elements a row; the division by the stride 1 is folded as it is built); dX from row 3m.
func.func @msplit(%dy5: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_bp_input_tiling<batch = 2, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 2, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 1, single_core_ho = 1, base_m = 64, base_k = 144, base_n = 16, base_d = 1, base_batch = 1, base_group = 1, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, step_batch = 1, step_group = 1, iterate_order = 1, hf32_flag = 0, init_output_flag = 0, reserved = 0, single_core_batch = 1, single_core_m = 24, single_core_cin = 16> : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @msplit(
// CHECK:         ascend.launch @msplit_kernel blocks 24 (%dy5, %w5, %dx5)
// CHECK:       func.func @msplit_kernel(
// M = block mod 3 (N has one core and is not split).
// CHECK:         %5 = arith.remsi %3, %4 : index
// The core's M: min(24, 64 - 24·m).
// CHECK:         %18 = arith.muli %5, %17 : index
// CHECK:         %20 = arith.subi %19, %18 : index
// CHECK:         %22 = arith.minsi %21, %20 : index
// CHECK:         %24 = arith.muli %5, %23 : index
// CHECK:         %26 = arith.subi %24, %25 : index
// CHECK-NOT:     arith.ceildivsi
// CHECK:         %28 = arith.maxsi %27, %26 : index
// No work for a core whose first real dy row is past Ho = 8.
// CHECK:         %39 = arith.cmpi slt, %28, %38 : index
// CHECK:         %46 = arith.muli %28, %45 : index
// CHECK-NEXT:    %47 = arith.addi %44, %46 : index
// CHECK:         %51 = arith.muli %24, %50 : index
// CHECK-NEXT:    %52 = arith.addi %49, %51 : index
// CHECK-NEXT:    ascend.conv3d_bp_input_set_grad_output %16, %0[%47]
// CHECK:         ascend.conv3d_bp_input_set_single_shape %16, %22, %54, %55
// CHECK-NEXT:    ascend.conv3d_bp_input_set_start_position %16, %13, %26
// CHECK:         ascend.conv3d_bp_input_get_tensor_c %16, %2[%52]

// Already tiled at the format level: the lowering alone takes it.
// UNTILED: ascend.launch @msplit_kernel blocks 24
// HW-LABEL: func.func @msplit_kernel(
// HW-NOT:     ascend.conv3d_bp_input_
// HW:         ascend.fixpipe

// -----

// A D share of 2 of the 4 dX depths (2 D cores x 2 batch cores): each core loops over its two
// depths, one SetStartPosition(depth, H start) and iterate loop a depth, after the one
// SetSingleShape; the trip count is static (2 divides Di), GetTensorC's offset has no D term
// (the API adds the depth's).
func.func @dshare(%dy5: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_bp_input_tiling<batch = 2, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 2, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 2, single_core_ho = 1, base_m = 64, base_k = 144, base_n = 16, base_d = 1, base_batch = 1, base_group = 1, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, step_batch = 1, step_group = 1, iterate_order = 1, hf32_flag = 0, init_output_flag = 0, reserved = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @dshare_kernel(
// The batch core (block mod 2), then the D core.
// CHECK:         arith.remsi
// CHECK:         %[[D:.*]] = arith.remsi %{{.*}}, %{{.*}} : index
// CHECK:         ascend.conv3d_bp_input_init
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[D]], %[[TWO]] : index
// CHECK:         ascend.conv3d_bp_input_set_single_shape
// CHECK-NEXT:    %[[HO:.*]] = arith.constant -1 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %dl = %[[ZERO]] to %[[N]] step %[[STEP]] {
// CHECK-NEXT:      %curDin = arith.addi %[[START]], %dl : index
// CHECK-NEXT:      ascend.conv3d_bp_input_set_start_position %{{.*}}, %curDin, %[[HO]]
// CHECK-NEXT:      scf.while () : () -> () {
// CHECK-NEXT:        ascend.conv3d_bp_input_iterate
// CHECK-NEXT:        scf.condition
// CHECK-NEXT:      } do {
// CHECK-NEXT:        ascend.conv3d_bp_input_get_tensor_c
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  ascend.conv3d_bp_input_end

// UNTILED: ascend.launch @dshare_kernel blocks 4
// HW-LABEL: func.func @dshare_kernel(
// HW:         scf.for %dl =
// HW-NOT:     ascend.conv3d_bp_input_
// HW:         ascend.fixpipe

// -----

// A D share of 3 (2 D cores over Di 4): the second core's share is the one-depth tail, so the
// loop runs min(3, 4 - start) times.
func.func @dtail(%dy5: !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_bp_input_tiling<batch = 2, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 1, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 2, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 3, single_core_ho = 1, base_m = 64, base_k = 144, base_n = 16, base_d = 1, base_batch = 1, base_group = 1, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, step_batch = 1, step_group = 1, iterate_order = 1, hf32_flag = 0, init_output_flag = 0, reserved = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @dtail_kernel(
// CHECK:         %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %{{.*}}, %[[THREE]] : index
// CHECK-NEXT:    %[[DI:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[REST:.*]] = arith.subi %[[DI]], %[[START]] : index
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[SHARE:.*]] = arith.minsi %[[MAX]], %[[REST]] : index
// CHECK:         ascend.conv3d_bp_input_set_single_shape
// CHECK-NEXT:    %[[HO:.*]] = arith.constant -1 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %dl = %[[ZERO]] to %[[SHARE]] step %[[STEP]] {
// CHECK-NEXT:      %curDin = arith.addi %[[START]], %dl : index
// CHECK-NEXT:      ascend.conv3d_bp_input_set_start_position %{{.*}}, %curDin, %[[HO]]
// CHECK-NEXT:      scf.while

// UNTILED: ascend.launch @dtail_kernel blocks 4
// HW-LABEL: func.func @dtail_kernel(
// HW:         scf.for %dl =
// HW-NOT:     ascend.conv3d_bp_input_
// HW:         ascend.fixpipe
