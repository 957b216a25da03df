// RUN: ascend-opt %s --split-input-file -p 'ascend-tile-conv3d{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw' | filecheck %s
// RUN: ascend-opt %s -p 'ascend-pipeline{cores=1}' | filecheck %s --check-prefix=PIPE

// lower-ascend-api-to-hw on a forward Conv3D object (lowering/lower_api_to_hw/conv3d_walk.py),
// walking the tiling's L1 tiles as the vendor's kernel does. Here the heuristic's (the vendor's)
// tiling holds x and the weight whole (kAL1 = kBL1 = K = 432: three (kd, Cin1) planes) and
// bypasses B1 (its tile is one L0B tile): per output depth, A1 is loaded once, each kernel
// depth's plane copied GM -> A1 or, where the depth is padding, zero-filled; then one k step of
// 432 columns: img2col into L0A by a non-transposed load3d (Zz, the A side) across the three
// planes, the weight's rows GM -> B1 and load2d into L0B, mmad; the tile ends with a quantising
// fixpipe into the f16 NDC1HWC0 y.

func.func @fwd(%x5: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16> {
  %y5 = ascend.conv3d %x5, %w5 strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 1x32x4x8x8xf16>
}
// CHECK-LABEL: func.func @fwd_kernel(
// CHECK-NOT:     ascend.conv3d_
// CHECK:         %[[A1:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A1, 3072xf16>
// CHECK-NEXT:    %[[B1:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<B1, 13824xf16>
// CHECK-NEXT:    %[[A2:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A2, 27648xf16>
// CHECK-NEXT:    %[[B2:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<B2, 13824xf16>
// CHECK-NEXT:    %[[CO1:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<CO1, 2048xf32>
// CHECK:         scf.for %dl =
// CHECK:           scf.for %kdl =
// The input depth di = do·sd − pad_head + kd: inside [0, Di) it is copied, else zero-filled.
// CHECK:             arith.cmpi sge
// CHECK:             arith.cmpi slt
// CHECK:             scf.if
// CHECK:               ascend.data_copy %{{.*}} -> %[[A1]]
// CHECK:             scf.if
// CHECK:               ascend.fill %[[A1]]
// CHECK:           }
// CHECK-NOT:       scf.for %ks
// CHECK:           ascend.load3d %[[A1]][{{.*}}] -> %[[A2]][{{.*}}] {{.*}} kernel [3, 3] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<A1, 3072xf16> -> !ascend.local_tensor<A2, 27648xf16>
// CHECK-NOT:       transpose
// CHECK:           ascend.data_copy %{{.*}} -> %[[B1]]
// CHECK:           ascend.load2d %[[B1]][{{.*}}] -> %[[B2]]
// CHECK:           ascend.mmad %[[A2]][{{.*}}], %[[B2]][{{.*}}] -> %[[CO1]]
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

// -----

// A hand-written L1 tiling (kept by ascend-tile-conv3d: it fits): N first (iterateMNOrder 1),
// A1 one plane (kAL1 = 144 < K = 864) and B1 two planes (kBL1 = 288) of nBL1 = 48 channels,
// both reloaded in the K loop; the K loop is chunks of 144 columns (the loads' common factor),
// each starting with A1's load and, every other chunk, B1's, then its k steps. The B1 block is
// three nL0 = 16 tiles wide, so each k step's rows go to L0B by one load2d per row. The loops:
// depth, mAL1 block, M tiles, N tiles (innermost: N first), K chunks, k steps.
func.func @chunks(%x5: !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x7xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 48x32x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x48x4x6x7xf16> {
  %y5 = ascend.conv3d %x5, %w5 strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.conv3d_tiling<org_do = 4, org_co = 48, org_ho = 6, org_wo = 7, org_di = 4, org_ci = 32, org_hi = 6, org_wi = 7, kernel_d = 3, kernel_h = 3, kernel_w = 3, single_core_do = 4, single_core_co = 48, single_core_m = 42, groups = 1, stride_h = 1, stride_w = 1, stride_d = 1, dilation_h = 1, dilation_w = 1, dilation_d = 1, pad_head = 1, pad_tail = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, m_l0 = 16, k_l0 = 144, n_l0 = 16, pbuffer_flag = 27, k_al1 = 144, k_al1_tail = 144, k_bl1 = 288, k_bl1_tail = 288, n_bl1 = 48, m_al1 = 32, k_bl1_div_k0 = 18, k_bl1_tail_div_k0 = 18, n_bl1_div_n_l0 = 3, m_al1_div_m_l0 = 2, cin1_in_al1 = 1, cin1_in_al1_tail = 1, bl1_full_load = 0, al1_full_load = 0, bl1_bypass_flag = 0, iterate_mn_order = 1, bias_full_load_flag = 0, batch = 1, batch_dim = 1, do_dim = 1, co_dim = 1, m_dim = 1> : !ascend.gm_tensor<NDC1HWC0, 1x32x4x6x7xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 48x32x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x48x4x6x7xf16>
  func.return %y5 : !ascend.gm_tensor<NDC1HWC0, 1x48x4x6x7xf16>
}
// CHECK-LABEL: func.func @chunks_kernel(
// CHECK:         %[[A1:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<A1, 672xf16>
// CHECK-NEXT:    %[[B1:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<B1, 13824xf16>
// CHECK:         scf.for %dl =
// CHECK:           scf.for %m1 =
// CHECK:             scf.for %to =
// CHECK:               scf.for %ti =
// CHECK:                 scf.for %kc =
// CHECK-NOT:               scf.for %ks
// CHECK:                   ascend.data_copy %{{.*}} -> %[[A1]]
// CHECK:                   ascend.fill %[[A1]]
// CHECK:                   arith.remsi
// CHECK:                   scf.if
// CHECK:                     ascend.data_copy %{{.*}} -> %[[B1]]
// CHECK:                   scf.for %ks =
// CHECK:                     ascend.load3d %[[A1]]
// CHECK:                     scf.for %kr =
// CHECK:                       ascend.load2d %[[B1]]
// CHECK:                     ascend.mmad
// CHECK:               ascend.fixpipe
