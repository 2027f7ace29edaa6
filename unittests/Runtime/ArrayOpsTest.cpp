// Array constructors and copies as ops (tile/array_ops.hpp): the values after sync, async and
// graph replay, composition with then / zip, copy and to_host semantics and refusals. Every
// test runs on the CPU backend and on the default device (a GPU where there is one).
#include <gtest/gtest.h>

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
    EXPECT_NE(error_of([&] { (void)tile::ops::copy(host, a); }).find("a copy stays on one device"),
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
  if (d.is_gpu()) {
    EXPECT_NE(error_of([&] { (void)capture(); }).find("cannot be captured into a graph on a GPU"), std::string::npos);
    return;
  }
  auto g = capture();
  g.sync();
  g.sync();  // arange again, +1 again: the same values
  EXPECT_EQ(std::move(g).get(), iota(128, 1.0f));
}

INSTANTIATE_TEST_SUITE_P(Devices, ArrayOps, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "DefaultDevice" : "Cpu");
                         });

}  // namespace
