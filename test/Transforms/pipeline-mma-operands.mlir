// tile-pipeline-mma-operands: a K loop's 16-bit mma operand loads become async copies into
// shared-memory rings, S - 1 steps ahead; each step waits for its stage, meets the other
// threads and reads it with ldmatrix (local_load) instead of loading into registers and
// converting through shared memory.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands | FileCheck %s
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands=max-shared-bytes=49152 | FileCheck %s --check-prefix=SMALL
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands=max-shared-bytes=16384 | FileCheck %s --check-prefix=ALONE
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands=max-shared-bytes=12288 | FileCheck %s --check-prefix=TINY

// CHECK-LABEL: func.func @gemm
// Rings of 4 stages (8 KiB a stage): A's 64-byte rows change phase every second row, B's
// 128-byte rows every row.
// CHECK: %[[RA:.*]] = tilegpu.alloc_buffer : <4, tensor<64x32xf16>, <vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>
// CHECK: %[[RB:.*]] = tilegpu.alloc_buffer : <4, tensor<32x64xf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// The prologue: steps 0, 1 and 2 into stages 0, 1 and 2, a group each.
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]][%[[S0:[a-z0-9_]+]]] {{.*}}vector = 8
// CHECK: tilegpu.async_copy %{{.*}} into %[[RB]][%[[S0]]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]][%[[S1:[a-z0-9_]+]]]
// CHECK: tilegpu.async_copy %{{.*}} into %[[RB]][%[[S1]]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]][%[[S2:[a-z0-9_]+]]]
// CHECK: tilegpu.async_copy %{{.*}} into %[[RB]][%[[S2]]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NOT: async_copy
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args
// CHECK: %[[I:.*]] = arith.divui
// CHECK-NEXT: tilegpu.async_wait {pending = 2 : i32}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[S:.*]] = arith.remui %[[I]], %[[FOUR:.*]] : index
// CHECK-NEXT: %[[A:.*]] = tilegpu.local_load %[[RA]][%[[S]]] {{.*}} -> tensor<64x32xf16, #tilegpu.dot_operand<opIdx = 0
// CHECK-NEXT: %[[B:.*]] = tilegpu.local_load %[[RB]][%[[S]]] {{.*}} -> tensor<32x64xf16, #tilegpu.dot_operand<opIdx = 1
// Step i + 3 into the stage step i - 1 read; past the end it reads nothing.
// CHECK-NEXT: %[[LATER:.*]] = arith.addi %[[K]], %{{.*}}
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[I]], %{{.*}}
// CHECK-NEXT: %[[NEXT:.*]] = arith.remui %[[AHEAD]], %[[FOUR]]
// CHECK: arith.cmpi slt, %[[LATER]], %[[N]]
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]][%[[NEXT]]]
// CHECK: tilegpu.async_copy %{{.*}} into %[[RB]][%[[NEXT]]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NOT: tilegpu.global_load
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tilegpu.mma %[[A]], %[[B]]
// CHECK: }
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}

// Half of 48 KiB holds 3 stages; half of 16 KiB not even 2, so the block takes all 16 KiB
// for 2 stages (one block per multiprocessor); 12 KiB holds no 2 stages: nothing changes.
// SMALL-LABEL: func.func @gemm
// SMALL: tilegpu.alloc_buffer : <3, tensor<64x32xf16>
// SMALL: tilegpu.async_wait {pending = 1 : i32}
// ALONE-LABEL: func.func @gemm
// ALONE: tilegpu.alloc_buffer : <2, tensor<64x32xf16>
// ALONE: tilegpu.async_wait {pending = 0 : i32}
// TINY-LABEL: func.func @gemm
// TINY-NOT: alloc_buffer
// TINY: tilegpu.global_load
// TINY: tilegpu.convert_layout
func.func @gemm(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<64x64xf32>
    attributes {tilegpu.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf16> -> tensor<64x32xf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf16> -> tensor<32x64xf16>
    %c = tile.mma %a, %b, %acc : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %c : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// A load of an exclusive view may see the loop's own stores: it stays, and only the shared
// operand goes through a ring (the mma can run as a warpgroup mma with A in registers, so
// producer warps fill the ring: six stages).
// CHECK-LABEL: func.func @exclusive
// CHECK: tilegpu.alloc_buffer : <6, tensor<32x64xf16>
// CHECK-NOT: alloc_buffer
// CHECK: tilegpu.producer
// CHECK: scf.for
// CHECK: tilegpu.global_load %arg0
func.func @exclusive(%x: !tile.view<?x?xf16, exclusive>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<64x64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32>) {
    %a = tile.load %x[%c0, %i] : !tile.view<?x?xf16, exclusive> -> tensor<64x32xf16>
    %b = tile.load %y[%i, %c0] : !tile.view<?x?xf16> -> tensor<32x64xf16>
    %c = tile.mma %a, %b, %acc : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %c : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
