// Norm rows of 16K bf16 elements: where the time goes (bench/results/2026-12-03-h200-grid-rank-norm-rows.md).
//
// Hand-written CUDA that mirrors what tilecc emits for layernorm_row<16384> / rmsnorm_row<16384>
// (bench/memory_bound.tile.cpp: 16 warps, each thread 4 vectors of 8 elements at
// 8 * tid + 4096 * j, block reductions by shuffles and one shared-memory step per warp), and
// variants of its schedule:
//   base        one row per block, the weights loaded after the reductions (tilecc today)
//   hoist       the same, the weights loaded with the row
//   pipe<S,B>   a block per multiprocessor slot (B per SM) walks the rows; each thread copies its
//               own vectors of the next S-1 rows into a shared-memory ring with cp.async, so
//               rows are in flight while the current one reduces (no barrier for the data:
//               every thread reads only what it copied); weights loaded per row (W=0) or
//               once per block into registers (W=1)
// Every variant's output is compared with a host reference on sampled rows before timing.
//
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v norm_rows.cu -o norm_rows
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);    \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

constexpr int N = 16384, T = 512, V = 8, C = N / (T * V); // 4 vectors per thread
constexpr int W = T / 32;

struct alignas(16) Vec { __nv_bfloat16 e[V]; };

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int m = 1; m < 32; m <<= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}
__device__ __forceinline__ float block_sum(float v, float* scratch) {
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  float s = scratch[0];
#pragma unroll
  for (int w = 1; w < W; ++w) s += scratch[w];
  return s;
}
template <int M> __device__ __forceinline__ Vec ld(const Vec* p, bool in) {
  if constexpr (M == 0) {
    return *p;
  } else {
    unsigned w[4] = {0u, 0u, 0u, 0u};
    if constexpr (M == 1)
      asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n @p ld.global.nc.v4.b32 {%0, %1, %2, %3}, [%5];\n}"
          : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
    else
      asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n @p ld.global.v4.b32 {%0, %1, %2, %3}, [%5];\n}"
          : "+r"(w[0]), "+r"(w[1]), "+r"(w[2]), "+r"(w[3]) : "r"(int(in)), "l"(p));
    Vec v; memcpy(&v, w, 16); return v;
  }
}
template <int M = 0> __device__ __forceinline__ void load_vec(float* out, const Vec* p, bool in = true) {
  Vec v = ld<M>(p, in);
#pragma unroll
  for (int k = 0; k < V; ++k) out[k] = __bfloat162float(v.e[k]);
}

__device__ __forceinline__ float f(const Vec& v, int k) { return __bfloat162float(v.e[k]); }

// The row in registers -> y, given weights g (and biases h for LayerNorm).
template <bool Layer>
__device__ __forceinline__ void finish(float (&x)[C][V], const Vec (&g)[C], const Vec (&h)[C],
                                       Vec* yrow, float eps, float* sa, float* sb) {
  float s = 0;
#pragma unroll
  for (int j = 0; j < C; ++j)
#pragma unroll
    for (int k = 0; k < V; ++k) s += Layer ? x[j][k] : x[j][k] * x[j][k];
  s = block_sum(s, sa);
  float scale;
  if (Layer) {
    float mean = s / N, q = 0;
#pragma unroll
    for (int j = 0; j < C; ++j)
#pragma unroll
      for (int k = 0; k < V; ++k) { x[j][k] -= mean; q += x[j][k] * x[j][k]; }
    q = block_sum(q, sb);
    scale = rsqrtf(q / N + eps);
  } else {
    scale = rsqrtf(s / N + eps);
  }
#pragma unroll
  for (int j = 0; j < C; ++j) {
    Vec o;
#pragma unroll
    for (int k = 0; k < V; ++k) o.e[k] = __float2bfloat16(x[j][k] * scale * f(g[j], k) + (Layer ? f(h[j], k) : 0.f));
    yrow[j * T + threadIdx.x] = o;
  }
}

