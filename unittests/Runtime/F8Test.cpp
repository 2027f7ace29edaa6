// Element types f8e4m3 and f8e5m2 (OCP FP8): decoding, rounding, saturation, NaN, conversions,
// arithmetic, tiles, reductions, mma and a kernel on the CPU backend.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tile/dlpack.hpp"
#include "tile/tile.hpp"

namespace {

using tile::dyn;
using tile::f16;
using tile::f8e4m3;
using tile::f8e5m2;
using tile::Tensor;
using tile::Tile;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

uint32_t bits_of(float x) { return std::bit_cast<uint32_t>(x); }

/// Facts about each format, for the tests that run over both.
template <class F8>
struct format;
template <>
struct format<f8e4m3> {
  static constexpr int man_bits = 3;
  static constexpr float max = 448.0f;
  static constexpr uint8_t max_bits = 0x7e;
  static constexpr float min_subnormal = 0x1p-9f;
  static constexpr float min_normal = 0x1p-6f;
  static bool is_nan_bits(uint32_t b) { return (b & 0x7f) == 0x7f; }
  static bool is_inf_bits(uint32_t) { return false; }
};
template <>
struct format<f8e5m2> {
  static constexpr int man_bits = 2;
  static constexpr float max = 57344.0f;
  static constexpr uint8_t max_bits = 0x7b;
  static constexpr float min_subnormal = 0x1p-16f;
  static constexpr float min_normal = 0x1p-14f;
  static bool is_nan_bits(uint32_t b) { return (b & 0x7c) == 0x7c && (b & 0x03) != 0; }
  static bool is_inf_bits(uint32_t b) { return (b & 0x7f) == 0x7c; }
};

template <class T>
class F8Format : public ::testing::Test {};
using F8Types = ::testing::Types<f8e4m3, f8e5m2>;
TYPED_TEST_SUITE(F8Format, F8Types);

// ---- decoding ------------------------------------------------------------------------------------

TEST(F8E4M3, DecodesKnownValues) {
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x00)), 0.0f);
  EXPECT_TRUE(std::signbit(static_cast<float>(f8e4m3::from_bits(0x80))));
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x38)), 1.0f);
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0xb8)), -1.0f);
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x3c)), 1.5f);
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x7e)), 448.0f);  // S.1111.110: the largest finite
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x78)), 256.0f);  // the all-ones exponent is normal
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x08)), 0x1p-6f);  // smallest normal
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x01)), 0x1p-9f);  // smallest subnormal
  EXPECT_EQ(static_cast<float>(f8e4m3::from_bits(0x07)), 7 * 0x1p-9f);  // largest subnormal
  EXPECT_TRUE(std::isnan(static_cast<float>(f8e4m3::from_bits(0x7f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(f8e4m3::from_bits(0xff))));
}

TEST(F8E5M2, DecodesKnownValues) {
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0x3c)), 1.0f);
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0xbe)), -1.5f);
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0x7b)), 57344.0f);  // the largest finite
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0x04)), 0x1p-14f);  // smallest normal
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0x01)), 0x1p-16f);  // smallest subnormal
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0x7c)), kInf);
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0xfc)), -kInf);
  for (uint8_t b : {0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff})
    EXPECT_TRUE(std::isnan(static_cast<float>(f8e5m2::from_bits(b)))) << int(b);
  // E5M2 is the top byte of an IEEE binary16.
  for (uint32_t b = 0; b < 256; ++b) {
    const float f = static_cast<float>(f8e5m2::from_bits(static_cast<uint8_t>(b)));
    const float h = static_cast<float>(f16::from_bits(static_cast<uint16_t>(b << 8)));
    if (std::isnan(h))
      EXPECT_TRUE(std::isnan(f)) << b;
    else
      EXPECT_EQ(bits_of(f), bits_of(h)) << b;
  }
}

TYPED_TEST(F8Format, NaNDecodesToTheCanonicalFloatNaN) {
  for (uint32_t b = 0; b < 256; ++b) {
    const float f = static_cast<float>(TypeParam::from_bits(static_cast<uint8_t>(b)));
    EXPECT_EQ(std::isnan(f), format<TypeParam>::is_nan_bits(b)) << b;
    if (std::isnan(f)) {
      EXPECT_EQ(bits_of(f), 0x7fffffffu) << b;  // as CUDA's conversion operators
    }
  }
}

TYPED_TEST(F8Format, ValuesIncreaseWithTheBitPattern) {
  // Positive patterns in order give strictly increasing values (and negatives mirror them).
  float prev = -1.0f;
  for (uint32_t b = 0; b < 0x80; ++b) {
    if (format<TypeParam>::is_nan_bits(b)) continue;
    const float f = static_cast<float>(TypeParam::from_bits(static_cast<uint8_t>(b)));
    EXPECT_GT(f, prev) << b;
    EXPECT_EQ(static_cast<float>(TypeParam::from_bits(static_cast<uint8_t>(b | 0x80))), -f) << b;
    prev = f;
  }
}

// ---- float -> f8 ---------------------------------------------------------------------------------

