// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-sm80 -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// A float GEMM's K loop runs on warpgroup mma (TF32): wgmma reads TF32 K-major only and keeps
// the top 19 bits of each float, where tile::mma rounds to nearest. The producer's copies
// round: through tensor maps of the TF32 type (the tensor memory accelerator rounds to
// nearest even as it copies), or, where a launch cannot build them, by element copies. A's
// row-major stage and B's column-major one (where B is a transposed view: the kernel's
// version for B contiguous along its first axis) go to the mma as they land; B's row-major
// stage is transposed into a column-major stage of its own first. The kernel runs on the
// default device and on the CPU backend in one process, for K that the tile divides, K that
// it cuts, and K whose rows no tensor map describes (copied element by element): the results
// agree to the float rounding of the sums (TF32 products are exact), and with one operand the
// identity, where the product is the other operand rounded to TF32, bit for bit (ties,
// carries into the exponent, both signs).
#include <tile/tile.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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

// Producer warps (threads 256 .. 383) fill the rings through tensor maps that round; the
// program's 256 threads multiply the K-major stages as they land, and transpose B's row-major
// stage after meeting (named barrier 1) where B is not transposed.
// CHECK-LABEL: {{^}}template <int Fit_> __global__ void __launch_bounds__(384, 1) __tilecc_gemm_tf32_unit_stride_2(
// CHECK: tile_dev::async_copy<4, [[SA:tile_dev::Staging<32, 0, 4, 1, 8>]], true, Fit_, true>(
// CHECK-NOT: tile_dev::restage
// CHECK: tile_dev::fence_async_shared(); tile_dev::warpgroup_mma<{{.*}}, [[SA]], [[SB:tile_dev::Staging<32, 0, 4, 1, 8, 32, 1, 64>]]>(
// CHECK: tile_dev::tensor_map<128, 32, 128, false, true>(a.args[1]);
// CHECK-SAME: tile_dev::tensor_map<64, 32, 128, true, true>(a.args[2]);
// CHECK-LABEL: {{^}}template <int Fit_> __global__ void __launch_bounds__(384, 1) __tilecc_gemm_tf32(
// CHECK: tile_dev::program_barrier<256>(); tile_dev::restage<tile_dev::Staging<64, 0, 4, 1, 8, 32, 32>, [[SB]], 32, 64, false, 256u>(
// CHECK-SAME: tile_dev::fence_async_shared(); tile_dev::program_barrier<256>();
// CHECK-NEXT: tile_dev::warpgroup_mma<{{.*}}, [[SA]], [[SB]]>(
// CHECK: tile_dev::tensor_map<32, 32, 128, false, true>(a.args[2]);

/// c = a x b on `device` for an m x k `a` and a k x n `b`, B row-major or a transposed view.
static std::vector<float> multiply(const tile::Device& device, const std::vector<float>& ha,
                                   const std::vector<float>& hb, long long m, long long n,
                                   long long k, bool bt) {
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
  return c.to_host();
}

/// Floats with every mantissa bit, or (`edges`) built to meet every case of the rounding:
/// the 13 dropped bits exactly half (a tie, the kept bits even or odd), just below and above
/// half, all ones (a carry that may reach the exponent), either sign, normal exponents.
static std::vector<float> values(size_t count, uint32_t seed, bool edges) {
  const uint32_t low[] = {0x1000u, 0x0fffu, 0x1001u, 0x1fffu, 0x0000u};
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i) {
    seed = seed * 1664525u + 1013904223u;
    if (!edges) {
      v[i] = float(int(seed >> 8) - (1 << 23)) / float(1 << 22);
      continue;
    }
    const uint32_t exponent = 100u + (seed >> 24) % 50u;
    uint32_t bits = (seed & 0x80000000u) | exponent << 23 | (seed >> 4 & 0x7fe000u) | low[i % 5];
    if (i % 7 == 0) bits |= 0x7fffffu;  // every mantissa bit set: the tie rounds up a binade
    std::memcpy(&v[i], &bits, 4);
  }
  return v;
}

/// An m x k matrix with ones on its diagonal.
static std::vector<float> identity(long long rows, long long cols) {
  std::vector<float> v(size_t(rows * cols), 0.0f);
  for (long long i = 0; i < std::min(rows, cols); ++i) v[size_t(i * cols + i)] = 1.0f;
  return v;
}

int main() {
  const tile::Device &gpu = tile::default_device(), &cpu = tile::cpu_device();
  const long long m = 256, n = 128;
  int bad = 0;
  for (long long k : {96, 100, 99})  // 99: rows of 396 bytes, which no tensor map describes
    for (bool bt : {false, true}) {
      const auto ha = values(size_t(m * k), 11, false), hb = values(size_t(k * n), 12, false);
      const auto x = multiply(gpu, ha, hb, m, n, k, bt), y = multiply(cpu, ha, hb, m, n, k, bt);
      double worst = 0;
      for (size_t i = 0; i < x.size(); ++i)
        worst = std::max(worst, double(std::fabs(x[i] - y[i])) / (1e-4 * (1 + std::fabs(y[i]))));
      std::printf("K=%lld%s: %s\n", k, bt ? " B transposed" : "", worst <= 1 ? "agree" : "DIFFER");
      bad += worst > 1;
      // I x B is B rounded to TF32 (in its first K rows), A x I is A rounded (first K columns).
      const auto edge_a = values(size_t(m * k), 13, true), edge_b = values(size_t(k * n), 14, true);
      for (bool a_rounded : {false, true}) {
        const auto& ha2 = a_rounded ? edge_a : identity(m, k);
        const auto& hb2 = a_rounded ? identity(k, n) : edge_b;
        const auto g = multiply(gpu, ha2, hb2, m, n, k, bt);
        size_t differ = 0;
        for (long long i = 0; i < m; ++i)
          for (long long j = 0; j < n; ++j) {
            const float want = a_rounded ? (j < k ? tile::detail::round_to_tf32(edge_a[size_t(i * k + j)]) : 0.0f)
                                         : (i < k ? tile::detail::round_to_tf32(edge_b[size_t(i * n + j)]) : 0.0f);
            const float got = g[size_t(i * n + j)];
            differ += want != got;  // no NaN here; +0 and -0 (sums of zeros) are one value
          }
        std::printf("K=%lld%s, %s rounded: %s\n", k, bt ? " B transposed" : "",
                    a_rounded ? "A" : "B", differ == 0 ? "bit for bit" : "DIFFER");
        bad += differ != 0;
      }
    }
  return bad;
}
// OUT: K=96: agree
// OUT-NEXT: K=96, B rounded: bit for bit
// OUT-NEXT: K=96, A rounded: bit for bit
// OUT-NEXT: K=96 B transposed: agree
// OUT-NEXT: K=96 B transposed, B rounded: bit for bit
// OUT-NEXT: K=96 B transposed, A rounded: bit for bit
// OUT-NEXT: K=100: agree
// OUT-NEXT: K=100, B rounded: bit for bit
// OUT-NEXT: K=100, A rounded: bit for bit
// OUT-NEXT: K=100 B transposed: agree
// OUT-NEXT: K=100 B transposed, B rounded: bit for bit
// OUT-NEXT: K=100 B transposed, A rounded: bit for bit
// OUT-NEXT: K=99: agree
// OUT-NEXT: K=99, B rounded: bit for bit
// OUT-NEXT: K=99, A rounded: bit for bit
// OUT-NEXT: K=99 B transposed: agree
// OUT-NEXT: K=99 B transposed, B rounded: bit for bit
// OUT-NEXT: K=99 B transposed, A rounded: bit for bit
