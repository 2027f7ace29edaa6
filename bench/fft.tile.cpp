// bench/fft.tile.cpp - the FFT example's kernels (examples/fft/fft.tile.cpp, included as they
// are) against cuFFT in the same process, on the GPU: batched complex-to-complex f32, forward.
//
//   fft [N...]   (default: 256 1024 4096 16384; each one of 256 512 1024 2048 4096 16384)
//
// Each N transforms 2^25 / N rows (256 MB of complex<float> in, 256 MB out: far past the
// H200's 60 MB L2). The same random input goes to the tilecc transform and to cufftExecC2C (a
// batched 1-D plan, out of place), and every output element of tilecc's is compared with
// cuFFT's: the relative norm error of each row at most 1e-5 and no element off by more than
// 1e-4 of its row's RMS. Three rows are also compared with a double-precision host FFT, which
// checks cuFFT and tilecc alike. Only then are both timed, each as the median over kSamples of
// kRepeats back-to-back transforms (tilecc: a replayed graph of kRepeats chained launches;
// cuFFT: kRepeats cufftExecC2C calls then a synchronization), counting one read and one write
// of the data:
//
//   RESULT fft_c64_<N> batch=<B>: tilecc <GB/s> (<ms>), cufft <GB/s> (<ms>), ratio <r>
//
// bench/gpu/fft.sh builds (tilecc's CUDA of this file, nvcc, -lcufft) and runs it.
#define TILE_FFT_NO_MAIN
#include "examples/fft/fft.tile.cpp"

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

constexpr int kRepeats = 10;  // transforms per timed sample
constexpr int kSamples = 15;  // timed samples (the median is reported)

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "fft bench: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void cufft_check(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS) {
    std::fprintf(stderr, "fft bench: %s: cuFFT error %d\n", what, int(r));
    std::exit(1);
  }
}

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// `Count` launches of `make()`'s op, each continuing the previous one's partition.
template <int Count, class Make, class P>
auto chain(const Make& make, P p) {
  if constexpr (Count == 1)
    return make(std::move(p));
  else
    return make(std::move(p)).then([&make](P q) { return chain<Count - 1>(make, std::move(q)); });
}

/// Row-by-row agreement of `got` with `want` (see the top of the file); prints the first misses.
bool agrees(const char* what, const cf* got, const std::vector<std::complex<double>>& want,
            long long rows, long long n, long long row0 = 0, double* worst = nullptr) {
  int bad = 0;
  for (long long r = 0; r < rows; ++r) {
    double err2 = 0, ref2 = 0;
    for (long long k = 0; k < n; ++k) {
      const std::complex<double> g(got[r * n + k].real(), got[r * n + k].imag());
      err2 += std::norm(g - want[size_t(r * n + k)]);
      ref2 += std::norm(want[size_t(r * n + k)]);
    }
    const double rms = std::sqrt(ref2 / double(n)), rel = std::sqrt(err2 / ref2);
    if (worst) *worst = std::max(*worst, rel);
    if (!(rel <= 1e-5) && ++bad <= 5)
      std::printf("  %s: row %lld relative norm error %.3g\n", what, row0 + r, rel);
    for (long long k = 0; k < n; ++k) {
      const std::complex<double> g(got[r * n + k].real(), got[r * n + k].imag());
      if (!(std::abs(g - want[size_t(r * n + k)]) <= 1e-4 * rms) && ++bad <= 5)
        std::printf("  %s: [%lld][%lld] = (%.7g, %.7g), expected (%.7g, %.7g)\n", what, row0 + r, k,
                    g.real(), g.imag(), want[size_t(r * n + k)].real(),
                    want[size_t(r * n + k)].imag());
    }
  }
  return bad == 0;
}

