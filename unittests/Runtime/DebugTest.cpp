// tile::check and tile::print on the CPU backend (tile/debug.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tile/tile.hpp"

namespace {

TILE_KERNEL void bounded(tile::Tensor<float, 4>& z, const tile::Tensor<float, tile::dyn>& x, float limit) {
  auto t = tile::load_tile_like(x, z);
  tile::check(t < limit, "values stay below the limit");
  z.store(t);
}

TILE_KERNEL void second_axis(tile::Tensor<int32_t, 1, 1>& z) {
  tile::check(tile::block_id(1) != 2, "column 2 is not reached");
  z.store(tile::ones<int32_t, 1, 1>());
}

TEST(Check, PassingChecksLeaveTheLaunchAlone) {
  auto x = tile::from_host(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}, {8}, tile::cpu_device());
  auto z = tile::zeros<float>({8}, tile::cpu_device());
  tile::launch<bounded>(z.partition_mut<4>(), x, 100.0f).sync();
  EXPECT_EQ(z.to_host()[7], 8.0f);
}

TEST(Check, AFailedCheckThrowsNamingKernelLineProgramAndMessage) {
  auto x = tile::from_host(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}, {8}, tile::cpu_device());
  auto z = tile::zeros<float>({8}, tile::cpu_device());
  try {
    tile::launch<bounded>(z.partition_mut<4>(), x, 6.0f).sync();
    FAIL() << "the failed check was not reported";
  } catch (const tile::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "tile::launch<bounded>: tile::check failed at DebugTest.cpp:15 in tile program (1): "
              "values stay below the limit");
  }
  // The runtime goes on working.
  tile::launch<bounded>(z.partition_mut<4>(), x, 100.0f).sync();
  EXPECT_EQ(z.to_host()[5], 6.0f);
}

TEST(Check, ReportsEveryCoordinateOfATwoDimensionalGrid) {
  auto z = tile::zeros<int32_t>({2, 4}, tile::cpu_device());
  try {
    tile::launch<second_axis>(z.partition_mut<1, 1>()).sync();
    FAIL() << "the failed check was not reported";
  } catch (const tile::Error& e) {
    // Programs (0, 2) and (1, 2) both fail; the first to do so is reported.
    const std::string what = e.what();
    EXPECT_TRUE(what.find("in tile program (0, 2):") != std::string::npos ||
                what.find("in tile program (1, 2):") != std::string::npos)
        << what;
  }
}

TEST(Check, OutsideALaunchThrowsAtOnce) {
  EXPECT_THROW(tile::check(false, "called directly"), tile::Error);
  EXPECT_NO_THROW(tile::check(true, "called directly"));
  EXPECT_THROW(tile::check(tile::Tile<bool, 2>{}, "a false element"), tile::Error);
}

TEST(Print, FormatsScalarsAndTilesRowMajor) {
  testing::internal::CaptureStdout();
  tile::print("n", uint32_t(4000000000u));
  tile::print("b", true);
  tile::print("x", 0.1f);
  tile::print("d", 0.1);
  tile::print("t", tile::reshape<2, 2>(tile::iota<int32_t, 4>() - 1));
  tile::print("c", tile::complex<float>(1.5f, -2.0f));
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out,
            "[program (0)] n = 4000000000\n"
            "[program (0)] b = 1\n"
            "[program (0)] x = 0.100000001\n"
            "[program (0)] d = 0.10000000000000001\n"
            "[program (0)] t[0, 0] = -1\n"
            "[program (0)] t[0, 1] = 0\n"
            "[program (0)] t[1, 0] = 1\n"
            "[program (0)] t[1, 1] = 2\n"
            "[program (0)] c = (1.5, -2)\n");
}

}  // namespace
