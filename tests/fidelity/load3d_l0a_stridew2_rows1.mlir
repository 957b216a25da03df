// One timed instruction on one core, for tests/test_fidelity.py (docs/cost-model.md, Fidelity).
// load3d (img2col, f16) into L0A, strideW 2, kernel rows n = 1: 4096 bytes;
// CUBE Table 4 (bandwidth) and LOADPERF scenario 5 (latency).
func.func @host(%x: memref<1x16x1x4x4xf16>) {
  %x5 = ascend.trans_data %x : memref<1x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  ascend.launch @k blocks 1 (%x5) : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  func.return
}
func.func @k(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>) {
  %c0 = arith.constant 0 : index
  %h = arith.constant 16 : index
  %w = arith.constant 32 : index
  %ch = arith.constant 16 : index
  %kext = arith.constant 16 : index
  %mext = arith.constant 128 : index
  %s1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A1, 8192xf16>
  %s2 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A2, 2048xf16>
  ascend.load3d %s1[%c0, %c0] -> %s2[%c0] fmap %h, %w, %ch window %c0, %kext, %c0, %mext pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 2] dilation [1, 1] transpose : !ascend.local_tensor<A1, 8192xf16> -> !ascend.local_tensor<A2, 2048xf16>
  func.return
}
