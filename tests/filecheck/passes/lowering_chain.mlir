// Each pass of the lowering chain on the default layer (one core), checked on its own output.
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1},convert-conv-to-ascend-api' | filecheck %s --check-prefix=API
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw' | filecheck %s --check-prefix=HW
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw,ascend-plan-buffers' | filecheck %s --check-prefix=PLAN
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw,ascend-plan-buffers,ascend-insert-sync,licm,canonicalize,cse' | filecheck %s --check-prefix=SYNC
// The pipeline pass is exactly that chain.
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-pipeline{cores=1}' > %t.pipeline
// Plain xdsl-opt runs it too (the xdsl.universe entry point).
// RUN: xdsl-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-pipeline{cores=1}' | diff - %t.pipeline
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1},convert-conv-to-ascend-api,lower-ascend-api-to-hw,ascend-plan-buffers,ascend-insert-sync,licm,canonicalize,cse' | diff - %t.pipeline

// convert-conv-to-ascend-api: host launch + per-core kernel written against the API.
// API:       %dwf = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// API-NEXT:  ascend.launch @conv3d_bp_filter_kernel blocks 1 (%x5, %dy5, %dwf)
// API:       func.func @conv3d_bp_filter_kernel(
// API-NEXT:    ascend.get_block_idx : index
// API-NEXT:    %[[OBJ:.*]] = ascend.create : !ascend.conv3d_bp_filter<
// API-NEXT:    ascend.init %[[OBJ]] tiling #ascend.dw_tiling<
// API:         scf.for %bdi =
// API:           scf.for %dki =
// API:             ascend.set_grad_output %[[OBJ]], %{{.*}}[%{{.*}}]
// API-NEXT:        ascend.set_input %[[OBJ]], %{{.*}}[%{{.*}}]
// API:             ascend.set_single_shape %[[OBJ]], %{{.*}}, %{{.*}}, %{{.*}}
// API:             ascend.set_start_position %[[OBJ]], %{{.*}}
// API-NEXT:        scf.while
// API-NEXT:          ascend.iterate %[[OBJ]]
// API:               ascend.get_tensor_c %[[OBJ]], %{{.*}}[%{{.*}}] atomic
// API:         ascend.end %[[OBJ]]

// lower-ascend-api-to-hw: buffers of Init, then the tile walk (A1 resident over N blocks).
// HW:      ascend.alloc_buffer slots 2 : !ascend.local_tensor<A1, 32768xf16>
// HW-NEXT: ascend.alloc_buffer slots 2 : !ascend.local_tensor<B1, 19712xf16>
// HW-NEXT: ascend.alloc_buffer slots 2 : !ascend.local_tensor<A2, 8192xf16>
// HW-NEXT: ascend.alloc_buffer slots 2 : !ascend.local_tensor<B2, 16384xf16>
// HW-NEXT: ascend.alloc_buffer slots 2 : !ascend.local_tensor<CO1, 8192xf32>
// HW:      scf.for %ka =
// HW:        ascend.data_copy {{.*}} -> {{.*}}[%ka, {{.*}}] count {{.*}} : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.local_tensor<A1, 32768xf16>
// HW:      scf.for %nb =
// HW:        scf.for %kb =
// HW:          ascend.data_copy {{.*}} -> !ascend.local_tensor<B1, 19712xf16>
// HW:        scf.for %ni =
// HW:          scf.for %kk =
// HW:            scf.for %ki =
// HW:            ascend.load3d {{.*}} kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 32768xf16> -> !ascend.local_tensor<A2, 8192xf16>
// HW:            ascend.load3d {{.*}} kernel [3, 3] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 19712xf16> -> !ascend.local_tensor<B2, 16384xf16>
// HW:            ascend.mmad
// HW:          ascend.fixpipe {{.*}} atomic : !ascend.local_tensor<CO1, 8192xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// HW-NOT:  ascend.iterate

