// Op level: the whole weight gradient (dW) of one 3-D convolution as a single op.
//
// This is what a user hands the compiler. The layer is the project's default one:
//   x  (input)        N=2, Cin=64, D=8, H=28, W=28, f16, plain NCDHW
//   dy (grad output)  N=2, Cout=64, Do=8, Ho=28, Wo=28 (3x3x3 kernel, stride 1, pad 1 keep sizes)
//   dW (grad weight)  Cout=64, Cin=64, kD=3, kH=3, kW=3, accumulated in f32
// The verifier checks that the shapes agree with the strides, pads, dilations and groups.
//
// Run: ascend-opt examples/op_level.mlir   (or plain xdsl-opt, through the entry point)

func.func @conv3d_dw(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
  // pads are (front, back, up, down, left, right); the result is a freshly allocated dW.
  %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
  func.return %dw : memref<64x64x3x3x3xf32>
}
