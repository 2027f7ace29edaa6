// Copies between views on the GPU (tile::ops::copy), against cudaMemcpyAsync of the same bytes
// (compact, device to device) measured in the same run:
//   compact     a whole array into another: one cudaMemcpyAsync
//   transposed  a transposed view into a compact array: tile_rt's kernel (shared-memory tiles)
//   step 2      every other column of a matrix into a compact array: the kernel
//   rows        a block of rows and columns of a larger matrix: the kernel
// Each is checked element by element against the host, then timed: median of `iterations` syncs
// of the op, as bandwidth counting bytes read and written. Needs a GPU.
// Usage: copy_bandwidth [n = 8192] [iterations = 50]
#include <tile/array_ops.hpp>
#include <tile/tile.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

double median_seconds(int iterations, const std::function<void()>& f) {
  std::vector<double> t;
  f();
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 8192;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 50;
  if (!tile::default_device().is_gpu()) {
    std::printf("copy_bandwidth: needs a GPU\n");
    return 0;
  }
  try {
    const auto src = tile::rand<float>({n, n}, 7);
    const std::vector<float> h = src.to_host();
    auto dst = tile::empty<float>({n, n});
    const int64_t odd = (n + 1) / 2;  // columns 0, 2, 4, ...
    auto half = tile::empty<float>({n, odd});
    auto block = tile::empty<float>({n / 2, n / 2});
    int64_t bad = 0;
    auto check = [&](const std::vector<float>& got, int64_t rows, int64_t cols, auto want) {
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) bad += got[static_cast<std::size_t>(r * cols + c)] != want(r, c);
    };
    const auto at = [&](int64_t r, int64_t c) { return h[static_cast<std::size_t>(r * n + c)]; };

    struct Case {
      const char* name;
      double bytes;
      std::function<void()> run;
    };
    std::vector<Case> cases = {
        {"compact", 2.0 * n * n * 4, [&] { tile::ops::copy(src, dst).sync(); }},
        {"transposed", 2.0 * n * n * 4, [&] { tile::ops::copy(src.view().transpose(), dst).sync(); }},
        {"step 2", 2.0 * n * odd * 4, [&] { tile::ops::copy(src.slice(1, 0, n, 2), half).sync(); }},
        {"rows", 2.0 * (n / 2) * (n / 2) * 4,
         [&] { tile::ops::copy(src.slice({{n / 4, n / 4 + n / 2}, {n / 8, n / 8 + n / 2}}), block).sync(); }},
    };
    cases[0].run();
    check(dst.to_host(), n, n, at);
    cases[1].run();
    check(dst.to_host(), n, n, [&](int64_t r, int64_t c) { return at(c, r); });
    cases[2].run();
    check(half.to_host(), n, odd, [&](int64_t r, int64_t c) { return at(r, 2 * c); });
    cases[3].run();
    check(block.to_host(), n / 2, n / 2, [&](int64_t r, int64_t c) { return at(n / 4 + r, n / 8 + c); });
    std::printf("copy_bandwidth: %lld x %lld float32 on %s, %lld wrong elements\n", (long long)n, (long long)n,
                tile::default_device().name().c_str(), (long long)bad);
    if (bad) return 1;

    // The baseline: cudaMemcpyAsync of n * n floats, device to device, on a stream of our own.
    void *a = nullptr, *b = nullptr;
    cudaMalloc(&a, n * n * 4);
    cudaMalloc(&b, n * n * 4);
    cudaStream_t s;
    cudaStreamCreate(&s);
    const double base = median_seconds(iterations, [&] {
      cudaMemcpyAsync(b, a, n * n * 4, cudaMemcpyDeviceToDevice, s);
      cudaStreamSynchronize(s);
    });
    const double base_bw = 2.0 * n * n * 4 / base / 1e9;
    std::printf("cudaMemcpyAsync: %.3f ms, %.1f GB/s\n", base * 1e3, base_bw);
    for (const Case& c : cases) {
      const double t = median_seconds(iterations, c.run);
      const double bw = c.bytes / t / 1e9;
      std::printf("%-11s %.3f ms, %.1f GB/s, %.2f of cudaMemcpyAsync's bandwidth\n", c.name, t * 1e3, bw,
                  bw / base_bw);
    }
    cudaFree(a);
    cudaFree(b);
    cudaStreamDestroy(s);
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "copy_bandwidth: %s\n", e.what());
    return 1;
  }
}
