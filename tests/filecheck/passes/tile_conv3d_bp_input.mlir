// RUN: ascend-opt %s --split-input-file -p ascend-legalize-formats,ascend-tile-conv3d-bp-input | filecheck %s
// RUN: not ascend-opt %s --split-input-file -p ascend-tile-conv3d-bp-input 2>&1 | filecheck %s --check-prefix=OPLEVEL
// The cores option merges the vendor's single-core shares (batch, then D, M, N) until the split fits.
// RUN: ascend-opt %s --split-input-file -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{cores=1}' | filecheck %s --check-prefix=ONE
// RUN: ascend-opt %s --split-input-file -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{cores=4}' | filecheck %s --check-prefix=FOUR
// RUN: not ascend-opt %s --split-input-file -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{cores=0}' 2>&1 | filecheck %s --check-prefix=ZERO

// ascend-tile-conv3d-bp-input attaches the vendor's tiling (passes/conv3d_bp_input_tiling_heuristic.py)
// to the format-level dX op. The vendor's network test x1_17 (hicann/asc-devkit
// tests/api/adv_api/tiling/conv_backprop/test_conv3d_backprop_input_api_tiling_network.cpp,
// NetWorks_001): base 256 x 64 x 128, steps Ka 4 and Kb 8, single-core M 1024, Cin 128.

func.func @x1_17(%dy: memref<1x512x5x32x32xf16>, %w: memref<512x512x1x1x1xf16>) -> memref<1x512x5x32x32xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 512, 5, 32, 32] strides [1, 1, 1] pads [0, 0, 0] dilations [1, 1, 1] groups 1 : memref<1x512x5x32x32xf16>, memref<512x512x1x1x1xf16> -> memref<1x512x5x32x32xf16>
  func.return %dx : memref<1x512x5x32x32xf16>
}
// CHECK-LABEL: func.func @x1_17
// CHECK:         %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [1, 512, 5, 32, 32] strides [1, 1, 1] pads [0, 0, 0] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 512, cout = 512, cout1 = 32, cin1 = 32, cout1_g = 32, cin1_g = 32, c0 = 16, c0_bits = 4, dout = 5, ho = 32, wo = 32, di = 5, hi = 32, wi = 32, dk = 1, hk = 1, wk = 1, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 0, pad_back = 0, pad_up = 0, pad_down = 0, pad_left = 0, pad_right = 0, backprop_pad_tail = 0, backprop_pad_up = 0, backprop_pad_down = 0, backprop_pad_left = 0, backprop_pad_right = 0, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 512, single_core_cout1 = 32, single_core_cin1 = 8, single_core_din = 1, single_core_ho = 1, base_m = 256, base_k = 64, base_n = 128, base_d = 1, base_batch = 1, base_group = 1, step_m = 1, step_n = 1, step_ka = 4, step_kb = 8, step_batch = 1, step_group = 1, iterate_order = 1, hf32_flag = 0, init_output_flag = 0, reserved = 0, single_core_batch = 1, single_core_m = 1024, single_core_cin = 128>
// CHECK-NEXT:    %dx = ascend.trans_data %dx5
// One core: every share whole (5 depths, 32 Cin1 blocks; M and batch are whole already).
// ONE-LABEL: func.func @x1_17
// ONE:         single_core_cin1 = 32, single_core_din = 5, {{.*}} single_core_batch = 1, single_core_m = 1024, single_core_cin = 512>
// Four cores: D merged (5 x 4 = 20 > 4), N kept at the vendor's 4 shares of 8 blocks.
// FOUR-LABEL: func.func @x1_17
// FOUR:         single_core_cin1 = 8, single_core_din = 5, {{.*}} single_core_m = 1024, single_core_cin = 128>
// ZERO: cores must be at least 1, got 0

// OPLEVEL: ascend-tile-conv3d-bp-input runs on the format level: run ascend-legalize-formats first

// -----

// Stride 2, input 10 (a row the last window does not reach): the backprop pads of the dilated
// dy (after pads 2, so that 1 + 9 + 2 = 10 + 2), and SetInitOutput's flag stays 0
// ((10 + 2 - 3) mod 2 = 1 <= pad down 1, stride H 2 <= kH 3).
func.func @stride2(%dy: memref<1x16x5x5x5xf16>, %w: memref<16x16x3x3x3xf16>) -> memref<1x16x10x10x10xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 10, 10, 10] strides [2, 2, 2] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<1x16x5x5x5xf16>, memref<16x16x3x3x3xf16> -> memref<1x16x10x10x10xf16>
  func.return %dx : memref<1x16x10x10x10xf16>
}
// CHECK-LABEL: func.func @stride2
// CHECK:         tiling #ascend.conv3d_bp_input_tiling<{{.*}} backprop_pad_tail = 2, backprop_pad_up = 1, backprop_pad_down = 2, backprop_pad_left = 1, backprop_pad_right = 2, {{.*}} init_output_flag = 0,
