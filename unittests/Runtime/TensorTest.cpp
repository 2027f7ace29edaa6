// tile::Tensor views: padding on load, clipping on store, tiled views, load_tile_like, grid ids.
#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <vector>

#include "tile/tile.hpp"

namespace {

using tile::dyn;
using tile::Tensor;
using Acc = tile::detail::TensorAccess;

template <std::size_t R>
using Coords = std::array<int64_t, R>;

/// A view of host memory, as the CPU backend builds it.
template <class TensorT, class T, std::size_t R>
TensorT view(T* base, Coords<R> extent, Coords<R> strides, Coords<R> origin = {},
             Coords<R> array_shape = {}) {
  if (array_shape == Coords<R>{}) array_shape = extent;
  T* data = base;
  for (std::size_t a = 0; a < R; ++a) data += origin[a] * strides[a];
  return Acc::make<TensorT>(data, extent, strides, origin, array_shape);
}

TEST(Tensor, ShapeAndStaticShape) {
  std::vector<float> buf(100);
  auto t = view<Tensor<float, dyn, 16>>(buf.data(), Coords<2>{6, 16}, Coords<2>{16, 1});
  static_assert(Tensor<float, dyn, 16>::rank == 2);
  static_assert(Tensor<float, dyn, 16>::static_shape == Coords<2>{dyn, 16});
  EXPECT_EQ(t.shape(0), 6);
  EXPECT_EQ(t.shape(1), 16);
}

TEST(Tensor, LoadPadsPastTheValidExtent) {
  std::vector<int32_t> buf(10);
  std::iota(buf.begin(), buf.end(), 1);
  // An edge piece: static 16, valid 10.
  auto t = view<Tensor<int32_t, 16>>(buf.data(), Coords<1>{10}, Coords<1>{1});
  auto v = t.load();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(v(i), i < 10 ? i + 1 : 0) << i;
}

TEST(Tensor, StoreDropsPastTheValidExtent) {
  std::vector<float> buf(12, -1.0f);
  auto t = view<Tensor<float, 16>>(buf.data(), Coords<1>{10}, Coords<1>{1});
  t.store(tile::iota<float, 16>());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(buf[i], float(i));
  EXPECT_EQ(buf[10], -1.0f);  // untouched
  EXPECT_EQ(buf[11], -1.0f);
}

TEST(Tensor, TwoDimensionalPieceClippedOnBothAxes) {
  // A 5 x 7 array; the piece at origin (4, 4) of a 4 x 4 partition holds 1 x 3 valid elements.
  std::vector<int32_t> buf(35);
  std::iota(buf.begin(), buf.end(), 0);
  auto piece = view<Tensor<int32_t, 4, 4>>(buf.data(), Coords<2>{1, 3}, Coords<2>{7, 1}, Coords<2>{4, 4},
                                           Coords<2>{5, 7});
  auto v = piece.load();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(v(i, j), (i < 1 && j < 3) ? (4 + i) * 7 + 4 + j : 0);
  piece.store(tile::full<int32_t, 4, 4>(-7));
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 7; ++c)
      EXPECT_EQ(buf[r * 7 + c], (r == 4 && c >= 4) ? -7 : r * 7 + c) << r << "," << c;
}

TEST(Tensor, StridedView) {
  // Every other column of a 4 x 8 matrix.
  std::vector<int32_t> buf(32);
  std::iota(buf.begin(), buf.end(), 0);
  auto t = view<Tensor<int32_t, 4, 4>>(buf.data(), Coords<2>{4, 4}, Coords<2>{8, 2});
  auto v = t.load();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(v(i, j), i * 8 + 2 * j);
}

