// Array constructors and copies as ops (tile/array_ops.hpp): the values after sync, async and
// graph replay, composition with then / zip, copy and to_host semantics and refusals. Every
// test runs on the CPU backend and on the default device (a GPU where there is one).
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

using tile::dyn;
using tile::Tensor;

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

template <int B>
TILE_KERNEL void add(Tensor<float, B>& z, const Tensor<float, dyn>& x, const Tensor<float, dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}

std::vector<float> iota(std::size_t n, float from) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = from + static_cast<float>(i);
  return v;
}

class ArrayOps : public ::testing::TestWithParam<bool> {
 protected:
  const tile::Device& device() const { return GetParam() ? tile::default_device() : tile::cpu_device(); }
};

TEST_P(ArrayOps, ConstructorsAfterSync) {
  const tile::Device& d = device();
  auto z = tile::ops::zeros<float>({5, 7}, d).sync();
  static_assert(std::is_same_v<decltype(z), tile::Array<float>>);
  EXPECT_EQ(z.shape(), tile::Shape(5, 7));
  EXPECT_TRUE(z.device() == d);
  EXPECT_EQ(z.to_host(), std::vector<float>(35, 0.0f));
  EXPECT_EQ(tile::ops::ones<int32_t>({9}, d).sync().to_host(), std::vector<int32_t>(9, 1));
  EXPECT_EQ(tile::ops::full<float>({3, 4}, 2.5f, d).sync().to_host(), std::vector<float>(12, 2.5f));
  EXPECT_EQ(tile::ops::arange<float>(100, d).sync().to_host(), iota(100, 0.0f));
  auto h = tile::ops::from_host(iota(6, 10.0f), {2, 3}, d).sync();
  EXPECT_EQ(h.shape(), tile::Shape(2, 3));
  EXPECT_EQ(h.to_host(), iota(6, 10.0f));
  auto e = tile::ops::empty<double>({4, 2}, d).sync();
  EXPECT_EQ(e.shape(), tile::Shape(4, 2));
  EXPECT_EQ(e.size(), 8);
  EXPECT_EQ(tile::ops::zeros<float>({0}, d).sync().size(), 0);
}

TEST_P(ArrayOps, ConstructorsAfterAsync) {
  const tile::Device& d = device();
  auto f = tile::zip(tile::ops::zeros<float>({300}, d), tile::ops::ones<float>({300}, d),
                     tile::ops::full<int32_t>({2, 2}, -3, d), tile::ops::arange<float>(257, d),
                     tile::ops::from_host(std::vector<float>{4, 5, 6}, {}, d))
               .async();
  auto [z, o, fu, ar, fh] = std::move(f).get();
  EXPECT_EQ(z.to_host(), std::vector<float>(300, 0.0f));
  EXPECT_EQ(o.to_host(), std::vector<float>(300, 1.0f));
  EXPECT_EQ(fu.to_host(), std::vector<int32_t>(4, -3));
  EXPECT_EQ(ar.to_host(), iota(257, 0.0f));
  EXPECT_EQ(fh.to_host(), (std::vector<float>{4, 5, 6}));
}

TEST_P(ArrayOps, FromHostOwnsItsValues) {
  std::vector<float> v = iota(50, 1.0f);
  auto op = tile::ops::from_host(v, {}, device());  // copies v into the op
  v.assign(50, -1.0f);
  EXPECT_EQ(std::move(op).sync().to_host(), iota(50, 1.0f));
  EXPECT_NE(error_of([&] { (void)tile::ops::from_host(iota(6, 0.0f), {4, 2}, device()); })
                .find("tile::ops::from_host: the shape [4, 2] holds 8 elements but the vector has 6"),
            std::string::npos);
}

TEST_P(ArrayOps, ThenLaunchesOnTheNewArray) {
  auto op = tile::ops::full<float>({300}, 2.0f, device())
                .then([](tile::Array<float> a) { return tile::launch<increment<128>>(std::move(a).partition<128>()); })
                .then([](auto p) { return std::move(p).unpartition(); });
  static_assert(std::is_same_v<decltype(op)::result_type, tile::Array<float>>);
  auto a = std::move(op).sync();
  EXPECT_TRUE(a.device() == device());
  EXPECT_EQ(a.to_host(), std::vector<float>(300, 3.0f));
}

