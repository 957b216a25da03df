// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of ascend.conv3d_backprop_filter (op_level.py), one chunk each; the
// problem rules come from ConvBpFilterShape.errors (conv_shape.py), of which two are sampled.
// The rules on an attached #ascend.dw_tiling are in dw_tiling_invalid.mlir.

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: strides must have 3 values, got 2

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: pads must have 6 values, got 3

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: dilations must have 3 values, got 4

// -----

%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: x, dy and dW must be all memrefs (op level) or all !ascend.gm_tensor (format level)

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16, #ascend<position A1>>, memref<2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16, #ascend<position A1>>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: x memref must be in the default (GM) memory space

// -----

%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<NCDHW, 64x64x3x3x3xf32>
// CHECK: Operation does not verify: dW must be in FRACTAL_Z_3D at the format level, got NCDHW

// -----

%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NCDHW, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NCDHW, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK: Operation does not verify: x must be in NDC1HWC0 at the format level, got NCDHW

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x784xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x784xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: dy must have rank 5, got rank 4

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf32>, memref<2x64x8x28x28xf32>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf32>, memref<2x64x8x28x28xf32> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: x element type must be f16 or bf16, got f32

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xbf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xbf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: dy element type (bf16) must equal x's (f16)

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf16>
// CHECK: Operation does not verify: dW element type must be f32, got f16

// -----

// A problem rule (conv_shape.py): stride H above the Load3D limit.
%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x1x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 64, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x1x28xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: stride H must be in [1, 63], got 64

// -----

// A problem rule (conv_shape.py): the channels do not split into the groups.
%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 3 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x21x3x3x3xf32>
// CHECK: Operation does not verify: Cin (64) and Cout (64) must be divisible by groups (3)

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x32x3x3x3xf32>
// CHECK: Operation does not verify: dW shape [64, 32, 3, 3, 3] needs Cin/groups = 64 (x has Cin = 64, groups = 1), got 32

// -----

%x, %dy = "test.op"() : () -> (memref<2x64x8x28x28xf16>, memref<2x64x8x26x26xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x26x26xf16> -> memref<64x64x3x3x3xf32>
// CHECK: Operation does not verify: dy shape [2, 64, 8, 26, 26] does not match [2, 64, 8, 28, 28] implied by x, dW and the strides, pads and dilations

// -----

%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x32x3x3x3xf32, groups = 4>
// CHECK: Operation does not verify: dW FRACTAL_Z_3D tensor has groups = 4, the op has groups = 2
