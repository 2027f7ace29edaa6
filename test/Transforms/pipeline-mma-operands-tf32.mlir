// tile-pipeline-mma-operands with f32 operands (multiplied as TF32): wgmma reads them K-major
// only and takes the top 19 bits of each float, where tile::mma rounds to nearest. In a loop
// that producer warps fill, whose copies a tensor map may make, the copies round
// (`round_tf32`: the map rounds as it copies): a K-major ring needs nothing more, and a ring
// stored the other way (B row-major) is transposed into one of two K-major stages after the
// program's warps meet (another warpgroup's mma of two steps before may still read that
// stage). Where the program's warps copy (a load before the loop), each step restages the
// stages once they are full: in place, rounded, where the ring is already K-major. The fence
// and a barrier publish a restage's writes to the warpgroup mma.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands=max-shared-bytes=232448 --tile-warpgroup-mma | FileCheck %s

// CHECK-LABEL: func.func @gemm_tf32_bt
// CHECK-DAG: %[[RA:.*]] = tilegpu.alloc_buffer : <6, tensor<128x32xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK-DAG: %[[RB:.*]] = tilegpu.alloc_buffer : <6, tensor<32x128xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]>>
// CHECK: tilegpu.producer
// CHECK: tilegpu.async_copy %arg0{{.*}} into %[[RA]]{{.*}}round_tf32
// CHECK: tilegpu.async_copy %arg1{{.*}} into %[[RB]]{{.*}}round_tf32
// CHECK-NOT: tilegpu.restage
// CHECK-NOT: tilegpu.barrier{{$}}
// CHECK: tilegpu.barrier_wait
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.warpgroup_mma %[[RA]][%[[S:[0-9]+]]], %[[RB]][%[[S]]]
// CHECK-NOT: tilegpu.mma %
func.func @gemm_tf32_bt(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32> {tilegpu.unit_stride = 0 : i64}, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32>
    %c = tile.mma %a, %b, %acc : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// CHECK-LABEL: func.func @gemm_tf32
// CHECK-DAG: %[[RA:.*]] = tilegpu.alloc_buffer : <{{[0-9]}}, tensor<128x32xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK-DAG: %[[RB:.*]] = tilegpu.alloc_buffer : <{{[0-9]}}, tensor<32x128xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], block = 32>>
// CHECK-DAG: %[[KB:.*]] = tilegpu.alloc_buffer : <2, tensor<32x128xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]>>
// CHECK: tilegpu.producer
// CHECK: tilegpu.async_copy %arg0{{.*}} into %[[RA]]{{.*}}round_tf32
// CHECK: tilegpu.async_copy %arg1{{.*}} into %[[RB]]{{.*}}round_tf32
// CHECK: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.restage %[[RB]][%[[S:[0-9]+]]] into %[[KB]][%[[T:[0-9]+]]] :
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.warpgroup_mma %[[RA]][%[[S]]], %[[KB]][%[[T]]]
// CHECK-NOT: tilegpu.mma %
func.func @gemm_tf32(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32>
    %c = tile.mma %a, %b, %acc : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// A load before the loop keeps the program's warps copying their own rings (cp.async, which
// cannot round): each step rounds A's stage in place and B's on its way to the K-major stage.
// CHECK-LABEL: func.func @gemm_tf32_bias
// CHECK-NOT: tilegpu.producer
// CHECK: tilegpu.async_copy
// CHECK-NOT: round_tf32
// CHECK: tilegpu.async_wait
// CHECK-NEXT: tilegpu.barrier{{$}}
// CHECK: tilegpu.restage %[[RA:[0-9]+]][%[[S:[0-9]+]]] into %[[RA]][%[[S]]] {round_tf32}
// CHECK-NEXT: tilegpu.restage %{{[0-9]+}}[%[[S]]] into %{{[0-9]+}}[%{{[0-9]+}}] {round_tf32}
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.warpgroup_mma
func.func @gemm_tf32_bias(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %z: !tile.view<?x?xf32>, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bias = tile.load %z[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x128xf32>
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32>
    %c = tile.mma %a, %b, %acc : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  %s = arith.addf %r, %bias : tensor<128x128xf32>
  return %s : tensor<128x128xf32>
}

// One warp is no warpgroup: the f32 operands of an mma that stays on mma.sync keep their
// loads in the loop, with no ring and no restaging.
// CHECK-LABEL: func.func @mma_sync_tf32
// CHECK-NOT: tilegpu.alloc_buffer
// CHECK-NOT: tilegpu.restage
// CHECK: tilegpu.mma
func.func @mma_sync_tf32(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) -> tensor<16x64xf32>
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0.0> : tensor<16x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16x64xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf32> -> tensor<16x32xf32>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf32> -> tensor<32x64xf32>
    %c = tile.mma %a, %b, %acc : tensor<16x32xf32>, tensor<32x64xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
    scf.yield %c : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}
