// examples/column_stats/column_stats.tile.cpp - per-column statistics with K-loops and branches.
//
//   column_stats [ROWS COLS [FIRST STEP MAX_ROWS]]   (defaults: 1000 x 777, rows 3, 8, 13, ...
//                                                     at most 100 of them)
//
// Two kernels whose tile programs loop over the matrix:
//  * fold_rows<BM, BN>: program (i, 0) adds up the BM x BN tiles of its row block across all
//    column tiles (a counted K-loop, scf.for; the sum carried in registers), so
//    out[i][j] = sum over k of x[i][k * BN + j].
//  * column_stats<BN>: program (0, j) walks the rows of its BN-wide column strip with
//    `continue` (rows outside FIRST, FIRST + STEP, ...) and `break` (after MAX_ROWS rows), and
//    an if/else-if chain picks the sum, the maximum or the mean of the rows it took (scf.while
//    and scf.if carrying tiles).
// Both are checked element by element against a host reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <tile/tile.hpp>
#include <vector>

template <int BM, int BN>
TILE_KERNEL void fold_rows(tile::Tensor<float, BM, BN>& out,
                           const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto tiles = x.partition<BM, BN>();
  tile::Tile<float, BM, BN> acc; // zeros
  for (int64_t k = 0; k < tile::num_tiles(tiles, 1); ++k)
    acc += tiles.load(tile::block_id(0), k);
  out.store(acc);
}

enum Stat : int { Sum = 0, Max = 1, Mean = 2 };

template <int BN>
TILE_KERNEL void column_stats(tile::Tensor<float, 1, BN>& out,
                              const tile::Tensor<float, tile::dyn, tile::dyn>& x, int64_t first,
                              int64_t step, int64_t max_rows, int stat) {
  auto rows = x.partition<1, BN>();
  const int64_t strip = tile::block_id(1);
  tile::Tile<float, 1, BN> sum;
  auto best = tile::full<float, 1, BN>(-std::numeric_limits<float>::max());
  int64_t count = 0;
  for (int64_t r = 0; r < x.shape(0); ++r) {
    if (r < first || (r - first) % step != 0)
      continue;
    if (count == max_rows)
      break;
    auto t = rows.load(r, strip);
    sum = sum + t;
    best = tile::max(best, t);
    ++count;
  }
  tile::Tile<float, 1, BN> result;
  if (count == 0)
    result = tile::zeros<float, 1, BN>();
  else if (stat == Sum)
    result = sum;
  else if (stat == Max)
    result = best;
  else
    result = sum / float(count);
  out.store(result);
}

int main(int argc, char** argv) {
  const long long rows = argc > 2 ? std::atoll(argv[1]) : 1000;
  const long long cols = argc > 2 ? std::atoll(argv[2]) : 777;
  const long long first = argc > 5 ? std::atoll(argv[3]) : 3;
  const long long step = argc > 5 ? std::atoll(argv[4]) : 5;
  const long long max_rows = argc > 5 ? std::atoll(argv[5]) : 100;
  if (rows <= 0 || cols <= 0 || first < 0 || step <= 0 || max_rows < 0) {
    std::fprintf(stderr, "usage: column_stats [ROWS COLS [FIRST STEP>0 MAX_ROWS]]\n");
    return 2;
  }
  try {
    const auto n = static_cast<std::size_t>(rows * cols);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
    std::vector<float> hx(n);
    for (auto& v : hx) v = dist(rng);
    auto x = tile::from_host(hx, {rows, cols});
    int bad = 0;
    auto report = [&](const char* what, long long i, long long j, float got, float want) {
      if (++bad <= 10)
        std::printf("mismatch in %s at [%lld][%lld]: got %.9g, expected %.9g\n", what, i, j, got,
                    want);
    };

    // fold_rows: 16 x 64 tiles; out has the shape of x's first column block.
    constexpr int BM = 16, BN = 64;
    auto folded = tile::launch<fold_rows<BM, BN>>(tile::zeros<float>({rows, BN}).partition<BM, BN>(), x)
                      .sync()
                      .unpartition()
                      .to_host();
    for (long long i = 0; i < rows; ++i)
      for (long long j = 0; j < BN; ++j) {
        float want = 0.0f;
        for (long long c = j; c < cols; c += BN) want += hx[static_cast<std::size_t>(i * cols + c)];
        const float got = folded[static_cast<std::size_t>(i * BN + j)];
        if (!(got == want)) report("fold_rows", i, j, got, want);
      }

    // column_stats: every statistic over the same rows.
    for (int stat : {Sum, Max, Mean}) {
      auto h = tile::launch<column_stats<128>>(tile::zeros<float>({1, cols}).partition<1, 128>(), x,
                                               int64_t(first), int64_t(step), int64_t(max_rows), stat)
                   .sync()
                   .unpartition()
                   .to_host();
      for (long long j = 0; j < cols; ++j) {
        float sum = 0.0f, best = -std::numeric_limits<float>::max();
        long long count = 0;
        for (long long r = first; r < rows && count < max_rows; r += step, ++count) {
          const float v = hx[static_cast<std::size_t>(r * cols + j)];
          sum += v;
          best = std::fmax(best, v);
        }
        const float want = count == 0 ? 0.0f : stat == Sum ? sum : stat == Max ? best : sum / float(count);
        if (!(h[static_cast<std::size_t>(j)] == want))
          report(stat == Sum ? "column_stats(sum)" : stat == Max ? "column_stats(max)" : "column_stats(mean)", 0,
                 j, h[static_cast<std::size_t>(j)], want);
      }
    }
    if (bad) {
      std::printf("column_stats: %d elements wrong on %s\n", bad, tile::default_device().name().c_str());
      return 1;
    }
    std::printf("column_stats: %lld x %lld OK on %s\n", rows, cols, tile::default_device().name().c_str());
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "column_stats: %s\n", e.what());
    return 1;
  }
}
