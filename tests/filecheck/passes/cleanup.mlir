// RUN: ascend-opt %s --split-input-file -p ascend-canonicalize | filecheck %s
// The same output as xDSL's canonicalize, whichever way the pass takes.
// RUN: ascend-opt %s --split-input-file -p canonicalize | filecheck %s

// ascend-canonicalize (passes/cleanup.py): no pattern can fire here (a multiple of 4, a
// seven-trip loop, a condition that is not constant), so only the dead index arithmetic goes.

// CHECK-LABEL: func.func @dead_only
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c7 = arith.constant 7 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %base = arith.muli %x, %c4 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c7 step %c1 {
// CHECK-NEXT:      %j = arith.addi %base, %i : index
// CHECK-NEXT:      %in = arith.cmpi slt, %j, %x : index
// CHECK-NEXT:      scf.if %in {
// CHECK-NEXT:        "test.op"(%j) : (index) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @dead_only(%x : index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %dead = arith.floordivsi %x, %c16 : index
  %base = arith.muli %x, %c4 : index
  scf.for %i = %c0 to %c7 step %c1 {
    %j = arith.addi %base, %i : index
    %unused = arith.muli %j, %c16 : index
    %in = arith.cmpi slt, %j, %x : index
    scf.if %in {
      "test.op"(%j) : (index) -> ()
    }
  }
  func.return
}

// -----

// A division by one and a one-trip loop: patterns fire, so the pass is xDSL's canonicalize.

// CHECK-LABEL: func.func @patterns_fire
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    "test.op"(%x) : (index) -> ()
// CHECK-NEXT:    "test.op"(%c0) : (index) -> ()
// CHECK-NEXT:    func.return
func.func @patterns_fire(%x : index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %q = arith.floordivsi %x, %c1 : index
  "test.op"(%q) : (index) -> ()
  scf.for %i = %c0 to %c1 step %c1 {
    "test.op"(%i) : (index) -> ()
  }
  func.return
}
