// tile/shape.hpp: broadcast, reshape, permute, transpose, cat and extract.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tile/tile.hpp"

namespace {

using tile::Tile;

/// A tile whose element number i (row-major) is i.
template <class T, int... D>
Tile<T, D...> counting() {
  return tile::reshape<D...>(tile::iota<T, (int64_t{1} * ... * D)>());
}

// ---- broadcast -----------------------------------------------------------------------------------

TEST(Shape, BroadcastAddsLeadingAxes) {
  auto row = tile::iota<int32_t, 4>();
  auto b = tile::broadcast<2, 8, 4>(row);
  static_assert(std::is_same_v<decltype(b), Tile<int32_t, 2, 8, 4>>);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(b(i, j, k), k);
  auto m = counting<float, 2, 4>();
  auto b2 = tile::broadcast<4, 2, 4>(m);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(b2(i, j, k), m(j, k));
}

TEST(Shape, BroadcastRepeatsSizeOneAxes) {
  auto column = counting<int32_t, 4, 1>();
  auto across = tile::broadcast<4, 8>(column);
  auto row = counting<int32_t, 1, 8>();
  auto down = tile::broadcast<4, 8>(row);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) {
      EXPECT_EQ(across(r, c), r);
      EXPECT_EQ(down(r, c), c);
    }
  auto mid = counting<int32_t, 2, 1, 4>();
  auto wide = tile::broadcast<2, 8, 4>(mid);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(wide(i, j, k), mid(i, 0, k));
}

TEST(Shape, BroadcastWithRankIncreaseAndSizeOneAxes) {
  auto column = counting<int32_t, 4, 1>();
  auto b = tile::broadcast<2, 4, 8>(column);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 8; ++k) EXPECT_EQ(b(i, j, k), j);
  auto one = tile::full<float, 1>(2.5f);
  auto all = tile::broadcast<2, 2, 2, 2>(one);
  for (int64_t i = 0; i < all.size; ++i) EXPECT_EQ(all.data()[i], 2.5f);
}

TEST(Shape, BroadcastToTheSameShapeCopies) {
  auto m = counting<int16_t, 4, 8>();
  auto b = tile::broadcast<4, 8>(m);
  for (int64_t i = 0; i < m.size; ++i) EXPECT_EQ(b.data()[i], m.data()[i]);
}

TEST(Shape, BroadcastedTilesCombineElementwise) {
  // An outer sum: column (4 x 1) + row (1 x 8).
  auto col = tile::broadcast<4, 8>(counting<int32_t, 4, 1>() * 10);
  auto row = tile::broadcast<4, 8>(counting<int32_t, 1, 8>());
  auto sum = col + row;
  EXPECT_EQ(sum(3, 5), 35);
}

// ---- reshape -------------------------------------------------------------------------------------

TEST(Shape, ReshapeKeepsRowMajorOrder) {
  auto flat = tile::iota<int32_t, 32>();
  auto m = tile::reshape<4, 8>(flat);
  static_assert(std::is_same_v<decltype(m), Tile<int32_t, 4, 8>>);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 8; ++c) EXPECT_EQ(m(r, c), 8 * r + c);
  auto cube = tile::reshape<2, 4, 4>(m);
  EXPECT_EQ(cube(1, 2, 3), 27);
  auto back = tile::reshape<32>(cube);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(back(i), i);
  auto four = tile::reshape<2, 2, 2, 4>(flat);
  EXPECT_EQ(four(1, 0, 1, 3), 23);
}

// ---- permute and transpose -----------------------------------------------------------------------

TEST(Shape, TransposeSwapsIndices) {
  auto m = counting<float, 2, 8>();
  auto t = tile::transpose(m);
  static_assert(std::is_same_v<decltype(t), Tile<float, 8, 2>>);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(t(j, i), m(i, j));
}

TEST(Shape, PermuteRank3MovesEachAxis) {
  auto t = counting<int32_t, 2, 4, 8>();
  auto p = tile::permute<2, 0, 1>(t);  // result axes: t's axis 2, then 0, then 1
  static_assert(std::is_same_v<decltype(p), Tile<int32_t, 8, 2, 4>>);
  auto q = tile::permute<1, 2, 0>(t);
  static_assert(std::is_same_v<decltype(q), Tile<int32_t, 4, 8, 2>>);
  auto r = tile::permute<0, 2, 1>(t);
  static_assert(std::is_same_v<decltype(r), Tile<int32_t, 2, 8, 4>>);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 8; ++k) {
        EXPECT_EQ(p(k, i, j), t(i, j, k));
        EXPECT_EQ(q(j, k, i), t(i, j, k));
        EXPECT_EQ(r(i, k, j), t(i, j, k));
      }
}

TEST(Shape, PermuteComposesToIdentity) {
  auto t = counting<int64_t, 2, 4, 8>();
  auto round_trip = tile::permute<1, 2, 0>(tile::permute<2, 0, 1>(t));
  static_assert(std::is_same_v<decltype(round_trip), decltype(t)>);
  for (int64_t i = 0; i < t.size; ++i) EXPECT_EQ(round_trip.data()[i], t.data()[i]);
  auto same = tile::permute<0, 1, 2>(t);
  for (int64_t i = 0; i < t.size; ++i) EXPECT_EQ(same.data()[i], t.data()[i]);
}

TEST(Shape, PermuteRank4) {
  auto t = counting<int32_t, 2, 2, 4, 8>();
  auto p = tile::permute<3, 1, 0, 2>(t);
  static_assert(std::is_same_v<decltype(p), Tile<int32_t, 8, 2, 2, 4>>);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 8; ++d) EXPECT_EQ(p(d, b, a, c), t(a, b, c, d));
}

