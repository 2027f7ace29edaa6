// tile::Atomic: the CPU semantics of the atomic updates (tile and element forms, edges, element
// types) and its binding by tile::launch (many programs updating one array at once, the
// exclusive loan the op holds, the launch-time checks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

using tile::Atomic;
using tile::dyn;
using tile::Tensor;

// ---- kernels -----------------------------------------------------------------------------------

/// Each program counts its piece's values into the shared bins, one element update per value.
template <int B>
TILE_KERNEL void histogram(Tensor<int32_t, B>& x, Atomic<int32_t, dyn>& bins) {
  const auto t = x.load();
  for (int64_t i = 0; i < x.shape(0); ++i) bins.atomic_add(1, t(i));
}

/// Every program adds its piece into tile 0 of acc: acc[j] = sum over programs of x[p*B + j].
template <int B>
TILE_KERNEL void accumulate(Tensor<float, B>& x, Atomic<float, dyn>& acc) {
  acc.atomic_add(x.load(), 0);
}

/// Lane-wise maximum of floats and minimum of integers over all programs.
template <int B>
TILE_KERNEL void extremes(Tensor<float, B>& x, Atomic<float, dyn>& hi, Atomic<int32_t, dyn>& lo) {
  const auto t = x.load();
  hi.atomic_max(t, 0);
  lo.atomic_min(tile::cast<int32_t>(t), 0);
}

/// Every program tries to claim the B elements of owner; won[e] says whether it did.
template <int B>
TILE_KERNEL void claim(Tensor<int32_t, B>& won, Atomic<int32_t, B>& owner) {
  const auto me = tile::full<int32_t, B>(static_cast<int32_t>(tile::block_id() + 1));
  const auto old = owner.atomic_cas(tile::zeros<int32_t, B>(), me, 0);
  won.store(tile::where(old == 0, tile::ones<int32_t, B>(), tile::zeros<int32_t, B>()));
}

/// Every program swaps its id into element 0 and keeps what it took out.
TILE_KERNEL void swap_in(Tensor<int32_t, 1>& took, Atomic<int32_t, 1>& slot) {
  took.store(tile::full<int32_t, 1>(slot.atomic_exchange(static_cast<int32_t>(tile::block_id() + 1), 0)));
}

/// One program: a tile update that reaches past the array's end, and the old values it saw.
TILE_KERNEL void edge(Tensor<int32_t, 64>& old, Atomic<int32_t, dyn>& a) {
  old.store(a.atomic_add(tile::ones<int32_t, 64>(), 1));
}

template <int B>
TILE_KERNEL void count_halves(Tensor<tile::f16, B>& x, Atomic<tile::f16, 1>& total) {
  (void)x;
  total.atomic_add(tile::f16(1.0f), 0);
}

TILE_KERNEL void shared_and_atomic(const Tensor<float, dyn>& x, Atomic<float, dyn>& y) {
  (void)x;
  (void)y;
}

TILE_KERNEL void atomic_float(Atomic<float, dyn>& a) { a.atomic_add(1.0f, 0); }
TILE_KERNEL void atomic_only(Atomic<int32_t, dyn>& a) { a.atomic_add(1, 0); }
TILE_KERNEL void atomic_static(Atomic<int32_t, 8>& a) { a.atomic_add(1, 0); }
TILE_KERNEL void atomic_2d(Atomic<int32_t, dyn, dyn>& a) { a.atomic_add(1, 0, 0); }

template <int B>
TILE_KERNEL void piece_and_atomic(Tensor<int32_t, B>& z, Atomic<int32_t, dyn>& a) {
  (void)z;
  (void)a;
}

// ---- helpers -------------------------------------------------------------------------------------

/// An Atomic view of a host buffer, as a kernel would receive it.
template <class A, class T, std::size_t R>
A atomic_of(std::vector<T>& v, const std::array<int64_t, R>& shape) {
  std::array<int64_t, R> stride{}, origin{};
  int64_t step = 1;
  for (int a = static_cast<int>(R) - 1; a >= 0; --a) {
    stride[static_cast<std::size_t>(a)] = step;
    step *= shape[static_cast<std::size_t>(a)];
  }
  return tile::detail::TensorAccess::make<A>(v.data(), shape, stride, origin, shape);
}

