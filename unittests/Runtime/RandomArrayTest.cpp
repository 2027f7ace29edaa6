// tile::rand / tile::randn and their ops: deterministic per seed and device-independent values,
// the right range and moments, narrow float types.
#include <tile/tile.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }

TEST(RandomArray, UniformIsInUnitIntervalWithMeanOneHalf) {
  const auto v = widen(tile::rand<float>({100000}, 7, tile::cpu_device()).to_host());
  EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
  EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
  EXPECT_NEAR(mean(v), 0.5, 0.01);
  // A quarter of the values below 0.25.
  const auto below = std::count_if(v.begin(), v.end(), [](double x) { return x < 0.25; });
  EXPECT_NEAR(static_cast<double>(below) / 100000.0, 0.25, 0.01);
}

TEST(RandomArray, NormalHasMeanZeroAndUnitVariance) {
  const auto v = widen(tile::randn<float>({100000}, 3, tile::cpu_device()).to_host());
  const double m = mean(v);
  double var = 0;
  for (double x : v) var += (x - m) * (x - m);
  var /= static_cast<double>(v.size());
  EXPECT_NEAR(m, 0.0, 0.02);
  EXPECT_NEAR(var, 1.0, 0.03);
  EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }));
}

TEST(RandomArray, SameSeedSameValuesOtherSeedOtherValues) {
  const auto a = tile::rand<double>({2, 500}, 11, tile::cpu_device()).to_host();
  const auto b = tile::rand<double>({2, 500}, 11, tile::cpu_device()).to_host();
  const auto c = tile::rand<double>({2, 500}, 12, tile::cpu_device()).to_host();
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(RandomArray, ValuesDoNotDependOnTheDevice) {
  const auto cpu = tile::randn<float>({4096}, 5, tile::cpu_device()).to_host();
  const auto dflt = tile::randn<float>({4096}, 5).to_host();
  EXPECT_EQ(cpu, dflt);
}

TEST(RandomArray, NarrowFloatsRoundTheSameValues) {
  const auto f = tile::rand<float>({1000}, 9, tile::cpu_device()).to_host();
  const auto h = tile::rand<tile::f16>({1000}, 9, tile::cpu_device()).to_host();
  for (std::size_t i = 0; i < f.size(); ++i) {
    EXPECT_NEAR(static_cast<float>(h[i]), f[i], 1e-3f) << i;
    EXPECT_GE(static_cast<float>(h[i]), 0.0f);
    EXPECT_LE(static_cast<float>(h[i]), 1.0f);
  }
}

TEST(RandomArray, OpsMakeTheSameValuesAsTheFactories) {
  auto eager = tile::randn<float>({3, 7}, 21).to_host();
  auto lazy = tile::ops::randn<float>({3, 7}, 21).sync().to_host();
  EXPECT_EQ(eager, lazy);
  auto u = tile::ops::rand<float>({64}, 2).async().get().to_host();
  EXPECT_EQ(u, tile::rand<float>({64}, 2).to_host());
}

}  // namespace
