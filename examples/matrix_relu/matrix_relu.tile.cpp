// examples/matrix_relu/matrix_relu.tile.cpp - c = relu(a) * b + 1 over a matrix, 2-D tiles.
//
//   matrix_relu [ROWS COLS]   (defaults: 1000 x 777, sides no tile size divides)
//
// A 2-D grid of tile programs, each owning a 32 x 64 piece of c. It reads the tile of `a` at
// its piece's position with load_tile_like, and the same tile of `b` through a tiled view
// indexed by its grid coordinates (block_id); both read zeros past the matrix's edge, and the
// store to the clipped edge piece drops what lies outside the matrix.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tile/tile.hpp>
#include <vector>

template <int BM, int BN>
TILE_KERNEL void relu_mul_add(tile::Tensor<float, BM, BN>& c,
                              const tile::Tensor<float, tile::dyn, tile::dyn>& a,
                              const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
  auto ta = tile::load_tile_like(a, c);
  auto tb = b.partition<BM, BN>().load(tile::block_id(0), tile::block_id(1));
  c.store(tile::max(ta, 0.0f) * tb + 1.0f);
}

int main(int argc, char** argv) {
  const long long rows = argc > 2 ? std::atoll(argv[1]) : 1000;
  const long long cols = argc > 2 ? std::atoll(argv[2]) : 777;
  if (rows <= 0 || cols <= 0) {
    std::fprintf(stderr, "usage: matrix_relu [ROWS COLS]\n");
    return 2;
  }
  try {
    const auto n = static_cast<std::size_t>(rows * cols);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::vector<float> ha(n), hb(n);
    for (auto& v : ha) v = dist(rng);
    for (auto& v : hb) v = dist(rng);

    auto a = tile::from_host(ha, {rows, cols});
    auto b = tile::from_host(hb, {rows, cols});
    auto c = tile::zeros<float>({rows, cols});
    auto op = tile::launch<relu_mul_add<32, 64>>(std::move(c).partition<32, 64>(), a, b);
    const std::vector<float> h = std::move(op).sync().unpartition().to_host();

    int bad = 0;
    for (long long i = 0; i < rows; ++i) {
      for (long long j = 0; j < cols; ++j) {
        const std::size_t k = static_cast<std::size_t>(i * cols + j);
        const float want = std::max(ha[k], 0.0f) * hb[k] + 1.0f;
        const float tol = 1e-6f * (std::fabs(std::max(ha[k], 0.0f) * hb[k]) + 1.0f);  // fma on the GPU
        if (!(std::fabs(h[k] - want) <= tol)) {
          if (++bad <= 10)
            std::printf("mismatch at c[%lld][%lld]: got %.9g, expected %.9g\n", i, j, h[k], want);
        }
      }
    }
    if (bad) {
      std::printf("matrix_relu: %d of %zu elements wrong on %s\n", bad, n,
                  tile::default_device().name().c_str());
      return 1;
    }
    std::printf("matrix_relu: %lld x %lld elements OK on %s\n", rows, cols,
                tile::default_device().name().c_str());
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "matrix_relu: %s\n", e.what());
    return 1;
  }
}
