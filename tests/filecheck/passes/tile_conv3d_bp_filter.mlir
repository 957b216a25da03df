// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1}' | filecheck %s
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=24}' | filecheck %s --check-prefix=MULTI
// RUN: ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1 override="iterate_order=1 step_kb=2"}' | filecheck %s --check-prefix=OVERRIDE
// RUN: not ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{cores=1 override="base_m=512 base_n=512"}' 2>&1 | filecheck %s --check-prefix=OVERFLOW
// RUN: not ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{strategy=fixed}' 2>&1 | filecheck %s --check-prefix=FIXED
// RUN: not ascend-opt %S/../Inputs/default_layer_format.mlir -p 'ascend-tile-conv3d-bp-filter{hw=atlas-a9}' 2>&1 | filecheck %s --check-prefix=HW

// The heuristic tiling of the default layer on one core (vendor basic-block tiler).
// CHECK:      ascend.conv3d_backprop_filter
// CHECK-SAME: tiling #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4,
// CHECK-SAME: base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 4, step_kb = 4, iterate_order = 0, bl1_bound = 19712
// CHECK-SAME: batch_dim = 1, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 1, single_core_m = 64, single_core_n = 576, single_core_k = 504>

// On 24 cores the batch·dout and kD axes are split.
// MULTI: single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3

// Overridden fields; bl1_bound follows the new step_kb.
// OVERRIDE: step_ka = 4, step_kb = 2, iterate_order = 1, bl1_bound = 11648

// OVERFLOW: tiling does not fit atlas-a2-910b2: {{.*}}overflow

// FIXED: strategy=fixed needs a tiling on the op

// HW: unknown hardware 'atlas-a9'
