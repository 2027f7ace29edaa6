// tile/reduce.hpp: reductions along an axis and of the whole tile, argmax/argmin, reduce, scans.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tile/tile.hpp"

namespace {

using tile::bf16;
using tile::f16;
using tile::Tile;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// A tile whose element number i (row-major) is f(i).
template <class T, int... D, class F>
Tile<T, D...> make(F f) {
  Tile<T, D...> t;
  auto& s = tile::detail::TileAccess::storage(t);
  for (int64_t i = 0; i < Tile<T, D...>::size; ++i) s[static_cast<std::size_t>(i)] = static_cast<T>(f(i));
  return t;
}

/// A rank-1 tile with the given elements.
template <class T, class... V>
Tile<T, sizeof...(V)> tile_of(V... v) {
  Tile<T, sizeof...(V)> t;
  auto& s = tile::detail::TileAccess::storage(t);
  std::size_t i = 0;
  ((s[i++] = static_cast<T>(v)), ...);
  return t;
}

// ---- result types --------------------------------------------------------------------------------

TEST(Reduce, AxisReductionRemovesTheAxis) {
  using T = Tile<float, 2, 4, 8>;
  static_assert(std::is_same_v<decltype(tile::sum<0>(T{})), Tile<float, 4, 8>>);
  static_assert(std::is_same_v<decltype(tile::sum<1>(T{})), Tile<float, 2, 8>>);
  static_assert(std::is_same_v<decltype(tile::sum<2>(T{})), Tile<float, 2, 4>>);
  static_assert(std::is_same_v<decltype(tile::max<1>(T{})), Tile<float, 2, 8>>);
  static_assert(std::is_same_v<decltype(tile::argmax<2>(T{})), Tile<int32_t, 2, 4>>);
  static_assert(std::is_same_v<decltype(tile::argmin<0>(T{})), Tile<int32_t, 4, 8>>);
  static_assert(std::is_same_v<decltype(tile::cumsum<1>(T{})), T>);
}

TEST(Reduce, Rank1ReductionsReturnScalars) {
  auto t = tile::iota<int16_t, 8>();
  static_assert(std::is_same_v<decltype(tile::sum<0>(t)), int16_t>);
  static_assert(std::is_same_v<decltype(tile::prod<0>(t)), int16_t>);
  static_assert(std::is_same_v<decltype(tile::max<0>(t)), int16_t>);
  static_assert(std::is_same_v<decltype(tile::min<0>(t)), int16_t>);
  static_assert(std::is_same_v<decltype(tile::argmax<0>(t)), int32_t>);
  static_assert(std::is_same_v<decltype(tile::argmin<0>(t)), int32_t>);
  auto bit_or = [](int16_t a, int16_t b) { return a | b; };
  static_assert(std::is_same_v<decltype(tile::reduce<0>(t, 0, bit_or)), int16_t>);
  EXPECT_EQ(tile::sum<0>(t), 28);
  EXPECT_EQ(tile::max<0>(t), 7);
  EXPECT_EQ(tile::min<0>(t), 0);
  EXPECT_EQ(tile::argmax<0>(t), 7);
  EXPECT_EQ(tile::argmin<0>(t), 0);
}

TEST(Reduce, OneArgumentMaxMinDoNotClashWithElementwise) {
  auto t = tile::reshape<2, 4>(tile::iota<int32_t, 8>());
  static_assert(std::is_same_v<decltype(tile::max(t)), int32_t>);
  static_assert(std::is_same_v<decltype(tile::min(t)), int32_t>);
  static_assert(std::is_same_v<decltype(tile::max<1>(t)), Tile<int32_t, 2>>);
  static_assert(std::is_same_v<decltype(tile::max(t, t)), Tile<int32_t, 2, 4>>);
  static_assert(std::is_same_v<decltype(tile::min(t, 3)), Tile<int32_t, 2, 4>>);
  static_assert(std::is_same_v<decltype(tile::max(1, t)), Tile<int32_t, 2, 4>>);
  EXPECT_EQ(tile::max(t), 7);
  EXPECT_EQ(tile::min(t), 0);
  EXPECT_EQ(tile::max(t, 5)(0, 0), 5);
  // Unqualified, through argument-dependent lookup.
  EXPECT_EQ(max(t), 7);
  EXPECT_EQ(min(t - 2), -2);
  EXPECT_EQ(max(t, 2)(1, 3), 7);
  EXPECT_EQ(sum(t), 28);
}

TEST(Reduce, ReductionsAreConstexpr) {
  static_assert(tile::sum(tile::iota<int32_t, 16>()) == 120);
  static_assert(tile::sum<1>(tile::reshape<2, 8>(tile::iota<int32_t, 16>()))(1) == 92);
  static_assert(tile::argmax<0>(tile::iota<int32_t, 4>()) == 3);
  static_assert(tile::cumsum<0>(tile::iota<int32_t, 4>())(3) == 6);
}

// ---- sum and prod --------------------------------------------------------------------------------

TEST(Reduce, SumAlongEachAxisOfRank2) {
  auto t = make<int32_t, 4, 8>([](int64_t i) { return i; });  // t(r, c) = 8r + c
  auto rows = tile::sum<1>(t);
  auto cols = tile::sum<0>(t);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(rows(r), 64 * r + 28) << "row " << r;
  for (int c = 0; c < 8; ++c) EXPECT_EQ(cols(c), 48 + 4 * c) << "column " << c;
}

TEST(Reduce, SumAlongEachAxisOfRank3) {
  auto t = make<double, 2, 4, 8>([](int64_t i) { return 0.5 * static_cast<double>(i % 13); });
  auto s0 = tile::sum<0>(t);
  auto s1 = tile::sum<1>(t);
  auto s2 = tile::sum<2>(t);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 8; ++k) {
        double w0 = 0, w1 = 0, w2 = 0;
        for (int a = 0; a < 2; ++a) w0 += t(a, j, k);
        for (int a = 0; a < 4; ++a) w1 += t(i, a, k);
        for (int a = 0; a < 8; ++a) w2 += t(i, j, a);
        EXPECT_EQ(s0(j, k), w0);
        EXPECT_EQ(s1(i, k), w1);
        EXPECT_EQ(s2(i, j), w2);
      }
}