TEST_P(ArrayOps, ZipOfConstructorsFeedsALaunch) {
  const tile::Device& d = device();
  auto op = tile::zip(tile::ops::arange<float>(200, d), tile::ops::full<float>({200}, 0.5f, d),
                      tile::ops::empty<float>({200}, d))
                .then([](auto arrays) {
                  auto& [x, y, z] = arrays;
                  auto launch = tile::launch<add<64>>(std::move(z).template partition<64>(), std::move(x), std::move(y));
                  return std::move(launch);
                })
                .then([](auto p) { return std::move(p).unpartition(); });
  auto z = std::move(op).async();
  const auto h = std::move(z).get().to_host();
  ASSERT_EQ(h.size(), 200u);
  for (std::size_t i = 0; i < h.size(); ++i) EXPECT_EQ(h[i], static_cast<float>(i) + 0.5f) << i;
}

TEST_P(ArrayOps, GraphReplayRefillsTheArray) {
  // A graph cannot capture a launch that runs on host copies, as these kernels (no GPU code in
  // this build) do on a GPU.
  if (device().is_gpu()) GTEST_SKIP() << "needs a kernel with GPU code (a tilecc-compiled program)";
  // zeros then +1: without the fill at every replay three runs would leave 3.
  auto g = tile::ops::zeros<float>({300}, device())
               .then([](tile::Array<float> a) { return tile::launch<increment<128>>(std::move(a).partition<128>()); })
               .then([](auto p) { return std::move(p).unpartition(); })
               .graph();
  g.sync();
  g.sync();
  g.async().wait();
  EXPECT_EQ(std::move(g).get().to_host(), std::vector<float>(300, 1.0f));
}

TEST_P(ArrayOps, GraphOfEveryConstructor) {
  const tile::Device& d = device();
  auto g = tile::zip(tile::ops::ones<float>({64}, d), tile::ops::full<float>({8}, 7.0f, d),
                     tile::ops::arange<float>(33, d), tile::ops::from_host(iota(10, -5.0f), {2, 5}, d))
               .graph();
  for (int run = 0; run < 3; ++run) g.sync();
  auto [o, f, a, h] = std::move(g).get();
  EXPECT_EQ(o.to_host(), std::vector<float>(64, 1.0f));
  EXPECT_EQ(f.to_host(), std::vector<float>(8, 7.0f));
  EXPECT_EQ(a.to_host(), iota(33, 0.0f));
  EXPECT_EQ(h.shape(), tile::Shape(2, 5));
  EXPECT_EQ(h.to_host(), iota(10, -5.0f));
}

TEST_P(ArrayOps, CopyAfterSyncAndAsync) {
  const tile::Device& d = device();
  auto src = tile::from_host(iota(120, 3.0f), {10, 12}, d);
  auto dst = tile::zeros<float>({10, 12}, d);
  static_assert(std::is_void_v<decltype(tile::ops::copy(src, dst))::result_type>);
  tile::ops::copy(src, dst).sync();
  EXPECT_EQ(dst.to_host(), iota(120, 3.0f));
  EXPECT_EQ(src.to_host(), iota(120, 3.0f));

  auto dst2 = tile::full<float>({10, 12}, 9.0f, d);
  auto f = tile::ops::copy(src, dst2).async();
  // While the copy is pending dst2 is lent exclusively and src shared.
  EXPECT_NE(error_of([&] { (void)dst2.to_host(); }).find("borrowed exclusively"), std::string::npos);
  EXPECT_NE(error_of([&] { (void)src.partition_mut<4, 4>(); }).find("cannot be borrowed exclusively"),
            std::string::npos);
  EXPECT_EQ(src.to_host(), iota(120, 3.0f));  // sharing is fine
  std::move(f).get();
  EXPECT_EQ(dst2.to_host(), iota(120, 3.0f));
}