TEST(Tensor, PartitionLoadsTilesWithPadding) {
  std::vector<float> buf(10);
  std::iota(buf.begin(), buf.end(), 0.0f);
  const auto t = view<Tensor<float, dyn>>(buf.data(), Coords<1>{10}, Coords<1>{1});
  auto p = t.partition<4>();
  EXPECT_EQ(tile::num_tiles(p, 0), 3);
  auto t0 = p.load(0);
  auto t2 = p.load(2);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t0(i), float(i));
    EXPECT_EQ(t2(i), i < 2 ? float(8 + i) : 0.0f);
  }
  // Whole tiles outside the view read zeros, on either side.
  auto out = p.load(5);
  auto neg = p.load(-1);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(out(i), 0.0f);
    EXPECT_EQ(neg(i), 0.0f);
  }
}

TEST(Tensor, Partition2D) {
  std::vector<int32_t> buf(5 * 6);
  std::iota(buf.begin(), buf.end(), 0);
  const auto t = view<Tensor<int32_t, dyn, dyn>>(buf.data(), Coords<2>{5, 6}, Coords<2>{6, 1});
  auto p = t.partition<2, 4>();
  EXPECT_EQ(tile::num_tiles(p, 0), 3);
  EXPECT_EQ(tile::num_tiles(p, 1), 2);
  auto v = p.load(2, 1);  // rows 4..5, cols 4..7: only (4,4) and (4,5) are inside
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(v(i, j), (i == 0 && j < 2) ? 4 * 6 + 4 + j : 0);
}

TEST(Tensor, PartitionMutStoresClippedToThePiece) {
  // A piece of static shape 8 with 6 valid elements, inside a longer buffer: nested stores
  // must not reach the elements past the piece.
  std::vector<int32_t> buf(12, -1);
  auto piece = view<Tensor<int32_t, 8>>(buf.data(), Coords<1>{6}, Coords<1>{1});
  auto p = piece.partition_mut<4>();
  EXPECT_EQ(tile::num_tiles(p, 0), 2);
  p.store(tile::full<int32_t, 4>(1), 0);
  p.store(tile::full<int32_t, 4>(2), 1);
  p.store(tile::full<int32_t, 4>(3), 2);  // entirely outside: dropped
  const std::vector<int32_t> want = {1, 1, 1, 1, 2, 2, -1, -1, -1, -1, -1, -1};
  EXPECT_EQ(buf, want);
  auto back = p.load(1);
  EXPECT_EQ(back(0), 2);
  EXPECT_EQ(back(2), 0);  // past the valid extent
}

TEST(Tensor, LoadTileLikeAtTheEdge) {
  // x is a whole array of 10; z is the piece at origin 8 of a 4-partition (2 valid elements).
  std::vector<float> xs(10), zs(10, 0.0f);
  std::iota(xs.begin(), xs.end(), 100.0f);
  const auto x = view<Tensor<float, dyn>>(xs.data(), Coords<1>{10}, Coords<1>{1});
  auto z = view<Tensor<float, 4>>(zs.data(), Coords<1>{2}, Coords<1>{1}, Coords<1>{8}, Coords<1>{10});
  auto t = tile::load_tile_like(x, z);
  EXPECT_EQ(t(0), 108.0f);
  EXPECT_EQ(t(1), 109.0f);
  EXPECT_EQ(t(2), 0.0f);
  EXPECT_EQ(t(3), 0.0f);
}

TEST(Tensor, LoadTileLikeUsesRelativeOrigins) {
  // x is itself a piece starting at (2, 0) of a 6 x 4 array; z sits at (4, 2): the tile of x at
  // z's position starts at x-local (2, 2).
  std::vector<int32_t> buf(24);
  std::iota(buf.begin(), buf.end(), 0);
  const auto x = view<Tensor<int32_t, 4, 4>>(buf.data(), Coords<2>{4, 4}, Coords<2>{4, 1}, Coords<2>{2, 0},
                                             Coords<2>{6, 4});
  std::vector<int32_t> other(24);
  const auto z = view<Tensor<int32_t, 2, 2>>(other.data(), Coords<2>{2, 2}, Coords<2>{4, 1}, Coords<2>{4, 2},
                                             Coords<2>{6, 4});
  auto t = tile::load_tile_like(x, z);
  EXPECT_EQ(t(0, 0), 4 * 4 + 2);
  EXPECT_EQ(t(0, 1), 4 * 4 + 3);
  EXPECT_EQ(t(1, 0), 5 * 4 + 2);
  EXPECT_EQ(t(1, 1), 5 * 4 + 3);
}