TEST(Reduce, SumAlongAxisOfRank4) {
  auto t = make<int64_t, 2, 2, 4, 2>([](int64_t i) { return i * i; });
  auto s = tile::sum<2>(t);
  static_assert(std::is_same_v<decltype(s), Tile<int64_t, 2, 2, 2>>);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int d = 0; d < 2; ++d) {
        int64_t want = 0;
        for (int c = 0; c < 4; ++c) want += t(a, b, c, d);
        EXPECT_EQ(s(a, b, d), want);
      }
}

TEST(Reduce, IntegerSumWrapsAround) {
  auto big = tile::full<int32_t, 2, 4>(std::numeric_limits<int32_t>::max());
  // Four times INT32_MAX is -4 modulo 2^32.
  EXPECT_EQ(tile::sum<1>(big)(0), -4);
  EXPECT_EQ(tile::sum(big), -8);
  EXPECT_EQ(tile::sum(tile::full<int8_t, 4>(int8_t{100})), int8_t{-112});  // 400 - 512
  EXPECT_EQ(tile::sum(tile::full<uint8_t, 8>(uint8_t{255})), uint8_t{248});
  EXPECT_EQ(tile::sum(tile::full<uint64_t, 2>(std::numeric_limits<uint64_t>::max())),
            std::numeric_limits<uint64_t>::max() - 1);
}

