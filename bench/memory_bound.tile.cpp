// bench/memory_bound.tile.cpp - memory-bound tile kernels as a user writes them, checked then
// timed: row softmax (f32), LayerNorm and RMSNorm (bf16, one row per program), GEMV (bf16, a
// K loop of row sums of a broadcast product), a transpose (f32), add (f32) and a copy (f32).
//
//   memory_bound [WORKLOAD...]    (default: all; names as in bench/results/latest.json)
//
// Each workload runs once on fresh random inputs and every output element is compared with a
// host reference computed in double; then a CUDA graph of kRepeats launches is replayed
// kSamples times and the median time per launch is reported as `RESULT <workload> <GB/s>`,
// counting each input read once and each output written once. Every input is larger than the
// H200's 60 MB L2, so each launch reads from device memory. bench/gpu/memory_bound.sh runs
// this and torch's baselines in the same run and writes the JSON record.
#include <tile/tile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

using tile::bf16;
using tile::dyn;

// ---- the kernels ------------------------------------------------------------------------

template <int N>
TILE_KERNEL void softmax_row(tile::Tensor<float, 1, N>& y, const tile::Tensor<float, dyn, dyn>& x) {
  auto t = tile::load_tile_like(x, y);
  auto e = tile::exp(t - tile::broadcast<1, N>(tile::reshape<1, 1>(tile::max<1>(t))));
  y.store(e / tile::broadcast<1, N>(tile::reshape<1, 1>(tile::sum<1>(e))));
}

template <int N>
TILE_KERNEL void layernorm_row(tile::Tensor<bf16, 1, N>& y, const tile::Tensor<bf16, dyn, dyn>& x,
                               const tile::Tensor<bf16, dyn>& w, const tile::Tensor<bf16, dyn>& b,
                               float eps) {
  auto t = tile::cast<float>(tile::load_tile_like(x, y));
  auto mean = tile::sum<1>(t) / float(N);
  auto c = t - tile::broadcast<1, N>(tile::reshape<1, 1>(mean));
  auto rstd = tile::rsqrt(tile::sum<1>(c * c) / float(N) + eps);
  auto g = tile::cast<float>(w.partition<N>().load(0));
  auto h = tile::cast<float>(b.partition<N>().load(0));
  y.store(tile::cast<bf16>(c * tile::broadcast<1, N>(tile::reshape<1, 1>(rstd)) *
                               tile::broadcast<1, N>(g) +
                           tile::broadcast<1, N>(h)));
}

template <int N>
TILE_KERNEL void rmsnorm_row(tile::Tensor<bf16, 1, N>& y, const tile::Tensor<bf16, dyn, dyn>& x,
                             const tile::Tensor<bf16, dyn>& w, float eps) {
  auto t = tile::cast<float>(tile::load_tile_like(x, y));
  auto rrms = tile::rsqrt(tile::sum<1>(t * t) / float(N) + eps);
  auto g = tile::cast<float>(w.partition<N>().load(0));
  y.store(tile::cast<bf16>(t * tile::broadcast<1, N>(tile::reshape<1, 1>(rrms)) *
                           tile::broadcast<1, N>(g)));
}

template <int BM, int BK>
TILE_KERNEL void gemv(tile::Tensor<bf16, BM>& y, const tile::Tensor<bf16, dyn, dyn>& a,
                      const tile::Tensor<bf16, dyn>& x) {
  auto pa = a.partition<BM, BK>();
  auto px = x.partition<BK>();
  auto acc = tile::zeros<float, BM>();
  for (int64_t k = 0; k < tile::num_tiles(pa, 1); ++k)
    acc = acc + tile::sum<1>(tile::cast<float>(pa.load(tile::block_id(0), k)) *
                             tile::broadcast<BM, BK>(tile::cast<float>(px.load(k))));
  y.store(tile::cast<bf16>(acc));
}

template <int B>
TILE_KERNEL void transpose(tile::Tensor<float, B, B>& y, const tile::Tensor<float, dyn, dyn>& x) {
  y.store(tile::transpose(x.partition<B, B>().load(tile::block_id(1), tile::block_id(0))));
}

