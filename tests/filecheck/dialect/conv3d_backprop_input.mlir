// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ascend-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC

// ascend.conv3d_backprop_input (dX, op_level.py) round-trips at the op level (NCDHW memrefs,
// torch's 3-value padding or 6 values) and at the format level (dy and dX in NDC1HWC0, the
// weight in FRACTAL_Z_3D).

func.func @dx(%dy: memref<2x16x4x8x8xf16>, %w: memref<16x16x3x3x3xf16>) -> memref<2x16x4x8x8xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
  func.return %dx : memref<2x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @dx
// CHECK-NEXT:    %dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
// CHECK-NEXT:    func.return %dx : memref<2x16x4x8x8xf16>

// CHECK-GENERIC: %dx = "ascend.conv3d_backprop_input"(%dy, %w) <{input_size = array<i64: 2, 16, 4, 8, 8>, strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}> : (memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16>) -> memref<2x16x4x8x8xf16>

// -----

// bf16, stride 2, dilation 2 in H, asymmetric pads, 4 groups of 8 -> 4 channels: the
// transpose of the forward test's convolution in conv3d.mlir.
%dy, %w = "test.op"() : () -> (memref<1x16x4x8x8xbf16>, memref<16x8x3x3x2xbf16>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 32, 9, 17, 16] strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : memref<1x16x4x8x8xbf16>, memref<16x8x3x3x2xbf16> -> memref<1x32x9x17x16xbf16>
// CHECK: %dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 32, 9, 17, 16] strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : memref<1x16x4x8x8xbf16>, memref<16x8x3x3x2xbf16> -> memref<1x32x9x17x16xbf16>
// CHECK-GENERIC: %dx = "ascend.conv3d_backprop_input"(%dy, %w) <{input_size = array<i64: 1, 32, 9, 17, 16>, strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 1, 2, 1, 1, 0>, dilations = array<i64: 1, 2, 1>, groups = 4 : i64}> : (memref<1x16x4x8x8xbf16>, memref<16x8x3x3x2xbf16>) -> memref<1x32x9x17x16xbf16>

// -----

// Stride 2 leaves one input row unread: input_size 10 and 9 both give dy extent 5, so the op
// states which one it means (torch's input_size).
%dy, %w = "test.op"() : () -> (memref<1x16x5x5x5xf16>, memref<16x16x3x3x3xf16>)
%dx10 = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 10, 10, 10] strides [2, 2, 2] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<1x16x5x5x5xf16>, memref<16x16x3x3x3xf16> -> memref<1x16x10x10x10xf16>
%dx9 = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 9, 9, 9] strides [2, 2, 2] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<1x16x5x5x5xf16>, memref<16x16x3x3x3xf16> -> memref<1x16x9x9x9xf16>
// CHECK: %dx10 = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 10, 10, 10]
// CHECK: %dx9 = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 9, 9, 9]
// CHECK-GENERIC: "ascend.conv3d_backprop_input"(%dy, %w) <{input_size = array<i64: 1, 16, 10, 10, 10>
// CHECK-GENERIC: "ascend.conv3d_backprop_input"(%dy, %w) <{input_size = array<i64: 1, 16, 9, 9, 9>

// -----

// Format level, grouped: the FRACTAL_Z_3D weight carries the groups.
%dy, %w = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2>)
%dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 32, 4, 6, 6] strides [1, 1, 1] pads [0, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>
// CHECK: %dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 32, 4, 6, 6] strides [1, 1, 1] pads [0, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>
// CHECK-GENERIC: %dx = "ascend.conv3d_backprop_input"(%dy, %w) <{input_size = array<i64: 1, 32, 4, 6, 6>, strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 2 : i64}> : (!ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2>) -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>