TYPED_TEST(F8Format, EveryBitPatternRoundTripsThroughFloat) {
  using F = format<TypeParam>;
  for (uint32_t b = 0; b < 256; ++b) {
    const float f = static_cast<float>(TypeParam::from_bits(static_cast<uint8_t>(b)));
    const uint8_t back = TypeParam(f).bits;
    if (F::is_nan_bits(b))
      EXPECT_EQ(back, 0x7f) << b;  // every NaN comes back as the canonical NaN
    else if (F::is_inf_bits(b))
      EXPECT_EQ(back, (b & 0x80) | F::max_bits) << b;  // infinity saturates
    else
      EXPECT_EQ(back, b) << b;  // -0 included
    // From double too.
    if (!F::is_nan_bits(b) && !F::is_inf_bits(b)) {
      EXPECT_EQ(TypeParam(static_cast<double>(f)).bits, b) << b;
    }
  }
}

/// The finite non-negative values of the format, increasing.
template <class F8>
std::vector<float> finite_values() {
  std::vector<float> v;
  for (uint32_t b = 0; b < 0x80; ++b)
    if (!format<F8>::is_nan_bits(b) && !format<F8>::is_inf_bits(b))
      v.push_back(static_cast<float>(F8::from_bits(static_cast<uint8_t>(b))));
  return v;
}

TYPED_TEST(F8Format, MidpointsRoundToEven) {
  // Between every two neighbouring finite values: the midpoint goes to the even pattern, the
  // floats just above and below it to the nearer neighbour. Both signs.
  const std::vector<float> v = finite_values<TypeParam>();
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    const auto lo = static_cast<uint8_t>(i);  // v[i] has bit pattern i
    const float mid = (v[i] + v[i + 1]) / 2;   // exact
    const uint8_t even = (lo & 1) ? static_cast<uint8_t>(lo + 1) : lo;
    for (float sign : {1.0f, -1.0f}) {
      const uint8_t s = sign < 0 ? 0x80 : 0;
      EXPECT_EQ(TypeParam(sign * mid).bits, s | even) << mid;
      EXPECT_EQ(TypeParam(sign * std::nextafter(mid, kInf)).bits, s | (lo + 1)) << mid;
      EXPECT_EQ(TypeParam(sign * std::nextafter(mid, 0.0f)).bits, s | lo) << mid;
      EXPECT_EQ(TypeParam(sign * v[i]).bits, s | lo);
    }
  }
}

TYPED_TEST(F8Format, EveryFloatNearAValueRoundsToTheNearest) {
  // A brute-force reference: for many floats, the result is the nearest finite value (ties to
  // the even pattern), saturated at the largest.
  const std::vector<float> v = finite_values<TypeParam>();
  auto nearest = [&](float x) -> uint8_t {
    const double ax = std::fabs(static_cast<double>(x));
    std::size_t best = 0;
    if (ax >= v.back()) best = v.size() - 1;  // saturation (the differences below lose precision)
    for (std::size_t i = 1; i < v.size() && ax < v.back(); ++i) {
      const double d = std::fabs(v[i] - ax), db = std::fabs(v[best] - ax);
      if (d < db || (d == db && (i & 1) == 0)) best = i;
    }
    return static_cast<uint8_t>((std::signbit(x) ? 0x80 : 0) | best);
  };
  // Every float whose top 16 bits vary (exponents across the whole range, 7 mantissa bits), and
  // each with a low-bit pattern that lands on and around the f8 rounding boundaries.
  for (uint32_t hi = 0; hi < 0x10000; ++hi) {
    for (uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
      const float x = std::bit_cast<float>((hi << 16) | lo);
      if (std::isnan(x) || std::isinf(x)) continue;
      ASSERT_EQ(TypeParam(x).bits, nearest(x)) << std::hex << bits_of(x);
    }
  }
}

TYPED_TEST(F8Format, SaturatesLikeCudaSatfinite) {
  using F = format<TypeParam>;
  const float max = F::max;
  const float next_ulp = std::ldexp(1.0f, std::ilogb(max) - F::man_bits);  // the spacing at max
  EXPECT_EQ(TypeParam(max).bits, F::max_bits);
  EXPECT_EQ(TypeParam(max + next_ulp / 2).bits, F::max_bits);  // the tie above max: even is max
  EXPECT_EQ(TypeParam(std::nextafter(max + next_ulp / 2, kInf)).bits, F::max_bits);
  EXPECT_EQ(TypeParam(max + next_ulp).bits, F::max_bits);
  EXPECT_EQ(TypeParam(1e30f).bits, F::max_bits);
  EXPECT_EQ(TypeParam(std::numeric_limits<float>::max()).bits, F::max_bits);
  EXPECT_EQ(TypeParam(-1e30f).bits, 0x80 | F::max_bits);
  // Infinity saturates too (E5M2 included: CUDA's __NV_SATFINITE conversion does not keep it).
  EXPECT_EQ(TypeParam(kInf).bits, F::max_bits);
  EXPECT_EQ(TypeParam(-kInf).bits, 0x80 | F::max_bits);
  EXPECT_EQ(TypeParam(static_cast<double>(kInf)).bits, F::max_bits);
  EXPECT_EQ(TypeParam(-1e300).bits, 0x80 | F::max_bits);
  EXPECT_EQ(TypeParam(int64_t{1} << 62).bits, F::max_bits);
  EXPECT_EQ(TypeParam(std::numeric_limits<uint64_t>::max()).bits, F::max_bits);
  EXPECT_EQ(TypeParam(std::numeric_limits<int32_t>::min()).bits, 0x80 | F::max_bits);
}

