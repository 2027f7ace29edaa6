// tile_dev::warpgroup_mma alone on one block per shape: stages filled by plain stores in the
// layouts the compiler gives rings (ldmatrixBufferLayout, row-major or column-major: CA, CB),
// every accumulator element compared with a host product; and tile_dev::warpgroup_mma_rs
// with A in registers (its dot operand fragments, filled by their element positions); and
// 8-bit and float operands filled in the layouts they are copied in, then restaged K-major
// (tile_dev::restage, floats rounded to TF32 on the way), as tile-pipeline-mma-operands does
// for the operands wgmma reads only K-major. Built for sm_90a (wgmma from descriptors) and
// run by bench/gpu/gemm.sh.
#include <device/tile_device.cuh>
#include <cstdio>
#include <vector>
#include <cmath>
#include <algorithm>
/// The ring layout of an R x C stage of `Bytes`-byte elements: rows of C elements, or of R
/// (column-major), in 16-byte groups with the swizzle of their length (at most 128 bytes).
template <int R, int C, bool ColumnMajor, int Bytes>
struct Ring {
  static constexpr int64_t row = ColumnMajor ? R : C, rows = ColumnMajor ? C : R;
  static constexpr int64_t block = row * Bytes >= 128 ? 128 / Bytes : row;
  using type = tile_dev::Staging<row, 0, 16 / Bytes, 128 / (block * Bytes), block * Bytes / 16,
                                 block, rows, ColumnMajor ? C : 0>;
};

/// Writes this thread's accumulator registers (layout LC of W warps along M) into the
/// row-major M x N result: warp w rows 16w.., repeat i rows + 16W i, n-tile j.
template <class LC, int N, int W>
__device__ void store_accumulator(float* C, const float (&c)[LC::elems]) {
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  for (int i = 0; i < LC::RM; ++i)
    for (int j = 0; j < LC::RN; ++j)
      for (int e = 0; e < 4; ++e) {
        int row = i * 16 * W + w * 16 + lane / 4 + (e >= 2 ? 8 : 0);
        int col = j * 8 + (lane % 4) * 2 + (e & 1);
        C[row * N + col] = c[(i * LC::RN + j) * 4 + e];
      }
}

template <int M, int N, int K, int W, class TA, class TB, bool CA, bool CB>
__global__ void k(const float* A, const float* B, float* C) {
  using LC = tile_dev::MmaAcc<tile_dev::Ix<M, N>, W, 1, W>;
  using SA = typename Ring<M, K, CA, sizeof(TA)>::type;
  using SB = typename Ring<K, N, CB, sizeof(TB)>::type;
  TA* a = tile_dev::shared_at<TA>(0);
  TB* b = tile_dev::shared_at<TB>(M * K * sizeof(TA));
  for (int i = threadIdx.x; i < M * K; i += blockDim.x) a[SA::offset(i)] = TA(A[i]);
  for (int i = threadIdx.x; i < K * N; i += blockDim.x) b[SB::offset(i)] = TB(B[i]);
  tile_dev::fence_async_shared();
  __syncthreads();
  float c[LC::elems] = {};
  tile_dev::warpgroup_mma<LC, SA, SB>(c, a, b, threadIdx.x);
  tile_dev::warpgroup_wait<0>(c);
  store_accumulator<LC, N, W>(C, c);
}

/// The same with A in registers: element (row, k) of register r of lane and warp w of the
/// MmaOperand layout (rows 16w.. per 16W-row repeat i, k tiles of 16, fragment order).
template <int M, int N, int K, int W, class TA, class TB, bool CA, bool CB>
__global__ void krs(const float* A, const float* B, float* C) {
  using LC = tile_dev::MmaAcc<tile_dev::Ix<M, N>, W, 1, W>;
  using LA = tile_dev::MmaOperand<tile_dev::Ix<M, K>, 0, 2, W, 1, W>;
  using SB = typename Ring<K, N, CB, sizeof(TB)>::type;
  TB* b = tile_dev::shared_at<TB>(0);
  for (int i = threadIdx.x; i < K * N; i += blockDim.x) b[SB::offset(i)] = TB(B[i]);
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  TA a[LA::elems];
  for (int r = 0; r < LA::elems; ++r) {
    int e = r % 8, kk = r / 8 % LA::RC, i = r / 8 / LA::RC;
    int row = i * 16 * W + w * 16 + lane / 4 + ((e >> 1) & 1) * 8;
    int k = kk * 16 + (lane % 4) * 2 + (e & 1) + ((e >> 2) & 1) * 8;
    a[r] = TA(A[row * K + k]);
  }
  tile_dev::fence_async_shared();
  __syncthreads();
  float c[LC::elems] = {};
  uint32_t packed[LA::elems / 2];
  tile_dev::pack_pairs(packed, a);
  tile_dev::warpgroup_mma_rs<LC, LA, SB>(c, packed, b, threadIdx.x);
  tile_dev::warpgroup_wait<0>(c);
  tile_dev::detail::pin_registers(packed);
  store_accumulator<LC, N, W>(C, c);
}

