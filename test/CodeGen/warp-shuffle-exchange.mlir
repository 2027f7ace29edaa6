// A layout conversion whose elements stay within each warp reads every register from the lane
// that holds it with warp shuffles: no shared memory, no barrier. Here column 16 moves from a
// register to a lane bit, so the register a lane needs depends on its lane: each result
// register takes two shuffles (source registers r and r ^ 4), and each lane keeps the one its
// lane bit 1 selects.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#a = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerBlock = [2, 1], order = [1, 0]>
#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [2, 1], order = [1, 0]>
func.func @regroup(%z: !tile.view<16x32xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "regroup", tile.entry = "&::regroup", tilegpu.num_warps = 2 : i32,
                tilegpu.smem_bytes = 0 : i64} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c16, %c32] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<16x32xf32, #a>
  %p = tilegpu.convert_layout %t : tensor<16x32xf32, #a> -> tensor<16x32xf32, #b>
  tilegpu.global_store %p, %z[%c0, %c0] bounds [%c16, %c32] {vector = 4 : i32} : tensor<16x32xf32, #b>, !tile.view<16x32xf32, exclusive>
  return
}

// CHECK-NOT: __syncthreads
// CHECK-NOT: shared_at
// Source lane: lane bit 0 reads lane bit 1, lane bit 1 selects the register, rows stay.
// CHECK: const int [[LANE:v[0-9]+]] = int(tile_dev::span<tile_dev::Ix<2, 0, 4, 8, 16, 0>>(threadIdx.x));
// CHECK-SAME: const int [[PICK:v[0-9]+]] = int(tile_dev::span<tile_dev::Ix<0, 4, 0, 0, 0, 0>>(threadIdx.x));
// Result register bit 2 (column 4) is the source's lane bit 0.
// CHECK-SAME: const int from_ = [[LANE]] ^ int(tile_dev::span<tile_dev::Ix<0, 0, 1>>(i_)); const int r_ = int(tile_dev::span<tile_dev::Ix<1, 2, 0>>(i_));
// CHECK-SAME: [i_] = tile_dev::shfl({{v[0-9]+}}[r_], from_); { const float s_ = tile_dev::shfl({{v[0-9]+}}[r_ ^ 4], from_); if ([[PICK]] == 4)
// CHECK-NOT: __syncthreads
