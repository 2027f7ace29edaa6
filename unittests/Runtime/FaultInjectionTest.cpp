// Injected faults (tile/detail/runtime.hpp: inject_allocation_failure, inject_launch_failure)
// on the default device: an allocation or a launch that fails in the
// middle of an op throws tile::Error, returns every loan, frees every buffer the op made, and
// keeps the results of the steps before it; and a soak of random ops under random faults
// leaks no buffer and computes every result that did not fail correctly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "tile/tile.hpp"

namespace {

using tile::Tensor;

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

template <int B>
TILE_KERNEL void add_to(Tensor<float, B>& z, const Tensor<float, tile::dyn>& x) {
  z.store(z.load() + tile::load_tile_like(x, z));
}

/// The device a graph of these kernels is captured on: they have no GPU code (this file is not
/// compiled by tilecc), so on a GPU they run on host copies, which no graph can hold; the CPU
/// backend captures them.
const tile::Device& graph_device() {
  return tile::default_device().is_gpu() ? tile::cpu_device() : tile::default_device();
}

/// Turns both injections off when a test ends, whatever happened.
class FaultInjection : public ::testing::Test {
 protected:
  void TearDown() override {
    tile::detail::inject_allocation_failure(-1);
    tile::detail::inject_launch_failure(-1);
  }
};

TEST_F(FaultInjection, AFailedAllocationInAnOpFreesWhatTheOpMade) {
  const int64_t before = tile::detail::live_buffers();
  {
    auto op = tile::zip(tile::ops::zeros<float>({256}), tile::ops::zeros<float>({256}));
    tile::detail::inject_allocation_failure(0);  // the next allocation fails
    EXPECT_THROW(
        (void)tile::ops::full<float>({64}, 1.0f).then([](tile::Array<float> a) { return a; }).sync(),
        tile::Error);
    auto [a, b] = std::move(op).sync();  // made before the fault: unaffected
    EXPECT_EQ(a.to_host(), std::vector<float>(256, 0.0f));
  }
  EXPECT_EQ(tile::detail::live_buffers(), before);
}

TEST_F(FaultInjection, AFailedAllocationInsideAThenStepReturnsTheLoans) {
  auto z = tile::zeros<float>({128});
  const int64_t before = tile::detail::live_buffers();
  tile::detail::inject_allocation_failure(0);
  EXPECT_THROW(tile::launch<increment<64>>(z.partition_mut<64>())
                   .then([] { return tile::ops::full<float>({128}, 2.0f); })
                   .sync(),
               tile::Error);
  EXPECT_EQ(tile::detail::live_buffers(), before);
  EXPECT_EQ(z.to_host()[0], 1.0f);  // the launch before the failed step ran
  tile::launch<increment<64>>(z.partition_mut<64>()).sync();  // z is lent again
  EXPECT_EQ(z.to_host()[127], 2.0f);
}

TEST_F(FaultInjection, AFailedLaunchReturnsTheLoansAndRunsNothing) {
  auto z = tile::zeros<float>({128});
  tile::detail::inject_launch_failure(0);
  EXPECT_THROW(tile::launch<increment<64>>(z.partition_mut<64>()).sync(), tile::Error);
  EXPECT_EQ(z.to_host(), std::vector<float>(128, 0.0f));
  tile::launch<increment<64>>(z.partition_mut<64>()).sync();
  EXPECT_EQ(z.to_host(), std::vector<float>(128, 1.0f));
}

TEST_F(FaultInjection, ASecondLaunchThatFailsKeepsTheFirstsResult) {
  auto z = tile::zeros<float>({128});
  tile::detail::inject_launch_failure(1);  // the first launch runs, the second fails
  EXPECT_THROW(tile::launch<increment<64>>(z.partition_mut<64>())
                   .then([&] { return tile::launch<increment<64>>(z.partition_mut<64>()); })
                   .sync(),
               tile::Error);
  EXPECT_EQ(z.to_host(), std::vector<float>(128, 1.0f));
}

TEST_F(FaultInjection, AFailedLaunchLeavesAsyncAndTheFutureIsNeverMade) {
  auto z = tile::zeros<float>({64});
  tile::detail::inject_launch_failure(0);
  EXPECT_THROW((void)tile::launch<increment<64>>(z.partition_mut<64>()).async(), tile::Error);
  EXPECT_NO_THROW(tile::launch<increment<64>>(z.partition_mut<64>()).async().wait());
}

TEST_F(FaultInjection, AFailedLaunchWhileCapturingAGraphReturnsTheLoans) {
  auto z = tile::zeros<float>({64}, graph_device());
  tile::detail::inject_launch_failure(0);
  EXPECT_THROW((void)tile::launch<increment<64>>(z.partition_mut<64>()).graph(), tile::Error);
  auto g = tile::launch<increment<64>>(z.partition_mut<64>()).graph();
  g.sync();
  g.sync();
  std::move(g).get();
  EXPECT_EQ(z.to_host(), std::vector<float>(64, 2.0f));
}

/// Random ops under random faults. Each round makes arrays, runs a chain of two launches on
/// them (sync, async or as a graph replayed twice) and a few more launches, and compares with a
/// host model; a round that meets an
/// injected fault must throw tile::Error and leave nothing lent or allocated behind.
/// TILE_SOAK_ROUNDS sets the number of rounds (default 2000).
TEST_F(FaultInjection, SoakOfRandomOpsUnderFaultsLeaksNothing) {
  const char* env = std::getenv("TILE_SOAK_ROUNDS");
  const int rounds = env ? std::atoi(env) : 2000;
  std::mt19937 rng(12345);
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  const int64_t before = tile::detail::live_buffers();
  int failed = 0, succeeded = 0;
  for (int round = 0; round < rounds; ++round) {
    const int64_t n = 64 * (1 + pick(8)) - pick(2) * 17;  // sometimes not a multiple of 64
    const int steps = 1 + pick(4);
    const int mode = pick(3);  // 0 sync, 1 async, 2 graph replayed twice
    if (pick(3) == 0) tile::detail::inject_allocation_failure(pick(3));
    if (pick(3) == 0) tile::detail::inject_launch_failure(pick(2 * steps));
    const tile::Device& device = mode == 2 ? graph_device() : tile::default_device();
    std::vector<float> model(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) model[std::size_t(i)] = float(i % 7);
    try {
      auto x = tile::from_host(model, {n}, device);
      // The chain owns z's pieces and passes them from launch to launch.
      auto chain = tile::launch<add_to<64>>(tile::zeros<float>({n}, device).partition<64>(), x)
                       .then([](auto p) { return tile::launch<increment<64>>(std::move(p)); })
                       .then([](auto p) { return std::move(p).unpartition(); });
      int runs = 1;
      tile::Array<float> z;
      if (mode == 0) {
        z = std::move(chain).sync();
      } else if (mode == 1) {
        auto f = std::move(chain).async();
        z = std::move(f).get();
      } else {
        auto g = std::move(chain).graph();
        g.sync();
        g.sync();
        z = std::move(g).get();
        runs = 2;
      }
      for (int s = 1; s < steps; ++s) tile::launch<increment<64>>(z.partition_mut<64>()).sync();
      const std::vector<float> got = z.to_host();
      for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(got[std::size_t(i)], float(runs) * (model[std::size_t(i)] + 1.0f) + float(steps - 1))
            << "round " << round;
      ++succeeded;
    } catch (const tile::Error& e) {
      const std::string what = e.what();
      ASSERT_NE(what.find("injected"), std::string::npos) << "round " << round << ": " << what;
      ++failed;
    }
    tile::detail::inject_allocation_failure(-1);
    tile::detail::inject_launch_failure(-1);
    ASSERT_EQ(tile::detail::live_buffers(), before) << "round " << round;
  }
  EXPECT_GT(failed, 0);
  EXPECT_GT(succeeded, 0);
}

}  // namespace
