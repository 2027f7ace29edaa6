// tile::autotune on the default device (the CPU backend here): each candidate partitions the
// whole output into its own pieces, the op is the fastest candidate's launch, the outputs are
// untouched until it runs, and the choice is made once per key.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tile/tile.hpp"

namespace {

using tile::dyn;
using tile::Tensor;

/// out += 2 x (each program its B x B piece): a result that running twice would change.
template <int B, int Work>
TILE_KERNEL void add_twice(Tensor<float, B, B>& out, const Tensor<float, dyn, dyn>& x) {
  auto v = tile::load_tile_like(x, out);
  for (int i = 0; i < Work; ++i) v = v * 1.0f;  // a slower candidate does more of nothing
  out.store(out.load() + 2.0f * v);
}

class AutotuneTest : public ::testing::Test {
 protected:
  void SetUp() override { setenv("TILE_AUTOTUNE_LOG", "1", 1); }
  void TearDown() override { unsetenv("TILE_AUTOTUNE_LOG"); }

  static std::vector<float> iota(int64_t n) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i % 97);
    return v;
  }
};

TEST_F(AutotuneTest, EachCandidatePartitionsTheWholeOutputAndTheResultIsRight) {
  const int64_t n = 100;  // neither 8 nor 32 divides it: cut pieces too
  auto x = tile::from_host(iota(n * n), {n, n});
  auto out = tile::full<float>({n, n}, 1.0f);
  tile::autotune<add_twice<8, 0>, add_twice<32, 0>>(out, x).sync();
  const std::vector<float> got = out.to_host(), in = iota(n * n);
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], 1.0f + 2.0f * in[i]) << i;
}

TEST_F(AutotuneTest, TimingDoesNotWriteTheOpsOutputs) {
  // The candidates ran 12 times while being timed; the output saw one run.
  const int64_t n = 64;
  auto x = tile::from_host(iota(n * n), {n, n});
  auto out = tile::full<float>({n, n}, 5.0f);
  auto op = tile::autotune<add_twice<16, 1>, add_twice<32, 1>>(out, x);
  std::move(op).sync();
  const std::vector<float> got = out.to_host(), in = iota(n * n);
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], 5.0f + 2.0f * in[i]) << i;
}

TEST_F(AutotuneTest, ChoosesOncePerKeyAndLogsTheChoice) {
  auto x = tile::from_host(iota(48 * 48), {48, 48});
  auto out = tile::zeros<float>({48, 48});
  testing::internal::CaptureStderr();
  tile::autotune<add_twice<16, 2>, add_twice<8, 2>>(out, x).sync();
  const std::string first = testing::internal::GetCapturedStderr();
  EXPECT_NE(first.find("tile::autotune: chose add_twice<"), std::string::npos) << first;
  EXPECT_NE(first.find("add_twice<16, 2>: "), std::string::npos) << first;
  EXPECT_NE(first.find("add_twice<8, 2>: "), std::string::npos) << first;

  testing::internal::CaptureStderr();
  tile::autotune<add_twice<16, 2>, add_twice<8, 2>>(out, x).sync();  // the same key
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");

  auto wide = tile::zeros<float>({48, 96});  // another shape: another key
  auto xw = tile::from_host(iota(48 * 96), {48, 96});
  testing::internal::CaptureStderr();
  tile::autotune<add_twice<16, 2>, add_twice<8, 2>>(wide, xw).sync();
  EXPECT_NE(testing::internal::GetCapturedStderr().find("chose"), std::string::npos);
}

TEST_F(AutotuneTest, ChoosesTheFasterCandidate) {
  // The same tiles, one doing 20000 more multiplications per element.
  auto x = tile::from_host(iota(64 * 64), {64, 64});
  auto out = tile::zeros<float>({64, 64});
  testing::internal::CaptureStderr();
  tile::autotune<add_twice<32, 20000>, add_twice<32, 0>>(out, x).sync();
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("chose add_twice<32, 0>"), std::string::npos) << log;
}

TEST_F(AutotuneTest, TheOpHoldsTheOutputsLoanUntilItRuns) {
  auto x = tile::from_host(iota(32 * 32), {32, 32});
  auto out = tile::zeros<float>({32, 32});
  auto op = tile::autotune<add_twice<16, 3>, add_twice<32, 3>>(out, x);
  EXPECT_THROW((void)out.to_host(), tile::Error);  // lent exclusively to the op
  std::move(op).sync();
  EXPECT_NO_THROW((void)out.to_host());
}

}  // namespace
