// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of ascend.trans_data (format_level.py), one chunk each.

// Both sides memrefs: nothing to convert.
%x = "test.op"() : () -> memref<2x64x8x28x28xf16>
%y = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> memref<2x64x8x28x28xf16>
// CHECK: Operation does not verify: trans_data converts between an NCDHW memref and an !ascend.gm_tensor; exactly one side must be a memref

// -----

// Both sides gm_tensors: a format-to-format conversion is not a trans_data.
%x = "test.op"() : () -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
%y = ascend.trans_data %x : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 2x64x8x28x28xf16>
// CHECK: Operation does not verify: trans_data converts between an NCDHW memref and an !ascend.gm_tensor; exactly one side must be a memref

// -----

%x = "test.op"() : () -> memref<2x64x8x28x28xf16>
%y = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDHWC, 2x64x8x28x28xf16>
// CHECK: Operation does not verify: trans_data converts to or from NDC1HWC0, FRACTAL_Z_3D or ND, not NDHWC

// -----

%x = "test.op"() : () -> memref<2x64x8x28x28xf16>
%y = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x4x8x28x28xf16>
// CHECK: Operation does not verify: trans_data changes the layout, not the logical shape: [2, 64, 8, 28, 28] vs [2, 4, 8, 28, 28]

// -----

%x = "test.op"() : () -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%y = ascend.trans_data %x : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf16>
// CHECK: Operation does not verify: trans_data keeps the element type: f16 vs f32
