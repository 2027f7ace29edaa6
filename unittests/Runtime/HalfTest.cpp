// Element types: f16 / bf16 rounding and the conversions behind tile::cast.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "tile/tile.hpp"

namespace {

using tile::bf16;
using tile::f16;

TEST(Half, ExactValuesRoundTrip) {
  for (float v : {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 65504.0f, -65504.0f, 0.099975586f, 6.1035156e-05f}) {
    EXPECT_EQ(static_cast<float>(f16(v)), v) << v;
  }
  EXPECT_EQ(f16(1.0f).bits, 0x3c00);
  EXPECT_EQ(f16(-2.0f).bits, 0xc000);
  EXPECT_EQ(f16(65504.0f).bits, 0x7bff);
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  EXPECT_EQ(f16(1.0f + std::ldexp(1.0f, -11)).bits, 0x3c00);
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 and 1 + 2^-9: even is 1 + 2^-9.
  EXPECT_EQ(f16(1.0f + 3 * std::ldexp(1.0f, -11)).bits, 0x3c02);
  // Just above the halfway point rounds up.
  EXPECT_EQ(f16(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)).bits, 0x3c01);
}

TEST(Half, OverflowSubnormalsAndSpecials) {
  EXPECT_EQ(f16(65519.0f).bits, 0x7bff);  // below the rounding boundary
  EXPECT_EQ(f16(65520.0f).bits, 0x7c00);  // rounds to infinity
  EXPECT_EQ(f16(-1e10f).bits, 0xfc00);
  EXPECT_EQ(f16(std::numeric_limits<float>::infinity()).bits, 0x7c00);
  EXPECT_TRUE(std::isnan(static_cast<float>(f16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(f16(std::ldexp(1.0f, -24)).bits, 0x0001);  // smallest subnormal
  EXPECT_EQ(f16(std::ldexp(1.0f, -25)).bits, 0x0000);  // half of it: tie to even (zero)
  EXPECT_EQ(f16(std::ldexp(1.5f, -25)).bits, 0x0001);
  EXPECT_EQ(f16(-std::ldexp(1.0f, -26)).bits, 0x8000);  // underflows to -0
  EXPECT_EQ(static_cast<float>(f16::from_bits(0x0001)), std::ldexp(1.0f, -24));
  EXPECT_EQ(static_cast<float>(f16::from_bits(0x03ff)), std::ldexp(1023.0f, -24));
  // The largest subnormal plus a bit rounds up into the smallest normal.
  EXPECT_EQ(f16(std::ldexp(1023.75f, -24)).bits, 0x0400);
}

TEST(Half, EveryBitPatternRoundTrips) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const f16 h = f16::from_bits(static_cast<uint16_t>(b));
    const float f = static_cast<float>(h);
    if (std::isnan(f)) continue;
    EXPECT_EQ(f16(f).bits, b) << std::hex << b;
  }
}

TEST(Half, DoubleConvertsWithOneRounding) {
  // 1 + 2^-11 + 2^-40 is just above a tie in f16; a double -> float -> f16 chain with two
  // round-to-nearest steps would land on the tie and round down.
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(f16(d).bits, 0x3c01);
  EXPECT_EQ(f16(2049).bits, f16(2048.0f).bits);  // integers: 2049 ties to even 2048
  EXPECT_EQ(f16(2051).bits, f16(2052.0f).bits);
}

TEST(Half, Arithmetic) {
  EXPECT_EQ(static_cast<float>(f16(1.5f) + f16(2.25f)), 3.75f);
  EXPECT_EQ(static_cast<float>(f16(3.0f) * f16(-0.5f)), -1.5f);
  EXPECT_EQ(static_cast<float>(-f16(2.0f)), -2.0f);
  EXPECT_TRUE(f16(1.0f) < f16(2.0f));
  EXPECT_TRUE(f16(1.0f) == f16(1.0f));
  EXPECT_TRUE(f16(1.0f) != f16(2.0f));
  // 2048 + 1 is not representable: the sum rounds back to 2048.
  EXPECT_EQ(static_cast<float>(f16(2048.0f) + f16(1.0f)), 2048.0f);
}

TEST(BFloat16, Conversions) {
  EXPECT_EQ(bf16(1.0f).bits, 0x3f80);
  EXPECT_EQ(static_cast<float>(bf16(-3.0f)), -3.0f);
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: rounds to even (1).
  EXPECT_EQ(bf16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);
  EXPECT_EQ(bf16(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3f82);
  EXPECT_EQ(bf16(std::numeric_limits<float>::infinity()).bits, 0x7f80);
  EXPECT_TRUE(std::isnan(static_cast<float>(bf16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(bf16(std::numeric_limits<float>::max()).bits, 0x7f80);  // rounds up to infinity
  EXPECT_EQ(static_cast<float>(bf16(1.0f) + bf16(2.0f)), 3.0f);
}

TEST(Convert, FloatToIntSaturatesAndMapsNanToZero) {
  using tile::detail::convert;
  EXPECT_EQ(convert<int32_t>(3.9f), 3);
  EXPECT_EQ(convert<int32_t>(-3.9f), -3);
  EXPECT_EQ(convert<int32_t>(1e20f), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(convert<int32_t>(-1e20f), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(convert<int32_t>(std::numeric_limits<float>::quiet_NaN()), 0);
  EXPECT_EQ(convert<uint8_t>(300.0), 255);
  EXPECT_EQ(convert<uint8_t>(-5.0f), 0);
  EXPECT_EQ(convert<uint8_t>(-0.5f), 0);
  EXPECT_EQ(convert<int64_t>(9.3e18), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(convert<uint64_t>(1.8e19), static_cast<uint64_t>(1.8e19));
  EXPECT_EQ(convert<uint64_t>(1.9e19), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(convert<int8_t>(f16(-100.7f)), -100);
}

TEST(Convert, IntegersWrapAndBoolIsNonZero) {
  using tile::detail::convert;
  EXPECT_EQ(convert<uint8_t>(int32_t{257}), 1);
  EXPECT_EQ(convert<int8_t>(int32_t{200}), -56);
  EXPECT_TRUE(convert<bool>(0.5f));
  EXPECT_FALSE(convert<bool>(int64_t{0}));
  EXPECT_EQ(convert<float>(true), 1.0f);
  EXPECT_EQ(convert<f16>(int32_t{3}).bits, f16(3.0f).bits);
  EXPECT_EQ(convert<bf16>(f16(1.5f)).bits, bf16(1.5f).bits);
}

}  // namespace
