// tilegpu-persistent-programs counts the buffers of the program's part with the rings: here
// 64 KB of ring and the 32 KB stages of a store through a tensor map (whole multiples of the
// 1024-byte alignment), the barriers, and one alignment of slack after them: 99424 bytes.
// RUN: tilecc-opt %s --tilegpu-persistent-programs=max-shared-bytes=99424 | FileCheck %s
// RUN: tilecc-opt %s --tilegpu-persistent-programs=max-shared-bytes=99423 | FileCheck %s --check-prefix=SMALL

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
#LA = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1], order = [1, 0]>
#ACC = #tilegpu.mma<warpsPerBlock = [8, 1]>

// CHECK-LABEL: func.func @gemm
// CHECK-SAME: tilegpu.persistent
// CHECK: tilegpu.producer
// CHECK: scf.for
// The program's part, its stages and store among it, loops over the block's programs.
// CHECK: scf.for
// CHECK: tilegpu.alloc_buffer : <2, tensor<128x32xf32>
// CHECK: tilegpu.tensor_map_store
// CHECK: scf.yield
// SMALL-LABEL: func.func @gemm
// SMALL-NOT: tilegpu.persistent
// SMALL: tile.block_id
func.func @gemm(%z: !tile.view<?x?xf32, exclusive>, %x: !tile.view<?x?xbf16>, %n: index) attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %init = arith.constant dense<0.0> : tensor<128x256xf32, #ACC>
  %map, %valid = tilegpu.tensor_map %z : !tile.view<?x?xf32, exclusive> -> !tilegpu.tensor_map<tensor<128x32xf32>, #C>
  %row = tile.block_id 0
  %off = arith.muli %row, %c128 : index
  %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xbf16>
  %kx = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
  %ra = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>
  %empty = tilegpu.alloc_barriers {arrivals = 8 : i32} : !tilegpu.barriers<4>
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
  %acc:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %init, %i = %c0) -> (tensor<128x256xf32, #ACC>, index) {
    %next = arith.addi %i, %c1 : index
    %s = arith.remui %i, %c4 : index
    tilegpu.barrier_wait %full[%s], %c0 : !tilegpu.barriers<4>
    tilegpu.barrier_arrive %empty[%s] : !tilegpu.barriers<4>
    scf.yield %a, %next : tensor<128x256xf32, #ACC>, index
  } {tilegpu.ring_steps = 1 : i32}
  %srow = tile.block_id 0
  %soff = arith.muli %srow, %c128 : index
  %stages = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  scf.if %valid {
    tilegpu.tensor_map_store %acc#0, %map[%soff, %c0] through %stages : tensor<128x256xf32, #ACC>, !tilegpu.tensor_map<tensor<128x32xf32>, #C>, !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  }
  return
}
