// RUN: ascend-opt %s -p 'ascend-tile-conv3d{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-pipeline{cores=1}' | filecheck %s --check-prefix=PIPE

// lower-ascend-api-to-hw on a forward Conv3D object (lowering/lower_api_to_hw/conv3d_walk.py):
// Init's buffers (A1 x rows and B1 weight rows in L1, A2, B2, CO1), then per output depth and
// L0C tile, per kernel depth: the x rows GM -> A1 (skipped when the depth is padding), img2col
// into L0A by a non-transposed load3d (Zz, the A side), the weight rows GM -> B1 and load2d
// into L0B, mmad; the tile ends with a quantising fixpipe into the f16 NDC1HWC0 y.

func.func @fwd(%x5: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16> {
  %y5 = ascend.conv3d %x5, %w5 strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
}
// CHECK-LABEL: func.func @fwd_kernel(
// CHECK-NOT:     ascend.conv3d_
// CHECK:         %[[A1:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A1, 1024xf16>
// CHECK-NEXT:    %[[B1:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<B1, 13824xf16>
// CHECK-NEXT:    %[[A2:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A2, 27648xf16>
// CHECK-NEXT:    %[[B2:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<B2, 13824xf16>
// CHECK-NEXT:    %[[CO1:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<CO1, 2048xf32>
// CHECK:         scf.for %dl =
// CHECK:           scf.for %kd =
// The input depth di = do·sd − pad_head + kd: inside [0, Di) or the window has no rows.
// CHECK:             arith.cmpi sge
// CHECK:             arith.cmpi slt
// CHECK:             %[[INSIDE:.*]] = arith.andi
// CHECK:             %[[ROWS:.*]] = arith.select %[[INSIDE]]
// CHECK:             scf.if
// CHECK:               ascend.data_copy %{{.*}} -> %[[A1]]
// CHECK:             ascend.load3d %[[A1]][{{.*}}] -> %[[A2]][{{.*}}] fmap %[[ROWS]], {{.*}} kernel [3, 3] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<A1, 1024xf16> -> !ascend.local_tensor<A2, 27648xf16>
// CHECK-NOT:         transpose
// CHECK:             ascend.data_copy %{{.*}} -> %[[B1]]
// CHECK:             ascend.load2d %[[B1]][{{.*}}] -> %[[B2]]
// CHECK:             ascend.mmad %[[A2]][{{.*}}], %[[B2]][{{.*}}] -> %[[CO1]]
// CHECK:           }
// CHECK:           ascend.fixpipe %[[CO1]][{{.*}}] -> %{{.*}} : !ascend.local_tensor<CO1, 2048xf32> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
// CHECK-NOT:       atomic
// CHECK:         func.return

// The whole pipeline: synchronised and with addresses.
// PIPE-LABEL: func.func @fwd_kernel(
// PIPE:         ascend.alloc_buffer slots 1 {{.*}}A1
// PIPE:         ascend.wait_flag MTE1 -> MTE2
// PIPE:         ascend.load3d
// PIPE:         ascend.set_flag MTE1 -> M
// PIPE:         ascend.fixpipe
