// tile/matmul.hpp: mma and matmul, their types, exactness, TF32 rounding and summation order.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include "tile/tile.hpp"

namespace {

using tile::bf16;
using tile::f16;
using tile::Tile;

/// A tile whose element number i (row-major) is f(i).
template <class T, int... D, class F>
Tile<T, D...> make(F f) {
  Tile<T, D...> t;
  auto& s = tile::detail::TileAccess::storage(t);
  for (int64_t i = 0; i < Tile<T, D...>::size; ++i) s[static_cast<std::size_t>(i)] = static_cast<T>(f(i));
  return t;
}

/// A small integer in [-4, 4] that depends on i and a seed, exact in f16, bf16 and TF32.
int64_t small_int(int64_t i, int64_t seed) { return (i * 7 + seed * 3 + (i / 5) * 11) % 9 - 4; }

float tf32(float x) { return tile::detail::round_to_tf32(x); }
uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }

// ---- result types --------------------------------------------------------------------------------

TEST(Matmul, ResultTypes) {
  static_assert(
      std::is_same_v<decltype(tile::mma(Tile<f16, 16, 32>{}, Tile<f16, 32, 8>{}, Tile<float, 16, 8>{})),
                     Tile<float, 16, 8>>);
  static_assert(std::is_same_v<decltype(tile::matmul(Tile<bf16, 16, 32>{}, Tile<bf16, 32, 64>{})),
                               Tile<float, 16, 64>>);
  static_assert(std::is_same_v<decltype(tile::matmul(Tile<float, 4, 16, 32>{}, Tile<float, 4, 32, 8>{})),
                               Tile<float, 4, 16, 8>>);
  static_assert(std::is_same_v<decltype(tile::mma(Tile<f16, 2, 8, 4>{}, Tile<f16, 2, 4, 16>{},
                                                  Tile<float, 2, 8, 16>{})),
                               Tile<float, 2, 8, 16>>);
}

TEST(Matmul, IsConstexpr) {
  constexpr auto a = tile::reshape<2, 2>(tile::iota<float, 4>());  // [[0, 1], [2, 3]]
  static_assert(tile::matmul(a, a)(1, 1) == 11.0f);
  static_assert(tile::mma(a, a, tile::ones<float, 2, 2>())(0, 0) == 3.0f);
}

// ---- small exact cases ---------------------------------------------------------------------------

/// The 2 x 2 example [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]] for input type T.
template <class T>
void expect_two_by_two() {
  auto a = make<T, 2, 2>([](int64_t i) { return static_cast<float>(i + 1); });
  auto b = make<T, 2, 2>([](int64_t i) { return static_cast<float>(i + 5); });
  auto c = tile::matmul(a, b);
  EXPECT_EQ(c(0, 0), 19.0f);
  EXPECT_EQ(c(0, 1), 22.0f);
  EXPECT_EQ(c(1, 0), 43.0f);
  EXPECT_EQ(c(1, 1), 50.0f);
}

/// A 8 x 16 times 16 x 4 product of small integers, against integer arithmetic.
template <class T>
void expect_integer_product() {
  auto a = make<T, 8, 16>([](int64_t i) { return static_cast<float>(small_int(i, 1)); });
  auto b = make<T, 16, 4>([](int64_t i) { return static_cast<float>(small_int(i, 2)); });
  auto c = tile::matmul(a, b);
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 4; ++n) {
      int64_t want = 0;
      for (int k = 0; k < 16; ++k) want += small_int(m * 16 + k, 1) * small_int(k * 4 + n, 2);
      EXPECT_EQ(c(m, n), static_cast<float>(want)) << "at " << m << ", " << n;
    }
}

TEST(Matmul, SmallIntegersExactF16) {
  expect_two_by_two<f16>();
  expect_integer_product<f16>();
}

TEST(Matmul, SmallIntegersExactBF16) {
  expect_two_by_two<bf16>();
  expect_integer_product<bf16>();
}

TEST(Matmul, SmallIntegersExactFloat) {
  expect_two_by_two<float>();
  expect_integer_product<float>();
}

TEST(Matmul, HalfProductsAreExactInFloat) {
  // 2047 and 2047 * 2^-10 use all 11 significand bits of f16; 255 uses all 8 of bf16. Their
  // products need 22 and 16 bits: exact in float, not in the input type.
  auto h = tile::matmul(tile::full<f16, 1, 1>(f16(2047.0f)), tile::full<f16, 1, 1>(f16(2047.0f)));
  EXPECT_EQ(h(0, 0), 4190209.0f);
  const f16 x(2047.0f / 1024.0f);
  auto g = tile::matmul(tile::full<f16, 1, 1>(x), tile::full<f16, 1, 1>(-x));
  EXPECT_EQ(g(0, 0), -4190209.0f / 1048576.0f);
  EXPECT_NE(static_cast<float>(x * x), 4190209.0f / 1048576.0f);  // the f16 product rounds
  auto b = tile::matmul(tile::full<bf16, 1, 1>(bf16(255.0f)), tile::full<bf16, 1, 1>(bf16(-255.0f)));
  EXPECT_EQ(b(0, 0), -65025.0f);
}