TEST_P(ArrayOps, CopyAfterALaunchSeesItsWrites) {
  const tile::Device& d = device();
  auto src = tile::zeros<float>({256}, d);
  auto dst = tile::zeros<float>({256}, d);
  auto f = tile::launch<increment<128>>(src.partition_mut<128>()).async();
  std::move(f).get();
  tile::ops::copy(src, dst).sync();
  tile::launch<increment<128>>(dst.partition_mut<128>()).sync();
  EXPECT_EQ(dst.to_host(), std::vector<float>(256, 2.0f));
  EXPECT_EQ(src.to_host(), std::vector<float>(256, 1.0f));
}

TEST_P(ArrayOps, CopyRefusals) {
  const tile::Device& d = device();
  auto a = tile::zeros<float>({4, 6}, d);
  auto b = tile::zeros<float>({6, 4}, d);
  EXPECT_NE(error_of([&] { (void)tile::ops::copy(a, b); })
                .find("tile::ops::copy: the shapes differ (src [4, 6], dst [6, 4]); a copy needs equal shapes"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)tile::ops::copy(a, a); }).find("tile::ops::copy: src and dst are the same array"),
            std::string::npos);
  auto c = tile::zeros<float>({4, 6}, d);
  {
    auto view = c.view_mut();  // c is borrowed exclusively
    EXPECT_NE(error_of([&] { (void)tile::ops::copy(a, c); }).find("tile::ops::copy (dst)"), std::string::npos);
    EXPECT_NE(error_of([&] { (void)tile::ops::copy(c, a); }).find("tile::ops::copy (src)"), std::string::npos);
  }
  auto moved = std::move(c);
  EXPECT_NE(error_of([&] { (void)tile::ops::copy(c, a); }).find("tile::ops::copy: src has no storage"),
            std::string::npos);
  // A refused or unexecuted copy holds no loans.
  { auto dropped = tile::ops::copy(a, moved); }
  EXPECT_NO_THROW((void)moved.view_mut());
  EXPECT_NO_THROW((void)a.view_mut());
  if (d.is_gpu()) {
    auto host = tile::zeros<float>({4, 6}, tile::cpu_device());
    EXPECT_NE(error_of([&] { (void)tile::ops::copy(host, a); }).find("between the CPU and a GPU go through to_host / from_host"),
              std::string::npos);
  }
}

TEST_P(ArrayOps, GraphHoldsTheCopysLoans) {
  const tile::Device& d = device();
  auto src = tile::arange<float>(64, d);
  auto dst = tile::zeros<float>({64}, d);
  {
    auto g = tile::ops::copy(src, dst).graph();
    g.sync();
    g.sync();
    EXPECT_NE(error_of([&] { (void)dst.to_host(); }).find("borrowed exclusively"), std::string::npos);
    std::move(g).get();
  }
  EXPECT_EQ(dst.to_host(), iota(64, 0.0f));
}

TEST_P(ArrayOps, ToHostOp) {
  const tile::Device& d = device();
  auto a = tile::from_host(iota(90, 1.0f), {}, d);
  auto op = tile::ops::to_host(a);
  static_assert(std::is_same_v<decltype(op)::result_type, std::vector<float>>);
  EXPECT_EQ(std::move(op).sync(), iota(90, 1.0f));

  // After the pending writer, and borrowing the array shared until it has run.
  auto w = tile::launch<increment<32>>(a.partition_mut<32>()).async();
  std::move(w).get();
  auto f = tile::zip(tile::ops::to_host(a), tile::ops::to_host(a)).async();
  EXPECT_NE(error_of([&] { (void)a.partition_mut<32>(); }).find("cannot be borrowed exclusively"),
            std::string::npos);
  auto [h1, h2] = std::move(f).get();
  EXPECT_EQ(h1, iota(90, 2.0f));
  EXPECT_EQ(h2, iota(90, 2.0f));
  EXPECT_NO_THROW((void)a.partition_mut<32>());

  auto moved = std::move(a);
  EXPECT_NE(error_of([&] { (void)tile::ops::to_host(a); }).find("tile::ops::to_host: the array has no storage"),
            std::string::npos);
  auto v = moved.view_mut();
  EXPECT_NE(error_of([&] { (void)tile::ops::to_host(moved); }).find("tile::ops::to_host"), std::string::npos);
}

