// A warp-specialized ring in the tilegpu dialect: memory barriers, the producer warps'
// region and the arrivals print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @ring
// CHECK: %[[FULL:.*]] = tilegpu.alloc_barriers {arrivals = 128 : i32} : <4>
// CHECK: %[[EMPTY:.*]] = tilegpu.alloc_barriers {arrivals = 4 : i32} : <4>
// CHECK: tilegpu.producer attributes {consumerRegisters = 232 : i32, registers = 40 : i32, warps = 4 : i32} {
// CHECK: tilegpu.barrier_wait %[[EMPTY]][%{{.*}}], %{{.*}} : <4>
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_copy_arrive %[[FULL]][%{{.*}}] : <4>
// CHECK: tilegpu.barrier_wait %[[FULL]][%{{.*}}], %{{.*}} : <4>
// CHECK: tilegpu.barrier_arrive %[[EMPTY]][%{{.*}}] : <4>
func.func @ring(%x: !tile.view<?x?xf16>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = tilegpu.array_dim %x, 0 : !tile.view<?x?xf16>
  %k = tilegpu.array_dim %x, 1 : !tile.view<?x?xf16>
  %ring = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x64xf16>, #S>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>
  %empty = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<4>
  tilegpu.producer attributes {warps = 4 : i32, registers = 40 : i32, consumerRegisters = 232 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c4 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<4>
      tilegpu.async_copy %x[%c0, %c0] bounds[%m, %k] into %ring[%s] {vector = 8 : i32, tile = tensor<128x64xf16, #L>} : !tile.view<?x?xf16>, !tilegpu.buffer<4, tensor<128x64xf16>, #S>
      tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<4>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    %s = arith.remui %i, %c4 : index
    tilegpu.barrier_wait %full[%s], %c0 : !tilegpu.barriers<4>
    tilegpu.barrier_arrive %empty[%s] : !tilegpu.barriers<4>
  }
  return
}
