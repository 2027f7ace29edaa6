// tile/shape.hpp - operations that rearrange the elements of a tile without computing with them.
//
//   broadcast<Dims...>(t)   repeat t to the shape Dims (numpy rules: t's shape is right-aligned
//                           against Dims; each of t's dimensions equals its counterpart or is 1)
//   reshape<Dims...>(t)     the same elements, row-major, in another shape of the same size
//   permute<Perm...>(t)     reorder the axes: result axis k is t's axis Perm[k]
//   transpose(t)            permute<1, 0> of a 2-D tile
//   cat<Axis>(a, b)         a followed by b along Axis (equal shapes; that axis doubles)
//   extract<Dims...>(t, i...)  the Dims-shaped sub-tile number (i...) of t; the part of it
//                           outside t reads zeros, like a load outside a tensor
// Shapes are checked at compile time; every result is again a Tile (rank 1..4, power-of-two
// dimensions).
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "tile/core.hpp"
#include "tile/tile_value.hpp"

namespace tile {

namespace detail {

/// `tile_of_t<T, Shape>` is `Tile<T, Shape[0], ..., Shape[R-1]>` for a std::array Shape.
template <class T, auto Shape, class Seq = std::make_index_sequence<Shape.size()>>
struct tile_of;
template <class T, auto Shape, std::size_t... I>
struct tile_of<T, Shape, std::index_sequence<I...>> {
  using type = Tile<T, Shape[I]...>;
};
template <class T, auto Shape>
using tile_of_t = typename tile_of<T, Shape>::type;

/// Row-major strides of a shape, in elements.
template <std::size_t R>
constexpr std::array<int64_t, R> row_major_strides(const std::array<int64_t, R>& shape) {
  std::array<int64_t, R> stride{};
  int64_t s = 1;
  for (std::size_t k = R; k-- > 0;) {
    stride[k] = s;
    s *= shape[k];
  }
  return stride;
}

/// The row-major index of element number `flat` of a tile of the given shape.
template <std::size_t R>
constexpr std::array<int64_t, R> unravel(int64_t flat, const std::array<int64_t, R>& shape) {
  std::array<int64_t, R> idx{};
  for (std::size_t k = R; k-- > 0;) {
    idx[k] = flat % shape[k];
    flat /= shape[k];
  }
  return idx;
}

/// Whether a tile of shape `from` broadcasts to shape `to` (numpy rules).
template <std::size_t Q, std::size_t R>
constexpr bool broadcastable(const std::array<int64_t, Q>& from, const std::array<int64_t, R>& to) {
  if (Q > R) return false;
  for (std::size_t k = 0; k < Q; ++k)
    if (from[k] != 1 && from[k] != to[R - Q + k]) return false;
  return true;
}

/// Whether Perm lists every axis of a rank-R tile exactly once.
template <std::size_t R, std::size_t P>
constexpr bool is_permutation_of_axes(const std::array<int, P>& perm) {
  if (P != R) return false;
  std::array<bool, R> seen{};
  for (int p : perm) {
    if (p < 0 || p >= static_cast<int>(R) || seen[static_cast<std::size_t>(p)]) return false;
    seen[static_cast<std::size_t>(p)] = true;
  }
  return true;
}

/// shape[axis], or 1 for an axis that does not exist (the caller's static_assert reports it).
template <std::size_t R>
constexpr int64_t dim_or_one(const std::array<int64_t, R>& shape, int axis) {
  return axis >= 0 && axis < static_cast<int>(R) ? shape[static_cast<std::size_t>(axis)] : 1;
}

/// The shape with dimension `axis` doubled (unchanged for an axis that does not exist).
template <std::size_t R>
constexpr std::array<int64_t, R> with_axis_doubled(std::array<int64_t, R> shape, int axis) {
  if (axis >= 0 && axis < static_cast<int>(R)) shape[static_cast<std::size_t>(axis)] *= 2;
  return shape;
}

template <int Axis, std::size_t R>
inline constexpr bool axis_in_range = Axis >= 0 && Axis < static_cast<int>(R);

/// Whether a run-time sub-tile index lies in [0, count), for any integral index type.
template <std::integral I>
constexpr bool index_below(I i, int64_t count) {
  if constexpr (std::is_signed_v<I>)
    return i >= 0 && static_cast<int64_t>(i) < count;
  else
    return static_cast<uint64_t>(i) < static_cast<uint64_t>(count);
}

}  // namespace detail

// ---- broadcast and reshape ---------------------------------------------------------------------

/// t repeated to the shape Dims. t's shape is aligned with the last dimensions of Dims; each of
/// its dimensions must equal its counterpart (kept) or be 1 (repeated along that axis), and the
/// leading dimensions of Dims that t lacks repeat all of t.
template <int... Dims, class T, int... S>
constexpr Tile<T, Dims...> broadcast(const Tile<T, S...>& t) {
  constexpr std::array<int64_t, sizeof...(S)> from{S...};
  constexpr std::array<int64_t, sizeof...(Dims)> to{Dims...};
  constexpr bool ok = detail::broadcastable(from, to);
  static_assert(ok,
                "tile::broadcast<Dims...>: the tile's shape must be right-aligned against Dims, "
                "with each tile dimension equal to its counterpart in Dims or 1, and Dims must "
                "have at least the tile's rank");
  Tile<T, Dims...> out;
  if constexpr (ok) {
    constexpr std::size_t lead = to.size() - from.size();
    constexpr auto from_stride = detail::row_major_strides(from);
    const auto& src = detail::TileAccess::storage(t);
    auto& dst = detail::TileAccess::storage(out);
    for (int64_t i = 0; i < Tile<T, Dims...>::size; ++i) {
      const auto idx = detail::unravel(i, to);
      int64_t j = 0;
      for (std::size_t k = 0; k < from.size(); ++k)
        if (from[k] != 1) j += idx[lead + k] * from_stride[k];
      dst[static_cast<std::size_t>(i)] = src[static_cast<std::size_t>(j)];
    }
  }
  return out;
}

/// The elements of t, in row-major order, as a tile of shape Dims (the same number of elements).
template <int... Dims, class T, int... S>
constexpr Tile<T, Dims...> reshape(const Tile<T, S...>& t) {
  constexpr bool ok = (int64_t{1} * ... * Dims) == Tile<T, S...>::size;
  static_assert(ok, "tile::reshape<Dims...>: the new shape must have as many elements as the tile");
  Tile<T, Dims...> out;
  if constexpr (ok) detail::TileAccess::storage(out) = detail::TileAccess::storage(t);
  return out;
}

// ---- permute, transpose, cat -------------------------------------------------------------------

/// t with its axes reordered: axis k of the result is axis Perm[k] of t, so that
/// permute<Perm...>(t)(i_0, ..., i_{R-1}) is the element of t whose index along axis Perm[k]
/// is i_k. Perm must list 0..R-1, each once.
template <int... Perm, class T, int... S>
constexpr auto permute(const Tile<T, S...>& t) {
  constexpr std::array<int64_t, sizeof...(S)> from{S...};
  constexpr std::array<int, sizeof...(Perm)> perm{Perm...};
  constexpr bool ok = detail::is_permutation_of_axes<sizeof...(S)>(perm);
  static_assert(ok,
                "tile::permute<Perm...>: Perm must list every axis of the tile (0 .. rank-1) "
                "exactly once");
  constexpr std::array<int64_t, sizeof...(Perm)> to{detail::dim_or_one(from, Perm)...};
  detail::tile_of_t<T, to> out;
  if constexpr (ok) {
    constexpr auto from_stride = detail::row_major_strides(from);
    const auto& src = detail::TileAccess::storage(t);
    auto& dst = detail::TileAccess::storage(out);
    for (int64_t i = 0; i < Tile<T, S...>::size; ++i) {
      const auto idx = detail::unravel(i, to);
      int64_t j = 0;
      for (std::size_t k = 0; k < perm.size(); ++k)
        j += idx[k] * from_stride[static_cast<std::size_t>(perm[k])];
      dst[static_cast<std::size_t>(i)] = src[static_cast<std::size_t>(j)];
    }
  }
  return out;
}

/// The transpose of a 2-D tile: transpose(t)(j, i) == t(i, j).
template <class T, int M, int N>
constexpr Tile<T, N, M> transpose(const Tile<T, M, N>& t) {
  return permute<1, 0>(t);
}

/// a and b, which have the same shape, joined along Axis: the result is twice as long on that
/// axis, with a's elements first.
template <int Axis, class T, int... S>
constexpr auto cat(const Tile<T, S...>& a, const Tile<T, S...>& b) {
  constexpr std::array<int64_t, sizeof...(S)> from{S...};
  constexpr bool ok = detail::axis_in_range<Axis, sizeof...(S)>;
  static_assert(ok, "tile::cat<Axis>: Axis must name a dimension of the tiles (0 <= Axis < rank)");
  constexpr auto to = detail::with_axis_doubled(from, Axis);
  detail::tile_of_t<T, to> out;
  if constexpr (ok) {
    // Rows of the split: `outer` chunks of `chunk` contiguous elements in each operand.
    int64_t outer = 1;
    for (int k = 0; k < Axis; ++k) outer *= from[static_cast<std::size_t>(k)];
    const int64_t chunk = Tile<T, S...>::size / outer;
    const auto& sa = detail::TileAccess::storage(a);
    const auto& sb = detail::TileAccess::storage(b);
    auto& dst = detail::TileAccess::storage(out);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < chunk; ++c) {
        dst[static_cast<std::size_t>(2 * o * chunk + c)] = sa[static_cast<std::size_t>(o * chunk + c)];
        dst[static_cast<std::size_t>((2 * o + 1) * chunk + c)] = sb[static_cast<std::size_t>(o * chunk + c)];
      }
  }
  return out;
}

