// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ascend-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// ascend.trans_data in all four directions: NCDHW -> NDC1HWC0 (x, dy), NDC1HWC0 -> NCDHW,
// NCDHW -> FRACTAL_Z_3D and FRACTAL_Z_3D -> NCDHW (dW), grouped and bf16.

%x = "test.op"() : () -> memref<2x64x8x28x28xf16>
%x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
%back = ascend.trans_data %x5 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> memref<2x64x8x28x28xf16>
// CHECK:      %x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-NEXT: %back = ascend.trans_data %x5 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> memref<2x64x8x28x28xf16>
// CHECK-GENERIC:      %x5 = "ascend.trans_data"(%x) : (memref<2x64x8x28x28xf16>) -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-GENERIC-NEXT: %back = "ascend.trans_data"(%x5) : (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>) -> memref<2x64x8x28x28xf16>

// -----

%dwf = "test.op"() : () -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
%dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf32>
%dwf2 = ascend.trans_data %dw : memref<64x64x3x3x3xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK:      %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf32>
// CHECK-NEXT: %dwf2 = ascend.trans_data %dw : memref<64x64x3x3x3xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK-GENERIC:      %dw = "ascend.trans_data"(%dwf) : (!ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>) -> memref<64x64x3x3x3xf32>
// CHECK-GENERIC-NEXT: %dwf2 = "ascend.trans_data"(%dw) : (memref<64x64x3x3x3xf32>) -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

// -----

// A grouped dW (2 groups) and a bf16 input whose 24 channels are padded to C1·C0 = 32.
%dwf, %x = "test.op"() : () -> (!ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2>, memref<1x24x4x6x6xbf16>)
%dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2> -> memref<32x16x1x3x3xf32>
%x5 = ascend.trans_data %x : memref<1x24x4x6x6xbf16> -> !ascend.gm_tensor<NDC1HWC0, 1x24x4x6x6xbf16>
// CHECK:      %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2> -> memref<32x16x1x3x3xf32>
// CHECK-NEXT: %x5 = ascend.trans_data %x : memref<1x24x4x6x6xbf16> -> !ascend.gm_tensor<NDC1HWC0, 1x24x4x6x6xbf16>
// CHECK-GENERIC:      %dw = "ascend.trans_data"(%dwf) : (!ascend.gm_tensor<FRACTAL_Z_3D, 32x16x1x3x3xf32, groups = 2>) -> memref<32x16x1x3x3xf32>
// CHECK-GENERIC-NEXT: %x5 = "ascend.trans_data"(%x) : (memref<1x24x4x6x6xbf16>) -> !ascend.gm_tensor<NDC1HWC0, 1x24x4x6x6xbf16>