TEST(F8, SaturationBoundaries) {
  EXPECT_EQ(f8e4m3(464.0f).bits, 0x7e);   // halfway to the would-be 480: even is 448
  EXPECT_EQ(f8e4m3(479.0f).bits, 0x7e);
  EXPECT_EQ(f8e4m3(500.0f).bits, 0x7e);
  EXPECT_EQ(f8e4m3(-449.0f).bits, 0xfe);
  EXPECT_EQ(f8e5m2(61440.0f).bits, 0x7b);  // halfway to 65536 (infinity's place)
  EXPECT_EQ(f8e5m2(61439.0f).bits, 0x7b);
  EXPECT_EQ(f8e5m2(65536.0f).bits, 0x7b);
  EXPECT_EQ(f8e5m2(-1e6f).bits, 0xfb);
}

TYPED_TEST(F8Format, NaN) {
  // float NaNs, of either sign and any payload, become the canonical NaN 0x7f.
  EXPECT_EQ(TypeParam(kNaN).bits, 0x7f);
  EXPECT_EQ(TypeParam(-kNaN).bits, 0x7f);
  EXPECT_EQ(TypeParam(std::numeric_limits<float>::signaling_NaN()).bits, 0x7f);
  EXPECT_EQ(TypeParam(std::bit_cast<float>(0xffc00001u)).bits, 0x7f);
  // NaN propagates through arithmetic and compares unequal.
  const TypeParam n = TypeParam::from_bits(0x7f);
  EXPECT_TRUE(std::isnan(static_cast<float>(n + TypeParam(1.0f))));
  EXPECT_FALSE(n == n);
  EXPECT_FALSE(n < TypeParam(1.0f));
  EXPECT_TRUE(std::isnan(static_cast<float>(-n)));
}

TEST(F8, DoubleNaNKeepsItsSignLikeCuda) {
  // CUDA's double constructors (__nv_cvt_double_to_fp8) keep a NaN's sign; E5M2 keeps its
  // second mantissa bit as well (S.11111.1x).
  const double qnan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(f8e4m3(qnan).bits, 0x7f);
  EXPECT_EQ(f8e4m3(-qnan).bits, 0xff);
  EXPECT_EQ(f8e5m2(qnan).bits, 0x7e);
  EXPECT_EQ(f8e5m2(-qnan).bits, 0xfe);
  EXPECT_EQ(f8e5m2(std::bit_cast<double>(0x7ffc000000000000ull)).bits, 0x7f);
}

TYPED_TEST(F8Format, Subnormals) {
  using F = format<TypeParam>;
  const float s = F::min_subnormal;
  EXPECT_EQ(TypeParam(s).bits, 0x01);
  EXPECT_EQ(TypeParam(s / 2).bits, 0x00);  // a tie: even is zero
  EXPECT_EQ(TypeParam(std::nextafter(s / 2, 1.0f)).bits, 0x01);
  EXPECT_EQ(TypeParam(s * 0.75f).bits, 0x01);
  EXPECT_EQ(TypeParam(s * 1.5f).bits, 0x02);  // a tie between 1 and 2: even is 2
  EXPECT_EQ(TypeParam(s * 2.5f).bits, 0x02);  // a tie between 2 and 3
  EXPECT_EQ(TypeParam(-s / 4).bits, 0x80);   // underflows to -0
  EXPECT_EQ(TypeParam(std::numeric_limits<float>::denorm_min()).bits, 0x00);
  EXPECT_EQ(TypeParam(-std::numeric_limits<float>::denorm_min()).bits, 0x80);
  EXPECT_EQ(TypeParam(std::numeric_limits<float>::min()).bits, 0x00);
  // The largest subnormal plus half a step rounds up into the smallest normal.
  const float largest_subnormal = F::min_normal - s;
  EXPECT_EQ(static_cast<float>(TypeParam(largest_subnormal + s / 2)), F::min_normal);
  EXPECT_EQ(static_cast<float>(TypeParam(largest_subnormal)), largest_subnormal);
  // Subnormal values and their sums are exact in float.
  EXPECT_EQ(static_cast<float>(TypeParam::from_bits(0x01) + TypeParam::from_bits(0x02)), 3 * s);
}

// ---- double and integers -> f8: one rounding -------------------------------------------------------

