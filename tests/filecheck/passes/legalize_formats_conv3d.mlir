// RUN: ascend-opt %s --split-input-file -p ascend-legalize-formats | filecheck %s
// Idempotent: a second run changes nothing.
// RUN: ascend-opt %s --split-input-file -p ascend-legalize-formats,ascend-legalize-formats | filecheck %s

// ascend-legalize-formats on the forward ascend.conv3d: x goes NCDHW -> NDC1HWC0, the weight
// NCDHW -> FRACTAL_Z_3D in its own 16-bit type (with the groups), the bias into ND, and y comes
// back from NDC1HWC0 into the NCDHW memref the function returns (the Conv3D API's formats).

func.func @with_bias(%x: memref<2x16x4x8x8xf16>, %w: memref<32x16x3x3x3xf16>, %b: memref<32xf16>) -> memref<2x32x4x8x8xf16> {
  %y = ascend.conv3d %x, %w bias %b strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<32x16x3x3x3xf16>, memref<32xf16> -> memref<2x32x4x8x8xf16>
  func.return %y : memref<2x32x4x8x8xf16>
}
// CHECK-LABEL: func.func @with_bias(%x: memref<2x16x4x8x8xf16>, %w: memref<32x16x3x3x3xf16>, %b: memref<32xf16>) -> memref<2x32x4x8x8xf16> {
// CHECK-NEXT:    %x5 = ascend.trans_data %x : memref<2x16x4x8x8xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK-NEXT:    %w5 = ascend.trans_data %w : memref<32x16x3x3x3xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>
// CHECK-NEXT:    %b5 = ascend.trans_data %b : memref<32xf16> -> !ascend.gm_tensor<ND, 32xf16>
// CHECK-NEXT:    %y5 = ascend.conv3d %x5, %w5 bias %b5 strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>, !ascend.gm_tensor<ND, 32xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16>
// CHECK-NEXT:    %y = ascend.trans_data %y5 : !ascend.gm_tensor<NDC1HWC0, 2x32x4x8x8xf16> -> memref<2x32x4x8x8xf16>
// CHECK-NEXT:    func.return %y : memref<2x32x4x8x8xf16>
// CHECK-NEXT:  }

// -----

// No bias, bf16, groups 2: the FRACTAL_Z_3D weight carries the groups; strides, 6 pads and
// dilations are carried over unchanged.
func.func @groups2(%x: memref<1x32x6x10x10xbf16>, %w: memref<32x16x3x3x3xbf16>) -> memref<1x32x3x5x8xbf16> {
  %y = ascend.conv3d %x, %w strides [2, 2, 1] pads [0, 1, 1, 0, 0, 0] dilations [1, 1, 1] groups 2 : memref<1x32x6x10x10xbf16>, memref<32x16x3x3x3xbf16> -> memref<1x32x3x5x8xbf16>
  func.return %y : memref<1x32x3x5x8xbf16>
}
// CHECK-LABEL: func.func @groups2
// CHECK-NEXT:    %x5 = ascend.trans_data %x : memref<1x32x6x10x10xbf16> -> !ascend.gm_tensor<NDC1HWC0, 1x32x6x10x10xbf16>
// CHECK-NEXT:    %w5 = ascend.trans_data %w : memref<32x16x3x3x3xbf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xbf16, groups = 2>
// CHECK-NEXT:    %y5 = ascend.conv3d %x5, %w5 strides [2, 2, 1] pads [0, 1, 1, 0, 0, 0] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x6x10x10xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xbf16, groups = 2> -> !ascend.gm_tensor<NDC1HWC0, 1x32x3x5x8xbf16>
// CHECK-NEXT:    %y = ascend.trans_data %y5 : !ascend.gm_tensor<NDC1HWC0, 1x32x3x5x8xbf16> -> memref<1x32x3x5x8xbf16>
// CHECK-NEXT:    func.return %y : memref<1x32x3x5x8xbf16>
