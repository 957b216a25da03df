// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// Every attribute and type of the dialect round-trips in custom and generic form.

"test.op"() {
  position = #ascend<position A1>, format = #ascend<format NDC1HWC0>, pipe = #ascend<pipe MTE2>,
  ct = #ascend.conv_type<GM, NDC1HWC0, bf16>
} : () -> ()
// CHECK:      "test.op"() {position = #ascend<position A1>, format = #ascend<format NDC1HWC0>, pipe = #ascend<pipe MTE2>, ct = #ascend.conv_type<GM, NDC1HWC0, bf16>} : () -> ()

// -----

"test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 256x1x3x3x3xf32, groups = 256>, !ascend.gm_tensor<ND, 5xi32>)
// CHECK: "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 256x1x3x3x3xf32, groups = 256>, !ascend.gm_tensor<ND, 5xi32>)

// -----

"test.op"() : () -> (!ascend.local_tensor<A1, 16384xf16>, !ascend.local_tensor<CO1, 16384xf32>)
// CHECK: "test.op"() : () -> (!ascend.local_tensor<A1, 16384xf16>, !ascend.local_tensor<CO1, 16384xf32>)

// -----

"test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>
// CHECK: "test.op"() : () -> !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>

// -----

// More variants: the plain 5-D formats, multi-dimensional local tensors in the Cube and vector
// positions, and the bf16 object type.
"test.op"() : () -> (!ascend.gm_tensor<NCDHW, 2x64x8x28x28xbf16>, !ascend.gm_tensor<NDHWC, 2x8x28x28x64xf16>, !ascend.local_tensor<B2, 128x128xbf16>, !ascend.local_tensor<VECIN, 8x256xi32>, !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>)
// CHECK: "test.op"() : () -> (!ascend.gm_tensor<NCDHW, 2x64x8x28x28xbf16>, !ascend.gm_tensor<NDHWC, 2x8x28x28x64xf16>, !ascend.local_tensor<B2, 128x128xbf16>, !ascend.local_tensor<VECIN, 8x256xi32>, !ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, bf16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>)
