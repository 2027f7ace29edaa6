// tilegpu-persistent-programs: a warp-specialized kernel runs as one block per
// multiprocessor. The program's part and the producer's ring loop are each wrapped in a loop
// over the block's programs (program_base, stepping by program_stride, below num_programs);
// the ring's step counter runs on from one program to the next in both, and the program's
// coordinates come from the program the loop visits, in a grouped order.
// RUN: tilecc-opt %s --tilegpu-persistent-programs | FileCheck %s
// A ring that would not leave room for the program's other buffers keeps the grid.
// RUN: tilecc-opt %s --tilegpu-persistent-programs=max-shared-bytes=40000 | FileCheck %s --check-prefix=SMALL

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#LA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
#ACC = #tilegpu.mma<warpsPerBlock = [4, 1]>

// CHECK-LABEL: func.func @gemm
// CHECK-SAME: tilegpu.persistent
// CHECK: %[[FIRST:.*]] = tilegpu.program_base
// CHECK-NEXT: %[[COUNT:.*]] = tilegpu.num_programs
// CHECK-NEXT: %[[STRIDE:.*]] = tilegpu.program_stride
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: tilegpu.producer
// CHECK-NEXT: %{{.*}} = scf.for %[[K:.*]] = %[[FIRST]] to %[[COUNT]] step %[[STRIDE]] iter_args(%[[STEPS:.*]] = %[[ZERO]]) -> (index) {
// The k-th program the block visits, in bands of 8 grid rows.
// CHECK-NEXT: %[[P:.*]] = tilegpu.grouped_program %[[K]] {group = 8 : i64}
// CHECK-NEXT: %[[ROW:.*]] = tilegpu.program_coord %[[P]], 0
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[ROW]]
// CHECK-NEXT: %[[RING:.*]] = scf.for {{.*}} iter_args(%[[I:.*]] = %[[STEPS]]) -> (index) {
// CHECK: tilegpu.async_copy %arg1[%[[OFF]], %{{.*}}]
// CHECK: } {tilegpu.ring_steps = 0 : i32}
// CHECK-NEXT: scf.yield %[[RING]] : index
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: %{{.*}} = scf.for %[[QK:.*]] = %[[FIRST]] to %[[COUNT]] step %[[STRIDE]] iter_args(%[[QSTEPS:.*]] = %[[ZERO]]) -> (index) {
// CHECK-NEXT: %[[Q:.*]] = tilegpu.grouped_program %[[QK]] {group = 8 : i64}
// The coordinates cloned for the producer that the program's part does not use are gone.
// CHECK-NEXT: %[[K:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[QSTEPS]])
// CHECK: } {tilegpu.ring_steps = 1 : i32}
// The epilogue's coordinates are the loop's program's too.
// CHECK: %[[STORE_ROW:.*]] = tilegpu.program_coord %[[Q]], 0
// CHECK: tilegpu.global_store
// CHECK: scf.yield %[[K]]#1 : index
// CHECK-NOT: tile.block_id
// CHECK: return
// SMALL-LABEL: func.func @gemm
// SMALL-NOT: tilegpu.persistent
// SMALL-NOT: tilegpu.program_stride
// SMALL: tile.block_id
func.func @gemm(%z: !tile.view<128x128xf32, exclusive>, %x: !tile.view<?x?xbf16>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32, #ACC>
  %row = tile.block_id 0
  %off = arith.muli %row, %c128 : index
  %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xbf16>
  %kx = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
  %ra = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>
  %empty = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<4>
  tilegpu.producer attributes {warps = 4 : i32} {
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%i = %c0) -> (index) {
      %next = arith.addi %i, %c1 : index
      %s = arith.remui %i, %c4 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<4>
      %kk = arith.muli %k, %c64 : index
      tilegpu.async_copy %x[%off, %kk] bounds[%m, %kx] into %ra[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #LA>} : !tile.view<?x?xbf16>, !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<4>
      scf.yield %next : index
    } {tilegpu.ring_steps = 0 : i32}
  }
  %acc:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %init, %i = %c0) -> (tensor<128x128xf32, #ACC>, index) {
    %next = arith.addi %i, %c1 : index
    %s = arith.remui %i, %c4 : index
    tilegpu.barrier_wait %full[%s], %c0 : !tilegpu.barriers<4>
    tilegpu.barrier_arrive %empty[%s] : !tilegpu.barriers<4>
    scf.yield %a, %next : tensor<128x128xf32, #ACC>, index
  } {tilegpu.ring_steps = 1 : i32}
  %srow = tile.block_id 0
  %soff = arith.muli %srow, %c128 : index
  %end = arith.addi %soff, %c128 : index
  tilegpu.global_store %acc#0, %z[%soff, %c0] bounds[%end, %c128] {vector = 2 : i32} : tensor<128x128xf32, #ACC>, !tile.view<128x128xf32, exclusive>
  return
}

// A kernel without producer warps keeps its grid.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: tilegpu.persistent
// CHECK: tile.block_id
func.func @plain(%z: !tile.view<128xf32, exclusive>) attributes {tilegpu.num_warps = 4 : i32} {
  %c128 = arith.constant 128 : index
  %row = tile.block_id 0
  %off = arith.muli %row, %c128 : index
  %end = arith.addi %off, %c128 : index
  %t = arith.constant dense<1.0> : tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [4], order = [0]>>
  tilegpu.global_store %t, %z[%off] bounds[%end] {vector = 1 : i32} : tensor<128xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [4], order = [0]>>, !tile.view<128xf32, exclusive>
  return
}

// A function that returns what its program computed keeps its grid (kernels return nothing).
// CHECK-LABEL: func.func @returns_a_tile
// CHECK-NOT: tilegpu.persistent
// CHECK: tile.block_id
func.func @returns_a_tile(%x: !tile.view<?x?xbf16>, %n: index) -> index attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %row = tile.block_id 0
  %off = arith.muli %row, %c128 : index
  %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xbf16>
  %kx = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
  %ra = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>
  %empty = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<4>
  tilegpu.producer attributes {warps = 4 : i32} {
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%i = %c0) -> (index) {
      %next = arith.addi %i, %c1 : index
      %s = arith.remui %i, %c4 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<4>
      tilegpu.async_copy %x[%off, %k] bounds[%m, %kx] into %ra[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #LA>} : !tile.view<?x?xbf16>, !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<4>
      scf.yield %next : index
    } {tilegpu.ring_steps = 0 : i32}
  }
  %steps = scf.for %k = %c0 to %n step %c1 iter_args(%i = %c0) -> (index) {
    %next = arith.addi %i, %c1 : index
    %s = arith.remui %i, %c4 : index
    tilegpu.barrier_wait %full[%s], %c0 : !tilegpu.barriers<4>
    tilegpu.barrier_arrive %empty[%s] : !tilegpu.barriers<4>
    scf.yield %next : index
  } {tilegpu.ring_steps = 0 : i32}
  %end = arith.addi %off, %steps : index
  return %end : index
}
