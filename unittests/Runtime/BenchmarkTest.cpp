// tile::benchmark on the default device (the CPU backend here): how many runs it makes, that
// each run gets a fresh op, the statistics of the kept runs, and that an op's failure reaches
// the caller with the runtime still usable.
#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

#include "tile/tile.hpp"

namespace {

using tile::dyn;
using tile::Tensor;

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& out) { out.store(out.load() + 1.0f); }

TEST(BenchmarkTest, EveryRunIsAFreshOpAndWarmUpRunsAreNotKept) {
  auto out = tile::zeros<float>({256});
  int made = 0;
  tile::BenchmarkOptions options;
  options.warmup_ms = 0;  // one warm-up run
  options.rep_ms = 0;
  options.min_runs = options.max_runs = 7;
  const tile::BenchmarkResult r = tile::benchmark(
      [&] {
        ++made;
        return tile::launch<increment<64>>(out.partition_mut<64>());
      },
      options);
  EXPECT_EQ(made, 8);
  EXPECT_EQ(r.runs, 7);
  ASSERT_EQ(r.times_ms.size(), 7u);
  for (float v : out.to_host()) ASSERT_EQ(v, 8.0f);
}

TEST(BenchmarkTest, StatisticsDescribeTheSortedKeptRuns) {
  auto out = tile::zeros<float>({64});
  tile::BenchmarkOptions options;
  options.warmup_ms = 0;
  options.rep_ms = 0;
  options.min_runs = options.max_runs = 9;
  const tile::BenchmarkResult r =
      tile::benchmark([&] { return tile::launch<increment<64>>(out.partition_mut<64>()); }, options);
  ASSERT_TRUE(std::is_sorted(r.times_ms.begin(), r.times_ms.end()));
  EXPECT_EQ(r.min_ms, r.times_ms.front());
  EXPECT_EQ(r.max_ms, r.times_ms.back());
  EXPECT_EQ(r.median_ms, r.times_ms[4]);
  EXPECT_EQ(r.quantile(0.0), r.min_ms);
  EXPECT_EQ(r.quantile(1.0), r.max_ms);
  EXPECT_GE(r.mean_ms, r.min_ms);
  EXPECT_LE(r.mean_ms, r.max_ms);
  EXPECT_GT(r.min_ms, 0.0);
}

/// tile::benchmark with a 4 ms warm-up and `rep_ms` of kept runs, over launches whose then
/// step sleeps `sleep_ms(run)` milliseconds (runs counted from 0, warm-up runs included).
template <class SleepMs>
tile::BenchmarkResult benchmarkSleeping(double rep_ms, SleepMs sleep_ms) {
  auto out = tile::zeros<float>({64});
  tile::BenchmarkOptions options;
  options.warmup_ms = 4;
  options.rep_ms = rep_ms;
  options.min_runs = 1;
  int run = 0;
  return tile::benchmark(
      [&] {
        const int ms = sleep_ms(run++);
        return tile::launch<increment<64>>(out.partition_mut<64>()).then([ms] {
          std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        });
      },
      options);
}

TEST(BenchmarkTest, RunsForAboutTheRequestedTime) {
  // Each run takes at least 2 ms (a then step sleeps), more on a loaded machine: the kept runs
  // are as many as fit in 60 ms at the warm-up's pace, at most 30, and add up to about 60 ms.
  constexpr double rep_ms = 60;
  const tile::BenchmarkResult r = benchmarkSleeping(rep_ms, [](int) { return 2; });
  EXPECT_GE(r.min_ms, 2.0);
  EXPECT_GE(r.runs, 2);
  EXPECT_LE(r.runs, 30);
  double kept = 0;
  for (double t : r.times_ms) kept += t;
  EXPECT_GE(kept, rep_ms / 3);
  EXPECT_LE(kept, rep_ms * 3);
}

TEST(BenchmarkTest, ASlowFirstRunDoesNotSetThePace) {
  // The first run pays one-time costs (here: it sleeps 50 ms); the kept runs are as many as
  // the later runs' pace (2 ms or more) fits in 40 ms, not 40 / 50 of one.
  const tile::BenchmarkResult r =
      benchmarkSleeping(40, [](int run) { return run == 0 ? 50 : 2; });
  EXPECT_GE(r.runs, 3);
  EXPECT_LE(r.runs, 20);
  EXPECT_LT(r.max_ms, 50.0);
}

TEST(BenchmarkTest, MinRunsWinsOverAShortBudget) {
  auto out = tile::zeros<float>({64});
  tile::BenchmarkOptions options;
  options.warmup_ms = 0;
  options.rep_ms = 0;
  options.min_runs = 4;
  const tile::BenchmarkResult r =
      tile::benchmark([&] { return tile::launch<increment<64>>(out.partition_mut<64>()); }, options);
  EXPECT_EQ(r.runs, 4);
}

TEST(BenchmarkTest, AFailingOpThrowsAndLeavesTheArraysUsable) {
  auto out = tile::zeros<float>({64});
  EXPECT_THROW(tile::benchmark([&] {
                 return tile::launch<increment<64>>(out.partition_mut<64>()).then([] {
                   throw std::runtime_error("step failed");
                 });
               }),
               std::runtime_error);
  tile::launch<increment<64>>(out.partition_mut<64>()).sync();
  for (float v : out.to_host()) ASSERT_EQ(v, 2.0f);
}

}  // namespace
