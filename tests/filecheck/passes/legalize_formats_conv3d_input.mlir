// RUN: ascend-opt %s --split-input-file -p ascend-legalize-formats | filecheck %s
// Idempotent: a second run changes nothing.
// RUN: ascend-opt %s --split-input-file -p ascend-legalize-formats,ascend-legalize-formats | filecheck %s

// ascend-legalize-formats on ascend.conv3d_backprop_input (dX): dy goes NCDHW -> NDC1HWC0, the
// weight NCDHW -> FRACTAL_Z_3D (with the groups), and dX comes back from NDC1HWC0 into the NCDHW
// memref the function returns (the Conv3DBackpropInput API's formats, docs table 1);
// input_size, strides, 6 pads and dilations are carried over unchanged.

func.func @conv3d_input(%dy: memref<1x16x4x8x8xbf16>, %w: memref<16x8x3x3x2xbf16>) -> memref<1x32x9x17x16xbf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 32, 9, 17, 16] strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : memref<1x16x4x8x8xbf16>, memref<16x8x3x3x2xbf16> -> memref<1x32x9x17x16xbf16>
  func.return %dx : memref<1x32x9x17x16xbf16>
}
// CHECK-LABEL: func.func @conv3d_input(%dy: memref<1x16x4x8x8xbf16>, %w: memref<16x8x3x3x2xbf16>) -> memref<1x32x9x17x16xbf16> {
// CHECK-NEXT:    %dy5 = ascend.trans_data %dy : memref<1x16x4x8x8xbf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xbf16>
// CHECK-NEXT:    %w5 = ascend.trans_data %w : memref<16x8x3x3x2xbf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x8x3x3x2xbf16, groups = 4>
// CHECK-NEXT:    %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [1, 32, 9, 17, 16] strides [2, 2, 2] pads [0, 1, 2, 1, 1, 0] dilations [1, 2, 1] groups 4 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xbf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x8x3x3x2xbf16, groups = 4> -> !ascend.gm_tensor<NDC1HWC0, 1x32x9x17x16xbf16>
// CHECK-NEXT:    %dx = ascend.trans_data %dx5 : !ascend.gm_tensor<NDC1HWC0, 1x32x9x17x16xbf16> -> memref<1x32x9x17x16xbf16>
// CHECK-NEXT:    func.return %dx : memref<1x32x9x17x16xbf16>
// CHECK-NEXT:  }

// -----

// f16, groups 1, torch's 3 symmetric pads.
func.func @plain(%dy: memref<2x16x4x8x8xf16>, %w: memref<16x16x3x3x3xf16>) -> memref<2x16x4x8x8xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x16x4x8x8xf16>, memref<16x16x3x3x3xf16> -> memref<2x16x4x8x8xf16>
  func.return %dx : memref<2x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @plain
// CHECK-NEXT:    %dy5 = ascend.trans_data %dy : memref<2x16x4x8x8xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK-NEXT:    %w5 = ascend.trans_data %w : memref<16x16x3x3x3xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>
// CHECK-NEXT:    %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [2, 16, 4, 8, 8] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16>
// CHECK-NEXT:    %dx = ascend.trans_data %dx5 : !ascend.gm_tensor<NDC1HWC0, 2x16x4x8x8xf16> -> memref<2x16x4x8x8xf16>
// CHECK-NEXT:    func.return %dx : memref<2x16x4x8x8xf16>
