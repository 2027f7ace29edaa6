// tile/tile_value.hpp - `tile::Tile<T, Dims...>`, the register-resident value of tile kernels,
// and everything that computes with it.
//
// A Tile is an immutable value with a compile-time shape (rank 1..4, every dimension a power of
// two) stored row-major. Operations return new tiles; a tile variable may be reassigned. The
// dimensions of every tile class (Tile, Tensor, the tiled views, Atomic) are `int` template
// arguments, so a helper written `template <int B> f(const Tile<float, B>&)` deduces B.
//   construction  zeros/ones/full<T, Dims...>(), iota<T, N>()
//   elementwise   + - * / %, unary -, == != < <= > >= (to Tile<bool>), & | ^ ~ << >>,
//                 && || ! on Tile<bool> (element by element, both sides evaluated),
//                 compound assignment (`t += x` is `t = t + x`); either operand of a binary
//                 operator may be a scalar, which is converted to the tile's element type
//                 (a complex scalar only into a complex tile)
//   math          exp exp2 log log2 sqrt rsqrt sin cos tanh floor ceil (floating tiles),
//                 abs (any number; the magnitude, a float tile, for complex), min max (ordered
//                 numbers), pow fma (floating); f16, bf16, f8e4m3, f8e5m2 computed in float
//   complex       real(t) imag(t) (float tiles), conj(t), make_complex(re, im); complex tiles
//                 have + - * / == != and no ordering (< min max are rejected)
//   selection     where(cond, a, b), cast<U>(t), bitcast<U>(t)
// The code here is the CPU reference semantics of these operations; tilecc's GPU code matches
// it, except that exp and exp2 of float run on the GPU's special function unit (a few units
// in the last place apart; results below the smallest normal float are 0). Integer + - * and unary - wrap around (two's complement); integer division by zero, and
// shifts by a negative count or by at least the bit width, are undefined, as in C++.
// Floating-to-integer `cast` saturates and maps NaN to 0.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <type_traits>

#include "tile/core.hpp"

