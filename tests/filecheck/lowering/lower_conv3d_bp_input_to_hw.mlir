// RUN: ascend-opt %s --split-input-file -p 'ascend-tile-conv3d-bp-input,convert-conv-to-ascend-api,lower-ascend-api-to-hw' | filecheck %s
// RUN: ascend-opt %s --split-input-file -p 'ascend-tile-conv3d-bp-input{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw' | filecheck %s --check-prefix=ONE
// RUN: ascend-opt %s --split-input-file -p 'ascend-pipeline{cores=1}' | filecheck %s --check-prefix=PIPE

// lower-ascend-api-to-hw on an input-gradient Conv3DBackpropInput object
// (lowering/lower_api_to_hw/conv3d_bp_input_walk.py): Init's buffers (A1 dy rows and B1 weight
// fractals in L1, A2, B2, CO1), then each iterate loop, which computes the one dX depth of its
// SetStartPosition (asc-devkit's SetSingleShape sets Din to 1), per L0C tile, per kernel depth that reaches dy
// (one residue class of kd: here stride_d 2) and chunk of Cout1 blocks: the dy rows GM -> A1
// (skipped when no kd reaches dy), the chunk's weight fractals GM -> B1, img2col of dy into L0A
// by a non-transposed load3d over the backprop pads at stride 1, one transposing load2d per K
// fractal row into L0B, mmad; the tile ends with a quantising fixpipe into the f16 NDC1HWC0 dX.

