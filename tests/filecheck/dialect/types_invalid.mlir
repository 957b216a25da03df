// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of !ascend.gm_tensor, !ascend.local_tensor and !ascend.conv3d_bp_filter
// (types.py), one chunk each. Types verify while they are parsed, so the message is printed
// without an operation around it.

"test.op"() : () -> !ascend.gm_tensor<NDC1HWC0, 2x0x8x28x28xf16>
// CHECK: gm_tensor dimensions must be positive, got [2, 0, 8, 28, 28]

// -----

"test.op"() : () -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28xf16>
// CHECK: gm_tensor in NDC1HWC0 must have rank 5, got rank 4

// -----

"test.op"() : () -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32, groups = 0>
// CHECK: gm_tensor groups must be at least 1, got 0

// -----

"test.op"() : () -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16, groups = 2>
// CHECK: gm_tensor groups is only meaningful for FRACTAL_Z_3D, not NDC1HWC0

// -----

"test.op"() : () -> !ascend.gm_tensor<FRACTAL_Z_3D, 63x16x3x3x3xf32, groups = 2>
// CHECK: gm_tensor FRACTAL_Z_3D Cout (63) must be divisible by groups (2)

// -----

"test.op"() : () -> !ascend.local_tensor<GM, 16384xf16>
// CHECK: local_tensor cannot be in GM; use !ascend.gm_tensor

// -----

"test.op"() : () -> !ascend.local_tensor<A1, 0xf16>
// CHECK: local_tensor dimensions must be positive, got [0]

// -----

"test.op"() : () -> !ascend.local_tensor<CO1, 16384xf16>
// CHECK: local_tensor in CO1 holds f32 accumulators, got f16

// -----

"test.op"() : () -> !ascend.local_tensor<B2, 16384xi32>
// CHECK: local_tensor in B2 must hold f16, bf16 or f32, got i32

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend<format ND>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: expected #ascend.conv_type<...>

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<A1, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: conv3d_bp_filter input must be in GM, got A1

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NCDHW, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: conv3d_bp_filter input must be in format NDC1HWC0, got NCDHW

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NCDHW, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: conv3d_bp_filter weight_size must be in format ND, got NCDHW

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDHWC, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: conv3d_bp_filter grad_output must be in format NDC1HWC0, got NDHWC

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NCDHW, f32>>
// CHECK: conv3d_bp_filter grad_weight must be in format FRACTAL_Z_3D, got NCDHW

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f32>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f32>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: conv3d_bp_filter input element type must be f16 or bf16, got f32

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: conv3d_bp_filter weight_size element type must be i32, got f16

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f16>>
// CHECK: conv3d_bp_filter grad_weight element type must be f32, got f16

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: conv3d_bp_filter grad_output element type (bf16) must equal the input's (f16)
