// RUN: ascend-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The scf.for rules of ir/loops.py, which ascend-opt and ascend-run check after the verifier
// (xDSL 0.74's scf.for verifier has neither): a constant step must be positive (MLIR's rule),
// and a loop whose constant bounds make it empty may not hold hardware instructions. The last
// chunk is an empty loop without instructions, which is legal and prints back.

func.func @k() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c0 {
  }
  func.return
}
// CHECK: scf.for step must be positive, got 0 (a constant step <= 0)

// -----

func.func @k() {
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1 : index
  scf.for %i = %c8 to %c0 step %m1 {
  }
  func.return
}
// CHECK: scf.for step must be positive, got -1 (a constant step <= 0)

// -----

// Bounds swapped by hand: MLIR runs the loop zero times, so its flags are never set.
func.func @k() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c8 to %c0 step %c1 {
    ascend.set_flag MTE2 -> MTE1 event %c0
    ascend.wait_flag MTE2 -> MTE1 event %c0
  }
  func.return
}
// CHECK: scf.for from 8 to 0 never runs (a loop runs zero times when its lower bound is not below its upper bound; it does not count down), so the 2 hardware instructions in its body never execute

// -----

func.func @k() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c8 to %c0 step %c1 {
    %j = arith.addi %i, %c1 : index
  }
  func.return
}
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: arith.addi