template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z, const tile::Tensor<float, dyn>& x,
                     const tile::Tensor<float, dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}

template <int B>
TILE_KERNEL void copy(tile::Tensor<float, B>& z, const tile::Tensor<float, dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

// ---- the harness ------------------------------------------------------------------------

namespace {

constexpr int kRepeats = 10; // launches per graph
constexpr int kSamples = 15; // graph replays timed

std::mt19937 rng(20261201);

std::vector<float> randomFloats(int64_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = d(rng);
  return v;
}

std::vector<bf16> randomBf16(int64_t n, float lo, float hi) {
  std::vector<float> f = randomFloats(n, lo, hi);
  std::vector<bf16> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = bf16(f[i]);
  return v;
}

double toDouble(float x) { return x; }
double toDouble(bf16 x) { return double(float(x)); }

/// Compares every element with a double reference: |got - want| <= rel * |want| + abs.
template <class T>
int64_t mismatches(const char* name, const std::vector<T>& got, const std::vector<double>& want,
                   double rel, double abs) {
  int64_t bad = 0;
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double g = toDouble(got[i]), w = want[i];
    num += (g - w) * (g - w), den += w * w;
    if (!(std::fabs(g - w) <= rel * std::fabs(w) + abs) && ++bad <= 5)
      std::printf("  %s[%zu]: got %.9g, expected %.9g\n", name, i, g, w);
  }
  std::printf("  %s: %lld of %zu elements wrong, relative error %.2e\n", name, (long long)bad,
              got.size(), std::sqrt(num / std::max(den, 1e-300)));
  return bad;
}

/// `kRepeats` launches of `make()`'s op, each continuing the previous one's partition.
template <int N, class Make, class P>
auto chain(const Make& make, P p) {
  if constexpr (N == 1)
    return make(std::move(p));
  else
    return make(std::move(p)).then([&make](P q) { return chain<N - 1>(make, std::move(q)); });
}

/// Median seconds per launch over graph replays of `kRepeats` launches.
template <class Make, class P>
double timeLaunches(const Make& make, P p) {
  auto g = chain<kRepeats>(make, std::move(p)).graph();
  g.sync();
  std::vector<double> t;
  for (int s = 0; s < kSamples; ++s) {
    auto t0 = std::chrono::steady_clock::now();
    g.sync();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] / kRepeats;
}

struct Outcome {
  bool ok = false;
  double seconds = 0;
  double bytes = 0;
};

void report(const std::string& workload, const Outcome& o) {
  if (!o.ok) {
    std::printf("FAILED %s\n", workload.c_str());
    return;
  }
  std::printf("RESULT %s %.1f GB/s (%.3f ms)\n", workload.c_str(), o.bytes / o.seconds / 1e9,
              o.seconds * 1e3);
}

template <int N>
Outcome softmax(int64_t rows) {
  auto hx = randomFloats(rows * N, -8.f, 8.f);
  auto x = tile::from_host(hx, {rows, int64_t(N)});
  auto y = tile::empty<float>({rows, int64_t(N)});
  auto make = [&](auto p) { return tile::launch<softmax_row<N>>(std::move(p), x); };
  y = make(std::move(y).template partition<1, N>()).sync().unpartition();
  std::vector<float> hy = y.to_host();
  std::vector<double> want(hy.size());
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = &hx[size_t(r * N)];
    double m = *std::max_element(row, row + N), s = 0;
    for (int j = 0; j < N; ++j) s += std::exp(double(row[j]) - m);
    for (int j = 0; j < N; ++j) want[size_t(r * N + j)] = std::exp(double(row[j]) - m) / s;
  }
  Outcome o;
  o.ok = mismatches("softmax", hy, want, 1e-5, 1e-9) == 0;
  o.bytes = 2.0 * 4.0 * double(rows) * N;
  o.seconds = timeLaunches(make, std::move(y).template partition<1, N>());
  return o;
}