// ---- accumulation --------------------------------------------------------------------------------

TEST(Matmul, AccumulatesOntoAcc) {
  auto a = make<f16, 4, 8>([](int64_t i) { return static_cast<float>(small_int(i, 3)); });
  auto b = make<f16, 8, 4>([](int64_t i) { return static_cast<float>(small_int(i, 4)); });
  auto acc = make<float, 4, 4>([](int64_t i) { return 100.0f * static_cast<float>(i) - 250.5f; });
  auto c = tile::mma(a, b, acc);
  auto p = tile::matmul(a, b);
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) EXPECT_EQ(c(m, n), acc(m, n) + p(m, n)) << "at " << m << ", " << n;
  // Chained: the accumulator of a K-split is the result of the previous part.
  auto twice = tile::mma(a, b, tile::mma(a, b, acc));
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) EXPECT_EQ(twice(m, n), acc(m, n) + 2.0f * p(m, n));
}

TEST(Matmul, AddsToAccInIncreasingKOrder) {
  // Products 2^24, 1, -2^24, 0 after acc = 0: 2^24 + 1 rounds back to 2^24 (ties to even), so
  // the result is 0, not the exact 1. (The GPU's order may give 1: within float rounding.)
  auto a = make<float, 1, 4>([](int64_t k) {
    return k == 0 ? 16777216.0f : k == 1 ? 1.0f : k == 2 ? -16777216.0f : 0.0f;
  });
  auto ones = tile::ones<float, 4, 1>();
  EXPECT_EQ(tile::matmul(a, ones)(0, 0), 0.0f);
  // acc comes first: 2^24 + 1 + 1 stays 2^24, where adding the products' sum 2 first would not.
  auto b = tile::full<float, 1, 2>(1.0f);
  EXPECT_EQ(tile::mma(b, tile::ones<float, 2, 1>(), tile::full<float, 1, 1>(16777216.0f))(0, 0), 16777216.0f);
}

TEST(Matmul, MatmulEqualsMmaWithZeros) {
  auto a =
      make<bf16, 16, 8>([](int64_t i) { return 0.37f * static_cast<float>(small_int(i, 5)) + 0.01f * i; });
  auto b = make<bf16, 8, 32>([](int64_t i) { return -0.11f * static_cast<float>(i % 13) + 0.5f; });
  auto c = tile::matmul(a, b);
  auto d = tile::mma(a, b, tile::zeros<float, 16, 32>());
  for (int64_t i = 0; i < c.size; ++i) EXPECT_EQ(bits(c.data()[i]), bits(d.data()[i])) << "element " << i;

  auto x = make<float, 2, 4, 8>([](int64_t i) { return std::sin(static_cast<float>(i)); });
  auto y = make<float, 2, 8, 4>([](int64_t i) { return std::cos(static_cast<float>(i)); });
  auto z = tile::matmul(x, y);
  auto w = tile::mma(x, y, tile::zeros<float, 2, 4, 4>());
  for (int64_t i = 0; i < z.size; ++i) EXPECT_EQ(bits(z.data()[i]), bits(w.data()[i])) << "element " << i;
}

// ---- batched -------------------------------------------------------------------------------------

TEST(Matmul, BatchedMultipliesEachBatch) {
  auto a = make<f16, 4, 8, 16>([](int64_t i) { return static_cast<float>(small_int(i, 6)); });
  auto b = make<f16, 4, 16, 2>([](int64_t i) { return static_cast<float>(small_int(i, 7)); });
  auto acc = make<float, 4, 8, 2>([](int64_t i) { return static_cast<float>(i % 5); });
  auto c = tile::mma(a, b, acc);
  for (int bt = 0; bt < 4; ++bt) {
    // Batch bt is the rank-2 mma of the batch's slices.
    auto c2 = tile::mma(tile::reshape<8, 16>(tile::extract<1, 8, 16>(a, bt, 0, 0)),
                        tile::reshape<16, 2>(tile::extract<1, 16, 2>(b, bt, 0, 0)),
                        tile::reshape<8, 2>(tile::extract<1, 8, 2>(acc, bt, 0, 0)));
    for (int m = 0; m < 8; ++m)
      for (int n = 0; n < 2; ++n) {
        int64_t want = static_cast<int64_t>(acc(bt, m, n));
        for (int k = 0; k < 16; ++k)
          want += small_int((bt * 8 + m) * 16 + k, 6) * small_int((bt * 16 + k) * 2 + n, 7);
        EXPECT_EQ(c(bt, m, n), static_cast<float>(want)) << "at " << bt << ", " << m << ", " << n;
        EXPECT_EQ(c(bt, m, n), c2(m, n));
      }
  }
}

// ---- TF32 rounding of float inputs ---------------------------------------------------------------

