// TILE_CPU_RACECHECK=1: an element written by two tile programs is reported with both
// programs' coordinates; correct launches and atomic updates are not.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "tile/tile.hpp"

namespace {

using tile::Tensor;

// Each program also writes the first half of the next program's piece: a race (unsafe code).
TILE_UNSAFE TILE_KERNEL void spill(Tensor<float, 8>& z) {
  auto v = z.partition_mut<4>();
  tile::unchecked::store(v, tile::full<float, 4>(1.0f), 0);
  tile::unchecked::store(v, tile::full<float, 4>(1.0f), 1);
  if (tile::block_id() + 1 < tile::num_blocks()) tile::unchecked::store(v, tile::full<float, 4>(2.0f), 2);
}

// The same in 2-D: each program of a row also writes the first half of the next program's piece.
TILE_UNSAFE TILE_KERNEL void spill2d(Tensor<int32_t, 1, 8>& z) {
  auto v = z.partition_mut<1, 4>();
  tile::unchecked::store(v, tile::full<int32_t, 1, 4>(1), 0, 0);
  tile::unchecked::store(v, tile::full<int32_t, 1, 4>(1), 0, 1);
  if (tile::block_id(1) + 1 < tile::num_blocks(1)) tile::unchecked::store(v, tile::full<int32_t, 1, 4>(2), 0, 2);
}

TILE_KERNEL void fill_rows(Tensor<int32_t, 2, 8>& z) { z.store(tile::full<int32_t, 2, 8>(7)); }

struct RaceCheckOn {
  RaceCheckOn() { setenv("TILE_CPU_RACECHECK", "1", 1); }
  ~RaceCheckOn() { unsetenv("TILE_CPU_RACECHECK"); }
};

// The racing launches race for real: under ThreadSanitizer (tsan.* tests) they are left out.
#if !defined(__SANITIZE_THREAD__)
// The race detector is the CPU backend's: these launches run there whatever the default device.
TEST(RaceCheck, ReportsAnElementWrittenByTwoPrograms) {
  RaceCheckOn on;
  auto z = tile::zeros<float>({32}, tile::cpu_device());
  try {
    tile::launch<spill>(z.partition_mut<8>()).sync();
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("TILE_CPU_RACECHECK"), std::string::npos) << m;
    EXPECT_NE(m.find("of argument 1 (Tensor<float, 8>&)"), std::string::npos) << m;
    // Programs (p) and (p + 1) both wrote element 8(p + 1) + k.
    EXPECT_TRUE(m.find("programs (0) and (1)") != std::string::npos ||
                m.find("programs (1) and (0)") != std::string::npos ||
                m.find("programs (1) and (2)") != std::string::npos ||
                m.find("programs (2) and (1)") != std::string::npos ||
                m.find("programs (2) and (3)") != std::string::npos ||
                m.find("programs (3) and (2)") != std::string::npos)
        << m;
  }
  // The loans were returned: the array is usable.
  EXPECT_EQ(z.to_host().size(), 32u);
}

TEST(RaceCheck, NamesTheElementOfAColumnMajorArrayByItsIndices) {
  RaceCheckOn on;
  // 2 x 16 column-major: element (i, j) at 2j + i, so the offset does not split row-major.
  std::vector<int32_t> host(32, 0);
  auto z = tile::unchecked::borrow_external<int32_t>(host.data(), {2, 16}, {1, 2}, tile::cpu_device());
  try {
    tile::launch<spill2d>(z.partition_mut<1, 8>()).sync();
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    const std::string m = e.what();
    // Programs (r, 0) and (r, 1) both wrote elements (r, 8..11): row-major index 16r + 8..11.
    std::smatch got;
    ASSERT_TRUE(std::regex_search(m, got, std::regex("element ([0-9]+) \\(row-major\\) of argument 1 "
                                                     "\\(Tensor<int32_t, 1, 8>&\\) was written by tile programs "
                                                     "\\(([01]), ([01])\\) and \\(([01]), ([01])\\)")))
        << m;
    const int index = std::stoi(got[1]);
    const int row = index / 16, col = index % 16;
    EXPECT_TRUE(col >= 8 && col < 12) << m;
    EXPECT_EQ(std::stoi(got[2]), row) << m;
    EXPECT_EQ(std::stoi(got[4]), row) << m;
    EXPECT_NE(got[3], got[5]) << m;
  }
}

TEST(RaceCheck, IsSilentWithoutTheVariable) {
  auto z = tile::zeros<float>({32}, tile::cpu_device());
  EXPECT_NO_THROW(tile::launch<spill>(z.partition_mut<8>()).sync());
}
#endif

TEST(RaceCheck, AcceptsDisjointPiecesIn2D) {
  RaceCheckOn on;
  auto z = tile::launch<fill_rows>(tile::zeros<int32_t>({7, 20}, tile::cpu_device()).partition<2, 8>())
               .sync()
               .unpartition();
  EXPECT_EQ(z.to_host()[139], 7);
}

}  // namespace
