// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of #ascend.conv_type (attributes.py). The #ascend.dw_tiling rules are in
// dw_tiling_invalid.mlir.

"test.op"() {ct = #ascend.conv_type<GM, ND, i8>} : () -> ()
// CHECK: conv_type element type must be one of f16, bf16, f32, i32, got i8
