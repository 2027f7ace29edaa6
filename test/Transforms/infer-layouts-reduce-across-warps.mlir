// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// A reduction whose axis crosses warps meets in shared memory, where its result may take
// any layout. The slice would repeat each column sum in all 8 warps; when nothing
// broadcasts the result back, it takes a layout with fewer copies, and what it feeds
// follows.

// Column sums of a bf16 tile (8 elements per thread along the rows) are stored: they take
// their shape's anchor (4 floats per thread), the layout the store wants.
// CHECK-LABEL: func.func @column_sums
// CHECK: tile.load {{.*}} -> tensor<64x128xbf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1], order = [1, 0]>>
// CHECK: tile.reduce {{.*}} -> tensor<128xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [8], order = [0]>>
// CHECK-NOT: convert_layout
// CHECK: tile.store
func.func @column_sums(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?x?xbf16>)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %f = arith.extf %t : tensor<64x128xbf16> to tensor<64x128xf32>
  %c = tile.reduce %f axis 0 : tensor<64x128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  tile.store %c, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// The same sums in f32: the anchor holds as many per thread as the slice, which stays.
// CHECK-LABEL: func.func @column_sums_f32
// CHECK: tile.reduce {{.*}} -> tensor<128xf32, #tilegpu.slice<dim = 0,
func.func @column_sums_f32(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
  %c = tile.reduce %t axis 0 : tensor<64x128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  tile.store %c, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// A loop-carried sum of column sums (P x V's accumulator in decode attention) is spread over
// the block, one sum per thread (lanes first, then warps); the store after the loop
// exchanges it once.
// CHECK-LABEL: func.func @carried_column_sums
// CHECK: tile.reduce {{.*}} -> tensor<128xf32, #tilegpu.linear<register = [], lane = {{\[}}[1], [2], [4], [8], [16]], warp = {{\[}}[32], [64], [0]]>>
// CHECK: scf.yield {{.*}} : tensor<128xf32, #tilegpu.linear<register = [], lane = {{\[}}[1], [2], [4], [8], [16]], warp = {{\[}}[32], [64], [0]]>>
// CHECK: tilegpu.convert_layout
// CHECK-NEXT: tile.store
func.func @carried_column_sums(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?x?xf32>,
                               %n: index)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<128xf32>) {
    %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %c = tile.reduce %t axis 0 : tensor<64x128xf32> -> tensor<128xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.yield %r : f32
    }
    %next = arith.addf %a, %c : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  tile.store %acc, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// Broadcast back along the reduced axis (each element minus its column's maximum), the
// result keeps the slice, which the broadcast reads in place.
// CHECK-LABEL: func.func @subtract_column_max
// CHECK: tile.reduce {{.*}} -> tensor<128xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1], order = [1, 0]>>>
// CHECK-NOT: convert_layout
// CHECK: arith.subf
func.func @subtract_column_max(%z: !tile.view<64x128xbf16, exclusive>, %x: !tile.view<?x?xbf16>)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %h = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %t = arith.extf %h : tensor<64x128xbf16> to tensor<64x128xf32>
  %m = tile.reduce %t axis 0 : tensor<64x128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    tile.yield %r : f32
  }
  %e = arith.addf %m, %m : tensor<128xf32>
  %r = tile.reshape %e : tensor<128xf32> -> tensor<1x128xf32>
  %b = tile.broadcast %r : tensor<1x128xf32> -> tensor<64x128xf32>
  %d = arith.subf %t, %b : tensor<64x128xf32>
  %y = arith.truncf %d : tensor<64x128xf32> to tensor<64x128xbf16>
  tile.store %y, %z[%c0, %c0] : tensor<64x128xbf16>, !tile.view<64x128xbf16, exclusive>
  return
}

// A reduction within warps (along the lanes) keeps its slice: its shuffles leave the result
// there, with no shared memory to read it from.
// CHECK-LABEL: func.func @row_sums
// CHECK: tile.reduce {{.*}} -> tensor<64xf32, #tilegpu.slice<dim = 1,
func.func @row_sums(%z: !tile.view<64xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
  %s = tile.reduce %t axis 1 : tensor<64x128xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  tile.store %s, %z[%c0] : tensor<64xf32>, !tile.view<64xf32, exclusive>
  return
}

// An `scf.while` carries the sums as an `scf.for` does: spread.
// CHECK-LABEL: func.func @while_carried_column_sums
// CHECK: tile.reduce {{.*}} -> tensor<128xf32, #tilegpu.linear<register = [], lane = {{\[}}[1], [2], [4], [8], [16]], warp = {{\[}}[32], [64], [0]]>>
// CHECK: scf.yield {{.*}} : index, tensor<128xf32, #tilegpu.linear<register = [], lane = {{\[}}[1], [2], [4], [8], [16]], warp = {{\[}}[32], [64], [0]]>>
func.func @while_carried_column_sums(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?x?xbf16>,
                                     %n: index)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r:2 = scf.while (%i = %c0, %a = %zero) : (index, tensor<128xf32>) -> (index, tensor<128xf32>) {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i, %a : index, tensor<128xf32>
  } do {
  ^bb0(%j: index, %b: tensor<128xf32>):
    %t = tile.load %x[%j, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %f = arith.extf %t : tensor<64x128xbf16> to tensor<64x128xf32>
    %c = tile.reduce %f axis 0 : tensor<64x128xf32> -> tensor<128xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    %next = arith.addf %b, %c : tensor<128xf32>
    %k = arith.addi %j, %c1 : index
    scf.yield %k, %next : index, tensor<128xf32>
  }
  tile.store %r#1, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}
