// examples/add/add.tile.cpp - z = x + y, one tile program per 128-element piece of z.
//
//   add [N]   (default N = 1000003, a length no tile size divides)
//
// Valid C++ as it stands: built with a plain C++ compiler it runs on tile_rt's CPU path;
// compiled by tilecc it runs the generated CUDA kernel.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tile/tile.hpp>
#include <vector>

// One tile program per 128-element piece of z.
template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z,                // exclusive: this program's piece
                     const tile::Tensor<float, tile::dyn>& x,  // shared: the whole input
                     const tile::Tensor<float, tile::dyn>& y) {
  auto tx = tile::load_tile_like(x, z);  // the tile of x at z's position
  auto ty = tile::load_tile_like(y, z);
  z.store(tx + ty);
}

int main(int argc, char** argv) {
  const long long n = argc > 1 ? std::atoll(argv[1]) : 1000003;
  if (n <= 0) {
    std::fprintf(stderr, "usage: add [N > 0]\n");
    return 2;
  }
  try {
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    std::vector<float> hx(static_cast<std::size_t>(n)), hy(static_cast<std::size_t>(n));
    for (auto& v : hx) v = dist(rng);
    for (auto& v : hy) v = dist(rng);

    auto x = tile::from_host(hx);
    auto y = tile::from_host(hy);
    auto z = tile::zeros<float>({n});
    auto op = tile::launch<add<128>>(std::move(z).partition<128>(), x, y);  // lazy: nothing runs yet
    std::vector<float> hz = std::move(op).sync().unpartition().to_host();   // runs; ownership returns

    int bad = 0;
    for (long long i = 0; i < n; ++i) {
      const float want = hx[i] + hy[i];
      if (hz[i] != want) {
        if (++bad <= 10) std::printf("mismatch at z[%lld]: got %.9g, expected %.9g\n", i, hz[i], want);
      }
    }
    if (bad) {
      std::printf("add: %d of %lld elements wrong on %s\n", bad, n, tile::default_device().name().c_str());
      return 1;
    }
    std::printf("add: %lld elements OK on %s\n", n, tile::default_device().name().c_str());
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "add: %s\n", e.what());
    return 1;
  }
}
