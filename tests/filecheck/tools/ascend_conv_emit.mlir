// RUN: ascend-conv bp-filter --emit op 2>&1 | filecheck %s --check-prefix=OP
// RUN: ascend-conv bp-filter --emit format 2>/dev/null | filecheck %s --check-prefix=FORMAT
// RUN: ascend-conv bp-filter --input 1,20,4,9,9 --weight 8,10,2,3,3 --stride 1,2,2 --padding 1,1,0 --groups 2 --dtype bf16 --emit format | filecheck %s --check-prefix=GROUPED
// What --emit prints is ordinary IR: ascend-opt reads it back unchanged.
// RUN: ascend-conv bp-filter --emit format 2>/dev/null | ascend-opt | filecheck %s --check-prefix=FORMAT
// An Atlas A3 part, Ascend910_9362: the default layer on its 20 cores (the 910B2's 24 give 24 blocks).
// RUN: ascend-conv bp-filter --input 2,64,8,28,28 --weight 64,64,3,3,3 --padding 1 --hw atlas-a3-9362 --emit hw | filecheck %s --check-prefix=A3

// This file is only the carrier of the CHECK lines: ascend-conv builds its own input.

// Without shape flags: the embedded default layer, announced on stderr.
// OP:      ascend-conv: no shape flags given; using the embedded default layer: --input 2,64,8,28,28 --weight 64,64,3,3,3 --padding 1
// OP:      builtin.module {
// OP-NEXT:   func.func @conv3d_bp_filter(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
// OP-NEXT:     %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// OP-NEXT:     func.return %dw : memref<64x64x3x3x3xf32>
// OP-NEXT:   }
// OP-NEXT: }

// FORMAT:      func.func @conv3d_bp_filter(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
// FORMAT-NEXT:   %x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// FORMAT-NEXT:   %dy5 = ascend.trans_data %dy : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// FORMAT-NEXT:   %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// FORMAT-NEXT:   %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf32>
// FORMAT-NEXT:   func.return %dw : memref<64x64x3x3x3xf32>
// FORMAT-NEXT: }

// Shape flags: dy's shape is derived, Do = (4+2-1-1)/1+1 = 5, Ho = (9+2-2-1)/2+1 = 5,
// Wo = (9+0-2-1)/2+1 = 4; symmetric padding 1,1,0 becomes pads [1, 1, 1, 1, 0, 0].
// GROUPED:      func.func @conv3d_bp_filter(%x: memref<1x20x4x9x9xbf16>, %dy: memref<1x8x5x5x4xbf16>) -> memref<8x10x2x3x3xf32> {
// GROUPED:        ascend.conv3d_backprop_filter %x5, %dy5 strides [1, 2, 2] pads [1, 1, 1, 1, 0, 0] dilations [1, 1, 1] groups 2 : !ascend.gm_tensor<NDC1HWC0, 1x20x4x9x9xbf16>, !ascend.gm_tensor<NDC1HWC0, 1x8x5x5x4xbf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 8x10x2x3x3xf32, groups = 2>

// A3:      ascend.launch @conv3d_bp_filter_kernel blocks 18 (%x5, %dy5, %dwf)
// A3:      func.func @conv3d_bp_filter_kernel({{.*}}) attributes {ascend.kernel, ascend.target = "atlas-a3-9362"}
