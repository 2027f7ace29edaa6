// examples/saxpy/saxpy.tile.cpp - out = a * x + y with a scalar kernel parameter.
//
//   saxpy [N] [a]   (defaults: N = 1000003, a = 2.5)
//
// Each tile program writes its own 256-element piece of `out`; x and y are shared inputs.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tile/tile.hpp>
#include <vector>

template <int B>
TILE_KERNEL void saxpy(tile::Tensor<float, B>& out, float a, const tile::Tensor<float, tile::dyn>& x,
                       const tile::Tensor<float, tile::dyn>& y) {
  auto tx = tile::load_tile_like(x, out);
  auto ty = tile::load_tile_like(y, out);
  out.store(a * tx + ty);
}

int main(int argc, char** argv) {
  const long long n = argc > 1 ? std::atoll(argv[1]) : 1000003;
  const float a = argc > 2 ? std::strtof(argv[2], nullptr) : 2.5f;
  if (n <= 0) {
    std::fprintf(stderr, "usage: saxpy [N > 0] [a]\n");
    return 2;
  }
  try {
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> hx(static_cast<std::size_t>(n)), hy(static_cast<std::size_t>(n));
    for (auto& v : hx) v = dist(rng);
    for (auto& v : hy) v = dist(rng);

    auto x = tile::from_host(hx);
    auto y = tile::from_host(hy);
    auto out = tile::empty<float>({n});
    auto result = tile::launch<saxpy<256>>(std::move(out).partition<256>(), a, x, y).sync().unpartition();
    const std::vector<float> h = result.to_host();

    // The GPU may fuse a * x + y into one fma: allow a rounding of the products' size.
    int bad = 0;
    for (long long i = 0; i < n; ++i) {
      const float want = a * hx[i] + hy[i];
      const float tol = 1e-6f * (std::fabs(a * hx[i]) + std::fabs(hy[i]));
      if (!(std::fabs(h[i] - want) <= tol)) {
        if (++bad <= 10) std::printf("mismatch at out[%lld]: got %.9g, expected %.9g\n", i, h[i], want);
      }
    }
    if (bad) {
      std::printf("saxpy: %d of %lld elements wrong on %s\n", bad, n, tile::default_device().name().c_str());
      return 1;
    }
    std::printf("saxpy: %lld elements OK on %s\n", n, tile::default_device().name().c_str());
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "saxpy: %s\n", e.what());
    return 1;
  }
}