TEST(Reduce, IntegerProdWrapsAround) {
  EXPECT_EQ(tile::prod(tile::full<int32_t, 4>(1 << 16)), 0);  // 2^64 mod 2^32
  EXPECT_EQ(tile::prod(tile::full<uint16_t, 2>(uint16_t{65535})), uint16_t{1});
  EXPECT_EQ(tile::prod(tile::full<int8_t, 2>(int8_t{-128})), int8_t{0});
  EXPECT_EQ(tile::prod<0>(tile::full<int16_t, 2, 2>(int16_t{300}))(1), int16_t{24464});  // 90000 - 65536
}

TEST(Reduce, ProdAlongEachAxis) {
  auto t = make<float, 2, 4>([](int64_t i) { return i + 1; });  // 1..8
  auto rows = tile::prod<1>(t);
  auto cols = tile::prod<0>(t);
  EXPECT_EQ(rows(0), 24.0f);
  EXPECT_EQ(rows(1), 1680.0f);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(cols(c), static_cast<float>((c + 1) * (c + 5)));
}

TEST(Reduce, HalfSumAccumulatesInFloatAndRoundsOnce) {
  // In f16, 2048 + 1 rounds back to 2048; accumulated in float the sum is 2050, exact in f16.
  auto h = tile::cast<f16>(tile_of<float>(2048, 1, 1, 0));
  EXPECT_EQ(static_cast<float>(tile::sum<0>(h)), 2050.0f);
  EXPECT_EQ(static_cast<float>(tile::sum(h)), 2050.0f);
  auto m = tile::reshape<2, 4>(tile::cast<f16>(tile_of<float>(2048, 1, 1, 0, 1, 1, 1, 1)));
  EXPECT_EQ(static_cast<float>(tile::sum<1>(m)(0)), 2050.0f);
  EXPECT_EQ(static_cast<float>(tile::sum<1>(m)(1)), 4.0f);
  // bf16 has 8 significant bits: 256 + 1 rounds back to 256.
  auto b = tile::cast<bf16>(tile_of<float>(256, 1, 1, 0));
  EXPECT_EQ(static_cast<float>(tile::sum(b)), 258.0f);
  // The single rounding at the end: 2048 + 3 = 2051 rounds to even, 2052.
  auto r = tile::cast<f16>(tile_of<float>(2048, 1, 1, 1));
  EXPECT_EQ(static_cast<float>(tile::sum(r)), 2052.0f);
}

TEST(Reduce, HalfProdComputesInFloat) {
  auto h = tile::cast<f16>(tile_of<float>(1.5f, 1.5f, 1.5f, 1.5f));
  EXPECT_EQ(static_cast<float>(tile::prod(h)), 5.0625f);
  auto tiny = tile::cast<f16>(tile_of<float>(0.0001f, 0.0001f, 10000.0f, 10000.0f));
  // An f16 intermediate 1e-4 * 1e-4 would underflow to 0; in float the product stays about 1.
  EXPECT_NEAR(static_cast<float>(tile::prod(tiny)), 1.0f, 0.01f);
}

// ---- max, min, argmax, argmin --------------------------------------------------------------------

TEST(Reduce, MaxMinAlongEachAxisOfRank3) {
  auto t = make<int32_t, 2, 4, 4>([](int64_t i) { return (i * 7) % 11 - 5; });
  auto mx1 = tile::max<1>(t);
  auto mn2 = tile::min<2>(t);
  auto mx0 = tile::max<0>(t);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      int32_t w = t(i, 0, k), v = t(i, k, 0);
      for (int j = 1; j < 4; ++j) {
        w = std::max(w, t(i, j, k));
        v = std::min(v, t(i, k, j));
      }
      EXPECT_EQ(mx1(i, k), w);
      EXPECT_EQ(mn2(i, k), v);
    }
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) EXPECT_EQ(mx0(j, k), std::max(t(0, j, k), t(1, j, k)));
}

TEST(Reduce, MaxMinOfUnsignedAndNegativeFloats) {
  auto u = tile_of<uint32_t>(3u, 4000000000u, 7u, 0u);
  EXPECT_EQ(tile::max(u), 4000000000u);
  EXPECT_EQ(tile::min(u), 0u);
  auto f = tile_of<float>(-3.5f, -1.0f, -8.0f, -2.0f);
  EXPECT_EQ(tile::max<0>(f), -1.0f);
  EXPECT_EQ(tile::min<0>(f), -8.0f);
}