TEST(Matmul, RoundToTF32KeepsTenMantissaBits) {
  const float ulp = std::ldexp(1.0f, -10);  // the TF32 spacing at 1
  EXPECT_EQ(tf32(1.0f), 1.0f);
  EXPECT_EQ(tf32(1.0f + ulp), 1.0f + ulp);
  EXPECT_EQ(tf32(1.0f + std::ldexp(1.0f, -12)), 1.0f);                      // below half: down
  const float above_half = 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20);
  EXPECT_EQ(tf32(above_half), 1.0f + ulp);                                  // above half: up
  EXPECT_EQ(tf32(1.0f + std::ldexp(1.0f, -11)), 1.0f);                      // tie: to even (down)
  EXPECT_EQ(tf32(1.0f + 3 * std::ldexp(1.0f, -11)), 1.0f + 2 * ulp);        // tie: to even (up)
  EXPECT_EQ(tf32(-(1.0f + 3 * std::ldexp(1.0f, -11))), -(1.0f + 2 * ulp));  // sign-symmetric
  EXPECT_EQ(tf32(std::nextafter(2.0f, 0.0f)), 2.0f);                        // a carry into the exponent
  EXPECT_EQ(bits(tf32(0.1f)) & 0x1fffu, 0u);
  EXPECT_EQ(tf32(0.1f), std::bit_cast<float>(0x3dccc000u));  // 0x3dcccccd: the dropped 0xccd < 0x1000
}

TEST(Matmul, RoundToTF32Specials) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(tf32(inf), inf);
  EXPECT_EQ(tf32(-inf), -inf);
  EXPECT_EQ(tf32(std::numeric_limits<float>::max()), inf);  // rounds past the largest TF32 value
  EXPECT_EQ(bits(tf32(0.0f)), 0u);
  EXPECT_EQ(bits(tf32(-0.0f)), 0x80000000u);
  // A NaN whose payload lies only in the dropped bits stays a NaN, bit for bit.
  const float nan_low = std::bit_cast<float>(0x7f800001u);
  EXPECT_EQ(bits(tf32(nan_low)), 0x7f800001u);
  EXPECT_TRUE(std::isnan(tf32(std::numeric_limits<float>::quiet_NaN())));
  // Subnormals round in the same bit pattern: 0x1000 is a tie (to 0), 0x3000 one (to 0x4000).
  EXPECT_EQ(bits(tf32(std::bit_cast<float>(0x00001000u))), 0u);
  EXPECT_EQ(bits(tf32(std::bit_cast<float>(0x00003000u))), 0x4000u);
  EXPECT_EQ(bits(tf32(std::bit_cast<float>(0x00001001u))), 0x2000u);
}

TEST(Matmul, FloatInputsAreRoundedToTF32) {
  // a * 1 shows each rounded element of a; b's elements are rounded the same way.
  const float tie_down = 1.0f + std::ldexp(1.0f, -11);
  const float tie_up = 1.0f + 3 * std::ldexp(1.0f, -11);
  const float above = 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -23);
  auto a = make<float, 4, 1>([&](int64_t i) {
    return i == 0 ? tie_down : i == 1 ? tie_up : i == 2 ? above : 3.0f;
  });
  auto c = tile::matmul(a, tile::ones<float, 1, 1>());
  EXPECT_EQ(c(0, 0), 1.0f);
  EXPECT_EQ(c(1, 0), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(c(2, 0), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(c(3, 0), 3.0f);
  auto d = tile::matmul(tile::full<float, 1, 1>(2.0f), tile::full<float, 1, 1>(tie_up));
  EXPECT_EQ(d(0, 0), 2.0f + std::ldexp(1.0f, -8));
  // The accumulator is not rounded.
  auto e =
      tile::mma(tile::zeros<float, 1, 1>(), tile::zeros<float, 1, 1>(), tile::full<float, 1, 1>(tie_down));
  EXPECT_EQ(e(0, 0), tie_down);
}

// ---- a larger random case ------------------------------------------------------------------------

/// matmul of random 64 x 32 and 32 x 128 tiles of T against a double-precision sum of the
/// (rounded) inputs' products: the float error is within K * eps * sum |products|.
template <class T>
void expect_close_to_double_reference(uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  auto a = make<T, 64, 32>([&](int64_t) { return dist(gen); });
  auto b = make<T, 32, 128>([&](int64_t) { return dist(gen); });
  auto acc = make<float, 64, 128>([&](int64_t) { return dist(gen); });
  auto c = tile::mma(a, b, acc);
  const auto in = [](T x) { return static_cast<double>(tile::detail::mma_operand(x)); };
  const double eps = std::numeric_limits<float>::epsilon();
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < 128; ++n) {
      double want = acc(m, n);
      double magnitude = std::fabs(want);
      for (int k = 0; k < 32; ++k) {
        const double p = in(a(m, k)) * in(b(k, n));
        want += p;
        magnitude += std::fabs(p);
      }
      ASSERT_NEAR(c(m, n), want, 33 * eps * magnitude) << "at " << m << ", " << n;
    }
}

TEST(Matmul, RandomAgainstDoubleReference) {
  expect_close_to_double_reference<f16>(1);
  expect_close_to_double_reference<bf16>(2);
  expect_close_to_double_reference<float>(3);
}

}  // namespace