TEST_P(ArrayOps, ToHostOpEndsAChain) {
  auto op = tile::ops::zeros<float>({128}, device())
                .then([](tile::Array<float> a) { return tile::launch<increment<64>>(std::move(a).partition<64>()); })
                .then([](auto p) { return tile::ops::to_host(std::move(p).unpartition()); });
  static_assert(std::is_same_v<decltype(op)::result_type, std::vector<float>>);
  EXPECT_EQ(std::move(op).sync(), std::vector<float>(128, 1.0f));
}

TEST_P(ArrayOps, ToHostWhileTheArrayIsLentIsRefused) {
  auto a = tile::zeros<float>({128}, device());
  // The launch holds a exclusively until it has run: a to_host op made in its then step is refused.
  auto op = tile::launch<increment<64>>(a.partition_mut<64>()).then([&] { return tile::ops::to_host(a); });
  EXPECT_NE(error_of([&] { (void)std::move(op).sync(); }).find("tile::ops::to_host: the array is borrowed exclusively"),
            std::string::npos);
  EXPECT_NO_THROW((void)a.view_mut());  // the failed execution returned the loans
}

TEST_P(ArrayOps, ToHostInAGraph) {
  const tile::Device& d = device();
  auto capture = [&] {
    return tile::ops::arange<float>(128, d)
        .then([](tile::Array<float> a) { return tile::launch<increment<64>>(std::move(a).partition<64>()); })
        .then([](auto p) { return tile::ops::to_host(std::move(p).unpartition()); })
        .graph();
  };
  if (d.is_gpu()) {  // refused before anything runs (without a kernel, which could not be captured either)
    EXPECT_HAS(error_of([&] {
                 (void)tile::ops::arange<float>(128, d)
                     .then([](tile::Array<float> a) { return tile::ops::to_host(std::move(a)); })
                     .graph();
               }),
               "cannot be captured into a graph on a GPU");
    return;
  }
  auto g = capture();
  g.sync();
  g.sync();  // arange again, +1 again: the same values
  EXPECT_EQ(std::move(g).get(), iota(128, 1.0f));
}

// ---- copy and to_host over views ---------------------------------------------------------------

/// A rows x cols array holding from, from + 1, ... row-major.
tile::Array<float> matrix(int64_t rows, int64_t cols, float from, const tile::Device& d) {
  return tile::from_host(iota(static_cast<std::size_t>(rows * cols), from), {rows, cols}, d);
}

/// Reads / writes one element behind the loans' back (a graph holds them for its whole life):
/// how a test watches what each replay does.
float peek(const tile::Array<float>& a, int64_t i) {
  float x = 0;
  tile::detail::copy_to_host(a.device(), &x, a.data() + i, sizeof x);
  return x;
}
void poke(const tile::Array<float>& a, int64_t i, float x) {
  tile::detail::copy_to_device(a.device(), a.data() + i, &x, sizeof x);
}

TEST_P(ArrayOps, CopySliceToSliceOfTwoArrays) {
  const tile::Device& d = device();
  auto a = matrix(4, 6, 0.0f, d);
  auto b = tile::zeros<float>({3, 4}, d);
  // src: rows 1..2, columns 2..4 of a; dst: rows 0..1, columns 1..3 of b.
  auto op = tile::ops::copy(a.slice({{1, 3}, {2, 5}}), b.slice_mut({{0, 2}, {1, 4}}));
  std::move(op).sync();  // the source view was a temporary, gone before the op ran
  EXPECT_EQ(b.to_host(), (std::vector<float>{0, 8, 9, 10, 0, 14, 15, 16, 0, 0, 0, 0}));
  EXPECT_EQ(a.to_host(), iota(24, 0.0f));
}

TEST_P(ArrayOps, CopyBetweenDisjointSlicesOfOneArray) {
  const tile::Device& d = device();
  auto a = tile::arange<float>(10, d);
  tile::ops::copy(a.slice(0, 0, 4), a.slice_mut(0, 6, 10)).sync();
  EXPECT_EQ(a.to_host(), (std::vector<float>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3}));
  // Interleaved rows: the even rows into the odd ones.
  auto m = matrix(4, 3, 0.0f, d);
  tile::ops::copy(m.slice(0, 0, 4, 2), m.slice_mut(0, 1, 4, 2)).sync();
  EXPECT_EQ(m.to_host(), (std::vector<float>{0, 1, 2, 0, 1, 2, 6, 7, 8, 6, 7, 8}));
}

