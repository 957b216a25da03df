// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of ascend.conv3d (op_level.py), one chunk each; the problem rules come
// from ConvBpFilterShape.errors (conv_shape.py), shared with conv3d_backprop_filter, of which
// two are sampled.

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: strides must have 3 values, got 2

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: pads must have 3 or 6 values, got 4

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: dilations must have 3 values, got 1

// -----

%x, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: x, weight and y must be all memrefs (op level) or all !ascend.gm_tensor (format level)

// -----

%x, %w, %b = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16>)
%y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>, !ascend.gm_tensor<ND, 16xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: x, weight, bias and y must be all memrefs (op level) or all !ascend.gm_tensor (format level)

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16, 1 : i64>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16, 1 : i64>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: x memref must be in the default (GM) memory space

// -----

%x, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK: Operation does not verify: weight must be in FRACTAL_Z_3D at the format level, got NDC1HWC0

// -----

%x, %w, %b = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<NCDHW, 1x16x1x1x1xf16>)
%y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>, !ascend.gm_tensor<NCDHW, 1x16x1x1x1xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK: Operation does not verify: bias must be in ND at the format level, got NCDHW

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: x must have rank 5, got rank 4

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf32>, memref<16x16x3x3x3xf32>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf32>, memref<16x16x3x3x3xf32> -> memref<2x16x4x8x8xf32>
// CHECK: Operation does not verify: x element type must be f16 or bf16, got f32

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xbf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xbf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: weight element type (bf16) must equal x's (f16)

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf32>
// CHECK: Operation does not verify: y element type (f32) must equal x's (f16)

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 64, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x1x8xf16>
// CHECK: Operation does not verify: stride H must be in [1, 63], got 64

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x8x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 3 : memref<2x16x4x8x8xf16>, memref<16x8x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: Cin (16) and Cout (16) must be divisible by groups (3)

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x8x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x8x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: weight shape [16, 8, 3, 3, 3] needs Cin/groups = 16 (x has Cin = 16, groups = 1), got 8

// -----

%x, %w = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [0, 0, 0] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: y shape [2, 16, 4, 8, 8] does not match [2, 16, 2, 6, 6] implied by x, weight and the strides, pads and dilations

// -----

%x, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
// CHECK: Operation does not verify: weight FRACTAL_Z_3D tensor has groups = 1, the op has groups = 2

// -----

%x, %w, %b = "test.op"() : () -> (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>, memref<32xf16>)
%y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>, memref<32xf16> -> memref<2x16x4x8x8xf16>
// CHECK: Operation does not verify: bias shape [32] must be [16] (Cout of the weight)

// -----

%x, %w, %b = "test.op"() : () -> (memref<2x16x4x8x8xbf16>, memref<16x16x3x3x3xbf16>, memref<16xbf16>)
%y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xbf16>, memref<16x16x3x3x3xbf16>, memref<16xbf16> -> memref<2x16x4x8x8xbf16>
// CHECK: Operation does not verify: bias element type must be f32 with bf16 x (the Conv3D API's combinations), got bf16

// -----

%x, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>)
%y = ascend.conv3d %x, %w strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_tiling<org_do = 4, org_co = 16, org_ho = 8, org_wo = 8, org_di = 4, org_ci = 16, org_hi = 9, org_wi = 8, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 16, single_core_m = 64, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 16, k_l0 = 16, n_l0 = 16, pbuffer_flag = 0, k_al1 = 432, k_al1_tail = 432, k_bl1 = 432, k_bl1_tail = 432, n_bl1 = 16, m_al1 = 64, k_bl1_div_k0 = 27, k_bl1_tail_div_k0 = 27, n_bl1_div_n_l0 = 1, m_al1_div_m_l0 = 4, cin1_in_al1 = 3, cin1_in_al1_tail = 3, bl1_full_load = 1, al1_full_load = 1, bl1_bypass_flag = 0, iterate_mn_order = 0, bias_full_load_flag = 0> : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK: Operation does not verify: tiling org_hi = 9 does not match the problem's 8
