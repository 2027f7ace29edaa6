// Borrowed views of arrays (tile::ArrayView, tile::ArrayViewMut): slices and transposed
// (permuted) views, their layout and values, the borrow rules between views, arrays, partitions
// and ops, and views in launches, including the launch's overlap check between an exclusive
// argument and the others.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "tile/dlpack.hpp"
#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

using tile::dyn;
using tile::Tensor;

// ---- kernels -----------------------------------------------------------------------------------

/// z = x * 10 + the element's old value.
template <int BM, int BN>
TILE_KERNEL void mix2d(Tensor<int32_t, BM, BN>& z, const Tensor<int32_t, dyn, dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 10 + z.load());
}

template <int BM, int BN>
TILE_KERNEL void copy2d(Tensor<int32_t, BM, BN>& z, const Tensor<int32_t, dyn, dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

template <int B>
TILE_KERNEL void copy1d(Tensor<float, B>& z, const Tensor<float, dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

template <int B>
TILE_KERNEL void negate(Tensor<float, B>& z) {
  z.store(-z.load());
}

/// Each program writes its program id.
template <int BM, int BN>
TILE_KERNEL void ids(Tensor<int32_t, BM, BN>& z) {
  z.store(tile::full<int32_t, BM, BN>(static_cast<int32_t>(tile::block_id(0) * 100 + tile::block_id(1))));
}

// ---- helpers -------------------------------------------------------------------------------------

/// rows x cols int32 matrix holding 0, 1, 2, ... row-major.
tile::Array<int32_t> matrix(int64_t rows, int64_t cols) {
  return std::move(tile::arange<int32_t>(rows * cols)).reshape({rows, cols});
}

// ---- layout and values ---------------------------------------------------------------------------

TEST(View, WholeArray) {
  auto a = matrix(4, 6);
  const auto v = a.view();
  EXPECT_TRUE(v.valid());
  EXPECT_EQ(v.shape(), (tile::Shape{4, 6}));
  EXPECT_EQ(v.strides(), (tile::Shape{6, 1}));
  EXPECT_EQ(v.rank(), 2);
  EXPECT_EQ(v.size(), 24);
  EXPECT_EQ(v.offset(), 0);
  EXPECT_EQ(v.data(), a.data());
  EXPECT_EQ(v.device(), a.device());
  EXPECT_EQ(v.to_host(), a.to_host());
}

TEST(View, SliceOfOneAxis) {
  auto a = matrix(4, 6);
  const auto v = a.slice(1, 2, 5);  // columns 2, 3, 4
  EXPECT_EQ(v.shape(), (tile::Shape{4, 3}));
  EXPECT_EQ(v.strides(), (tile::Shape{6, 1}));
  EXPECT_EQ(v.offset(), 2);
  EXPECT_EQ(v.data(), a.data() + 2);
  EXPECT_EQ(v.to_host(), (std::vector<int32_t>{2, 3, 4, 8, 9, 10, 14, 15, 16, 20, 21, 22}));
  const auto rows = a.slice(0, 1, 3);
  EXPECT_EQ(rows.shape(), (tile::Shape{2, 6}));
  EXPECT_EQ(rows.offset(), 6);
  EXPECT_EQ(rows.to_host(), (std::vector<int32_t>{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}));
}

TEST(View, StepsMultiplyTheStrides) {
  auto a = matrix(5, 7);
  const auto v = a.slice({{1, 5, 2}, {0, 7, 3}});  // rows 1, 3; columns 0, 3, 6
  EXPECT_EQ(v.shape(), (tile::Shape{2, 3}));
  EXPECT_EQ(v.strides(), (tile::Shape{14, 3}));
  EXPECT_EQ(v.offset(), 7);
  EXPECT_EQ(v.size(), 6);
  EXPECT_EQ(v.to_host(), (std::vector<int32_t>{7, 10, 13, 21, 24, 27}));
  // A step that does not divide the range: indices 0, 4 of 0..6.
  const auto w = a.slice(1, 0, 7, 4);
  EXPECT_EQ(w.shape(), (tile::Shape{5, 2}));
  EXPECT_EQ(w.to_host(), (std::vector<int32_t>{0, 4, 7, 11, 14, 18, 21, 25, 28, 32}));
}

TEST(View, WholeAxesAndOpenEnds) {
  auto a = matrix(3, 4);
  const auto v = a.slice({{}, {2}});  // every row; columns 2 to the end
  EXPECT_EQ(v.shape(), (tile::Shape{3, 2}));
  EXPECT_EQ(v.to_host(), (std::vector<int32_t>{2, 3, 6, 7, 10, 11}));
  const auto first_rows = a.slice({{0, 2}});  // trailing axes whole
  EXPECT_EQ(first_rows.shape(), (tile::Shape{2, 4}));
  EXPECT_EQ(first_rows.to_host().back(), 7);
}

TEST(View, SlicesOfSlices) {
  auto a = matrix(4, 8);
  const auto v = a.slice(1, 1, 8);            // columns 1..7
  const auto w = v.slice(1, 0, 7, 2);         // columns 1, 3, 5, 7
  const auto x = w.slice({{1, 4, 2}, {1, 3}});  // rows 1, 3; columns 3, 5
  EXPECT_EQ(w.strides(), (tile::Shape{8, 2}));
  EXPECT_EQ(w.offset(), 1);
  EXPECT_EQ(w.to_host(), (std::vector<int32_t>{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31}));
  EXPECT_EQ(x.shape(), (tile::Shape{2, 2}));
  EXPECT_EQ(x.strides(), (tile::Shape{16, 2}));
  EXPECT_EQ(x.offset(), 11);
  EXPECT_EQ(x.to_host(), (std::vector<int32_t>{11, 13, 27, 29}));
}

TEST(View, ThreeDimensionsAndOtherElementTypes) {
  auto a = std::move(tile::arange<double>(2 * 3 * 4)).reshape({2, 3, 4});
  const auto v = a.slice({{1, 2}, {0, 3, 2}, {1, 4, 2}});
  EXPECT_EQ(v.shape(), (tile::Shape{1, 2, 2}));
  EXPECT_EQ(v.strides(), (tile::Shape{12, 8, 2}));
  EXPECT_EQ(v.to_host(), (std::vector<double>{13, 15, 21, 23}));
  auto b = tile::from_host(std::vector<bool>{true, false, false, true, true, false});
  EXPECT_EQ(b.slice(0, 0, 6, 3).to_host(), (std::vector<bool>{true, true}));
  EXPECT_EQ(b.slice(0, 1, 6, 2).to_host(), (std::vector<bool>{false, true, false}));
}

TEST(View, EmptySlices) {
  auto a = matrix(3, 4);
  const auto v = a.slice(0, 2, 2);
  EXPECT_EQ(v.shape(), (tile::Shape{0, 4}));
  EXPECT_EQ(v.size(), 0);
  EXPECT_TRUE(v.to_host().empty());
}

TEST(View, RangeErrorsNameTheRule) {
  auto a = matrix(3, 4);
  EXPECT_HAS(error_of([&] { (void)a.slice(1, 2, 5); }),
             "tile::Array::slice: axis 1: the range [2, 5) does not lie inside the extent 4");
  EXPECT_HAS(error_of([&] { (void)a.slice(0, 2, 1); }), "a slice needs 0 <= begin <= end <= extent");
  EXPECT_HAS(error_of([&] { (void)a.slice(0, -1, 2); }), "a slice needs 0 <= begin <= end <= extent");
  EXPECT_HAS(error_of([&] { (void)a.slice(0, 0, 3, 0); }), "a slice's step must be at least 1");
  EXPECT_HAS(error_of([&] { (void)a.slice(2, 0, 1); }), "axis 2 does not exist in an array of rank 2");
  EXPECT_HAS(error_of([&] { (void)a.slice({{}, {}, {}}); }), "a slice takes at most one range per axis");
  EXPECT_HAS(error_of([&] { (void)a.slice_mut(0, 0, 4); }), "tile::Array::slice_mut: axis 0");
  {
    const auto v = a.view();
    EXPECT_HAS(error_of([&] { (void)v.slice(1, 0, 4, -2); }), "tile::ArrayView::slice: axis 1: the step -2");
  }
  // The refused slices took no loan.
  EXPECT_TRUE(a.view_mut().valid());
  tile::Array<int32_t> gone;
  EXPECT_HAS(error_of([&] { (void)gone.view(); }), "tile::Array::view: the array has no storage");
}

// ---- borrow rules --------------------------------------------------------------------------------

TEST(ViewBorrow, SharedViewsCoexistAndBlockExclusiveBorrows) {
  auto a = matrix(4, 4);
  {
    const auto v = a.view();
    const auto w = a.slice(0, 1, 3);
    EXPECT_EQ(a.to_host().size(), 16u);  // reading the array is fine
    const std::string rule = "cannot be borrowed exclusively while borrowed shared";
    EXPECT_HAS(error_of([&] { (void)a.view_mut(); }), "tile::Array::view_mut");
    EXPECT_HAS(error_of([&] { (void)a.view_mut(); }), rule);
    EXPECT_HAS(error_of([&] { (void)a.slice_mut(0, 0, 2); }), rule);  // overlaps v
    EXPECT_HAS(error_of([&] { (void)a.partition_mut<2, 2>(); }), rule);
    EXPECT_HAS(error_of([&] { (void)std::move(a).partition<2, 2>(); }), "a borrowed array cannot be consumed");
    EXPECT_HAS(error_of([&] { (void)std::move(a).reshape({16}); }), "a borrowed array cannot be reshaped");
    EXPECT_HAS(error_of([&] { (void)tile::to_dlpack(std::move(a)); }),
               "a borrowed array cannot be handed to a DLPack consumer");
    EXPECT_TRUE(a.valid());  // every refusal left the array alone
  }
  // The loans ended with the views.
  auto m = a.view_mut();
  EXPECT_EQ(m.size(), 16);
}

TEST(ViewBorrow, AMutableViewExcludesEverythingElse) {
  auto a = matrix(4, 4);
  auto m = a.view_mut();
  EXPECT_EQ(m.data(), a.data());
  EXPECT_HAS(error_of([&] { (void)a.to_host(); }), "cannot be read until that borrow ends");
  EXPECT_HAS(error_of([&] { (void)a.view(); }), "cannot be shared until that borrow ends");
  EXPECT_HAS(error_of([&] { (void)a.slice(0, 3, 4); }), "cannot be shared until that borrow ends");
  EXPECT_HAS(error_of([&] { (void)a.view_mut(); }), "already borrowed exclusively");
  EXPECT_HAS(error_of([&] { (void)a.partition_mut<4, 4>(); }), "already borrowed exclusively");
  EXPECT_HAS(error_of([&] { (void)tile::launch<copy2d<4, 4>>(tile::zeros<int32_t>({4, 4}).partition<4, 4>(), a); }),
             "argument 2 (const Tensor<int32_t, dyn, dyn>&): the array is borrowed exclusively");
  // The view itself reads through its own borrow.
  EXPECT_EQ(m.to_host()[5], 5);
}

TEST(ViewBorrow, DisjointMutableSlicesOfOneArray) {
  auto a = matrix(4, 6);
  auto left = a.slice_mut(1, 0, 3);
  auto right = a.slice_mut(1, 3, 6);  // disjoint columns: both may be borrowed exclusively
  EXPECT_EQ(left.to_host()[3], 6);
  EXPECT_EQ(right.offset(), 3);
  EXPECT_HAS(error_of([&] { (void)a.slice_mut({{0, 1}, {2, 4}}); }),
             "already borrowed exclusively (by a mutable view, a PartitionRef or a pending op) (the borrowed "
             "elements overlap)");
  EXPECT_HAS(error_of([&] { (void)a.slice(1, 2, 3); }), "cannot be shared until that borrow ends");
  EXPECT_HAS(error_of([&] { (void)a.to_host(); }), "borrowed exclusively");
}

TEST(ViewBorrow, InterleavedStepsAreDisjoint) {
  auto a = matrix(2, 8);
  auto even = a.slice_mut(1, 0, 8, 2);
  auto odd = a.slice_mut(1, 1, 8, 2);
  EXPECT_EQ(odd.to_host(), (std::vector<int32_t>{1, 3, 5, 7, 9, 11, 13, 15}));
  // Every third column meets both of them.
  EXPECT_HAS(error_of([&] { (void)a.slice(1, 0, 8, 3); }), "cannot be shared until that borrow ends");
  (void)even;
}

TEST(ViewBorrow, ViewsAreMoveOnlyAndMoveTheirLoan) {
  static_assert(!std::is_copy_constructible_v<tile::ArrayView<float>>);
  static_assert(!std::is_copy_constructible_v<tile::ArrayViewMut<float>>);
  static_assert(std::is_nothrow_move_constructible_v<tile::ArrayView<float>>);
  static_assert(std::is_nothrow_move_constructible_v<tile::ArrayViewMut<float>>);
  auto a = tile::arange<float>(8);
  auto m = a.view_mut();
  auto n = std::move(m);
  EXPECT_FALSE(m.valid());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(m.size(), 0);
  EXPECT_EQ(m.data(), nullptr);
  EXPECT_HAS(error_of([&] { (void)m.to_host(); }), "tile::ArrayViewMut::to_host: the view holds no borrow");
  EXPECT_HAS(error_of([&] { (void)a.view(); }), "borrowed exclusively");  // n holds the loan
  n = tile::ArrayViewMut<float>();  // assigning returns n's loan
  auto v = a.view();
  tile::ArrayView<float> w;
  w = std::move(v);
  EXPECT_HAS(error_of([&] { (void)a.view_mut(); }), "borrowed shared");
  w = tile::ArrayView<float>();
  EXPECT_TRUE(a.view_mut().valid());
}

TEST(ViewBorrow, NarrowingAMutableViewReturnsTheRest) {
  auto a = matrix(4, 4);
  auto m = a.view_mut();
  auto top = std::move(m).slice(0, 0, 2);
  EXPECT_FALSE(m.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(top.shape(), (tile::Shape{2, 4}));
  EXPECT_EQ(top.to_host(), (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Rows 2 and 3 are no longer borrowed; rows 0 and 1 still are.
  EXPECT_EQ(a.slice(0, 2, 4).to_host().front(), 8);
  EXPECT_HAS(error_of([&] { (void)a.slice(0, 1, 3); }), "cannot be shared until that borrow ends");
}

TEST(ViewBorrow, TheViewFollowsTheStorageWhenTheArrayMoves) {
  tile::Array<int32_t> b;  // outlives the view (an array destroyed while lent aborts)
  auto a = matrix(3, 3);
  const int32_t* where = a.data();
  auto v = a.slice(1, 1, 3);
  b = std::move(a);  // the storage and its loans move with it
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.data(), where);
  EXPECT_EQ(v.to_host(), (std::vector<int32_t>{1, 2, 4, 5, 7, 8}));
  EXPECT_HAS(error_of([&] { (void)b.view_mut(); }), "borrowed shared");
  EXPECT_HAS(error_of([&] { (void)std::move(b).reshape({9}); }), "a borrowed array cannot be reshaped");
  // Moving the array into an op would free it while `v` still borrows it.
  const std::string msg = error_of([&] {
    (void)tile::launch<copy2d<4, 4>>(tile::zeros<int32_t>({3, 3}).partition<4, 4>(), std::move(b));
  });
  EXPECT_HAS(msg, "argument 2 (const Tensor<int32_t, dyn, dyn>&): the array moved into the op is borrowed");
  EXPECT_HAS(msg, "the op would free it while it is lent");
  EXPECT_TRUE(b.valid());  // refused before the op took it
}

TEST(ViewBorrowDeathTest, DestroyingALentArrayAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the CPU backend runs a thread pool
  EXPECT_DEATH(
      {
        auto v = [] {
          auto a = tile::arange<float>(4);
          return a.view();
        }();
        (void)v;
      },
      "destroyed while it was still lent");
}

// ---- views in launches ---------------------------------------------------------------------------

TEST(ViewLaunch, KernelReadsAStridedSlice) {
  auto a = matrix(9, 20);
  auto x = a.slice({{1, 9, 2}, {2, 20, 3}});  // rows 1, 3, 5, 7; columns 2, 5, ..., 17: inner stride 3
  ASSERT_EQ(x.shape(), (tile::Shape{4, 6}));
  ASSERT_EQ(x.strides(), (tile::Shape{40, 3}));
  auto z = tile::launch<copy2d<2, 4>>(tile::full<int32_t>({4, 6}, -1).partition<2, 4>(), x).sync().unpartition();
  const auto h = z.to_host();
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(h[static_cast<std::size_t>(i * 6 + j)], (1 + 2 * i) * 20 + (2 + 3 * j)) << i << " " << j;
}

TEST(ViewLaunch, OneDimensionalSliceAsAnLvalueAndAsATemporary) {
  auto a = tile::arange<float>(100);
  auto x = a.slice(0, 1, 100, 2);  // 1, 3, ..., 99
  auto z = tile::launch<copy1d<16>>(tile::zeros<float>({50}).partition<16>(), x).sync().unpartition();
  const auto h = z.to_host();
  for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(h[i], static_cast<float>(2 * i + 1)) << i;
  auto y = tile::launch<copy1d<16>>(tile::zeros<float>({10}).partition<16>(), a.slice(0, 90, 100))
               .sync()
               .unpartition()
               .to_host();
  EXPECT_EQ(y.front(), 90.0f);
  EXPECT_EQ(y.back(), 99.0f);
}

TEST(ViewLaunch, KernelWritesIntoAMutableSlice) {
  auto a = tile::zeros<int32_t>({10, 12});
  auto x = matrix(4, 6);
  // Rows 2..9 step 2, columns 1..11 step 2 of a: a 4 x 6 view with inner stride 2.
  auto target = a.slice_mut({{2, 10, 2}, {1, 12, 2}});
  EXPECT_EQ(target.strides(), (tile::Shape{24, 2}));
  auto op = tile::launch<mix2d<2, 4>>(std::move(target).partition<2, 4>(), x);
  EXPECT_FALSE(target.valid());  // NOLINT(bugprone-use-after-move): the partition took the loan
  EXPECT_HAS(error_of([&] { (void)a.to_host(); }), "borrowed exclusively");  // the op holds it now
  std::move(op).sync();
  const auto h = a.to_host();
  for (int64_t r = 0; r < 10; ++r)
    for (int64_t c = 0; c < 12; ++c) {
      const bool inside = r >= 2 && r % 2 == 0 && c % 2 == 1;
      const int32_t want = inside ? static_cast<int32_t>(((r - 2) / 2 * 6 + (c - 1) / 2) * 10) : 0;
      EXPECT_EQ(h[static_cast<std::size_t>(r * 12 + c)], want) << r << " " << c;
    }
}

TEST(ViewLaunch, PartitionOfAMutableViewGivesEachProgramItsPiece) {
  auto a = tile::full<int32_t>({6, 9}, -1);
  {
    auto v = a.slice_mut({{1, 6}, {0, 9, 2}});  // 5 x 5 view, grid 3 x 3 of 2 x 2 tiles
    auto p = std::move(v).partition<2, 2>();
    EXPECT_EQ(p.grid(), (std::array<int64_t, 2>{3, 3}));
    EXPECT_EQ(p.shape(), (tile::Shape{5, 5}));
    tile::launch<ids<2, 2>>(std::move(p)).sync();
  }
  const auto h = a.to_host();
  for (int64_t r = 0; r < 6; ++r)
    for (int64_t c = 0; c < 9; ++c) {
      const bool inside = r >= 1 && c % 2 == 0;
      const int64_t vi = r - 1, vj = c / 2;
      const int32_t want = inside ? static_cast<int32_t>(vi / 2 * 100 + vj / 2) : -1;
      EXPECT_EQ(h[static_cast<std::size_t>(r * 9 + c)], want) << r << " " << c;
    }
  auto v = a.view_mut();
  EXPECT_HAS(error_of([&] { (void)std::move(v).partition<2>(); }),
             "tile::ArrayViewMut::partition: the tile shape has rank 1 but the view [6, 9] has rank 2");
  EXPECT_TRUE(v.valid());  // a refused partition leaves the view's loan in place
}

TEST(ViewLaunch, DisjointSlicesOfOneArrayAsExclusiveAndShared) {
  // Rows: the output is rows 0..3, the input rows 4..7 of the same array.
  auto a = matrix(8, 8);
  {
    auto out = a.slice_mut(0, 0, 4);
    auto in = a.slice(0, 4, 8);
    tile::launch<copy2d<2, 8>>(std::move(out).partition<2, 8>(), in).sync();
  }
  auto h = a.to_host();
  for (std::size_t i = 0; i < 32; ++i) EXPECT_EQ(h[i], static_cast<int32_t>(i + 32)) << i;
  // Columns interleave in memory, but their elements are disjoint: allowed too.
  auto b = matrix(4, 8);
  {
    auto even = b.slice_mut(1, 0, 8, 2);
    tile::launch<copy2d<4, 4>>(std::move(even).partition<4, 4>(), b.slice(1, 1, 8, 2)).sync();
  }
  h = b.to_host();
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(h[static_cast<std::size_t>(r * 8 + c)], r * 8 + (c % 2 == 0 ? c + 1 : c)) << r << " " << c;
}

TEST(ViewLaunch, OverlappingExclusiveAndSharedArgumentsAreRefused) {
  auto a = matrix(8, 8);
  auto out = a.slice_mut(0, 0, 4);
  auto p = std::move(out).partition<2, 8>();
  // A view takes its loan when it is made, so an overlapping one is refused at once...
  EXPECT_HAS(error_of([&] { (void)a.slice(0, 3, 8); }), "cannot be shared until that borrow ends");
  // ...and a launch given the whole array as the shared argument names both arguments.
  const std::string msg = error_of([&] { (void)tile::launch<copy2d<2, 8>>(std::move(p), a); });
  EXPECT_HAS(msg, "tile::launch<copy2d<2, 8>>: argument 2 (const Tensor<int32_t, dyn, dyn>&)");
  EXPECT_HAS(msg, "its elements overlap those of argument 1 (Tensor<int32_t, 2, 8>&), which is lent exclusively");
  EXPECT_HAS(msg, "an exclusive argument may share no memory with another argument");
}

TEST(ViewLaunch, ExternalBorrowsOverlappingInMemoryAreRefusedByByteRange) {
  std::vector<float> host(64);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  auto whole = tile::unchecked::borrow_external<float>(host.data(), {64}, {}, tile::cpu_device());
  auto tail = tile::unchecked::borrow_external<float>(host.data() + 32, {32}, {}, tile::cpu_device());
  const std::string msg = error_of([&] {
    (void)tile::launch<copy1d<8>>(tail.partition_mut<8>(), whole.slice(0, 0, 64, 2));
  });
  // The loans of the two arrays meet in their bytes before the launch compares its arguments.
  EXPECT_HAS(msg, "through another array over the same memory (borrow_external, from_dlpack)");
  // Passed whole, without loans of their own, the launch compares them.
  const std::string direct = error_of([&] {
    (void)tile::launch<copy1d<8>>(std::move(tail).partition<8>(), whole);
  });
  EXPECT_HAS(direct, "its elements overlap those of argument 1");
  EXPECT_HAS(direct, "arrays over distinct storage are compared by byte ranges");
  tail = tile::unchecked::borrow_external<float>(host.data() + 32, {32}, {}, tile::cpu_device());
  // Byte ranges that do not meet are fine.
  tile::launch<copy1d<8>>(tail.partition_mut<8>(), whole.slice(0, 0, 32)).sync();
  EXPECT_EQ(host[32], 0.0f);
  EXPECT_EQ(host[63], 31.0f);
}

TEST(ViewLaunch, ASharedViewPassedToAPendingOpKeepsItsLoanUntilTheOpRuns) {
  auto a = tile::arange<float>(32);
  auto op = [&] {
    auto v = a.slice(0, 0, 16);
    return tile::launch<copy1d<8>>(tile::zeros<float>({16}).partition<8>(), v);
  }();  // the view is gone, the op's own loan remains
  EXPECT_HAS(error_of([&] { (void)a.slice_mut(0, 8, 24); }), "borrowed shared");
  auto tail = a.slice_mut(0, 16, 32);  // disjoint from what the op reads
  tile::launch<negate<8>>(std::move(tail).partition<8>()).sync();
  const auto z = std::move(op).sync().unpartition().to_host();
  EXPECT_EQ(z[15], 15.0f);
  EXPECT_EQ(a.to_host()[20], -20.0f);
  EXPECT_TRUE(a.view_mut().valid());  // every loan ended
}

// ---- transposed views ----------------------------------------------------------------------------

TEST(ViewPermute, TransposeOfAMatrix) {
  auto a = matrix(3, 4);
  const auto t = a.view().transpose();
  EXPECT_EQ(t.shape(), (tile::Shape{4, 3}));
  EXPECT_EQ(t.strides(), (tile::Shape{1, 4}));
  EXPECT_EQ(t.offset(), 0);
  EXPECT_EQ(t.data(), a.data());
  EXPECT_EQ(t.to_host(), (std::vector<int32_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(a.view().transpose(0, 1).to_host(), t.to_host());
  EXPECT_EQ(a.view().permute({1, 0}).to_host(), t.to_host());
  EXPECT_EQ(t.transpose().to_host(), a.to_host());  // twice: the array again
}

TEST(ViewPermute, PermuteThreeAxesThenSlice) {
  auto a = std::move(tile::arange<int32_t>(2 * 3 * 4)).reshape({2, 3, 4});  // (i, j, k) holds 12i + 4j + k
  const auto p = a.view().permute({2, 0, 1});  // p(k, i, j) = a(i, j, k)
  EXPECT_EQ(p.shape(), (tile::Shape{4, 2, 3}));
  EXPECT_EQ(p.strides(), (tile::Shape{1, 12, 4}));
  const auto h = p.to_host();
  ASSERT_EQ(h.size(), 24u);
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        EXPECT_EQ(h[static_cast<std::size_t>((k * 2 + i) * 3 + j)], 12 * i + 4 * j + k) << k << i << j;
  // Slicing the permuted view's axis 0 slices the array's axis 2: k = 1, 3.
  const auto s = p.slice(0, 1, 4, 2);
  EXPECT_EQ(s.shape(), (tile::Shape{2, 2, 3}));
  EXPECT_EQ(s.strides(), (tile::Shape{2, 12, 4}));
  EXPECT_EQ(s.offset(), 1);
  EXPECT_EQ(s.to_host(), (std::vector<int32_t>{1, 5, 9, 13, 17, 21, 3, 7, 11, 15, 19, 23}));
  // Swapping two axes of a slice.
  EXPECT_EQ(a.slice({{1, 2}}).transpose(1, 2).to_host(),
            (std::vector<int32_t>{12, 16, 20, 13, 17, 21, 14, 18, 22, 15, 19, 23}));
}

TEST(ViewPermute, ErrorsNameTheRule) {
  auto a = matrix(3, 4);
  {
    const auto v = a.view();
    EXPECT_HAS(error_of([&] { (void)v.permute({0}); }),
               "tile::ArrayView::permute: the axes {0} name 1 axes but the view [3, 4] has rank 2; a permutation "
               "lists every axis once");
    EXPECT_HAS(error_of([&] { (void)v.permute({1, 1}); }),
               "the axes {1, 1} are not a permutation of the 2 axes of the view [3, 4] (axis 1 is named twice)");
    EXPECT_HAS(error_of([&] { (void)v.permute({0, 2}); }), "(axis 2 does not exist)");
    EXPECT_HAS(error_of([&] { (void)v.transpose(0, 2); }),
               "tile::ArrayView::transpose: axis 2 does not exist in a view of rank 2");
    EXPECT_HAS(error_of([&] { (void)v.transpose(-1, 0); }), "axis -1 does not exist");
  }
  tile::ArrayView<int32_t> gone;
  EXPECT_HAS(error_of([&] { (void)gone.transpose(); }), "tile::ArrayView::transpose: the view holds no borrow");
  auto m = a.slice_mut(0, 0, 1);
  EXPECT_HAS(error_of([&] { (void)std::move(m).permute({0, 0}); }), "tile::ArrayViewMut::permute: the axes {0, 0}");
  EXPECT_TRUE(m.valid());  // a refused permute leaves the view's loan in place
}

TEST(ViewPermute, AMutableViewKeepsItsLoanWhenTransposed) {
  auto a = matrix(2, 3);
  auto m = a.view_mut();
  auto t = std::move(m).transpose();
  EXPECT_FALSE(m.valid());  // NOLINT(bugprone-use-after-move): the loan moved to t
  EXPECT_EQ(t.shape(), (tile::Shape{3, 2}));
  EXPECT_EQ(t.to_host(), (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_HAS(error_of([&] { (void)a.view(); }), "cannot be shared until that borrow ends");
  t = tile::ArrayViewMut<int32_t>();  // returns the loan
  EXPECT_TRUE(a.view_mut().valid());
}

TEST(ViewPermute, LoansCompareTransposedViewsInTheArraysAxisOrder) {
  auto a = matrix(4, 4);
  // Columns 0 and 1, transposed: view axis 0 is the array's axis 1.
  auto left = a.slice_mut(1, 0, 2).transpose();
  ASSERT_EQ(left.shape(), (tile::Shape{2, 4}));
  // Columns 2 and 3 are disjoint from it, transposed or not: both borrowed exclusively together.
  auto right = a.slice_mut(1, 2, 4).transpose();
  EXPECT_EQ(right.to_host(), (std::vector<int32_t>{2, 6, 10, 14, 3, 7, 11, 15}));
  right = tile::ArrayViewMut<int32_t>();
  auto rest = a.slice_mut({{}, {2, 4}});
  EXPECT_EQ(rest.to_host().front(), 2);
  // Rows 2 and 3 meet columns 0 and 1 (though the view's own axis 0, of extent 2, runs over
  // columns, not rows): refused, shared or exclusive.
  EXPECT_HAS(error_of([&] { (void)a.slice_mut(0, 2, 4); }), "already borrowed exclusively");
  EXPECT_HAS(error_of([&] { (void)a.slice(0, 2, 4); }), "cannot be shared until that borrow ends");
  EXPECT_HAS(error_of([&] { (void)a.slice({{3, 4}, {1, 2}}).transpose(); }), "cannot be shared until that borrow ends");
  EXPECT_EQ(left.to_host(), (std::vector<int32_t>{0, 4, 8, 12, 1, 5, 9, 13}));
}

TEST(ViewPermute, TransposedViewAsASharedLaunchArgument) {
  auto a = matrix(4, 6);
  auto z = tile::launch<copy2d<4, 4>>(tile::zeros<int32_t>({6, 4}).partition<4, 4>(), a.view().transpose())
               .sync()
               .unpartition();
  const auto h = z.to_host();
  for (int64_t j = 0; j < 6; ++j)
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(h[static_cast<std::size_t>(j * 4 + i)], i * 6 + j) << j << " " << i;
}

TEST(ViewPermute, TransposedMutableViewAsAPartition) {
  auto z = tile::full<int32_t>({6, 4}, -1);
  auto x = matrix(4, 6);
  tile::launch<copy2d<2, 4>>(z.view_mut().transpose().partition<2, 4>(), x).sync();  // z^T = x
  const auto h = z.to_host();
  for (int64_t j = 0; j < 6; ++j)
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(h[static_cast<std::size_t>(j * 4 + i)], i * 6 + j) << j << " " << i;
}

TEST(ViewPermute, LaunchOverlapCheckWithTransposedArguments) {
  auto a = matrix(4, 4);
  {
    // Exclusive: columns 0, 1 (transposed); shared: columns 2, 3 (transposed). Disjoint in the
    // array, though their view axes of one number run over different array axes.
    auto out = a.slice_mut(1, 0, 2).transpose();
    tile::launch<copy2d<2, 4>>(std::move(out).partition<2, 4>(), a.slice(1, 2, 4).transpose()).sync();
  }
  const auto h = a.to_host();
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 4; ++c)
      EXPECT_EQ(h[static_cast<std::size_t>(r * 4 + c)], r * 4 + (c < 2 ? c + 2 : c)) << r << " " << c;
  // The whole array as the shared argument overlaps the transposed exclusive one.
  auto p = a.slice_mut(1, 0, 2).transpose().partition<2, 4>();
  const std::string msg = error_of([&] { (void)tile::launch<copy2d<2, 4>>(std::move(p), a); });
  EXPECT_HAS(msg, "tile::launch<copy2d<2, 4>>: argument 2 (const Tensor<int32_t, dyn, dyn>&): its elements "
                  "overlap those of argument 1 (Tensor<int32_t, 2, 4>&), which is lent exclusively");
}

}  // namespace
