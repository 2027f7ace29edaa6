// The add kernel end to end (tile form -> pipeline -> CUDA): layout alias, kernel with #line
// directives into the user's source, host launcher and registration.
// RUN: tilecc-translate --tile-to-cuda %s | FileCheck %s

func.func @add_128(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %y: !tile.view<?xf32>)
    attributes {tile.kernel = "add<128>", tile.source = "add.tile.cpp:5", tile.entry = "&::add<128>"} {
  %o = tile.piece_origin %z, 0 : !tile.view<128xf32, exclusive> loc("add.tile.cpp":6:13)
  %a = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32> loc("add.tile.cpp":6:13)
  %b = tile.load %y[%o] : !tile.view<?xf32> -> tensor<128xf32> loc("add.tile.cpp":7:13)
  %c = arith.addf %a, %b : tensor<128xf32> loc("add.tile.cpp":8:14)
  %c0 = arith.constant 0 : index loc("add.tile.cpp":8:5)
  tile.store %c, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive> loc("add.tile.cpp":8:5)
  return loc("add.tile.cpp":9:1)
} loc("add.tile.cpp":5:17)

// CHECK: #include <device/tile_device.cuh>
// CHECK: // add<128>: 1 warp(s), 32 threads per tile program
// CHECK-NEXT: // 4 tile programs per CUDA block of 128 threads (program = blockIdx.x * 4 + threadIdx.x / 32)
// CHECK-NEXT: // {{[0-9]+}} blocks per multiprocessor at once (at most {{[0-9]+}} registers per thread) in the whole instance
// Every access is whole when the extents are multiples of 128 and the views allow 16 bytes,
// and moves whole runs of 4 when the extents are multiples of 4.
// CHECK-NEXT: // whole instance (Fit_ = 2) when tile_dev::extent_divisible(a1_, 0, 128) && tile_dev::extent_divisible(a2_, 0, 128) && tile_dev::extent_divisible(a0_, 0, 128) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a2_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16)
// CHECK-NEXT: // runs instance (Fit_ = 1) when tile_dev::extent_divisible(a1_, 0, 4) && tile_dev::extent_divisible(a2_, 0, 4) && tile_dev::extent_divisible(a0_, 0, 4) && tile_dev::allows_vectors(a1_, 0, 16) && tile_dev::allows_vectors(a2_, 0, 16) && tile_dev::allows_vectors(a0_, 0, 16)
// CHECK-NEXT: // defined at add.tile.cpp:5
// Four consecutive elements per thread (register bits 1, 2), then 32 lanes of four.
// CHECK: using __tilecc_add_128_L0 = tile_dev::Linear<tile_dev::Ix<128>, 32, tile_dev::Ix<1, 2>, tile_dev::Ix<4, 8, 16, 32, 64>>;
// CHECK-NEXT: static_assert(__tilecc_add_128_L0::num_threads == 32 && __tilecc_add_128_L0::elems == 4, "tilecc: layout mismatch");

// The kernel: signature and prologue on the kernel's line, then one output line per source line.
// CHECK-NEXT: #line 5 "add.tile.cpp"
// CHECK-NEXT: template <int Fit_> __global__ void __launch_bounds__(128, Fit_ == 2 ? {{[0-9]+}} : 1) __tilecc_add_128(tile_dev::View<float, 1> arg0, tile_dev::View<float, 1> arg1, tile_dev::View<float, 1> arg2, tile_dev::Grid grid) {
// CHECK-SAME: const int64_t prog_ = int64_t(blockIdx.x) * 4 + threadIdx.x / 32; if (prog_ >= grid.size()) return;
// CHECK-SAME: int64_t bid_[4]; grid.decompose<1>(prog_, bid_);
// CHECK-SAME: const tile_dev::Thread<__tilecc_add_128_L0> t0((threadIdx.x % 32));
// CHECK-NEXT: const int64_t [[ID:v[0-9]+]] = bid_[0]; const int64_t [[ORIGIN:v[0-9]+]] = [[ID]] * 128; const int64_t [[NX:v[0-9]+]] = arg1.shape[0]; float [[A:v[0-9]+]][4]; tile_dev::load<4, true, true, Fit_>([[A]], arg1, t0, {[[ORIGIN]]}, {0}, {[[NX]]});
// CHECK-NEXT: const int64_t [[NY:v[0-9]+]] = arg2.shape[0]; float [[B:v[0-9]+]][4]; tile_dev::load<4, true, true, Fit_>([[B]], arg2, t0, {[[ORIGIN]]}, {0}, {[[NY]]});
// CHECK-NEXT: float [[C:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[C]][i_] = [[A]][i_] + [[B]][i_];
// CHECK-SAME: const int64_t [[END:v[0-9]+]] = [[ORIGIN]] + 128; const int64_t [[NZ:v[0-9]+]] = arg0.shape[0]; const int64_t [[BOUND:v[0-9]+]] = tile_dev::smin<int64_t>([[END]], [[NZ]]);
// CHECK-SAME: tile_dev::store<4, true, Fit_>(arg0, t0, [[C]], {[[ORIGIN]]}, {[[ORIGIN]]}, {[[BOUND]]});
// CHECK-NEXT: }

// CHECK-NEXT: static int __tilecc_launch_add_128(const tile::detail::LaunchArgs& a, void* stream) {
// CHECK-NEXT: if (a.num_args != 3) return (int)cudaErrorInvalidValue;
// CHECK-NEXT: const tile_dev::Grid grid = tile_dev::make_grid(a);
// CHECK-NEXT: if (a.grid_rank > 1 || (a.program_map && a.grid_rank != 1)) return (int)cudaErrorInvalidValue;
// CHECK-NEXT: const int64_t programs = grid.size();
// CHECK-NEXT: if (programs <= 0) return (int)cudaSuccess;
// CHECK-NEXT: const int64_t blocks = (programs + 3) / 4;
// CHECK-NEXT: if (blocks > 2147483647) return (int)cudaErrorInvalidConfiguration;
// CHECK-NEXT: const auto a0_ = tile_dev::make_view<float, 1>(a.args[0]); const auto a1_ = tile_dev::make_view<float, 1>(a.args[1]); const auto a2_ = tile_dev::make_view<float, 1>(a.args[2]);
// CHECK-NEXT: const bool whole_ = tile_dev::extent_divisible(a1_, 0, 128) && {{.*}};
// CHECK-NEXT: const bool runs_ = tile_dev::extent_divisible(a1_, 0, 4) && {{.*}};
// CHECK-NEXT: if (whole_) __tilecc_add_128<2><<<dim3((unsigned)blocks), dim3(128), 0, (cudaStream_t)stream>>>(a0_, a1_, a2_, grid);
// CHECK-NEXT: if (!whole_ && runs_) __tilecc_add_128<1><<<dim3((unsigned)blocks), dim3(128), 0, (cudaStream_t)stream>>>(a0_, a1_, a2_, grid);
// CHECK-NEXT: if (!whole_ && !runs_) __tilecc_add_128<0><<<dim3((unsigned)blocks), dim3(128), 0, (cudaStream_t)stream>>>(a0_, a1_, a2_, grid);
// CHECK-NEXT: return (int)cudaGetLastError();
// CHECK-NEXT: }
// CHECK-NEXT: static tile::detail::GpuKernelRegistration< &::add<128> > __tilecc_reg_add_128{&__tilecc_launch_add_128, {"add<128>", "add.tile.cpp:5", 32, 0}};