template <int N, bool Layer>
Outcome norm(int64_t rows) {
  const float eps = 1e-5f;
  auto hx = randomBf16(rows * N, -4.f, 4.f);
  auto hw = randomBf16(N, 0.5f, 1.5f), hb = randomBf16(N, -1.f, 1.f);
  auto x = tile::from_host(hx, {rows, int64_t(N)});
  auto w = tile::from_host(hw, {int64_t(N)});
  auto b = tile::from_host(hb, {int64_t(N)});
  auto y = tile::empty<bf16>({rows, int64_t(N)});
  auto make = [&](auto p) {
    if constexpr (Layer)
      return tile::launch<layernorm_row<N>>(std::move(p), x, w, b, eps);
    else
      return tile::launch<rmsnorm_row<N>>(std::move(p), x, w, eps);
  };
  y = make(std::move(y).template partition<1, N>()).sync().unpartition();
  std::vector<bf16> hy = y.to_host();
  std::vector<double> want(hy.size());
  for (int64_t r = 0; r < rows; ++r) {
    const bf16* row = &hx[size_t(r * N)];
    double mean = 0, sq = 0;
    if (Layer) {
      for (int j = 0; j < N; ++j) mean += toDouble(row[j]);
      mean /= N;
    }
    for (int j = 0; j < N; ++j) sq += (toDouble(row[j]) - mean) * (toDouble(row[j]) - mean);
    double scale = 1.0 / std::sqrt(sq / N + eps);
    for (int j = 0; j < N; ++j)
      want[size_t(r * N + j)] = (toDouble(row[j]) - mean) * scale * toDouble(hw[j]) +
                                (Layer ? toDouble(hb[j]) : 0.0);
  }
  Outcome o;
  // bf16 output: one rounding (2^-8 relative) plus float arithmetic.
  o.ok = mismatches(Layer ? "layernorm" : "rmsnorm", hy, want, 8e-3, 1e-3) == 0;
  o.bytes = 2.0 * 2.0 * double(rows) * N;
  o.seconds = timeLaunches(make, std::move(y).template partition<1, N>());
  return o;
}

template <int BM, int BK>
Outcome gemvBench(int64_t rows, int64_t cols) {
  auto ha = randomBf16(rows * cols, -1.f, 1.f), hx = randomBf16(cols, -1.f, 1.f);
  auto a = tile::from_host(ha, {rows, cols});
  auto x = tile::from_host(hx, {cols});
  auto y = tile::empty<bf16>({rows});
  auto make = [&](auto p) { return tile::launch<gemv<BM, BK>>(std::move(p), a, x); };
  y = make(std::move(y).template partition<BM>()).sync().unpartition();
  std::vector<bf16> hy = y.to_host();
  std::vector<double> want(static_cast<size_t>(rows));
  double scale = 0;
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0, m = 0;
    for (int64_t k = 0; k < cols; ++k) {
      double p = toDouble(ha[size_t(r * cols + k)]) * toDouble(hx[size_t(k)]);
      s += p, m += std::fabs(p);
    }
    want[size_t(r)] = s;
    scale = std::max(scale, m);
  }
  Outcome o;
  // Float sums in another order: error relative to the sum of magnitudes.
  o.ok = mismatches("gemv", hy, want, 8e-3, 1e-5 * scale) == 0;
  o.bytes = 2.0 * (double(rows) * cols + cols + rows);
  o.seconds = timeLaunches(make, std::move(y).template partition<BM>());
  return o;
}

Outcome transposeBench(int64_t n) {
  constexpr int B = 64;
  auto hx = randomFloats(n * n, -1.f, 1.f);
  auto x = tile::from_host(hx, {n, n});
  auto y = tile::empty<float>({n, n});
  auto make = [&](auto p) { return tile::launch<transpose<B>>(std::move(p), x); };
  y = make(std::move(y).partition<B, B>()).sync().unpartition();
  std::vector<float> hy = y.to_host();
  std::vector<double> want(hy.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) want[size_t(i * n + j)] = hx[size_t(j * n + i)];
  Outcome o;
  o.ok = mismatches("transpose", hy, want, 0, 0) == 0;
  o.bytes = 2.0 * 4.0 * double(n) * n;
  o.seconds = timeLaunches(make, std::move(y).partition<B, B>());
  return o;
}

