// RUN: ascend-opt %s --split-input-file -p ascend-legalize-formats | filecheck %s
// RUN: xdsl-opt %s --split-input-file -p ascend-legalize-formats | filecheck %s
// Idempotent: a second run changes nothing.
// RUN: ascend-opt %s --split-input-file -p ascend-legalize-formats,ascend-legalize-formats | filecheck %s
// The whole pipeline stopped after the format level is exactly this pass.
// RUN: ascend-opt %s --split-input-file -p 'ascend-pipeline{stop-after=format}' | filecheck %s

// ascend-legalize-formats: op level -> format level. x and dy go NCDHW -> NDC1HWC0, the conv
// moves onto !ascend.gm_tensor and produces FRACTAL_Z_3D (with groups), which is converted back
// into the NCDHW dW memref the function returns.

// The default layer of ascend-conv: N=2, C=64, D=8, H=W=28, Cout=64, 3x3x3, padding 1.
func.func @default_layer(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
  %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
  func.return %dw : memref<64x64x3x3x3xf32>
}
// CHECK-LABEL: func.func @default_layer(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
// CHECK-NEXT:    %x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-NEXT:    %dy5 = ascend.trans_data %dy : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-NEXT:    %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK-NEXT:    %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf32>
// CHECK-NEXT:    func.return %dw : memref<64x64x3x3x3xf32>
// CHECK-NEXT:  }

// -----

// groups = 2: the FRACTAL_Z_3D result carries the groups; strides, asymmetric pads and
// dilations are carried over unchanged.
func.func @groups2(%x: memref<1x32x6x10x10xf16>, %dy: memref<1x32x3x5x8xf16>) -> memref<32x16x3x3x3xf32> {
  %dw = ascend.conv3d_backprop_filter %x, %dy strides [2, 2, 1] pads [0, 1, 1, 0, 0, 0] dilations [1, 1, 1] groups 2 : memref<1x32x6x10x10xf16>, memref<1x32x3x5x8xf16> -> memref<32x16x3x3x3xf32>
  func.return %dw : memref<32x16x3x3x3xf32>
}
// CHECK-LABEL: func.func @groups2
// CHECK-NEXT:    %x5 = ascend.trans_data %x : memref<1x32x6x10x10xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x32x6x10x10xf16>
// CHECK-NEXT:    %dy5 = ascend.trans_data %dy : memref<1x32x3x5x8xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x32x3x5x8xf16>
// CHECK-NEXT:    %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides [2, 2, 1] pads [0, 1, 1, 0, 0, 0] dilations [1, 1, 1] groups 2 : {{.*}} -> !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf32, groups = 2>
// CHECK-NEXT:    %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf32, groups = 2> -> memref<32x16x3x3x3xf32>
// CHECK-NEXT:    func.return %dw : memref<32x16x3x3x3xf32>

// -----

// bf16 keeps its element type through trans_data; dW stays f32.
func.func @bf16(%x: memref<2x16x4x8x8xbf16>, %dy: memref<2x32x2x6x6xbf16>) -> memref<32x16x3x3x3xf32> {
  %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [0, 0, 0, 0, 0, 0] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xbf16>, memref<2x32x2x6x6xbf16> -> memref<32x16x3x3x3xf32>
  func.return %dw : memref<32x16x3x3x3xf32>
}
// CHECK-LABEL: func.func @bf16
// CHECK-NEXT:    %x5 = ascend.trans_data %x : memref<2x16x4x8x8xbf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xbf16>
// CHECK-NEXT:    %dy5 = ascend.trans_data %dy : memref<2x32x2x6x6xbf16> -> !ascend.gm_tensor<NDC1HWC0, 2x32x2x6x6xbf16>
// CHECK-NEXT:    %dwf = ascend.conv3d_backprop_filter %x5, %dy5 {{.*}} : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xbf16>, !ascend.gm_tensor<NDC1HWC0, 2x32x2x6x6xbf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf32>
// CHECK-NEXT:    %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf32> -> memref<32x16x3x3x3xf32>

// -----

// Channels that are not a multiple of C0 = 16 (Cin = 20, Cout = 5): the types keep the logical
// shape, the zero padding to C1*C0 is the formats' business, not the IR's.
func.func @unaligned_channels(%x: memref<1x20x3x7x7xf16>, %dy: memref<1x5x3x7x7xf16>) -> memref<5x20x1x3x3xf32> {
  %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [0, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<1x20x3x7x7xf16>, memref<1x5x3x7x7xf16> -> memref<5x20x1x3x3xf32>
  func.return %dw : memref<5x20x1x3x3xf32>
}
// CHECK-LABEL: func.func @unaligned_channels
// CHECK-NEXT:    %x5 = ascend.trans_data %x : memref<1x20x3x7x7xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x20x3x7x7xf16>
// CHECK-NEXT:    %dy5 = ascend.trans_data %dy : memref<1x5x3x7x7xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x5x3x7x7xf16>
// CHECK-NEXT:    %dwf = ascend.conv3d_backprop_filter %x5, %dy5 {{.*}} -> !ascend.gm_tensor<FRACTAL_Z_3D, 5x20x1x3x3xf32>
// CHECK-NEXT:    %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 5x20x1x3x3xf32> -> memref<5x20x1x3x3xf32>

// -----

// Already at the format level: left alone.
func.func @already_legal(%x5: !ascend.gm_tensor<NDC1HWC0, 1x16x3x5x5xf16>, %dy5: !ascend.gm_tensor<NDC1HWC0, 1x16x1x3x3xf16>) -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32> {
  %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides [1, 1, 1] pads [0, 0, 0, 0, 0, 0] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x3x5x5xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x1x3x3xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
  func.return %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
}
// CHECK-LABEL: func.func @already_legal
// CHECK-NOT:     ascend.trans_data
// CHECK:         %dwf = ascend.conv3d_backprop_filter %x5, %dy5 {{.*}} -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf32>
// CHECK-NEXT:    func.return %dwf
