// RUN: ascend-opt %s --split-input-file -p 'ascend-tile-conv3d-bp-input{strategy=fixed tiling-file="%S/../Inputs/bp_input_tiling_row_walk.mlir" cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw' | filecheck %s
// RUN: ascend-opt %s --split-input-file -p 'ascend-pipeline{strategy=fixed tiling-file="%S/../Inputs/bp_input_tiling_row_walk.mlir" cores=1}' | filecheck %s --check-prefix=PIPE

// dX's stride-aware row walk (lowering/lower_api_to_hw/conv3d_bp_input_walk.py, row_walk_taps
// and InputGradWalk.emit_rows): stride_h 4 over a 6-row kernel, with the tiling of
// Inputs/bp_input_tiling_row_walk.mlir (base_m 16 = one dX row of 16 positions a tile), so that
// the walk issues 16 rows x ceil(6 / 4) = 32 (tile, tap) pairs per depth instead of 16 x 6.
// Per dX depth (the API kernel's loop) and tap residue k0 < 4: the rows of the residue (ho_start + i + k0 = i - 4 + k0
// a multiple of 4, every 4th row), one L0C tile a row. Its A1 holds real dy rows only (rows
// [max(first, 0), min(first + taps - 1, Ho - 1)], no fill rows between them: the fill is
// stride_w's column zeros), and Load3D runs 2 kernel rows at stride 1, dilation 1. B1 holds
// the weight rows of those 2 kernel rows only, one copy of kW = 4 taps each: Load3D row j is
// the rotated kernel row k0 + 4j (clamped to 5 past the kernel: a tap that reads zeros), the
// weight's row 5 - that; load2d reads B1's (j, 3 - kw). One fixpipe of the whole row. Where the rule refuses
// (the heuristic's tiles of several rows), the vendor's walk stays: lower_conv3d_bp_input_to_hw.mlir
// (@dx_stride, kernel [3, 3]).

