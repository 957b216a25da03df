// RUN: ascend-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The event-id bound of set_flag / wait_flag is the user_event_ids of the target the IR names
// in ascend.target (on the kernel, as ascend-insert-sync sets it, or on any op around it);
// hw_level_invalid.mlir has the same rules without a target, against the default hardware.

// a kernel that names its target: the bound is that target's, and the message names it
func.func @k() attributes {ascend.kernel, ascend.target = "atlas-a2-910b3"} {
  %e = arith.constant 6 : index
  ascend.set_flag MTE2 -> MTE1 event %e
  func.return
}
// CHECK: Operation does not verify: event id must be in [0, 6) on atlas-a2-910b3, got 6

// -----

// a target named on the module holds for every kernel in it
builtin.module attributes {ascend.target = "atlas-a2-910b4"} {
  func.func @k() {
    %e = arith.constant 7 : index
    ascend.wait_flag MTE1 -> M event %e
    func.return
  }
}
// CHECK: Operation does not verify: event id must be in [0, 6) on atlas-a2-910b4, got 7

// -----

// a target that is not a hardware description
func.func @k() attributes {ascend.target = "atlas-z9"} {
  %e = arith.constant 0 : index
  ascend.set_flag MTE2 -> MTE1 event %e
  func.return
}
// CHECK: Operation does not verify: ascend.target: unknown hardware 'atlas-z9' (available: atlas-a2-910b1, atlas-a2-910b2, atlas-a2-910b3, atlas-a2-910b4, atlas-a3-9362, atlas-a3-9372, atlas-a3-9381, atlas-a3-9382, atlas-a3-9391, atlas-a3-9392)

// -----

// a target that is not a name
func.func @k() attributes {ascend.target = 910} {
  %e = arith.constant 0 : index
  ascend.wait_flag MTE2 -> MTE1 event %e
  func.return
}
// CHECK: Operation does not verify: ascend.target must be a hardware name, got 910 : i64