TEST(Tensor, LoadTileLikeConvertsNothingButTheShape) {
  // z may have another element type: only its position and static shape matter.
  std::vector<double> xs(8);
  std::iota(xs.begin(), xs.end(), 0.0);
  const auto x = view<Tensor<double, dyn>>(xs.data(), Coords<1>{8}, Coords<1>{1});
  std::vector<int8_t> zs(8);
  const auto z = view<Tensor<int8_t, 2>>(zs.data(), Coords<1>{2}, Coords<1>{1}, Coords<1>{6}, Coords<1>{8});
  auto t = tile::load_tile_like(x, z);
  static_assert(std::is_same_v<decltype(t), tile::Tile<double, 2>>);
  EXPECT_EQ(t(0), 6.0);
  EXPECT_EQ(t(1), 7.0);
}

TEST(Tensor, BlockIdOutsideALaunchIsASingleProgram) {
  EXPECT_EQ(tile::block_id(), 0);
  EXPECT_EQ(tile::block_id(1), 0);
  EXPECT_EQ(tile::num_blocks(), 1);
  EXPECT_EQ(tile::num_blocks(3), 1);
}

TEST(Tensor, ViewsAreNotCopyable) {
  static_assert(!std::is_copy_constructible_v<Tensor<float, 4>>);
  static_assert(!std::is_copy_assignable_v<Tensor<float, 4>>);
  static_assert(!std::is_copy_constructible_v<tile::TiledViewMut<float, 4>>);
  static_assert(std::is_copy_constructible_v<tile::TiledView<float, 4>>);
}

TEST(Tensor, UncheckedAccessSkipsTheBoundsHandling) {
  // A piece of static shape 8 with 6 valid elements inside a longer buffer: the unchecked store
  // of tile 1 writes all 4 elements, past the valid extent, where the checked store drops 2.
  std::vector<int32_t> buf(12, -1);
  auto piece = view<Tensor<int32_t, 8>>(buf.data(), Coords<1>{6}, Coords<1>{1});
  auto p = piece.partition_mut<4>();
  tile::unchecked::store(p, tile::full<int32_t, 4>(7), 1);
  const std::vector<int32_t> want = {-1, -1, -1, -1, 7, 7, 7, 7, -1, -1, -1, -1};
  EXPECT_EQ(buf, want);
  auto back = tile::unchecked::load(p, 1);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(back(i), 7) << i;  // no zero padding past the extent
  const auto& shared = piece;
  auto first = tile::unchecked::load(shared.partition<4>(), 0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(first(i), -1) << i;
}

TEST(Tensor, UncheckedAccessOfAStridedTwoDimensionalView) {
  // Every other column of a 4 x 8 matrix, in 2 x 2 tiles: tile (1, 1) is rows 2..3, columns
  // 4 and 6 of the matrix.
  std::vector<int32_t> buf(32);
  std::iota(buf.begin(), buf.end(), 0);
  auto t = view<Tensor<int32_t, 4, 4>>(buf.data(), Coords<2>{4, 4}, Coords<2>{8, 2});
  auto p = t.partition_mut<2, 2>();
  auto v = tile::unchecked::load(p, 1, 1);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(v(i, j), (2 + i) * 8 + 4 + 2 * j);
  tile::unchecked::store(p, tile::full<int32_t, 2, 2>(-5), 1, 0);
  EXPECT_EQ(buf[2 * 8 + 0], -5);
  EXPECT_EQ(buf[2 * 8 + 2], -5);
  EXPECT_EQ(buf[3 * 8 + 0], -5);
  EXPECT_EQ(buf[3 * 8 + 2], -5);
  EXPECT_EQ(buf[2 * 8 + 1], 2 * 8 + 1);  // the column in between is untouched
}

}  // namespace
