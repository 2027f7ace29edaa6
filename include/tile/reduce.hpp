// tile/reduce.hpp - reductions and scans of tiles.
//
//   along an axis   sum<Axis>(t) prod<Axis>(t) max<Axis>(t) min<Axis>(t)
//                   argmax<Axis>(t) argmin<Axis>(t)   (int32_t positions along Axis)
//                   reduce<Axis>(t, init, f)          (any combining function)
//   scans           cumsum<Axis>(t) scan<Axis>(t, init, f)   (inclusive; same shape as t)
//   whole tile      sum(t) prod(t) max(t) min(t)      (a scalar)
//
// A reduction along Axis removes that axis: Tile<float, 16, 32> reduced along axis 1 is a
// Tile<float, 16>. Reducing a rank-1 tile gives a scalar of the element type (int32_t for
// argmax and argmin). Axis must be in [0, rank).
//
// Numbers, as on the GPU:
//  * sum, prod and cumsum reject Tile<bool>. Integers wrap around (two's complement). The narrow
//    floats (f16, bf16, f8e4m3, f8e5m2) accumulate in float: a reduction rounds once at the end,
//    a scan rounds each output. float, double and complex<float> (complex + and * of
//    tile/core.hpp) may be combined in any order (the GPU combines in a tree); this reference
//    combines in index order.
//  * max and min fold with the rule of the elementwise tile::max / tile::min (fmax / fmin): a
//    NaN is ignored unless every element is NaN. argmax / argmin give the smallest index whose
//    element equals that max / min, and 0 when every element is NaN. Tile<bool> and complex
//    tiles (no order) are rejected.
//  * reduce and scan combine with f in index order here; the GPU combines in a tree, so f must
//    be associative and commutative, and init an identity of f, for the results to agree.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <type_traits>

#include "tile/core.hpp"
#include "tile/shape.hpp"
#include "tile/tile_value.hpp"