func.func @dx_rows(%dy5: !ascend.gm_tensor<NDC1HWC0, 1x16x2x4x4xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x6x4xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x16x2x16x16xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [1, 16, 2, 16, 16] strides [1, 4, 4] pads [0, 1, 0] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x2x4x4xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x6x4xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x2x16x16xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 1x16x2x16x16xf16>
}
// CHECK-LABEL: func.func @dx_rows_kernel(
// A1 of kc1 x rows_max x width x C0 = 1 x 2 x 13 x 16: two real dy rows of 13 stride-dilated
// columns.
// CHECK:         %[[A1:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<A1, 416xf16>
// B1 of n1 x 2 rows x kW x 256 = 2048, not the 6 x 4 taps of the vendor's walk.
// CHECK:         %[[B1:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<B1, 2048xf16>
// CHECK:         %[[A2:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<A2, {{[0-9]+}}xf16>
// CHECK:         %[[B2:.*]] = ascend.alloc_buffer slots 2 : !ascend.local_tensor<B2, {{[0-9]+}}xf16>
// CHECK:         %[[CO1:.*]] = ascend.alloc_buffer slots 1 : !ascend.local_tensor<CO1, 256xf32>
// ho_start = -backprop_pad_up = -4.
// CHECK:         %[[HO:.*]] = arith.constant -4 : index
// The API kernel's loop over the two dX depths (cores=1), one iterate loop each.
// CHECK:         scf.for %dl =
// CHECK:           scf.for %k0 = %{{.*}} to %[[SH:.*]] step
// The residue's first row i0 = ceil(num / 4) * 4 - num, num = ho_start + k0.
// CHECK:             %[[NUM:.*]] = arith.addi %[[HO]], %k0 : index
// CHECK:             %[[BASE:.*]] = arith.ceildivsi %[[NUM]], %{{.*}} : index
// CHECK:             %[[I4:.*]] = arith.muli %[[BASE]], %{{.*}} : index
// CHECK:             %[[I0:.*]] = arith.subi %[[I4]], %[[NUM]] : index
// CHECK:             %[[COUNT:.*]] = arith.ceildivsi
// Its real taps: ceil(max(6 - k0, 0) / 4).
// CHECK:             %[[SIX:.*]] = arith.constant 6 : index
// CHECK:             arith.subi %[[SIX]], %k0 : index
// CHECK:             %[[TAPS:.*]] = arith.ceildivsi
// CHECK:             scf.for %ri = %{{.*}} to %[[COUNT]] step
// CHECK:               %[[ROW:.*]] = arith.addi %[[I0]], %{{.*}} : index
// CHECK:               %[[FIRST:.*]] = arith.addi %[[BASE]], %ri : index
// CHECK:               %[[P0:.*]] = arith.muli %[[ROW]], %{{.*}} : index
// CHECK:               arith.subi %[[TAPS]], %{{.*}} : index
// CHECK:               %[[R0:.*]] = arith.maxsi %[[FIRST]], %{{.*}} : index
// CHECK:               %[[ROWS:.*]] = arith.maxsi
// CHECK:               %[[PADTOP:.*]] = arith.subi %[[R0]], %[[FIRST]] : index
// CHECK:               scf.for %kdi =
// CHECK:                 %[[WROWS:.*]] = arith.select %{{.*}}, %[[ROWS]], %{{.*}} : index
// CHECK:                 scf.if
// CHECK:                   ascend.fill %[[A1]]
// CHECK:                   scf.for %r = %{{.*}} to %[[ROWS]] step
// Real rows one after the other: the destination offset steps one 13-column row (208).
// CHECK:                     %[[C208:.*]] = arith.constant 208 : index
// CHECK-NEXT:                arith.muli %r, %[[C208]] : index
// CHECK:                     ascend.data_copy %{{.*}} -> %[[A1]]
// CHECK-SAME:                  count %{{.*}} len %{{.*}} src_stride %{{.*}} dst_stride %{{.*}}
// CHECK:                 scf.for %j =
// CHECK:                   %[[J4:.*]] = arith.muli %j, %{{.*}} : index
// CHECK:                   %[[KH:.*]] = arith.addi %k0, %[[J4]] : index
// CHECK:                   %[[FIVE:.*]] = arith.constant 5 : index
// CHECK-NEXT:              %[[KHC:.*]] = arith.minsi %[[KH]], %[[FIVE]] : index
// CHECK:                   %[[WROW:.*]] = arith.subi %{{.*}}, %[[KHC]] : index
// The weight's kh stride: kW x Cout1 x 256 = 1024 elements.
// CHECK:                   %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-NEXT:              arith.muli %[[WROW]], %[[C1024]] : index
// CHECK:                   ascend.data_copy %{{.*}} -> %[[B1]][{{.*}}] count
// CHECK:                 scf.for %ks =
// CHECK:                   ascend.load3d %[[A1]][{{.*}}] -> %[[A2]][{{.*}}] fmap %[[WROWS]], {{.*}} pad %[[PADTOP]], {{.*}} kernel [2, 4] stride [1, 1] dilation [1, 1]
// CHECK:                   scf.for %kb =
// CHECK:                     %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT:                arith.subi %[[THREE]], %{{.*}} : index
// B1's Cin1 blocks are 2 rows x 4 taps x 1 Cout1 block = 8 fractals apart.
// CHECK:                     %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:                ascend.load2d %[[B1]][{{.*}}] -> %[[B2]][{{.*}}] repeat %{{.*}} src_stride %[[C8]] transpose
// CHECK:                   ascend.mmad %[[A2]][{{.*}}], %[[B2]][{{.*}}] -> %[[CO1]]
// CHECK:               ascend.fixpipe %[[CO1]][{{.*}}] -> %{{.*}}[{{.*}}] m %{{.*}} n
// CHECK:         func.return

// The whole pipeline: one loop body, so one set of event ids; synchronised and with addresses.
// PIPE-LABEL: func.func @dx_rows_kernel(
// PIPE:         scf.for %k0 =
// PIPE:         ascend.fill
// PIPE:         ascend.set_flag MTE2 -> MTE1
// PIPE:         ascend.load3d
// PIPE-SAME:      kernel [2, 4] stride [1, 1] dilation [1, 1]
// PIPE:         ascend.mmad
// PIPE:         ascend.fixpipe

