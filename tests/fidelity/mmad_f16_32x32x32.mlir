// One timed instruction on one core, for tests/test_fidelity.py (docs/cost-model.md, Fidelity).
// mmad m 32 n 32 k 32 (f16): MMADPERF scenario 2 (b16), shape (M, K, N) = (32, 32, 32).
func.func @host(%x: memref<1x16x1x4x4xf16>) {
  %x5 = ascend.trans_data %x : memref<1x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  ascend.launch @k blocks 1 (%x5) : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  func.return
}
func.func @k(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant 32 : index
  %n = arith.constant 32 : index
  %k = arith.constant 32 : index
  %true = arith.constant true
  %a2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A2, 1024xf16>
  %b2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<B2, 1024xf16>
  %co1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<CO1, 1024xf32>
  ascend.mmad %a2[%c0], %b2[%c0] -> %co1[%c0] m %m n %n k %k init %true : !ascend.local_tensor<A2, 1024xf16>, !ascend.local_tensor<B2, 1024xf16> -> !ascend.local_tensor<CO1, 1024xf32>
  func.return
}