TEST(Reduce, MaxMinIgnoreNaNUnlessEveryElementIsNaN) {
  auto some = tile_of<float>(kNaN, 1.0f, kNaN, 3.0f);
  EXPECT_EQ(tile::max<0>(some), 3.0f);
  EXPECT_EQ(tile::min<0>(some), 1.0f);
  EXPECT_EQ(tile::max(some), 3.0f);
  auto all = tile::full<double, 4>(std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(std::isnan(tile::max<0>(all)));
  EXPECT_TRUE(std::isnan(tile::min(all)));
  // Along an axis, each lane on its own: row 0 has a number, row 1 only NaN.
  auto m = tile::reshape<2, 2>(tile_of<float>(kNaN, -2.0f, kNaN, kNaN));
  EXPECT_EQ(tile::max<1>(m)(0), -2.0f);
  EXPECT_TRUE(std::isnan(tile::max<1>(m)(1)));
}

TEST(Reduce, HalfMaxMinIgnoreNaN) {
  auto h = tile::cast<f16>(tile_of<float>(kNaN, 0.5f, -4.0f, kNaN));
  EXPECT_EQ(static_cast<float>(tile::max(h)), 0.5f);
  EXPECT_EQ(static_cast<float>(tile::min<0>(h)), -4.0f);
  EXPECT_EQ(tile::argmax<0>(h), 1);
  EXPECT_EQ(tile::argmin<0>(h), 2);
  auto nan = tile::cast<bf16>(tile::full<float, 2>(kNaN));
  EXPECT_TRUE(std::isnan(static_cast<float>(tile::max(nan))));
}

TEST(Reduce, ArgmaxArgminTakeTheSmallestIndexOnTies) {
  EXPECT_EQ(tile::argmax<0>(tile_of<int32_t>(1, 5, 2, 5)), 1);
  EXPECT_EQ(tile::argmin<0>(tile_of<int32_t>(3, 1, 1, 2)), 1);
  EXPECT_EQ(tile::argmax<0>(tile::full<float, 8>(2.0f)), 0);
  // -0 and +0 are equal: the first zero wins either way.
  EXPECT_EQ(tile::argmax<0>(tile_of<float>(-1.0f, -0.0f, 0.0f, -2.0f)), 1);
  EXPECT_EQ(tile::argmin<0>(tile_of<float>(1.0f, 0.0f, -0.0f, 2.0f)), 1);
}

TEST(Reduce, ArgmaxArgminIgnoreNaN) {
  auto t = tile_of<float>(kNaN, 2.0f, kNaN, 1.0f);
  EXPECT_EQ(tile::argmax<0>(t), 1);
  EXPECT_EQ(tile::argmin<0>(t), 3);
  EXPECT_EQ(tile::argmax<0>(tile::full<float, 4>(kNaN)), 0);
  EXPECT_EQ(tile::argmin<0>(tile::full<float, 4>(kNaN)), 0);
}

TEST(Reduce, ArgmaxArgminAlongEachAxisOfRank2) {
  // t(r, c) = (3r + 5c) mod 8: a permutation of 0..7 in every row and column.
  auto t = make<int32_t, 8, 8>([](int64_t i) { return (3 * (i / 8) + 5 * (i % 8)) % 8; });
  auto amax1 = tile::argmax<1>(t);
  auto amin0 = tile::argmin<0>(t);
  static_assert(std::is_same_v<decltype(amax1), Tile<int32_t, 8>>);
  for (int r = 0; r < 8; ++r) EXPECT_EQ(t(r, amax1(r)), 7) << "row " << r;
  for (int c = 0; c < 8; ++c) EXPECT_EQ(t(amin0(c), c), 0) << "column " << c;
}

TEST(Reduce, ArgmaxAlongMiddleAxisOfRank3) {
  auto t = make<float, 2, 4, 2>([](int64_t i) { return static_cast<float>((i * 5) % 16); });
  auto a = tile::argmax<1>(t);
  static_assert(std::is_same_v<decltype(a), Tile<int32_t, 2, 2>>);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 2; ++k) {
      int best = 0;
      for (int j = 1; j < 4; ++j)
        if (t(i, j, k) > t(i, best, k)) best = j;
      EXPECT_EQ(a(i, k), best);
    }
}