namespace tile {

template <class T, int... Dims>
class Tile;

namespace detail {

constexpr bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

template <class X>
struct tile_traits {
  static constexpr bool is_tile = false;
};
template <class T, int... D>
struct tile_traits<Tile<T, D...>> {
  static constexpr bool is_tile = true;
  using element = T;
  template <class U>
  using rebind = Tile<U, D...>;
};

template <class X>
inline constexpr bool is_tile_v = tile_traits<std::remove_cvref_t<X>>::is_tile;

/// A value that broadcasts against a tile: any arithmetic type, a narrow float or a complex.
template <class X>
concept scalar_operand = std::is_arithmetic_v<X> || is_narrow_float_v<X> || is_complex_v<X>;
template <class X>
concept tile_operand = is_tile_v<X>;
template <class X>
concept tile_or_scalar = tile_operand<X> || scalar_operand<X>;

/// Operands of an elementwise operation: tiles or scalars, at least one of them a tile.
template <class... X>
concept elementwise_operands = (tile_or_scalar<X> && ...) && (tile_operand<X> || ...);

/// The first tile among the operands; it fixes the shape and the element type.
template <class... X>
struct first_tile;
template <class X, class... Rest>
struct first_tile<X, Rest...> {
  using type = std::conditional_t<is_tile_v<X>, X, typename first_tile<Rest...>::type>;
};
template <>
struct first_tile<> {
  using type = void;
};
template <class... X>
using first_tile_t = typename first_tile<X...>::type;

template <class A, class B>
constexpr bool same_shape() {
  if constexpr (A::shape.size() == B::shape.size())
    return A::shape == B::shape;
  else
    return false;
}

/// Compile-time checks between two tile operands. A failure's instantiation context names both
/// tile types.
template <class A, class B>
struct check_same_shape {
  static_assert(same_shape<A, B>(),
                "tile shapes differ: the Tile operands of an elementwise operation must have "
                "identical shapes (both types are named in check_same_shape<A, B> here)");
};
template <class A, class B>
struct check_same_element {
  static_assert(std::is_same_v<typename A::value_type, typename B::value_type>,
                "tile element types differ: convert one operand with tile::cast<U>(t) first");
};

/// True when operand X agrees with the reference tile R (scalars always agree).
template <class R, class X>
constexpr bool operand_agrees() {
  if constexpr (is_tile_v<X>) {
    if constexpr (same_shape<R, X>())
      return std::is_same_v<typename R::value_type, typename X::value_type>;
    else
      return false;
  } else {
    return true;
  }
}

/// Reports a disagreement between X and R with one static_assert.
template <class R, class X>
constexpr void check_operand() {
  if constexpr (is_tile_v<X>) {
    (void)check_same_shape<R, X>{};
    if constexpr (same_shape<R, X>()) (void)check_same_element<R, X>{};
  }
}

/// Friend of Tile: write access to a tile's storage for the library's own constructors.
struct TileAccess {
  template <class TT>
  static constexpr auto& storage(TT& t) {
    return t.v_;
  }
  template <class TT>
  static constexpr const auto& storage(const TT& t) {
    return t.v_;
  }
};

/// The i-th element of an operand seen as a T tile: a tile's element, or the converted scalar.
template <class T, class X>
constexpr T operand_at(const X& x, int64_t i);

/// Applies f elementwise; `R` is the reference tile type, the result has R's shape.
template <class R, class F, class... X>
constexpr auto elementwise_as(F f, const X&... x) {
  using T = typename R::value_type;
  using U = std::remove_cvref_t<decltype(f(operand_at<T>(x, 0)...))>;
  using Out = typename tile_traits<R>::template rebind<U>;
  Out out;
  (check_operand<R, X>(), ...);
  if constexpr ((operand_agrees<R, X>() && ...)) {
    auto& o = TileAccess::storage(out);
    for (int64_t i = 0; i < Out::size; ++i) o[static_cast<std::size_t>(i)] = f(operand_at<T>(x, i)...);
  }
  return out;
}

template <class F, class... X>
constexpr auto elementwise(F f, const X&... x) {
  return elementwise_as<first_tile_t<X...>>(f, x...);
}

// Wrap-around integer arithmetic without undefined behaviour: compute in the unsigned type of
// the promoted operands, then convert back (modular since C++20).
template <class T>
using wide_unsigned_t = std::make_unsigned_t<decltype(T{} + T{})>;

}  // namespace detail

// ---- the Tile class --------------------------------------------------------------------------

template <class T, int... Dims>
class Tile {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 4,
                "tile::Tile: the rank (number of dimensions) must be between 1 and 4");
  static_assert(((Dims > 0) && ...), "tile::Tile: every dimension must be positive");
  static_assert(((Dims <= 0 || detail::is_pow2(Dims)) && ...),
                "tile::Tile: every dimension must be a power of two");
  static_assert(element_type<T>,
                "tile::Tile: the element type must be bool, a fixed-width integer, f16, bf16, "
                "f8e4m3, f8e5m2, float, double or complex<float>");

 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Dims));
  static constexpr std::array<int64_t, rank> shape{Dims...};
  static constexpr int64_t size = (int64_t{1} * ... * Dims);

  /// A tile of zeros.
  constexpr Tile() = default;

  /// Element at (i, j, ...), row-major. For host code and tests; kernels compute with tiles.
  template <std::integral... I>
  requires(sizeof...(I) == sizeof...(Dims)) constexpr const T& operator()(I... idx) const {
    int64_t flat = 0;
    int64_t k = 0;
    ((flat = flat * shape[k++] + static_cast<int64_t>(idx)), ...);
    return v_[static_cast<std::size_t>(flat)];
  }

  /// The elements, row-major.
  constexpr const T* data() const { return v_.data(); }

 private:
  friend struct detail::TileAccess;
  std::array<T, static_cast<std::size_t>(size > 0 ? size : 1)> v_{};
};

