// RUN: ascend-opt %s -p 'ascend-tile-conv3d-bp-input,convert-conv-to-ascend-api,lower-ascend-api-to-hw' --verify-diagnostics | filecheck %s
// RUN: not ascend-opt %s -p 'ascend-tile-conv3d-bp-input,convert-conv-to-ascend-api,lower-ascend-api-to-hw' 2>&1 | filecheck %s --check-prefix=FIRST

// What the input gradient's hardware lowering does not take yet fails the pass with one line
// (lowering/lower_api_to_hw/conv3d_bp_input_walk.py, InputGradPlan.of).

// A stride above 1 in H or W: dy would be dilated in a zeroed A1 (the vendor's InitConstValue).
func.func @stride_hw(%dy5: !ascend.gm_tensor<NDC1HWC0, 1x16x4x4x4xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [1, 16, 4, 8, 8] strides [1, 2, 2] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x4x4xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
}
// CHECK: lower-ascend-api-to-hw: the input gradient's hardware lowering takes strides 1 in H and W, got 2x2: dilating dy in L1 needs the A1 zeroing (InitConstValue) the instruction model does not have
// FIRST: ascend-opt: error: lower-ascend-api-to-hw: the input gradient's hardware lowering takes strides 1 in H and W, got 2x2: {{.*}}
// FIRST-EMPTY:

