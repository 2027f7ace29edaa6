// Times a launch with tile::benchmark and picks a piece size with tile::autotune.
#include <cstdio>
#include <tile/tile.hpp>
#include <vector>

template <int B>
TILE_KERNEL void axpy(tile::Tensor<float, B>& y, const tile::Tensor<float, tile::dyn>& x, float a) {
  y.store(a * tile::load_tile_like(x, y) + y.load());
}

int main() {
  const long long n = 1 << 20;
  auto x = tile::from_host(std::vector<float>(n, 1.0f));
  auto y = tile::zeros<float>({n});

  tile::BenchmarkOptions quick;
  quick.warmup_ms = 5;
  quick.rep_ms = 20;
  const tile::BenchmarkResult t =
      tile::benchmark([&] { return tile::launch<axpy<1024>>(y.partition_mut<1024>(), x, 2.0f); }, quick);
  std::printf("axpy<1024>: median %.3f ms, min %.3f ms over %d runs (%.1f GB/s)\n", t.median_ms,
              t.min_ms, t.runs, 3.0 * 4 * double(n) / (t.median_ms * 1e-3) / 1e9);

  // The fastest of three piece sizes for this shape, chosen once and remembered.
  tile::autotune<axpy<256>, axpy<1024>, axpy<4096>>(y, x, 2.0f).sync();
  return t.runs >= quick.min_runs ? 0 : 1;
}
