// tile::Shape, tile::Array and its factories, partitions and borrows (host side).
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "ErrorMatchers.h"
#include "tile/tile.hpp"

namespace {

/// Expects `f()` to throw tile::Error with a message containing every fragment.
template <class F>
void expect_error(F&& f, std::initializer_list<const char*> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected a tile::Error";
  } catch (const tile::Error& e) {
    const std::string what = e.what();
    for (const char* frag : fragments)
      EXPECT_NE(what.find(frag), std::string::npos) << "'" << frag << "' not in: " << what;
  }
}

TEST(Shape, ConstructionAndErrors) {
  tile::Shape s{3, 4};
  EXPECT_EQ(s.rank(), 2);
  EXPECT_EQ(s[0], 3);
  EXPECT_EQ(s[1], 4);
  EXPECT_EQ(s.numel(), 12);
  EXPECT_EQ(s.str(), "[3, 4]");
  std::size_t n = 7;
  tile::Shape t{n};  // any integer type, no narrowing error
  EXPECT_EQ(t.str(), "[7]");
  EXPECT_EQ(tile::Shape().rank(), 0);
  expect_error([] { tile::Shape bad{2, -1}; }, {"negative"});
  expect_error([] { tile::Shape bad{1, 2, 3, 4, 5}; }, {"rank 5", "maximum rank 4"});
}

