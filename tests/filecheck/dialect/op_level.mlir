// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ascend-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// ascend.conv3d_backprop_filter round-trips at the op level (NCDHW memrefs) and at the format
// level (gm_tensors). The #ascend.dw_tiling variant of the op is in dw_tiling.mlir.

// The default layer: N=2, Cin=Cout=64, D=8, H=W=28, 3x3x3 kernel, pad 1, stride 1.
func.func @default_layer(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
  %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
  func.return %dw : memref<64x64x3x3x3xf32>
}
// CHECK-LABEL: func.func @default_layer
// CHECK-NEXT:    %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// CHECK-NEXT:    func.return %dw : memref<64x64x3x3x3xf32>

// CHECK-GENERIC: %dw = "ascend.conv3d_backprop_filter"(%x, %dy) <{strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}> : (memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32>

// -----

// bf16, strides 2 and dilation 2 in H, asymmetric pads, grouped (4 groups of 8 -> 4 channels).
%x, %dy = "test.op"() : () -> (memref<1x32x9x17x16xbf16>, memref<1x16x4x8x8xbf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : memref<1x32x9x17x16xbf16>, memref<1x16x4x8x8xbf16> -> memref<16x8x3x3x2xf32>
// CHECK: %dw = ascend.conv3d_backprop_filter %x, %dy strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : memref<1x32x9x17x16xbf16>, memref<1x16x4x8x8xbf16> -> memref<16x8x3x3x2xf32>
// CHECK-GENERIC: %dw = "ascend.conv3d_backprop_filter"(%x, %dy) <{strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 1, 2, 1, 1, 0>, dilations = array<i64: 1, 2, 1>, groups = 4 : i64}> : (memref<1x32x9x17x16xbf16>, memref<1x16x4x8x8xbf16>) -> memref<16x8x3x3x2xf32>

// -----

// Format level: the same op on gm_tensors (x, dy in NDC1HWC0, dW in FRACTAL_Z_3D).
%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK: %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK-GENERIC: %dw = "ascend.conv3d_backprop_filter"(%x, %dy) <{strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 1, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}> : (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>) -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

// -----

// Format level, grouped: the FRACTAL_Z_3D dW carries the group count.
%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [0, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2>
// CHECK: %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [0, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2>
// CHECK-GENERIC: %dw = "ascend.conv3d_backprop_filter"(%x, %dy) <{strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 1, 1, 1, 1>, dilations = array<i64: 1, 1, 1>, groups = 2 : i64}> : (!ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>, !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x6xbf16>) -> !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2>
