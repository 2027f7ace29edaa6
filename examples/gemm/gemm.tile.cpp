// examples/gemm/gemm.tile.cpp - C = A x B with tile::mma on tensor cores.
//
//   gemm [M N K]   (defaults: 300 x 200 x 100)
//
// Program (i, j) owns the 64 x 64 tile C[i, j] and walks K in steps of 32, accumulating
// tile::mma(A tile, B tile, acc) in float; edges past M, N or K read zeros. Run three times:
// with f16 inputs, with bf16 inputs, and with bf16 inputs where B is the transpose of an N x K
// array (`w.transpose()`, as a linear layer stores its weight: nothing is copied), each
// checked element by element against a double-precision host product of the same (rounded)
// inputs.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tile/tile.hpp>
#include <vector>

template <class T, int BM, int BN, int BK>
TILE_KERNEL void gemm(tile::Tensor<float, BM, BN>& c,
                      const tile::Tensor<T, tile::dyn, tile::dyn>& a,
                      const tile::Tensor<T, tile::dyn, tile::dyn>& b) {
  auto at = tile::partition<BM, BK>(a);
  auto bt = tile::partition<BK, BN>(b);
  tile::Tile<float, BM, BN> acc;
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, tile::block_id(1)), acc);
  c.store(acc);
}

template <class T>
static int run(const char* name, long long m, long long n, long long k, bool transposed = false) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<T> ha(static_cast<std::size_t>(m * k)), hb(static_cast<std::size_t>(k * n));
  for (auto& v : ha) v = T(dist(rng));
  for (auto& v : hb) v = T(dist(rng));
  auto a = tile::from_host(ha, {m, k});
  auto c = tile::zeros<float>({m, n});
  if (transposed) {
    // hb holds B^T, N x K: element (p, j) of B is hb[j * k + p].
    auto w = tile::from_host(hb, {n, k});
    tile::launch<gemm<T, 64, 64, 32>>(c.partition_mut<64, 64>(), a, w.view().transpose()).sync();
  } else {
    auto b = tile::from_host(hb, {k, n});
    tile::launch<gemm<T, 64, 64, 32>>(c.partition_mut<64, 64>(), a, b).sync();
  }
  const std::vector<float> hc = c.to_host();
  int bad = 0;
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j) {
      double want = 0, scale = 0;
      for (long long p = 0; p < k; ++p) {
        const double x = float(ha[i * k + p]) * double(float(hb[transposed ? j * k + p : p * n + j]));
        want += x;
        scale += std::fabs(x);
      }
      const float got = hc[static_cast<std::size_t>(i * n + j)];
      if (!(std::fabs(got - want) <= 1e-5 * scale + 1e-6) && ++bad <= 10)
        std::printf("%s: c[%lld][%lld] = %.9g, expected %.9g\n", name, i, j, got, want);
    }
  if (bad)
    std::printf("gemm %s: %d wrong elements on %s\n", name, bad,
                tile::default_device().name().c_str());
  else
    std::printf("gemm %s: %lld x %lld x %lld OK on %s\n", name, m, n, k,
                tile::default_device().name().c_str());
  return bad ? 1 : 0;
}

int main(int argc, char** argv) {
  const long long m = argc > 3 ? std::atoll(argv[1]) : 300;
  const long long n = argc > 3 ? std::atoll(argv[2]) : 200;
  const long long k = argc > 3 ? std::atoll(argv[3]) : 100;
  if (m <= 0 || n <= 0 || k <= 0) {
    std::fprintf(stderr, "usage: gemm [M N K]\n");
    return 2;
  }
  try {
    return run<tile::f16>("f16", m, n, k) | run<tile::bf16>("bf16", m, n, k) |
           run<tile::bf16>("bf16, B transposed", m, n, k, true);
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "gemm: %s\n", e.what());
    return 1;
  }
}