/// Stages filled in the layouts CA and CB, then restaged K-major (A row-major, B
/// column-major), floats rounded to TF32 (in place where the layout is already K-major).
template <int M, int N, int K, int W, class T, bool CA, bool CB>
__global__ void kr(const float* A, const float* B, float* C) {
  using LC = tile_dev::MmaAcc<tile_dev::Ix<M, N>, W, 1, W>;
  using RA = typename Ring<M, K, CA, sizeof(T)>::type;
  using RB = typename Ring<K, N, CB, sizeof(T)>::type;
  using SA = typename Ring<M, K, false, sizeof(T)>::type;
  using SB = typename Ring<K, N, true, sizeof(T)>::type;
  constexpr bool round = std::is_same_v<T, float>;
  T* ra = tile_dev::shared_at<T>(0);
  T* rb = tile_dev::shared_at<T>(M * K * sizeof(T));
  T* sa = CA ? tile_dev::shared_at<T>((M * K + K * N) * sizeof(T)) : ra;
  T* sb = CB ? rb : tile_dev::shared_at<T>((2 * M * K + K * N) * sizeof(T));
  for (int i = threadIdx.x; i < M * K; i += blockDim.x) ra[RA::offset(i)] = T(A[i]);
  for (int i = threadIdx.x; i < K * N; i += blockDim.x) rb[RB::offset(i)] = T(B[i]);
  __syncthreads();
  if (CA || round) tile_dev::restage<RA, SA, M, K, round, 32 * W>(sa, ra, threadIdx.x);
  if (!CB || round) tile_dev::restage<RB, SB, K, N, round, 32 * W>(sb, rb, threadIdx.x);
  tile_dev::fence_async_shared();
  __syncthreads();
  float c[LC::elems] = {};
  tile_dev::warpgroup_mma<LC, SA, SB>(c, sa, sb, threadIdx.x);
  tile_dev::warpgroup_wait<0>(c);
  store_accumulator<LC, N, W>(C, c);
}

template <int M, int N, int K, int W, class TA, bool CA = false, bool CB = false, class TB = TA,
          bool Registers = false, bool Restaged = std::is_same_v<TA, float>>
int run(const char* name) {
  std::vector<float> A(M * K), B(K * N), C(M * N, -1), R(M * N, 0), S(M * N, 0);
  uint32_t s = 7;
  // Floats get every mantissa bit, so that the rounding to TF32 shows.
  constexpr bool tf32 = std::is_same_v<TA, float>;
  auto rnd = [&] {
    s = s * 1664525u + 1013904223u;
    return tf32 ? float(int(s >> 8) - (1 << 23)) / float(1 << 22)
                : float(int(s >> 24) - 128) / 64.0f;
  };
  for (auto& x : A) x = float(TA(rnd()));  // the values the stages hold
  for (auto& x : B) x = float(TB(rnd()));
  auto in = [](float x) { return tf32 ? tile_dev::round_tf32(x) : x; };  // what is multiplied
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int kk = 0; kk < K; ++kk) {
        const double p = double(in(A[i * K + kk])) * double(in(B[kk * N + j]));
        R[i * N + j] += float(p);
        S[i * N + j] += float(std::fabs(p));
      }
  float *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * 4); cudaMalloc(&dB, B.size() * 4); cudaMalloc(&dC, C.size() * 4);
  cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice);
  int smem = (Restaged ? 2 : 1) * (M * K * sizeof(TA) + K * N * sizeof(TB));
  auto launch = [&](auto kernel) {
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    kernel<<<1, 32 * W, smem>>>(dA, dB, dC);
  };
  if constexpr (Registers)
    launch(krs<M, N, K, W, TA, TB, CA, CB>);
  else if constexpr (Restaged)
    launch(kr<M, N, K, W, TA, CA, CB>);
  else
    launch(k<M, N, K, W, TA, TB, CA, CB>);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost);
  // 16-bit products sum exactly here; the tensor cores add 8-bit ones at about 13 bits (wgmma;
  // mma.sync before sm_90 sums them exactly): the error over 4e-3 of the products' magnitudes.
  // TF32 products are exact and summed in f32: 1e-5 of their magnitudes (inputs truncated
  // instead of rounded would miss by about 1e-4).
  constexpr bool f8 = sizeof(TA) == 1;
  double worst = 0, over = 0;
  for (int i = 0; i < M * N; ++i) {
    const double tolerance = f8 ? 4e-3 * S[i] + 1e-6 : tf32 ? 1e-5 * S[i] + 1e-6 : 1e-2;
    worst = std::max(worst, double(std::fabs(C[i] - R[i])));
    over = std::max(over, double(std::fabs(C[i] - R[i])) / tolerance);
  }
  std::printf("%s M%d N%d K%d W%d%s%s%s: %s, max |err| %g\n", name, M, N, K, W,
              Registers ? " A in registers" : CA ? " A column-major" : "",
              CB ? " B column-major" : "", Restaged ? ", restaged" : "", cudaGetErrorString(e),
              worst);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return over <= 1.0 && e == cudaSuccess ? 0 : 1;
}

