// Times a tile GEMM (C = A x B, f16 inputs, f32 output; 128 x 128 tiles, K steps of 32, each
// step one tile::mma) against cuBLAS (cublasGemmEx, f16 inputs, f32 output and compute) on the
// same arrays in the same run, and checks that the two results agree.
// Usage: gemm_tflops [M N K = 4096 4096 4096] [repeats = 20]. Needs a GPU and cuBLAS.
#include <tile/tile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

template <int BM, int BN, int BK>
TILE_KERNEL void gemm(tile::Tensor<float, BM, BN>& c,
                      const tile::Tensor<tile::f16, tile::dyn, tile::dyn>& a,
                      const tile::Tensor<tile::f16, tile::dyn, tile::dyn>& b) {
  auto at = a.partition<BM, BK>();
  auto bt = b.partition<BK, BN>();
  tile::Tile<float, BM, BN> acc;
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, tile::block_id(1)), acc);
  c.store(acc);
}

template <class F>
static double median_seconds(int repeats, F f) {
  std::vector<double> t;
  for (int r = 0; r < repeats + 3; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    if (r >= 3) t.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const long long m = argc > 3 ? std::atoll(argv[1]) : 4096;
  const long long n = argc > 3 ? std::atoll(argv[2]) : 4096;
  const long long k = argc > 3 ? std::atoll(argv[3]) : 4096;
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 20;
  std::vector<tile::f16> ha(size_t(m * k)), hb(size_t(k * n));
  uint32_t seed = 1;
  for (auto* v : {&ha, &hb})
    for (auto& e : *v) {
      seed = seed * 1664525u + 1013904223u;
      e = tile::f16(float(int(seed >> 24) - 128) / 128.0f);
    }
  auto a = tile::from_host(ha, {m, k});
  auto b = tile::from_host(hb, {k, n});
  auto c = tile::zeros<float>({m, n});
  auto ref = tile::zeros<float>({m, n});

  const double tile_s = median_seconds(repeats, [&] {
    tile::launch<gemm<128, 128, 32>>(c.partition_mut<128, 128>(), a, b).sync();
  });

  cublasHandle_t handle;
  cublasCreate(&handle);
  const float alpha = 1.0f, beta = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T.
  const double cublas_s = median_seconds(repeats, [&] {
    cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), &alpha, b.data(),
                 CUDA_R_16F, int(n), a.data(), CUDA_R_16F, int(k), &beta, ref.data(), CUDA_R_32F,
                 int(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaDeviceSynchronize();
  });
  cublasDestroy(handle);

  const std::vector<float> hc = c.to_host(), hr = ref.to_host();
  double worst = 0;
  for (size_t i = 0; i < hc.size(); ++i)
    worst = std::max(worst, double(std::fabs(hc[i] - hr[i])) / (1.0 + std::fabs(hr[i])));
  const double flop = 2.0 * double(m) * double(n) * double(k);
  std::printf("gemm %lld x %lld x %lld f16 -> f32: tile %.3f ms (%.1f TFLOP/s), cuBLAS %.3f ms "
              "(%.1f TFLOP/s), tile/cuBLAS time %.2f, worst relative difference %.2e, %s\n",
              m, n, k, tile_s * 1e3, flop / tile_s / 1e12, cublas_s * 1e3,
              flop / cublas_s / 1e12, tile_s / cublas_s, worst,
              tile::default_device().name().c_str());
  return worst < 1e-3 ? 0 : 1;
}
