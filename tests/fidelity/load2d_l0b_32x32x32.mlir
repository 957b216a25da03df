// One timed instruction on one core, for tests/test_fidelity.py (docs/cost-model.md, Fidelity).
// load2d of 4 fractals (2048 bytes): LOADPERF scenario 2 (LoadData 2D, L1 -> L0B, bf16), shape (32, 32, 32): B = K x N.
func.func @host(%x: memref<1x16x1x4x4xf16>) {
  %x5 = ascend.trans_data %x : memref<1x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  ascend.launch @k blocks 1 (%x5) : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  func.return
}
func.func @k(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 4 : index
  %s1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<B1, 1024xbf16>
  %s2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<B2, 1024xbf16>
  ascend.load2d %s1[%c0, %c0] -> %s2[%c0, %c0] repeat %r src_stride %c1 : !ascend.local_tensor<B1, 1024xbf16> -> !ascend.local_tensor<B2, 1024xbf16>
  func.return
}
