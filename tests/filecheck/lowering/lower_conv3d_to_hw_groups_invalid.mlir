// RUN: not ascend-opt %s -p 'ascend-tile-conv3d{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw' 2>&1 | filecheck %s

// What the forward hardware lowering does not take yet fails the pass with one line.

// Groups (the enlarged FRACTAL_Z_3D groups are not walked yet).
func.func @groups(%x5: !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16, groups = 2>) -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16> {
  %y5 = ascend.conv3d %x5, %w5 strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16, groups = 2> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
}
// CHECK: ascend-opt: error: lower-ascend-api-to-hw: the forward conv's hardware lowering takes groups 1, got 2