namespace tile {

namespace detail {

/// The shape without dimension `axis` (without the last for an axis that does not exist, which
/// the caller's static_assert reports).
template <std::size_t R>
constexpr std::array<int64_t, R - 1> without_axis(const std::array<int64_t, R>& shape, int axis) {
  if (axis < 0 || axis >= static_cast<int>(R)) axis = static_cast<int>(R) - 1;
  std::array<int64_t, R - 1> out{};
  for (std::size_t k = 0, j = 0; k < R; ++k)
    if (static_cast<int>(k) != axis) out[j++] = shape[k];
  return out;
}

/// What reducing a tile of shape S... along Axis to elements U gives: a U for a rank-1 tile,
/// else a tile of U without that axis.
template <class U, int Axis, int... S>
struct reduced {
  using type = tile_of_t<U, without_axis(std::array<int64_t, sizeof...(S)>{S...}, Axis)>;
};
template <class U, int Axis, int S0>
struct reduced<U, Axis, S0> {
  using type = U;
};
template <class U, int Axis, int... S>
using reduced_t = typename reduced<U, Axis, S...>::type;

/// The n elements of one lane of a tile, `stride` apart.
template <class T>
struct Lane {
  const T* first;
  int64_t stride;
  int64_t n;
  constexpr const T& operator[](int64_t k) const { return first[k * stride]; }
};

/// Calls f(base, stride, n, position) for every lane along Axis of a row-major tile of the
/// given shape: the lane's elements are at base + k * stride for k in [0, n), and position is
/// the place of its result in the row-major tile without that axis.
template <int Axis, std::size_t R, class F>
constexpr void for_each_lane(const std::array<int64_t, R>& shape, F&& f) {
  int64_t outer = 1;
  int64_t inner = 1;
  for (std::size_t k = 0; k < R; ++k) {
    if (static_cast<int>(k) < Axis) outer *= shape[k];
    if (static_cast<int>(k) > Axis) inner *= shape[k];
  }
  const int64_t n = shape[static_cast<std::size_t>(Axis)];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) f(o * n * inner + i, inner, n, o * inner + i);
}

template <int Axis, int Rank>
constexpr void check_axis() {
  static_assert(Axis >= 0 && Axis < Rank,
                "tile reductions and scans: Axis must name a dimension of the tile (0 <= Axis < rank)");
}

/// Reduces every lane along Axis to one U with lane_value(Lane<T>).
template <int Axis, class U, class T, int... S, class F>
constexpr reduced_t<U, Axis, S...> reduce_lanes(const Tile<T, S...>& t, F&& lane_value) {
  check_axis<Axis, static_cast<int>(sizeof...(S))>();
  reduced_t<U, Axis, S...> out{};
  if constexpr (axis_in_range<Axis, sizeof...(S)>) {
    const T* data = TileAccess::storage(t).data();
    for_each_lane<Axis>(Tile<T, S...>::shape, [&](int64_t base, int64_t stride, int64_t n, int64_t at) {
      const U v = lane_value(Lane<T>{data + base, stride, n});
      if constexpr (sizeof...(S) == 1)
        out = v;
      else
        TileAccess::storage(out)[static_cast<std::size_t>(at)] = v;
    });
  }
  return out;
}

/// Scans every lane along Axis: scan_lane(Lane<T> in, T* out, stride) writes out[k * stride].
template <int Axis, class T, int... S, class F>
constexpr Tile<T, S...> scan_lanes(const Tile<T, S...>& t, F&& scan_lane) {
  check_axis<Axis, static_cast<int>(sizeof...(S))>();
  Tile<T, S...> out;
  if constexpr (axis_in_range<Axis, sizeof...(S)>) {
    const T* src = TileAccess::storage(t).data();
    T* dst = TileAccess::storage(out).data();
    for_each_lane<Axis>(Tile<T, S...>::shape, [&](int64_t base, int64_t stride, int64_t n, int64_t) {
      scan_lane(Lane<T>{src + base, stride, n}, dst + base, stride);
    });
  }
  return out;
}

/// The whole tile as one lane, in row-major order.
template <class T, int... S>
constexpr Lane<T> all_elements(const Tile<T, S...>& t) {
  return Lane<T>{TileAccess::storage(t).data(), 1, Tile<T, S...>::size};
}

/// The type sum, prod and cumsum accumulate T in: integers in their wide unsigned type (so that
/// they wrap without undefined behaviour), narrow floats in float, float, double and complex in
/// themselves.
template <class T>
struct accumulator {
  using type = T;
};
template <integer_element T>
struct accumulator<T> {
  using type = wide_unsigned_t<T>;
};
template <narrow_float T>
struct accumulator<T> {
  using type = float;
};
template <class T>
using accumulator_t = typename accumulator<T>::type;

template <class T>
constexpr void require_numeric_sum() {
  static_assert(arithmetic_element<T>,
                "tile::sum, tile::prod and tile::cumsum need a numeric tile; to count the true "
                "elements of a Tile<bool>, sum tile::cast<int32_t>(t)");
}
template <class T>
constexpr void require_ordered_reduction() {
  static_assert(arithmetic_element<T>,
                "tile::max, min, argmax and argmin reductions need a numeric tile; combine a "
                "Tile<bool> with tile::reduce and | or &");
  static_assert(!complex_element<T>,
                "tile::max, min, argmax and argmin reductions need ordered elements: complex "
                "numbers have no order; reduce tile::abs(t) or tile::real(t) instead");
}
template <class T, class F>
constexpr void require_combiner() {
  static_assert(std::is_invocable_r_v<T, F&, T, T>,
                "tile::reduce and tile::scan: f must be callable as f(T, T) with the tile's "
                "element type T and return a value convertible to T");
}

/// x[0] op x[1] op ... op x[n-1] in index order, in T's accumulator type, rounded once to T.
template <class T, class Op>
constexpr T accumulate(Lane<T> x, Op op) {
  if constexpr (std::is_same_v<T, bool>) {
    return x[0];  // rejected by require_numeric_sum
  } else {
    using A = accumulator_t<T>;
    A acc = static_cast<A>(x[0]);
    for (int64_t k = 1; k < x.n; ++k) acc = static_cast<A>(op(acc, static_cast<A>(x[k])));
    return static_cast<T>(acc);
  }
}

/// The running x[0] op ... op x[k] into out[k * stride], each rounded to T from the accumulator.
template <class T, class Op>
constexpr void accumulate_scan(Lane<T> x, T* out, int64_t stride, Op op) {
  if constexpr (std::is_same_v<T, bool>) {
    for (int64_t k = 0; k < x.n; ++k) out[k * stride] = x[k];  // rejected by require_numeric_sum
  } else {
    using A = accumulator_t<T>;
    A acc = static_cast<A>(x[0]);
    out[0] = static_cast<T>(acc);
    for (int64_t k = 1; k < x.n; ++k) {
      acc = static_cast<A>(op(acc, static_cast<A>(x[k])));
      out[k * stride] = static_cast<T>(acc);
    }
  }
}

template <class T>
constexpr T lane_max(Lane<T> x) {
  T acc = x[0];
  if constexpr (ordered_element<T>)
    for (int64_t k = 1; k < x.n; ++k) acc = max_value(acc, x[k]);
  return acc;
}

template <class T>
constexpr T lane_min(Lane<T> x) {
  T acc = x[0];
  if constexpr (ordered_element<T>)
    for (int64_t k = 1; k < x.n; ++k) acc = min_value(acc, x[k]);
  return acc;
}

/// The smallest k with x[k] == best, or 0 when there is none (best is NaN).
template <class T>
constexpr int32_t first_index_of(Lane<T> x, T best) {
  for (int64_t k = 0; k < x.n; ++k)
    if (x[k] == best) return static_cast<int32_t>(k);
  return 0;
}

}  // namespace detail

