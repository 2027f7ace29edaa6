// Times tile GEMMs (C = A x B, f16, bf16 or float inputs, f32 output; each K step one
// tile::mma, float inputs multiplied as TF32) against cuBLAS (cublasGemmEx, the same inputs,
// f32 output and compute, TF32 for float inputs) on the same arrays in the same run, after checking that every element of the two results agrees; where the tiles
// divide the shape, also the same kernel as TILE_UNSAFE code with unchecked loads (its result
// must be the same bits).
// With `bt`, B is the transpose of an N x K array (`bn.transpose()`, as a linear layer's weight
// is stored), and cuBLAS multiplies by that array transposed.
// Usage: gemm_tflops [f16|bf16|tf32] [M N K = 4096 4096 4096] [repeats = 20] [bt]. Needs a GPU
// and cuBLAS. Prints one line per tile shape (tiles of the same bytes along K for every type).
#include <tile/tile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

template <class T, int BM, int BN, int BK>
TILE_KERNEL void gemm(tile::Tensor<float, BM, BN>& c,
                      const tile::Tensor<T, tile::dyn, tile::dyn>& a,
                      const tile::Tensor<T, tile::dyn, tile::dyn>& b) {
  auto at = a.template partition<BM, BK>();
  auto bt = b.template partition<BK, BN>();
  tile::Tile<float, BM, BN> acc;
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, tile::block_id(1)), acc);
  c.store(acc);
}

/// The same GEMM without bounds handling (the TILE_UNSAFE comparison): valid only where the
/// tiles divide M, N and K.
template <class T, int BM, int BN, int BK>
TILE_KERNEL TILE_UNSAFE void gemm_unchecked(tile::Tensor<float, BM, BN>& c,
                                            const tile::Tensor<T, tile::dyn, tile::dyn>& a,
                                            const tile::Tensor<T, tile::dyn, tile::dyn>& b) {
  auto at = a.template partition<BM, BK>();
  auto bt = b.template partition<BK, BN>();
  tile::Tile<float, BM, BN> acc;
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(tile::unchecked::load(at, tile::block_id(0), k),
                    tile::unchecked::load(bt, k, tile::block_id(1)), acc);
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

/// A and B of every run: values k / 128 for integers k in [-128, 128), from one seed.
template <class T>
static void random_inputs(std::vector<T>& ha, std::vector<T>& hb) {
  uint32_t seed = 1;
  for (auto* v : {&ha, &hb})
    for (auto& e : *v) {
      seed = seed * 1664525u + 1013904223u;
      e = T(float(int(seed >> 24) - 128) / 128.0f);
    }
}

/// Times gemm<T, BM, BN, BK> and cuBLAS on the same inputs; returns false on a mismatch.
template <class T, int BM, int BN, int BK>
static bool compare(const char* type, long long m, long long n, long long k, int repeats,
                    bool bt) {
  std::vector<T> ha(size_t(m * k)), hb(size_t(k * n));
  random_inputs(ha, hb);
  auto a = tile::from_host(ha, {m, k});
  // B is K x N: a row-major array, or the transpose of an N x K one.
  auto bk = bt ? tile::from_host(hb, {n, k}) : tile::from_host(hb, {k, n});
  auto b = [&] { return bt ? bk.view().transpose() : bk.view(); };
  auto c = tile::zeros<float>({m, n});
  auto ref = tile::zeros<float>({m, n});

  const double tile_s = median_seconds(repeats, [&] {
    tile::launch<gemm<T, BM, BN, BK>>(c.template partition_mut<BM, BN>(), a, b()).sync();
  });
  // The unchecked kernel, where the tiles divide the shape: its time over the safe one's.
  double unchecked_s = 0;
  if (m % BM == 0 && n % BN == 0 && k % BK == 0) {
    auto cu = tile::zeros<float>({m, n});
    unchecked_s = median_seconds(repeats, [&] {
      tile::launch<gemm_unchecked<T, BM, BN, BK>>(cu.template partition_mut<BM, BN>(), a, b()).sync();
    });
    if (cu.to_host() != c.to_host()) {
      std::printf("gemm %lld x %lld x %lld %s: the unchecked kernel's result differs\n", m, n, k,
                  type);
      return false;
    }
  }

  cublasHandle_t handle;
  cublasCreate(&handle);
  const float alpha = 1.0f, beta = 0.0f;
  const cudaDataType_t in = std::is_same_v<T, tile::bf16> ? CUDA_R_16BF
                            : std::is_same_v<T, float>     ? CUDA_R_32F
                                                           : CUDA_R_16F;
  const cublasComputeType_t compute =
      std::is_same_v<T, float> ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  // Row-major C = A B is column-major C^T = B^T A^T (B^T the N x K array as it is, with bt).
  const double cublas_s = median_seconds(repeats, [&] {
    cublasGemmEx(handle, bt ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k),
                 &alpha, bk.data(), in, int(bt ? k : n), a.data(), in, int(k), &beta, ref.data(),
                 CUDA_R_32F, int(n), compute, CUBLAS_GEMM_DEFAULT);
    cudaDeviceSynchronize();
  });
  cublasDestroy(handle);

  const std::vector<float> hc = c.to_host(), hr = ref.to_host();
  double worst = 0;
  for (size_t i = 0; i < hc.size(); ++i)
    worst = std::max(worst, double(std::fabs(hc[i] - hr[i])) / (1.0 + std::fabs(hr[i])));
  const double flop = 2.0 * double(m) * double(n) * double(k);
  std::printf("gemm %lld x %lld x %lld %s%s -> f32, tiles %dx%dx%d: tile %.3f ms (%.1f TFLOP/s), "
              "cuBLAS %.3f ms (%.1f TFLOP/s), tile/cuBLAS time %.2f, worst relative difference "
              "%.2e, %s\n",
              m, n, k, type, bt ? " (B transposed)" : "", BM, BN, BK, tile_s * 1e3, flop / tile_s / 1e12, cublas_s * 1e3,
              flop / cublas_s / 1e12, tile_s / cublas_s, worst,
              tile::default_device().name().c_str());
  if (unchecked_s > 0)
    std::printf("  TILE_UNSAFE unchecked loads, same shape: %.3f ms (%.1f TFLOP/s), safe/unsafe "
                "time %.3f\n",
                unchecked_s * 1e3, flop / unchecked_s / 1e12, tile_s / unchecked_s);
  return worst < 1e-3;
}

