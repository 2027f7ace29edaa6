// Mapped partitions: the library schedules are bijections, launches through a map compute
// what unmapped launches compute, and maps that are not injective are refused at run time.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tile/tile.hpp"

namespace {

using tile::dyn;
using tile::Tensor;

template <int BM, int BN>
TILE_KERNEL void tag_tiles(Tensor<int32_t, BM, BN>& z, const Tensor<int32_t, dyn, dyn>& x) {
  // The piece's tile coordinates (block ids) plus the input: a wrong piece shows up at once.
  auto t = tile::load_tile_like(x, z);
  z.store(t + static_cast<int32_t>(tile::block_id(0) * 1000 + tile::block_id(1)));
}

template <int BM, int BN>
TILE_KERNEL void copy_two(Tensor<int32_t, BM, BN>& a, Tensor<int32_t, BM, BN>& b) {
  a.store(tile::full<int32_t, BM, BN>(static_cast<int32_t>(tile::block_id(0))));
  b.store(tile::full<int32_t, BM, BN>(static_cast<int32_t>(tile::block_id(1))));
}

template <class F>
std::set<std::pair<int64_t, int64_t>> image(F f, std::array<int64_t, 2> grid) {
  std::set<std::pair<int64_t, int64_t>> seen;
  for (int64_t i = 0; i < grid[0]; ++i)
    for (int64_t j = 0; j < grid[1]; ++j) {
      auto t = f(std::array<int64_t, 2>{i, j}, grid);
      EXPECT_TRUE(t[0] >= 0 && t[0] < grid[0] && t[1] >= 0 && t[1] < grid[1]);
      seen.insert({t[0], t[1]});
    }
  return seen;
}

TEST(Schedule, LibraryMapsAreBijections) {
  for (std::array<int64_t, 2> grid : {std::array<int64_t, 2>{1, 1}, {7, 3}, {8, 8}, {13, 5}, {3, 17}}) {
    const auto n = static_cast<std::size_t>(grid[0] * grid[1]);
    EXPECT_EQ(image(tile::swizzle<4>{}, grid).size(), n);
    EXPECT_EQ(image(tile::swizzle<1>{}, grid).size(), n);
    EXPECT_EQ(image(tile::column_major{}, grid).size(), n);
    EXPECT_EQ(image(tile::reversed{}, grid).size(), n);
  }
}

TEST(Schedule, SwizzleWalksGroupsOfRows) {
  tile::swizzle<2> s;
  const std::array<int64_t, 2> grid{4, 3};
  // Programs 0..5 cover rows 0-1 column by column.
  EXPECT_EQ(s({0, 0}, grid), (std::array<int64_t, 2>{0, 0}));
  EXPECT_EQ(s({0, 1}, grid), (std::array<int64_t, 2>{1, 0}));
  EXPECT_EQ(s({0, 2}, grid), (std::array<int64_t, 2>{0, 1}));
  EXPECT_EQ(s({1, 2}, grid), (std::array<int64_t, 2>{1, 2}));
  EXPECT_EQ(s({2, 0}, grid), (std::array<int64_t, 2>{2, 0}));
}

std::vector<int32_t> run_tagged(bool mapped) {
  std::vector<int32_t> values(37 * 21);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i);
  auto x = tile::from_host(values, {37, 21});
  auto p = tile::zeros<int32_t>({37, 21}).partition<8, 4>();
  if (mapped) p = std::move(p).map(tile::swizzle<3>{});
  return tile::launch<tag_tiles<8, 4>>(std::move(p), x).sync().unpartition().to_host();
}

TEST(MappedPartition, ComputesWhatTheUnmappedLaunchComputes) {
  const auto plain = run_tagged(false);
  const auto swizzled = run_tagged(true);
  EXPECT_EQ(plain, swizzled);
  EXPECT_EQ(plain[20 * 21 + 5], 20 * 21 + 5 + 2 * 1000 + 1);  // row 20 -> tile row 2, col 5 -> 1
}

TEST(MappedPartition, PartitionRefToo) {
  auto z = tile::zeros<int32_t>({16, 16});
  auto x = tile::zeros<int32_t>({16, 16});
  tile::launch<tag_tiles<4, 4>>(z.partition_mut<4, 4>().map(tile::reversed{}), x).sync();
  EXPECT_EQ(z.to_host()[15 * 16 + 15], 3003);
}

TEST(MappedPartition, TwoProgramsOnOneTileAreRefused) {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>();
  try {
    (void)std::move(p).map([](std::array<int64_t, 2> c, std::array<int64_t, 2>) {
      return std::array<int64_t, 2>{c[0] / 2, c[1]};
    });
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    EXPECT_NE(std::string(e.what()).find("programs (0, 0) and (1, 0) to the same tile (0, 0)"), std::string::npos)
        << e.what();
  }
}

TEST(MappedPartition, TilesOutsideTheGridAreRefused) {
  auto p = tile::zeros<float>({64, 32}).partition<16, 16>();
  try {
    (void)std::move(p).map(
        [](std::array<int64_t, 2> c, std::array<int64_t, 2>) { return std::array<int64_t, 2>{c[1], c[0]}; });
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    EXPECT_NE(std::string(e.what()).find("outside the grid (4, 2)"), std::string::npos) << e.what();
  }
}

TEST(MappedPartition, ExclusiveArgumentsFollowOneMap) {
  auto a = tile::zeros<int32_t>({8, 8}).partition<4, 4>().map(tile::reversed{});
  auto b = tile::zeros<int32_t>({8, 8}).partition<4, 4>().map(tile::column_major{});
  EXPECT_THROW(((void)tile::launch<copy_two<4, 4>>(std::move(a), std::move(b))), tile::Error);

  auto c = tile::zeros<int32_t>({8, 8}).partition<4, 4>().map(tile::reversed{});
  auto d = tile::zeros<int32_t>({8, 8}).partition<4, 4>();  // follows c's map
  auto [c2, d2] = tile::launch<copy_two<4, 4>>(std::move(c), std::move(d)).sync();
  EXPECT_EQ(std::move(c2).unpartition().to_host()[0], 0);
  EXPECT_EQ(std::move(d2).unpartition().to_host()[7], 1);
}

}  // namespace