template <bool Add>
Outcome elementwise(int64_t n) {
  constexpr int B = 4096;
  auto hx = randomFloats(n, -1.f, 1.f), hy = randomFloats(n, -1.f, 1.f);
  auto x = tile::from_host(hx, {n});
  auto y = tile::from_host(hy, {n});
  auto z = tile::empty<float>({n});
  auto make = [&](auto p) {
    if constexpr (Add)
      return tile::launch<add<B>>(std::move(p), x, y);
    else
      return tile::launch<copy<B>>(std::move(p), x);
  };
  z = make(std::move(z).partition<B>()).sync().unpartition();
  std::vector<float> hz = z.to_host();
  std::vector<double> want(hz.size());
  for (size_t i = 0; i < want.size(); ++i) want[i] = Add ? double(hx[i] + hy[i]) : hx[i];
  Outcome o;
  o.ok = mismatches(Add ? "add" : "copy", hz, want, 0, 0) == 0;
  o.bytes = (Add ? 3.0 : 2.0) * 4.0 * double(n);
  o.seconds = timeLaunches(make, std::move(z).partition<B>());
  return o;
}

} // namespace

int main(int argc, char** argv) {
  const std::vector<std::pair<std::string, std::function<Outcome()>>> workloads = {
      {"softmax_f32_65536x1024", [] { return softmax<1024>(65536); }},
      {"softmax_f32_16384x4096", [] { return softmax<4096>(16384); }},
      {"softmax_f32_8192x8192", [] { return softmax<8192>(8192); }},
      {"softmax_f32_4096x16384", [] { return softmax<16384>(4096); }},
      {"layernorm_bf16_65536x1024", [] { return norm<1024, true>(65536); }},
      {"layernorm_bf16_16384x4096", [] { return norm<4096, true>(16384); }},
      {"layernorm_bf16_8192x8192", [] { return norm<8192, true>(8192); }},
      {"layernorm_bf16_4096x16384", [] { return norm<16384, true>(4096); }},
      {"rmsnorm_bf16_65536x1024", [] { return norm<1024, false>(65536); }},
      {"rmsnorm_bf16_16384x4096", [] { return norm<4096, false>(16384); }},
      {"rmsnorm_bf16_8192x8192", [] { return norm<8192, false>(8192); }},
      {"rmsnorm_bf16_4096x16384", [] { return norm<16384, false>(4096); }},
      // Row counts that programs in sequence do not divide: the last block runs fewer.
      {"layernorm_bf16_16383x4096", [] { return norm<4096, true>(16383); }},
      {"rmsnorm_bf16_4093x16384", [] { return norm<16384, false>(4093); }},
      {"gemv_bf16_8192x8192", [] { return gemvBench<8, 1024>(8192, 8192); }},
      {"gemv_bf16_4096x14336", [] { return gemvBench<8, 1024>(4096, 14336); }},
      {"gemv_bf16_8192x8192_bm4", [] { return gemvBench<4, 1024>(8192, 8192); }},
      {"gemv_bf16_4096x14336_bm4", [] { return gemvBench<4, 1024>(4096, 14336); }},
      {"gemv_bf16_8192x8192_bm16", [] { return gemvBench<16, 512>(8192, 8192); }},
      {"transpose_f32_8192x8192", [] { return transposeBench(8192); }},
      {"add_f32_2^28", [] { return elementwise<true>(int64_t(1) << 28); }},
      {"copy_f32_2^28", [] { return elementwise<false>(int64_t(1) << 28); }},
  };
  int failed = 0;
  std::printf("device %s\n", tile::default_device().name().c_str());
  for (const auto& [name, run] : workloads) {
    bool wanted = argc < 2;
    for (int i = 1; i < argc; ++i) wanted |= name == argv[i];
    if (!wanted) continue;
    std::printf("%s\n", name.c_str());
    std::fflush(stdout);
    try {
      Outcome o = run();
      report(name, o);
      failed += !o.ok;
    } catch (const std::exception& e) {
      std::printf("FAILED %s: %s\n", name.c_str(), e.what());
      ++failed;
    }
    std::fflush(stdout);
  }
  return failed ? 1 : 0;
}