TEST_P(ArrayOps, CopyBetweenOverlappingPartsOfOneArrayIsRefused) {
  const tile::Device& d = device();
  auto a = tile::arange<float>(10, d);
  // Views of one array that share elements cannot both be alive: the second borrow is refused.
  {
    auto src = a.slice(0, 0, 6);
    EXPECT_HAS(error_of([&] { (void)tile::ops::copy(src, a.slice_mut(0, 4, 10)); }),
               "tile::Array::slice_mut: the array is borrowed by a pending op (as a shared argument) or by a view "
               "(the borrowed elements overlap)");
  }
  {
    auto dst = a.slice_mut(0, 4, 10);
    EXPECT_HAS(error_of([&] { (void)tile::ops::copy(a.slice(0, 0, 6), std::move(dst)); }),
               "tile::Array::slice: the array is borrowed exclusively (by a mutable view, a PartitionRef or a "
               "pending op) (the borrowed elements overlap)");
  }
  // A view of the whole array and the array itself.
  EXPECT_HAS(error_of([&] { (void)tile::ops::copy(a.view(), a); }),
             "tile::ops::copy: src and dst are the same array; a copy needs two arrays");
  EXPECT_HAS(error_of([&] { (void)tile::ops::copy(a, a.view_mut()); }), "tile::ops::copy: src and dst are the same array");
  EXPECT_NO_THROW((void)a.view_mut());  // the refused copies returned every loan
  EXPECT_EQ(a.to_host(), iota(10, 0.0f));
}

TEST_P(ArrayOps, CopyFromAStridedSourceIntoACompactArray) {
  const tile::Device& d = device();
  auto a = matrix(4, 6, 0.0f, d);
  auto b = tile::zeros<float>({2, 3}, d);
  // Every other row and every other column: strides {12, 2}.
  tile::ops::copy(a.slice({{0, 4, 2}, {1, 6, 2}}), b).sync();
  EXPECT_EQ(b.to_host(), (std::vector<float>{1, 3, 5, 13, 15, 17}));
}

TEST_P(ArrayOps, CopyFromAnArrayIntoASliceLeavesTheRestUnchanged) {
  const tile::Device& d = device();
  auto src = matrix(2, 3, 1.0f, d);
  auto dst = tile::full<float>({4, 5}, -1.0f, d);
  tile::ops::copy(src, dst.slice_mut({{1, 3}, {1, 4}})).sync();
  EXPECT_EQ(dst.to_host(), (std::vector<float>{-1, -1, -1, -1, -1,  //
                                               -1, 1,  2,  3,  -1,  //
                                               -1, 4,  5,  6,  -1,  //
                                               -1, -1, -1, -1, -1}));
  EXPECT_NO_THROW((void)dst.view_mut());  // the op returned the view's loan when it had run
}

TEST_P(ArrayOps, CopyOfViewsWithDifferentShapesIsRefused) {
  const tile::Device& d = device();
  auto a = matrix(4, 6, 0.0f, d);
  auto b = tile::zeros<float>({4, 6}, d);
  EXPECT_HAS(error_of([&] { (void)tile::ops::copy(a.slice({{0, 2}, {0, 3}}), b.slice_mut({{0, 3}, {0, 2}})); }),
             "tile::ops::copy: the shapes differ (src [2, 3], dst [3, 2]); a copy needs equal shapes");
  EXPECT_HAS(error_of([&] { (void)tile::ops::copy(a.slice(0, 0, 3), b); }),
             "the shapes differ (src [3, 6], dst [4, 6])");
  EXPECT_NO_THROW((void)b.view_mut());  // the refused op dropped the view it was given
  EXPECT_EQ(b.to_host(), std::vector<float>(24, 0.0f));
}

