// tile-pipeline-mma-operands, warp-specialized: the operand rings of a K loop whose mma a
// warpgroup runs in place, in the function body, are filled by four producer warps. Each
// producer step waits until its stage is free (the `empty` barrier; a fresh barrier's first
// wait passes), copies into it and arrives on its `full` barrier when the copies land; each
// program step waits for its stage's `full` barrier and, once its own mma is issued, frees
// the stage of the step before (whose mma may have run until then). The rings take all of
// the shared memory (one block per multiprocessor).
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands=max-shared-bytes=131072 | FileCheck %s

// CHECK-LABEL: func.func @gemm
// CHECK: %[[RA:.*]] = tilegpu.alloc_buffer : <4, tensor<128x64xbf16>
// CHECK: %[[RB:.*]] = tilegpu.alloc_buffer : <4, tensor<64x128xbf16>
// CHECK: %[[FULL:.*]] = tilegpu.alloc_barriers {arrivals = 128 : i32} : <4>
// CHECK: %[[EMPTY:.*]] = tilegpu.alloc_barriers {arrivals = 8 : i32} : <4>
// Both loops count the ring's steps in an iteration argument from 0 (tilegpu.ring_steps).
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: tilegpu.producer attributes {warps = 4 : i32} {
// CHECK-NEXT: scf.for %[[PK:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args(%[[PI:.*]] = %[[ZERO]]) -> (index) {
// CHECK: %[[PS:.*]] = arith.remui %[[PI]], %[[FOUR:.*]] : index
// CHECK: %[[PROUND:.*]] = arith.divui %[[PI]], %[[FOUR]]
// CHECK: %[[PNEXT:.*]] = arith.addi %[[PROUND]], %{{.*}} : index
// CHECK: %[[PPARITY:.*]] = arith.remui %[[PNEXT]], %[[TWO:.*]] : index
// CHECK: tilegpu.barrier_wait %[[EMPTY]][%[[PS]]], %[[PPARITY]]
// The producer copies only steps the loop runs: its bounds are not tested against the end.
// CHECK-NOT: arith.cmpi slt
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]][%[[PS]]]
// CHECK: tilegpu.async_copy %{{.*}} into %[[RB]][%[[PS]]]
// CHECK-NEXT: tilegpu.async_copy_arrive %[[FULL]][%[[PS]]]
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {tilegpu.ring_steps = 0 : i32}
// CHECK-NEXT: }
// CHECK-NOT: tilegpu.async_copy
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[I:.*]] = %{{.*}}) -> (tensor<{{.*}}>, index)
// CHECK: %[[S:.*]] = arith.remui %[[I]], %[[FOUR]]
// CHECK: %[[ROUND:.*]] = arith.divui %[[I]], %[[FOUR]]
// CHECK: %[[PARITY:.*]] = arith.remui %[[ROUND]], %[[TWO]]
// CHECK: tilegpu.barrier_wait %[[FULL]][%[[S]]], %[[PARITY]]
// CHECK-NEXT: tilegpu.local_load %[[RA]][%[[S]]]
// CHECK-NEXT: tilegpu.local_load %[[RB]][%[[S]]]
// CHECK-NOT: tilegpu.async_wait
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.mma
// CHECK: %[[STARTED:.*]] = arith.cmpi ugt, %[[I]], %{{.*}}
// CHECK-NEXT: scf.if %[[STARTED]] {
// CHECK: %[[BACK:.*]] = arith.addi %[[I]], %{{.*}}
// CHECK: %[[BEFORE:.*]] = arith.remui %[[BACK]], %[[FOUR]]
// CHECK-NEXT: tilegpu.barrier_arrive %[[EMPTY]][%[[BEFORE]]]
// CHECK: } {tilegpu.mma_in_flight, tilegpu.ring_steps = 1 : i32}
// CHECK-NOT: tilegpu.async_wait
func.func @gemm(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c64 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %c = tile.mma %a, %b, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// A load before the loop is an access the producer warps would make too: the program's
// warps copy the ring themselves, in half of the shared memory (two blocks).
// CHECK-LABEL: func.func @bias_first
// CHECK-NOT: tilegpu.producer
// CHECK: tilegpu.alloc_buffer : <2, tensor<128x64xbf16>
// CHECK: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: tilegpu.barrier
func.func @bias_first(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %z: !tile.view<?x?xf32>,
                      %n: index) -> tensor<128x128xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = tile.load %z[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c64 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %c = tile.mma %a, %b, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}