// Weights stay bf16 in registers (half the registers of floats) until used.
template <bool Layer, int M = 0>
__device__ __forceinline__ void load_weights(Vec (&g)[C], Vec (&h)[C], const Vec* w, const Vec* b, bool in = true) {
#pragma unroll
  for (int j = 0; j < C; ++j) {
    g[j] = ld<M>(w + j * T + threadIdx.x, in);
    if (Layer) h[j] = ld<M>(b + j * T + threadIdx.x, in);
  }
}


// MX, MW: how x and the weights are loaded (ld<M>); `in` is computed as tilecc does, from the row.
template <bool Layer, bool Hoist, int MX = 0, int MW = 0>
__global__ void __launch_bounds__(T, 2) norm_row(Vec* y, const Vec* x, const Vec* w, const Vec* b, float eps) {
  const bool in = blockIdx.x < 1u << 30;
  __shared__ float sa[W], sb[W];
  const Vec* xr = x + size_t(blockIdx.x) * (N / V);
  float v[C][V]; Vec g[C], h[C];
#pragma unroll
  for (int j = 0; j < C; ++j) load_vec<MX>(v[j], xr + j * T + threadIdx.x, in);
  if (Hoist) load_weights<Layer, MW>(g, h, w, b, in);
  // Reductions first, weights after (as written), unless hoisted.
  float s = 0;
#pragma unroll
  for (int j = 0; j < C; ++j)
#pragma unroll
    for (int k = 0; k < V; ++k) s += Layer ? v[j][k] : v[j][k] * v[j][k];
  s = block_sum(s, sa);
  float scale;
  if (Layer) {
    float mean = s / N, q = 0;
#pragma unroll
    for (int j = 0; j < C; ++j)
#pragma unroll
      for (int k = 0; k < V; ++k) { v[j][k] -= mean; q += v[j][k] * v[j][k]; }
    q = block_sum(q, sb);
    scale = rsqrtf(q / N + eps);
  } else {
    scale = rsqrtf(s / N + eps);
  }
  if (!Hoist) load_weights<Layer, MW>(g, h, w, b, in);
  Vec* yr = y + size_t(blockIdx.x) * (N / V);
#pragma unroll
  for (int j = 0; j < C; ++j) {
    Vec o;
#pragma unroll
    for (int k = 0; k < V; ++k) o.e[k] = __float2bfloat16(v[j][k] * scale * f(g[j], k) + (Layer ? f(h[j], k) : 0.f));
    yr[j * T + threadIdx.x] = o;
  }
}

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  unsigned s = unsigned(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int K> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(K)); }