namespace detail {
template <class T, class X>
constexpr T operand_at(const X& x, int64_t i) {
  if constexpr (is_tile_v<X>) {
    return TileAccess::storage(x)[static_cast<std::size_t>(i)];
  } else {
    static_assert(!is_complex_v<X> || is_complex_v<T>,
                  "tile: a complex scalar operand needs a complex tile; it would lose its imaginary "
                  "part (convert the tile with tile::cast<tile::complex<float>>(t))");
    return convert<T>(x);
  }
}
}  // namespace detail

// ---- construction ----------------------------------------------------------------------------

/// A tile with every element equal to v.
template <class T, int... Dims>
requires(sizeof...(Dims) >= 1) constexpr Tile<T, Dims...> full(T v) {
  Tile<T, Dims...> t;
  for (auto& e : detail::TileAccess::storage(t)) e = v;
  return t;
}

template <class T, int... Dims>
requires(sizeof...(Dims) >= 1) constexpr Tile<T, Dims...> zeros() { return Tile<T, Dims...>(); }

template <class T, int... Dims>
requires(sizeof...(Dims) >= 1) constexpr Tile<T, Dims...> ones() {
  return full<T, Dims...>(detail::convert<T>(1));
}

/// The 1-D tile 0, 1, ..., N-1.
template <class T, int N>
constexpr Tile<T, N> iota() {
  Tile<T, N> t;
  auto& s = detail::TileAccess::storage(t);
  for (int64_t i = 0; i < N; ++i) s[static_cast<std::size_t>(i)] = detail::convert<T>(i);
  return t;
}

// ---- elementwise operators -------------------------------------------------------------------

namespace detail {
template <class T>
constexpr void require_arithmetic() {
  static_assert(arithmetic_element<T>,
                "tile: arithmetic operators need a numeric tile; "
                "Tile<bool> has & | ^ ~ instead");
}
/// For < <= > >=: every element type but complex (bool compares as 0 < 1).
template <class T>
constexpr void require_comparable() {
  static_assert(!complex_element<T>,
                "tile: complex numbers have no order: < <= > >= need a real tile; compare "
                "tile::abs(t) or tile::real(t)");
}
/// For min and max.
template <class T>
constexpr void require_ordered() {
  require_arithmetic<T>();
  static_assert(!complex_element<T>,
                "tile::min and tile::max: complex numbers have no order; compare tile::abs(t) or "
                "tile::real(t)");
}
template <class T>
constexpr void require_integer() {
  static_assert(integer_element<T>, "tile: operator % and the shifts need an integer tile");
}
template <class T>
constexpr void require_bitwise() {
  static_assert(bitwise_element<T>, "tile: bitwise operators need an integer or bool tile");
}
template <class... X>
using elem_t = typename first_tile_t<X...>::value_type;
}  // namespace detail

template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator+(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_arithmetic<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (integer_element<T>) {
          using U = detail::wide_unsigned_t<T>;
          return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
        } else {
          return x + y;
        }
      },
      a, b);
}

template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator-(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_arithmetic<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (integer_element<T>) {
          using U = detail::wide_unsigned_t<T>;
          return static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
        } else {
          return x - y;
        }
      },
      a, b);
}

template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator*(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_arithmetic<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (integer_element<T>) {
          using U = detail::wide_unsigned_t<T>;
          return static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
        } else {
          return x * y;
        }
      },
      a, b);
}

template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator/(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_arithmetic<T>();
  return detail::elementwise([](T x, T y) -> T { return static_cast<T>(x / y); }, a, b);
}

template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator%(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_integer<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (integer_element<T>)
          return static_cast<T>(x % y);
        else
          return x;  // rejected above
      },
      a, b);
}

