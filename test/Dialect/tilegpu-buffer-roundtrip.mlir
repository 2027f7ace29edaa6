// Ring buffers, async copies and local loads print as they parse.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

#S = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1], order = [1, 0]>
#M = #tilegpu.mma<warpsPerBlock = [2, 2]>
#A = #tilegpu.dot_operand<opIdx = 0, parent = #M, kWidth = 2>
// CHECK-LABEL: func.func @ring
func.func @ring(%x: !tile.view<?x?xf16>, %i: index, %n: index) -> tensor<64x32xf16, #A> {
  // CHECK: %[[B:.*]] = tilegpu.alloc_buffer : <3, tensor<64x32xf16>, <vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>
  %b = tilegpu.alloc_buffer : !tilegpu.buffer<3, tensor<64x32xf16>, #S>
  // CHECK: tilegpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}] bounds[%{{.*}}, %{{.*}}] into %[[B]][%{{.*}}] {aligned, tile = tensor<64x32xf16, #tilegpu.blocked<{{.*}}>>, vector = 8 : i32, whole}
  tilegpu.async_copy %x[%i, %i] bounds[%n, %n] into %b[%i] {aligned, whole, vector = 8 : i32, tile = tensor<64x32xf16, #L>} : !tile.view<?x?xf16>, !tilegpu.buffer<3, tensor<64x32xf16>, #S>
  // CHECK-NEXT: tilegpu.async_commit
  tilegpu.async_commit
  // CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
  tilegpu.async_wait {pending = 1 : i32}
  // CHECK-NEXT: tilegpu.barrier
  tilegpu.barrier
  // CHECK-NEXT: tilegpu.local_load %[[B]][%{{.*}}] : <3, tensor<64x32xf16>, {{.*}}> -> tensor<64x32xf16, #tilegpu.dot_operand<opIdx = 0
  %t = tilegpu.local_load %b[%i] : !tilegpu.buffer<3, tensor<64x32xf16>, #S> -> tensor<64x32xf16, #A>
  return %t : tensor<64x32xf16, #A>
}

// A column-major stage: the rows it stores run along the tile's first axis.
#C = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], block = 64>
// CHECK-LABEL: func.func @column_major
// CHECK: tilegpu.alloc_buffer : <4, tensor<128x256xbf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], block = 64>>
func.func @column_major() {
  %b = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x256xbf16>, #C>
  return
}
