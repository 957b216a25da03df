// Format level: the same dW, with the layout changes made explicit.
//
// The Cube unit does not read NCDHW. Before the convolution, x and dy are converted to
// NDC1HWC0 (channels split into C1 blocks of C0 = 16); the dW comes out in FRACTAL_Z_3D and is
// converted back to NCDHW at the end. Each ascend.trans_data changes the layout only: the types
// keep the logical shape, the format says how it is laid out in global memory.
//
// Run: ascend-opt examples/format_level.mlir

func.func @conv3d_dw(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
  // NCDHW -> NDC1HWC0 for both activations.
  %x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  %dy5 = ascend.trans_data %dy : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>

  // The convolution itself, now on gm_tensors: x, dy in NDC1HWC0, dW in FRACTAL_Z_3D.
  %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

  // FRACTAL_Z_3D -> NCDHW: back to what the user asked for.
  %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf32>
  func.return %dw : memref<64x64x3x3x3xf32>
}