TEST(F8, DoubleConvertsWithOneRounding) {
  // 1 + 2^-4 is the tie between 1 and 1.125 in E4M3. A double just above it rounds up; a
  // double -> float -> f8 chain would land on the tie first and round down to even (1).
  const double above = 1.0 + 0x1p-4 + 0x1p-40;
  EXPECT_EQ(static_cast<float>(above), 1.0625f);  // the float in between is the tie itself
  EXPECT_EQ(f8e4m3(static_cast<float>(above)).bits, 0x38);
  EXPECT_EQ(f8e4m3(above).bits, 0x39);
  // 1 + 3 * 2^-4 is the tie between 1.125 and 1.25 (even): just below rounds down.
  EXPECT_EQ(f8e4m3(1.0 + 3 * 0x1p-4 - 0x1p-40).bits, 0x39);
  EXPECT_EQ(f8e4m3(1.0 + 3 * 0x1p-4).bits, 0x3a);
  // E5M2: 1 + 2^-3 is the tie between 1 and 1.25.
  EXPECT_EQ(f8e5m2(1.0 + 0x1p-3 + 0x1p-40).bits, 0x3d);
  EXPECT_EQ(f8e5m2(1.0 + 0x1p-3).bits, 0x3c);
  // Near the saturation boundary and the subnormal tie.
  EXPECT_EQ(f8e4m3(464.0 + 0x1p-30).bits, 0x7e);
  EXPECT_EQ(f8e4m3(0x1p-10 + 0x1p-60).bits, 0x01);
  EXPECT_EQ(f8e4m3(0x1p-10).bits, 0x00);
  EXPECT_EQ(f8e5m2(-(0x1p-17 + 0x1p-60)).bits, 0x81);
  EXPECT_EQ(f8e5m2(-0x1p-17).bits, 0x80);
  EXPECT_EQ(f8e4m3(1e-300).bits, 0x00);
  EXPECT_EQ(f8e4m3(-1e-300).bits, 0x80);
}

TYPED_TEST(F8Format, EveryMidpointFromDoubleRoundsOnce) {
  // At every midpoint between neighbours, doubles a hair above and below (closer than float
  // resolution) go to the neighbour on their side.
  const std::vector<float> v = finite_values<TypeParam>();
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    const double mid = (static_cast<double>(v[i]) + v[i + 1]) / 2;
    const double eps = mid == 0 ? 1e-300 : std::ldexp(std::fabs(mid), -40);
    EXPECT_EQ(TypeParam(mid + eps).bits, i + 1) << mid;
    EXPECT_EQ(TypeParam(mid - eps).bits, i) << mid;
    EXPECT_EQ(TypeParam(-(mid + eps)).bits, 0x80 | (i + 1)) << mid;
  }
}

TEST(F8, IntegersConvertWithOneRounding) {
  EXPECT_EQ(static_cast<float>(f8e4m3(17)), 16.0f);  // tie between 16 and 18: even is 16
  EXPECT_EQ(static_cast<float>(f8e4m3(19)), 20.0f);  // tie between 18 and 20: even is 20
  EXPECT_EQ(static_cast<float>(f8e4m3(-300)), -288.0f);
  EXPECT_EQ(static_cast<float>(f8e4m3(1000)), 448.0f);
  EXPECT_EQ(static_cast<float>(f8e5m2(uint8_t{255})), 256.0f);
  EXPECT_EQ(static_cast<float>(f8e5m2(int64_t{100000})), 57344.0f);
  EXPECT_EQ(static_cast<float>(f8e5m2(true)), 1.0f);
  for (int i = -512; i <= 512; ++i) EXPECT_EQ(f8e4m3(i).bits, f8e4m3(static_cast<float>(i)).bits) << i;
}

// ---- conversions between element types (tile::cast) ------------------------------------------------

TEST(F8, ConvertsToAndFromTheOtherElementTypes) {
  using tile::detail::convert;
  // E5M2 <-> f16 is exact (E5M2 is f16's top byte) for every non-NaN pattern.
  for (uint32_t b = 0; b < 256; ++b) {
    if (format<f8e5m2>::is_nan_bits(b)) continue;
    EXPECT_EQ(convert<f16>(f8e5m2::from_bits(static_cast<uint8_t>(b))).bits, b << 8) << b;
    EXPECT_EQ(convert<f8e5m2>(f16::from_bits(static_cast<uint16_t>(b << 8))).bits,
              format<f8e5m2>::is_inf_bits(b) ? (b & 0x80) | 0x7b : b)
        << b;
  }
  // Between the two f8 formats: correctly rounded, saturating.
  EXPECT_EQ(convert<f8e4m3>(f8e5m2(57344.0f)).bits, 0x7e);
  EXPECT_EQ(convert<f8e4m3>(f8e5m2::from_bits(0xfc)).bits, 0xfe);  // -inf saturates
  EXPECT_EQ(static_cast<float>(convert<f8e5m2>(f8e4m3(1.125f))), 1.0f);  // tie: even
  EXPECT_EQ(static_cast<float>(convert<f8e5m2>(f8e4m3(1.375f))), 1.5f);  // tie: even
  EXPECT_EQ(convert<f8e5m2>(f8e4m3::from_bits(0xff)).bits, 0x7f);        // NaN
  // f16 and bf16 sources round once (they are exact in float).
  EXPECT_EQ(convert<f8e4m3>(f16(1.0625f)).bits, 0x38);
  EXPECT_EQ(convert<f8e4m3>(tile::bf16(-3.0f)).bits, f8e4m3(-3.0f).bits);
  // To integers: truncation toward zero, saturating, NaN to 0; to bool: != 0.
  EXPECT_EQ(convert<int32_t>(f8e4m3(-448.0f)), -448);
  EXPECT_EQ(convert<int8_t>(f8e4m3(448.0f)), 127);
  EXPECT_EQ(convert<uint8_t>(f8e5m2(-2.0f)), 0);
  EXPECT_EQ(convert<int32_t>(f8e4m3::from_bits(0x7f)), 0);
  EXPECT_EQ(convert<int32_t>(f8e5m2::from_bits(0x7c)), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(convert<int32_t>(f8e4m3(2.75f)), 2);
  EXPECT_FALSE(convert<bool>(f8e4m3::from_bits(0x80)));
  EXPECT_TRUE(convert<bool>(f8e4m3::from_bits(0x01)));
  EXPECT_EQ(convert<double>(f8e5m2(0.375f)), 0.375);
  EXPECT_EQ(convert<f8e4m3>(int32_t{-5}).bits, f8e4m3(-5.0f).bits);
  EXPECT_EQ(convert<f8e4m3>(2.5).bits, f8e4m3(2.5f).bits);
}

TEST(F8, CastOfTiles) {
  const auto x = tile::iota<float, 8>() * 100.0f - 300.0f;  // -300 ... 400
  const auto e4 = tile::cast<f8e4m3>(x);
  const auto e5 = tile::cast<f8e5m2>(x);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(e4(i).bits, f8e4m3(x(i)).bits) << i;
    EXPECT_EQ(e5(i).bits, f8e5m2(x(i)).bits) << i;
  }
  EXPECT_EQ(tile::cast<float>(e4)(0), -288.0f);
  EXPECT_EQ(tile::cast<int32_t>(tile::cast<f8e4m3>(tile::full<float, 4>(1e9f)))(0), 448);
  const auto bits = tile::bitcast<uint8_t>(e4);
  EXPECT_EQ(bits(3), f8e4m3(0.0f).bits);
  EXPECT_EQ(tile::bitcast<f8e4m3>(bits)(7).bits, e4(7).bits);
}