// ---- the updates themselves ----------------------------------------------------------------------

TEST(Atomic, TileUpdatesReturnTheOldValues) {
  std::vector<int32_t> v(16);
  for (int i = 0; i < 16; ++i) v[i] = i;
  auto a = atomic_of<Atomic<int32_t, 16>>(v, std::array<int64_t, 1>{16});
  const auto old = a.atomic_add(tile::full<int32_t, 4>(100), 2);  // elements 8..11
  for (int k = 0; k < 4; ++k) EXPECT_EQ(old(k), 8 + k);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(v[i], i + (i >= 8 && i < 12 ? 100 : 0)) << i;

  const auto mx = a.atomic_max(tile::full<int32_t, 4>(2), 0);  // 0,1,2,3 -> 2,2,2,3
  EXPECT_EQ(mx(0), 0);
  EXPECT_EQ(mx(3), 3);
  EXPECT_EQ(v[0], 2);
  EXPECT_EQ(v[3], 3);
  a.atomic_min(tile::full<int32_t, 4>(5), 1);  // 4..7 -> 4,5,5,5
  EXPECT_EQ(v[4], 4);
  EXPECT_EQ(v[7], 5);
  const auto ex = a.atomic_exchange(tile::full<int32_t, 4>(-1), 3);
  EXPECT_EQ(ex(0), 12);
  EXPECT_EQ(v[12], -1);
  EXPECT_EQ(v[15], -1);
}

TEST(Atomic, CompareAndSwapReplacesOnlyWhereExpected) {
  std::vector<int32_t> v = {1, 2, 3, 4};
  auto a = atomic_of<Atomic<int32_t, 4>>(v, std::array<int64_t, 1>{4});
  const auto expected = tile::iota<int32_t, 4>() + 1;  // 1 2 3 4
  auto guess = tile::where(tile::iota<int32_t, 4>() % 2 == 0, expected, tile::zeros<int32_t, 4>());
  const auto old = a.atomic_cas(guess, tile::full<int32_t, 4>(9), 0);
  EXPECT_EQ(v, (std::vector<int32_t>{9, 2, 9, 4}));
  for (int k = 0; k < 4; ++k) EXPECT_EQ(old(k), k + 1);
  EXPECT_EQ(a.atomic_cas(9, 7, 0), 9);
  EXPECT_EQ(a.atomic_cas(9, 8, 1), 2);  // fails: the old value differs from expected
  EXPECT_EQ(v, (std::vector<int32_t>{7, 2, 9, 4}));
}

TEST(Atomic, OutOfRangeUpdatesAreDroppedLikeStores) {
  std::vector<int32_t> v(10, 5);
  auto a = atomic_of<Atomic<int32_t, dyn>>(v, std::array<int64_t, 1>{10});
  const auto old = a.atomic_add(tile::ones<int32_t, 8>(), 1);  // elements 8..15: only 8, 9 exist
  EXPECT_EQ(old(0), 5);
  EXPECT_EQ(old(1), 5);
  for (int k = 2; k < 8; ++k) EXPECT_EQ(old(k), 0) << "padding past the extent reads zero";
  a.atomic_add(tile::ones<int32_t, 8>(), -1);  // entirely out of range
  a.atomic_exchange(tile::ones<int32_t, 8>(), 2);
  EXPECT_EQ(a.atomic_add(3, 10), 0);
  EXPECT_EQ(a.atomic_add(3, -1), 0);
  EXPECT_EQ(a.atomic_cas(5, 0, 10), 0);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(v[i], i >= 8 ? 6 : 5) << i;
  EXPECT_EQ(a.shape(0), 10);
}