template <class T, int... D>
constexpr Tile<T, D...> operator-(const Tile<T, D...>& a) {
  detail::require_arithmetic<T>();
  return detail::elementwise(
      [](T x) -> T {
        if constexpr (integer_element<T>) {
          using U = detail::wide_unsigned_t<T>;
          return static_cast<T>(U{0} - static_cast<U>(x));
        } else {
          return -x;
        }
      },
      a);
}

template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator==(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  return detail::elementwise([](T x, T y) -> bool { return x == y; }, a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator!=(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  return detail::elementwise([](T x, T y) -> bool { return !(x == y); }, a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator<(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_comparable<T>();
  return detail::elementwise(
      [](T x, T y) -> bool {
        if constexpr (complex_element<T>)
          return false;  // rejected above
        else
          return x < y;
      },
      a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator<=(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_comparable<T>();
  return detail::elementwise(
      [](T x, T y) -> bool {
        if constexpr (complex_element<T>)
          return false;  // rejected above
        else
          return x <= y;
      },
      a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator>(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_comparable<T>();
  return detail::elementwise(
      [](T x, T y) -> bool {
        if constexpr (complex_element<T>)
          return false;  // rejected above
        else
          return x > y;
      },
      a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator>=(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_comparable<T>();
  return detail::elementwise(
      [](T x, T y) -> bool {
        if constexpr (complex_element<T>)
          return false;  // rejected above
        else
          return x >= y;
      },
      a, b);
}

template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator&(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_bitwise<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (bitwise_element<T>)
          return static_cast<T>(x & y);
        else
          return x;  // rejected above
      },
      a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator|(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_bitwise<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (bitwise_element<T>)
          return static_cast<T>(x | y);
        else
          return x;  // rejected above
      },
      a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator^(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_bitwise<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (bitwise_element<T>)
          return static_cast<T>(x ^ y);
        else
          return x;  // rejected above
      },
      a, b);
}
/// Logical and, or and not of bool tiles, element by element (`&`, `|` and `~` on Tile<bool>).
/// Both operands are evaluated: a tile has no one truth value to stop at.
template <class A, class B>
requires detail::elementwise_operands<A, B> && std::same_as<detail::elem_t<A, B>, bool>
constexpr auto operator&&(const A& a, const B& b) {
  return a & b;
}
template <class A, class B>
requires detail::elementwise_operands<A, B> && std::same_as<detail::elem_t<A, B>, bool>
constexpr auto operator||(const A& a, const B& b) {
  return a | b;
}
template <int... D>
constexpr Tile<bool, D...> operator!(const Tile<bool, D...>& a) {
  return ~a;
}
/// Bitwise not; on Tile<bool> it is logical not.
template <class T, int... D>
constexpr Tile<T, D...> operator~(const Tile<T, D...>& a) {
  detail::require_bitwise<T>();
  return detail::elementwise(
      [](T x) -> T {
        if constexpr (std::is_same_v<T, bool>)
          return !x;
        else if constexpr (bitwise_element<T>)
          return static_cast<T>(~x);
        else
          return x;  // rejected above
      },
      a);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator<<(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_integer<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (integer_element<T>) {
          using U = detail::wide_unsigned_t<T>;
          return static_cast<T>(static_cast<U>(x) << y);
        } else {
          return x;  // rejected above
        }
      },
      a, b);
}
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto operator>>(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_integer<T>();
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (integer_element<T>)
          return static_cast<T>(x >> y);
        else
          return x;  // rejected above
      },
      a, b);
}

// Compound assignment: `t op= x` is `t = t op x`.
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator+=(Tile<T, D...>& a, const B& b) {
  return a = a + b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator-=(Tile<T, D...>& a, const B& b) {
  return a = a - b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator*=(Tile<T, D...>& a, const B& b) {
  return a = a * b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator/=(Tile<T, D...>& a, const B& b) {
  return a = a / b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator%=(Tile<T, D...>& a, const B& b) {
  return a = a % b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator&=(Tile<T, D...>& a, const B& b) {
  return a = a & b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator|=(Tile<T, D...>& a, const B& b) {
  return a = a | b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator^=(Tile<T, D...>& a, const B& b) {
  return a = a ^ b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator<<=(Tile<T, D...>& a, const B& b) {
  return a = a << b;
}
template <class T, int... D, class B>
constexpr Tile<T, D...>& operator>>=(Tile<T, D...>& a, const B& b) {
  return a = a >> b;
}

// ---- math ------------------------------------------------------------------------------------

namespace detail {
/// Applies a floating-point function elementwise; narrow float elements are computed in float.
template <class T, int... D, class F>
Tile<T, D...> float_unary(const Tile<T, D...>& t, F f) {
  static_assert(!complex_element<T>,
                "tile math: exp, exp2, log, log2, sqrt, rsqrt, sin, cos, tanh, floor, ceil, pow "
                "and fma are not defined on complex tiles (complex tiles have abs, conj, real "
                "and imag)");
  static_assert(floating_element<T> || complex_element<T>,
                "tile math: exp, exp2, log, log2, sqrt, rsqrt, sin, cos, tanh, floor, ceil, pow "
                "and fma need a floating-point tile (float, double, f16, bf16, f8e4m3 or f8e5m2); "
                "use tile::cast");
  return elementwise(
      [&](T x) -> T {
        if constexpr (is_narrow_float_v<T>)
          return T(f(static_cast<float>(x)));
        else if constexpr (floating_element<T>)
          return f(x);
        else
          return x;  // rejected above
      },
      t);
}
}  // namespace detail

template <class T, int... D>
Tile<T, D...> exp(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::exp(x); });
}
template <class T, int... D>
Tile<T, D...> exp2(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::exp2(x); });
}
template <class T, int... D>
Tile<T, D...> log(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::log(x); });
}
template <class T, int... D>
Tile<T, D...> log2(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::log2(x); });
}
template <class T, int... D>
Tile<T, D...> sqrt(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::sqrt(x); });
}
/// 1 / sqrt(x).
template <class T, int... D>
Tile<T, D...> rsqrt(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return decltype(x){1} / std::sqrt(x); });
}
template <class T, int... D>
Tile<T, D...> sin(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::sin(x); });
}
template <class T, int... D>
Tile<T, D...> cos(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::cos(x); });
}
template <class T, int... D>
Tile<T, D...> tanh(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::tanh(x); });
}
template <class T, int... D>
Tile<T, D...> floor(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::floor(x); });
}
template <class T, int... D>
Tile<T, D...> ceil(const Tile<T, D...>& t) {
  return detail::float_unary(t, [](auto x) { return std::ceil(x); });
}

