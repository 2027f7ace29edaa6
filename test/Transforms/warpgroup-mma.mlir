// tile-warpgroup-mma: an mma whose operands both come from ring stages wgmma can address
// reads them in place (tilegpu.warpgroup_mma, waited for by tilegpu.warpgroup_wait where the
// mma was); its accumulator takes the layout of the program's warps stacked along M and the
// loop carries it so. The stages are fenced for the async proxy: before the barrier that
// publishes them where the program copies them itself, after the wait on the stage's `full`
// barrier where producer warps do.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands --tile-warpgroup-mma | FileCheck %s

// A K loop of the function body: producer warps fill the ring. B's rows of 256 bytes are
// stored in blocks of 64 elements (128-byte swizzle rows). Each step's mma stays in flight
// into the next step, which then frees the stage it read.
// CHECK-LABEL: func.func @gemm
// CHECK: %[[RA:.*]] = tilegpu.alloc_buffer : <[[N:[0-9]]], tensor<128x64xf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK: %[[RB:.*]] = tilegpu.alloc_buffer : <[[N]], tensor<64x128xf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>>
// CHECK: %[[FULL:.*]] = tilegpu.alloc_barriers {arrivals = 128 : i32}
// CHECK: %[[EMPTY:.*]] = tilegpu.alloc_barriers {arrivals = 4 : i32}
// CHECK: tilegpu.producer
// CHECK: %[[INIT:.*]] = tilegpu.warpgroup_wait %{{.*}} {pending = 0 : i32}
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]], %{{.*}} = %{{.*}}) -> (tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [4, 1]>>, index)
// CHECK: %[[S:.*]] = arith.remui
// CHECK: tilegpu.barrier_wait %[[FULL]][%[[S]]]
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: %[[P:.*]] = tilegpu.warpgroup_mma %[[RA]][%[[S]]], %[[RB]][%[[S]]], %[[ACC]] : {{.*}} -> tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [4, 1]>>
// CHECK-NEXT: %[[R:.*]] = tilegpu.warpgroup_wait %[[P]] {pending = 1 : i32}
// CHECK-NOT: tilegpu.local_load
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.barrier_arrive %[[EMPTY]]
// CHECK: scf.yield %[[R]]
// CHECK-NEXT: } {tilegpu.mma_in_flight, tilegpu.ring_steps = 1 : i32}
// CHECK-NEXT: %[[DONE:.*]] = tilegpu.warpgroup_wait %{{.*}} {pending = 0 : i32}
// CHECK-NOT: tilegpu.mma %
// CHECK: tilegpu.convert_layout %[[DONE]]
func.func @gemm(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c64 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf16> -> tensor<128x64xf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf16> -> tensor<64x128xf16>
    %c = tile.mma %a, %b, %acc : tensor<128x64xf16>, tensor<64x128xf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// A K loop inside control flow: the program's warps copy its ring themselves. Five stages:
// copies run three steps ahead (not four), so the stage of step i - 1 stays untouched during
// step i while that step's mma may still read it; one group stays in flight into the next
// step and the last is waited for after the loop. Each step waits for its copies, fences
// them for the async proxy and meets the other threads.
// CHECK-LABEL: func.func @deep_ring
// CHECK: %[[RA:.*]] = tilegpu.alloc_buffer : <5, tensor<64x64xbf16>
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]]
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]]
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]]
// CHECK-NOT: tilegpu.async_copy %{{.*}} into %[[RA]]
// CHECK: %[[INIT:.*]] = tilegpu.warpgroup_wait %{{.*}} {pending = 0 : i32}
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]])
// CHECK: tilegpu.async_wait {pending = 2 : i32}
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: %[[S:.*]] = arith.remui
// Issued before the copies of a later step, waited for after them.
// CHECK-NEXT: %[[P:.*]] = tilegpu.warpgroup_mma %[[RA]][%[[S]]]
// CHECK-NOT: tilegpu.local_load
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_copy
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: %[[R:.*]] = tilegpu.warpgroup_wait %[[P]] {pending = 1 : i32}
// CHECK-NEXT: scf.yield %[[R]]
// CHECK-NEXT: } {tilegpu.mma_in_flight}
// CHECK-NEXT: %[[DONE:.*]] = tilegpu.warpgroup_wait %{{.*}} {pending = 0 : i32}
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: scf.yield %[[DONE]] : tensor<64x64xf32, #tilegpu.mma<warpsPerBlock = [4, 1]>>
func.func @deep_ring(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %n: index) -> tensor<64x64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<64x64xf32>
  %any = arith.cmpi sgt, %n, %c0 : index
  %r = scf.if %any -> (tensor<64x64xf32>) {
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32>) {
      %k = arith.muli %i, %c64 : index
      %a = tile.load %x[%c0, %k] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
      %b = tile.load %y[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
      %c = tile.mma %a, %b, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      scf.yield %c : tensor<64x64xf32>
    }
    scf.yield %s : tensor<64x64xf32>
  } else {
    scf.yield %init : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// Eight warps stack 128 rows: a 64-row accumulator keeps mma.sync, and its ring copies run
// stages - 1 steps ahead.
// CHECK-LABEL: func.func @short_m
// CHECK-NOT: warpgroup_mma
// CHECK: tilegpu.async_wait {pending = 2 : i32}
// CHECK: tilegpu.local_load
// CHECK: tilegpu.mma
func.func @short_m(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %n: index) -> tensor<64x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0.0> : tensor<64x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x128xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
    %c = tile.mma %a, %b, %acc : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32> -> tensor<64x128xf32>
    scf.yield %c : tensor<64x128xf32>
  }
  return %r : tensor<64x128xf32>
}

// Two warps are half a warpgroup: mma.sync.
// CHECK-LABEL: func.func @two_warps
// CHECK-NOT: warpgroup_mma
// CHECK: tilegpu.mma
func.func @two_warps(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<64x64xf32>
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

// An mma whose B operand is computed in registers keeps mma.sync; its A ring stays read by
// ldmatrix.
// CHECK-LABEL: func.func @scaled_b
// CHECK-NOT: warpgroup_mma
// CHECK: tilegpu.mma
func.func @scaled_b(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<128x64xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %two = arith.constant dense<2.0> : tensor<32x64xf16>
  %init = arith.constant dense<0.0> : tensor<128x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x64xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf16> -> tensor<128x32xf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf16> -> tensor<32x64xf16>
    %b2 = arith.mulf %b, %two : tensor<32x64xf16>
    %c = tile.mma %a, %b2, %acc : tensor<128x32xf16>, tensor<32x64xf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    scf.yield %c : tensor<128x64xf32>
  }
  return %r : tensor<128x64xf32>
}
