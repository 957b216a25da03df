// RUN: ascend-opt %s --split-input-file -p ascend-cse | filecheck %s
// The same output as xDSL's cse: the same algorithm, each op's memory effects computed once.
// RUN: ascend-opt %s --split-input-file -p cse | filecheck %s

// ascend-cse (passes/cleanup.py): equal pure ops are shared, in the loop's body too (the
// constant 4 twice, x*4 three times, the two sums in the loop), and what is left unused goes.

// CHECK-LABEL: func.func @pure
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %a = arith.muli %x, %c4 : index
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      %j = arith.addi %a, %i : index
// CHECK-NEXT:      "test.op"(%j, %j) : (index, index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    "test.op"(%a, %a) : (index, index) -> ()
// CHECK-NEXT:    func.return
func.func @pure(%x : index, %n : index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c4b = arith.constant 4 : index
  %a = arith.muli %x, %c4 : index
  %b = arith.muli %x, %c4b : index
  scf.for %i = %c0 to %n step %c1 {
    %d = arith.muli %x, %c4 : index
    %j = arith.addi %d, %i : index
    %k = arith.addi %b, %i : index
    "test.op"(%j, %k) : (index, index) -> ()
  }
  "test.op"(%a, %b) : (index, index) -> ()
  func.return
}

// -----

// Memory effects: a second load with no write in between is the first; one after a store is
// not. An scf.if or scf.for has the effects of its body (RecursiveMemoryEffect, the query the
// pass memoizes): two equal pure ifs are one, a loop of pure ops whose results go unused is
// dead, a loop around an op of unknown effects stays.

// CHECK-LABEL: func.func @memory
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %l1 = memref.load %m[%c0] : memref<4xindex>
// CHECK-NEXT:    memref.store %x, %m[%c1] : memref<4xindex>
// CHECK-NEXT:    %l3 = memref.load %m[%c0] : memref<4xindex>
// CHECK-NEXT:    %r1 = scf.if %c -> (index) {
// CHECK-NEXT:      %s = arith.addi %x, %c1 : index
// CHECK-NEXT:      scf.yield %s : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %x : index
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %i = %c0 to %c4 step %c1 {
// CHECK-NEXT:      "test.op"(%i) : (index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    "test.op"(%l1, %l1, %l3, %r1, %r1) : (index, index, index, index, index) -> ()
// CHECK-NEXT:    func.return
func.func @memory(%m : memref<4xindex>, %x : index, %c : i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l1 = memref.load %m[%c0] : memref<4xindex>
  %l2 = memref.load %m[%c0] : memref<4xindex>
  memref.store %x, %m[%c1] : memref<4xindex>
  %l3 = memref.load %m[%c0] : memref<4xindex>
  %r1 = scf.if %c -> (index) {
    %s = arith.addi %x, %c1 : index
    scf.yield %s : index
  } else {
    scf.yield %x : index
  }
  %r2 = scf.if %c -> (index) {
    %s = arith.addi %x, %c1 : index
    scf.yield %s : index
  } else {
    scf.yield %x : index
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %dead = arith.muli %i, %c4 : index
  }
  scf.for %i = %c0 to %c4 step %c1 {
    "test.op"(%i) : (index) -> ()
  }
  "test.op"(%l1, %l2, %l3, %r1, %r2) : (index, index, index, index, index) -> ()
  func.return
}