template <int N>
bool run() {
  const long long batch = (1LL << 25) / N;
  const size_t total = size_t(batch) * N;
  std::mt19937 rng(20261205 + unsigned(N));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<cf> hx(total);
  for (auto& v : hx) v = cf(dist(rng), dist(rng));

  // tilecc: one transform, read back.
  auto x = tile::from_host(hx, {batch, N});
  auto y = tile::empty<cf>({batch, N});
  auto make = [&](auto p) { return fft_op<N, false>(std::move(p), x); };
  y = make(std::move(y).template partition<kRows<N>, N>()).sync().unpartition();
  const std::vector<cf> got = y.to_host();

  // cuFFT on the same input.
  cufftComplex *din = nullptr, *dout = nullptr;
  cuda_check(cudaMalloc(reinterpret_cast<void**>(&din), total * sizeof(cufftComplex)),
             "cudaMalloc");
  cuda_check(cudaMalloc(reinterpret_cast<void**>(&dout), total * sizeof(cufftComplex)),
             "cudaMalloc");
  cuda_check(cudaMemcpy(din, hx.data(), total * sizeof(cf), cudaMemcpyHostToDevice), "cudaMemcpy");
  cufftHandle plan;
  cufft_check(cufftPlan1d(&plan, int(N), CUFFT_C2C, int(batch)), "cufftPlan1d");
  cufft_check(cufftExecC2C(plan, din, dout, CUFFT_FORWARD), "cufftExecC2C");
  cuda_check(cudaDeviceSynchronize(), "cufftExecC2C");
  std::vector<cf> base(total);
  cuda_check(cudaMemcpy(base.data(), dout, total * sizeof(cf), cudaMemcpyDeviceToHost),
             "cudaMemcpy");

  // Every element of tilecc's output against cuFFT's, one row at a time.
  bool ok = true;
  double worst = 0;
  std::vector<std::complex<double>> want(static_cast<size_t>(N));
  for (long long r = 0; r < batch && ok; ++r) {
    for (int64_t k = 0; k < N; ++k)
      want[size_t(k)] = {base[r * N + k].real(), base[r * N + k].imag()};
    ok = agrees("tilecc vs cuFFT", &got[r * N], want, 1, N, r, &worst);
  }
  // Three rows of both against the double-precision reference.
  double worst_ref[2] = {0, 0};
  for (long long r : {0LL, batch / 2, batch - 1}) {
    for (int64_t k = 0; k < N; ++k) want[size_t(k)] = {hx[r * N + k].real(), hx[r * N + k].imag()};
    reference_fft(want, false);
    ok &= agrees("tilecc vs double", &got[r * N], want, 1, N, r, &worst_ref[0]);
    ok &= agrees("cuFFT vs double", &base[r * N], want, 1, N, r, &worst_ref[1]);
  }
  std::printf(
      "fft N=%lld batch=%lld: every element against cuFFT (worst row %.2e); rows 0, "
      "%lld, %lld against double: tilecc %.2e, cuFFT %.2e: %s\n",
      (long long)N, batch, worst, batch / 2, batch - 1, worst_ref[0], worst_ref[1],
      ok ? "OK" : "WRONG");
  if (!ok) {
    std::printf("FAILED fft_c64_%lld\n", (long long)N);
    cufftDestroy(plan);
    cudaFree(din);
    cudaFree(dout);
    return false;
  }

  // Timing: tilecc as a replayed graph of kRepeats launches.
  auto g = chain<kRepeats>(make, std::move(y).template partition<kRows<N>, N>()).graph();
  g.sync();
  std::vector<double> t;
  for (int s = 0; s < kSamples; ++s) {
    auto t0 = std::chrono::steady_clock::now();
    g.sync();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double tilecc_s = median(t) / kRepeats;

  // cuFFT: kRepeats calls, then a synchronization.
  for (int w = 0; w < 3; ++w)
    cufft_check(cufftExecC2C(plan, din, dout, CUFFT_FORWARD), "cufftExecC2C");
  cuda_check(cudaDeviceSynchronize(), "cufftExecC2C");
  t.clear();
  for (int s = 0; s < kSamples; ++s) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kRepeats; ++i)
      cufft_check(cufftExecC2C(plan, din, dout, CUFFT_FORWARD), "cufftExecC2C");
    cuda_check(cudaDeviceSynchronize(), "cufftExecC2C");
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double cufft_s = median(t) / kRepeats;
  cufftDestroy(plan);
  cudaFree(din);
  cudaFree(dout);

  const double bytes = 2.0 * double(total) * sizeof(cf);
  std::printf(
      "RESULT fft_c64_%lld batch=%lld: tilecc %.1f GB/s (%.3f ms), cufft %.1f GB/s "
      "(%.3f ms), ratio %.3f\n",
      (long long)N, batch, bytes / tilecc_s / 1e9, tilecc_s * 1e3, bytes / cufft_s / 1e9,
      cufft_s * 1e3, cufft_s / tilecc_s);
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long long> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty()) sizes = {256, 1024, 4096, 16384};
  std::printf("device %s\n", tile::default_device().name().c_str());
  bool ok = true;
  try {
    for (long long n : sizes) {
      switch (n) {
        case 256: ok &= run<256>(); break;
        case 512: ok &= run<512>(); break;
        case 1024: ok &= run<1024>(); break;
        case 2048: ok &= run<2048>(); break;
        case 4096: ok &= run<4096>(); break;
        case 16384: ok &= run<16384>(); break;
        default:
          std::fprintf(stderr, "usage: fft [N...]   (N: 256 512 1024 2048 4096 16384)\n");
          return 2;
      }
    }
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "fft bench: %s\n", e.what());
    return 1;
  }
  return ok ? 0 : 1;
}
