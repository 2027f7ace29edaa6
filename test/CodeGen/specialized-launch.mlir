// A kernel with `tilegpu.specialization` prints as a template on `Whole_`: its `whole`
// accesses pass it to tile_dev::load/store (only the inside-or-outside test remains in the
// specialized instance), the occupancy plan bounds only that instance, and the launcher
// builds the views once, tests the facts and launches the matching instance.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @scale(%y: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %i: index, %j: index)
    attributes {tile.kernel = "scale", tile.entry = "&::scale", tilegpu.num_warps = 1 : i32,
                tilegpu.blocks_per_sm = 8 : i32,
                tilegpu.specialization = {divisible = [array<i64: 1, 0, 128>], vectors = [array<i64: 1, 0, 16>, array<i64: 0, 0, 16>]}} {
  // CHECK: // specialized when tile_dev::extent_divisible(a1_, 0, 128) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16)
  // CHECK: template <bool Whole_> __global__ void __launch_bounds__(32, Whole_ ? 8 : 1) __tilecc_scale(
  %n = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
  %m = tilegpu.array_dim %y, 0 : !tile.view<128xf32, exclusive>
  %a = tilegpu.global_load %x[%i] bounds [%n] {aligned, vector = 4 : i32, whole} : !tile.view<?xf32> -> tensor<128xf32, #L>
  // CHECK: tile_dev::load<4, true, true, Whole_>(
  %b = tilegpu.global_load %x[%j] bounds [%n] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>
  // An access that is not whole keeps every path in both instances.
  // CHECK: tile_dev::load<4, true, false>(
  %s = arith.addf %a, %b : tensor<128xf32, #L>
  tilegpu.global_store %s, %y[%i] bounds [%m] {aligned, vector = 4 : i32, whole} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  // CHECK: tile_dev::store<4, true, Whole_>(arg0,
  return
}
// CHECK: static int __tilecc_launch_scale(
// CHECK: const auto a0_ = tile_dev::make_view<float, 1>(a.args[0]); const auto a1_ = tile_dev::make_view<float, 1>(a.args[1]);
// CHECK-NEXT: const bool whole_ = tile_dev::extent_divisible(a1_, 0, 128) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16);
// CHECK-NEXT: if (whole_) __tilecc_scale<true><<<dim3((unsigned)blocks), dim3(32), 0, (cudaStream_t)stream>>>(a0_, a1_, tile_dev::scalar_arg<int64_t, int64_t>(a.args[2]), tile_dev::scalar_arg<int64_t, int64_t>(a.args[3]), grid);
// CHECK-NEXT: if (!whole_) __tilecc_scale<false><<<

// With no facts to test (every whole tile is one element), only the specialized instance
// exists.
#S = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @single(%y: !tile.view<1xf32, exclusive>, %x: !tile.view<?xf32>, %i: index)
    attributes {tile.kernel = "single", tile.entry = "&::single", tilegpu.num_warps = 1 : i32,
                tilegpu.specialization = {divisible = [], vectors = []}} {
  %n = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
  %m = tilegpu.array_dim %y, 0 : !tile.view<1xf32, exclusive>
  %a = tilegpu.global_load %x[%i] bounds [%n] {vector = 1 : i32, whole} : !tile.view<?xf32> -> tensor<1xf32, #S>
  tilegpu.global_store %a, %y[%i] bounds [%m] {vector = 1 : i32, whole} : tensor<1xf32, #S>, !tile.view<1xf32, exclusive>
  return
}
// CHECK-LABEL: static int __tilecc_launch_single(
// CHECK-NOT: whole_
// CHECK: __tilecc_single<true><<<
// CHECK-NOT: __tilecc_single<false>
// CHECK: return (int)cudaGetLastError();
