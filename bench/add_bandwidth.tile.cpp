// Times tilecc's add (examples/add's kernel) on N float32 elements: the median wall time of one
// launch + sync, after a warm-up, and prints GB/s counting 2 reads + 1 write per element.
// Usage: add_bandwidth [log2 N = 28] [repeats = 50]
#include <tile/tile.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x,
                     const tile::Tensor<float, tile::dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}

int main(int argc, char** argv) {
  const int64_t n = int64_t(1) << (argc > 1 ? std::atoi(argv[1]) : 28);
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 50;
  std::vector<float> hx(n), hy(n);
  uint32_t seed = 12345;
  for (int64_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    hx[i] = float(seed >> 8) / float(1 << 24);
    hy[i] = float(i % 1000) * 0.25f;
  }
  auto x = tile::from_host(hx, {n});
  auto y = tile::from_host(hy, {n});
  auto z = tile::empty<float>({n});
  std::vector<double> times;
  for (int r = 0; r < repeats + 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    z = tile::launch<add<4096>>(std::move(z).partition<4096>(), x, y).sync().unpartition();
    auto t1 = std::chrono::steady_clock::now();
    if (r >= 5)
      times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  std::vector<float> hz = z.to_host();
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad += hz[i] != hx[i] + hy[i];
  std::printf("tilecc add<4096>: n=%lld median %.3f ms, %.1f GB/s, mismatches %lld, device %s\n",
              (long long)n, median * 1e3, 3.0 * 4.0 * double(n) / median / 1e9, (long long)bad,
              tile::default_device().name().c_str());
  return bad == 0 ? 0 : 1;
}