TEST(Atomic, TwoDimensionalTilesAreClippedPerAxis) {
  std::vector<int32_t> v(3 * 6, 0);
  auto a = atomic_of<Atomic<int32_t, dyn, dyn>>(v, std::array<int64_t, 2>{3, 6});
  a.atomic_add(tile::ones<int32_t, 2, 4>(), 1, 1);  // rows 2..3, cols 4..7: only (2,4), (2,5)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_EQ(v[i * 6 + j], (i == 2 && j >= 4) ? 1 : 0) << i << "," << j;
  EXPECT_EQ(a.atomic_add(10, 0, 5), 0);
  EXPECT_EQ(v[5], 10);
  EXPECT_EQ(a.shape(1), 6);
}

TEST(Atomic, FloatingMaxAndMinIgnoreNaNLikeTileMax) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> v = {1.0f, nan, -3.0f, 0.0f};
  auto a = atomic_of<Atomic<float, 4>>(v, std::array<int64_t, 1>{4});
  tile::Tile<float, 4> t = tile::iota<float, 4>() - 1.0f;  // -1 0 1 2
  a.atomic_max(t, 0);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 0.0f) << "a NaN element yields the other operand";
  EXPECT_EQ(v[2], 1.0f);
  EXPECT_EQ(v[3], 2.0f);
  EXPECT_EQ(a.atomic_min(nan, 3), 2.0f);
  EXPECT_EQ(v[3], 2.0f) << "a NaN operand leaves the element";
  EXPECT_EQ(a.atomic_min(-7.5f, 3), 2.0f);
  EXPECT_EQ(v[3], -7.5f);
}

TEST(Atomic, HalfAndDoubleElements) {
  std::vector<tile::f16> h(2, tile::f16(1.5f));
  auto ah = atomic_of<Atomic<tile::f16, 2>>(h, std::array<int64_t, 1>{2});
  const auto old = ah.atomic_add(tile::full<tile::f16, 2>(tile::f16(2.0f)), 0);
  EXPECT_EQ(static_cast<float>(old(0)), 1.5f);
  EXPECT_EQ(static_cast<float>(h[1]), 3.5f);
  EXPECT_EQ(static_cast<float>(ah.atomic_max(tile::f16(8.0f), 0)), 3.5f);
  EXPECT_EQ(static_cast<float>(h[0]), 8.0f);

  std::vector<double> d = {0.25};
  auto ad = atomic_of<Atomic<double, 1>>(d, std::array<int64_t, 1>{1});
  EXPECT_EQ(ad.atomic_add(0.5, 0), 0.25);
  EXPECT_EQ(ad.atomic_exchange(-1.0, 0), 0.75);
  EXPECT_EQ(d[0], -1.0);

  std::vector<uint8_t> u = {250};
  auto au = atomic_of<Atomic<uint8_t, 1>>(u, std::array<int64_t, 1>{1});
  EXPECT_EQ(au.atomic_add(10, 0), 250);
  EXPECT_EQ(u[0], 4) << "integer adds wrap";
}

// ---- launches: many programs, one array ----------------------------------------------------------

TEST(AtomicLaunch, HistogramOfManyPrograms) {
  const int64_t n = 1 << 16;
  const int bins = 61;
  std::vector<int32_t> values(static_cast<std::size_t>(n));
  std::vector<int32_t> expected(bins, 0);
  uint32_t state = 12345;
  for (auto& x : values) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<int32_t>((state >> 8) % (state & 256 ? 7 : bins));  // skewed: bins 0..6 are hot
    ++expected[static_cast<std::size_t>(x)];
  }
  auto x = tile::from_host(values);
  auto counts = tile::zeros<int32_t>({bins});
  auto op = tile::launch<histogram<128>>(x.partition_mut<128>(), counts);
  EXPECT_EQ(op.grid()[0], n / 128);
  std::move(op).sync();
  EXPECT_EQ(counts.to_host(), expected);
}