// ---- reductions along an axis ------------------------------------------------------------------

/// The sum along Axis. Integers wrap around; narrow floats are added in float and rounded once.
template <int Axis, class T, int... S>
constexpr detail::reduced_t<T, Axis, S...> sum(const Tile<T, S...>& t) {
  detail::require_numeric_sum<T>();
  return detail::reduce_lanes<Axis, T>(
      t, [](detail::Lane<T> x) { return detail::accumulate(x, std::plus<>{}); });
}

/// The product along Axis. Integers wrap around; narrow floats are multiplied in float and rounded
/// once.
template <int Axis, class T, int... S>
constexpr detail::reduced_t<T, Axis, S...> prod(const Tile<T, S...>& t) {
  detail::require_numeric_sum<T>();
  return detail::reduce_lanes<Axis, T>(
      t, [](detail::Lane<T> x) { return detail::accumulate(x, std::multiplies<>{}); });
}

/// The maximum along Axis (fmax for floating types: NaN only where every element is NaN).
template <int Axis, class T, int... S>
constexpr detail::reduced_t<T, Axis, S...> max(const Tile<T, S...>& t) {
  detail::require_ordered_reduction<T>();
  return detail::reduce_lanes<Axis, T>(t, [](detail::Lane<T> x) { return detail::lane_max(x); });
}

/// The minimum along Axis (fmin for floating types: NaN only where every element is NaN).
template <int Axis, class T, int... S>
constexpr detail::reduced_t<T, Axis, S...> min(const Tile<T, S...>& t) {
  detail::require_ordered_reduction<T>();
  return detail::reduce_lanes<Axis, T>(t, [](detail::Lane<T> x) { return detail::lane_min(x); });
}

/// The position along Axis of the maximum: the smallest index whose element equals
/// max<Axis>(t) there, 0 where every element is NaN.
template <int Axis, class T, int... S>
constexpr detail::reduced_t<int32_t, Axis, S...> argmax(const Tile<T, S...>& t) {
  detail::require_ordered_reduction<T>();
  return detail::reduce_lanes<Axis, int32_t>(
      t, [](detail::Lane<T> x) { return detail::first_index_of(x, detail::lane_max(x)); });
}