// ---- arithmetic ----------------------------------------------------------------------------------

TEST(F8, ArithmeticIsComputedInFloatAndRoundedBack) {
  EXPECT_EQ(static_cast<float>(f8e4m3(1.5f) + f8e4m3(2.25f)), 3.75f);
  EXPECT_EQ(static_cast<float>(f8e4m3(3.0f) * f8e4m3(-0.5f)), -1.5f);
  EXPECT_EQ(static_cast<float>(f8e4m3(1.0f) / f8e4m3(3.0f)), 0.34375f);  // 1/3 rounded to 3 bits
  EXPECT_EQ(static_cast<float>(f8e4m3(16.0f) + f8e4m3(1.0f)), 16.0f);    // 17: tie to even
  EXPECT_EQ(static_cast<float>(f8e4m3(448.0f) + f8e4m3(448.0f)), 448.0f);  // saturates
  EXPECT_EQ(static_cast<float>(f8e4m3(-448.0f) * f8e4m3(2.0f)), -448.0f);
  EXPECT_EQ(static_cast<float>(f8e5m2(1.0f) + f8e5m2(0.125f)), 1.0f);   // 1.125: tie to even
  EXPECT_EQ(static_cast<float>(f8e5m2(57344.0f) * f8e5m2(2.0f)), 57344.0f);
  EXPECT_EQ(static_cast<float>(f8e5m2::from_bits(0x7c) - f8e5m2(1.0f)), 57344.0f);  // inf saturates
  EXPECT_EQ(static_cast<float>(-f8e4m3(2.0f)), -2.0f);
  EXPECT_EQ((-f8e4m3(0.0f)).bits, 0x80);
  EXPECT_TRUE(f8e4m3(1.0f) < f8e4m3(2.0f));
  EXPECT_TRUE(f8e5m2(2.0f) >= f8e5m2(2.0f));
  EXPECT_TRUE(f8e4m3(0.0f) == -f8e4m3(0.0f));
  EXPECT_TRUE(f8e4m3(1.0f) != f8e4m3(1.125f));
  // Exhaustively: + and * agree with float arithmetic rounded once (sums and products of two
  // f8 values are exact in float, so this is the correctly rounded result).
  for (uint32_t a = 0; a < 256; ++a)
    for (uint32_t b = 0; b < 256; ++b) {
      const auto x = f8e4m3::from_bits(static_cast<uint8_t>(a));
      const auto y = f8e4m3::from_bits(static_cast<uint8_t>(b));
      ASSERT_EQ((x + y).bits, f8e4m3(static_cast<float>(x) + static_cast<float>(y)).bits);
      ASSERT_EQ((x * y).bits, f8e4m3(static_cast<double>(static_cast<float>(x)) * static_cast<float>(y)).bits);
    }
}

// ---- tiles ---------------------------------------------------------------------------------------

