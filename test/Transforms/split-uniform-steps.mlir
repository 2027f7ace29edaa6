// tile-split-uniform-steps runs a loop in two parts where its body branches on a uniform
// select's condition computed from the induction variable alone: the steps from the first
// while the condition holds, the branch replaced by its then-branch, then the rest as they
// were. A scalar scan finds the first step where the condition fails.
// RUN: tilecc-opt %s --tile-split-uniform-steps | FileCheck %s

// A key-block mask `j * 64 + 63 < seq`: the scan, the steps without the branch, the rest.
// CHECK-LABEL: func.func @masked_blocks
// CHECK:      %[[FIRST:.*]] = scf.while (%[[J:.*]] = %[[LB:.*]]) : (index) -> index {
// CHECK-NEXT:   %[[IN:.*]] = arith.cmpi slt, %[[J]], %[[UB:.*]] : index
// CHECK-NEXT:   %[[HOLDS:.*]] = scf.if %[[IN]] -> (i1) {
// CHECK-NEXT:     arith.index_cast %[[J]] : index to i64
// CHECK-NEXT:     arith.muli
// CHECK-NEXT:     arith.addi
// CHECK-NEXT:     %[[C:.*]] = arith.cmpi slt
// CHECK-NEXT:     scf.yield %[[C]] : i1
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:     scf.yield %[[FALSE]] : i1
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.condition(%[[HOLDS]]) %[[J]] : index
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[K:.*]]: index):
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP:.*]] : index
// CHECK-NEXT:   scf.yield %[[NEXT]] : index
// CHECK-NEXT: }
// CHECK:      %[[A:.*]] = scf.for %{{.*}} = %[[LB]] to %[[FIRST]] step %[[STEP]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32>) {
// CHECK-NOT:    arith.cmpi
// CHECK-NOT:    scf.if
// CHECK-NEXT:   %[[SUM:.*]] = arith.addf %[[ACC]], %arg0 : tensor<64xf32>
// CHECK-NEXT:   scf.yield %[[SUM]]
// CHECK-NEXT: } {tilegpu.ring_steps = 0 : i32}
// CHECK-NEXT: %[[R:.*]] = scf.for %{{.*}} = %[[FIRST]] to %[[UB]] step %[[STEP]] iter_args(%{{.*}} = %[[A]]) -> (tensor<64xf32>) {
// CHECK:        scf.if %{{.*}} -> (tensor<64xf32>) {
// CHECK:        } {tile.uniform_select}
// CHECK:      } {tilegpu.ring_steps = 0 : i32}
// CHECK-NEXT: return %[[R]]
func.func @masked_blocks(%x: tensor<64xf32>, %y: tensor<64xf32>, %lb: index, %ub: index,
                         %step: index, %seq: i64, %init: tensor<64xf32>) -> tensor<64xf32> {
  %c64 = arith.constant 64 : i64
  %c63 = arith.constant 63 : i64
  %r = scf.for %j = %lb to %ub step %step iter_args(%acc = %init) -> (tensor<64xf32>) {
    %j64 = arith.index_cast %j : index to i64
    %first = arith.muli %j64, %c64 : i64
    %last = arith.addi %first, %c63 : i64
    %all = arith.cmpi slt, %last, %seq : i64
    %s = scf.if %all -> (tensor<64xf32>) {
      scf.yield %x : tensor<64xf32>
    } else {
      scf.yield %y : tensor<64xf32>
    } {tile.uniform_select}
    %sum = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %sum : tensor<64xf32>
  } {tilegpu.ring_steps = 0 : i32}
  return %r : tensor<64xf32>
}

// A condition that reads a value the loop carries is left alone.
// CHECK-LABEL: func.func @carried_condition
// CHECK-NOT:  scf.while
// CHECK:      scf.for
// CHECK:        scf.if
// CHECK-NOT:  scf.for
func.func @carried_condition(%x: tensor<64xf32>, %y: tensor<64xf32>, %n: index,
                             %init: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant true
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init, %c = %t) -> (tensor<64xf32>, i1) {
    %s = scf.if %c -> (tensor<64xf32>) {
      scf.yield %x : tensor<64xf32>
    } else {
      scf.yield %y : tensor<64xf32>
    } {tile.uniform_select}
    %sum = arith.addf %acc, %s : tensor<64xf32>
    %f = arith.constant false
    scf.yield %sum, %f : tensor<64xf32>, i1
  }
  return %r#0 : tensor<64xf32>
}

// An scf.if that no uniform select made is left alone.
// CHECK-LABEL: func.func @plain_branch
// CHECK-NOT:  scf.while
// CHECK:      scf.for
// CHECK:        scf.if
// CHECK-NOT:  scf.for
func.func @plain_branch(%x: tensor<64xf32>, %y: tensor<64xf32>, %n: index,
                        %init: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) {
    %early = arith.cmpi slt, %j, %c4 : index
    %s = scf.if %early -> (tensor<64xf32>) {
      scf.yield %x : tensor<64xf32>
    } else {
      scf.yield %y : tensor<64xf32>
    }
    %sum = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %sum : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// A select with a second condition for the blocks past the end (all masked): the uniform steps
// take the then-branch, and the second condition, which only the dropped else-branch read, goes
// with it.
// CHECK-LABEL: func.func @all_none_or_mixed
// CHECK:      scf.while
// CHECK:      scf.for
// CHECK-NOT:    arith.cmpi
// CHECK-NOT:    arith.andi
// CHECK-NOT:    scf.if
// CHECK:        arith.addf
// CHECK:      } {tilegpu.ring_steps = 0 : i32}
// CHECK:      scf.for
// CHECK:        arith.cmpi sge
// CHECK:        scf.if
func.func @all_none_or_mixed(%x: tensor<64xf32>, %y: tensor<64xf32>, %z: tensor<64xf32>,
                             %lb: index, %ub: index, %step: index, %seq: i64,
                             %init: tensor<64xf32>) -> tensor<64xf32> {
  %c64 = arith.constant 64 : i64
  %c63 = arith.constant 63 : i64
  %r = scf.for %j = %lb to %ub step %step iter_args(%acc = %init) -> (tensor<64xf32>) {
    %j64 = arith.index_cast %j : index to i64
    %first = arith.muli %j64, %c64 : i64
    %last = arith.addi %first, %c63 : i64
    %all = arith.cmpi slt, %last, %seq : i64
    %none = arith.cmpi sge, %first, %seq : i64
    %s = scf.if %all -> (tensor<64xf32>) {
      scf.yield %x : tensor<64xf32>
    } else {
      %t = scf.if %none -> (tensor<64xf32>) {
        scf.yield %y : tensor<64xf32>
      } else {
        scf.yield %z : tensor<64xf32>
      }
      scf.yield %t : tensor<64xf32>
    } {tile.uniform_select}
    %sum = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %sum : tensor<64xf32>
  } {tilegpu.ring_steps = 0 : i32}
  return %r : tensor<64xf32>
}
