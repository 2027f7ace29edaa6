// A reduction along an axis that no warps spread, whose result is the slice of its
// operand's layout, runs in registers and shuffles alone: no shared memory, no barrier.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [2, 1], order = [1, 0]>
#S = #tilegpu.slice<dim = 1, parent = #L>
func.func @row_sum(%z: !tile.view<8xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "row_sum", tile.entry = "&::row_sum", tilegpu.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c8, %c32] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<8x32xf32, #L>
  %s = tile.reduce %t axis 1 : tensor<8x32xf32, #L> -> tensor<8xf32, #S> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.yield %c : f32
  }
  tilegpu.global_store %s, %z[%c0] bounds [%c8] {vector = 1 : i32} : tensor<8xf32, #S>, !tile.view<8xf32, exclusive>
  return
}
// The slice: one row per thread; the eight lanes along the columns hold copies.
// CHECK: using [[S:__tilecc_row_sum_L[0-9]+]] = tile_dev::Linear<tile_dev::Ix<8>, 64, tile_dev::Ix<>, tile_dev::Ix<0, 0, 0, 1, 2, 4>>;
// CHECK-NOT: __syncthreads
// CHECK: float [[P:v[0-9]+]][1]; {{.*}} tile_dev::compress(r_, 0u); if ((r_ & 3) == 0)
// CHECK-NEXT: tile_dev::shfl_xor([[P]][k_], 1)
// CHECK-NEXT: tile_dev::shfl_xor([[P]][k_], 2)
// CHECK-NEXT: tile_dev::shfl_xor([[P]][k_], 4)
// CHECK-NEXT: float [[R:v[0-9]+]][1]; {{.*}} [[R]][i_] = [[P]][i_];
// CHECK-NEXT: tile_dev::store<1, false>(arg0, {{t[0-9]+}}, [[R]],
// CHECK-NOT: __syncthreads
