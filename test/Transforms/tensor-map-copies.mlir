// tile-tensor-map-copies: a producer loop whose copies read view arguments within their
// shapes gets a tensor-memory-accelerator form, run when every view's map is valid at launch:
// one map per view and stage layout at the top of the function, each step expects the bytes
// of all its copies on its `full` barrier and copies through the maps; the async copies stay
// in the other branch. Copies that read only a part of a view (starts) keep their loop.
// RUN: tilecc-opt %s --tile-tensor-map-copies | FileCheck %s

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#B = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#LA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
#LB = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1], order = [1, 0]>

// CHECK-LABEL: func.func @ring
// CHECK-NEXT: %[[MA:.*]], %[[VA:.*]] = tilegpu.tensor_map %arg0 : <?x?xbf16> -> <tensor<128x64xbf16>
// CHECK-NEXT: %[[MB:.*]], %[[VB:.*]] = tilegpu.tensor_map %arg1 : <?x?xbf16> -> <tensor<64x128xbf16>, {{.*}}block = 64>>
// CHECK: %[[RA:.*]] = tilegpu.alloc_buffer
// CHECK: %[[RB:.*]] = tilegpu.alloc_buffer
// CHECK: %[[FULL:.*]] = tilegpu.alloc_barriers {arrivals = 128 : i32}
// CHECK: tilegpu.producer
// CHECK-NEXT: %[[VALID:.*]] = arith.andi %[[VA]], %[[VB]] : i1
// CHECK-NEXT: scf.if %[[VALID]] {
// CHECK-NEXT: scf.for
// CHECK: tilegpu.barrier_wait
// The bounds of the copies go with them: the maps hold the views' extents.
// CHECK-NOT: tilegpu.array_dim
// CHECK: tilegpu.barrier_expect %[[FULL]][%[[S:.*]]] {bytes = 32768 : i64}
// CHECK-NEXT: tilegpu.tensor_map_copy %[[MA]][%{{.*}}, %[[K:.*]]] into %[[RA]][%[[S]]] arrive %[[FULL]][%[[S]]]
// CHECK-NEXT: tilegpu.tensor_map_copy %[[MB]][%[[K]], %{{.*}}] into %[[RB]][%[[S]]] arrive %[[FULL]][%[[S]]]
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.for
// CHECK: tilegpu.async_copy %arg0
// CHECK: tilegpu.async_copy %arg1
// CHECK-NEXT: tilegpu.async_copy_arrive %[[FULL]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @ring(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %ra = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
  %rb = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<64x128xbf16>, #B>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>
  %empty = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<4>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c4 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<4>
      %k = arith.muli %i, %c64 : index
      %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xbf16>
      %kx = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
      tilegpu.async_copy %x[%c0, %k] bounds[%m, %kx] into %ra[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #LA>} : !tile.view<?x?xbf16>, !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
      %ky = tilegpu.array_dim %y, 0 : !tile.view<?x?xbf16>
      %ny = tilegpu.array_dim %y, 1 : !tile.view<?x?xbf16>
      tilegpu.async_copy %y[%k, %c0] bounds[%ky, %ny] into %rb[%s] {vector = 8 : i32, tile = tensor<64x128xbf16, #LB>} : !tile.view<?x?xbf16>, !tilegpu.buffer<4, tensor<64x128xbf16>, #B>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<4>
    }
  }
  return
}

// Two rings of one view with the same stages share its map.
// CHECK-LABEL: func.func @one_view_twice
// CHECK-NEXT: %[[M:.*]], %[[V:.*]] = tilegpu.tensor_map %arg0
// CHECK-NOT: tilegpu.tensor_map %
// CHECK: scf.if %[[V]] {
// CHECK: tilegpu.tensor_map_copy %[[M]]
// CHECK: tilegpu.tensor_map_copy %[[M]]
func.func @one_view_twice(%x: !tile.view<?x?xbf16>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %r0 = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
  %r1 = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c2 : index
      %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xbf16>
      %k = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
      tilegpu.async_copy %x[%c0, %i] bounds[%m, %k] into %r0[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #LA>} : !tile.view<?x?xbf16>, !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
      tilegpu.async_copy %x[%c128, %i] bounds[%m, %k] into %r1[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #LA>} : !tile.view<?x?xbf16>, !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<2>
    }
  }
  return
}

// A copy of a part of the view (its rows from %lo on) is not a copy of the view's box: the
// loop stays as it is.
// CHECK-LABEL: func.func @part_of_a_view
// CHECK-NOT: tilegpu.tensor_map
// CHECK-NOT: scf.if
// CHECK: tilegpu.async_copy %arg0[%{{.*}}] starts
func.func @part_of_a_view(%x: !tile.view<?x?xbf16>, %lo: index, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c2 : index
      %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xbf16>
      %k = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
      tilegpu.async_copy %x[%c0, %i] starts[%lo, %c0] bounds[%m, %k] into %r[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #LA>} : !tile.view<?x?xbf16>, !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<2>
    }
  }
  return
}

// Bounds that are not the view's extents (a copy clipped to fewer rows) keep the loop too.
// CHECK-LABEL: func.func @clipped_rows
// CHECK-NOT: tilegpu.tensor_map
// CHECK: tilegpu.async_copy
func.func @clipped_rows(%x: !tile.view<?x?xbf16>, %rows: index, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c2 : index
      %k = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
      tilegpu.async_copy %x[%c0, %i] bounds[%rows, %k] into %r[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #LA>} : !tile.view<?x?xbf16>, !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<2>
    }
  }
  return
}

// Copies that round floats to TF32 go through maps that round as they copy; the async copies
// of the other branch keep rounding.
#F = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
#LF = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @rounding
// CHECK-NEXT: %[[M:.*]], %{{.*}} = tilegpu.tensor_map %arg0 : <?x?xf32> -> <tensor<128x32xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>, tf32>
// CHECK: tilegpu.tensor_map_copy %[[M]]
// CHECK: } else {
// CHECK: tilegpu.async_copy %arg0{{.*}}round_tf32
func.func @rounding(%x: !tile.view<?x?xf32>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %ra = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x32xf32>, #F>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>
  %empty = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<4>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c4 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<4>
      %k = arith.muli %i, %c32 : index
      %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xf32>
      %kx = tilegpu.array_dim %x, 1 : !tile.view<?x?xf32>
      tilegpu.async_copy %x[%c0, %k] bounds[%m, %kx] into %ra[%s] {round_tf32, vector = 4 : i32, tile = tensor<128x32xf32, #LF>} : !tile.view<?x?xf32>, !tilegpu.buffer<4, tensor<128x32xf32>, #F>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<4>
    }
  }
  return
}
