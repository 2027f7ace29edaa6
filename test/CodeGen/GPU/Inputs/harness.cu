// Runs the kernels of run-kernels.mlir (compiled from tilecc's CUDA in another translation
// unit) through the GpuKernel registry and checks every output element against a CPU
// reference, plus guard elements past each output that must stay untouched.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <tile/detail/abi.hpp>

using tile::detail::ArgDesc;
using tile::detail::GpuKernel;
using tile::detail::LaunchArgs;

static int failures = 0;
static std::mt19937 rng(1234);

#define CHECK_CUDA(x)                                                                  \
  do {                                                                                 \
    cudaError_t e = (x);                                                               \
    if (e != cudaSuccess) {                                                            \
      std::printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e));                        \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(const std::vector<T>& host) : n(host.size()) {
    CHECK_CUDA(cudaMalloc(&ptr, n * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

static ArgDesc tensor(void* data, std::vector<int64_t> shape, std::vector<int64_t> strides,
                      std::vector<int64_t> piece = {}) {
  ArgDesc a{};
  a.data = data;
  a.rank = int32_t(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    a.shape[d] = shape[d];
    a.strides[d] = strides[d];
    a.piece[d] = d < piece.size() ? piece[d] : 0;
  }
  return a;
}

template <class T>
static ArgDesc scalar(T v) {
  ArgDesc a{};
  static_assert(sizeof(T) <= sizeof(a.scalar));
  std::memcpy(a.scalar, &v, sizeof(T));
  return a;
}

static LaunchArgs launch_args(std::vector<int64_t> grid, std::vector<ArgDesc> args) {
  LaunchArgs l;
  l.grid_rank = int32_t(grid.size());
  for (size_t d = 0; d < grid.size(); ++d) l.grid[d] = grid[d];
  l.num_args = int32_t(args.size());
  for (size_t i = 0; i < args.size(); ++i) l.args[i] = args[i];
  return l;
}

template <auto K>
static bool run(const char* what, const LaunchArgs& a) {
  auto entry = GpuKernel<K>::entry;
  if (!entry) {
    std::printf("FAIL %s: kernel not registered\n", what);
    ++failures;
    return false;
  }
  int err = entry(a, nullptr);
  if (err != 0) {
    std::printf("FAIL %s: launch error %d\n", what, err);
    ++failures;
    return false;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  return true;
}

static std::vector<float> randoms(size_t n, float lo = -2.0f, float hi = 2.0f) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

constexpr int kGuard = 64;
constexpr float kSentinel = -12345.0f;

/// Compares got[i] with want[i] for i < want.size(); the rest of `got` must be `sentinel`.
template <class T, class Eq>
static void expect(const char* what, const std::vector<T>& got, const std::vector<T>& want,
                   T sentinel, Eq eq) {
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    bool ok = i < want.size() ? eq(got[i], want[i]) : std::memcmp(&got[i], &sentinel, sizeof(T)) == 0;
    if (!ok && bad++ < 5)
      std::printf("  %s: element %zu: got %g want %g\n", what, i, double(got[i]),
                  i < want.size() ? double(want[i]) : double(sentinel));
  }
  if (bad) {
    std::printf("FAIL %s: %zu of %zu elements differ\n", what, bad, got.size());
    ++failures;
  } else {
    std::printf("ok   %s (%zu elements + guard)\n", what, want.size());
  }
}

static bool same_float(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }
static bool close_float(float a, float b) {
  return same_float(a, b) || std::fabs(a - b) <= 2e-6f * std::fmax(1.0f, std::fabs(b));
}

static void test_add(const char* what, int64_t n, int64_t offset, int64_t stride) {
  std::vector<float> x = randoms(offset + n * stride), y = randoms(n);
  std::vector<float> z(n + kGuard, kSentinel), want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = x[offset + i * stride] + y[i];
  DeviceBuffer<float> dx(x), dy(y), dz(z);
  int64_t grid = (n + 127) / 128;
  auto a = launch_args({grid}, {tensor(dz.ptr, {n}, {1}, {128}),
                                tensor(dx.ptr + offset, {n}, {stride}), tensor(dy.ptr, {n}, {1})});
  if (run<&::add<128>>(what, a)) expect(what, dz.get(), want, kSentinel, same_float);
}

static void test_axpy2d() {
  const int64_t M = 100, N = 200;
  std::vector<float> x = randoms(M * N);
  std::vector<float> z(M * N + kGuard, kSentinel), want(M * N);
  const float alpha = 0.75f;
  const int n = 3;
  for (int64_t i = 0; i < M * N; ++i)
    want[i] = (x[i] > 0 ? std::exp(x[i] * alpha) : 0.0f) + float(n);
  DeviceBuffer<float> dx(x), dz(z);
  auto a = launch_args({(M + 31) / 32, (N + 63) / 64},
                       {tensor(dz.ptr, {M, N}, {N, 1}, {32, 64}), tensor(dx.ptr, {M, N}, {N, 1}),
                        scalar<float>(alpha), scalar<int>(n)});
  if (run<&::axpy2d<32, 64>>("axpy2d<32,64> 100x200", a))
    expect("axpy2d<32,64> 100x200", dz.get(), want, kSentinel, close_float);
}

static void test_shift() {
  const int64_t n = 1000;
  std::vector<float> x = randoms(n);
  std::vector<float> z(n + kGuard, kSentinel), want(n);
  for (int64_t j = 0; j < n; ++j)
    want[j] = j % 128 == 127 ? kSentinel : (j + 1 < n ? x[j + 1] : 0.0f);
  DeviceBuffer<float> dx(x), dz(z);
  auto a = launch_args({(n + 127) / 128}, {tensor(dz.ptr, {n}, {1}, {128}), tensor(dx.ptr, {n}, {1})});
  if (run<&::shift<128>>("shift<128> (store at offset -1)", a))
    expect("shift<128> (store at offset -1)", dz.get(), want, kSentinel, same_float);
}

static void test_small() {
  const int64_t n = 50;
  std::uniform_real_distribution<double> d(-20.0, 20.0);
  std::vector<double> x(n), z(n + kGuard, double(kSentinel)), want(n);
  for (auto& v : x) v = d(rng);
  for (int64_t i = 0; i < n; ++i) {
    double c = i % 16 == 15 ? INFINITY : double(i % 16 + 1);
    want[i] = std::fmax(x[i], c);
  }
  DeviceBuffer<double> dx(x), dz(z);
  auto a = launch_args({(n + 15) / 16}, {tensor(dz.ptr, {n}, {1}, {16}), tensor(dx.ptr, {n}, {1})});
  if (run<&::small>("small (16xf64 replicated on 8 warps)", a))
    expect("small (16xf64 replicated on 8 warps)", dz.get(), want, double(kSentinel),
           [](double p, double q) { return p == q; });
}

static void test_scale() {
  const int64_t n = 10000;
  std::vector<float> x = randoms(n);
  std::vector<float> z(n + kGuard, kSentinel), want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = x[i] * 2.0f;
  DeviceBuffer<float> dx(x), dz(z);
  auto a = launch_args({(n + 4095) / 4096}, {tensor(dz.ptr, {n}, {1}, {4096}), tensor(dx.ptr, {n}, {1})});
  if (run<&::scale<4096>>("scale<4096> (8 warps)", a))
    expect("scale<4096> (8 warps)", dz.get(), want, kSentinel, same_float);
}

static void test_copy2d_transposed() {
  const int64_t M = 100, N = 200;
  std::vector<float> x = randoms(M * N);  // column-major M x N
  std::vector<float> z(M * N + kGuard, kSentinel), want(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) want[i * N + j] = x[j * M + i];
  DeviceBuffer<float> dx(x), dz(z);
  auto a = launch_args({(M + 31) / 32, (N + 63) / 64},
                       {tensor(dz.ptr, {M, N}, {N, 1}, {32, 64}), tensor(dx.ptr, {M, N}, {1, M})});
  if (run<&::copy2d<32, 64>>("copy2d<32,64> from a transposed view", a))
    expect("copy2d<32,64> from a transposed view", dz.get(), want, kSentinel, same_float);
}

static void test_colsum() {
  const int64_t n = 300, rows = 7;
  std::vector<float> x = randoms(n * rows);
  std::vector<float> z(n + kGuard, kSentinel), want(n);
  for (int64_t i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int64_t k = 0; k < rows; ++k) acc += x[k * n + i];
    want[i] = acc + float(i % 128);
  }
  DeviceBuffer<float> dx(x), dz(z);
  auto a = launch_args({(n + 127) / 128}, {tensor(dz.ptr, {n}, {1}, {128}),
                                           tensor(dx.ptr, {n * rows}, {1}), scalar<long>(n)});
  if (run<&::colsum<128>>("colsum<128> (scf.for, tile iter_arg)", a))
    expect("colsum<128> (scf.for, tile iter_arg)", dz.get(), want, kSentinel, same_float);
}

static void test_ints() {
  const int64_t n = 1000;
  std::uniform_int_distribution<int32_t> d(-1000, 1000);
  std::vector<int32_t> x(n), z(n + kGuard, -777), want(n);
  std::vector<__half> h(n + kGuard, __float2half(kSentinel)), hwant(n);
  for (auto& v : x) v = d(rng);
  long k = 3, w = k;
  while (w < 100) w *= 2;
  for (int64_t i = 0; i < n; ++i) {
    int32_t v = x[i];
    int32_t dv = v / 3, r = int32_t(uint32_t(v) % 3u), s = int32_t(uint32_t(v) >> 3);
    int32_t x1 = std::max(dv, r) ^ s;
    want[i] = (i / 256) % 2 == 0 ? x1 + int32_t(w) : 3 - x1;
    hwant[i] = __float2half(std::sqrt(std::fabs(__half2float(__float2half(float(v))))));
  }
  DeviceBuffer<int32_t> dx(x), dz(z);
  DeviceBuffer<__half> dh(h);
  auto a = launch_args({(n + 255) / 256}, {tensor(dz.ptr, {n}, {1}, {256}),
                                           tensor(dh.ptr, {n}, {1}, {256}),
                                           tensor(dx.ptr, {n}, {1}), scalar<long>(k)});
  if (run<&::ints<256>>("ints<256> (integer ops, scf.if, scf.while)", a)) {
    expect("ints<256> (integer ops, scf.if, scf.while)", dz.get(), want, int32_t(-777),
           [](int32_t p, int32_t q) { return p == q; });
    std::vector<__half> got = dh.get();
    std::vector<float> gotf(got.size()), wantf(n);
    for (size_t i = 0; i < got.size(); ++i) gotf[i] = __half2float(got[i]);
    for (int64_t i = 0; i < n; ++i) wantf[i] = __half2float(hwant[i]);
    expect("ints<256> f16 output", gotf, wantf, __half2float(__float2half(kSentinel)), same_float);
  }
}

static void test_mask() {
  const int64_t n = 1500;
  std::vector<float> xf = randoms(n, -4.0f, 4.0f);
  std::vector<__nv_bfloat16> x(n), z(n + kGuard, __float2bfloat16(kSentinel));
  std::vector<float> want(n);
  std::vector<unsigned char> m(n + kGuard, 7), mwant(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = __float2bfloat16(xf[i]);
    float v = __bfloat162float(x[i]);
    bool pos = v > 0.0f;
    // bf16 arithmetic rounds every result to bf16, as the device does.
    want[i] = __bfloat162float(pos ? __float2bfloat16(v * 2.0f) : __float2bfloat16(std::exp(v)));
    mwant[i] = pos ? 1 : 0;
  }
  DeviceBuffer<__nv_bfloat16> dx(x), dz(z);
  DeviceBuffer<unsigned char> dm(m);
  auto a = launch_args({(n + 511) / 512}, {tensor(dz.ptr, {n}, {1}, {512}),
                                           tensor(dm.ptr, {n}, {1}, {512}), tensor(dx.ptr, {n}, {1})});
  if (run<&::mask<512>>("mask<512> (bf16 math, i1 output)", a)) {
    std::vector<__nv_bfloat16> got = dz.get();
    std::vector<float> gotf(got.size());
    for (size_t i = 0; i < got.size(); ++i) gotf[i] = __bfloat162float(got[i]);
    expect("mask<512> bf16 output", gotf, want, __bfloat162float(__float2bfloat16(kSentinel)),
           same_float);
    expect("mask<512> i1 output", dm.get(), mwant, (unsigned char)7,
           [](unsigned char p, unsigned char q) { return p == q; });
  }
}

int main() {
  test_add("add<128> n=1000", 1000, 0, 1);
  test_add("add<128> n=1000003", 1000003, 0, 1);
  test_add("add<128> misaligned x", 1000, 1, 1);
  test_add("add<128> strided x", 1000, 0, 3);
  test_add("add<128> n=5 (one ragged piece)", 5, 0, 1);
  test_axpy2d();
  test_shift();
  test_small();
  test_scale();
  test_copy2d_transposed();
  test_colsum();
  test_ints();
  test_mask();
  if (failures) {
    std::printf("FAIL: %d check(s) failed\n", failures);
    return 1;
  }
  std::printf("all kernels match the reference\n");
  return 0;
}
