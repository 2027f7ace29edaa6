// tile/core.hpp - the vocabulary every other tile header builds on.
//
//  * the kernel annotations TILE_KERNEL, TILE_UNSAFE and TILE_TRUSTED(why);
//  * `tile::dyn`, the marker for a run-time extent;
//  * the narrow floating-point storage types `tile::f16`, `tile::bf16` (16 bits) and
//    `tile::f8e4m3`, `tile::f8e5m2` (OCP FP8, 8 bits);
//  * `tile::complex<float>`, two floats (real, imaginary), laid out like CUDA's cuComplex;
//  * the element-type traits (`tile::element_type`, `tile::floating_element`, ...) and the
//    mapping of element types to the ABI's `detail::DType` and to printable names;
//  * `detail::convert`, the element conversion behind `tile::cast`.
//
// Narrow floats are storage types: conversions into them are explicit and round to nearest even
// (f8 saturates, see f8e4m3), and their arithmetic and comparisons are computed in float with
// the result rounded back. complex<float> has + - * / == != (no ordering) and conj, abs, real,
// imag. Nothing here allocates or touches a device; it is plain C++20, constexpr except where a
// square root is taken (tile::abs of a complex).
#pragma once

#include <bit>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "tile/detail/abi.hpp"

// Kernel annotations. Under clang (tilecc, the clang plugin, clangd) they become
// `annotate` attributes that the analyses look for; other compilers see nothing.
// TILE_KERNEL_CONFIG(num_warps = 8) beside TILE_KERNEL overrides what the compiler chooses
// from the tile shapes (the number of warps per tile program: 1, 2, 4, 8, 16 or 32).
#if defined(__clang__)
#define TILE_KERNEL [[clang::annotate("tile.kernel")]]
#define TILE_KERNEL_CONFIG(...) [[clang::annotate("tile.kernel_config", #__VA_ARGS__)]]
#define TILE_UNSAFE [[clang::annotate("tile.unsafe")]]
#define TILE_TRUSTED(why) [[clang::annotate("tile.trusted", why)]]
#else
#define TILE_KERNEL
#define TILE_KERNEL_CONFIG(...)
#define TILE_UNSAFE
#define TILE_TRUSTED(why)
#endif

namespace tile {

using std::int16_t;
using std::int32_t;
using std::int64_t;
using std::int8_t;
using std::uint16_t;
using std::uint32_t;
using std::uint64_t;
using std::uint8_t;

/// A tensor extent known only at run time: `tile::Tensor<float, tile::dyn>`.
inline constexpr int64_t dyn = -1;

namespace detail {

/// For static_asserts that must fire only when a template is instantiated.
template <class...>
inline constexpr bool false_for_types = false;
template <auto...>
inline constexpr bool false_for_values = false;

/// Rounds a double to a float with round-to-odd, so that a second rounding to a narrower
/// format gives the correctly rounded result of the original double.
constexpr float to_float_round_odd(double d) {
  float f = static_cast<float>(d);
  if (d == d && static_cast<double>(f) != d) {
    uint32_t b = std::bit_cast<uint32_t>(f);
    if ((b & 1u) == 0) {
      const bool too_big = (f < 0 ? -static_cast<double>(f) : static_cast<double>(f)) > (d < 0 ? -d : d);
      b = too_big ? b - 1 : b + 1;
      f = std::bit_cast<float>(b);
    }
  }
  return f;
}

constexpr uint16_t float_to_half_bits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u)  // inf or NaN (NaN stays quiet and keeps its top payload bits)
    return static_cast<uint16_t>(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u | ((ax >> 13) & 0x3ffu) : 0u));
  if (ax >= 0x477ff000u)  // rounds to a magnitude >= 65520: overflow to infinity
    return static_cast<uint16_t>(sign | 0x7c00u);
  const int e = static_cast<int>(ax >> 23) - 127;
  if (e >= -14) {  // normal half
    const uint32_t m = ax & 0x7fffffu;
    uint32_t h = (static_cast<uint32_t>(e + 15) << 10) | (m >> 13);
    const uint32_t rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry bumps the exponent: correct
    return static_cast<uint16_t>(sign | h);
  }
  if (e < -25) return static_cast<uint16_t>(sign);  // below half the smallest subnormal
  const uint32_t m = (ax & 0x7fffffu) | 0x800000u;
  const int shift = -(e + 1);  // 14..24
  uint32_t h = m >> shift;
  const uint32_t rem = m & ((1u << shift) - 1u);
  const uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