TEST(F8, TileOperationsAndMath) {
  const auto a = tile::cast<f8e4m3>(tile::iota<float, 8>() - 4.0f);  // -4 ... 3
  const auto b = a * 2.0f + 1.0f;  // scalars are converted to f8e4m3 first
  for (int i = 0; i < 8; ++i) EXPECT_EQ(static_cast<float>(b(i)), 2.0f * static_cast<float>(i - 4) + 1.0f);
  EXPECT_EQ(static_cast<float>((a * 200.0f)(0)), -448.0f);  // -800 saturates
  EXPECT_EQ(static_cast<float>(tile::abs(a)(0)), 4.0f);
  EXPECT_EQ(tile::abs(tile::full<f8e4m3, 2>(f8e4m3::from_bits(0x80)))(0).bits, 0x00);
  EXPECT_EQ(static_cast<float>(tile::max(a, 0.0f)(1)), 0.0f);
  EXPECT_EQ(static_cast<float>(tile::min(a, f8e4m3(-3.0f))(7)), -3.0f);
  EXPECT_TRUE((a < 0.0f)(3));
  EXPECT_FALSE((a < 0.0f)(4));
  EXPECT_EQ(static_cast<float>(tile::sqrt(tile::full<f8e5m2, 4>(f8e5m2(16.0f)))(0)), 4.0f);
  EXPECT_EQ(static_cast<float>(tile::exp(tile::zeros<f8e4m3, 4>())(0)), 1.0f);
  // exp(1) = 2.718... rounds to 2.75 in E4M3 and 2.5 in E5M2.
  EXPECT_EQ(static_cast<float>(tile::exp(tile::ones<f8e4m3, 4>())(0)), 2.75f);
  EXPECT_EQ(static_cast<float>(tile::exp(tile::ones<f8e5m2, 4>())(0)), 2.5f);
  EXPECT_EQ(static_cast<float>(tile::fma(a, a, 1.0f)(0)), 16.0f);  // 17 in float, then a tie: 16
  EXPECT_EQ(static_cast<float>(tile::pow(tile::full<f8e4m3, 2>(f8e4m3(2.0f)), 3.0f)(1)), 8.0f);
  EXPECT_EQ(static_cast<float>(tile::where(a > 0.0f, a, f8e4m3(-1.0f))(0)), -1.0f);
  EXPECT_EQ(static_cast<float>(tile::where(a > 0.0f, a, f8e4m3(-1.0f))(7)), 3.0f);
}

TEST(F8, ReductionsAccumulateInFloat) {
  // 1 followed by 31 times 1/16: in E4M3 a running sum would stay at 1 (1 + 1/16 ties to 1);
  // accumulated in float it is 2.9375, rounded once to 3.
  auto t = tile::full<f8e4m3, 32>(f8e4m3(0.0625f));
  t = tile::where(tile::iota<int32_t, 32>() == 0, f8e4m3(1.0f), t);
  EXPECT_EQ(static_cast<float>(tile::sum(t)), 3.0f);
  const auto c = tile::cumsum<0>(t);  // each output rounded from the float running sum
  EXPECT_EQ(static_cast<float>(c(0)), 1.0f);
  EXPECT_EQ(static_cast<float>(c(1)), 1.0f);  // 1.0625: tie to even
  EXPECT_EQ(static_cast<float>(c(2)), 1.125f);
  EXPECT_EQ(static_cast<float>(c(31)), 3.0f);
  // Sums beyond the largest value saturate once, at the end.
  EXPECT_EQ(static_cast<float>(tile::sum(tile::full<f8e4m3, 4>(f8e4m3(300.0f)))), 448.0f);
  EXPECT_EQ(static_cast<float>(tile::prod(tile::full<f8e5m2, 4>(f8e5m2(0.5f)))), 0.0625f);
  const auto m = tile::cast<f8e5m2>(tile::reshape<2, 4>(tile::iota<float, 8>()) - 3.0f);
  EXPECT_EQ(static_cast<float>(tile::max<1>(m)(1)), 4.0f);
  EXPECT_EQ(static_cast<float>(tile::min<0>(m)(2)), -1.0f);
  EXPECT_EQ(tile::argmax<1>(m)(0), 3);
  EXPECT_EQ(tile::argmin<0>(tile::iota<f8e4m3, 4>()), 0);
  // NaN is ignored by max unless every element is NaN.
  const auto n = tile::where(tile::iota<int32_t, 4>() == 2, f8e4m3::from_bits(0x7f), tile::iota<f8e4m3, 4>());
  EXPECT_EQ(static_cast<float>(tile::max(n)), 3.0f);
  EXPECT_EQ(tile::argmax<0>(n), 3);
}

// ---- mma -----------------------------------------------------------------------------------------

/// A tile whose element number i (row-major) is the value with bit pattern pattern(i).
template <class T, int... D, class F>
Tile<T, D...> from_patterns(F pattern) {
  Tile<T, D...> t;
  auto& s = tile::detail::TileAccess::storage(t);
  for (int64_t i = 0; i < Tile<T, D...>::size; ++i) s[static_cast<std::size_t>(i)] = T::from_bits(pattern(i));
  return t;
}

/// acc + a x b in float with the products in increasing k, one rounding per addition.
template <class A, class B, int M, int K, int N>
Tile<float, M, N> reference_mma(const Tile<A, M, K>& a, const Tile<B, K, N>& b, const Tile<float, M, N>& acc) {
  Tile<float, M, N> out = acc;
  auto& o = tile::detail::TileAccess::storage(out);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      float s = acc(m, n);
      for (int64_t k = 0; k < K; ++k) {
        const double p = static_cast<double>(static_cast<float>(a(m, k))) * static_cast<float>(b(k, n));
        EXPECT_EQ(static_cast<double>(static_cast<float>(p)), p) << "product not exact in float";
        s += static_cast<float>(p);
      }
      o[static_cast<std::size_t>(m * N + n)] = s;
    }
  return out;
}