// ascend-plan-buffers: L1 holds A1 (2 x 64 KB) then B1; each L0 buffer starts its memory.
// PLAN:      ascend.alloc_buffer slots 2 offset 0 : !ascend.local_tensor<A1, 32768xf16>
// PLAN-NEXT: ascend.alloc_buffer slots 2 offset 131072 : !ascend.local_tensor<B1, 19712xf16>
// PLAN-NEXT: ascend.alloc_buffer slots 2 offset 0 : !ascend.local_tensor<A2, 8192xf16>
// PLAN-NEXT: ascend.alloc_buffer slots 2 offset 0 : !ascend.local_tensor<B2, 16384xf16>
// PLAN-NEXT: ascend.alloc_buffer slots 2 offset 0 : !ascend.local_tensor<CO1, 8192xf32>

// ascend-insert-sync: one flag per stage hand-over, as the vendor kernel has. Loop-carried
// "slot free" flags are preset at entry and drained at exit; ping-pong slots use their own ids.
// SYNC:      ascend.alloc_buffer slots 2 offset 0 : !ascend.local_tensor<CO1, 8192xf32>
// SYNC:      ascend.set_flag FIX -> M event
// SYNC:      ascend.set_flag FIX -> M event
// SYNC:      ascend.set_flag M -> MTE1 event
// SYNC:      ascend.set_flag M -> MTE1 event
// SYNC:      ascend.set_flag MTE1 -> MTE2 event
// SYNC:      ascend.set_flag MTE1 -> MTE2 event
// SYNC:      scf.for %bdi =
// SYNC:        scf.for %dki =
// A1 may be refilled once MTE1 is done with the previous single shape's dy rows.
// SYNC:          ascend.wait_flag MTE1 -> MTE2 event
// SYNC:          scf.for %ka =
// SYNC:            ascend.data_copy
// SYNC:          scf.for %nb =
// SYNC:            ascend.wait_flag MTE1 -> MTE2 event
// SYNC:            scf.for %kb =
// SYNC:              ascend.data_copy
// One MTE2 -> MTE1 flag after the x rows also covers the dy rows loaded before them.
// SYNC:            ascend.set_flag MTE2 -> MTE1 event
// SYNC:            ascend.wait_flag MTE2 -> MTE1 event
// SYNC:            scf.for %ni =
// SYNC:              ascend.wait_flag FIX -> M event %[[C:[0-9]+]]
// SYNC:              scf.for %kk =
// SYNC:                scf.for %ki =
// SYNC:                ascend.wait_flag M -> MTE1 event %[[L0:[0-9]+]]
// SYNC-NEXT:           ascend.load3d {{.*}} -> %{{.*}}[%[[L0]]]
// SYNC:                ascend.load3d {{.*}} -> %{{.*}}[%[[L0]]]
// SYNC-NEXT:           ascend.set_flag MTE1 -> M event %[[L0]]
// SYNC:                ascend.wait_flag MTE1 -> M event %[[L0]]
// SYNC-NEXT:           ascend.mmad
// SYNC-NEXT:           ascend.set_flag M -> MTE1 event %[[L0]]
// SYNC:              ascend.set_flag M -> FIX event %[[C]]
// SYNC:              ascend.wait_flag M -> FIX event %[[C]]
// SYNC:              ascend.fixpipe
// SYNC-NEXT:         ascend.set_flag FIX -> M event %[[C]]
// SYNC:            ascend.set_flag MTE1 -> MTE2 event
// SYNC:          ascend.set_flag MTE1 -> MTE2 event
// SYNC:      ascend.wait_flag FIX -> M event
// SYNC:      ascend.wait_flag FIX -> M event
// SYNC:      ascend.wait_flag M -> MTE1 event
// SYNC:      ascend.wait_flag M -> MTE1 event
// SYNC:      ascend.wait_flag MTE1 -> MTE2 event
// SYNC:      ascend.wait_flag MTE1 -> MTE2 event
// SYNC-NEXT: func.return
