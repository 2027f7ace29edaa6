// Element type complex<float>: layout, arithmetic (the documented formulas), conversions, tiles,
// reductions and kernels on the CPU backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "tile/dlpack.hpp"
#include "tile/tile.hpp"

namespace {

using tile::dyn;
using tile::Tensor;
using tile::Tile;
using c64 = tile::complex<float>;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

uint32_t bits_of(float x) { return std::bit_cast<uint32_t>(x); }

/// Both parts equal, bit for bit (so -0 and +0 differ, and NaNs must both be NaN).
#define EXPECT_SAME_COMPLEX(a, b)                                                                      \
  do {                                                                                                  \
    const c64 a_ = (a), b_ = (b);                                                                       \
    EXPECT_TRUE(bits_of(a_.real()) == bits_of(b_.real()) ||                                             \
                (std::isnan(a_.real()) && std::isnan(b_.real())))                                       \
        << a_.real() << " vs " << b_.real();                                                            \
    EXPECT_TRUE(bits_of(a_.imag()) == bits_of(b_.imag()) ||                                             \
                (std::isnan(a_.imag()) && std::isnan(b_.imag())))                                       \
        << a_.imag() << " vs " << b_.imag();                                                            \
  } while (0)

// ---- the scalar type ------------------------------------------------------------------------------

TEST(Complex, LayoutIsTwoFloatsLikeCuComplex) {
  static_assert(sizeof(c64) == 8 && alignof(c64) == 8);
  static_assert(std::is_trivially_copyable_v<c64> && std::is_standard_layout_v<c64>);
  static_assert(std::is_same_v<c64::value_type, float>);
  // The real part first, then the imaginary part (as float2's x and y).
  const auto parts = std::bit_cast<std::array<float, 2>>(c64(1.5f, -2.0f));
  EXPECT_EQ(parts[0], 1.5f);
  EXPECT_EQ(parts[1], -2.0f);
  const c64 z = std::bit_cast<c64>(std::array<float, 2>{3.0f, 4.0f});
  EXPECT_EQ(z.real(), 3.0f);
  EXPECT_EQ(z.imag(), 4.0f);
  // The same layout as std::complex<float>, so host data converts by copying.
  static_assert(sizeof(std::complex<float>) == sizeof(c64));
  const auto s = std::bit_cast<std::complex<float>>(c64(5.0f, 6.0f));
  EXPECT_EQ(s, std::complex<float>(5.0f, 6.0f));
}

TEST(Complex, ConstructionAndParts) {
  constexpr c64 zero;
  static_assert(zero.real() == 0.0f && zero.imag() == 0.0f);
  constexpr c64 r = 2.5f;  // implicit from a real, imaginary part 0
  static_assert(r.real() == 2.5f && r.imag() == 0.0f);
  static_assert(tile::real(c64(1, 2)) == 1.0f && tile::imag(c64(1, 2)) == 2.0f);
  static_assert(tile::conj(c64(1, 2)) == c64(1, -2));
  EXPECT_TRUE(std::signbit(tile::conj(c64(1, 0)).imag()));  // conj negates: 0 becomes -0
}

TEST(Complex, ArithmeticFollowsTheDocumentedFormulas) {
  static_assert(c64(1, 2) + c64(3, 4) == c64(4, 6));
  static_assert(c64(1, 2) - c64(3, 5) == c64(-2, -3));
  static_assert(c64(1, 2) * c64(3, 4) == c64(-5, 10));
  static_assert(-c64(1, -2) == c64(-1, 2));
  static_assert(c64(1, 2) != c64(1, 3));
  static_assert(c64(2, 0) == 2.0f && 2.0f == c64(2, 0) && c64(2, 1) != 2.0f);
  static_assert(c64(1, 2) * 2.0f == c64(2, 4));
  // (1 + 2i) / (3 + 4i) = ((3 + 8) + (6 - 4)i) / 25, each step rounded to float.
  const c64 q = c64(1, 2) / c64(3, 4);
  EXPECT_EQ(q.real(), 11.0f / 25.0f);
  EXPECT_EQ(q.imag(), 2.0f / 25.0f);
  // Against the formulas evaluated step by step in float, on awkward values.
  const float a = 1.1f, b = -2.3e-3f, c = 7.7f, d = 0.3f;
  const c64 x(a, b), y(c, d);
  volatile float t1 = a * c, t2 = b * d, t3 = a * d, t4 = b * c;  // volatile: no fma contraction
  EXPECT_SAME_COMPLEX(x * y, c64(t1 - t2, t3 + t4));
  volatile float cc = c * c, dd = d * d;
  const float s = cc + dd;
  volatile float ac = a * c, bd = b * d, bc = b * c, ad = a * d;
  EXPECT_SAME_COMPLEX(x / y, c64((ac + bd) / s, (bc - ad) / s));
}

TEST(Complex, MultiplicationRoundsEachProduct) {
  // z * z for z = x + xi has real part x*x - x*x: exactly 0 when each product is rounded to
  // float, the rounding error of x*x if a fused multiply-add were used.
  const float x = 1.0f + 0x1p-12f;
  EXPECT_EQ(bits_of((c64(x, x) * c64(x, x)).real()), 0u);
  EXPECT_EQ((c64(x, x) * c64(x, -x)).imag(), 0.0f);
}

TEST(Complex, DivisionIsTheTextbookFormula) {
  // Division by zero: s = 0 and both numerators are 0 too, so both parts are 0 / 0 = NaN.
  const c64 z = c64(1, 1) / c64(0, 0);
  EXPECT_TRUE(std::isnan(z.real()) && std::isnan(z.imag()));
  // The unscaled denominator overflows for parts beyond ~1.8e19 (std::complex scales and gets 1).
  const c64 big = c64(1e20f, 0.0f) / c64(1e20f, 0.0f);
  EXPECT_TRUE(std::isnan(big.real()));  // inf / inf
  // ... and underflows below ~1e-19.
  const c64 tiny = c64(1e-25f, 0.0f) / c64(1e-25f, 0.0f);
  EXPECT_TRUE(std::isnan(tiny.real()));  // 0 / 0
  // In range it is accurate.
  const c64 w = c64(3e10f, -4e10f) / c64(3e5f, 4e5f);
  EXPECT_NEAR(w.real(), -0.28e5f, 0.1f);
  EXPECT_NEAR(w.imag(), -0.96e5f, 0.1f);
}

TEST(Complex, Abs) {
  EXPECT_EQ(tile::abs(c64(3, 4)), 5.0f);
  EXPECT_EQ(tile::abs(c64(-3, 0)), 3.0f);
  EXPECT_EQ(tile::abs(c64(0, 0)), 0.0f);
  // Computed in double: no overflow or underflow for finite parts.
  EXPECT_EQ(tile::abs(c64(0x3p100f, 0x4p100f)), 0x5p100f);  // the squares overflow float
  EXPECT_EQ(tile::abs(c64(0x3p-100f, -0x4p-100f)), 0x5p-100f);  // ... or underflow
  EXPECT_EQ(tile::abs(c64(std::numeric_limits<float>::max(), std::numeric_limits<float>::max())), kInf);
  // float(sqrt(double(a)^2 + double(b)^2)), bit for bit.
  for (float a : {0.1f, 1.7f, -2.9e-3f, 123456.7f})
    for (float b : {0.3f, -5.5f, 1e-8f}) {
      const double d = std::sqrt(static_cast<double>(a) * a + static_cast<double>(b) * b);
      EXPECT_EQ(tile::abs(c64(a, b)), static_cast<float>(d)) << a << ", " << b;
    }
  EXPECT_EQ(tile::abs(c64(-kInf, 1.0f)), kInf);
  EXPECT_TRUE(std::isnan(tile::abs(c64(kNaN, 1.0f))));
  EXPECT_TRUE(std::isnan(tile::abs(c64(kInf, kNaN))));  // the formula: inf + NaN is NaN
}

// ---- conversions ----------------------------------------------------------------------------------

TEST(Complex, Conversions) {
  using tile::detail::convert;
  // Real -> complex: imaginary part 0, the real part converted to float.
  EXPECT_EQ(convert<c64>(2.5f), c64(2.5f, 0.0f));
  EXPECT_EQ(convert<c64>(int32_t{-7}), c64(-7.0f, 0.0f));
  EXPECT_EQ(convert<c64>(0.1), c64(0.1f, 0.0f));
  EXPECT_EQ(convert<c64>(true), c64(1.0f, 0.0f));
  EXPECT_EQ(convert<c64>(tile::f16(1.5f)), c64(1.5f, 0.0f));
  EXPECT_EQ(convert<c64>(tile::f8e4m3(448.0f)), c64(448.0f, 0.0f));
  EXPECT_EQ(convert<c64>(int64_t{16777217}), c64(16777216.0f, 0.0f));
  // Complex -> real: the real part, converted by the usual rules; the imaginary part is dropped.
  EXPECT_EQ(convert<float>(c64(1.5f, 9.0f)), 1.5f);
  EXPECT_EQ(convert<double>(c64(-0.25f, 1.0f)), -0.25);
  EXPECT_EQ(convert<int32_t>(c64(-3.9f, 100.0f)), -3);
  EXPECT_EQ(convert<int32_t>(c64(1e20f, 0.0f)), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(convert<uint8_t>(c64(kNaN, 0.0f)), 0);
  EXPECT_EQ(convert<tile::f16>(c64(65520.0f, 1.0f)).bits, 0x7c00);  // rounds to infinity
  EXPECT_EQ(convert<tile::f8e4m3>(c64(1000.0f, 1.0f)).bits, 0x7e);  // saturates
  EXPECT_EQ(convert<tile::bf16>(c64(-2.0f, 1.0f)).bits, tile::bf16(-2.0f).bits);
  // Complex -> bool: either part non-zero (as C's complex types).
  EXPECT_TRUE(convert<bool>(c64(0.0f, 1.0f)));
  EXPECT_TRUE(convert<bool>(c64(-1.0f, 0.0f)));
  EXPECT_FALSE(convert<bool>(c64(0.0f, -0.0f)));
  EXPECT_TRUE(convert<bool>(c64(kNaN, 0.0f)));
  EXPECT_EQ(convert<c64>(c64(1, 2)), c64(1, 2));
}

TEST(Complex, TypeTraits) {
  static_assert(tile::element_type<c64>);
  static_assert(tile::complex_element<c64> && tile::arithmetic_element<c64>);
  static_assert(!tile::floating_element<c64> && !tile::ordered_element<c64>);
  static_assert(!tile::integer_element<c64> && !tile::bitwise_element<c64>);
  static_assert(!tile::element_type<std::complex<float>>);
  static_assert(tile::detail::dtype_of<c64>() == tile::detail::DType::C64);
  static_assert(tile::detail::type_name<c64>() == "complex<float>");
}

// ---- tiles ----------------------------------------------------------------------------------------

/// The tile (k + 1) + (k - 2)i for element k.
template <int N>
Tile<c64, N> sample() {
  const auto k = tile::iota<float, N>();
  return tile::make_complex(k + 1.0f, k - 2.0f);
}

TEST(Complex, TileArithmetic) {
  const auto z = sample<8>();
  const auto w = tile::conj(z);
  EXPECT_EQ(z(3), c64(4, 1));
  EXPECT_EQ(w(3), c64(4, -1));
  const auto p = z * w;  // |z|^2
  for (int k = 0; k < 8; ++k) {
    const float re = static_cast<float>(k + 1), im = static_cast<float>(k - 2);
    EXPECT_EQ(p(k), c64(re * re + im * im, 0.0f)) << k;
    EXPECT_EQ((z + w)(k), c64(2 * re, 0.0f));
    EXPECT_EQ((z - w)(k), c64(0.0f, 2 * im));
    EXPECT_EQ((-z)(k), c64(-re, -im));
    EXPECT_EQ((z / z)(k), c64(1.0f, 0.0f)) << k;
  }
  // Scalars broadcast: real ones as (x, 0), complex ones as they are.
  EXPECT_EQ((z * 2.0f)(1), c64(4, -2));
  EXPECT_EQ((z + 1)(1), c64(3, -1));
  EXPECT_EQ((z * c64(0, 1))(1), c64(1, 2));  // times i
  EXPECT_EQ((c64(0, 1) * z)(1), c64(1, 2));
  auto acc = z;
  acc += c64(1, 1);
  acc *= 2.0f;
  EXPECT_EQ(acc(0), c64(4, -2));
  // == and != compare both parts.
  const auto eq = (z == c64(3, 0));
  EXPECT_TRUE(eq(2));
  EXPECT_FALSE(eq(1));
  EXPECT_TRUE((z != tile::conj(z))(0));
  EXPECT_FALSE((z != tile::conj(z))(2));  // imaginary part 0
}

TEST(Complex, TileFunctions) {
  const auto z = sample<4>();
  const auto re = tile::real(z);
  const auto im = tile::imag(z);
  static_assert(std::is_same_v<decltype(re), const Tile<float, 4>>);
  static_assert(std::is_same_v<decltype(tile::abs(z)), Tile<float, 4>>);
  EXPECT_EQ(re(2), 3.0f);
  EXPECT_EQ(im(2), 0.0f);
  EXPECT_EQ(tile::abs(tile::make_complex(tile::full<float, 2>(3.0f), -4.0f))(1), 5.0f);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(tile::abs(z)(k), tile::abs(z(k)));
  const auto back = tile::make_complex(re, im);
  EXPECT_TRUE(tile::sum(tile::cast<int32_t>(back == z)) == 4);
  // where, cast and bitcast.
  const auto sel = tile::where(re > 2.0f, z, c64(0, 0));
  EXPECT_EQ(sel(0), c64(0, 0));
  EXPECT_EQ(sel(3), c64(4, 1));
  const auto from_real = tile::cast<c64>(tile::iota<int32_t, 4>());
  EXPECT_EQ(from_real(3), c64(3, 0));
  EXPECT_EQ(tile::cast<float>(z)(1), 2.0f);  // the real part
  EXPECT_EQ(tile::cast<tile::f16>(z)(1).bits, tile::f16(2.0f).bits);
  const auto nonzero = tile::cast<bool>(tile::make_complex(tile::zeros<float, 2>(), tile::iota<float, 2>()));
  EXPECT_FALSE(nonzero(0));
  EXPECT_TRUE(nonzero(1));
  const auto raw = tile::bitcast<uint64_t>(z);
  EXPECT_EQ(raw(0), std::bit_cast<uint64_t>(c64(1, -2)));
  EXPECT_EQ(tile::bitcast<c64>(raw)(3), z(3));
  // Shape operations move complex elements like any other.
  const auto m = tile::reshape<2, 2>(z);
  EXPECT_EQ(tile::transpose(m)(0, 1), z(2));
  const auto rows = tile::broadcast<2, 4>(z);
  EXPECT_EQ(rows(1, 1), z(1));
  EXPECT_EQ((tile::iota<c64, 4>())(3), c64(3, 0));
  EXPECT_EQ((tile::ones<c64, 2>())(1), c64(1, 0));
  EXPECT_EQ((tile::zeros<c64, 2>())(1), c64(0, 0));
}

TEST(Complex, SumProdAndCumsumCombineInIndexOrder) {
  const auto z = sample<8>();
  c64 s, p(1, 0);
  std::vector<c64> running;
  for (int k = 0; k < 8; ++k) {
    s = s + z(k);
    p = p * z(k);
    running.push_back(s);
  }
  EXPECT_SAME_COMPLEX(tile::sum(z), s);
  EXPECT_EQ(tile::sum(z), c64(36, 12));
  EXPECT_SAME_COMPLEX(tile::prod(z), z(0) * z(1) * z(2) * z(3) * z(4) * z(5) * z(6) * z(7));
  const auto c = tile::cumsum<0>(z);
  for (int k = 0; k < 8; ++k) EXPECT_SAME_COMPLEX(c(k), running[static_cast<std::size_t>(k)]);
  const auto m = tile::reshape<2, 4>(z);
  EXPECT_EQ(tile::sum<1>(m)(1), z(4) + z(5) + z(6) + z(7));
  EXPECT_EQ(tile::sum<0>(m)(2), z(2) + z(6));
  EXPECT_EQ(tile::reduce<0>(z, c64(0, 0), [](c64 x, c64 y) { return x + y; }), s);
  // Reduce the magnitudes for an ordering.
  EXPECT_EQ(tile::argmax<0>(tile::abs(z)), 7);
}

// ---- arrays, DLPack and kernels ---------------------------------------------------------------------

TEST(Complex, ArraysAndDLPack) {
  EXPECT_EQ(tile::ones<c64>({3}).to_host()[2], c64(1, 0));
  EXPECT_EQ(tile::arange<c64>(5).to_host()[4], c64(4, 0));
  EXPECT_EQ(tile::zeros<c64>({2, 2}).to_host()[3], c64(0, 0));
  const std::vector<c64> v{c64(1, 2), c64(-3, 4), c64(kInf, -0.0f)};
  const auto back = tile::from_host(v).to_host();
  ASSERT_EQ(back.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_SAME_COMPLEX(back[i], v[i]);

  DLManagedTensor* t = tile::to_dlpack(tile::full<c64>({4}, c64(1, -1)));
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLComplex);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 64);
  EXPECT_EQ(tile::from_dlpack<c64>(t).to_host()[3], c64(1, -1));
}

/// z = x * y + alpha, elementwise.
template <int B>
TILE_KERNEL void cmul(Tensor<c64, B>& z, const Tensor<c64, dyn>& x, const Tensor<c64, dyn>& y, c64 alpha) {
  z.store(tile::load_tile_like(x, z) * tile::load_tile_like(y, z) + alpha);
}

/// Each program: the magnitudes of its piece, and the piece's sum into one element of `sums`.
template <int B>
TILE_KERNEL void magnitudes(Tensor<float, B>& mag, Tensor<c64, 1>& sums, const Tensor<c64, dyn>& x) {
  const auto t = tile::load_tile_like(x, mag);
  mag.store(tile::abs(t));
  sums.store(tile::full<c64, 1>(tile::sum(t)));
}

template <int B>
TILE_KERNEL void scale_real(Tensor<float, B>& z, float s) {
  z.store(z.load() * s);
}

TEST(Complex, KernelsOnTheCpu) {
  constexpr int n = 300;
  std::vector<c64> xs(n), ys(n);
  for (int i = 0; i < n; ++i) {
    xs[static_cast<std::size_t>(i)] = c64(std::cos(0.1f * i), std::sin(0.1f * i));
    ys[static_cast<std::size_t>(i)] = c64(static_cast<float>(i % 5), -0.5f);
  }
  auto x = tile::from_host(xs);
  auto y = tile::from_host(ys);
  auto z = tile::zeros<c64>({n});
  const c64 alpha(0.25f, 2.0f);
  tile::launch<cmul<64>>(z.partition_mut<64>(), x, y, alpha).sync();
  const auto zh = z.to_host();
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) EXPECT_SAME_COMPLEX(zh[i], xs[i] * ys[i] + alpha);

  auto mag = tile::zeros<float>({n});
  auto sums = tile::zeros<c64>({5});
  tile::launch<magnitudes<64>>(mag.partition_mut<64>(), sums.partition_mut<1>(), x).sync();
  const auto mh = mag.to_host();
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) EXPECT_EQ(mh[i], tile::abs(xs[i])) << i;
  const auto sh = sums.to_host();
  for (std::size_t p = 0; p < 5; ++p) {
    c64 s;
    for (std::size_t i = p * 64; i < std::min<std::size_t>((p + 1) * 64, n); ++i) s = s + xs[i];
    EXPECT_SAME_COMPLEX(sh[p], s);  // padding past the end reads as 0 and adds nothing
  }

  // A complex value for a real scalar parameter is refused: the imaginary part would be lost.
  auto r = tile::zeros<float>({8});
  try {
    (void)tile::launch<scale_real<8>>(r.partition_mut<8>(), c64(1, 1));
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    EXPECT_NE(std::string(e.what()).find("its imaginary part would be lost"), std::string::npos) << e.what();
  }
}

}  // namespace
