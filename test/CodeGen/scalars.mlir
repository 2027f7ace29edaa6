// Scalar parameters and index arithmetic: kernel parameters of the register type, unpacked in
// the launcher from the C++ parameter type (tile.cpp_type); constants are printed inline;
// scalars are const locals.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

func.func @scalars(%z: !tile.view<?xf32, exclusive>, %a: f32 {tile.cpp_type = "float"},
                   %n: i32 {tile.cpp_type = "int"}, %m: i64 {tile.cpp_type = "std::int64_t"},
                   %u: i32 {tile.cpp_type = "unsigned"}, %flag: i1 {tile.cpp_type = "bool"},
                   %d: f64)
    attributes {tile.kernel = "scalars", tile.entry = "&::scalars", tilegpu.num_warps = 2 : i32, tilegpu.programs_per_block = 2 : i32} {
  // CHECK: __global__ void __launch_bounds__(128) __tilecc_scalars(tile_dev::View<float, 1> arg0, float arg1, int32_t arg2, int64_t arg3, int32_t arg4, bool arg5, double arg6, tile_dev::Grid grid) {
  // CHECK-SAME: const int64_t prog_ = int64_t(blockIdx.x) * 2 + threadIdx.x / 64;
  %b1 = tile.block_id 1
  %nb = tile.num_blocks 0
  // CHECK: const int64_t [[B1:v[0-9]+]] = bid_[1];
  // CHECK-NEXT: const int64_t [[NB:v[0-9]+]] = grid.num_blocks(0);
  %ni = arith.index_cast %n : i32 to index
  %p = arith.muli %b1, %ni : index
  %c7 = arith.constant 7 : index
  %q = arith.ceildivsi %p, %c7 : index
  %r = arith.remsi %q, %nb : index
  %s = arith.minsi %r, %c7 : index
  %neg = arith.constant -3 : index
  %t = arith.addi %s, %neg : index
  // CHECK-NEXT: const int64_t [[NI:v[0-9]+]] = int64_t(arg2);
  // CHECK-NEXT: const int64_t [[P:v[0-9]+]] = [[B1]] * [[NI]];
  // CHECK-NEXT: const int64_t [[Q:v[0-9]+]] = tile_dev::ceildiv<int64_t>([[P]], 7);
  // CHECK-NEXT: const int64_t [[R:v[0-9]+]] = [[Q]] % [[NB]];
  // CHECK-NEXT: const int64_t [[S:v[0-9]+]] = tile_dev::smin<int64_t>([[R]], 7);
  // CHECK-NEXT: const int64_t [[T:v[0-9]+]] = [[S]] + (-3);
  %uu = arith.divui %u, %n : i32
  %ult = arith.cmpi ult, %uu, %n : i32
  %both = arith.andi %ult, %flag : i1
  %x = arith.sitofp %n : i32 to f32
  %y = arith.uitofp %u : i32 to f32
  %w = arith.select %both, %x, %y : f32
  %v = arith.mulf %w, %a : f32
  %e = math.exp %v : f32
  %dd = arith.truncf %d : f64 to f32
  %f = arith.addf %e, %dd : f32
  // CHECK-NEXT: const int32_t [[UU:v[0-9]+]] = int32_t(uint32_t(arg4) / uint32_t(arg2));
  // CHECK-NEXT: const bool [[ULT:v[0-9]+]] = uint32_t([[UU]]) < uint32_t(arg2);
  // CHECK-NEXT: const bool [[BOTH:v[0-9]+]] = [[ULT]] & arg5;
  // CHECK-NEXT: const float [[X:v[0-9]+]] = tile_dev::cvt<float>(arg2);
  // CHECK-NEXT: const float [[Y:v[0-9]+]] = tile_dev::cvt<float>(uint32_t(arg4));
  // CHECK-NEXT: const float [[W:v[0-9]+]] = [[BOTH]] ? [[X]] : [[Y]];
  // CHECK-NEXT: const float [[V:v[0-9]+]] = __fmul_rn([[W]], arg1);
  // CHECK-NEXT: const float [[E:v[0-9]+]] = tile_dev::exp([[V]]);
  // CHECK-NEXT: const float [[DD:v[0-9]+]] = tile_dev::cvt<float>(arg6);
  // CHECK-NEXT: const float [[F:v[0-9]+]] = [[E]] + [[DD]];

  // A splat of a scalar is that scalar in every element: the tile op reads it directly.
  %sp = tile.splat %f : f32 -> tensor<256xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>>
  %ld = tilegpu.global_load %z[%t] bounds [%t] {vector = 4 : i32} : !tile.view<?xf32, exclusive> -> tensor<256xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>>
  %sum = arith.addf %ld, %sp : tensor<256xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>>
  // CHECK-NEXT: float [[LD:v[0-9]+]][4]; tile_dev::load<4, false, false>([[LD]], arg0, t0, {[[T]]}, {0}, {[[T]]});
  // CHECK-NEXT: float [[SUM:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[SUM]][i_] = [[LD]][i_] + [[F]];
  %c0 = arith.constant 0 : index
  tilegpu.global_store %sum, %z[%c0] bounds [%t] {vector = 4 : i32} : tensor<256xf32, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>>, !tile.view<?xf32, exclusive>
  return
}

// The launcher converts each runtime argument from its C++ type to the kernel's.
// CHECK: const auto a0_ = tile_dev::make_view<float, 1>(a.args[0]);
// CHECK-NEXT: __tilecc_scalars<<<dim3((unsigned)blocks), dim3(128), 0, (cudaStream_t)stream>>>(a0_, tile_dev::scalar_arg<float, float>(a.args[1]), tile_dev::scalar_arg<int32_t, int>(a.args[2]), tile_dev::scalar_arg<int64_t, std::int64_t>(a.args[3]), tile_dev::scalar_arg<int32_t, unsigned>(a.args[4]), tile_dev::scalar_arg<bool, bool>(a.args[5]), tile_dev::scalar_arg<double, double>(a.args[6]), grid);
// CHECK: {"scalars", "{{.*}}scalars.mlir:{{[0-9]+}}", 64, 0}
