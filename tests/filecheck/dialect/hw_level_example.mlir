// RUN: ascend-opt %S/../../../examples/hw_level.mlir | filecheck %s
// RUN: xdsl-opt %S/../../../examples/hw_level.mlir | filecheck %s
// RUN: ascend-opt %S/../../../examples/hw_level.mlir --print-op-generic | ascend-opt | filecheck %s

// examples/hw_level.mlir (a hand-written hardware-level kernel) parses, verifies and round-trips.

// CHECK-LABEL: func.func @dw_kernel
// CHECK:         %a1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<A1, 256xf16>
// CHECK:         %co1 = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<CO1, 256xf32>
// CHECK:         scf.for %n = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %off = arith.muli %n, %c256 : index
// CHECK-NEXT:      ascend.wait_flag MTE1 -> MTE2 event %c0
// CHECK-NEXT:      ascend.data_copy %dy[%off] -> %a1[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK-NEXT:      ascend.data_copy %x[%off] -> %b1[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 2x16x1x4x4xf16> -> !ascend.local_tensor<B1, 256xf16>
// CHECK-NEXT:      ascend.set_flag MTE2 -> MTE1 event %c0
// CHECK-NEXT:      ascend.wait_flag MTE2 -> MTE1 event %c0
// CHECK-NEXT:      ascend.wait_flag M -> MTE1 event %c0
// CHECK-NEXT:      ascend.load3d %a1[%c0, %c0] -> %a2[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK-NEXT:      ascend.load3d %b1[%c0, %c0] -> %b2[%c0] fmap %c4, %c4, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK-NEXT:      ascend.set_flag MTE1 -> MTE2 event %c0
// CHECK-NEXT:      ascend.set_flag MTE1 -> M event %c0
// CHECK-NEXT:      ascend.wait_flag MTE1 -> M event %c0
// CHECK-NEXT:      ascend.wait_flag FIX -> M event %c0
// CHECK-NEXT:      ascend.mmad %a2[%c0], %b2[%c0] -> %co1[%c0] m %c16 n %c16 k %c16 init %true : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK-NEXT:      ascend.set_flag M -> MTE1 event %c0
// CHECK-NEXT:      ascend.set_flag M -> FIX event %c0
// CHECK-NEXT:      ascend.wait_flag M -> FIX event %c0
// CHECK-NEXT:      ascend.fixpipe %co1[%c0] -> %dw[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c32 atomic : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
// CHECK-NEXT:      ascend.set_flag FIX -> M event %c0
// CHECK-NEXT:    }
// CHECK-NEXT:    ascend.wait_flag MTE1 -> MTE2 event %c0