constexpr float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu;
  const uint32_t m = h & 0x3ffu;
  if (e == 0) {
    const float v = static_cast<float>(m) * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return sign ? -v : v;
  }
  if (e == 31) return std::bit_cast<float>(sign | 0x7f800000u | (m << 13));
  return std::bit_cast<float>(sign | ((e + 112u) << 23) | (m << 13));
}

constexpr uint16_t float_to_bf16_bits(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

constexpr float bf16_bits_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

}  // namespace detail

/// IEEE binary16. Storage only: conversions are explicit and round to nearest even;
/// arithmetic converts to float and rounds the result back.
struct f16 {
  uint16_t bits = 0;

  constexpr f16() = default;
  template <class S>
  requires std::is_arithmetic_v<S>
  constexpr explicit f16(S v)
      : bits(detail::float_to_half_bits(std::is_same_v<S, double> || std::is_integral_v<S>
                                            ? detail::to_float_round_odd(static_cast<double>(v))
                                            : static_cast<float>(v))) {}
  constexpr explicit operator float() const { return detail::half_bits_to_float(bits); }
  static constexpr f16 from_bits(uint16_t b) {
    f16 h;
    h.bits = b;
    return h;
  }
};

/// bfloat16 (8-bit exponent, 7-bit mantissa). Same conventions as f16.
struct bf16 {
  uint16_t bits = 0;

  constexpr bf16() = default;
  template <class S>
  requires std::is_arithmetic_v<S>
  constexpr explicit bf16(S v)
      : bits(detail::float_to_bf16_bits(std::is_same_v<S, double> || std::is_integral_v<S>
                                            ? detail::to_float_round_odd(static_cast<double>(v))
                                            : static_cast<float>(v))) {}
  constexpr explicit operator float() const { return detail::bf16_bits_to_float(bits); }
  static constexpr bf16 from_bits(uint16_t b) {
    bf16 h;
    h.bits = b;
    return h;
  }
};

