// What ascend-tile-conv3d-bp-input refuses about its strategy, in one line each: an unknown
// strategy, fixed with neither a file nor a tiling on the op, a file that is another layer's, and
// a file that holds no tiling.
// RUN: not ascend-opt %s -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{strategy=best}' 2>&1 | filecheck %s --check-prefix=STRATEGY
// RUN: not ascend-opt %s -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{strategy=fixed}' 2>&1 | filecheck %s --check-prefix=NOFILE
// RUN: not ascend-opt %s -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{strategy=fixed tiling-file="%S/../Inputs/bp_input_tiling_stride2.mlir"}' 2>&1 | filecheck %s --check-prefix=OTHER
// RUN: not ascend-opt %s -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{strategy=fixed tiling-file="%s"}' 2>&1 | filecheck %s --check-prefix=NOTATILING

func.func @stride1(%dy: memref<1x16x4x6x6xf16>, %w: memref<16x16x3x3x3xf16>) -> memref<1x16x4x6x6xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 4, 6, 6] strides [1, 1, 1] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<1x16x4x6x6xf16>, memref<16x16x3x3x3xf16> -> memref<1x16x4x6x6xf16>
  func.return %dx : memref<1x16x4x6x6xf16>
}

// STRATEGY: ascend-opt: error: unknown tiling strategy 'best' (expected one of heuristic, fixed, tuned)
// NOFILE: strategy=fixed needs a tiling on the op (tiling #ascend.conv3d_bp_input_tiling<...>)
// OTHER: bp_input_tiling_stride2.mlir: tiling dout = 5 does not match the problem's 4
// NOTATILING: tile_conv3d_bp_input_invalid.mlir:{{[0-9]+}}:1: not a #ascend.conv3d_bp_input_tiling: attribute expected
