// RUN: ascend-opt %s -p 'ascend-tile-conv3d{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-pipeline{cores=1}' | filecheck %s --check-prefix=PIPE

// The forward walk with a bias (lowering/lower_api_to_hw/conv3d_walk.py): Init also allocates
// the bias tile in C1 (32 halves: n_l0 = 32 channels in whole 64-byte blocks) and in the bias
// table (C2, 32 floats); each L0C tile first copies its channels GM -> C1 (two 32-byte blocks)
// and C1 -> C2 (load_bias, one 64-byte block, widened to f32), and its mmads name the bias
// table (the one that initialises L0C starts from it).

func.func @fwd(%x5: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 20x16x3x3x3xf16>, %b5: !ascend.gm_tensor<ND, 20xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x20x4x8x8xf16> {
  %y5 = ascend.conv3d %x5, %w5 bias %b5 strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 20x16x3x3x3xf16>, !ascend.gm_tensor<ND, 20xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x20x4x8x8xf16>
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 1x20x4x8x8xf16>
}
// CHECK-LABEL: func.func @fwd_kernel(
// CHECK-NOT:     ascend.conv3d_
// CHECK:         %[[C1:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C1, 32xf16>
// CHECK-NEXT:    %[[BT:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C2, 32xf32>
// CHECK:         scf.for %dl =
// CHECK:           ascend.data_copy %2[%{{.*}}] -> %[[C1]][%{{.*}}, %{{.*}}] count %{{.*}} len %{{.*}} src_stride %{{.*}} dst_stride %{{.*}} : !ascend.gm_tensor<ND, 20xf16> -> !ascend.local_tensor<C1, 32xf16>
// CHECK:           ascend.load_bias %[[C1]][%{{.*}}, %{{.*}}] -> %[[BT]][%{{.*}}] len %{{.*}} : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<C2, 32xf32>
// CHECK:           ascend.mmad {{.*}} init %{{.*}} bias %[[BT]][%{{.*}}] : {{.*}} bias !ascend.local_tensor<C2, 32xf32>
// CHECK:           ascend.fixpipe
// CHECK-NOT:     ascend.conv3d_

// The buffer planner places the bias table's buffer in BT and ascend-insert-sync orders the
// bias's way: MTE2 -> MTE1 before load_bias, M -> MTE1 (the last tile's mmads read the bias
// table) before it overwrites BT, MTE1 -> M before the mmad.
// PIPE:          %[[C1:.*]] = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<C1, 32xf16>
// PIPE-NEXT:     %[[BT:.*]] = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<C2, 32xf32>
// PIPE:          ascend.data_copy %2[%{{.*}}] -> %[[C1]]
// PIPE-NEXT:     ascend.set_flag MTE2 -> MTE1 event %[[E:.*]]
// PIPE-NEXT:     ascend.wait_flag MTE2 -> MTE1 event %[[E]]
// PIPE-NEXT:     ascend.wait_flag M -> MTE1 event
// PIPE-NEXT:     ascend.load_bias %[[C1]]
// PIPE:          ascend.wait_flag MTE1 -> M event
// PIPE:          ascend.mmad {{.*}} bias %[[BT]]