// ---- reduce with a function ----------------------------------------------------------------------

TEST(Reduce, ReduceWithLambdaAlongEachAxis) {
  auto t = make<int32_t, 4, 4>([](int64_t i) { return i; });
  auto add = [](int32_t a, int32_t b) { return a + b; };
  auto rows = tile::reduce<1>(t, 0, add);
  auto cols = tile::reduce<0>(t, 0, add);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(rows(k), tile::sum<1>(t)(k));
    EXPECT_EQ(cols(k), tile::sum<0>(t)(k));
  }
  auto larger = [](int32_t a, int32_t b) { return a < b ? b : a; };
  auto maxed = tile::reduce<1>(t, std::numeric_limits<int32_t>::min(), larger);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(maxed(k), 4 * k + 3);
}

TEST(Reduce, ReduceFoldsFromInitInIndexOrder) {
  // A function that is neither associative nor commutative shows the reference order:
  // f(f(f(init, t0), t1), t2).
  auto digits = tile::reshape<2, 4>(tile_of<int64_t>(1, 2, 3, 4, 5, 6, 7, 8));
  auto r = tile::reduce<1>(digits, 9, [](int64_t acc, int64_t x) { return acc * 10 + x; });
  EXPECT_EQ(r(0), 91234);
  EXPECT_EQ(r(1), 95678);
}

TEST(Reduce, ReduceOnBoolTilesWithCapturingLambda) {
  auto flags = tile::iota<int32_t, 8>() > 5;
  EXPECT_TRUE(tile::reduce<0>(flags, false, [](bool a, bool b) { return a || b; }));
  EXPECT_FALSE(tile::reduce<0>(flags, true, [](bool a, bool b) { return a && b; }));
  int calls = 0;
  auto counted = tile::reduce<0>(tile::iota<float, 8>(), 0.0f, [&calls](float a, float b) {
    ++calls;
    return a + b;
  });
  EXPECT_EQ(counted, 28.0f);
  EXPECT_EQ(calls, 8);
}

TEST(Reduce, ReduceOfHalfTiles) {
  auto h = tile::cast<f16>(tile::iota<float, 4>());
  auto r = tile::reduce<0>(h, f16(1.0f), [](f16 a, f16 b) { return a + b; });
  EXPECT_EQ(static_cast<float>(r), 7.0f);
}

// ---- scans ---------------------------------------------------------------------------------------

TEST(Reduce, CumsumAlongEachAxisOfRank2) {
  auto t = make<int32_t, 2, 4>([](int64_t i) { return i + 1; });  // [[1 2 3 4] [5 6 7 8]]
  auto across = tile::cumsum<1>(t);
  auto down = tile::cumsum<0>(t);
  const int32_t want_across[2][4] = {{1, 3, 6, 10}, {5, 11, 18, 26}};
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(across(r, c), want_across[r][c]);
      EXPECT_EQ(down(r, c), r == 0 ? t(0, c) : t(0, c) + t(1, c));
    }
}

TEST(Reduce, CumsumAlongLastAxisOfRank3) {
  auto t = make<float, 2, 2, 4>([](int64_t i) { return 0.25f * static_cast<float>(i); });
  auto c = tile::cumsum<2>(t);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      float acc = 0;
      for (int k = 0; k < 4; ++k) {
        acc += t(i, j, k);
        EXPECT_EQ(c(i, j, k), acc);
      }
    }
}

