// Times tile GEMMs of f8 e4m3 inputs (C = A x B, f32 out; each K step one tile::mma) against
// cuBLASLt's FP8 matmul (the one torch._scaled_mm calls, unit scales, f32 out) on the same
// arrays in the same run: with fast accumulation (the products summed in the tensor cores'
// accumulator across the whole K loop, as tilecc's warpgroup mma does; torch's
// use_fast_accum=True) and without (partial sums promoted to f32 registers, cuBLASLt's
// default). Before timing, elements of the tile result are checked against a double-precision
// host product (all of them below 2^20 elements, else 4096 spread over the result) within
// 4e-3 of the sum of the products' magnitudes: the tensor cores add f8 products at about 13
// bits. B is the transpose of an N x K array (`w.transpose()`): FP8 tensor cores read both
// operands K-major, so this is the layout FP8 GEMMs take (cuBLASLt requires it too).
// With `bn`, B is a row-major K x N array instead (the same values): the baselines still
// multiply by the N x K array, the layout they take.
// Usage: gemm_f8 [M N K = 8192 8192 8192] [repeats = 10] [bn]. Needs a GPU and cuBLASLt.
// Prints one line per tile shape.
#include <tile/tile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublasLt.h>
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

/// C (m x n, row-major, f32) = A (m x k) x W^T (W n x k), both row-major e4m3, by cuBLASLt.
/// Column-major, that is C^T = W^T' x A^T' with W's storage read transposed (TN), the only
/// layout cuBLASLt's FP8 matmul takes. Returns seconds per call, or a negative value.
static double cublaslt_f8(const void* a, const void* w, float* c, long long m, long long n,
                          long long k, int repeats, bool fast) {
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) return -1;
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
  const int8_t fast_accum = fast ? 1 : 0;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast_accum,
                                 sizeof fast_accum);
  cublasLtMatrixLayout_t lw, la, lc;
  cublasLtMatrixLayoutCreate(&lw, CUDA_R_8F_E4M3, uint64_t(k), uint64_t(n), k);
  cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, uint64_t(k), uint64_t(m), k);
  cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, uint64_t(n), uint64_t(m), n);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  size_t ws_bytes = size_t(64) << 20;
  void* ws = nullptr;
  cudaMalloc(&ws, ws_bytes);
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                       sizeof ws_bytes);
  cublasLtMatmulHeuristicResult_t heur{};
  int found = 0;
  double seconds = -1;
  if (cublasLtMatmulAlgoGetHeuristic(lt, op, lw, la, lc, lc, pref, 1, &heur, &found) ==
          CUBLAS_STATUS_SUCCESS &&
      found > 0) {
    const float alpha = 1.0f, beta = 0.0f;
    cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
    seconds = median_seconds(repeats, [&] {
      status = cublasLtMatmul(lt, op, &alpha, w, lw, a, la, &beta, c, lc, c, lc, &heur.algo, ws,
                              ws_bytes, nullptr);
      cudaDeviceSynchronize();
    });
    if (status != CUBLAS_STATUS_SUCCESS) seconds = -1;
  }
  cudaFree(ws);
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(lw);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(op);
  cublasLtDestroy(lt);
  return seconds;
}

template <int BM, int BN, int BK>
static bool compare(long long m, long long n, long long k, int repeats, bool row_major_b) {
  using T = tile::f8e4m3;
  std::vector<T> ha(size_t(m * k)), hw(size_t(n * k));
  uint32_t seed = 1;
  for (auto* v : {&ha, &hw})
    for (auto& e : *v) {
      seed = seed * 1664525u + 1013904223u;
      e = T(float(int(seed >> 24) - 128) / 64.0f);
    }
  auto a = tile::from_host(ha, {m, k});
  auto w = tile::from_host(hw, {n, k});
  // With row_major_b, B is a K x N array of its own (W's transpose, stored row-major): the
  // tensor cores read it K-major only, so the kernel restages every step of it.
  std::vector<T> hb(row_major_b ? size_t(k * n) : 0);
  for (long long p = 0; row_major_b && p < k; ++p)
    for (long long j = 0; j < n; ++j) hb[size_t(p * n + j)] = hw[size_t(j * k + p)];
  auto b = tile::from_host(hb, {row_major_b ? k : 0, row_major_b ? n : 0});
  auto c = tile::zeros<float>({m, n});
  auto ref = tile::zeros<float>({m, n});

  const double tile_s = median_seconds(repeats, [&] {
    auto bv = row_major_b ? b.view() : w.view().transpose();
    tile::launch<gemm<T, BM, BN, BK>>(c.template partition_mut<BM, BN>(), a, bv).sync();
  });
  const double fast_s = cublaslt_f8(a.data(), w.data(), ref.data(), m, n, k, repeats, true);
  const double lt_s = cublaslt_f8(a.data(), w.data(), ref.data(), m, n, k, repeats, false);
  // cuBLASLt takes FP8 matrices of 16-byte multiples only (then -1: not timed).
  // The tile result against the exact product of the same inputs.
  const std::vector<float> hc = c.to_host();
  const long long elements = m * n, step = elements <= (1 << 20) ? 1 : elements / 4096;
  double worst = 0;  // error over the tolerance, worst element
  for (long long e = 0; e < elements; e += step) {
    const long long i = e / n, j = e % n;
    double exact = 0, magnitude = 0;
    for (long long p = 0; p < k; ++p) {
      const double x = double(float(ha[size_t(i * k + p)])) * double(float(hw[size_t(j * k + p)]));
      exact += x;
      magnitude += std::fabs(x);
    }
    worst = std::max(worst, std::fabs(double(hc[size_t(e)]) - exact) / (4e-3 * magnitude + 1e-6));
  }
  const double flop = 2.0 * double(m) * double(n) * double(k);
  char baselines[160] = "cuBLASLt takes no FP8 matrices of this shape";
  if (fast_s > 0 && lt_s > 0)
    std::snprintf(baselines, sizeof baselines,
                  "cuBLASLt fast accumulation %.3f ms (%.1f TFLOP/s), cuBLASLt %.3f ms (%.1f "
                  "TFLOP/s)",
                  fast_s * 1e3, flop / fast_s / 1e12, lt_s * 1e3, flop / lt_s / 1e12);
  std::printf("gemm %lld x %lld x %lld f8e4m3 (B %s) -> f32, tiles %dx%dx%d: tile %.3f "
              "ms (%.1f TFLOP/s), %s, worst error over tolerance %.3f, %s\n",
              m, n, k, row_major_b ? "row-major" : "transposed", BM, BN, BK, tile_s * 1e3, flop / tile_s / 1e12, baselines, worst,
              tile::default_device().name().c_str());
  return worst <= 1.0;
}

int main(int argc, char** argv) {
  const long long m = argc > 3 ? std::atoll(argv[1]) : 8192;
  const long long n = argc > 3 ? std::atoll(argv[2]) : 8192;
  const long long k = argc > 3 ? std::atoll(argv[3]) : 8192;
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 10;
  const bool row_major_b = argc > 5 && std::strcmp(argv[5], "bn") == 0;
  bool ok = compare<128, 128, 128>(m, n, k, repeats, row_major_b);
  ok = compare<128, 256, 128>(m, n, k, repeats, row_major_b) && ok;
  return ok ? 0 : 1;
}
