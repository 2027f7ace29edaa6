// examples/pipeline/pipeline.tile.cpp - composed ops: then, zip, async, a swizzled partition and
// a replayed graph, checked element by element.
//
//   pipeline [ROWS COLS REPLAYS]   (defaults: 1000 x 777, 5 replays)
//
//   d = relu(a * x + y)     one op, then() its continuation, on a swizzled 2-D partition
//   w = x * y               an independent op, zipped with the first and issued with async()
//   w += 1, REPLAYS times   a graph captured once and replayed
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tile/tile.hpp>
#include <vector>

using Matrix = tile::Tensor<float, tile::dyn, tile::dyn>;

template <int BM, int BN>
TILE_KERNEL void scale_add(tile::Tensor<float, BM, BN>& d, const Matrix& x, const Matrix& y, float a) {
  d.store(a * tile::load_tile_like(x, d) + tile::load_tile_like(y, d));
}

template <int BM, int BN>
TILE_KERNEL void relu(tile::Tensor<float, BM, BN>& d) {
  d.store(tile::max(d.load(), 0.0f));
}

template <int BM, int BN>
TILE_KERNEL void multiply(tile::Tensor<float, BM, BN>& w, const Matrix& x, const Matrix& y) {
  w.store(tile::load_tile_like(x, w) * tile::load_tile_like(y, w));
}

template <int BM, int BN>
TILE_KERNEL void increment(tile::Tensor<float, BM, BN>& w) {
  w.store(w.load() + 1.0f);
}

int main(int argc, char** argv) {
  const long long rows = argc > 3 ? std::atoll(argv[1]) : 1000;
  const long long cols = argc > 3 ? std::atoll(argv[2]) : 777;
  const int replays = argc > 3 ? std::atoi(argv[3]) : 5;
  if (rows <= 0 || cols <= 0 || replays < 0) {
    std::fprintf(stderr, "usage: pipeline [ROWS COLS REPLAYS]\n");
    return 2;
  }
  try {
    const auto n = static_cast<std::size_t>(rows * cols);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::vector<float> hx(n), hy(n);
    for (auto& v : hx) v = dist(rng);
    for (auto& v : hy) v = dist(rng);
    const float a = dist(rng);

    auto x = tile::from_host(hx, {rows, cols});
    auto y = tile::from_host(hy, {rows, cols});

    auto d_op = tile::launch<scale_add<32, 64>>(
                    tile::zeros<float>({rows, cols}).partition<32, 64>().map(tile::swizzle<4>{}), x, y, a)
                    .then([](auto d) { return tile::launch<relu<32, 64>>(std::move(d)); });
    auto w_op = tile::launch<multiply<64, 32>>(tile::zeros<float>({rows, cols}).partition<64, 32>(), x, y);
    auto [d, w] = tile::zip(std::move(d_op), std::move(w_op)).async().get();

    auto graph = tile::launch<increment<64, 32>>(std::move(w)).graph();
    for (int r = 0; r < replays; ++r) graph.sync();

    const std::vector<float> hd = std::move(d).unpartition().to_host();
    const std::vector<float> hw = std::move(graph).get().unpartition().to_host();

    int bad = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const float want_d = std::max(a * hx[k] + hy[k], 0.0f);
      const float want_w = hx[k] * hy[k] + static_cast<float>(replays);
      const float tol_d = 1e-6f * (std::fabs(a * hx[k]) + std::fabs(hy[k]) + 1.0f);  // fma on the GPU
      const float tol_w = 1e-6f * (std::fabs(want_w) + static_cast<float>(replays) + 1.0f);
      if (!(std::fabs(hd[k] - want_d) <= tol_d) || !(std::fabs(hw[k] - want_w) <= tol_w)) {
        if (++bad <= 10)
          std::printf("mismatch at %zu: d %.9g (expected %.9g), w %.9g (expected %.9g)\n", k, hd[k], want_d,
                      hw[k], want_w);
      }
    }
    if (bad) {
      std::printf("pipeline: %d of %zu elements wrong on %s\n", bad, n, tile::default_device().name().c_str());
      return 1;
    }
    std::printf("pipeline: %lld x %lld elements, %d graph replays OK on %s\n", rows, cols, replays,
                tile::default_device().name().c_str());
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "pipeline: %s\n", e.what());
    return 1;
  }
}