/// Finite patterns spread over the whole format, sign included.
template <class T>
uint8_t finite_pattern(int64_t i, int64_t seed) {
  for (int64_t j = i * 37 + seed * 101;; ++j) {
    const auto b = static_cast<uint8_t>((j * 73) & 0xff);
    if (!format<T>::is_nan_bits(b) && !format<T>::is_inf_bits(b)) return b;
  }
}

template <class A, class B>
void expect_mma_matches_reference() {
  const auto a = from_patterns<A, 16, 32>([](int64_t i) { return finite_pattern<A>(i, 1); });
  const auto b = from_patterns<B, 32, 8>([](int64_t i) { return finite_pattern<B>(i, 2); });
  const auto acc = tile::cast<float>(tile::reshape<16, 8>(tile::iota<int32_t, 128>()));
  const auto got = tile::mma(a, b, acc);
  const auto want = reference_mma(a, b, acc);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) EXPECT_EQ(bits_of(got(m, n)), bits_of(want(m, n))) << m << ", " << n;
}

TEST(F8, MmaHasExactProductsAndAddsInKOrder) {
  static_assert(std::is_same_v<decltype(tile::matmul(Tile<f8e4m3, 16, 32>{}, Tile<f8e4m3, 32, 8>{})),
                               Tile<float, 16, 8>>);
  static_assert(std::is_same_v<decltype(tile::mma(Tile<f8e4m3, 2, 16, 32>{}, Tile<f8e5m2, 2, 32, 8>{},
                                                  Tile<float, 2, 16, 8>{})),
                               Tile<float, 2, 16, 8>>);
  expect_mma_matches_reference<f8e4m3, f8e4m3>();
  expect_mma_matches_reference<f8e5m2, f8e5m2>();
  expect_mma_matches_reference<f8e4m3, f8e5m2>();  // mixed f8 inputs, as the FP8 tensor cores allow
  expect_mma_matches_reference<f8e5m2, f8e4m3>();
  // Extreme products stay exact: 448 * 448, 57344 * 57344, and subnormal * subnormal.
  EXPECT_EQ(tile::matmul(tile::full<f8e4m3, 1, 1>(f8e4m3(448.0f)), tile::full<f8e4m3, 1, 1>(f8e4m3(448.0f)))(0, 0),
            200704.0f);
  EXPECT_EQ(tile::matmul(tile::full<f8e5m2, 1, 1>(f8e5m2(57344.0f)), tile::full<f8e5m2, 1, 1>(f8e5m2(-57344.0f)))(0, 0),
            -3288334336.0f);
  EXPECT_EQ(tile::matmul(tile::full<f8e5m2, 1, 2>(f8e5m2::from_bits(0x01)), tile::full<f8e5m2, 2, 1>(f8e5m2::from_bits(0x01)))(0, 0),
            0x1p-31f);
  // Integer products: compare with integer arithmetic.
  const auto ai = tile::cast<f8e4m3>(tile::reshape<4, 8>(tile::iota<float, 32>()) - 16.0f);  // -16 .. 15
  const auto bi = tile::cast<f8e5m2>(tile::reshape<8, 4>(tile::iota<float, 32>()) / 4.0f);  // 0 .. 7.75
  const auto ci = tile::matmul(ai, bi);
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) {
      double want = 0;
      for (int k = 0; k < 8; ++k)
        want += static_cast<double>(static_cast<float>(ai(m, k))) * static_cast<float>(bi(k, n));
      EXPECT_EQ(ci(m, n), want);
    }
}

// ---- element-type facts ------------------------------------------------------------------------------

TEST(F8, TypeTraits) {
  static_assert(sizeof(f8e4m3) == 1 && sizeof(f8e5m2) == 1);
  static_assert(std::is_trivially_copyable_v<f8e4m3> && std::is_trivially_copyable_v<f8e5m2>);
  static_assert(tile::element_type<f8e4m3> && tile::element_type<f8e5m2>);
  static_assert(tile::floating_element<f8e4m3> && tile::floating_element<f8e5m2>);
  static_assert(tile::ordered_element<f8e4m3> && tile::arithmetic_element<f8e5m2>);
  static_assert(!tile::integer_element<f8e4m3> && !tile::bitwise_element<f8e5m2>);
  static_assert(tile::detail::dtype_of<f8e4m3>() == tile::detail::DType::F8E4M3);
  static_assert(tile::detail::dtype_of<f8e5m2>() == tile::detail::DType::F8E5M2);
  static_assert(tile::detail::type_name<f8e4m3>() == "f8e4m3");
  static_assert(tile::detail::type_name<f8e5m2>() == "f8e5m2");
  static_assert(!std::is_convertible_v<float, f8e4m3> && !std::is_convertible_v<f8e4m3, float>);  // explicit
  // Conversions are constexpr.
  static_assert(f8e4m3(448.0f).bits == 0x7e && f8e5m2(1.0).bits == 0x3c);
  static_assert(static_cast<float>(f8e4m3::from_bits(0x01)) == 0x1p-9f);
  static_assert(static_cast<float>(f8e4m3(1.5f) + f8e4m3(1.5f)) == 3.0f);
}

