// RUN: not ascend-opt %s -p 'ascend-tile-conv3d-bp-input,convert-conv-to-ascend-api,lower-ascend-api-to-hw' 2>&1 | filecheck %s

// What the input gradient's hardware lowering does not take fails the pass with one line
// (lowering/lower_api_to_hw/conv3d_bp_input_walk.py, InputGradPlan.of): a dy plane whose rows
// one data_copy cannot span (its length and source stride are 16-bit block counts).
func.func @plane(%dy5: !ascend.gm_tensor<NDC1HWC0, 1x16x1x256x257xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x256x257xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [1, 16, 1, 256, 257] strides [1, 1, 1] pads [0, 0, 0] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x1x256x257xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x256x257xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 1x16x1x256x257xf16>
}
// CHECK: ascend-opt: error: lower-ascend-api-to-hw: a dy plane of 256x257 positions exceeds one data_copy (65535 blocks)
// CHECK-EMPTY:
