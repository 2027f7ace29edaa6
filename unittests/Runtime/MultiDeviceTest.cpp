// Several devices on the CPU backend (ctest label `multidevice`; four simulated devices): simulated
// devices are distinct places for arrays and launches; copies cross between them; collectives
// (tile/collective.hpp) compute the right values, borrow their arrays like launches do, compose
// with other ops, and refuse arrays on the wrong device, of the wrong size or lent elsewhere; a
// communicator joined through a rendezvous directory holds one rank of a larger world.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <vector>

#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

// Four simulated devices on the CPU backend whatever the machine has; tile_rt reads both
// variables on first use, after this.
const bool kFourSimulatedDevices = [] {
  setenv("TILE_DEVICE", "cpu", 1);
  setenv("TILE_CPU_DEVICES", "4", 1);
  return true;
}();

using tile::dyn;
using tile::Tensor;

template <int B>
TILE_KERNEL void scale(Tensor<float, B>& z, const Tensor<float, dyn>& x, float a) {
  z.store(tile::load_tile_like(x, z) * a);
}

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

/// One array per rank: rank r holds f(r, i) at element i.
template <class T, class F>
std::vector<tile::Array<T>> per_rank(const tile::Communicator& comm, int64_t n, F f) {
  std::vector<tile::Array<T>> arrays;
  for (int r = 0; r < comm.size(); ++r) {
    std::vector<T> h(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) h[static_cast<std::size_t>(i)] = f(r, i);
    arrays.push_back(tile::from_host(h, {n}, comm.device(r)));
  }
  return arrays;
}

TEST(MultiDevice, SimulatedDevicesAreDistinct) {
  ASSERT_EQ(tile::device_count(), 4);
  EXPECT_TRUE(tile::device(0) == tile::default_device());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(tile::device(i) == tile::device(j), i == j);
  EXPECT_FALSE(tile::device(3).is_gpu());
  EXPECT_EQ(tile::device(3).ordinal(), 3);
  EXPECT_HAS(tile::device(3).name(), "cpu:3");
  EXPECT_HAS(error_of([] { tile::device(4); }), "there are 4 simulated CPU devices");
  EXPECT_HAS(error_of([] { tile::cpu_device(-1); }), "TILE_CPU_DEVICES");
}

TEST(MultiDevice, ALaunchRunsWhereItsArraysAre) {
  auto x = tile::from_host(std::vector<float>{1, 2, 3, 4}, {4}, tile::device(2));
  auto z = tile::zeros<float>({4}, tile::device(2));
  tile::launch<scale<4>>(z.partition_mut<4>(), x, 2.0f).sync();
  EXPECT_TRUE(z.device() == tile::device(2));
  EXPECT_EQ(z.to_host(), (std::vector<float>{2, 4, 6, 8}));
  auto elsewhere = tile::zeros<float>({4}, tile::device(1));
  EXPECT_HAS(error_of([&] { tile::launch<scale<4>>(elsewhere.partition_mut<4>(), x, 2.0f).sync(); }),
             "all arrays of a launch must be on one device");
}

TEST(MultiDevice, AResetOfOneDeviceLeavesTheOthersArrays) {
  auto kept = tile::zeros<float>({4}, tile::device(1));
  auto lost = tile::zeros<float>({4}, tile::device(2));
  tile::detail::inject_device_reset(tile::device(2));
  tile::launch<increment<4>>(kept.partition_mut<4>()).sync();
  EXPECT_EQ(kept.to_host(), (std::vector<float>{1, 1, 1, 1}));
  EXPECT_HAS(error_of([&] { (void)lost.to_host(); }), "was lost when the device was reset");
  EXPECT_HAS(error_of([&] { tile::ops::copy(kept, lost).sync(); }), "tile::ops::copy (dst)");
}