TEST(Array, Factories) {
  auto z = tile::zeros<float>({2, 3});
  EXPECT_EQ(z.rank(), 2);
  EXPECT_EQ(z.size(), 6);
  EXPECT_EQ(z.shape(), (tile::Shape{2, 3}));
  EXPECT_EQ(z.strides(), (tile::Shape{3, 1}));
  EXPECT_EQ(z.to_host(), std::vector<float>(6, 0.0f));
  EXPECT_EQ(tile::ones<int32_t>({4}).to_host(), std::vector<int32_t>(4, 1));
  EXPECT_EQ(tile::full<double>({2, 2, 2}, 1.5).to_host(), std::vector<double>(8, 1.5));
  EXPECT_EQ(tile::arange<int64_t>(5).to_host(), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  auto e = tile::empty<uint8_t>({1, 2, 3, 4});
  EXPECT_EQ(e.rank(), 4);
  EXPECT_EQ(e.strides(), (tile::Shape{24, 12, 4, 1}));
  EXPECT_NE(e.data(), nullptr);
}

TEST(Array, FromHostAndBack) {
  const std::vector<float> v = {1, 2, 3, 4, 5, 6};
  auto a = tile::from_host(v);
  EXPECT_EQ(a.shape(), tile::Shape{6});
  EXPECT_EQ(a.to_host(), v);
  auto m = tile::from_host(v, {2, 3});
  EXPECT_EQ(m.shape(), (tile::Shape{2, 3}));
  EXPECT_EQ(m.to_host(), v);
  auto b = tile::from_host(std::vector<bool>{true, false, true});
  EXPECT_EQ(b.to_host(), (std::vector<bool>{true, false, true}));
  auto h = tile::from_host(std::vector<tile::f16>{tile::f16(1.0f), tile::f16(-2.0f)});
  EXPECT_EQ(static_cast<float>(h.to_host()[1]), -2.0f);
}

TEST(Array, FactoriesTakeADevice) {
  const tile::Device& cpu = tile::cpu_device();
  EXPECT_EQ(tile::zeros<float>({2, 3}, cpu).device(), cpu);
  EXPECT_EQ(tile::full<int32_t>({4}, 7, cpu).to_host(), std::vector<int32_t>(4, 7));
  EXPECT_EQ(tile::ones<double>({2}, cpu).device(), cpu);
  EXPECT_EQ(tile::arange<int16_t>(3, cpu).to_host(), (std::vector<int16_t>{0, 1, 2}));
  EXPECT_EQ(tile::empty<uint8_t>({5}, cpu).device(), cpu);
  auto m = tile::from_host(std::vector<float>{1, 2, 3, 4}, {2, 2}, cpu);
  EXPECT_EQ(m.device(), cpu);
  EXPECT_EQ(m.to_host(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(Array, ShapeErrors) {
  expect_error([] { (void)tile::from_host(std::vector<float>(5), {2, 3}); }, {"[2, 3]", "holds 6", "has 5"});
  expect_error([] { (void)tile::zeros<float>({-4}); }, {"negative"});
  expect_error([] { (void)tile::zeros<float>({1, 1, 1, 1, 1}); }, {"maximum rank 4"});
  expect_error([] { (void)tile::zeros<float>(tile::Shape()); }, {"rank must be between 1 and 4"});
}

TEST(Array, EmptyExtentsAreAllowed) {
  auto a = tile::zeros<float>({0});
  EXPECT_EQ(a.size(), 0);
  EXPECT_TRUE(a.to_host().empty());
  auto p = std::move(a).partition<128>();
  EXPECT_EQ(p.grid()[0], 0);
}

TEST(Array, MoveOnly) {
  static_assert(!std::is_copy_constructible_v<tile::Array<float>>);
  static_assert(std::is_nothrow_move_constructible_v<tile::Array<float>>);
  auto a = tile::ones<float>({3});
  float* p = a.data();
  tile::Array<float> b = std::move(a);
  EXPECT_EQ(b.data(), p);
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(a.size(), 0);
  EXPECT_EQ(a.rank(), 0);
  expect_error([&] { (void)a.to_host(); }, {"moved from"});
}

TEST(Partition, OwnsAndGivesBack) {
  auto a = tile::arange<float>(1000);
  float* data = a.data();
  auto p = std::move(a).partition<128>();
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(p.grid(), (std::array<int64_t, 1>{8}));
  EXPECT_EQ(p.array().data(), data);
  static_assert(decltype(p)::tile_shape == std::array<int64_t, 1>{128});
  auto back = std::move(p).unpartition();
  EXPECT_EQ(back.data(), data);
  EXPECT_EQ(back.to_host()[999], 999.0f);
}

TEST(Partition, GridIsCeilPerAxis) {
  auto a = tile::zeros<float>({1000, 777});
  auto p = std::move(a).partition<32, 64>();
  EXPECT_EQ(p.grid(), (std::array<int64_t, 2>{32, 13}));
}

TEST(Partition, RankMustMatch) {
  auto a = tile::zeros<float>({10, 10});
  expect_error([&] { (void)std::move(a).partition<16>(); }, {"partition", "rank 1", "rank 2"});
  EXPECT_TRUE(a.valid());  // a failed partition does not consume the array
  expect_error([&] { (void)a.partition_mut<4, 4, 4>(); }, {"partition_mut", "rank 3", "rank 2"});
}

TEST(PartitionRef, BorrowsExclusively) {
  auto a = tile::zeros<float>({100});
  {
    auto r = a.partition_mut<32>();
    EXPECT_EQ(r.grid()[0], 4);
    EXPECT_EQ(r.shape(), tile::Shape{100});
    expect_error([&] { (void)a.partition_mut<32>(); }, {"already borrowed exclusively"});
    expect_error([&] { (void)a.to_host(); }, {"borrowed exclusively"});
    expect_error([&] { (void)std::move(a).partition<32>(); }, {"borrowed"});
  }
  // The borrow ended with the PartitionRef.
  EXPECT_EQ(a.to_host().size(), 100u);
  auto r2 = a.partition_mut<64>();
  EXPECT_EQ(r2.grid()[0], 2);
}

TEST(Device, DefaultDevice) {
  const tile::Device& d = tile::default_device();
  EXPECT_FALSE(d.name().empty());
  EXPECT_EQ(&d, &tile::default_device());
  EXPECT_FALSE(tile::cpu_device().is_gpu());
  EXPECT_EQ(tile::cpu_device().name().rfind("cpu", 0), 0u);
  EXPECT_EQ(tile::zeros<float>({4}).device(), d);
}

TEST(Device, MultiprocessorsOfTheCpuAreItsThreads) {
  EXPECT_EQ(tile::cpu_device().multiprocessors(), tile::detail::cpu_num_threads());
  EXPECT_GE(tile::default_device().multiprocessors(), 1);
}

}  // namespace

namespace {

TEST(ArrayReshape, KeepsTheElementsInRowMajorOrder) {
  auto v = tile::arange<int32_t>(12);
  const int32_t* where = v.data();
  auto m = std::move(v).reshape({3, 4});
  EXPECT_FALSE(v.valid());
  EXPECT_EQ(m.data(), where);  // no copy
  EXPECT_EQ(m.shape(), (tile::Shape{3, 4}));
  EXPECT_EQ(m.strides(), (tile::Shape{4, 1}));
  EXPECT_EQ(m.to_host()[7], 7);
}

TEST(ArrayReshape, RefusesAnotherElementCountAndBorrowedArrays) {
  auto v = tile::arange<int32_t>(12);
  EXPECT_THROW((void)std::move(v).reshape({5, 2}), tile::Error);
  EXPECT_TRUE(v.valid());  // a refused reshape leaves the array alone
  auto p = v.partition_mut<4>();
  EXPECT_THROW((void)std::move(v).reshape({2, 6}), tile::Error);
}

}  // namespace

TEST(Array, AnAllocationTooLargeForTheDeviceThrowsAndTheRuntimeGoesOn) {
  auto before = tile::full<float>({8}, 3.0f);
  const std::string e = error_of([] { (void)tile::empty<float>({int64_t(1) << 42}); });  // 16 TiB
  EXPECT_HAS(e, "tile: cannot allocate 17592186044416 bytes on ");
  auto after = tile::ones<float>({8});
  EXPECT_EQ(after.to_host()[7], 1.0f);
  EXPECT_EQ(before.to_host()[0], 3.0f);
}