TEST(AtomicLaunch, TileAddsFromEveryProgramSum) {
  const int64_t n = 50 * 64 + 17;  // the last piece is clipped: its padding adds zeros
  std::vector<float> values(static_cast<std::size_t>(n));
  std::vector<float> expected(64, 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    values[static_cast<std::size_t>(i)] = static_cast<float>((i * 37) % 101) - 50.0f;  // exact sums
    expected[static_cast<std::size_t>(i % 64)] += values[static_cast<std::size_t>(i)];
  }
  auto x = tile::from_host(values);
  auto acc = tile::full<float>({64}, 1000.0f);
  tile::launch<accumulate<64>>(x.partition_mut<64>(), acc).sync();
  const auto h = acc.to_host();
  for (int j = 0; j < 64; ++j) EXPECT_EQ(h[j], 1000.0f + expected[j]) << j;
}

TEST(AtomicLaunch, FloatMaxAndIntegerMinOverPrograms) {
  const int64_t n = 40 * 32;
  std::vector<float> values(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = static_cast<float>((i * 7919) % 1000) * 0.5f - 250.25f;
  values[5] = std::numeric_limits<float>::quiet_NaN();  // never wins a max (fmax)
  std::vector<float> hi(32, -std::numeric_limits<float>::infinity());
  std::vector<int32_t> lo(32, std::numeric_limits<int32_t>::max());
  for (int64_t i = 0; i < n; ++i) {
    const float v = values[static_cast<std::size_t>(i)];
    auto& h = hi[static_cast<std::size_t>(i % 32)];
    auto& l = lo[static_cast<std::size_t>(i % 32)];
    if (!std::isnan(v)) h = std::max(h, v);
    l = std::min(l, tile::cast<int32_t>(tile::full<float, 1>(v))(0));
  }
  auto x = tile::from_host(values);
  auto amax = tile::full<float>({32}, -std::numeric_limits<float>::infinity());
  auto amin = tile::full<int32_t>({32}, std::numeric_limits<int32_t>::max());
  tile::launch<extremes<32>>(x.partition_mut<32>(), amax, amin).sync();
  EXPECT_EQ(amax.to_host(), hi);
  EXPECT_EQ(amin.to_host(), lo);
}

TEST(AtomicLaunch, CompareAndSwapHasOneWinnerPerElement) {
  const int programs = 200;
  auto won = tile::zeros<int32_t>({programs * 8});
  auto owner = tile::zeros<int32_t>({8});
  tile::launch<claim<8>>(won.partition_mut<8>(), owner).sync();
  const auto w = won.to_host();
  const auto o = owner.to_host();
  for (int e = 0; e < 8; ++e) {
    int winners = 0;
    for (int p = 0; p < programs; ++p)
      if (w[static_cast<std::size_t>(p * 8 + e)]) {
        ++winners;
        EXPECT_EQ(o[e], p + 1) << "the winner's id is what the element holds";
      }
    EXPECT_EQ(winners, 1) << e;
  }
}

TEST(AtomicLaunch, ExchangesFormOneChain) {
  const int programs = 500;
  auto took = tile::full<int32_t>({programs}, -1);
  auto slot = tile::zeros<int32_t>({1});
  tile::launch<swap_in>(took.partition_mut<1>(), slot).sync();
  // Each value 0 (the initial one), 1..programs was taken out exactly once, except the last
  // one swapped in, which stays in the slot.
  std::multiset<int32_t> seen;
  for (int32_t v : took.to_host()) seen.insert(v);
  seen.insert(slot.to_host()[0]);
  std::multiset<int32_t> all;
  for (int32_t v = 0; v <= programs; ++v) all.insert(v);
  EXPECT_EQ(seen, all);
}

TEST(AtomicLaunch, EdgeUpdatesAreDropped) {
  std::vector<int32_t> init(100);
  for (int i = 0; i < 100; ++i) init[i] = i;
  auto a = tile::from_host(init);
  auto old = tile::full<int32_t>({64}, -1);
  tile::launch<edge>(old.partition_mut<64>(), a).sync();
  const auto h = a.to_host();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(h[i], i + (i >= 64 ? 1 : 0)) << i;
  const auto o = old.to_host();
  for (int k = 0; k < 64; ++k) EXPECT_EQ(o[k], k < 36 ? 64 + k : 0) << k;
}

TEST(AtomicLaunch, HalfAddsFromManyPrograms) {
  auto x = tile::zeros<tile::f16>({256 * 4});
  auto total = tile::zeros<tile::f16>({1});
  tile::launch<count_halves<4>>(x.partition_mut<4>(), total).sync();
  EXPECT_EQ(static_cast<float>(total.to_host()[0]), 256.0f);
}

// ---- launches: loans and checks ------------------------------------------------------------------

TEST(AtomicLaunch, TheOpBorrowsTheArrayExclusively) {
  auto a = tile::zeros<int32_t>({4});
  {
    auto op = tile::launch<atomic_only>(a);
    EXPECT_EQ(op.grid()[0], 1);
    EXPECT_HAS(error_of([&] { (void)a.to_host(); }), "borrowed exclusively");
    EXPECT_HAS(error_of([&] { (void)tile::launch<atomic_only>(a); }), "already borrowed exclusively");
    EXPECT_HAS(error_of([&] { (void)tile::launch<shared_and_atomic>(tile::zeros<float>({1}), a); }),
               "element type mismatch");
    std::move(op).sync();
  }
  EXPECT_EQ(a.to_host(), (std::vector<int32_t>{1, 0, 0, 0}));
  {
    auto op = tile::launch<atomic_only>(a);
    (void)op;  // dropped without running: the loan comes back
  }
  EXPECT_EQ(a.to_host(), (std::vector<int32_t>{1, 0, 0, 0}));
  tile::launch<atomic_only>(a).sync();
  EXPECT_EQ(a.to_host(), (std::vector<int32_t>{2, 0, 0, 0}));
}

TEST(AtomicLaunch, AnAtomicArgumentCountsAsAWriter) {
  auto x = tile::zeros<float>({16});
  EXPECT_HAS(error_of([&] { (void)tile::launch<shared_and_atomic>(x, x); }),
             "the same array is lent exclusively as argument 2 (Atomic<float, dyn>&)");
  auto z = tile::zeros<int32_t>({16});
  EXPECT_HAS(error_of([&] { (void)tile::launch<piece_and_atomic<4>>(z.partition_mut<4>(), z); }),
             "the same array is lent exclusively");
  // A shared loan held by a pending op keeps an atomic launch out, and the other way round.
  auto y = tile::zeros<float>({4});
  {
    auto op = tile::launch<shared_and_atomic>(y, x);  // y shared, x atomic
    EXPECT_HAS(error_of([&] { (void)tile::launch<atomic_float>(y); }),
               "borrowed by a pending op (as a shared argument)");
    auto w = tile::zeros<float>({1});
    EXPECT_HAS(error_of([&] { (void)tile::launch<shared_and_atomic>(x, w); }), "borrowed exclusively");
  }
}

TEST(AtomicLaunch, ArgumentsAreChecked) {
  auto f = tile::zeros<float>({8});
  EXPECT_HAS(error_of([&] { (void)tile::launch<atomic_only>(f); }),
             "element type mismatch: the array holds float but the parameter is an atomic array of int32_t");
  auto m = tile::zeros<int32_t>({2, 4});
  EXPECT_HAS(error_of([&] { (void)tile::launch<atomic_only>(m); }), "rank mismatch");
  auto v = tile::zeros<int32_t>({9});
  EXPECT_HAS(error_of([&] { (void)tile::launch<atomic_static>(v); }),
             "static dimension 0 of the parameter is 8 but the array's extent is 9");
  EXPECT_HAS(error_of([&] { (void)tile::launch<atomic_only>(v.partition_mut<4>()); }),
             "argument 1 (Atomic<int32_t, dyn>&): an atomic parameter (Atomic&) takes an array lvalue");
  tile::launch<atomic_2d>(m).sync();
  EXPECT_EQ(m.to_host()[0], 1);
}

}  // namespace