// ---- cat -----------------------------------------------------------------------------------------

TEST(Shape, CatAlongAxis0OfRank2) {
  auto a = counting<int32_t, 2, 4>();
  auto b = a + 100;
  auto c = tile::cat<0>(a, b);
  static_assert(std::is_same_v<decltype(c), Tile<int32_t, 4, 4>>);
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 4; ++k) EXPECT_EQ(c(r, k), r < 2 ? a(r, k) : b(r - 2, k));
}

TEST(Shape, CatAlongAxis1OfRank2) {
  auto a = counting<int32_t, 2, 4>();
  auto b = a + 100;
  auto c = tile::cat<1>(a, b);
  static_assert(std::is_same_v<decltype(c), Tile<int32_t, 2, 8>>);
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 8; ++k) EXPECT_EQ(c(r, k), k < 4 ? a(r, k) : b(r, k - 4));
}

TEST(Shape, CatOfRank1) {
  auto c = tile::cat<0>(tile::iota<float, 4>(), tile::full<float, 4>(-1.0f));
  static_assert(std::is_same_v<decltype(c), Tile<float, 8>>);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(c(i), i < 4 ? float(i) : -1.0f);
}

TEST(Shape, CatAlongEachAxisOfRank3) {
  auto a = counting<int32_t, 2, 4, 2>();
  auto b = a * -1 - 1;
  auto c0 = tile::cat<0>(a, b);
  auto c1 = tile::cat<1>(a, b);
  auto c2 = tile::cat<2>(a, b);
  static_assert(std::is_same_v<decltype(c0), Tile<int32_t, 4, 4, 2>>);
  static_assert(std::is_same_v<decltype(c1), Tile<int32_t, 2, 8, 2>>);
  static_assert(std::is_same_v<decltype(c2), Tile<int32_t, 2, 4, 4>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 4; ++k) {
        if (j < 4 && k < 2) {
          EXPECT_EQ(c0(i, j, k), i < 2 ? a(i, j, k) : b(i - 2, j, k));
        }
        if (i < 2 && k < 2) {
          EXPECT_EQ(c1(i, j, k), j < 4 ? a(i, j, k) : b(i, j - 4, k));
        }
        if (i < 2 && j < 4) {
          EXPECT_EQ(c2(i, j, k), k < 2 ? a(i, j, k) : b(i, j, k - 2));
        }
      }
}

// ---- extract -------------------------------------------------------------------------------------

TEST(Shape, ExtractEverySubTileOfRank2) {
  auto m = counting<int32_t, 8, 16>();
  for (int bi = 0; bi < 4; ++bi)
    for (int bj = 0; bj < 4; ++bj) {
      auto s = tile::extract<2, 4>(m, bi, bj);
      static_assert(std::is_same_v<decltype(s), Tile<int32_t, 2, 4>>);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_EQ(s(i, j), m(2 * bi + i, 4 * bj + j));
    }
}

TEST(Shape, ExtractRank1AndRank3) {
  auto v = tile::iota<float, 16>();
  auto piece = tile::extract<4>(v, 2);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(piece(i), 8.0f + i);
  auto t = counting<int32_t, 2, 4, 8>();
  auto s = tile::extract<1, 4, 2>(t, int64_t{1}, 0u, short{3});
  static_assert(std::is_same_v<decltype(s), Tile<int32_t, 1, 4, 2>>);
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 2; ++k) EXPECT_EQ(s(0, j, k), t(1, j, 6 + k));
}

TEST(Shape, ExtractWholeTile) {
  auto m = counting<int32_t, 4, 4>();
  auto s = tile::extract<4, 4>(m, 0, 0);
  for (int64_t i = 0; i < m.size; ++i) EXPECT_EQ(s.data()[i], m.data()[i]);
}

TEST(Shape, ExtractOutOfRangeGivesZeros) {
  auto m = counting<int32_t, 4, 8>() + 1;  // no zero elements
  auto expect_zeros = [](const Tile<int32_t, 2, 4>& s) {
    for (int64_t i = 0; i < s.size; ++i) EXPECT_EQ(s.data()[i], 0) << "element " << i;
  };
  expect_zeros(tile::extract<2, 4>(m, 2, 0));  // one past the last row of sub-tiles
  expect_zeros(tile::extract<2, 4>(m, 0, 2));
  expect_zeros(tile::extract<2, 4>(m, -1, 0));
  expect_zeros(tile::extract<2, 4>(m, 1, -1));
  expect_zeros(tile::extract<2, 4>(m, std::numeric_limits<int64_t>::max(), 0));
  expect_zeros(tile::extract<2, 4>(m, std::numeric_limits<int64_t>::min(), 1));
  expect_zeros(tile::extract<2, 4>(m, std::numeric_limits<uint64_t>::max(), 0u));
  // The last sub-tile in range is still read.
  auto last = tile::extract<2, 4>(m, 1, 1);
  EXPECT_EQ(last(1, 3), m(3, 7));
}

// ---- compile-time evaluation ---------------------------------------------------------------------

TEST(Shape, ShapeOpsAreConstexpr) {
  static_assert(tile::transpose(tile::reshape<2, 4>(tile::iota<int32_t, 8>()))(3, 1) == 7);
  static_assert(tile::broadcast<4, 4>(tile::iota<int32_t, 4>())(2, 1) == 1);
  static_assert(tile::cat<0>(tile::iota<int32_t, 2>(), tile::iota<int32_t, 2>())(3) == 1);
  static_assert(tile::extract<2>(tile::iota<int32_t, 8>(), 3)(1) == 7);
  static_assert(tile::extract<2>(tile::iota<int32_t, 8>(), 4)(1) == 0);
}

}  // namespace
