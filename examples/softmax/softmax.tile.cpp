// examples/softmax/softmax.tile.cpp - row softmax and row argmax: reductions in a tile kernel.
//
//   softmax [ROWS COLS]   (defaults: 1000 x 777; COLS at most 1024)
//
// Program i holds rows [4i, 4i + 4) as one 4 x 1024 tile. Columns past COLS are masked to -inf
// (iota + broadcast + where), so they vanish from the maximum and the sum; the row maximum and
// the row sum are broadcast back over the tile. A second kernel stores each row's argmax.
// Both are checked element by element against a host reference in double precision.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <tile/tile.hpp>
#include <vector>

constexpr int BM = 4, BN = 1024;

template <int M, int N>
TILE_KERNEL void softmax_rows(tile::Tensor<float, M, N>& out,
                              const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = x.partition<M, N>().load(tile::block_id(0), 0);
  auto column = tile::broadcast<M, N>(tile::iota<int64_t, N>());
  t = tile::where(column < x.shape(1), t, -std::numeric_limits<float>::infinity());
  auto row_max = tile::max<1>(t);
  auto e = tile::exp(t - tile::broadcast<M, N>(tile::reshape<M, 1>(row_max)));
  auto row_sum = tile::sum<1>(e);
  out.store(e / tile::broadcast<M, N>(tile::reshape<M, 1>(row_sum)));
}

template <int M, int N>
TILE_KERNEL void argmax_rows(tile::Tensor<int32_t, M>& out,
                             const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = x.partition<M, N>().load(tile::block_id(0), 0);
  auto column = tile::broadcast<M, N>(tile::iota<int64_t, N>());
  out.store(tile::argmax<1>(tile::where(column < x.shape(1), t,
                                        -std::numeric_limits<float>::infinity())));
}

int main(int argc, char** argv) {
  const long long rows = argc > 2 ? std::atoll(argv[1]) : 1000;
  const long long cols = argc > 2 ? std::atoll(argv[2]) : 777;
  if (rows <= 0 || cols <= 0 || cols > BN) {
    std::fprintf(stderr, "usage: softmax [ROWS COLS]   (1 <= COLS <= %d)\n", BN);
    return 2;
  }
  try {
    const auto n = static_cast<std::size_t>(rows * cols);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
    std::vector<float> hx(n);
    for (auto& v : hx) v = dist(rng);

    auto x = tile::from_host(hx, {rows, cols});
    auto y = tile::zeros<float>({rows, cols});
    auto idx = tile::zeros<int32_t>({rows});
    tile::launch<softmax_rows<BM, BN>>(y.partition_mut<BM, BN>(), x).sync();
    tile::launch<argmax_rows<BM, BN>>(idx.partition_mut<BM>(), x).sync();
    const std::vector<float> hy = y.to_host();
    const std::vector<int32_t> hi = idx.to_host();

    int bad = 0;
    for (long long i = 0; i < rows; ++i) {
      const float* row = &hx[static_cast<std::size_t>(i * cols)];
      const long long best = std::max_element(row, row + cols) - row;
      if (hi[static_cast<std::size_t>(i)] != best && ++bad <= 10)
        std::printf("argmax of row %lld: got %d, expected %lld\n", i, hi[i], best);
      double m = row[best], s = 0;
      for (long long j = 0; j < cols; ++j) s += std::exp(double(row[j]) - m);
      for (long long j = 0; j < cols; ++j) {
        const double want = std::exp(double(row[j]) - m) / s;
        const float got = hy[static_cast<std::size_t>(i * cols + j)];
        if (!(std::fabs(got - want) <= 1e-5 * want + 1e-7) && ++bad <= 10)
          std::printf("softmax[%lld][%lld]: got %.9g, expected %.9g\n", i, j, got, want);
      }
    }
    if (bad) {
      std::printf("softmax: %d wrong elements on %s\n", bad, tile::default_device().name().c_str());
      return 1;
    }
    std::printf("softmax: %lld x %lld rows and argmaxes OK on %s\n", rows, cols,
                tile::default_device().name().c_str());
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "softmax: %s\n", e.what());
    return 1;
  }
}
