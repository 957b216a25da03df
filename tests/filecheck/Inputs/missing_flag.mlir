// A hardware-level kernel with a missing flag: load3d (MTE1) reads A1 before data_copy (MTE2)
// is known to have finished. ascend-run --sanitize reports it; see tests/test_sanitizer.py.
func.func @host(%dy: memref<1x16x1x4x4xf16>) {
  %dy5 = ascend.trans_data %dy : memref<1x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  ascend.launch @k blocks 1 (%dy5) : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  func.return
}
func.func @k(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A1, 256xf16>
  %a2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A2, 256xf16>
  ascend.data_copy %dy[%c0] -> %a1[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16> -> !ascend.local_tensor<A1, 256xf16>
  ascend.load3d %a1[%c0, %c0] -> %a2[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
  func.return
}
