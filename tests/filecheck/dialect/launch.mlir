// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: ascend-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s --split-input-file | filecheck %s

// ascend.alloc_gm, ascend.empty_gm and ascend.launch: the host allocates zero-filled GM tensors
// and launches a kernel func.func on 24 cores; the launch's argument types match the kernel's
// signature. The last chunk allocates an output uninitialised for a launch that writes it whole.

func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>) {
  func.return
}

func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
  ascend.launch @kernel blocks 24 (%x, %dy, %dw) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
  func.return
}
// CHECK-LABEL: func.func @host() {
// CHECK-NEXT:    %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-NEXT:    %dy = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-NEXT:    %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK-NEXT:    ascend.launch @kernel blocks 24 (%x, %dy, %dw) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK-NEXT:    func.return

// CHECK-GENERIC:      %x = "ascend.alloc_gm"() : () -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// CHECK-GENERIC:      %dw = "ascend.alloc_gm"() : () -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK-GENERIC-NEXT: "ascend.launch"(%x, %dy, %dw) <{callee = @kernel, blocks = 24 : i64}> : (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>) -> ()

// -----

// A kernel without arguments on one core: the empty argument list round-trips too.
func.func @noop() {
  func.return
}
func.func @host() {
  ascend.launch @noop blocks 1 () :
  func.return
}
// CHECK-LABEL: func.func @host() {
// CHECK-NEXT:    ascend.launch @noop blocks 1 () :
// CHECK-NEXT:    func.return
// CHECK-GENERIC: "ascend.launch"() <{callee = @noop, blocks = 1 : i64}> : () -> ()

// -----

// ascend.empty_gm: uninitialised y, first used by the launch that writes it, then read back.
func.func @forward(%x: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, %y: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) {
  func.return
}
func.func @host(%x5: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) -> memref<1x16x4x8x8xf16> {
  %y5 = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  ascend.launch @forward blocks 2 (%x5, %y5) : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
  %y = ascend.trans_data %y5 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> -> memref<1x16x4x8x8xf16>
  func.return %y : memref<1x16x4x8x8xf16>
}
// CHECK-LABEL: func.func @host(%x5: !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>) -> memref<1x16x4x8x8xf16> {
// CHECK-NEXT:    %y5 = ascend.empty_gm : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK-NEXT:    ascend.launch @forward blocks 2 (%x5, %y5) : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>, !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK-NEXT:    %y = ascend.trans_data %y5 : !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16> -> memref<1x16x4x8x8xf16>
// CHECK-NEXT:    func.return %y : memref<1x16x4x8x8xf16>
// CHECK-GENERIC: %y5 = "ascend.empty_gm"() : () -> !ascend.gm_tensor<NDC1HWC0, 1x16x4x8x8xf16>
// CHECK-GENERIC-NEXT: "ascend.launch"(%x5, %y5) <{callee = @forward, blocks = 2 : i64}>
