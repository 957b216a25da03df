// RUN: ASCEND_ROUNDTRIP | filecheck %s
// RUN: ASCEND_GENERIC_ROUNDTRIP | filecheck %s
// RUN: xdsl-opt %s --split-input-file | filecheck %s
// RUN: ascend-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every hardware-level op round-trips in its custom form (exactly as in docs/hw-level-spec.md)
// and in the generic form; plain xdsl-opt parses it through the xdsl.universe entry point.

func.func @hw(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>, %slot: index, %init: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a1 = ascend.alloc_buffer slots 2 : !ascend.local_tensor<A1, 256xf16>
  %a2 = ascend.alloc_buffer slots 1 offset 512 : !ascend.local_tensor<A2, 256xf16>
  %b1 = ascend.alloc_buffer slots 2 offset 1024 : !ascend.local_tensor<B1, 256xf16>
  %b2 = ascend.alloc_buffer slots 1 : !ascend.local_tensor<B2, 256xf16>
  %co1 = ascend.alloc_buffer slots 2 offset 0 : !ascend.local_tensor<CO1, 256xf32>
  ascend.fill %a1[%slot, %c0] repeat %c1 blocks %c16 gap %c0 : !ascend.local_tensor<A1, 256xf16>
  ascend.data_copy %dy[%c0] -> %a1[%slot, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16> -> !ascend.local_tensor<A1, 256xf16>
  ascend.load3d %a1[%slot, %c0] -> %a2[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
  ascend.load3d %b1[%c1, %c0] -> %b2[%c0] fmap %c16, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c1, %c1, %c1, %c1 kernel [3, 3] stride [2, 2] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
  ascend.load2d %b1[%c1, %c0] -> %b2[%c0, %c0] repeat %c1 src_stride %c1 transpose : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
  ascend.load2d %a1[%slot, %c0] -> %a2[%c0, %c0] repeat %c1 src_stride %c0 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
  ascend.mmad %a2[%c0], %b2[%c0] -> %co1[%slot] m %c16 n %c16 k %c16 init %init : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
  ascend.fixpipe %co1[%slot] -> %dw[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 atomic : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
  ascend.fixpipe %co1[%c1] -> %dw[%c0] m %c1 n %c16 src_stride %c16 dst_stride %c0 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
  ascend.set_flag MTE2 -> MTE1 event %c0
  ascend.wait_flag MTE2 -> MTE1 event %c0
  ascend.set_flag M -> FIX event %slot
  ascend.wait_flag FIX -> M event %c1
  ascend.pipe_barrier M
  ascend.pipe_barrier ALL
  %core = ascend.get_block_idx : index
  "test.op"(%core) : (index) -> ()
  func.return
}

// CHECK-LABEL: func.func @hw(%dy: !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>, %dw: !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>, %slot: index, %init: i1) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c16 = arith.constant 16 : index
// CHECK-NEXT:    %a1 = ascend.alloc_buffer slots 2 : !ascend.local_tensor<A1, 256xf16>
// CHECK-NEXT:    %a2 = ascend.alloc_buffer slots 1 offset 512 : !ascend.local_tensor<A2, 256xf16>
// CHECK-NEXT:    %b1 = ascend.alloc_buffer slots 2 offset 1024 : !ascend.local_tensor<B1, 256xf16>
// CHECK-NEXT:    %b2 = ascend.alloc_buffer slots 1 : !ascend.local_tensor<B2, 256xf16>
// CHECK-NEXT:    %co1 = ascend.alloc_buffer slots 2 offset 0 : !ascend.local_tensor<CO1, 256xf32>
// CHECK-NEXT:    ascend.fill %a1[%slot, %c0] repeat %c1 blocks %c16 gap %c0 : !ascend.local_tensor<A1, 256xf16>
// CHECK-NEXT:    ascend.data_copy %dy[%c0] -> %a1[%slot, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK-NEXT:    ascend.load3d %a1[%slot, %c0] -> %a2[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK-NEXT:    ascend.load3d %b1[%c1, %c0] -> %b2[%c0] fmap %c16, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c1, %c1, %c1, %c1 kernel [3, 3] stride [2, 2] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK-NEXT:    ascend.load2d %b1[%c1, %c0] -> %b2[%c0, %c0] repeat %c1 src_stride %c1 transpose : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK-NEXT:    ascend.load2d %a1[%slot, %c0] -> %a2[%c0, %c0] repeat %c1 src_stride %c0 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK-NEXT:    ascend.mmad %a2[%c0], %b2[%c0] -> %co1[%slot] m %c16 n %c16 k %c16 init %init : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK-NEXT:    ascend.fixpipe %co1[%slot] -> %dw[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 atomic : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
// CHECK-NEXT:    ascend.fixpipe %co1[%c1] -> %dw[%c0] m %c1 n %c16 src_stride %c16 dst_stride %c0 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>
// CHECK-NEXT:    ascend.set_flag MTE2 -> MTE1 event %c0
// CHECK-NEXT:    ascend.wait_flag MTE2 -> MTE1 event %c0
// CHECK-NEXT:    ascend.set_flag M -> FIX event %slot
// CHECK-NEXT:    ascend.wait_flag FIX -> M event %c1
// CHECK-NEXT:    ascend.pipe_barrier M
// CHECK-NEXT:    ascend.pipe_barrier ALL
// CHECK-NEXT:    %core = ascend.get_block_idx : index
// CHECK-NEXT:    "test.op"(%core) : (index) -> ()
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// GENERIC:       %a1 = "ascend.alloc_buffer"() <{slots = 2 : i64}> : () -> !ascend.local_tensor<A1, 256xf16>
// GENERIC-NEXT:  %a2 = "ascend.alloc_buffer"() <{slots = 1 : i64, offset = 512 : i64}> : () -> !ascend.local_tensor<A2, 256xf16>
// GENERIC:       "ascend.fill"(%a1, %slot, %c0, %c1, %c16, %c0) : (!ascend.local_tensor<A1, 256xf16>, index, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.data_copy"(%dy, %c0, %a1, %slot, %c0, %c1, %c16, %c0, %c0) : (!ascend.gm_tensor<NDC1HWC0, 1x16x1x4x4xf16>, index, !ascend.local_tensor<A1, 256xf16>, index, index, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.load3d"(%a1, %slot, %c0, %a2, %c0, %c1, %c16, %c16, %c0, %c16, %c0, %c16, %c0, %c0, %c0, %c0) <{kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, transpose}> : (!ascend.local_tensor<A1, 256xf16>, index, index, !ascend.local_tensor<A2, 256xf16>, index, index, index, index, index, index, index, index, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.load3d"(%b1, %c1, %c0, %b2, %c0, %c16, %c16, %c16, %c0, %c16, %c0, %c16, %c1, %c1, %c1, %c1) <{kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>}> : (!ascend.local_tensor<B1, 256xf16>, index, index, !ascend.local_tensor<B2, 256xf16>, index, index, index, index, index, index, index, index, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.load2d"(%b1, %c1, %c0, %b2, %c0, %c0, %c1, %c1) <{transpose}> : (!ascend.local_tensor<B1, 256xf16>, index, index, !ascend.local_tensor<B2, 256xf16>, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.load2d"(%a1, %slot, %c0, %a2, %c0, %c0, %c1, %c0) : (!ascend.local_tensor<A1, 256xf16>, index, index, !ascend.local_tensor<A2, 256xf16>, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.mmad"(%a2, %c0, %b2, %c0, %co1, %slot, %c16, %c16, %c16, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>}> : (!ascend.local_tensor<A2, 256xf16>, index, !ascend.local_tensor<B2, 256xf16>, index, !ascend.local_tensor<CO1, 256xf32>, index, index, index, index, i1) -> ()
// GENERIC-NEXT:  "ascend.fixpipe"(%co1, %slot, %dw, %c0, %c16, %c16, %c16, %c16) <{atomic}> : (!ascend.local_tensor<CO1, 256xf32>, index, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>, index, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.fixpipe"(%co1, %c1, %dw, %c0, %c1, %c16, %c16, %c0) : (!ascend.local_tensor<CO1, 256xf32>, index, !ascend.gm_tensor<FRACTAL_Z_3D, 16x16x1x1x1xf32>, index, index, index, index, index) -> ()
// GENERIC-NEXT:  "ascend.set_flag"(%c0) <{src = #ascend<pipe MTE2>, dst = #ascend<pipe MTE1>}> : (index) -> ()
// GENERIC-NEXT:  "ascend.wait_flag"(%c0) <{src = #ascend<pipe MTE2>, dst = #ascend<pipe MTE1>}> : (index) -> ()
// GENERIC:       "ascend.pipe_barrier"() <{pipe = #ascend<pipe M>}> : () -> ()
// GENERIC-NEXT:  "ascend.pipe_barrier"() <{pipe = #ascend<pipe ALL>}> : () -> ()
// GENERIC-NEXT:  %core = "ascend.get_block_idx"() : () -> index

// -----

// The generic form parses on its own (and prints back in the custom form).
%e = "test.op"() : () -> index
"ascend.set_flag"(%e) <{src = #ascend<pipe FIX>, dst = #ascend<pipe MTE2>}> : (index) -> ()
// CHECK:       %e = "test.op"() : () -> index
// CHECK-NEXT:  ascend.set_flag FIX -> MTE2 event %e
// GENERIC:     "ascend.set_flag"(%e) <{src = #ascend<pipe FIX>, dst = #ascend<pipe MTE2>}> : (index) -> ()

// -----

// The bias path: a bias into C1, load_bias C1 -> C2 (the bias table), the bias-init mmad.
func.func @bias(%b: !ascend.gm_tensor<ND, 32xf16>, %init: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %l1 = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C1, 32xf16>
  %bt = ascend.alloc_buffer slots 1 offset 0 : !ascend.local_tensor<C2, 32xf32>
  %a2 = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A2, 256xf16>
  %b2 = ascend.alloc_buffer slots 1 : !ascend.local_tensor<B2, 256xf16>
  %co1 = ascend.alloc_buffer slots 1 : !ascend.local_tensor<CO1, 256xf32>
  ascend.data_copy %b[%c0] -> %l1[%c0, %c0] count %c1 len %c2 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 32xf16> -> !ascend.local_tensor<C1, 32xf16>
  ascend.load_bias %l1[%c0, %c0] -> %bt[%c0] len %c1 : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<C2, 32xf32>
  ascend.mmad %a2[%c0], %b2[%c0] -> %co1[%c0] m %c16 n %c16 k %c16 init %init bias %bt[%c0] : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32> bias !ascend.local_tensor<C2, 32xf32>
  func.return
}

// CHECK-LABEL: func.func @bias(
// CHECK:         ascend.data_copy %b[%c0] -> %l1[%c0, %c0] count %c1 len %c2 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 32xf16> -> !ascend.local_tensor<C1, 32xf16>
// CHECK-NEXT:    ascend.load_bias %l1[%c0, %c0] -> %bt[%c0] len %c1 : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<C2, 32xf32>
// CHECK-NEXT:    ascend.mmad %a2[%c0], %b2[%c0] -> %co1[%c0] m %c16 n %c16 k %c16 init %init bias %bt[%c0] : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32> bias !ascend.local_tensor<C2, 32xf32>

// GENERIC:       "ascend.load_bias"(%l1, %c0, %c0, %bt, %c0, %c1) : (!ascend.local_tensor<C1, 32xf16>, index, index, !ascend.local_tensor<C2, 32xf32>, index, index) -> ()
// GENERIC-NEXT:  "ascend.mmad"(%a2, %c0, %b2, %c0, %co1, %c0, %c16, %c16, %c16, %init, %bt, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>}>
