// One timed instruction on one core, for tests/test_fidelity.py (docs/cost-model.md, Fidelity).
// fixpipe L0C -> GM of m 16 x n 16 float32 (1024 bytes), stored (not atomic):
// FIXPERF dav-2201 shape (M, K, N) = (16, 64, 16) for the latency; no official bandwidth for L0C -> GM.
func.func @host(%x: memref<1x16x1x4x4xf16>) {
  %x5 = ascend.trans_data %x : memref<1x16x1x4x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 256x256x1x1x1xf32>
  ascend.launch @k blocks 1 (%x5, %dw) : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 256x256x1x1x1xf32>
  func.return
}
func.func @k(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 256x256x1x1x1xf32>) {
  %c0 = arith.constant 0 : index
  %m = arith.constant 16 : index
  %n = arith.constant 16 : index
  %ds = arith.constant 32 : index
  %co1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<CO1, 256xf32>
  ascend.fixpipe %co1[%c0] -> %dw[%c0] m %m n %n src_stride %m dst_stride %ds : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 256x256x1x1x1xf32>
  func.return
}
