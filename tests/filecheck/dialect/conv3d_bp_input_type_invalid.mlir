// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every rule of !ascend.conv3d_bp_input (types.py), one chunk each, and its parser's count.

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<A1, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input weight must be in GM, got A1

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input weight must be in format FRACTAL_Z_3D, got NDC1HWC0

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f32>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input weight element type must be f16 or bf16, got f32

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input input_size element type must be i32, got f16

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, NCDHW, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input input_size must be in format ND, got NCDHW

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NCDHW, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input grad_output must be in format NDC1HWC0, got NCDHW

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, f16>>} : () -> ()
// CHECK: conv3d_bp_input grad_input must be in format NDC1HWC0 or NCDHW, got ND

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<CO1, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input grad_input must be in GM, got CO1

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f32>>} : () -> ()
// CHECK: conv3d_bp_input grad_input element type must be f16 or bf16, got f32

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input grad_output element type (bf16) must equal the weight's (f16) (docs table 2)

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NCDHW, bf16>>} : () -> ()
// CHECK: conv3d_bp_input grad_input element type (bf16) must equal the weight's (f16) (docs table 2)

// -----

"test.op"() {t = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: conv3d_bp_input takes 4 conv types (weight, input_size, grad_output, grad_input), got 3