/// |x|; integers wrap (abs of the most negative value is itself); floating types clear the sign
/// bit. For a complex tile, the magnitudes as a float tile (see tile::abs(complex)).
template <class T, int... D>
constexpr auto abs(const Tile<T, D...>& t) {
  detail::require_arithmetic<T>();
  if constexpr (complex_element<T>) {
    return detail::elementwise([](T z) -> float { return tile::abs(z); }, t);
  } else {
    return detail::elementwise(
        [](T x) -> T {
          if constexpr (detail::is_narrow_float_v<T>) {
            using B = decltype(x.bits);
            return T::from_bits(static_cast<B>(x.bits & ~(1u << (8 * sizeof(B) - 1))));
          } else if constexpr (std::is_floating_point_v<T>) {
            return std::fabs(x);
          } else if constexpr (std::is_unsigned_v<T>) {
            return x;
          } else {
            return x < 0 ? static_cast<T>(detail::wide_unsigned_t<T>{0} -
                                          static_cast<detail::wide_unsigned_t<T>>(x))
                         : x;
          }
        },
        t);
  }
}

namespace detail {
/// IEEE 754-2019 minimumNumber / maximumNumber: a NaN (quiet or signaling) yields the other
/// operand, and -0 is below +0 (fmin / fmax may return either zero), as on the GPU.
template <class T>
T number_min(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return std::isnan(x) ? y : x;
  if (x == y)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
template <class T>
T number_max(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return std::isnan(x) ? y : x;
  if (x == y)
    return std::signbit(x) ? y : x;
  return x < y ? y : x;
}

/// The smaller of two elements; for floating types a NaN yields the other operand (fmin), and
/// narrow floats compare in float. The rule of tile::min and of the min reductions.
template <class T>
constexpr T min_value(T x, T y) {
  if constexpr (is_narrow_float_v<T>)
    return T(number_min(static_cast<float>(x), static_cast<float>(y)));
  else if constexpr (std::is_floating_point_v<T>)
    return number_min(x, y);
  else if constexpr (!complex_element<T>)
    return y < x ? y : x;
  else
    return x;  // complex: rejected by the callers
}
/// The larger of two elements, with the rules of min_value (fmax for floating types).
template <class T>
constexpr T max_value(T x, T y) {
  if constexpr (is_narrow_float_v<T>)
    return T(number_max(static_cast<float>(x), static_cast<float>(y)));
  else if constexpr (std::is_floating_point_v<T>)
    return number_max(x, y);
  else if constexpr (!complex_element<T>)
    return x < y ? y : x;
  else
    return x;  // complex: rejected by the callers
}
}  // namespace detail

/// Elementwise minimum; for floating types a NaN operand yields the other operand (fmin).
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto min(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_ordered<T>();
  return detail::elementwise([](T x, T y) -> T { return detail::min_value(x, y); }, a, b);
}

/// Elementwise maximum; for floating types a NaN operand yields the other operand (fmax).
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto max(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  detail::require_ordered<T>();
  return detail::elementwise([](T x, T y) -> T { return detail::max_value(x, y); }, a, b);
}

/// x to the power y; either operand may be a scalar.
template <class A, class B>
requires detail::elementwise_operands<A, B>
auto pow(const A& a, const B& b) {
  using T = detail::elem_t<A, B>;
  static_assert(floating_element<T>,
                "tile::pow needs a floating-point tile (float, double, f16, bf16, f8e4m3 or f8e5m2)");
  return detail::elementwise(
      [](T x, T y) -> T {
        if constexpr (detail::is_narrow_float_v<T>)
          return T(std::pow(static_cast<float>(x), static_cast<float>(y)));
        else if constexpr (floating_element<T>)
          return std::pow(x, y);
        else
          return x;  // rejected above
      },
      a, b);
}

/// a * b + c with a single rounding; any operand may be a scalar.
template <class A, class B, class C>
requires detail::elementwise_operands<A, B, C>
auto fma(const A& a, const B& b, const C& c) {
  using T = detail::elem_t<A, B, C>;
  static_assert(floating_element<T>,
                "tile::fma needs a floating-point tile (float, double, f16, bf16, f8e4m3 or f8e5m2)");
  return detail::elementwise(
      [](T x, T y, T z) -> T {
        if constexpr (detail::is_narrow_float_v<T>)
          return T(std::fma(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)));
        else if constexpr (floating_element<T>)
          return std::fma(x, y, z);
        else
          return x;  // rejected above
      },
      a, b, c);
}