TEST(F8, ArraysAndDLPack) {
  const auto o = tile::ones<f8e4m3>({3}).to_host();
  EXPECT_EQ(o[2].bits, 0x38);
  const auto r = tile::arange<f8e5m2>(10).to_host();
  EXPECT_EQ(static_cast<float>(r[7]), 7.0f);
  EXPECT_EQ(static_cast<float>(r[9]), 8.0f);  // 9 ties to even (8) with 2 mantissa bits
  const std::vector<f8e4m3> v{f8e4m3(1.0f), f8e4m3(-2.0f), f8e4m3::from_bits(0x7f), f8e4m3(448.0f)};
  const auto back = tile::from_host(v, {2, 2}).to_host();
  ASSERT_EQ(back.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(back[i].bits, v[i].bits);
  EXPECT_EQ(tile::full<f8e5m2>({2}, f8e5m2(-3.0f)).to_host()[1].bits, f8e5m2(-3.0f).bits);

  DLManagedTensor* t = tile::to_dlpack(tile::zeros<f8e4m3>({4}));
  EXPECT_EQ(t->dl_tensor.dtype.code, 10);  // kDLFloat8_e4m3fn (DLPack 1.1), as PyTorch's float8_e4m3fn
  EXPECT_EQ(t->dl_tensor.dtype.bits, 8);
  try {
    (void)tile::from_dlpack<f8e5m2>(t);
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds float8_e4m3fn elements, not float8_e5m2"), std::string::npos)
        << e.what();
  }
  DLManagedTensor* u = tile::to_dlpack(tile::ones<f8e5m2>({4}));
  EXPECT_EQ(u->dl_tensor.dtype.code, 12);  // kDLFloat8_e5m2
  EXPECT_EQ(tile::from_dlpack<f8e5m2>(u).to_host()[3].bits, 0x3c);
}

// ---- a kernel on the CPU backend ---------------------------------------------------------------------

/// z = f8(x * scale) (a quantisation), and w = the product of the quantised x with itself as a
/// matrix (mma with f8 inputs), and back = the dequantised values.
template <int B>
TILE_KERNEL void quantize(Tensor<f8e4m3, B>& q, Tensor<float, B>& back, const Tensor<float, dyn>& x, float scale) {
  const auto v = tile::cast<f8e4m3>(tile::load_tile_like(x, q) * scale);
  q.store(v);
  back.store(tile::cast<float>(v) / scale);
}

template <int M, int N, int K>
TILE_KERNEL void gemm_f8(Tensor<float, M, N>& c, const Tensor<f8e4m3, dyn, dyn>& a, const Tensor<f8e5m2, dyn, dyn>& b,
                         f8e4m3 alpha) {
  auto acc = tile::zeros<float, M, N>();
  const auto ap = a.template partition<M, K>();
  const auto bp = b.template partition<K, N>();
  for (int64_t k = 0; k < tile::num_tiles(ap, 1); ++k)
    acc = tile::mma(ap.load(tile::block_id(0), k), bp.load(k, tile::block_id(1)), acc);
  c.store(acc * static_cast<float>(alpha));
}

TEST(F8, KernelOnTheCpu) {
  std::vector<float> xs(1000);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = std::sin(static_cast<float>(i)) * 3.0f;
  auto x = tile::from_host(xs);
  auto q = tile::zeros<f8e4m3>({1000});
  auto back = tile::zeros<float>({1000});
  tile::launch<quantize<128>>(q.partition_mut<128>(), back.partition_mut<128>(), x, 100.0f).sync();
  const auto qh = q.to_host();
  const auto bh = back.to_host();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_EQ(qh[i].bits, f8e4m3(xs[i] * 100.0f).bits) << i;  // saturates above 448
    EXPECT_EQ(bh[i], static_cast<float>(qh[i]) / 100.0f) << i;
  }

  constexpr int M = 32, N = 16, K = 64;
  std::vector<f8e4m3> ah(M * K);
  std::vector<f8e5m2> bh2(K * N);
  for (std::size_t i = 0; i < ah.size(); ++i) ah[i] = f8e4m3::from_bits(finite_pattern<f8e4m3>(static_cast<int64_t>(i), 3));
  for (std::size_t i = 0; i < bh2.size(); ++i) bh2[i] = f8e5m2(static_cast<int>(i % 7) - 3);
  auto a = tile::from_host(ah, {M, K});
  auto b = tile::from_host(bh2, {K, N});
  auto c = tile::zeros<float>({M, N});
  tile::launch<gemm_f8<16, 8, 16>>(c.partition_mut<16, 8>(), a, b, f8e4m3(2.0f)).sync();
  const auto ch = c.to_host();
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      // The kernel adds the products in increasing k (tile after tile, each in k order).
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += static_cast<float>(ah[static_cast<std::size_t>(m * K + k)]) * static_cast<float>(bh2[static_cast<std::size_t>(k * N + n)]);
      EXPECT_EQ(ch[static_cast<std::size_t>(m * N + n)], s * 2.0f) << m << ", " << n;
    }
}

}  // namespace
