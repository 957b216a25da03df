// The strategy option of ascend-tile-conv3d-bp-input (passes/tile_conv3d_bp_input.py), as the
// forward tiler's: heuristic (the vendor's tiling), fixed (a tiling file), tuned (the dX search of
// tuning/conv3d_bp_input_search.py, here with a budget of 3 candidates in a cache of its own).
// RUN: ascend-opt %s -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{strategy=heuristic cores=4}' | filecheck %s --check-prefix=HEUR
// RUN: ascend-opt %s -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{strategy=fixed tiling-file="%S/../Inputs/bp_input_tiling_stride2.mlir" cores=4}' | filecheck %s --check-prefix=FIXED
// RUN: rm -rf %t && env XDG_CACHE_HOME=%t ascend-opt %s -p 'ascend-legalize-formats,ascend-tile-conv3d-bp-input{strategy=tuned budget=3 cores=4}' | filecheck %s --check-prefix=TUNED
// RUN: ls %t/ascend-xdsl/tuning | filecheck %s --check-prefix=CACHED

func.func @stride2(%dy: memref<1x16x5x5x5xf16>, %w: memref<16x16x3x3x3xf16>) -> memref<1x16x10x10x10xf16> {
  %dx = ascend.conv3d_backprop_input %dy, %w input_size [1, 16, 10, 10, 10] strides [2, 2, 2] pads [1, 1, 1] dilations [1, 1, 1] groups 1 : memref<1x16x5x5x5xf16>, memref<16x16x3x3x3xf16> -> memref<1x16x10x10x10xf16>
  func.return %dx : memref<1x16x10x10x10xf16>
}

// The vendor's L0 tile (M 112, K 144, N 16) and its one dX depth per core, merged to 4 cores.
// HEUR: tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, {{.*}} cl0_pbuffer = 1, {{.*}} single_core_din = 3, {{.*}} base_m = 112, base_k = 144, base_n = 16,

// The file's tiling, field for field (M 32, K 48, two L0C slots, 5 dX depths a core).
// FIXED: tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, {{.*}} al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, {{.*}} single_core_din = 5, {{.*}} base_m = 32, base_k = 48, base_n = 16,

// The search's answer: a dX tiling of this problem within 4 cores, stored in the tuning cache.
// TUNED: tiling #ascend.conv3d_bp_input_tiling<batch = 1, cin = 16, cout = 16, {{.*}} di = 10, hi = 10, wi = 10,
// CACHED: {{[0-9a-f]+}}.json