int main() {
  int bad = 0;
  bad += run<64, 16, 16, 4, __half>("f16");
  bad += run<64, 64, 32, 4, __nv_bfloat16>("bf16");
  bad += run<128, 128, 32, 8, __half>("f16");
  bad += run<128, 128, 64, 4, __nv_bfloat16>("bf16");
  bad += run<128, 256, 64, 8, __nv_bfloat16>("bf16");
  bad += run<64, 512, 128, 4, __half>("f16");
  bad += run<256, 128, 16, 4, __half>("f16");
  bad += run<128, 32, 64, 8, __nv_bfloat16>("bf16");
  bad += run<128, 256, 64, 8, __nv_bfloat16, false, true>("bf16");
  bad += run<128, 128, 32, 4, __half, false, true>("f16");
  bad += run<64, 64, 128, 4, __nv_bfloat16, false, true>("bf16");
  bad += run<128, 128, 64, 4, __nv_bfloat16, true, false>("bf16");
  bad += run<64, 32, 32, 4, __half, true, true>("f16");
  bad += run<256, 128, 64, 8, __nv_bfloat16, true, true>("bf16");
  bad += run<128, 256, 128, 8, __nv_fp8_e4m3, false, true>("e4m3");
  bad += run<64, 64, 64, 4, __nv_fp8_e4m3, false, true, __nv_fp8_e5m2>("e4m3 x e5m2");
  bad += run<128, 128, 256, 4, __nv_fp8_e5m2, false, true>("e5m2");
  bad += run<64, 32, 32, 4, __nv_fp8_e5m2, false, true, __nv_fp8_e4m3>("e5m2 x e4m3");
  // A in registers (16 bits only): attention's Q K^T (B column-major) and P V shapes.
  bad += run<128, 64, 64, 8, __nv_bfloat16, false, true, __nv_bfloat16, true>("bf16");
  bad += run<128, 64, 64, 8, __nv_bfloat16, false, false, __nv_bfloat16, true>("bf16");
  bad += run<128, 64, 128, 8, __nv_bfloat16, false, true, __nv_bfloat16, true>("bf16");
  bad += run<128, 128, 64, 8, __nv_bfloat16, false, false, __nv_bfloat16, true>("bf16");
  bad += run<128, 128, 128, 8, __nv_bfloat16, false, true, __nv_bfloat16, true>("bf16");
  bad += run<128, 128, 128, 8, __nv_bfloat16, false, false, __nv_bfloat16, true>("bf16");
  bad += run<64, 256, 32, 4, __half, false, false, __half, true>("f16");
  bad += run<256, 64, 64, 8, __half, false, true, __half, true>("f16");
  // Restaged K-major: f8 with B (or A) stored the other way, TF32 in every layout.
  bad += run<128, 256, 128, 8, __nv_fp8_e4m3, false, false, __nv_fp8_e4m3, false, true>("e4m3");
  bad += run<64, 64, 64, 4, __nv_fp8_e5m2, true, false, __nv_fp8_e5m2, false, true>("e5m2");
  bad += run<128, 128, 32, 8, float, false, true>("tf32");
  bad += run<128, 256, 32, 8, float, false, false>("tf32");
  bad += run<64, 64, 64, 4, float, true, false>("tf32");
  bad += run<64, 32, 16, 4, float, true, true>("tf32");
  std::printf("%s\n", bad ? "FAILED" : "all OK");
  return bad;
}