// ---- extract -----------------------------------------------------------------------------------

/// Sub-tile (index...) of t cut into Dims-shaped pieces: the elements whose index along axis k
/// lies in [index_k * Dims_k, (index_k + 1) * Dims_k). Each Dims_k must divide t's dimension k.
/// The indices are run-time values; a piece outside t (an index below 0 or past the last piece)
/// reads zeros, as a load outside a tensor does.
template <int... Dims, class T, int... S, std::integral... I>
constexpr Tile<T, Dims...> extract(const Tile<T, S...>& t, I... index) {
  constexpr bool same_rank = sizeof...(Dims) == sizeof...(S);
  static_assert(same_rank, "tile::extract<Dims...>: Dims must have the tile's rank");
  static_assert(sizeof...(I) == sizeof...(S),
                "tile::extract: give one sub-tile index per dimension of the tile");
  Tile<T, Dims...> out;
  if constexpr (same_rank && sizeof...(I) == sizeof...(S)) {
    constexpr bool divides = ((S % Dims == 0) && ...);
    static_assert(divides, "tile::extract<Dims...>: each dimension of Dims must divide the tile's");
    if constexpr (divides) {
      if (!(detail::index_below(index, S / Dims) && ...)) return out;  // outside t: zeros
      constexpr std::array<int64_t, sizeof...(S)> from{S...};
      constexpr std::array<int64_t, sizeof...(Dims)> piece{Dims...};
      constexpr auto from_stride = detail::row_major_strides(from);
      const std::array<int64_t, sizeof...(S)> origin{static_cast<int64_t>(index) * Dims...};
      const auto& src = detail::TileAccess::storage(t);
      auto& dst = detail::TileAccess::storage(out);
      for (int64_t i = 0; i < Tile<T, Dims...>::size; ++i) {
        const auto idx = detail::unravel(i, piece);
        int64_t j = 0;
        for (std::size_t k = 0; k < piece.size(); ++k) j += (origin[k] + idx[k]) * from_stride[k];
        dst[static_cast<std::size_t>(i)] = src[static_cast<std::size_t>(j)];
      }
    }
  }
  return out;
}

}  // namespace tile
