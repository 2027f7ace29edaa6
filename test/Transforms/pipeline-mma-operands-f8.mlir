// tile-pipeline-mma-operands with f8 operands: wgmma reads them K-major only. Where B's view
// is contiguous along its first axis in every launch, its stages are column-major (A's
// row-major: both K-major) and the loop runs warp-specialized; with B row-major, each step
// restages B's stage into one of two column-major stages that the warpgroup mma reads (the
// producer warps still fill the rings).
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands=max-shared-bytes=232448 --tile-warpgroup-mma | FileCheck %s

// CHECK-LABEL: func.func @gemm_f8_bt
// CHECK: %[[RA:.*]] = tilegpu.alloc_buffer : <4, tensor<128x128xf8E4M3FN>, <vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK: %[[RB:.*]] = tilegpu.alloc_buffer : <4, tensor<128x256xf8E4M3FN>, <vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1]>>
// CHECK: tilegpu.producer
// CHECK: tilegpu.warpgroup_mma %[[RA]][%{{.*}}], %[[RB]][%{{.*}}]
func.func @gemm_f8_bt(%x: !tile.view<?x?xf8E4M3FN>, %y: !tile.view<?x?xf8E4M3FN> {tilegpu.unit_stride = 0 : i64}, %n: index) -> tensor<128x256xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %init = arith.constant dense<0.0> : tensor<128x256xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x256xf32>) {
    %k = arith.muli %i, %c128 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x256xf8E4M3FN>
    %c = tile.mma %a, %b, %acc : tensor<128x128xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<128x256xf32> -> tensor<128x256xf32>
    scf.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// CHECK-LABEL: func.func @gemm_f8
// CHECK-DAG: %[[RA:.*]] = tilegpu.alloc_buffer : <{{[0-9]}}, tensor<128x128xf8E4M3FN>, <vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK-DAG: %[[RB:.*]] = tilegpu.alloc_buffer : <{{[0-9]}}, tensor<128x256xf8E4M3FN>, <vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], block = 128>>
// CHECK-DAG: %[[KB:.*]] = tilegpu.alloc_buffer : <2, tensor<128x256xf8E4M3FN>, <vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1]>>
// CHECK: tilegpu.producer
// CHECK: tilegpu.barrier{{$}}
// CHECK-NEXT: tilegpu.restage %[[RB]][%[[S:[0-9]+]]] into %[[KB]][%[[T:[0-9]+]]] :
// CHECK-NOT: round_tf32
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.warpgroup_mma %[[RA]][%[[S]]], %[[KB]][%[[T]]]
// CHECK-NOT: tilegpu.mma %
func.func @gemm_f8(%x: !tile.view<?x?xf8E4M3FN>, %y: !tile.view<?x?xf8E4M3FN>, %n: index) -> tensor<128x256xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %init = arith.constant dense<0.0> : tensor<128x256xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x256xf32>) {
    %k = arith.muli %i, %c128 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x256xf8E4M3FN>
    %c = tile.mma %a, %b, %acc : tensor<128x128xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<128x256xf32> -> tensor<128x256xf32>
    scf.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// wgmma's narrowest instruction has 16 columns: a product of 8 stays on mma.sync, its loads
// where they are.
// CHECK-LABEL: func.func @gemm_f8_narrow
// CHECK-NOT: tilegpu.alloc_buffer
// CHECK-NOT: tilegpu.warpgroup_mma
// CHECK: tilegpu.mma %
func.func @gemm_f8_narrow(%x: !tile.view<?x?xf8E4M3FN>, %y: !tile.view<?x?xf8E4M3FN> {tilegpu.unit_stride = 0 : i64}, %n: index) -> tensor<128x8xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %init = arith.constant dense<0.0> : tensor<128x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x8xf32>) {
    %k = arith.muli %i, %c128 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x8xf8E4M3FN>
    %c = tile.mma %a, %b, %acc : tensor<128x128xf8E4M3FN>, tensor<128x8xf8E4M3FN>, tensor<128x8xf32> -> tensor<128x8xf32>
    scf.yield %c : tensor<128x8xf32>
  }
  return %r : tensor<128x8xf32>
}