namespace detail {

/// An OCP 8-bit floating-point format: a sign bit, `exp_bits` exponent bits with bias `bias`,
/// `man_bits` mantissa bits, subnormals. With `ieee` the all-ones exponent holds infinity and
/// NaNs as in IEEE 754 (E5M2); without it (E4M3 "FN") there is no infinity and only S.1111.111
/// is NaN, so the all-ones exponent holds normal numbers as well.
struct f8_format {
  int exp_bits;
  int man_bits;
  int bias;
  bool ieee;
};
inline constexpr f8_format e4m3_format{4, 3, 7, false};
inline constexpr f8_format e5m2_format{5, 2, 15, true};

/// The NaN that every conversion into an f8 format produces from a float NaN (sign dropped).
inline constexpr uint8_t f8_canonical_nan = 0x7f;

/// The bit pattern of the largest finite magnitude: 448 (0x7e) in E4M3, 57344 (0x7b) in E5M2.
template <f8_format F>
inline constexpr uint32_t f8_max_finite_bits =
    F.ieee ? ((((1u << F.exp_bits) - 2u) << F.man_bits) | ((1u << F.man_bits) - 1u)) : 0x7eu;

/// float -> f8: round to nearest, ties to even; a result beyond the largest finite value, and
/// infinity, saturate to the largest finite value of the same sign; NaN gives the canonical NaN
/// 0x7f. This is CUDA's `__nv_cvt_float_to_fp8(x, __NV_SATFINITE, ...)` (the conversion of the
/// `__nv_fp8_e4m3` / `__nv_fp8_e5m2` constructors and of `cvt.rn.satfinite`).
template <f8_format F>
constexpr uint8_t float_to_f8_bits(float f) {
  constexpr int M = F.man_bits;
  constexpr int emin = 1 - F.bias;  // the exponent of the smallest normal number
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (x >> 24) & 0x80u;
  const uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return f8_canonical_nan;
  if (ax == 0x7f800000u) return static_cast<uint8_t>(sign | f8_max_finite_bits<F>);
  const int e = static_cast<int>(ax >> 23) - 127;  // float subnormals (e = -127) flush below
  if (e < emin - M - 1) return static_cast<uint8_t>(sign);  // below half the smallest subnormal
  uint32_t q;         // the result truncated (biased exponent and mantissa, no sign)
  uint32_t rem;       // the bits shifted out
  uint32_t half_ulp;  // their value at the rounding midpoint
  if (e >= emin) {
    constexpr int shift = 23 - M;
    q = (static_cast<uint32_t>(e + F.bias) << M) | ((ax & 0x7fffffu) >> shift);
    rem = ax & ((1u << shift) - 1u);
    half_ulp = 1u << (shift - 1);
  } else {  // a subnormal result: shift the significand, implicit bit included, into place
    const uint32_t significand = (ax & 0x7fffffu) | 0x800000u;
    const int shift = 23 - M + (emin - e);  // 24 - M ... 24
    q = significand >> shift;
    rem = significand & ((1u << shift) - 1u);
    half_ulp = 1u << (shift - 1);
  }
  // A carry out of the mantissa raises the exponent, which is the correct result.
  if (rem > half_ulp || (rem == half_ulp && (q & 1u))) ++q;
  if (q > f8_max_finite_bits<F>) q = f8_max_finite_bits<F>;  // saturate (also E4M3's 0x7f, E5M2's inf)
  return static_cast<uint8_t>(sign | q);
}

/// double -> f8 with a single rounding (the rules of float_to_f8_bits), which is what CUDA's
/// `__nv_cvt_double_to_fp8(x, __NV_SATFINITE, ...)` computes. NaN follows that function too: it
/// keeps the sign, and E5M2 keeps the top mantissa bit: S.11111.1x (x the NaN's second bit).
template <f8_format F>
constexpr uint8_t double_to_f8_bits(double d) {
  const uint64_t x = std::bit_cast<uint64_t>(d);
  const uint32_t sign = static_cast<uint32_t>(x >> 56) & 0x80u;
  if (d != d) {
    if constexpr (F.ieee)
      return static_cast<uint8_t>(sign | 0x7eu | (static_cast<uint32_t>(x >> 50) & 0x3u));
    else
      return static_cast<uint8_t>(sign | 0x7fu);
  }
  // Far beyond every f8 range (and infinity): saturate before narrowing to float, which could
  // overflow. Otherwise round to float with round-to-odd, so that the rounding to f8 is single.
  if ((d < 0 ? -d : d) > 1.0e9) return static_cast<uint8_t>(sign | f8_max_finite_bits<F>);
  return float_to_f8_bits<F>(to_float_round_odd(d));
}

/// f8 -> float, exact. Every NaN gives the canonical float NaN 0x7fffffff, as CUDA's conversion
/// operators do.
template <f8_format F>
constexpr float f8_bits_to_float(uint8_t b) {
  constexpr int M = F.man_bits;
  constexpr uint32_t exp_all = (1u << F.exp_bits) - 1u;
  const uint32_t sign = static_cast<uint32_t>(b & 0x80u) << 24;
  const uint32_t e = (static_cast<uint32_t>(b) >> M) & exp_all;
  const uint32_t m = b & ((1u << M) - 1u);
  const bool nan = F.ieee ? (e == exp_all && m != 0) : (b & 0x7fu) == 0x7fu;
  if (nan) return std::bit_cast<float>(0x7fffffffu);
  if (F.ieee && e == exp_all) return std::bit_cast<float>(sign | 0x7f800000u);
  if (e == 0) {  // zero or subnormal: m * 2^(1 - bias - M), exact
    const float ulp = std::bit_cast<float>(static_cast<uint32_t>(127 + 1 - F.bias - M) << 23);
    const float v = static_cast<float>(m) * ulp;
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((e + static_cast<uint32_t>(127 - F.bias)) << 23) | (m << (23 - M)));
}

/// The f8 bits of an arithmetic value: floats directly, everything else (double, integers) with
/// one rounding through double.
template <f8_format F, class S>
constexpr uint8_t to_f8_bits(S v) {
  if constexpr (std::is_same_v<S, float>)
    return float_to_f8_bits<F>(v);
  else
    return double_to_f8_bits<F>(static_cast<double>(v));
}

}  // namespace detail

