func.func @conv3d_bp_filter(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
  %x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  %dy5 = ascend.trans_data %dy : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
  %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf32>
  func.return %dw : memref<64x64x3x3x3xf32>
}
