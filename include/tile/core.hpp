// tile/core.hpp - the vocabulary every other tile header builds on.
//
//  * the kernel annotations TILE_KERNEL, TILE_UNSAFE and TILE_TRUSTED(why);
//  * `tile::dyn`, the marker for a run-time extent;
//  * the 16-bit floating-point storage types `tile::f16` and `tile::bf16`;
//  * the element-type traits (`tile::element_type`, `tile::floating_element`, ...) and the
//    mapping of element types to the ABI's `detail::DType` and to printable names.
//
// Nothing here allocates or touches a device; it is plain constexpr C++20.
#pragma once

#include <bit>
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

static_assert(sizeof(f16) == 2 && sizeof(bf16) == 2);

namespace detail {
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, f16> || std::is_same_v<T, bf16>;
template <class H>
concept half = is_half_v<H>;
}  // namespace detail

// Arithmetic and comparisons of the 16-bit types, computed in float and rounded back.

template <detail::half H>
constexpr H operator+(H a, H b) {
  return H(float(a) + float(b));
}
template <detail::half H>
constexpr H operator-(H a, H b) {
  return H(float(a) - float(b));
}
template <detail::half H>
constexpr H operator*(H a, H b) {
  return H(float(a) * float(b));
}
template <detail::half H>
constexpr H operator/(H a, H b) {
  return H(float(a) / float(b));
}
template <detail::half H>
constexpr H operator-(H a) {
  return H::from_bits(uint16_t(a.bits ^ 0x8000u));
}
template <detail::half H>
constexpr bool operator==(H a, H b) {
  return float(a) == float(b);
}
template <detail::half H>
constexpr bool operator<(H a, H b) {
  return float(a) < float(b);
}
template <detail::half H>
constexpr bool operator<=(H a, H b) {
  return float(a) <= float(b);
}
template <detail::half H>
constexpr bool operator>(H a, H b) {
  return float(a) > float(b);
}
template <detail::half H>
constexpr bool operator>=(H a, H b) {
  return float(a) >= float(b);
}

// ---- element-type traits -------------------------------------------------------------------

/// The element types a Tile or Tensor may hold.
template <class T>
concept element_type = std::is_same_v<T, bool> || std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double> || detail::is_half_v<T>;

/// float, double, f16, bf16.
template <class T>
concept floating_element = std::is_floating_point_v<T> || detail::is_half_v<T>;

/// The integer element types (bool excluded).
template <class T>
concept integer_element = element_type<T> && std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// Elements with + - * / (everything but bool).
template <class T>
concept arithmetic_element = element_type<T> && !std::is_same_v<T, bool>;

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
/// floating to integer, correctly rounded into f16/bf16, `!= 0` into bool.
template <class U, class T>
constexpr U convert(T v) {
  if constexpr (std::is_same_v<U, T>) {
    return v;
  } else if constexpr (is_half_v<T>) {
    return convert<U>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<U, bool>) {
    return v != T{0};
  } else if constexpr (is_half_v<U>) {
    return U(v);
  } else if constexpr (std::is_integral_v<U> && std::is_floating_point_v<T>) {
    return saturating_to_int<U>(v);
  } else {
    return static_cast<U>(v);
  }
}

}  // namespace detail
}  // namespace tile
