// The lowered hardware IR of the lowering matrix: every case keeps the tile walk as loops
// (HW) and shows what is particular to it.
// RUN: ascend-conv bp-filter --input 1,32,4,16,16 --weight 32,32,1,3,3 --stride 1,2,2 --cores 1 --emit hw > %t.stride && filecheck %s --check-prefix=HW < %t.stride && filecheck %s --check-prefix=STRIDE < %t.stride
// RUN: ascend-conv bp-filter --input 1,16,4,12,12 --weight 16,16,2,3,3 --padding 1,0,2,0,1,2 --cores 1 --emit hw > %t.asym && filecheck %s --check-prefix=HW < %t.asym && filecheck %s --check-prefix=ASYM < %t.asym
// RUN: ascend-conv bp-filter --input 1,16,6,14,14 --weight 16,16,2,3,3 --dilation 2 --cores 1 --emit hw > %t.dil && filecheck %s --check-prefix=HW < %t.dil && filecheck %s --check-prefix=DIL < %t.dil
// RUN: ascend-conv bp-filter --input 1,32,3,10,10 --weight 32,16,1,3,3 --groups 2 --padding 1 --cores 1 --emit hw > %t.groups && filecheck %s --check-prefix=HW < %t.groups && filecheck %s --check-prefix=GROUPS < %t.groups
// RUN: ascend-conv bp-filter --input 1,32,3,10,10 --weight 32,1,3,3,3 --groups 32 --padding 1 --cores 4 --emit hw > %t.depthwise && filecheck %s --check-prefix=HW < %t.depthwise && filecheck %s --check-prefix=DEPTHWISE < %t.depthwise
// RUN: ascend-conv bp-filter --input 1,20,3,9,9 --weight 24,20,1,3,3 --cores 1 --emit hw > %t.odd && filecheck %s --check-prefix=HW < %t.odd && filecheck %s --check-prefix=ODD < %t.odd
// RUN: ascend-conv bp-filter --input 1,16,5,8,8 --weight 16,16,3,1,1 --cores 1 --dk fused --emit hw > %t.fused && filecheck %s --check-prefix=HW < %t.fused && filecheck %s --check-prefix=FUSED < %t.fused
// RUN: ascend-conv bp-filter --input 1,16,5,8,8 --weight 16,16,3,1,1 --cores 1 --emit hw > %t.kd && filecheck %s --check-prefix=HW < %t.kd && filecheck %s --check-prefix=KD < %t.kd
// RUN: ascend-conv bp-filter --input 1,16,2,7,9 --weight 16,16,1,2,2 --cores 1 --emit hw > %t.howo && filecheck %s --check-prefix=HW < %t.howo && filecheck %s --check-prefix=HOWO < %t.howo
// RUN: ascend-conv bp-filter --input 1,64,2,16,16 --weight 256,64,1,3,3 --padding 1 --cores 1 --override "iterate_order=0 base_m=64 base_n=64" --emit hw > %t.orderm && filecheck %s --check-prefix=HW < %t.orderm && filecheck %s --check-prefix=ORDERM < %t.orderm
// RUN: ascend-conv bp-filter --input 1,64,2,16,16 --weight 256,64,1,3,3 --padding 1 --cores 1 --override "iterate_order=1 base_m=64 base_n=64" --emit hw > %t.ordern && filecheck %s --check-prefix=HW < %t.ordern && filecheck %s --check-prefix=ORDERN < %t.ordern
// RUN: ascend-conv bp-filter --cores 1 --emit hw > %t.single && filecheck %s --check-prefix=HW < %t.single && filecheck %s --check-prefix=SINGLE < %t.single
// RUN: ascend-conv bp-filter --cores 24 --emit hw > %t.multi && filecheck %s --check-prefix=HW < %t.multi && filecheck %s --check-prefix=MULTI < %t.multi
// RUN: ascend-conv bp-filter --input 1,16,2,8,8 --weight 16,16,1,3,3 --padding 1 --dtype bf16 --cores 1 --emit hw > %t.bf16 && filecheck %s --check-prefix=HW < %t.bf16 && filecheck %s --check-prefix=BF16 < %t.bf16

// HW:       ascend.launch @conv3d_bp_filter_kernel blocks [[BLOCKS:[0-9]+]]
// HW:       func.func @conv3d_bp_filter_kernel(
// HW:         ascend.alloc_buffer slots {{[12]}} offset 0 : !ascend.local_tensor<A1,
// HW:         ascend.set_flag
// HW:         scf.for
// HW:           ascend.data_copy
// HW:             ascend.wait_flag
// HW:             ascend.load3d {{.*}} transpose : !ascend.local_tensor<A1, {{.*}}> -> !ascend.local_tensor<A2,
// HW:             ascend.load3d {{.*}} : !ascend.local_tensor<B1, {{.*}}> -> !ascend.local_tensor<B2,
// HW:             ascend.mmad
// HW:           ascend.fixpipe {{.*}} atomic : !ascend.local_tensor<CO1, {{.*}}xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D,
// HW-NOT:     ascend.iterate
// HW:         func.return

// STRIDE:    kernel [3, 3] stride [2, 2] dilation [1, 1] : !ascend.local_tensor<B1
// ASYM:      !ascend.gm_tensor<NDC1HWC0, 1x16x4x12x13xf16>
// The x rows of a K block start below the top padding of 2: pad_top is computed per block.
// ASYM:      %[[TOP:.*]] = arith.subi
// ASYM:      ascend.load3d {{.*}} pad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} kernel [3, 3] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1
// DIL:       scf.for %dki =
// DIL:       kernel [3, 3] stride [1, 1] dilation [2, 2] : !ascend.local_tensor<B1
// GROUPS:    !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2>
// GROUPS:    scf.for %gi =
// DEPTHWISE: !ascend.gm_tensor<FRACTAL_Z_3D, 32x1x3x3x3xf32, groups = 32>
// DEPTHWISE: ascend.launch @conv3d_bp_filter_kernel blocks 4
// ODD:       !ascend.gm_tensor<NDC1HWC0, 1x20x3x9x9xf16>
// ODD:       !ascend.gm_tensor<FRACTAL_Z_3D, 24x20x1x3x3xf32>
// KD:        scf.for %dki =
// With kD fused into N there is no kd loop: the depth window only clips the N rows.
// FUSED:     scf.for %bdi =
// FUSED-NOT: scf.for %dki =
// FUSED:     ascend.load3d
// KD:        kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1
// HOWO:      !ascend.gm_tensor<NDC1HWC0, 1x16x2x6x8xf16>
// HOWO:      kernel [2, 2] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1
// ORDERM:    scf.for %mb =
// ORDERM:      scf.for %nb =
// ORDERM:        scf.for %mi =
// ORDERM:          scf.for %ni =
// ORDERN:    scf.for %nb =
// ORDERN:      scf.for %mb =
// ORDERN:        scf.for %ni =
// ORDERN:          scf.for %mi =
// SINGLE:    blocks 1 (
// MULTI:     blocks 24 (
// MULTI:     ascend.get_block_idx
// MULTI:     arith.remsi
// BF16:      !ascend.local_tensor<A2, {{.*}}xbf16>
// BF16:      ascend.mmad {{.*}} : !ascend.local_tensor<A2, {{.*}}xbf16>, !ascend.local_tensor<B2, {{.*}}xbf16> -> !ascend.local_tensor<CO1, {{.*}}xf32>