/// OCP FP8 E4M3 ("FN" variant, CUDA's `__nv_fp8_e4m3`): bias 7, 3 mantissa bits, subnormals,
/// largest finite value 448, no infinity, NaN = S.1111.111. Storage only, like f16: conversions
/// are explicit and round to nearest even (doubles and integers with a single rounding); a value
/// beyond +-448, and +-infinity, saturates to +-448 (CUDA's __NV_SATFINITE); a float NaN becomes
/// 0x7f, a double NaN 0x7f or 0xff by its sign (both as CUDA's constructors). Arithmetic is
/// computed in float and rounded back (saturating likewise). Conversion to float is exact; a NaN
/// gives the float NaN 0x7fffffff.
struct f8e4m3 {
  uint8_t bits = 0;

  constexpr f8e4m3() = default;
  template <class S>
  requires std::is_arithmetic_v<S>
  constexpr explicit f8e4m3(S v) : bits(detail::to_f8_bits<detail::e4m3_format>(v)) {}
  constexpr explicit operator float() const { return detail::f8_bits_to_float<detail::e4m3_format>(bits); }
  static constexpr f8e4m3 from_bits(uint8_t b) {
    f8e4m3 h;
    h.bits = b;
    return h;
  }
};

/// OCP FP8 E5M2 (CUDA's `__nv_fp8_e5m2`): bias 15, 2 mantissa bits, subnormals, IEEE-like
/// infinities (S.11111.00) and NaNs (S.11111.xx), largest finite value 57344. Conversions into
/// it follow f8e4m3: round to nearest even, saturate to +-57344 -- infinity included, as CUDA's
/// __NV_SATFINITE conversion does -- and a float NaN becomes 0x7f (a double NaN S.11111.1x, see
/// double_to_f8_bits). So infinity arises only from from_bits (or bitcast), and arithmetic on
/// it saturates too.
struct f8e5m2 {
  uint8_t bits = 0;

  constexpr f8e5m2() = default;
  template <class S>
  requires std::is_arithmetic_v<S>
  constexpr explicit f8e5m2(S v) : bits(detail::to_f8_bits<detail::e5m2_format>(v)) {}
  constexpr explicit operator float() const { return detail::f8_bits_to_float<detail::e5m2_format>(bits); }
  static constexpr f8e5m2 from_bits(uint8_t b) {
    f8e5m2 h;
    h.bits = b;
    return h;
  }
};

static_assert(sizeof(f16) == 2 && sizeof(bf16) == 2 && sizeof(f8e4m3) == 1 && sizeof(f8e5m2) == 1);

namespace detail {
/// f16, bf16, f8e4m3 and f8e5m2: floating-point storage types computed in float.
template <class T>
inline constexpr bool is_narrow_float_v = std::is_same_v<T, f16> || std::is_same_v<T, bf16> ||
                                          std::is_same_v<T, f8e4m3> || std::is_same_v<T, f8e5m2>;
template <class H>
concept narrow_float = is_narrow_float_v<H>;
}  // namespace detail

// Arithmetic and comparisons of the narrow floats, computed in float and rounded back.

template <detail::narrow_float H>
constexpr H operator+(H a, H b) {
  return H(float(a) + float(b));
}
template <detail::narrow_float H>
constexpr H operator-(H a, H b) {
  return H(float(a) - float(b));
}
template <detail::narrow_float H>
constexpr H operator*(H a, H b) {
  return H(float(a) * float(b));
}
template <detail::narrow_float H>
constexpr H operator/(H a, H b) {
  return H(float(a) / float(b));
}
/// Flips the sign bit (of NaNs too, as on the GPU).
template <detail::narrow_float H>
constexpr H operator-(H a) {
  using B = decltype(a.bits);
  return H::from_bits(static_cast<B>(a.bits ^ (1u << (8 * sizeof(B) - 1))));
}
template <detail::narrow_float H>
constexpr bool operator==(H a, H b) {
  return float(a) == float(b);
}
template <detail::narrow_float H>
constexpr bool operator<(H a, H b) {
  return float(a) < float(b);
}
template <detail::narrow_float H>
constexpr bool operator<=(H a, H b) {
  return float(a) <= float(b);
}
template <detail::narrow_float H>
constexpr bool operator>(H a, H b) {
  return float(a) > float(b);
}
template <detail::narrow_float H>
constexpr bool operator>=(H a, H b) {
  return float(a) >= float(b);
}

// ---- complex ---------------------------------------------------------------------------------

