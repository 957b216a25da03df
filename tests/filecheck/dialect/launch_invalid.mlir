// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Every verifier rule of ascend.launch (launch.py), one chunk each. ascend.alloc_gm has no rule
// of its own beyond its result type (a gm_tensor).

func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 0 (%x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch needs at least 1 block, got 0

// -----

func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 24 (%x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel', which is not defined in the module

// -----

"memref.global"() <{sym_name = "kernel", sym_visibility = "private", type = memref<1xf32>, initial_value}> : () -> ()
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 24 (%x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel', which is a memref.global, not a func.func

// -----

func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dy: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  %dw = ascend.alloc_gm : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
  ascend.launch @kernel blocks 24 (%x, %dw) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel' passes 2 arguments, the kernel takes 3

// -----

func.func @kernel(%x: !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>) {
  func.return
}
func.func @host() {
  %x = ascend.alloc_gm : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  ascend.launch @kernel blocks 24 (%x, %x) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
  func.return
}
// CHECK: Operation does not verify: launch of 'kernel': argument 1 has type !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, the kernel expects !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>

// -----

// alloc_gm allocates in global memory only.
%t = ascend.alloc_gm : !ascend.local_tensor<A1, 16384xf16>
// CHECK: !ascend.local_tensor<A1, 16384xf16> should be of base attribute ascend.gm_tensor
