// RUN: not ascend-opt %s -p ascend-plan-buffers 2>&1 | filecheck %s
// RUN: not ascend-opt %s -p 'ascend-plan-buffers{hw=atlas-a9}' 2>&1 | filecheck %s --check-prefix=HW

// Each buffer fits L1 on its own, together they do not: the planner names the memory, the
// buffers and what they need against what there is.
func.func @k() {
  %a1 = ascend.alloc_buffer slots 2 : !ascend.local_tensor<A1, 65536xf16>
  %b1 = ascend.alloc_buffer slots 2 : !ascend.local_tensor<B1, 65552xf16>
  func.return
}
// CHECK: ascend-opt: error: L1 overflow in @k: buffers need 524352 B (A1 2x131072 B + B1 2x131104 B), L1 has 524288 B

// HW: ascend-opt: error: unknown hardware 'atlas-a9' (available: atlas-a2-910b1, atlas-a2-910b2, atlas-a2-910b3, atlas-a2-910b4, atlas-a3-9362, atlas-a3-9372, atlas-a3-9381, atlas-a3-9382, atlas-a3-9391, atlas-a3-9392)