TEST_P(ArrayOps, ToHostOfAStridedSlice) {
  const tile::Device& d = device();
  auto a = matrix(4, 6, 0.0f, d);
  EXPECT_EQ(tile::ops::to_host(a.slice({{1, 4, 2}, {0, 6, 3}})).sync(), (std::vector<float>{6, 9, 18, 21}));
  EXPECT_EQ(tile::ops::to_host(a.slice(1, 2, 3)).sync(), (std::vector<float>{2, 8, 14, 20}));  // one column
  // A mutable view is moved into the op, which holds its loan until it has run.
  auto f = tile::ops::to_host(a.slice_mut({{0, 1}, {1, 6, 2}})).async();
  EXPECT_HAS(error_of([&] { (void)a.view_mut(); }), "already borrowed exclusively");
  EXPECT_EQ(std::move(f).get(), (std::vector<float>{1, 3, 5}));
  EXPECT_NO_THROW((void)a.view_mut());
}

TEST_P(ArrayOps, CopyFromATransposedView) {
  const tile::Device& d = device();
  auto a = matrix(3, 4, 0.0f, d);
  auto t = tile::zeros<float>({4, 3}, d);
  tile::ops::copy(a.view().transpose(), t).sync();
  EXPECT_EQ(t.to_host(), (std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(tile::ops::to_host(a.slice(1, 1, 3).transpose()).sync(), (std::vector<float>{1, 5, 9, 2, 6, 10}));
}

TEST(ArrayOpsCpu, CopyAndToHostOfAColumnMajorExternalArray) {
  const tile::Device& d = tile::cpu_device();
  std::vector<float> memory = {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};  // [[0, 1, 2, 3], [4, ...]] column-major
  auto e = tile::unchecked::borrow_external<float>(memory.data(), {3, 4}, {1, 3}, d);
  auto r = tile::zeros<float>({3, 4}, d);
  tile::ops::copy(e, r).sync();
  EXPECT_EQ(r.to_host(), iota(12, 0.0f));
  EXPECT_EQ(tile::ops::to_host(e).sync(), iota(12, 0.0f));
  // Columns 0..1 of r into columns 2..3 of e.
  tile::ops::copy(r.slice(1, 0, 2), e.slice_mut(1, 2, 4)).sync();
  EXPECT_EQ(tile::ops::to_host(e.view()).sync(), (std::vector<float>{0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9}));
}

TEST_P(ArrayOps, CopyOfViewsAfterAsyncHoldsTheLoans) {
  const tile::Device& d = device();
  auto src = matrix(3, 4, 0.0f, d);
  auto dst = tile::zeros<float>({3, 2}, d);
  auto f = tile::ops::copy(src.slice(1, 1, 4, 2), dst.view_mut()).async();
  EXPECT_HAS(error_of([&] { (void)dst.to_host(); }), "borrowed exclusively");
  EXPECT_HAS(error_of([&] { (void)src.slice_mut(1, 1, 2); }), "cannot be borrowed exclusively");
  EXPECT_NO_THROW((void)src.slice_mut(1, 0, 1));  // column 0 is not copied
  std::move(f).get();
  EXPECT_EQ(dst.to_host(), (std::vector<float>{1, 3, 5, 7, 9, 11}));
}

TEST_P(ArrayOps, GraphReplaysTheCopyOfViews) {
  const tile::Device& d = device();
  auto src = matrix(2, 4, 0.0f, d);
  auto dst = tile::zeros<float>({4, 2}, d);
  // Columns 1 and 3 of src into the last two rows of dst.
  auto g = tile::ops::copy(src.slice(1, 1, 4, 2), dst.slice_mut(0, 2, 4).slice(1, 0, 2)).graph();
  g.sync();
  EXPECT_EQ(peek(dst, 4), 1.0f);
  EXPECT_EQ(peek(dst, 7), 7.0f);
  poke(src, 1, 100.0f);
  poke(src, 7, 700.0f);
  g.sync();
  EXPECT_EQ(peek(dst, 4), 100.0f);
  EXPECT_EQ(peek(dst, 7), 700.0f);
  EXPECT_HAS(error_of([&] { (void)dst.to_host(); }), "borrowed exclusively");  // the graph holds the view
  std::move(g).get();
  EXPECT_EQ(dst.to_host(), (std::vector<float>{0, 0, 0, 0, 100, 3, 5, 700}));
}

INSTANTIATE_TEST_SUITE_P(Devices, ArrayOps, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "DefaultDevice" : "Cpu");
                         });

