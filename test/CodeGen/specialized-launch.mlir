// A kernel with `tilegpu.specialization` prints as a template on `int Fit_`: its `whole` and
// `runs` accesses pass their fit to tile_dev::load/store (only the inside-or-outside test
// remains in the whole instance, one predicated vector per run in the runs one), the
// occupancy plan bounds the whole instance, and the runs one too where the plan says so
// (`tilegpu.runs_bounded`: the bound leaves 128 registers per thread or more), and the
// launcher builds the views once,
// tests the facts and launches the highest instance whose facts hold.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @scale(%y: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %i: index, %j: index)
    attributes {tile.kernel = "scale", tile.entry = "&::scale", tilegpu.num_warps = 1 : i32,
                tilegpu.blocks_per_sm = 8 : i32, tilegpu.runs_bounded,
                tilegpu.specialization = {divisible = [array<i64: 1, 0, 128>], vectors = [array<i64: 1, 0, 16>, array<i64: 0, 0, 16>]}} {
  // CHECK: // whole instance (Fit_ = 2) when tile_dev::extent_divisible(a1_, 0, 128) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16)
  // CHECK-NOT: runs instance
  // CHECK: template <int Fit_> __global__ void __launch_bounds__(32, Fit_ >= 1 ? 8 : 1) __tilecc_scale(
  %n = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
  %m = tilegpu.array_dim %y, 0 : !tile.view<128xf32, exclusive>
  %a = tilegpu.global_load %x[%i] bounds [%n] {aligned, vector = 4 : i32, whole} : !tile.view<?xf32> -> tensor<128xf32, #L>
  // A whole access without runs facts is whole in the whole instance and general otherwise.
  // CHECK: tile_dev::load<4, true, true, tile_dev::fit_whole(Fit_)>(
  %b = tilegpu.global_load %x[%j] bounds [%n] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>
  // An access that is not whole keeps every path in both instances.
  // CHECK: tile_dev::load<4, true, false>(
  %s = arith.addf %a, %b : tensor<128xf32, #L>
  tilegpu.global_store %s, %y[%i] bounds [%m] {aligned, vector = 4 : i32, whole} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  // CHECK: tile_dev::store<4, true, tile_dev::fit_whole(Fit_)>(arg0,
  return
}
// CHECK: static int __tilecc_launch_scale(
// CHECK: const auto a0_ = tile_dev::make_view<float, 1>(a.args[0]); const auto a1_ = tile_dev::make_view<float, 1>(a.args[1]);
// CHECK-NEXT: const bool whole_ = tile_dev::extent_divisible(a1_, 0, 128) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16);
// CHECK-NEXT: if (whole_) __tilecc_scale<2><<<dim3((unsigned)blocks), dim3(32), 0, (cudaStream_t)stream>>>(a0_, a1_, tile_dev::scalar_arg<int64_t, int64_t>(a.args[2]), tile_dev::scalar_arg<int64_t, int64_t>(a.args[3]), grid);
// CHECK-NEXT: if (!whole_) __tilecc_scale<0><<<

// Run facts (the run of 4 floats each thread moves lies inside or outside, an aligned
// vector): the whole instance needs both sets (each axis's strongest fact), the runs instance
// the run facts; an access proven for runs alone takes at most the runs fit.
func.func @runs(%y: !tile.view<?xf32, exclusive>, %x: !tile.view<?xf32>, %i: index)
    attributes {tile.kernel = "runs", tile.entry = "&::runs", tilegpu.num_warps = 1 : i32,
                tilegpu.blocks_per_sm = 32 : i32,
                tilegpu.specialization = {divisible = [array<i64: 1, 0, 128>], vectors = [array<i64: 1, 0, 16>],
                                          run_divisible = [array<i64: 1, 0, 4>, array<i64: 0, 0, 4>],
                                          run_vectors = [array<i64: 1, 0, 16>, array<i64: 0, 0, 16>]}} {
  // CHECK-LABEL: // runs: 1 warp(s)
  // CHECK: // whole instance (Fit_ = 2) when tile_dev::extent_divisible(a1_, 0, 128) && tile_dev::extent_divisible(a0_, 0, 4) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16)
  // CHECK: // runs instance (Fit_ = 1) when tile_dev::extent_divisible(a1_, 0, 4) && tile_dev::extent_divisible(a0_, 0, 4) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16)
  // A bound of 64 registers per thread is the whole instance's alone.
  // CHECK: template <int Fit_> __global__ void __launch_bounds__(32, Fit_ == 2 ? 32 : 1) __tilecc_runs(
  %n = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
  %m = tilegpu.array_dim %y, 0 : !tile.view<?xf32, exclusive>
  %a = tilegpu.global_load %x[%i] bounds [%n] {aligned, vector = 4 : i32, whole, runs} : !tile.view<?xf32> -> tensor<128xf32, #L>
  // CHECK: tile_dev::load<4, true, true, Fit_>(
  tilegpu.global_store %a, %y[%i] bounds [%m] {aligned, vector = 4 : i32, runs} : tensor<128xf32, #L>, !tile.view<?xf32, exclusive>
  // CHECK: tile_dev::store<4, true, tile_dev::fit_runs(Fit_)>(arg0,
  return
}
// CHECK-LABEL: static int __tilecc_launch_runs(
// CHECK: const bool whole_ = tile_dev::extent_divisible(a1_, 0, 128) && tile_dev::extent_divisible(a0_, 0, 4) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16);
// CHECK-NEXT: const bool runs_ = tile_dev::extent_divisible(a1_, 0, 4) && tile_dev::extent_divisible(a0_, 0, 4) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16);
// CHECK-NEXT: if (whole_) __tilecc_runs<2><<<
// CHECK-NEXT: if (!whole_ && runs_) __tilecc_runs<1><<<
// CHECK-NEXT: if (!whole_ && !runs_) __tilecc_runs<0><<<

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
// CHECK: __tilecc_single<2><<<
// CHECK-NOT: __tilecc_single<0>
// CHECK: return (int)cudaGetLastError();