/// The three tile shapes as tile::autotune offers them: the op of the fastest (chosen on the
/// first call; TILE_AUTOTUNE_LOG=1 prints the timings), timed like the others.
/// The K extents of the tile shapes: 64 and 128 bytes of T.
template <class T>
constexpr int KS = int(64 / sizeof(T));
template <class T>
constexpr int KL = int(128 / sizeof(T));

template <class T>
static void autotuned(const char* type, long long m, long long n, long long k, int repeats,
                      bool bt) {
  constexpr int KS = ::KS<T>, KL = ::KL<T>;
  std::vector<T> ha(size_t(m * k)), hb(size_t(k * n));
  random_inputs(ha, hb);  // the inputs of compare()
  auto a = tile::from_host(ha, {m, k});
  auto bk = bt ? tile::from_host(hb, {n, k}) : tile::from_host(hb, {k, n});
  auto c = tile::zeros<float>({m, n});
  const double s = median_seconds(repeats, [&] {
    auto b = bt ? bk.view().transpose() : bk.view();
    tile::autotune<gemm<T, 128, 128, KS>, gemm<T, 128, 128, KL>, gemm<T, 128, 256, KL>>(c, a, b)
        .sync();
  });
  // Element (0, 0) against the host (the three candidates' results were compared with cuBLAS).
  double want = 0;
  for (long long p = 0; p < k; ++p)
    want += double(float(ha[size_t(p)])) * double(float(hb[size_t(bt ? p : p * n)]));
  const bool right = std::fabs(double(c.to_host().front()) - want) <= 1e-3 * (1 + std::fabs(want));
  std::printf("gemm %lld x %lld x %lld %s%s -> f32, tile::autotune of the three: %.3f ms (%.1f "
              "TFLOP/s)%s\n",
              m, n, k, type, bt ? " (B transposed)" : "", s * 1e3,
              2.0 * double(m) * double(n) * double(k) / s / 1e12, right ? "" : ", WRONG RESULT");
}

template <class T>
static bool compare_all(const char* type, long long m, long long n, long long k, int repeats,
                        bool bt) {
  bool ok = compare<T, 128, 128, KS<T>>(type, m, n, k, repeats, bt);
  ok = compare<T, 128, 128, KL<T>>(type, m, n, k, repeats, bt) && ok;
  ok = compare<T, 128, 256, KL<T>>(type, m, n, k, repeats, bt) && ok;
  autotuned<T>(type, m, n, k, repeats, bt);
  return ok;
}

int main(int argc, char** argv) {
  const char* type = argc > 1 ? argv[1] : "f16";
  const long long m = argc > 4 ? std::atoll(argv[2]) : 4096;
  const long long n = argc > 4 ? std::atoll(argv[3]) : 4096;
  const long long k = argc > 4 ? std::atoll(argv[4]) : 4096;
  const int repeats = argc > 5 ? std::atoi(argv[5]) : 20;
  const bool bt = argc > 6 && std::strcmp(argv[6], "bt") == 0;
  const bool ok = std::strcmp(type, "bf16") == 0 ? compare_all<tile::bf16>("bf16", m, n, k, repeats, bt)
                  : std::strcmp(type, "tf32") == 0 ? compare_all<float>("tf32", m, n, k, repeats, bt)
                                                   : compare_all<tile::f16>("f16", m, n, k, repeats, bt);
  return ok ? 0 : 1;
}