template <bool Layer, int S, int B, bool HoistW>
__global__ void __launch_bounds__(T, B) norm_pipe(Vec* y, const Vec* x, const Vec* w, const Vec* b, float eps, int rows, int seq) {
  extern __shared__ __align__(16) unsigned char smem_[];
  Vec* ring = reinterpret_cast<Vec*>(smem_);           // S rows of N / V vectors
  float* scratch = reinterpret_cast<float*>(ring + S * (N / V)); // 2 x 2 x W floats
  auto issue = [&](int row, int slot) {
    if (row < rows) {
      const Vec* xr = x + size_t(row) * (N / V);
#pragma unroll
      for (int j = 0; j < C; ++j) cp_async16(ring + slot * (N / V) + j * T + threadIdx.x, xr + j * T + threadIdx.x);
    }
    cp_commit();
  };
  Vec g[C], h[C];
  if (HoistW) load_weights<Layer>(g, h, w, b);
  // seq == 0: a persistent grid, rows blockIdx.x + k * gridDim.x; else seq consecutive rows.
  const int stride = seq ? 1 : gridDim.x;
  int row = seq ? blockIdx.x * seq : blockIdx.x;
  const int end = seq ? min(rows, row + seq) : rows;
#pragma unroll
  for (int s = 0; s < S - 1; ++s) issue(row + s * stride < end ? row + s * stride : rows, s);
  for (int i = 0; row < end; ++i, row += stride) {
    int ahead = row + (S - 1) * stride;
    issue(ahead < end ? ahead : rows, (i + S - 1) % S);
    cp_wait<S - 1>();
    float v[C][V];
#pragma unroll
    for (int j = 0; j < C; ++j) load_vec(v[j], ring + (i % S) * (N / V) + j * T + threadIdx.x);
    float* sc = scratch + (i & 1) * 2 * W;
    if (!HoistW) {
      // As written: the weights after the reductions.
      float s = 0;
#pragma unroll
      for (int j = 0; j < C; ++j)
#pragma unroll
        for (int k = 0; k < V; ++k) s += Layer ? v[j][k] : v[j][k] * v[j][k];
      s = block_sum(s, sc);
      float scale;
      if (Layer) {
        float mean = s / N, q = 0;
#pragma unroll
        for (int j = 0; j < C; ++j)
#pragma unroll
          for (int k = 0; k < V; ++k) { v[j][k] -= mean; q += v[j][k] * v[j][k]; }
        q = block_sum(q, sc + W);
        scale = rsqrtf(q / N + eps);
      } else {
        scale = rsqrtf(s / N + eps);
      }
      load_weights<Layer>(g, h, w, b);
      Vec* yr = y + size_t(row) * (N / V);
#pragma unroll
      for (int j = 0; j < C; ++j) {
        Vec o;
#pragma unroll
        for (int k = 0; k < V; ++k) o.e[k] = __float2bfloat16(v[j][k] * scale * f(g[j], k) + (Layer ? f(h[j], k) : 0.f));
        yr[j * T + threadIdx.x] = o;
      }
    } else {
      finish<Layer>(v, g, h, y + size_t(row) * (N / V), eps, sc, sc + W);
    }
  }
  cp_wait<0>();
}

