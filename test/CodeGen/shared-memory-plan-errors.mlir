// A module given to the translator is checked before its shared memory is addressed: a
// negative or oversized size, an offset outside the size, and an op that stages through
// shared memory without an offset are errors on the kernel or the op, not CUDA that writes
// outside the block's buffer.
// RUN: tilecc-translate --tilegpu-to-cuda %s -split-input-file -verify-diagnostics -o /dev/null

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [1, 2], order = [1, 0]>
#R = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>
// expected-error @+1 {{'tilegpu.smem_bytes' is -32 bytes; a block has between 0 and 232448}}
func.func @negative(%x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "negative", tile.entry = "&::negative", tilegpu.num_warps = 2 : i32,
                tilegpu.smem_bytes = -32 : i64} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.smem_bytes' is 1099511627776 bytes; a block has between 0 and 232448}}
func.func @huge(%x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "huge", tile.entry = "&::huge", tilegpu.num_warps = 2 : i32,
                tilegpu.smem_bytes = 1099511627776 : i64} {
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [1, 2], order = [1, 0]>
#R = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>
func.func @outside(%z: !tile.view<4xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "outside", tile.entry = "&::outside", tilegpu.num_warps = 2 : i32,
                tilegpu.smem_bytes = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c4, %c64] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<4x64xf32, #L>
  // expected-error @+1 {{needs 32 bytes of shared memory at offset -64, outside the kernel's 32 bytes}}
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = -64 : i64} : tensor<4x64xf32, #L> -> tensor<4xf32, #R> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  tilegpu.global_store %m, %z[%c0] bounds [%c4] {vector = 1 : i32} : tensor<4xf32, #R>, !tile.view<4xf32, exclusive>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [1, 2], order = [1, 0]>
#R = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>
func.func @unplanned(%z: !tile.view<4xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "unplanned", tile.entry = "&::unplanned", tilegpu.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c4, %c64] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<4x64xf32, #L>
  // expected-error @+1 {{needs 32 bytes of shared memory but has no 'tilegpu.smem_offset'; run tilegpu-plan-shared-memory}}
  %m = tile.reduce %t axis 1 : tensor<4x64xf32, #L> -> tensor<4xf32, #R> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  tilegpu.global_store %m, %z[%c0] bounds [%c4] {vector = 1 : i32} : tensor<4xf32, #R>, !tile.view<4xf32, exclusive>
  return
}