/// A complex number: the real part, then the imaginary part, 8 bytes aligned to 8 like CUDA's
/// cuComplex (float2). Only complex<float> exists. It converts implicitly from a float (imaginary
/// part 0), as std::complex does.
///
/// Arithmetic, each operation on floats rounded to float (no fused multiply-add):
///   (a + bi) +- (c + di) = (a +- c) + (b +- d)i
///   (a + bi) * (c + di)  = (ac - bd) + (ad + bc)i
///   (a + bi) / (c + di)  = ((ac + bd) / s) + ((bc - ad) / s)i   with s = cc + dd
/// The division is this textbook formula, not a scaled one (std::complex, cuCdivf): s overflows
/// to inf once |c| or |d| exceeds about 1.8e19, and loses precision below about 1e-19 (to 0
/// below about 4e-23), giving 0, inf or NaN parts where a careful algorithm would not. Division
/// by 0 gives NaN parts. == compares both parts.
/// There is no ordering: <, tile::max/min and the max/min/argmax/argmin reductions reject it.
template <class T>
struct alignas(2 * sizeof(T)) complex {
  static_assert(std::is_same_v<T, float>, "tile::complex<T>: only complex<float> is an element type");

  using value_type = T;

  constexpr complex() = default;
  constexpr complex(T re, T im = T{}) : re_(re), im_(im) {}  // NOLINT(google-explicit-constructor)

  constexpr T real() const { return re_; }
  constexpr T imag() const { return im_; }

  friend constexpr complex operator+(complex a, complex b) { return {a.re_ + b.re_, a.im_ + b.im_}; }
  friend constexpr complex operator-(complex a, complex b) { return {a.re_ - b.re_, a.im_ - b.im_}; }
  friend constexpr complex operator*(complex a, complex b) {
    // One product per statement, so that no compiler contracts a product and a sum into an fma.
    const T ac = a.re_ * b.re_;
    const T bd = a.im_ * b.im_;
    const T ad = a.re_ * b.im_;
    const T bc = a.im_ * b.re_;
    return {ac - bd, ad + bc};
  }
  friend constexpr complex operator/(complex a, complex b) {
    const T cc = b.re_ * b.re_;
    const T dd = b.im_ * b.im_;
    const T s = cc + dd;
    const T ac = a.re_ * b.re_;
    const T bd = a.im_ * b.im_;
    const T bc = a.im_ * b.re_;
    const T ad = a.re_ * b.im_;
    const T re = ac + bd;
    const T im = bc - ad;
    return {re / s, im / s};
  }
  friend constexpr complex operator-(complex a) { return {-a.re_, -a.im_}; }
  friend constexpr bool operator==(complex a, complex b) { return a.re_ == b.re_ && a.im_ == b.im_; }

 private:
  T re_ = 0;
  T im_ = 0;
};

static_assert(sizeof(complex<float>) == 8 && alignof(complex<float>) == 8);

/// The real part.
template <class T>
constexpr T real(const complex<T>& z) {
  return z.real();
}
/// The imaginary part.
template <class T>
constexpr T imag(const complex<T>& z) {
  return z.imag();
}
/// The complex conjugate a - bi.
template <class T>
constexpr complex<T> conj(const complex<T>& z) {
  return {z.real(), -z.imag()};
}
/// The magnitude sqrt(a^2 + b^2) as float(sqrt(double(a) * a + double(b) * b)): the products
/// are exact in double, the sum and the square root are rounded to nearest double, then the
/// result to nearest float (so no overflow or underflow for finite parts). A NaN part gives NaN,
/// else an infinite part gives +inf.
template <class T>
T abs(const complex<T>& z) {
  const double a = z.real();
  const double b = z.imag();
  return static_cast<T>(std::sqrt(a * a + b * b));
}

namespace detail {
template <class T>
inline constexpr bool is_complex_v = false;
template <class T>
inline constexpr bool is_complex_v<complex<T>> = true;
}  // namespace detail

// ---- element-type traits -------------------------------------------------------------------

/// The element types a Tile or Tensor may hold.
template <class T>
concept element_type = std::is_same_v<T, bool> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double> || detail::is_narrow_float_v<T> ||
    std::is_same_v<T, complex<float>>;

/// float, double, f16, bf16, f8e4m3, f8e5m2 (the math functions; not complex).
template <class T>
concept floating_element = std::is_floating_point_v<T> || detail::is_narrow_float_v<T>;

/// complex<float>.
template <class T>
concept complex_element = std::is_same_v<T, complex<float>>;

/// The integer element types (bool excluded).
template <class T>
concept integer_element = element_type<T> && std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// Elements with + - * / (everything but bool; complex included).
template <class T>
concept arithmetic_element = element_type<T> && !std::is_same_v<T, bool>;

