// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s

// !ascend.conv3d_bp_input (types.py): the documented combinations of Conv3DBackpropInput
// (half or bfloat16_t throughout), with GradInput in NDC1HWC0 (docs table 1) or NCDHW (the docs'
// own example and the implementation's workspace path).

"test.op"() {t0 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>} : () -> ()
// CHECK: t0 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NDC1HWC0, f16>>
"test.op"() {t1 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, NDC1HWC0, bf16>>} : () -> ()
// CHECK: t1 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, NDC1HWC0, bf16>>
"test.op"() {t2 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NCDHW, f16>>} : () -> ()
// CHECK: t2 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, NCDHW, f16>>
"test.op"() {t3 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, NCDHW, bf16>>} : () -> ()
// CHECK: t3 = !ascend.conv3d_bp_input<#ascend.conv_type<GM, FRACTAL_Z_3D, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, NCDHW, bf16>>
