// examples/histogram/histogram.tile.cpp - a histogram and output slots claimed with tile::Atomic.
//
//   histogram [N]   (default: 1000003 values)
//
// Program i reads values [1024i, 1024i + 1024) (bin numbers; -1 marks a value to skip). It
// counts them per bin in registers (one-hot compare against the bin numbers, summed along the
// values) and adds its 64 counts to the shared histogram with one atomic tile update. It then
// claims a run of output slots as long as its count of kept values with a scalar atomic_add on
// a cursor, whose old value is where its run starts, and records that start in its piece. The
// largest value seen goes through atomic_max. Every bin, every claimed run and the maximum are
// checked against a host reference.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <tile/tile.hpp>
#include <vector>

constexpr int kBins = 64, kBlock = 1024;

template <int Bins, int Block>
TILE_KERNEL void histogram(tile::Tensor<int64_t, 1>& start, const tile::Tensor<int32_t, tile::dyn>& x,
                           tile::Atomic<int32_t, Bins>& bins, tile::Atomic<int64_t, 1>& cursor,
                           tile::Atomic<int32_t, 1>& largest) {
  // Past the end of x, values read as 0: mask them out with -1.
  auto index = tile::iota<int64_t, Block>() + tile::block_id(0) * Block;
  auto v = tile::where(index < x.shape(0), x.partition<Block>().load(tile::block_id(0)), -1);
  auto one_hot = tile::broadcast<Bins, Block>(tile::reshape<1, Block>(v)) ==
                 tile::broadcast<Bins, Block>(tile::reshape<Bins, 1>(tile::iota<int32_t, Bins>()));
  bins.atomic_add(tile::sum<1>(tile::cast<int32_t>(one_hot)), 0);
  const int64_t kept = tile::sum(tile::cast<int64_t>(v >= 0));
  start.store(tile::full<int64_t, 1>(cursor.atomic_add(kept, 0)));
  largest.atomic_max(tile::max(v), 0);
}

int main(int argc, char** argv) {
  const long long n = argc > 1 ? std::atoll(argv[1]) : 1000003;
  if (n <= 0) {
    std::fprintf(stderr, "usage: histogram [N]   (N >= 1)\n");
    return 2;
  }
  try {
    std::mt19937 rng(std::random_device{}());
    std::uniform_int_distribution<int32_t> dist(-1, kBins - 1);
    std::vector<int32_t> hx(static_cast<std::size_t>(n));
    for (auto& v : hx) v = dist(rng);
    const long long programs = (n + kBlock - 1) / kBlock;

    auto x = tile::from_host(hx, {n});
    auto bins = tile::zeros<int32_t>({kBins});
    auto cursor = tile::zeros<int64_t>({1});
    auto largest = tile::full<int32_t>({1}, -1);
    auto start = tile::full<int64_t>({programs}, -1);
    tile::launch<histogram<kBins, kBlock>>(start.partition_mut<1>(), x, bins, cursor, largest).sync();
    const std::vector<int32_t> got = bins.to_host();
    const std::vector<int64_t> starts = start.to_host();
    const int64_t end = cursor.to_host()[0];
    const int32_t top = largest.to_host()[0];

    int bad = 0;
    std::vector<int32_t> want(kBins, 0);
    std::vector<int64_t> kept(static_cast<std::size_t>(programs), 0);
    for (long long i = 0; i < n; ++i)
      if (hx[i] >= 0) ++want[hx[i]], ++kept[i / kBlock];
    for (int b = 0; b < kBins; ++b)
      if (got[b] != want[b] && ++bad <= 10)
        std::printf("bin %d: got %d, expected %d\n", b, got[b], want[b]);
    // The runs the programs claimed must tile [0, total kept) in some order.
    std::vector<long long> order(static_cast<std::size_t>(programs));
    std::iota(order.begin(), order.end(), 0LL);
    std::sort(order.begin(), order.end(), [&](long long a, long long b) {
      return starts[a] != starts[b] ? starts[a] < starts[b] : kept[a] < kept[b];
    });
    int64_t next = 0;
    for (long long p : order) {
      if (starts[p] != next && ++bad <= 10)
        std::printf("program %lld's run starts at %lld, expected %lld\n", p,
                    static_cast<long long>(starts[p]), static_cast<long long>(next));
      next = starts[p] + kept[p];
    }
    const int64_t total = std::accumulate(kept.begin(), kept.end(), int64_t{0});
    if (end != total && ++bad <= 10)
      std::printf("cursor: got %lld, expected %lld\n", static_cast<long long>(end),
                  static_cast<long long>(total));
    const int32_t max_want = *std::max_element(hx.begin(), hx.end());
    if (top != max_want && ++bad <= 10) std::printf("largest: got %d, expected %d\n", top, max_want);
    if (bad) {
      std::printf("histogram: %d wrong results on %s\n", bad, tile::default_device().name().c_str());
      return 1;
    }
    std::printf("histogram: %lld values, %lld programs OK on %s\n", n, programs,
                tile::default_device().name().c_str());
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "histogram: %s\n", e.what());
    return 1;
  }
}