/// Numbers with an order: < <= > >=, min, max and the max/min/argmax/argmin reductions
/// (arithmetic elements but complex).
template <class T>
concept ordered_element = arithmetic_element<T> && !complex_element<T>;

/// Elements with & | ^ ~ (integers and bool).
template <class T>
concept bitwise_element = element_type<T> && std::is_integral_v<T>;

namespace detail {

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>)
    return DType::Bool;
  else if constexpr (std::is_same_v<T, int8_t>)
    return DType::I8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return DType::I16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::I32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return DType::I64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return DType::U8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return DType::U16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return DType::U32;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return DType::U64;
  else if constexpr (std::is_same_v<T, f16>)
    return DType::F16;
  else if constexpr (std::is_same_v<T, bf16>)
    return DType::BF16;
  else if constexpr (std::is_same_v<T, f8e4m3>)
    return DType::F8E4M3;
  else if constexpr (std::is_same_v<T, f8e5m2>)
    return DType::F8E5M2;
  else if constexpr (std::is_same_v<T, complex<float>>)
    return DType::C64;
  else if constexpr (std::is_same_v<T, float>)
    return DType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::F64;
  else
    static_assert(false_for_types<T>, "tile: not an element type");
}

/// The name of an element type as it is written in tile code ("float", "int32_t", "f16").
template <class T>
constexpr std::string_view type_name() {
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32_t";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64_t";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8_t";
  else if constexpr (std::is_same_v<T, uint16_t>)
    return "uint16_t";
  else if constexpr (std::is_same_v<T, uint32_t>)
    return "uint32_t";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "uint64_t";
  else if constexpr (std::is_same_v<T, f16>)
    return "f16";
  else if constexpr (std::is_same_v<T, bf16>)
    return "bf16";
  else if constexpr (std::is_same_v<T, f8e4m3>)
    return "f8e4m3";
  else if constexpr (std::is_same_v<T, f8e5m2>)
    return "f8e5m2";
  else if constexpr (std::is_same_v<T, complex<float>>)
    return "complex<float>";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, char>)
    return "char";
  else if constexpr (std::is_same_v<T, long double>)
    return "long double";
  else
    return "<non-element type>";
}

/// Integral conversion from a floating value that saturates at the limits and maps NaN to 0,
/// as the GPU's conversion instructions do (and without C++'s undefined behaviour).
template <class I, class F>
constexpr I saturating_to_int(F x) {
  constexpr int digits = std::numeric_limits<I>::digits;  // 31 for int32_t, 32 for uint32_t
  constexpr double lim = 2.0 * static_cast<double>(uint64_t{1} << (digits - 1));
  const double d = static_cast<double>(x);
  if (d != d) return I{0};
  if (d >= lim) return std::numeric_limits<I>::max();
  if constexpr (std::is_signed_v<I>) {
    if (d < -lim) return std::numeric_limits<I>::min();
  } else {
    if (d <= -1.0) return I{0};
  }
  return static_cast<I>(x);
}

/// The element conversion behind `tile::cast`: modular between integers, saturating from
/// floating to integer, correctly rounded into the narrow floats (f8 saturating, see f8e4m3),
/// `!= 0` into bool. A real value becomes a complex with imaginary part 0 (converted to float
/// first); a complex converts to a real type through its real part, the imaginary part dropped,
/// and to bool as `real != 0 || imag != 0` (the rules of C's complex types).
template <class U, class T>
constexpr U convert(T v) {
  if constexpr (std::is_same_v<U, T>) {
    return v;
  } else if constexpr (is_complex_v<T>) {
    if constexpr (std::is_same_v<U, bool>)
      return v.real() != 0 || v.imag() != 0;
    else
      return convert<U>(v.real());
  } else if constexpr (is_narrow_float_v<T>) {
    return convert<U>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<U, bool>) {
    return v != T{0};
  } else if constexpr (is_complex_v<U>) {
    return U(convert<typename U::value_type>(v));
  } else if constexpr (is_narrow_float_v<U>) {
    return U(v);
  } else if constexpr (std::is_integral_v<U> && std::is_floating_point_v<T>) {
    return saturating_to_int<U>(v);
  } else {
    return static_cast<U>(v);
  }
}

}  // namespace detail
}  // namespace tile