TEST(Reduce, CumsumOfIntegersWraps) {
  auto c = tile::cumsum<0>(tile::full<int8_t, 4>(int8_t{100}));
  EXPECT_EQ(c(0), int8_t{100});
  EXPECT_EQ(c(1), int8_t{-56});
  EXPECT_EQ(c(2), int8_t{44});
  EXPECT_EQ(c(3), int8_t{-112});
}

TEST(Reduce, HalfCumsumAccumulatesInFloatAndRoundsEachOutput) {
  auto h = tile::cast<f16>(tile_of<float>(2048, 1, 1, 0));
  auto c = tile::cumsum<0>(h);
  EXPECT_EQ(static_cast<float>(c(0)), 2048.0f);
  EXPECT_EQ(static_cast<float>(c(1)), 2048.0f);  // 2049 rounds to even
  EXPECT_EQ(static_cast<float>(c(2)), 2050.0f);  // the float accumulator kept the 1
  EXPECT_EQ(static_cast<float>(c(3)), 2050.0f);
}

TEST(Reduce, ScanWithLambdaIsInclusiveFromInit) {
  auto t = tile_of<int32_t>(3, 1, 4, 1, 5, 9, 2, 6);
  auto larger = [](int32_t a, int32_t b) { return a < b ? b : a; };
  auto running_max = tile::scan<0>(t, std::numeric_limits<int32_t>::min(), larger);
  const int32_t want[8] = {3, 3, 4, 4, 5, 9, 9, 9};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(running_max(i), want[i]);
  // out_0 = f(init, t_0): the init takes part.
  auto shifted = tile::scan<0>(t, 100, [](int32_t a, int32_t b) { return a + b; });
  EXPECT_EQ(shifted(0), 103);
  EXPECT_EQ(shifted(7), 131);
}

TEST(Reduce, ScanAlongFirstAxisOfRank2) {
  auto t = make<int32_t, 4, 2>([](int64_t i) { return i + 1; });  // [[1 2] [3 4] [5 6] [7 8]]
  auto p = tile::scan<0>(t, 1, [](int32_t a, int32_t b) { return a * b; });
  EXPECT_EQ(p(3, 0), 1 * 3 * 5 * 7);
  EXPECT_EQ(p(3, 1), 2 * 4 * 6 * 8);
  EXPECT_EQ(p(1, 1), 8);
}

// ---- whole-tile reductions -----------------------------------------------------------------------

TEST(Reduce, FullReductionsGiveScalars) {
  auto t = make<int32_t, 2, 4, 2>([](int64_t i) { return i - 3; });  // -3..12
  static_assert(std::is_same_v<decltype(tile::sum(t)), int32_t>);
  static_assert(std::is_same_v<decltype(tile::prod(t)), int32_t>);
  EXPECT_EQ(tile::sum(t), 72);
  EXPECT_EQ(tile::max(t), 12);
  EXPECT_EQ(tile::min(t), -3);
  EXPECT_EQ(tile::prod(t), 0);  // includes 0
  auto f = make<float, 2, 2>([](int64_t i) { return i + 1; });
  EXPECT_EQ(tile::prod(f), 24.0f);
  EXPECT_EQ(tile::sum(f), 10.0f);
}

TEST(Reduce, FullReductionsOfHalfTiles) {
  auto h = tile::reshape<2, 2>(tile::cast<f16>(tile_of<float>(2048, 1, 1, -3)));
  EXPECT_EQ(static_cast<float>(tile::sum(h)), 2047.0f);
  EXPECT_EQ(static_cast<float>(tile::max(h)), 2048.0f);
  EXPECT_EQ(static_cast<float>(tile::min(h)), -3.0f);
}

TEST(Reduce, SumOfNegativeZerosIsNegativeZero) {
  auto z = tile::full<float, 4>(-0.0f);
  EXPECT_TRUE(std::signbit(tile::sum(z)));
  EXPECT_TRUE(std::signbit(tile::sum<0>(z)));
}

}  // namespace
