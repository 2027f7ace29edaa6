// A chain of two mmas in a loop (attention's Q K^T, then P V), the B operands from rings that
// producer warps fill (both products run as warpgroup mmas, so the loop is warp-specialized).
// Q, loaded once before the loop, goes into a buffer of one stage that the program's warps
// copy after the producer region and publish before the loop, and Q K^T runs as a warpgroup
// mma from the buffers; P, the first product's exponential cast to 16 bits, lies in the
// registers of the A operand (its conversion moves no data), and P V runs as a warpgroup mma
// with A from registers, waited for at once. Both products are waited for within the step,
// so the step frees its own stage at its end.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands --tile-warpgroup-mma | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK: %[[K:.*]] = tilegpu.alloc_buffer : <6, tensor<64x64xbf16>
// CHECK: %[[V:.*]] = tilegpu.alloc_buffer : <6, tensor<64x64xbf16>
// CHECK: %[[Q:.*]] = tilegpu.alloc_buffer : <1, tensor<128x64xbf16>
// CHECK: %[[FULL:.*]] = tilegpu.alloc_barriers {arrivals = 128 : i32} : <6>
// CHECK: %[[EMPTY:.*]] = tilegpu.alloc_barriers {arrivals = 8 : i32} : <6>
// CHECK: tilegpu.producer
// CHECK: tilegpu.async_copy %arg1{{.*}} into %[[K]][
// CHECK: tilegpu.async_copy %arg2{{.*}} into %[[V]][
// CHECK: tilegpu.async_copy_arrive %[[FULL]]
// CHECK: tilegpu.async_copy %arg0[%c0, %c0] {{.*}} into %[[Q]][%c0]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait %[[FULL]][%[[STAGE:.*]]],
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK: %[[S:.*]] = tilegpu.warpgroup_mma %[[Q]][%c0], %[[K]][%[[STAGE]]]
// CHECK: tilegpu.warpgroup_wait %[[S]] {pending = 0 : i32}
// CHECK: math.exp
// CHECK: %[[P:.*]] = arith.truncf {{.*}} to tensor<128x64xbf16, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: %[[A:.*]] = tilegpu.convert_layout %[[P]] : {{.*}} -> tensor<128x64xbf16, #tilegpu.dot_operand<opIdx = 0
// CHECK-NEXT: %[[O:.*]] = tilegpu.warpgroup_mma %[[A]], %[[V]][%[[STAGE]]]
// CHECK-NEXT: tilegpu.warpgroup_wait %[[O]] {pending = 0 : i32}
// CHECK: tilegpu.barrier_arrive %[[EMPTY]][%[[STAGE]]]
// CHECK-NEXT: scf.yield
// CHECK-NOT: tilegpu.mma %
func.func @chain(%q: !tile.view<?x?xbf16>, %k: !tile.view<?x?xbf16>, %v: !tile.view<?x?xbf16>,
                 %n: index) -> tensor<128x64xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %qt = tile.load %q[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) {
    %j = arith.muli %i, %c64 : index
    %kt = tile.load %k[%c0, %j] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %vt = tile.load %v[%j, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %s = tile.mma %qt, %kt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    %e = math.exp %s : tensor<128x64xf32>
    %p = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xbf16>
    %o = tile.mma %p, %vt, %acc : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    scf.yield %o : tensor<128x64xf32>
  }
  return %r : tensor<128x64xf32>
}

// Q computed before the loop (not a plain load) stays in registers every step reads: its
// product stays an mma.sync (a warpgroup mma never reads a loop-invariant A from registers);
// P V still runs as a warpgroup mma with A from registers.
// CHECK-LABEL: func.func @computed_q
// CHECK-NOT: alloc_buffer : <1,
// CHECK: scf.for
// CHECK: tilegpu.mma %
// CHECK: math.exp
// CHECK: tilegpu.warpgroup_mma
// CHECK-NOT: tilegpu.mma %
func.func @computed_q(%q: !tile.view<?x?xbf16>, %k: !tile.view<?x?xbf16>, %v: !tile.view<?x?xbf16>,
                      %n: index) -> tensor<128x64xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %ql = tile.load %q[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %qt = arith.addf %ql, %ql : tensor<128x64xbf16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) {
    %j = arith.muli %i, %c64 : index
    %kt = tile.load %k[%c0, %j] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %vt = tile.load %v[%j, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %s = tile.mma %qt, %kt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    %e = math.exp %s : tensor<128x64xf32>
    %p = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xbf16>
    %o = tile.mma %p, %vt, %acc : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    scf.yield %o : tensor<128x64xf32>
  }
  return %r : tensor<128x64xf32>
}
