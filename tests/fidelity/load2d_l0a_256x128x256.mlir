// One timed instruction on one core, for tests/test_fidelity.py (docs/cost-model.md, Fidelity).
// load2d of 128 fractals (65536 bytes): LOADPERF scenario 1 (LoadData 2D, L1 -> L0A, bf16), shape (M, K, N) = (256, 128, 256): A = M x K.
func.func @host(%x: memref<1x16x1x4x4xf16>) {
  %x5 = ascend.trans_data %x : memref<1x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  ascend.launch @k blocks 1 (%x5) : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  func.return
}
func.func @k(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 128 : index
  %s1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A1, 32768xbf16>
  %s2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A2, 32768xbf16>
  ascend.load2d %s1[%c0, %c0] -> %s2[%c0, %c0] repeat %r src_stride %c1 : !ascend.local_tensor<A1, 32768xbf16> -> !ascend.local_tensor<A2, 32768xbf16>
  func.return
}
