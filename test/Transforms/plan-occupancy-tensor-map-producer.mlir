// A producer with a tensor-map form issues one copy per tile and keeps 40 registers per
// thread; the program's eight warps take the rest (one block per multiprocessor of 384
// threads: 168 each at launch, 168 + 128 / 2 = 232 for the program). Its element-wise form,
// for launches no tensor map describes, runs within the same 40 (and spills).
// RUN: tilecc-opt %s --tile-tensor-map-copies --tilegpu-plan-occupancy | FileCheck %s

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1], order = [1, 0]>

// CHECK-LABEL: func.func @ring
// CHECK: tilegpu.producer attributes {consumerRegisters = 232 : i32, registers = 40 : i32, warps = 4 : i32}
// CHECK: tilegpu.tensor_map_copy
func.func @ring(%x: !tile.view<?x?xbf16>, %n: index) attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %r = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  %empty = tilegpu.alloc_barriers {arrivals = 8 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c2 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<2>
      %k = arith.muli %i, %c64 : index
      %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xbf16>
      %kx = tilegpu.array_dim %x, 1 : !tile.view<?x?xbf16>
      tilegpu.async_copy %x[%c0, %k] bounds[%m, %kx] into %r[%s] {vector = 8 : i32, tile = tensor<128x64xbf16, #L>} : !tile.view<?x?xbf16>, !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<2>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    %s = arith.remui %i, %c2 : index
    tilegpu.barrier_wait %full[%s], %c0 : !tilegpu.barriers<2>
    tilegpu.barrier_arrive %empty[%s] : !tilegpu.barriers<2>
  }
  return
}