// ---- complex -----------------------------------------------------------------------------------

namespace detail {
template <class T>
constexpr void require_complex() {
  static_assert(complex_element<T>, "tile::real, tile::imag and tile::conj need a complex<float> tile");
}
}  // namespace detail

/// The real parts of a complex tile, as a float tile.
template <class T, int... D>
constexpr Tile<float, D...> real(const Tile<T, D...>& t) {
  detail::require_complex<T>();
  return detail::elementwise(
      [](T z) -> float {
        if constexpr (complex_element<T>)
          return z.real();
        else
          return 0.0f;  // rejected above
      },
      t);
}

/// The imaginary parts of a complex tile, as a float tile.
template <class T, int... D>
constexpr Tile<float, D...> imag(const Tile<T, D...>& t) {
  detail::require_complex<T>();
  return detail::elementwise(
      [](T z) -> float {
        if constexpr (complex_element<T>)
          return z.imag();
        else
          return 0.0f;  // rejected above
      },
      t);
}

/// The complex conjugates (the imaginary parts negated).
template <class T, int... D>
constexpr Tile<T, D...> conj(const Tile<T, D...>& t) {
  detail::require_complex<T>();
  return detail::elementwise(
      [](T z) -> T {
        if constexpr (complex_element<T>)
          return tile::conj(z);
        else
          return z;  // rejected above
      },
      t);
}