func.func @dx(%dy5: !ascend.gm_tensor<NDC1HWC0, 1x16x2x8x8xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [1, 16, 4, 8, 8] strides [2, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x2x8x8xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @dx_kernel(
// CHECK-NOT:     ascend.conv3d_bp_input_
// CHECK:         %[[A1:.*]] = ascend.alloc_buffer slots {{[12]}} : !ascend.local_tensor<A1, {{[0-9]+}}xf16>
// CHECK-NEXT:    %[[B1:.*]] = ascend.alloc_buffer slots {{[12]}} : !ascend.local_tensor<B1, {{[0-9]+}}xf16>
// CHECK-NEXT:    %[[A2:.*]] = ascend.alloc_buffer slots {{[12]}} : !ascend.local_tensor<A2, {{[0-9]+}}xf16>
// CHECK-NEXT:    %[[B2:.*]] = ascend.alloc_buffer slots {{[12]}} : !ascend.local_tensor<B2, {{[0-9]+}}xf16>
// CHECK-NEXT:    %[[CO1:.*]] = ascend.alloc_buffer slots {{[12]}} : !ascend.local_tensor<CO1, {{[0-9]+}}xf32>
// One dX depth a core (4 cores), one L0C tile: no loop around the kd walk.
// CHECK-NOT:     scf.for %dl
// The kd that reach dy from dX depth di step by stride_d / gcd(dil_d, stride_d) = 2.
// CHECK:           arith.remsi
// CHECK:           scf.for %kdi = %{{.*}} to %[[TRIPS:.*]] step
// CHECK:             %[[INSIDE:.*]] = arith.cmpi slt, %kdi
// CHECK:             %[[ROWS:.*]] = arith.select %[[INSIDE]]
// CHECK:             scf.if
// CHECK:               ascend.data_copy %{{.*}} -> %[[A1]]
// CHECK:             ascend.data_copy %{{.*}} -> %[[B1]]
// CHECK:             ascend.load3d %[[A1]][{{.*}}] -> %[[A2]][{{.*}}] fmap %[[ROWS]], {{.*}} kernel [3, 3] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<A1, {{[0-9]+}}xf16> -> !ascend.local_tensor<A2, {{[0-9]+}}xf16>
// CHECK-NOT:         transpose
// One load2d per K fractal row, the tap read backwards (8 - tap), each fractal transposed.
// CHECK:             scf.for %kb =
// CHECK:               arith.remsi %kb
// CHECK:               arith.subi
// CHECK:               ascend.load2d %[[B1]][{{.*}}] -> %[[B2]][{{.*}}] repeat {{.*}} transpose
// CHECK:             ascend.mmad %[[A2]][{{.*}}], %[[B2]][{{.*}}] -> %[[CO1]]
// CHECK:           }
// CHECK:           ascend.fixpipe %[[CO1]][{{.*}}] -> %{{.*}} : !ascend.local_tensor<CO1, {{[0-9]+}}xf32> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK-NOT:       atomic
// CHECK:         func.return

// On one core the API kernel's loop over the four dX depths stays a loop, and each of its
// iterate loops becomes the walk of that one depth: the kd walk starts from %dl (on one core
// the depth itself) and the fixpipe writes dX at that depth (64 positions x 16 channels = 1024
// elements a depth).
// ONE-LABEL: func.func @dx_kernel(
// ONE:         %[[UB:.*]] = arith.constant 4 : index
// ONE-NEXT:    %[[STEP:.*]] = arith.constant 1 : index
// ONE-NEXT:    scf.for %dl = %{{.*}} to %[[UB]] step %[[STEP]] {
// ONE-NOT:       scf.for %dl
// ONE:           arith.addi %dl,
// ONE:           scf.for %kdi =
// ONE:             ascend.mmad
// ONE:           }
// ONE:           %[[D:.*]] = arith.constant 1024 : index
// ONE-NEXT:      %[[DOFF:.*]] = arith.muli %dl, %[[D]] : index
// ONE:           ascend.fixpipe
// ONE-NEXT:    }
// ONE-NEXT:    func.return
// ONE-LABEL: func.func @dx_stride_kernel(
// ONE:         scf.for %dl =

// The whole pipeline: synchronised and with addresses.
// PIPE-LABEL: func.func @dx_kernel(
// PIPE:         ascend.alloc_buffer slots {{.*}}A1
// PIPE:         ascend.wait_flag MTE1 -> MTE2
// PIPE:         ascend.load3d
// PIPE:         ascend.load2d
// PIPE:         ascend.set_flag MTE1 -> M
// PIPE:         ascend.mmad
// PIPE:         ascend.fixpipe

// -----

// Strides 2 in H and W (lowering/lower_api_to_hw/conv3d_bp_input_walk.py, _copy_dy; the
// vendor's LoadToA1): the A1 slot is zeroed by a fill (InitConstValue) and dy is copied in
// dilated, per Cout1 block and real row one C0 block per run with a destination gap of
// strideW - 1 = 1 block, rows strideH apart.
func.func @dx_stride(%dy5: !ascend.gm_tensor<NDC1HWC0, 1x16x4x4x4xf16>, %w5: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> {
  %dx5 = ascend.conv3d_backprop_input %dy5, %w5 input_size [1, 16, 4, 8, 8] strides [1, 2, 2] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x4x4xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x3x3x3xf16> -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  func.return %dx5 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @dx_stride_kernel(
// CHECK:         %[[A1:.*]] = ascend.alloc_buffer slots {{[12]}} : !ascend.local_tensor<A1, {{[0-9]+}}xf16>
// CHECK:           scf.if
// CHECK:             ascend.fill %[[A1]][{{.*}}] repeat %{{.*}} blocks %{{.*}} gap %{{.*}} : !ascend.local_tensor<A1, {{[0-9]+}}xf16>
// CHECK:             scf.for %r =
// CHECK:               ascend.data_copy %{{.*}} -> %[[A1]]
// CHECK:         ascend.load3d %[[A1]]
// CHECK-SAME:      kernel [3, 3] stride [1, 1] dilation [1, 1]

// PIPE-LABEL: func.func @dx_stride_kernel(
// PIPE:         ascend.fill
// PIPE:         ascend.data_copy
// PIPE:         ascend.set_flag MTE2 -> MTE1
// PIPE:         ascend.load3d