// ---- plan_strided_copy: the cudaMemcpy2D blocks of a strided copy --------------------------------

}  // namespace

namespace tile::detail {
void PrintTo(const Copy2D& b, std::ostream* os) {
  *os << "{dst " << b.dst_offset << ", src " << b.src_offset << ", dpitch " << b.dpitch << ", spitch " << b.spitch
      << ", width " << b.width << ", height " << b.height << "}";
}
}  // namespace tile::detail

namespace {

using tile::detail::Copy2D;
using tile::detail::plan_strided_copy;

TEST(StridedCopyPlan, CompactBoxesAreOneBlock) {
  EXPECT_EQ(plan_strided_copy({4, 6}, {6, 1}, {6, 1}), (std::vector<Copy2D>{{0, 0, 24, 24, 24, 1}}));
  EXPECT_EQ(plan_strided_copy({1, 5, 1}, {5, 1, 7}, {9, 1, 3}), (std::vector<Copy2D>{{0, 0, 5, 5, 5, 1}}));
  EXPECT_EQ(plan_strided_copy({1, 1}, {1, 1}, {4, 4}), (std::vector<Copy2D>{{0, 0, 1, 1, 1, 1}}));
  EXPECT_TRUE(plan_strided_copy({3, 0}, {0, 1}, {0, 1}).empty());
}

TEST(StridedCopyPlan, RowStridedSourceIsRowsWithPitches) {
  // Columns 0..3 of a [3, 8] array into a compact [3, 4] one.
  EXPECT_EQ(plan_strided_copy({3, 4}, {4, 1}, {8, 1}), (std::vector<Copy2D>{{0, 0, 4, 8, 4, 3}}));
  // A pitch above the limit makes the rows an outer loop.
  EXPECT_EQ(plan_strided_copy({3, 4}, {4, 1}, {8, 1}, 6),
            (std::vector<Copy2D>{{0, 0, 4, 4, 4, 1}, {4, 8, 4, 4, 4, 1}, {8, 16, 4, 4, 4, 1}}));
}

TEST(StridedCopyPlan, ColumnStridedSourceIsSingleElementColumns) {
  // Every other column of a [3, 10] array: one column copy (height 4) per row.
  EXPECT_EQ(plan_strided_copy({3, 4}, {4, 1}, {10, 2}),
            (std::vector<Copy2D>{{0, 0, 1, 2, 1, 4}, {4, 10, 1, 2, 1, 4}, {8, 20, 1, 2, 1, 4}}));
  // Every other column of a [3, 8] array: its rows join up, one column copy of height 12.
  EXPECT_EQ(plan_strided_copy({3, 4}, {4, 1}, {8, 2}), (std::vector<Copy2D>{{0, 0, 1, 2, 1, 12}}));
  // A transposed source (a [3, 2] array read as [2, 3]).
  EXPECT_EQ(plan_strided_copy({2, 3}, {3, 1}, {1, 2}), (std::vector<Copy2D>{{0, 0, 1, 2, 1, 3}, {3, 1, 1, 2, 1, 3}}));
}

TEST(StridedCopyPlan, RankThreeLoopsOverTheOutermostAxis) {
  // [2, 3, 4] from a [2, 5, 8] array (rows 1..3, columns 2..5 of each matrix), relative to the first element.
  EXPECT_EQ(plan_strided_copy({2, 3, 4}, {12, 4, 1}, {40, 8, 1}),
            (std::vector<Copy2D>{{0, 0, 4, 8, 4, 3}, {12, 40, 4, 8, 4, 3}}));
  // From a [2, 3, 8] array the two outer axes are contiguous on both sides: one block of 6 rows.
  EXPECT_EQ(plan_strided_copy({2, 3, 4}, {12, 4, 1}, {24, 8, 1}), (std::vector<Copy2D>{{0, 0, 4, 8, 4, 6}}));
}

}  // namespace
