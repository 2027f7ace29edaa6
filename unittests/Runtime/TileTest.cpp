// tile::Tile: shape, construction, elementwise operators, math, where and cast.
#include <gtest/gtest.h>

#include <bit>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tile/tile.hpp"

namespace {

using tile::Tile;

template <class T, int... D, class F>
void expect_each(const Tile<T, D...>& t, F want) {
  for (int64_t i = 0; i < Tile<T, D...>::size; ++i) EXPECT_EQ(t.data()[i], want(i)) << "element " << i;
}

TEST(Tile, ShapeRankSize) {
  using T = Tile<float, 4, 8, 2>;
  static_assert(T::rank == 3);
  static_assert(T::shape == std::array<int64_t, 3>{4, 8, 2});
  static_assert(T::size == 64);
  static_assert(std::is_same_v<T::value_type, float>);
  static_assert(Tile<int8_t, 1>::size == 1);
}

TEST(Tile, Factories) {
  expect_each(tile::zeros<float, 4, 4>(), [](int64_t) { return 0.0f; });
  expect_each(tile::ones<int32_t, 8>(), [](int64_t) { return 1; });
  expect_each(tile::full<double, 2, 2>(2.5), [](int64_t) { return 2.5; });
  expect_each(tile::iota<int64_t, 16>(), [](int64_t i) { return i; });
  expect_each(tile::iota<float, 8>(), [](int64_t i) { return static_cast<float>(i); });
  Tile<uint8_t, 4> def;
  expect_each(def, [](int64_t) { return uint8_t{0}; });
  static_assert(tile::iota<int, 4>()(3) == 3, "tiles are constexpr-friendly");
}

TEST(Tile, ElementAccessIsRowMajor) {
  auto t = tile::iota<int32_t, 8>();
  EXPECT_EQ(t(5), 5);
  // Build a 2-D tile through a view of host memory.
  int32_t buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  auto v = tile::detail::TensorAccess::make<tile::Tensor<int32_t, 2, 4>>(
      buf, std::array<int64_t, 2>{2, 4}, std::array<int64_t, 2>{4, 1}, std::array<int64_t, 2>{0, 0},
      std::array<int64_t, 2>{2, 4});
  auto m = v.load();
  EXPECT_EQ(m(0, 0), 0);
  EXPECT_EQ(m(0, 3), 3);
  EXPECT_EQ(m(1, 0), 4);
  EXPECT_EQ(m(1, 2), 6);
}

TEST(Tile, ArithmeticWithTilesAndScalars) {
  auto a = tile::iota<float, 8>();  // 0..7
  auto b = tile::full<float, 8>(2.0f);
  expect_each(a + b, [](int64_t i) { return i + 2.0f; });
  expect_each(a - b, [](int64_t i) { return i - 2.0f; });
  expect_each(a * b, [](int64_t i) { return i * 2.0f; });
  expect_each(a / b, [](int64_t i) { return i / 2.0f; });
  expect_each(-a, [](int64_t i) { return -static_cast<float>(i); });
  // Scalars broadcast on either side and are converted to the element type.
  expect_each(a + 1, [](int64_t i) { return i + 1.0f; });
  expect_each(10.0 - a, [](int64_t i) { return 10.0f - i; });
  expect_each(3 * a, [](int64_t i) { return 3.0f * i; });
  expect_each(a / 4.0f, [](int64_t i) { return i / 4.0f; });
  static_assert(std::is_same_v<decltype(a + 1.0), Tile<float, 8>>);
}

TEST(Tile, IntegerArithmeticWrapsAndTruncates) {
  auto big = tile::full<int32_t, 4>(std::numeric_limits<int32_t>::max());
  expect_each(big + 1, [](int64_t) { return std::numeric_limits<int32_t>::min(); });
  expect_each(-tile::full<int32_t, 4>(std::numeric_limits<int32_t>::min()),
              [](int64_t) { return std::numeric_limits<int32_t>::min(); });
  auto u = tile::full<uint16_t, 4>(uint16_t{65535});
  expect_each(u * u, [](int64_t) { return uint16_t{1}; });  // 65535^2 mod 2^16
  auto i8 = tile::full<int8_t, 4>(int8_t{100});
  expect_each(i8 + i8, [](int64_t) { return int8_t{-56}; });
  auto n = tile::iota<int32_t, 8>() - 4;  // -4..3
  expect_each(n / 3, [](int64_t i) { return static_cast<int32_t>((i - 4) / 3); });
  expect_each(n % 3, [](int64_t i) { return static_cast<int32_t>((i - 4) % 3); });
  expect_each(tile::full<int32_t, 4>(7) / 2.9, [](int64_t) { return 3; });  // 2.9 converts to 2
}

TEST(Tile, Comparisons) {
  auto a = tile::iota<int32_t, 8>();
  auto b = tile::full<int32_t, 8>(3);
  static_assert(std::is_same_v<decltype(a < b), Tile<bool, 8>>);
  expect_each(a < b, [](int64_t i) { return i < 3; });
  expect_each(a <= b, [](int64_t i) { return i <= 3; });
  expect_each(a > 3, [](int64_t i) { return i > 3; });
  expect_each(a >= 3, [](int64_t i) { return i >= 3; });
  expect_each(a == b, [](int64_t i) { return i == 3; });
  expect_each(a != 3, [](int64_t i) { return i != 3; });
  expect_each(3 == a, [](int64_t i) { return i == 3; });
  expect_each(2.5f < tile::iota<float, 8>(), [](int64_t i) { return 2.5f < i; });
}

TEST(Tile, BitwiseAndShifts) {
  auto a = tile::iota<uint32_t, 16>();
  expect_each(a & 5u, [](int64_t i) { return static_cast<uint32_t>(i & 5); });
  expect_each(a | 8u, [](int64_t i) { return static_cast<uint32_t>(i | 8); });
  expect_each(a ^ a, [](int64_t) { return 0u; });
  expect_each(~a, [](int64_t i) { return ~static_cast<uint32_t>(i); });
  expect_each(a << 2, [](int64_t i) { return static_cast<uint32_t>(i << 2); });
  expect_each(a >> 1, [](int64_t i) { return static_cast<uint32_t>(i >> 1); });
  expect_each(tile::full<int32_t, 4>(-8) >> 1, [](int64_t) { return -4; });  // arithmetic shift
  expect_each(tile::full<int8_t, 4>(int8_t{-1}) << 7, [](int64_t) { return int8_t{-128}; });
  auto even = (a & 1u) == 0u;
  auto small = a < 8u;
  expect_each(even & small, [](int64_t i) { return i % 2 == 0 && i < 8; });
  expect_each(even | small, [](int64_t i) { return i % 2 == 0 || i < 8; });
  expect_each(even ^ small, [](int64_t i) { return (i % 2 == 0) != (i < 8); });
  expect_each(~even, [](int64_t i) { return i % 2 != 0; });
}

TEST(Tile, LogicalOperatorsOnBoolTilesAreElementwise) {
  auto a = tile::iota<int32_t, 16>();
  auto even = (a & 1) == 0;
  auto small = a < 8;
  expect_each(even && small, [](int64_t i) { return i % 2 == 0 && i < 8; });
  expect_each(even || small, [](int64_t i) { return i % 2 == 0 || i < 8; });
  expect_each(!even, [](int64_t i) { return i % 2 != 0; });
  expect_each(even && true, [](int64_t i) { return i % 2 == 0; });  // a scalar is broadcast
  expect_each(false || small, [](int64_t i) { return i < 8; });
}

TEST(Tile, CompoundAssignmentReassigns) {
  auto acc = tile::zeros<float, 4>();
  for (int k = 0; k < 3; ++k) acc += tile::iota<float, 4>();
  expect_each(acc, [](int64_t i) { return 3.0f * i; });
  acc *= 2;
  expect_each(acc, [](int64_t i) { return 6.0f * i; });
  auto bits = tile::full<uint8_t, 4>(uint8_t{1});
  bits <<= 3;
  bits |= uint8_t{1};
  expect_each(bits, [](int64_t) { return uint8_t{9}; });
}

TEST(Tile, FloatMath) {
  auto x = tile::iota<float, 8>() + 1.0f;  // 1..8
  expect_each(tile::exp(x), [](int64_t i) { return std::exp(i + 1.0f); });
  expect_each(tile::exp2(x), [](int64_t i) { return std::exp2(i + 1.0f); });
  expect_each(tile::log(x), [](int64_t i) { return std::log(i + 1.0f); });
  expect_each(tile::log2(x), [](int64_t i) { return std::log2(i + 1.0f); });
  expect_each(tile::sqrt(x), [](int64_t i) { return std::sqrt(i + 1.0f); });
  expect_each(tile::rsqrt(x), [](int64_t i) { return 1.0f / std::sqrt(i + 1.0f); });
  expect_each(tile::sin(x), [](int64_t i) { return std::sin(i + 1.0f); });
  expect_each(tile::cos(x), [](int64_t i) { return std::cos(i + 1.0f); });
  expect_each(tile::tanh(x), [](int64_t i) { return std::tanh(i + 1.0f); });
  expect_each(tile::floor(x / 3), [](int64_t i) { return std::floor((i + 1.0f) / 3); });
  expect_each(tile::ceil(x / 3), [](int64_t i) { return std::ceil((i + 1.0f) / 3); });
  expect_each(tile::pow(x, 2.0f), [](int64_t i) { return std::pow(i + 1.0f, 2.0f); });
  expect_each(tile::pow(2.0f, x), [](int64_t i) { return std::pow(2.0f, i + 1.0f); });
  expect_each(tile::pow(x, x), [](int64_t i) { return std::pow(i + 1.0f, i + 1.0f); });
  expect_each(tile::fma(x, x, 1.0f), [](int64_t i) { return std::fma(i + 1.0f, i + 1.0f, 1.0f); });
  expect_each(tile::abs(x - 4.5f), [](int64_t i) { return std::fabs(i + 1.0f - 4.5f); });
  auto d = tile::iota<double, 4>();
  expect_each(tile::sqrt(d), [](int64_t i) { return std::sqrt(static_cast<double>(i)); });
}

TEST(Tile, MinMaxAbsOnIntegersAndScalars) {
  auto a = tile::iota<int32_t, 8>() - 4;  // -4..3
  expect_each(tile::abs(a), [](int64_t i) { return static_cast<int32_t>(std::abs(i - 4)); });
  expect_each(tile::max(a, 0), [](int64_t i) { return static_cast<int32_t>(std::max<int64_t>(i - 4, 0)); });
  expect_each(tile::min(1, a), [](int64_t i) { return static_cast<int32_t>(std::min<int64_t>(i - 4, 1)); });
  expect_each(tile::min(a, -a), [](int64_t i) { return static_cast<int32_t>(-std::abs(i - 4)); });
  expect_each(tile::abs(tile::full<int32_t, 2>(std::numeric_limits<int32_t>::min())),
              [](int64_t) { return std::numeric_limits<int32_t>::min(); });
  auto nan = tile::full<float, 2>(std::numeric_limits<float>::quiet_NaN());
  expect_each(tile::max(nan, 1.0f), [](int64_t) { return 1.0f; });  // fmax: NaN yields the other
  expect_each(tile::min(nan, 1.0f), [](int64_t) { return 1.0f; });
}

TEST(Tile, ASignalingNaNYieldsTheOtherOperandOfMinAndMax) {
  // As on the GPU (and IEEE 754-2019 maximumNumber): the C library's fmax may return NaN here.
  auto snan = tile::full<float, 2>(std::numeric_limits<float>::signaling_NaN());
  expect_each(tile::max(snan, 0.25f), [](int64_t) { return 0.25f; });
  expect_each(tile::min(-0.5f, snan), [](int64_t) { return -0.5f; });
  auto dsnan = tile::full<double, 2>(std::numeric_limits<double>::signaling_NaN());
  expect_each(tile::max(dsnan, 2.0), [](int64_t) { return 2.0; });
  EXPECT_EQ(tile::max<0>(tile::cat<0>(snan, tile::full<float, 2>(3.0f))), 3.0f);
}

TEST(Tile, MinAndMaxOrderNegativeZeroBelowPositiveZero) {
  // As on the GPU (IEEE 754-2019 minimumNumber / maximumNumber), in either operand order.
  auto pos = tile::full<float, 2>(0.0f);
  auto neg = tile::full<float, 2>(-0.0f);
  EXPECT_TRUE(std::signbit(tile::min(pos, neg)(0)));
  EXPECT_TRUE(std::signbit(tile::min(neg, pos)(0)));
  EXPECT_FALSE(std::signbit(tile::max(pos, neg)(0)));
  EXPECT_FALSE(std::signbit(tile::max(neg, pos)(0)));
  EXPECT_TRUE(std::signbit(tile::min(tile::cat<0>(pos, neg))));
  EXPECT_FALSE(std::signbit(tile::max(tile::cat<0>(neg, pos))));
}

TEST(Tile, HalfTilesComputeInFloat) {
  auto h = tile::cast<tile::f16>(tile::iota<float, 8>());
  auto s = h * tile::f16(0.5f) + 1;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(static_cast<float>(s(i)), i * 0.5f + 1.0f);
  auto e = tile::exp(tile::cast<tile::bf16>(tile::zeros<float, 4>()));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(static_cast<float>(e(i)), 1.0f);
  auto m = tile::max(h, 3.0f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(static_cast<float>(m(i)), std::max(3.0f, static_cast<float>(i)));
  auto neg = tile::abs(-h);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(static_cast<float>(neg(i)), static_cast<float>(i));
  auto lt = h < 2;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(lt(i), i < 2);
}

TEST(Tile, WhereSelects) {
  auto x = tile::iota<float, 8>();
  auto c = x < 4.0f;
  expect_each(tile::where(c, x, -x), [](int64_t i) { return i < 4 ? float(i) : -float(i); });
  expect_each(tile::where(c, x, 0), [](int64_t i) { return i < 4 ? float(i) : 0.0f; });
  expect_each(tile::where(c, 1.5f, x), [](int64_t i) { return i < 4 ? 1.5f : float(i); });
  auto s = tile::where(c, 1, 0);
  static_assert(std::is_same_v<decltype(s), Tile<int, 8>>);
  expect_each(s, [](int64_t i) { return i < 4 ? 1 : 0; });
}

TEST(Tile, CastConverts) {
  auto x = tile::iota<float, 8>() * 1.5f - 3.0f;  // -3, -1.5, 0, 1.5, ...
  expect_each(tile::cast<int32_t>(x), [](int64_t i) { return static_cast<int32_t>(i * 1.5f - 3.0f); });
  expect_each(tile::cast<bool>(x), [](int64_t i) { return i * 1.5f - 3.0f != 0.0f; });
  expect_each(tile::cast<uint8_t>(x),
              [](int64_t i) { return tile::detail::convert<uint8_t>(i * 1.5f - 3.0f); });
  expect_each(tile::cast<double>(tile::iota<int16_t, 4>()), [](int64_t i) { return static_cast<double>(i); });
  auto big = tile::full<float, 2>(1e10f);
  expect_each(tile::cast<int32_t>(big), [](int64_t) { return std::numeric_limits<int32_t>::max(); });
}

TEST(Tile, BitcastKeepsTheBits) {
  auto x = tile::iota<float, 4>() - 1.5f;  // -1.5, -0.5, 0.5, 1.5
  auto bits = tile::bitcast<uint32_t>(x);
  static_assert(std::is_same_v<decltype(bits), Tile<uint32_t, 4>>);
  expect_each(bits, [](int64_t i) { return std::bit_cast<uint32_t>(float(i) - 1.5f); });
  expect_each(tile::bitcast<float>(bits), [](int64_t i) { return float(i) - 1.5f; });
  auto h = tile::bitcast<int16_t>(tile::full<tile::f16, 2>(tile::f16(1.0f)));
  expect_each(h, [](int64_t) { return int16_t(0x3c00); });
}

TEST(Tile, MultiDimensionalElementwise) {
  auto a = tile::full<float, 4, 8>(2.0f);
  auto b = tile::ones<float, 4, 8>();
  auto c = a * b + 3.0f;
  static_assert(std::is_same_v<decltype(c), Tile<float, 4, 8>>);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(c(i, j), 5.0f);
  auto r4 = tile::ones<int32_t, 2, 2, 2, 2>() + 1;
  EXPECT_EQ(r4(1, 1, 1, 1), 2);
}

}  // namespace
