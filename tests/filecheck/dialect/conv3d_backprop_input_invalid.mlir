// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of ascend.conv3d_backprop_input (op_level.py; the geometry checks of
// ConvOpBase), one chunk each; the problem rules come from ConvBpFilterShape.errors
// (conv_shape.py), shared with the other conv ops, of which two are sampled.

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: strides must have 3 values, got 2

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: pads must have 3 or 6 values, got 4

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: dilations must have 3 values, got 1

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: input_size must have 5 values, got 4

// -----

%dy, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: dy, weight and dX must be all memrefs (op level) or all !ascend.gm_tensor (format level)

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16, 1 : i64>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16, 1 : i64> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: weight memref must be in the default (GM) memory space

// -----

%dy, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NCDHW, 2x16x4x8x8xf16>
// CHECK: Operation does not verify: dX must be in NDC1HWC0 at the format level, got NCDHW

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: dy must have rank 5, got rank 4

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf32>, memref<16x16x3x3x3xf32>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf32>, memref<16x16x3x3x3xf32> -> memref<2x16x4x8x8xf32>
// CHECK: Operation does not verify: dy element type must be f16 or bf16, got f32

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xbf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xbf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: weight element type (bf16) must equal dy's (f16)

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf32>
// CHECK: Operation does not verify: dX element type (f32) must equal dy's (f16)

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x9xf16>
// CHECK: Operation does not verify: dX shape [2, 16, 4, 8, 9] must equal input_size [2, 16, 4, 8, 8]

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 3 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: Cin (16) and Cout (16) must be divisible by groups (3)

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 64, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: stride H must be in [1, 63], got 64

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x8x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x8x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: weight shape [16, 8, 3, 3, 3] needs Cin/groups = 16 (dX has Cin = 16, groups = 1), got 8

// -----

%dy, %w = "test.op"() : () -> (memref<2x16x4x8x7xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x7xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: dy shape [2, 16, 4, 8, 7] does not match [2, 16, 4, 8, 8] implied by input_size, weight and the strides, pads and dilations

// -----

%dy, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16, groups = 2>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16, groups = 2> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK: Operation does not verify: weight FRACTAL_Z_3D tensor has groups = 2, the op has groups = 1

// -----

%dy, %w = "test.op"() : () -> (memref<1x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, cout1 = 1, cin1 = 1, cout1_g = 1, cin1_g = 1, c0 = 16, c0_bits = 4, dout = 4, ho = 8, wo = 8, di = 4, hi = 8, wi = 8, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, backprop_pad_tail = 1, backprop_pad_up = 1, backprop_pad_down = 2, backprop_pad_left = 1, backprop_pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 1, al1_pbuffer = 2, bl1_pbuffer = 1, single_core_group = 1, single_core_cout = 16, single_core_cout1 = 1, single_core_cin1 = 1, single_core_din = 4, single_core_ho = 8, base_m = 64, base_k = 144, base_n = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, init_output_flag = 0, single_core_batch = 1, single_core_m = 64, single_core_cin = 16> : memref<1x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<1x16x4x8x8xf16>
// CHECK: Operation does not verify: tiling backprop_pad_down = 2 does not match the problem's 1
