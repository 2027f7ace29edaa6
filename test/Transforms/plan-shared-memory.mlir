// Each reduction stages its partial results in the kernel's one dynamic shared-memory buffer.
// Buffers of ops in sequence share bytes; buffers used in one loop body are live together, so
// they get disjoint offsets. The function records the total.
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-plan-shared-memory | FileCheck %s

// CHECK-LABEL: func.func @plan
// CHECK-SAME: tilegpu.smem_bytes = 512
func.func @plan(%t: tensor<64x64xf32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<64xf32>
  // Two reductions in one loop body, 256 bytes each (the layout keeps axis 1 within one warp:
  // one partial sum per row, 64 x 4 bytes), at 0 and 256.
  // CHECK: scf.for
  // CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
  // CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 256 : i64}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) {
    %s = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.yield %c : f32
    }
    %m = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.maximumf %a, %b : f32
      tile.yield %c : f32
    }
    %sum = arith.addf %s, %m : tensor<64xf32>
    %next = arith.addf %acc, %sum : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  // After the loop the bytes are free again.
  // CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
  %last = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.minimumf %a, %b : f32
    tile.yield %c : f32
  }
  %out = arith.addf %r, %last : tensor<64xf32>
  return %out : tensor<64xf32>
}

// Small buffers in sequence get disjoint bytes, so the second exchange needs no barrier before
// its writes: 256 bytes traded for a __syncthreads().
// CHECK-LABEL: func.func @small_in_sequence
// CHECK-SAME: tilegpu.smem_bytes = 512
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 256 : i64}
func.func @small_in_sequence(%t: tensor<64x64xf32>) -> tensor<64xf32> {
  %s = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %m = tile.reduce %t axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    tile.yield %c : f32
  }
  %r = arith.addf %s, %m : tensor<64xf32>
  return %r : tensor<64xf32>
}

// Large buffers in sequence share their bytes (the second exchange keeps its barrier): two
// scans down the columns of a 64 x 64 f32 tile, whose rows lie in 8 warps and 4 repeats, so
// each keeps 4 x 8 totals of each of the 64 columns (8 KiB). A scan along the rows stays in
// its warps and needs none.
// CHECK-LABEL: func.func @large_in_sequence
// CHECK-SAME: tilegpu.smem_bytes = 8192
// CHECK: tile.scan %{{.*}} axis 0 {tilegpu.smem_offset = 0 : i64}
// CHECK: tile.scan %{{.*}} axis 0 {tilegpu.smem_offset = 0 : i64}
// CHECK: tile.scan %{{.*}} axis 1 :
func.func @large_in_sequence(%t: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = tile.scan %t axis 0 : tensor<64x64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %s = tile.scan %r axis 0 : tensor<64x64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %m = tile.scan %s axis 1 : tensor<64x64xf32> -> tensor<64x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    tile.yield %c : f32
  }
  return %m : tensor<64x64xf32>
}
