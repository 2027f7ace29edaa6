// An exchange needs the barrier before its writes only when its bytes overlap the reads of
// the exchanges before it since the last barrier, along every path. The offsets are given, as
// tilegpu-plan-shared-memory would place them.
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-place-barriers | FileCheck %s

// The first exchange of a kernel needs none; one that reuses the bytes another just read
// needs it.
// CHECK-LABEL: func.func @in_sequence
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 0 : i64}
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
func.func @in_sequence(%t: tensor<64x64xf32>) -> tensor<64xf32> {
  %s = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    tile.yield %c : f32
  }
  %r = arith.addf %s, %m : tensor<64xf32>
  return %r : tensor<64xf32>
}

// An exchange after one at other bytes needs none.
// CHECK-LABEL: func.func @apart
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 0 : i64}
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 256 : i64}
func.func @apart(%t: tensor<64x64xf32>) -> tensor<64xf32> {
  %s = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 256 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    tile.yield %c : f32
  }
  %r = arith.addf %s, %m : tensor<64xf32>
  return %r : tensor<64xf32>
}

// A loop body's exchanges at disjoint bytes: neither overlaps the other, in either order
// around the back edge.
// CHECK-LABEL: func.func @two_in_a_loop
// CHECK: scf.for
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 0 : i64}
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 256 : i64}
func.func @two_in_a_loop(%t: tensor<64x64xf32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) {
    %s = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.yield %c : f32
    }
    %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 256 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.maximumf %a, %b : f32
      tile.yield %c : f32
    }
    %sum = arith.addf %s, %m : tensor<64xf32>
    %next = arith.addf %acc, %sum : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// Alone in a loop, an exchange overlaps its own reads of the iteration before.
// CHECK-LABEL: func.func @one_in_a_loop
// CHECK: scf.for
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
func.func @one_in_a_loop(%t: tensor<64x64xf32>, %n: index) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) {
    %s = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.yield %c : f32
    }
    %next = arith.addf %acc, %s : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// An exchange after an scf.if follows either branch: here the branch's exchange reads the
// same bytes.
// CHECK-LABEL: func.func @after_a_branch
// CHECK: scf.if
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.needs_no_barrier, tilegpu.smem_offset = 0 : i64}
// CHECK: tile.reduce %{{.*}} axis 1 {tilegpu.smem_offset = 0 : i64}
func.func @after_a_branch(%t: tensor<64x64xf32>, %p: i1) -> tensor<64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %b = scf.if %p -> (tensor<64xf32>) {
    %s = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
    ^bb0(%x: f32, %y: f32):
      %c = arith.addf %x, %y : f32
      tile.yield %c : f32
    }
    scf.yield %s : tensor<64xf32>
  } else {
    scf.yield %zero : tensor<64xf32>
  }
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %c = arith.maximumf %x, %y : f32
    tile.yield %c : f32
  }
  %r = arith.addf %b, %m : tensor<64xf32>
  return %r : tensor<64xf32>
}
