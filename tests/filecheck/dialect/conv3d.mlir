// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ascend-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC

// ascend.conv3d (the forward convolution, op_level.py) round-trips at the op level (NCDHW
// memrefs, torch's 3-value padding or 6 values) and at the format level (x and y in NDC1HWC0,
// the weight in FRACTAL_Z_3D, the bias in ND), with and without a bias.

func.func @with_bias(%x: memref<2x64x8x28x28xf16>, %w: memref<64x64x3x3x3xf16>, %b: memref<64xf16>) -> memref<2x64x8x28x28xf16> {
  %y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<64x64x3x3x3xf16>, memref<64xf16> -> memref<2x64x8x28x28xf16>
  func.return %y : memref<2x64x8x28x28xf16>
}
// CHECK-LABEL: func.func @with_bias
// CHECK-NEXT:    %y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<64x64x3x3x3xf16>, memref<64xf16> -> memref<2x64x8x28x28xf16>
// CHECK-NEXT:    func.return %y : memref<2x64x8x28x28xf16>

// CHECK-GENERIC: %y = "ascend.conv3d"(%x, %w, %b) <{strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}> : (memref<2x64x8x28x28xf16>, memref<64x64x3x3x3xf16>, memref<64xf16>) -> memref<2x64x8x28x28xf16>

// -----

// No bias; bf16, stride 2, dilation 2 in H, asymmetric pads, 4 groups of 8 -> 4 channels.
%x, %w = "test.op"() : () -> (memref<1x32x9x17x16xbf16>, memref<16x8x3x3x2xbf16>)
%y = ascend.conv3d %x, %w strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : memref<1x32x9x17x16xbf16>, memref<16x8x3x3x2xbf16> -> memref<1x16x4x8x8xbf16>
// CHECK: %y = ascend.conv3d %x, %w strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : memref<1x32x9x17x16xbf16>, memref<16x8x3x3x2xbf16> -> memref<1x16x4x8x8xbf16>
// CHECK-GENERIC: %y = "ascend.conv3d"(%x, %w) <{strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 1, 2, 1, 1, 0>, dilations = array<i64: 1, 2, 1>, groups = 4 : i64}> : (memref<1x32x9x17x16xbf16>, memref<16x8x3x3x2xbf16>) -> memref<1x16x4x8x8xbf16>

// -----

// Format level, bf16 with its f32 bias, grouped: the FRACTAL_Z_3D weight carries the groups.
%x, %w, %b = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2>, !ascend.gm_tensor<ND, 32xf32>)
%y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [0, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2>, !ascend.gm_tensor<ND, 32xf32> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>
// CHECK: %y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [0, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2>, !ascend.gm_tensor<ND, 32xf32> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>
// CHECK-GENERIC: %y = "ascend.conv3d"(%x, %w, %b) <{strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 2 : i64}> : (!ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xbf16, groups = 2>, !ascend.gm_tensor<ND, 32xf32>) -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>