/// The complex tile re + im i from two float tiles of one shape (either may be a scalar).
template <class A, class B>
requires detail::elementwise_operands<A, B>
constexpr auto make_complex(const A& re, const B& im) {
  using T = detail::elem_t<A, B>;
  static_assert(std::is_same_v<T, float>, "tile::make_complex takes float tiles (the real and imaginary parts)");
  return detail::elementwise(
      [](T a, T b) -> complex<float> {
        if constexpr (std::is_same_v<T, float>)
          return {a, b};
        else
          return {};  // rejected above
      },
      re, im);
}

// ---- selection and conversion ------------------------------------------------------------------

namespace detail {
/// The element type of where(c, a, b): the tile operand's, or the common type of two scalars.
template <class A, class B>
struct where_element {
  using type = std::common_type_t<A, B>;
};
template <class A, class B>
requires(is_tile_v<A> || is_tile_v<B>) struct where_element<A, B> {
  using type = typename first_tile_t<A, B>::value_type;
};
}  // namespace detail

/// cond ? a : b elementwise. `cond` is a Tile<bool, ...>; a and b are tiles of its shape or
/// scalars (two scalars give a tile of their common type).
template <int... D, class A, class B>
requires detail::tile_or_scalar<A> && detail::tile_or_scalar<B>
constexpr auto where(const Tile<bool, D...>& cond, const A& a, const B& b) {
  using T = typename detail::where_element<A, B>::type;
  using R = Tile<T, D...>;
  R out;
  detail::check_operand<R, A>();
  detail::check_operand<R, B>();
  if constexpr (detail::operand_agrees<R, A>() && detail::operand_agrees<R, B>()) {
    auto& o = detail::TileAccess::storage(out);
    const auto& c = detail::TileAccess::storage(cond);
    for (std::size_t i = 0; i < o.size(); ++i)
      o[i] = c[i] ? detail::operand_at<T>(a, static_cast<int64_t>(i))
                  : detail::operand_at<T>(b, static_cast<int64_t>(i));
  }
  return out;
}

/// The tile's elements reinterpreted bit for bit as U, an element type of the same size
/// (bool has no bit pattern to share and is excluded).
template <class U, class T, int... D>
constexpr Tile<U, D...> bitcast(const Tile<T, D...>& t) {
  static_assert(element_type<U>, "tile::bitcast: the target must be an element type");
  static_assert(sizeof(U) == sizeof(T) && !std::is_same_v<U, bool> && !std::is_same_v<T, bool>,
                "tile::bitcast: the element types must have the same size, and neither be bool");
  return detail::elementwise([](T x) -> U { return std::bit_cast<U>(x); }, t);
}

/// The tile converted elementwise to U (see detail::convert for the rules).
template <class U, class T, int... D>
constexpr Tile<U, D...> cast(const Tile<T, D...>& t) {
  static_assert(element_type<U>, "tile::cast: the target must be an element type");
  return detail::elementwise([](T x) -> U { return detail::convert<U>(x); }, t);
}

}  // namespace tile
