// A permute whose result layout spreads the elements over other threads stages its source in
// shared memory and reads each result register's element at tile_dev::permute_index. The
// result's lanes read down the source's columns: a swizzle of single elements, two 16-float
// rows per phase and 16 phases, puts the 16 rows a warp reads at once in distinct banks.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#S = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerBlock = [1, 1], order = [1, 0]>
#T = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [1, 1], order = [1, 0]>
func.func @transpose(%z: !tile.view<16x64xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "transpose", tile.entry = "&::transpose", tilegpu.num_warps = 1 : i32,
                tilegpu.smem_bytes = 4096 : i64} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c64, %c16] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<64x16xf32, #S>
  %p = tile.permute %t [1, 0] {tilegpu.smem_offset = 0 : i64} : tensor<64x16xf32, #S> -> tensor<16x64xf32, #T>
  tilegpu.global_store %p, %z[%c0, %c0] bounds [%c16, %c64] {vector = 4 : i32} : tensor<16x64xf32, #T>, !tile.view<16x64xf32, exclusive>
  return
}
// CHECK: __syncthreads(); float* [[S:v[0-9]+]] = tile_dev::shared_at<float>(0); tile_dev::to_shared_staged<tile_dev::Staging<16, 0, 1, 2, 16>, 1>([[S]], t0, {{v[0-9]+}}); __syncthreads();
// CHECK-NEXT: = [[S]][tile_dev::Staging<16, 0, 1, 2, 16>::offset(tile_dev::permute_index<tile_dev::Ix<64, 16>, tile_dev::Ix<1, 0>>(t1, i_))];