TEST(MultiDevice, CopiesCrossDevices) {
  auto a = tile::from_host(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, tile::device(0));
  auto b = tile::zeros<float>({2, 3}, tile::device(3));
  tile::ops::copy(a, b).sync();
  EXPECT_EQ(b.to_host(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  auto column = tile::zeros<float>({2, 1}, tile::device(1));
  tile::ops::copy(a.slice(1, 2, 3), column).sync();  // a strided view
  EXPECT_EQ(column.to_host(), (std::vector<float>{3, 6}));
}

TEST(MultiDevice, AllReduceCombinesEveryRank) {
  auto comm = tile::Communicator::all();
  ASSERT_EQ(comm.size(), 4);
  auto sums = per_rank<float>(comm, 5, [](int r, int64_t i) { return float(r + 1) * float(i); });
  tile::ops::all_reduce(comm, sums).sync();
  auto maxes = per_rank<int32_t>(comm, 3, [](int r, int64_t i) { return int32_t((r * 7 + i * 3) % 5); });
  tile::ops::all_reduce(comm, maxes, tile::Reduction::max).sync();
  auto wraps = per_rank<int32_t>(comm, 1, [](int, int64_t) { return std::numeric_limits<int32_t>::max(); });
  tile::ops::all_reduce(comm, wraps).sync();
  for (int r = 0; r < 4; ++r) {
    EXPECT_TRUE(sums[r].device() == tile::device(r));
    EXPECT_EQ(sums[r].to_host(), (std::vector<float>{0, 10, 20, 30, 40}));
    EXPECT_EQ(maxes[r].to_host(), (std::vector<int32_t>{4, 4, 3}));
    EXPECT_EQ(wraps[r].to_host(), (std::vector<int32_t>{-4}));  // 4 * INT32_MAX wraps
  }
}

TEST(MultiDevice, MinAndMaxIgnoreNaN) {
  auto comm = tile::Communicator::all();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto a = per_rank<float>(comm, 1, [&](int r, int64_t) { return r == 1 ? nan : float(r) - 1.5f; });
  tile::ops::all_reduce(comm, a, tile::Reduction::min).sync();
  EXPECT_EQ(a[3].to_host(), std::vector<float>{-1.5f});
}

TEST(MultiDevice, BroadcastCopiesTheRoot) {
  auto comm = tile::Communicator::all();
  auto a = per_rank<double>(comm, 4, [](int r, int64_t i) { return r * 100.0 + double(i); });
  tile::ops::broadcast(comm, a, 2).sync();
  for (int r = 0; r < 4; ++r) EXPECT_EQ(a[r].to_host(), (std::vector<double>{200, 201, 202, 203}));
}

TEST(MultiDevice, AllGatherStacksInRankOrder) {
  auto comm = tile::Communicator::all();
  auto in = per_rank<int64_t>(comm, 2, [](int r, int64_t i) { return int64_t(r * 10 + i); });
  std::vector<tile::Array<int64_t>> out;
  for (int r = 0; r < 4; ++r) out.push_back(tile::zeros<int64_t>({4, 2}, comm.device(r)));
  tile::ops::all_gather(comm, in, out).sync();
  for (int r = 0; r < 4; ++r) EXPECT_EQ(out[r].to_host(), (std::vector<int64_t>{0, 1, 10, 11, 20, 21, 30, 31}));
}

TEST(MultiDevice, ReduceScatterGivesEachRankItsBlock) {
  auto comm = tile::Communicator::all();
  auto in = per_rank<float>(comm, 8, [](int r, int64_t i) { return float(i) + (r == 0 ? 100.0f : 0.0f); });
  std::vector<tile::Array<float>> out;
  for (int r = 0; r < 4; ++r) out.push_back(tile::zeros<float>({2}, comm.device(r)));
  tile::ops::reduce_scatter(comm, in, out).sync();
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ(out[r].to_host(), (std::vector<float>{4.0f * float(2 * r) + 100, 4.0f * float(2 * r + 1) + 100}));
}

TEST(MultiDevice, CollectivesRefuseMisplacedOrMissizedArrays) {
  auto comm = tile::Communicator::all();
  auto three = per_rank<float>(comm, 4, [](int, int64_t) { return 1.0f; });
  three.pop_back();
  EXPECT_HAS(error_of([&] { tile::ops::all_reduce(comm, three).sync(); }),
             "the communicator has 4 ranks but 3 arrays were given");
  auto swapped = per_rank<float>(comm, 4, [](int, int64_t) { return 1.0f; });
  std::swap(swapped[1], swapped[2]);
  EXPECT_HAS(error_of([&] { tile::ops::all_reduce(comm, swapped).sync(); }),
             "rank 1's output is on cpu:2");
  auto ragged = per_rank<float>(comm, 4, [](int, int64_t) { return 1.0f; });
  ragged[3] = tile::zeros<float>({5}, comm.device(3));
  EXPECT_HAS(error_of([&] { tile::ops::all_reduce(comm, ragged).sync(); }), "rank 3's arrays hold 5 elements");
  std::vector<tile::Array<float>> small;
  for (int r = 0; r < 4; ++r) small.push_back(tile::zeros<float>({3}, comm.device(r)));
  auto in = per_rank<float>(comm, 4, [](int, int64_t) { return 1.0f; });
  EXPECT_HAS(error_of([&] { tile::ops::all_gather(comm, in, small).sync(); }), "an output of 4 inputs");
  EXPECT_HAS(error_of([&] { tile::ops::broadcast(comm, in, 4).sync(); }), "root 4 is not a rank");
  EXPECT_HAS(error_of([&] {
               tile::Communicator({&tile::device(0), &tile::device(1), &tile::device(0)});
             }),
             "is given twice");
}

TEST(MultiDevice, SendRecvShiftsAroundARing) {
  auto comm = tile::Communicator::all();
  auto in = per_rank<float>(comm, 3, [](int r, int64_t i) { return float(10 * r) + float(i); });
  std::vector<tile::Array<float>> out;
  for (int r = 0; r < 4; ++r) out.push_back(tile::zeros<float>({3}, comm.device(r)));
  tile::ops::send_recv(comm, in, out, {3, 0, 1, 2}).sync();  // rank r receives rank r - 1's
  for (int r = 0; r < 4; ++r) {
    const float s = float(10 * ((r + 3) % 4));
    EXPECT_EQ(out[r].to_host(), (std::vector<float>{s, s + 1, s + 2})) << "rank " << r;
  }
}

TEST(MultiDevice, SendRecvLeavesRanksWithoutASourceAsTheyWere) {
  // Rank 0 sends to ranks 1 and 2, rank 2 to rank 3; rank 0 receives nothing.
  auto comm = tile::Communicator::all();
  auto in = per_rank<int32_t>(comm, 2, [](int r, int64_t i) { return int32_t(r * 10 + i); });
  auto out = per_rank<int32_t>(comm, 2, [](int, int64_t) { return int32_t(-7); });
  tile::ops::send_recv(comm, in, out, {-1, 0, 0, 2}).sync();
  EXPECT_EQ(out[0].to_host(), (std::vector<int32_t>{-7, -7}));
  EXPECT_EQ(out[1].to_host(), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(out[2].to_host(), (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(out[3].to_host(), (std::vector<int32_t>{20, 21}));
}

TEST(MultiDevice, SendRecvRefusesBadSourcesAndAliasedArrays) {
  auto comm = tile::Communicator::all();
  auto in = per_rank<float>(comm, 4, [](int, int64_t) { return 1.0f; });
  auto out = per_rank<float>(comm, 4, [](int, int64_t) { return 0.0f; });
  EXPECT_HAS(error_of([&] { tile::ops::send_recv(comm, in, out, {1, 2, 3}).sync(); }),
             "the communicator has 4 ranks but `from` names 3 sources");
  EXPECT_HAS(error_of([&] { tile::ops::send_recv(comm, in, out, {1, 2, 4, 0}).sync(); }),
             "rank 2 receives from 4, which is not a rank of 4");
  auto small = per_rank<float>(comm, 3, [](int, int64_t) { return 0.0f; });
  EXPECT_HAS(error_of([&] { tile::ops::send_recv(comm, in, small, {1, 2, 3, 0}).sync(); }),
             "rank 0's arrays hold 4 and 3 elements");
  // One array as a rank's input and output: a shared and an exclusive loan of one buffer.
  EXPECT_HAS(error_of([&] { tile::ops::send_recv(comm, out, out, {1, 2, 3, 0}).sync(); }),
             "borrowed");
}

TEST(MultiDevice, SendRecvOwningItsOutputsYieldsThem) {
  // A pipeline hand-off as one op: the outputs are moved in and come back when it has run.
  auto comm = tile::Communicator::all();
  auto in = per_rank<double>(comm, 2, [](int r, int64_t i) { return double(r) + 0.5 * double(i); });
  std::vector<tile::Array<double>> out;
  for (int r = 0; r < 4; ++r) out.push_back(tile::zeros<double>({2}, comm.device(r)));
  auto op = tile::ops::send_recv(comm, in, std::move(out), {-1, 0, 1, 2});
  EXPECT_HAS(error_of([&] { (void)in[1].view_mut(); }), "borrowed");  // inputs lent shared
  std::vector<tile::Array<double>> got = std::move(op).sync();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].to_host(), (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(got[3].to_host(), (std::vector<double>{2.0, 2.5}));
  EXPECT_TRUE(got[3].device() == tile::device(3));
}

TEST(MultiDevice, AJoinedCommunicatorHoldsOneRankOfTheWorld) {
  // One process holding rank 0 of 1 through a rendezvous directory: collectives take its one
  // array; the ranks of other processes have no device here.
  const std::string id = tile::Communicator::unique_id();
  {
    auto comm = tile::Communicator::join(id, 0, 1, tile::device(2));
    EXPECT_EQ(comm.size(), 1);
    EXPECT_EQ(comm.local_size(), 1);
    EXPECT_EQ(comm.rank_of(tile::device(2)), 0);
    auto a = per_rank<float>(comm, 3, [](int, int64_t i) { return float(i); });
    tile::ops::all_reduce(comm, a).sync();
    tile::ops::all_reduce(comm, a).sync();
    EXPECT_EQ(a[0].to_host(), (std::vector<float>{0, 1, 2}));
  }
  std::filesystem::remove_all(id);
  EXPECT_HAS(error_of([] { tile::Communicator::join("/nonexistent/rendezvous", 0, 2, tile::device(0)); }),
             "is not a rendezvous directory");
  EXPECT_HAS(error_of([] { tile::Communicator::join("/tmp", 2, 2, tile::device(0)); }),
             "rank 2 of 2; the rank must lie in [0, size)");
  EXPECT_HAS(error_of([] { tile::Communicator::from_environment(); }), "start the program with scripts/tile-launch");
}

TEST(MultiDevice, RankOfFindsEachDevicesRank) {
  // A communicator of some devices, in another order: ranks follow the list, not the ordinals.
  tile::Communicator comm({&tile::device(2), &tile::device(0)});
  EXPECT_EQ(comm.rank_of(tile::device(2)), 0);
  EXPECT_EQ(comm.rank_of(tile::device(0)), 1);
  EXPECT_EQ(comm.rank_of(tile::device(1)), -1);
  EXPECT_EQ(tile::Communicator::all().rank_of(tile::device(3)), 3);
}

TEST(MultiDevice, ACollectiveBorrowsItsArrays) {
  auto comm = tile::Communicator::all();
  auto a = per_rank<float>(comm, 4, [](int r, int64_t) { return float(r); });
  {
    auto pieces = a[2].partition_mut<4>();  // an exclusive loan outlives this statement
    EXPECT_HAS(error_of([&] { tile::ops::all_reduce(comm, a).sync(); }), "rank 2's output");
  }
  auto op = tile::ops::all_reduce(comm, a);  // holds exclusive loans until it runs
  EXPECT_HAS(error_of([&] { a[1].to_host(); }), "borrowed exclusively");
  std::move(op).sync();
  EXPECT_EQ(a[1].to_host(), (std::vector<float>(4, 6.0f)));
}

TEST(MultiDevice, CollectivesComposeWithLaunches) {
  // A data-parallel step as one op: each rank scales its shard into an array the op owns, then
  // the ranks sum their results; run synchronously, asynchronously and as a replayed graph.
  auto comm = tile::Communicator::all();
  auto x = per_rank<float>(comm, 8, [](int r, int64_t i) { return float(r) + float(i); });
  auto step = [&] {
    auto on = [&](int r) {
      return tile::launch<scale<8>>(tile::zeros<float>({8}, comm.device(r)).partition<8>(), x[r], 2.0f);
    };
    return tile::zip(on(0), on(1), on(2), on(3)).then([&comm](auto parts) {
      std::vector<tile::Array<float>> y;
      std::apply([&](auto&... p) { (y.push_back(std::move(p).unpartition()), ...); }, parts);
      return tile::ops::all_reduce(comm, std::move(y));
    });
  };
  std::vector<float> want(8);
  for (int i = 0; i < 8; ++i) want[static_cast<std::size_t>(i)] = 2.0f * (6.0f + 4.0f * float(i));
  std::vector<tile::Array<float>> y = step().sync();
  ASSERT_EQ(y.size(), 4u);
  EXPECT_TRUE(y[3].device() == tile::device(3));
  EXPECT_EQ(y[3].to_host(), want);
  EXPECT_EQ(step().async().get()[0].to_host(), want);
  // Replayed: every replay sums the ranks' current values again (0+1+2+3, then 4 * 6).
  auto graph = tile::ops::all_reduce(comm, per_rank<float>(comm, 8, [](int r, int64_t) { return float(r); }))
                   .graph();
  graph.sync();
  graph.sync();
  EXPECT_EQ(std::move(graph).get()[1].to_host(), std::vector<float>(8, 24.0f));
}

TEST(MultiDevice, ShardAndUnshardRoundTrip) {
  auto comm = tile::Communicator::all();
  std::vector<float> h(8 * 6);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = float(i);
  auto a = tile::from_host(h, {8, 6}, tile::device(1));
  auto rows = tile::shard<0>(a, comm);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[2].shape(), tile::Shape(2, 6));
  EXPECT_TRUE(rows[2].device() == tile::device(2));
  EXPECT_EQ(rows[2].to_host(), std::vector<float>(h.begin() + 24, h.begin() + 36));
  EXPECT_EQ(tile::unshard<0>(rows, tile::device(3)).to_host(), h);
  auto columns = tile::shard<1>(tile::from_host(h, {6, 8}, tile::device(0)), comm);
  EXPECT_EQ(columns[3].shape(), tile::Shape(6, 2));
  EXPECT_EQ(columns[3].to_host()[1], 7.0f);
  EXPECT_EQ(tile::unshard<1>(columns, tile::device(0)).to_host(), h);
  EXPECT_HAS(error_of([&] { tile::shard<1>(a, comm); }), "extent 6 does not divide into 4 equal blocks");
}

}  // namespace
