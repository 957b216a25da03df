// One timed instruction on one core, for tests/test_fidelity.py (docs/cost-model.md, Fidelity).
// data_copy of 512 KB (524288 bytes, one run of 16384 blocks) GM -> L1:
// msKPP GM_TO_L1_910b1 (Ascend/mskpp csrc/prof_data/resource910b.cpp).
func.func @host(%x: memref<1x16x1x128x128xf16>) {
  %x5 = ascend.trans_data %x : memref<1x16x1x128x128xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x128x128xf16>
  ascend.launch @k blocks 1 (%x5) : !ascend.gm_tensor<NDC1HWC0, 1x16x1x128x128xf16>
  func.return
}
func.func @k(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x1x128x128xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %len = arith.constant 16384 : index
  %a1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A1, 262144xf16>
  ascend.data_copy %x[%c0] -> %a1[%c0, %c0] count %c1 len %len src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 1x16x1x128x128xf16> -> !ascend.local_tensor<A1, 262144xf16>
  func.return
}