/// The position along Axis of the minimum: the smallest index whose element equals
/// min<Axis>(t) there, 0 where every element is NaN.
template <int Axis, class T, int... S>
constexpr detail::reduced_t<int32_t, Axis, S...> argmin(const Tile<T, S...>& t) {
  detail::require_ordered_reduction<T>();
  return detail::reduce_lanes<Axis, int32_t>(
      t, [](detail::Lane<T> x) { return detail::first_index_of(x, detail::lane_min(x)); });
}

/// f(...f(f(init, t_0), t_1)..., t_{n-1}) along Axis, for f callable as f(T, T) -> T. The GPU
/// combines the elements in a tree, so f must be associative and commutative and init an
/// identity of f (0 for +, 1 for *, the lowest value for max, ...) for the results to agree.
template <int Axis, class T, int... S, class F>
constexpr detail::reduced_t<T, Axis, S...> reduce(const Tile<T, S...>& t, std::type_identity_t<T> init, F f) {
  detail::require_combiner<T, F>();
  return detail::reduce_lanes<Axis, T>(t, [&](detail::Lane<T> x) {
    T acc = init;
    if constexpr (std::is_invocable_r_v<T, F&, T, T>)
      for (int64_t k = 0; k < x.n; ++k) acc = static_cast<T>(f(acc, x[k]));
    return acc;
  });
}

// ---- scans -------------------------------------------------------------------------------------

/// The inclusive prefix sum along Axis: out_i = t_0 + ... + t_i. Integers wrap around; narrow
/// floats accumulate in float and each output is rounded.
template <int Axis, class T, int... S>
constexpr Tile<T, S...> cumsum(const Tile<T, S...>& t) {
  detail::require_numeric_sum<T>();
  return detail::scan_lanes<Axis>(t, [](detail::Lane<T> x, T* out, int64_t stride) {
    detail::accumulate_scan(x, out, stride, std::plus<>{});
  });
}

/// The inclusive scan along Axis: out_0 = f(init, t_0), out_i = f(out_{i-1}, t_i). On the GPU
/// the same conditions as for reduce apply (f associative, init an identity of f).
template <int Axis, class T, int... S, class F>
constexpr Tile<T, S...> scan(const Tile<T, S...>& t, std::type_identity_t<T> init, F f) {
  detail::require_combiner<T, F>();
  return detail::scan_lanes<Axis>(t, [&](detail::Lane<T> x, T* out, int64_t stride) {
    T acc = init;
    if constexpr (std::is_invocable_r_v<T, F&, T, T>)
      for (int64_t k = 0; k < x.n; ++k) out[k * stride] = acc = static_cast<T>(f(acc, x[k]));
  });
}

// ---- reductions of the whole tile --------------------------------------------------------------

/// The sum of all elements (the rules of sum<Axis>).
template <class T, int... S>
constexpr T sum(const Tile<T, S...>& t) {
  detail::require_numeric_sum<T>();
  return detail::accumulate(detail::all_elements(t), std::plus<>{});
}

/// The product of all elements (the rules of prod<Axis>).
template <class T, int... S>
constexpr T prod(const Tile<T, S...>& t) {
  detail::require_numeric_sum<T>();
  return detail::accumulate(detail::all_elements(t), std::multiplies<>{});
}

/// The largest element (the rules of max<Axis>).
template <class T, int... S>
constexpr T max(const Tile<T, S...>& t) {
  detail::require_ordered_reduction<T>();
  return detail::lane_max(detail::all_elements(t));
}

/// The smallest element (the rules of min<Axis>).
template <class T, int... S>
constexpr T min(const Tile<T, S...>& t) {
  detail::require_ordered_reduction<T>();
  return detail::lane_min(detail::all_elements(t));
}

}  // namespace tile
