// examples/tensor_parallel/tensor_parallel.tile.cpp - a linear layer y = x W over several devices.
//
//   tensor_parallel [M N K]   (defaults: 96 x 512 x 160; N a multiple of the number of ranks)
//
// The weight is split by columns (tensor parallelism): W is stored transposed, N x K, as a linear
// layer stores it, and tile::shard<0> gives rank r the rows of W^T that are its N/n columns of W.
// x (M x K) is broadcast from rank 0 to every rank. Each rank computes its columns of y,
// transposed: y_r^T = W_r^T x^T, an (N/n) x M block, with tile::mma on its own device; an
// all-gather stacks the blocks in rank order, so that every rank then holds all of y^T (N x M).
// Every element on every rank is checked against the same layer computed on one device (equal
// bit for bit: each element is the same sum in the same order) and against a double-precision
// host product. The ranks are tile::device_count() devices: the GPUs, or on the CPU backend the
// TILE_CPU_DEVICES simulated ones.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tile/tile.hpp>
#include <vector>

using tile::bf16;

/// C = A B for one 64 x 64 tile of C; A is rows x K, B is K x cols (here a transposed view).
template <int BM, int BN, int BK>
TILE_KERNEL void matmul(tile::Tensor<float, BM, BN>& c, const tile::Tensor<bf16, tile::dyn, tile::dyn>& a,
                        const tile::Tensor<bf16, tile::dyn, tile::dyn>& b) {
  auto at = tile::partition<BM, BK>(a);
  auto bt = tile::partition<BK, BN>(b);
  tile::Tile<float, BM, BN> acc;
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, tile::block_id(1)), acc);
  c.store(acc);
}

constexpr int BM = 64, BN = 64, BK = 32;

int main(int argc, char** argv) {
  const long long m = argc > 3 ? std::atoll(argv[1]) : 96;
  const long long n = argc > 3 ? std::atoll(argv[2]) : 512;
  const long long k = argc > 3 ? std::atoll(argv[3]) : 160;
  auto comm = tile::Communicator::all();
  const int ranks = comm.size();
  if (n % ranks != 0) {
    std::fprintf(stderr, "N = %lld is not a multiple of the %d ranks\n", n, ranks);
    return 2;
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<bf16> hx(static_cast<std::size_t>(m * k)), hwt(static_cast<std::size_t>(n * k));
  for (auto& v : hx) v = bf16(dist(rng));
  for (auto& v : hwt) v = bf16(dist(rng));

  // The weight's columns, one block per rank; x on every rank.
  const auto wt = tile::from_host(hwt, {n, k}, comm.device(0));
  const std::vector<tile::Array<bf16>> w = tile::shard<0>(wt, comm);
  std::vector<tile::Array<bf16>> x;
  for (int r = 0; r < ranks; ++r)
    x.push_back(r == 0 ? tile::from_host(hx, {m, k}, comm.device(0)) : tile::empty<bf16>({m, k}, comm.device(r)));
  tile::ops::broadcast(comm, x, 0).sync();

  // Each rank's block of y^T, on its device (the ranks run at once), then the all-gather.
  std::vector<tile::Array<float>> block, y;
  for (int r = 0; r < ranks; ++r) {
    block.push_back(tile::zeros<float>({n / ranks, m}, comm.device(r)));
    y.push_back(tile::zeros<float>({n, m}, comm.device(r)));
  }
  std::vector<tile::Future<void>> running;
  for (int r = 0; r < ranks; ++r)
    running.push_back(
        tile::launch<matmul<BM, BN, BK>>(block[r].partition_mut<BM, BN>(), w[r], x[r].view().transpose()).async());
  for (auto& f : running) f.wait();
  tile::ops::all_gather(comm, block, y).sync();

  // The same layer on one device.
  auto whole = tile::zeros<float>({n, m}, comm.device(0));
  tile::launch<matmul<BM, BN, BK>>(whole.partition_mut<BM, BN>(), wt, x[0].view().transpose()).sync();
  const std::vector<float> want = whole.to_host();
  long long bad = 0;
  for (long long j = 0; j < n; ++j)
    for (long long i = 0; i < m; ++i) {
      double dot = 0;
      for (long long p = 0; p < k; ++p)
        dot += double(float(hwt[std::size_t(j * k + p)])) * double(float(hx[std::size_t(i * k + p)]));
      const float got = want[std::size_t(j * m + i)];
      if (!(std::fabs(got - dot) <= 1e-4 * (1.0 + std::fabs(dot))) && ++bad <= 5)
        std::printf("  one device: y[%lld][%lld] = %.7g, expected %.7g\n", i, j, got, dot);
    }
  for (int r = 0; r < ranks; ++r) {
    const std::vector<float> got = y[r].to_host();
    for (std::size_t e = 0; e < got.size(); ++e)
      if (got[e] != want[e] && ++bad <= 5)
        std::printf("  rank %d: y^T element %zu = %.7g, one device gives %.7g\n", r, e, got[e], want[e]);
  }
  std::printf("tensor-parallel linear layer %lld x %lld x %lld over %d ranks (%s ...): %lld wrong elements\n", m,
              n, k, ranks, comm.device(0).name().c_str(), bad);
  return bad == 0 ? 0 : 1;
}
