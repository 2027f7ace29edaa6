// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-sm80 -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// A float GEMM's K loop runs on warpgroup mma (TF32): wgmma reads TF32 K-major only and keeps
// the top 19 bits of each float, where tile::mma rounds to nearest, so every step restages
// the operands: A's row-major stage is rounded in place, B's row-major stage is transposed
// into a column-major stage of its own and rounded on the way, and where B is a transposed
// view (the kernel's version for B contiguous along its first axis) its column-major stage
// is rounded in place. The kernel runs on the default device and on the CPU backend in one
// process, for K that the tile divides and K that it cuts; the results must agree to the
// float rounding of the sums (TF32 products are exact).
#include <tile/tile.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

TILE_KERNEL void gemm_tf32(tile::Tensor<float, 128, 64>& c,
                           const tile::Tensor<float, tile::dyn, tile::dyn>& a,
                           const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
  auto at = a.partition<128, 32>();
  auto bt = b.partition<32, 64>();
  tile::Tile<float, 128, 64> acc;
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, tile::block_id(1)), acc);
  c.store(acc);
}

// Producer warps (threads 256 .. 383) fill the rings; the program's 256 threads restage each
// step's stages once they are full and meet (named barrier 1) before the mma.
// CHECK-LABEL: {{^}}template <int Fit_> __global__ void __launch_bounds__(384, 1) __tilecc_gemm_tf32_unit_stride_2(
// CHECK: tile_dev::barrier_wait(v{{[0-9]+}} + v{{[0-9]+}}, v{{[0-9]+}}); tile_dev::restage<[[SA:tile_dev::Staging<32, 0, 4, 1, 8>]], [[SA]], 128, 32, true, 256u>([[A:\(v[0-9]+ \+ v[0-9]+ \* 4096\)]], [[A]], threadIdx.x);
// CHECK-SAME: tile_dev::restage<[[SB:tile_dev::Staging<32, 0, 4, 1, 8, 32, 1, 64>]], [[SB]], 32, 64, true, 256u>([[B:\(v[0-9]+ \+ v[0-9]+ \* 2048\)]], [[B]], threadIdx.x);
// CHECK-SAME: tile_dev::fence_async_shared(); tile_dev::program_barrier<256>();
// CHECK-NEXT: tile_dev::warpgroup_mma<{{.*}}, [[SA]], [[SB]]>(
// CHECK-LABEL: {{^}}template <int Fit_> __global__ void __launch_bounds__(384, 1) __tilecc_gemm_tf32(
// CHECK: tile_dev::program_barrier<256>(); tile_dev::restage<[[SA]], [[SA]], 128, 32, true, 256u>(
// CHECK-SAME: tile_dev::restage<tile_dev::Staging<64, 0, 4, 1, 8, 32, 32>, [[SB]], 32, 64, true, 256u>(
// CHECK-SAME: tile_dev::fence_async_shared(); tile_dev::program_barrier<256>();
// CHECK-NEXT: tile_dev::warpgroup_mma<{{.*}}, [[SA]], [[SB]]>(

static int run(const tile::Device& device, long long m, long long n, long long k, bool bt,
               std::vector<float>& out) {
  std::vector<float> ha(size_t(m * k)), hb(size_t(k * n));
  uint32_t s = 11;
  for (auto* v : {&ha, &hb})
    for (auto& x : *v) {
      s = s * 1664525u + 1013904223u;
      x = float(int(s >> 8) - (1 << 23)) / float(1 << 22);  // every mantissa bit
    }
  auto a = tile::from_host(ha, {m, k}, device);
  // B as a row-major K x N array, or the transpose of an N x K one holding the same values.
  std::vector<float> hbt(hb.size());
  for (long long p = 0; p < k; ++p)
    for (long long j = 0; j < n; ++j) hbt[size_t(j * k + p)] = hb[size_t(p * n + j)];
  auto b = tile::from_host(hb, {k, n}, device);
  auto w = tile::from_host(hbt, {n, k}, device);
  auto c = tile::zeros<float>({m, n}, device);
  auto bv = bt ? w.view().transpose() : b.view();
  tile::launch<gemm_tf32>(c.partition_mut<128, 64>(), a, bv).sync();
  out = c.to_host();
  return 0;
}

int main() {
  const tile::Device &gpu = tile::default_device(), &cpu = tile::cpu_device();
  int bad = 0;
  for (long long k : {96, 100})
    for (bool bt : {false, true}) {
      std::vector<float> x, y;
      run(gpu, 256, 128, k, bt, x);
      run(cpu, 256, 128, k, bt, y);
      double worst = 0;
      for (size_t i = 0; i < x.size(); ++i)
        worst = std::max(worst, double(std::fabs(x[i] - y[i])) / (1e-4 * (1 + std::fabs(y[i]))));
      std::printf("K=%lld%s: %s\n", k, bt ? " B transposed" : "", worst <= 1 ? "agree" : "DIFFER");
      bad += worst > 1;
    }
  return bad;
}
// OUT: K=96: agree
// OUT: K=96 B transposed: agree
// OUT: K=100: agree
// OUT: K=100 B transposed: agree