__global__ void copy_kernel(uint4* dst, const uint4* src, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

static float bf(__nv_bfloat16 v) { return __bfloat162float(v); }

int main() {
  const int rows = 4096;
  const size_t elems = size_t(rows) * N;
  std::mt19937 rng(20261202);
  std::uniform_real_distribution<float> d(-2.f, 2.f), dw(0.5f, 1.5f);
  std::vector<__nv_bfloat16> hx(elems), hw(N), hb(N);
  for (auto& v : hx) v = __float2bfloat16(d(rng));
  for (auto& v : hw) v = __float2bfloat16(dw(rng));
  for (auto& v : hb) v = __float2bfloat16(d(rng));
  Vec *x, *y, *w, *b;
  CK(cudaMalloc(&x, elems * 2)); CK(cudaMalloc(&y, elems * 2));
  CK(cudaMalloc(&w, N * 2)); CK(cudaMalloc(&b, N * 2));
  CK(cudaMemcpy(x, hx.data(), elems * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(w, hw.data(), N * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b, hb.data(), N * 2, cudaMemcpyHostToDevice));
  const float eps = 1e-5f;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::vector<__nv_bfloat16> hy(elems);

  auto check = [&](bool layer) {
    CK(cudaMemcpy(hy.data(), y, elems * 2, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < rows; r += (r % 97 == 0 ? 1 : 37)) {
      const __nv_bfloat16* xr = hx.data() + size_t(r) * N;
      double s = 0, q = 0;
      for (int c = 0; c < N; ++c) s += layer ? bf(xr[c]) : double(bf(xr[c])) * bf(xr[c]);
      double mean = layer ? s / N : 0;
      if (layer) for (int c = 0; c < N; ++c) q += (bf(xr[c]) - mean) * (bf(xr[c]) - mean);
      double scale = 1.0 / std::sqrt((layer ? q : s) / N + eps);
      for (int c = 0; c < N; ++c) {
        double want = (bf(xr[c]) - mean) * scale * bf(hw[c]) + (layer ? bf(hb[c]) : 0.0);
        double got = bf(hy[size_t(r) * N + c]);
        if (!(std::fabs(got - want) <= 8e-3 * std::fabs(want) + 2e-2)) ++bad;
      }
    }
    return bad;
  };
  auto time = [&](auto launch) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; ++i) launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int i = 0; i < 25; ++i) {
      CK(cudaEventRecord(e0));
      for (int k = 0; k < 10; ++k) launch();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float t; CK(cudaEventElapsedTime(&t, e0, e1));
      ms.push_back(t / 10);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  auto report = [&](const char* name, bool layer, auto launch) {
    CK(cudaMemset(y, 0xff, elems * 2));
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int bad = check(layer);
    float ms = time(launch);
    double gbs = 2.0 * elems * 2 / (ms * 1e-3) / 1e9;
    std::printf("RESULT %-28s %8.1f GB/s  %s\n", name, gbs, bad ? "MISMATCH" : "ok");
    return gbs;
  };
  {
    size_t n = elems * 2 / 16;
    float ms = time([&] { copy_kernel<<<sms * 8, 256>>>(reinterpret_cast<uint4*>(y), reinterpret_cast<const uint4*>(x), n); });
    std::printf("RESULT %-28s %8.1f GB/s\n", "copy (same bytes)", 2.0 * elems * 2 / (ms * 1e-3) / 1e9);
  }
#define PIPE(L, S, B, H) PIPEQ(L, S, B, H, 0)
#define PIPEQ(L, S, B, H, Q)                                                                            \
  {                                                                                                 \
    auto k = norm_pipe<L, S, B, H>;                                                                 \
    int smem = S * N * 2 + 4 * W * 4;                                                               \
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));                 \
    int per = 0;                                                                                    \
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, T, smem));                            \
    char name[64];                                                                                  \
    std::snprintf(name, sizeof name, "%s pipe S=%d B=%d W=%d Q=%d (%d/SM)", L ? "ln" : "rms", S, B, H, Q, per); \
    int grid = Q ? (rows + Q - 1) / Q : sms * per;                                                  \
    report(name, L, [&] { k<<<grid, T, smem>>>(y, x, w, b, eps, rows, Q); });                       \
  }
  for (int pass = 0; pass < 2; ++pass) {
    report("ln base", true, [&] { norm_row<true, false><<<rows, T>>>(y, x, w, b, eps); });
    report("ln base x=nc w=nc", true, [&] { norm_row<true, false, 1, 1><<<rows, T>>>(y, x, w, b, eps); });
    report("ln base x=nc", true, [&] { norm_row<true, false, 1, 0><<<rows, T>>>(y, x, w, b, eps); });
    report("ln base w=nc", true, [&] { norm_row<true, false, 0, 1><<<rows, T>>>(y, x, w, b, eps); });
    report("ln base x=pred w=pred", true, [&] { norm_row<true, false, 2, 2><<<rows, T>>>(y, x, w, b, eps); });
    report("rms base x=nc w=nc", false, [&] { norm_row<false, false, 1, 1><<<rows, T>>>(y, x, w, b, eps); });
    report("rms base w=nc", false, [&] { norm_row<false, false, 0, 1><<<rows, T>>>(y, x, w, b, eps); });
    report("ln hoist", true, [&] { norm_row<true, true><<<rows, T>>>(y, x, w, b, eps); });
    PIPE(true, 2, 2, false) PIPE(true, 3, 2, false) PIPE(true, 2, 2, true) PIPE(true, 3, 2, true)
    PIPE(true, 2, 1, true) PIPE(true, 4, 1, true) PIPE(true, 3, 3, false)
    PIPEQ(true, 2, 2, false, 4) PIPEQ(true, 2, 2, false, 8) PIPEQ(true, 3, 2, false, 8)
    report("rms base", false, [&] { norm_row<false, false><<<rows, T>>>(y, x, w, b, eps); });
    report("rms hoist", false, [&] { norm_row<false, true><<<rows, T>>>(y, x, w, b, eps); });
    PIPE(false, 2, 2, false) PIPE(false, 3, 2, false) PIPE(false, 2, 2, true) PIPE(false, 3, 2, true)
    PIPE(false, 3, 3, false) PIPEQ(false, 2, 2, false, 4) PIPEQ(false, 2, 2, false, 8)
  }
  return 0;
}
