// A tiny hand-written hardware-level dW kernel (docs/hw-level-spec.md):
//   dW[co, ci] += sum over the 4x4 positions of dy[n, co, p] * x[n, ci, p]   for each n in [0, 2)
// with a 1x1x1 kernel, Cout = Cin = 16, N = 2, D = 1, H = W = 4 (one fractal each way).
// Per batch: MTE2 copies dy into A1 and x into B1, MTE1 runs img2col (load3d) into L0A / L0B,
// M multiplies into L0C and FIX adds the result atomically into dW. Every hand-over between two
// pipes is a set_flag/wait_flag pair; the flags issued before the loop mark the buffers free, the
// waits after it consume the last ones, so every set is matched by exactly one wait.
func.func @dw_kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %true = arith.constant true
  %a1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A1, 256xf16>
  %b1 = ascend.alloc_buffer slots 1 offset 512 : !ascend.local_tensor<B1, 256xf16>
  %a2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A2, 256xf16>
  %b2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<B2, 256xf16>
  %co1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<CO1, 256xf32>
  ascend.set_flag MTE1 -> MTE2 event %c0
  ascend.set_flag M -> MTE1 event %c0
  ascend.set_flag FIX -> M event %c0
  scf.for %n = %c0 to %c2 step %c1 {
    // GM -> L1: one batch of dy (16 channels x 16 positions) and of x, 16 blocks each.
    %off = arith.muli %n, %c256 : index
    ascend.wait_flag MTE1 -> MTE2 event %c0
    ascend.data_copy %dy[%off] -> %a1[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16> -> !ascend.local_tensor<A1, 256xf16>
    ascend.data_copy %x[%off] -> %b1[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16> -> !ascend.local_tensor<B1, 256xf16>
    ascend.set_flag MTE2 -> MTE1 event %c0
    // L1 -> L0: A = dy as (Cout x positions) in Zz, B = img2col(x) as (positions x Cin) in Zn.
    ascend.wait_flag MTE2 -> MTE1 event %c0
    ascend.wait_flag M -> MTE1 event %c0
    ascend.load3d %a1[%c0, %c0] -> %a2[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
    ascend.load3d %b1[%c0, %c0] -> %b2[%c0] fmap %c4, %c4, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
    ascend.set_flag MTE1 -> MTE2 event %c0
    ascend.set_flag MTE1 -> M event %c0
    // Cube: C = A * B (fresh accumulator per batch).
    ascend.wait_flag MTE1 -> M event %c0
    ascend.wait_flag FIX -> M event %c0
    ascend.mmad %a2[%c0], %b2[%c0] -> %co1[%c0] m %c16 n %c16 k %c16 init %true : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
    ascend.set_flag M -> MTE1 event %c0
    ascend.set_flag M -> FIX event %c0
    // L0C -> GM: dW += C.
    ascend.wait_flag M -> FIX event %c0
    ascend.fixpipe %co1[%c0] -> %dw[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c32 atomic : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
    ascend.set_flag FIX -> M event %c0
  }
  ascend.wait_flag MTE1 -> MTE2 event %c0
  ascend.wait_flag M -> MTE1 event %c0
  ascend.wait_flag FIX -> M event %c0
  func.return
}

// The host: converts x and dy to NDC1HWC0, launches the kernel on one AI core and converts dW
// back to (Cout, Cin, kD, kH, kW). The ascend.conv attribute says which convolution the kernel
// computes, so that `ascend-run examples/hw_level.mlir --random-inputs --check --sanitize`
// can compare with the formula and check the flags.
func.func @conv3d_dw(%x: memref<2x16x1x4x4xf16>, %dy: memref<2x16x1x4x4xf16>) -> memref<16x16x1x1x1xf32> {
  %x5 = ascend.trans_data %x : memref<2x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>
  %dy5 = ascend.trans_data %dy : memref<2x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>
  %dwf = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
  ascend.launch @dw_kernel blocks 1 (%x5, %dy5, %dwf) {ascend.conv = {strides = array<i64: 1, 1, 1>, pads = array<i64: 0, 0, 0, 0, 0, 0>, dilations = array<i64: 1, 1, 1>, groups = 1 : i64}} : !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>, !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
  %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32> -> memref<16x16x1x1x1xf32>
  func.return %dw : memref<16x16x1x1x1xf32>
}
