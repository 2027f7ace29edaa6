// tile/tensor.hpp - views of global memory as a kernel sees them.
//
//  * `Tensor<T, Dims...>`: a strided view; each dim static or `tile::dyn`. A kernel receives an
//    exclusive `Tensor&` (its own piece of a partitioned output) or a shared `const Tensor&`
//    (a whole input array). The view knows its valid extent (a piece at the array's edge is
//    clipped), its strides, its origin in the underlying array and that array's shape.
//  * `TiledView<T, Ts...>` / `TiledViewMut<T, Ts...>`: the view cut into Ts-shaped tiles, from
//    `t.partition<Ts...>()` (read-only) and `z.partition_mut<Ts...>()` (exclusive views only).
//  * free functions `num_tiles`, `load_tile_like`, `block_id`, `num_blocks`, and the free forms
//    of the members (`tile::partition<BM, BK>(a)`, `tile::load(tiles, i, j)`, ...) for code
//    where a view's type is dependent and a member template would need `.template`;
//  * `tile::unchecked::load/store`: tile access without bounds handling (TILE_UNSAFE code only).
// Loads outside the valid extent read zeros; stores outside it are dropped. Tensors cannot be
// copied (a copy of a shared view would be writable) and `store` is a non-const member, so a
// `const Tensor&` cannot be written.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <string>
#include <type_traits>

#include "tile/core.hpp"
#include "tile/tile_value.hpp"

namespace tile {

template <class T, int... Dims>
class Tensor;
template <class T, int... Ts>
class TiledView;
template <class T, int... Ts>
class TiledViewMut;

namespace detail {

/// `index_t<X>...` expands to one int64_t parameter per tile dimension.
template <int>
using index_t = int64_t;

/// TILE_CPU_RACECHECK=1: the CPU backend records, per launch, which program wrote each element
/// and reports an element written by two programs (runtime/cpu/race_check.cpp).
struct RaceLog;
void race_log_record(RaceLog* log, const void* element, int64_t program) noexcept;

/// The first failed tile::check of a CPU launch: the failing program claims `state` (0 -> 1),
/// writes `text`, then publishes it (2). The launch reads it after every program has finished.
struct CheckSlot {
  std::atomic<int> state{0};
  std::string text;
};

/// The coordinates of the running tile program. The CPU backend sets it on each worker thread
/// before calling the kernel; outside a launch the grid is a single program.
struct ProgramContext {
  int rank = 1;
  std::array<int64_t, kMaxRank> id{0, 0, 0, 0};
  std::array<int64_t, kMaxRank> count{1, 1, 1, 1};
  int64_t linear = 0;          // the program's number, row-major over the grid
  RaceLog* race = nullptr;     // set while TILE_CPU_RACECHECK records the launch
  CheckSlot* checks = nullptr; // where a failed tile::check reports, during a CPU launch
};
inline thread_local ProgramContext current_program{};

/// Calls f(index, flat) for every row of a row-major box: index[R-1] is 0 and flat is the
/// row-major position of the row's first element.
template <std::size_t R, class F>
constexpr void for_each_row(const std::array<int64_t, R>& shape, F&& f) {
  int64_t rows = 1;
  for (std::size_t a = 0; a + 1 < R; ++a) rows *= shape[a];
  std::array<int64_t, R> idx{};
  for (int64_t r = 0; r < rows; ++r) {
    f(idx, r * shape[R - 1]);
    for (int a = static_cast<int>(R) - 2; a >= 0; --a) {
      if (++idx[a] < shape[a]) break;
      idx[a] = 0;
    }
  }
}

/// Visits the in-bounds part of the box [start, start + shape) of a view with the given valid
/// extent: f(tile_flat_index, element_offset, count) for each contiguous run of a row.
template <std::size_t R, class F>
constexpr void for_each_box_run(const std::array<int64_t, R>& shape, const std::array<int64_t, R>& extent,
                                const std::array<int64_t, R>& stride, const std::array<int64_t, R>& start,
                                F&& f) {
  const int64_t c0 = start[R - 1];
  const int64_t lo = std::max<int64_t>(0, -c0);
  const int64_t hi = std::min<int64_t>(shape[R - 1], extent[R - 1] - c0);
  if (lo >= hi) return;
  for_each_row(shape, [&](const std::array<int64_t, R>& idx, int64_t flat) {
    int64_t off = 0;
    for (std::size_t a = 0; a + 1 < R; ++a) {
      const int64_t c = start[a] + idx[a];
      if (c < 0 || c >= extent[a]) return;
      off += c * stride[a];
    }
    f(flat + lo, off + (c0 + lo) * stride[R - 1], hi - lo);
  });
}

/// The TileT-shaped box at `start` of a view; zeros outside the valid extent.
template <class TileT, class T, std::size_t R>
TileT load_box(const T* base, const std::array<int64_t, R>& extent, const std::array<int64_t, R>& stride,
               const std::array<int64_t, R>& start) {
  TileT t;
  auto& s = TileAccess::storage(t);
  const int64_t inner = stride[R - 1];
  for_each_box_run(TileT::shape, extent, stride, start, [&](int64_t flat, int64_t off, int64_t n) {
    for (int64_t k = 0; k < n; ++k) s[static_cast<std::size_t>(flat + k)] = base[off + k * inner];
  });
  return t;
}

/// Writes tile t to the box at `start` of a view, dropping elements outside the valid extent.
template <class TileT, class T, std::size_t R>
void store_box(const TileT& t, T* base, const std::array<int64_t, R>& extent,
               const std::array<int64_t, R>& stride, const std::array<int64_t, R>& start) {
  const auto& s = TileAccess::storage(t);
  const int64_t inner = stride[R - 1];
  RaceLog* race = current_program.race;
  for_each_box_run(TileT::shape, extent, stride, start, [&](int64_t flat, int64_t off, int64_t n) {
    for (int64_t k = 0; k < n; ++k) base[off + k * inner] = s[static_cast<std::size_t>(flat + k)];
    if (race)
      for (int64_t k = 0; k < n; ++k) race_log_record(race, &base[off + k * inner], current_program.linear);
  });
}

/// Construction of and raw access to views: for the runtime and tests, not for kernels.
struct TensorAccess {
  template <class TensorT, class T, std::size_t R>
  static TensorT make(T* data, const std::array<int64_t, R>& extent, const std::array<int64_t, R>& stride,
                      const std::array<int64_t, R>& origin, const std::array<int64_t, R>& array_shape) {
    return TensorT(data, extent, stride, origin, array_shape);
  }
  template <class V>
  static auto data(const V& v) {
    return v.data_;
  }
  template <class V>
  static const auto& extent(const V& v) {
    return v.extent_;
  }
  template <class V>
  static const auto& strides(const V& v) {
    return v.stride_;
  }
  template <class V>
  static const auto& origin(const V& v) {
    return v.origin_;
  }
  template <class V>
  static const auto& array_shape(const V& v) {
    return v.array_shape_;
  }
};

template <int... Ts>
constexpr void check_tile_shape() {
  static_assert(sizeof...(Ts) >= 1 && sizeof...(Ts) <= 4, "tile: a tile shape has 1 to 4 dimensions");
  static_assert(((Ts > 0) && ...),
                "tile: every tile dimension must be positive (tile::dyn is not a tile size)");
  static_assert(((Ts <= 0 || is_pow2(Ts)) && ...), "tile: every tile dimension must be a power of two");
}

}  // namespace detail

// ---- Tensor ----------------------------------------------------------------------------------

template <class T, int... Dims>
class Tensor {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 4,
                "tile::Tensor: the rank must be between 1 and 4");
  static_assert(((Dims > 0 || Dims == dyn) && ...),
                "tile::Tensor: every dimension must be positive or tile::dyn");
  static_assert(element_type<T>,
                "tile::Tensor: the element type must be bool, a fixed-width integer, f16, bf16, "
                "f8e4m3, f8e5m2, float, double or complex<float>");

 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Dims));
  /// The declared dimensions (tile::dyn for run-time ones).
  static constexpr std::array<int64_t, rank> static_shape{Dims...};

  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(Tensor&&) = delete;

  /// The valid extent along `axis`: at most the static dimension, less for a clipped piece.
  int64_t shape(int axis) const { return extent_[static_cast<std::size_t>(axis)]; }

  /// The whole view as a Tile<T, Dims...>; elements past the valid extent read as zero.
  /// (The return type is deduced so that a dynamic view fails with the message below only.)
  auto load() const {
    static_assert(((Dims != dyn) && ...), "Tensor::load(): every dimension of the view must be static");
    static_assert(((Dims == dyn || detail::is_pow2(Dims)) && ...),
                  "Tensor::load(): the whole view loads as one tile, and every tile dimension must "
                  "be a power of two; load it through partition<...>() with power-of-two tiles");
    if constexpr (((Dims != dyn && detail::is_pow2(Dims)) && ...))
      return detail::load_box<Tile<T, Dims...>>(data_, extent_, stride_, std::array<int64_t, rank>{});
  }

  /// Writes the whole view; elements past the valid extent are dropped. Only an exclusive
  /// (non-const) view can store.
  void store(const Tile<T, Dims...>& t) {
    static_assert(((Dims != dyn) && ...), "Tensor::store(): every dimension of the view must be static");
    static_assert(((Dims == dyn || detail::is_pow2(Dims)) && ...),
                  "Tensor::store(): the whole view stores as one tile, and every tile dimension "
                  "must be a power of two; store it through partition_mut<...>() with "
                  "power-of-two tiles");
    if constexpr (((Dims != dyn && detail::is_pow2(Dims)) && ...))
      detail::store_box(t, data_, extent_, stride_, std::array<int64_t, rank>{});
  }

  /// A read-only view of this one cut into Ts-shaped tiles.
  template <int... Ts>
  TiledView<T, Ts...> partition() const {
    detail::check_tile_shape<Ts...>();
    static_assert(sizeof...(Ts) == sizeof...(Dims),
                  "Tensor::partition(): the tile rank must equal the view's rank");
    return TiledView<T, Ts...>(data_, extent_, stride_);
  }

  /// A mutable view of this (exclusive) view cut into Ts-shaped tiles; stores are clipped to
  /// this view's valid extent.
  template <int... Ts>
  TiledViewMut<T, Ts...> partition_mut() {
    detail::check_tile_shape<Ts...>();
    static_assert(sizeof...(Ts) == sizeof...(Dims),
                  "Tensor::partition_mut(): the tile rank must equal the view's rank");
    return TiledViewMut<T, Ts...>(data_, extent_, stride_);
  }

 private:
  friend struct detail::TensorAccess;
  using Coords = std::array<int64_t, sizeof...(Dims)>;
  Tensor(T* data, const Coords& extent, const Coords& stride, const Coords& origin, const Coords& array_shape)
      : data_(data), extent_(extent), stride_(stride), origin_(origin), array_shape_(array_shape) {}

  T* data_ = nullptr;
  Coords extent_{};
  Coords stride_{};
  Coords origin_{};
  Coords array_shape_{};
};

// ---- tiled views -----------------------------------------------------------------------------

/// Read-only view cut into Ts-shaped tiles: tile (i, j, ...) starts at element (i*T0, j*T1, ...).
template <class T, int... Ts>
class TiledView {
 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Ts));
  static constexpr std::array<int64_t, rank> tile_shape{Ts...};

  /// Tile (i, j, ...); zeros past the view's valid extent (and for negative indices).
  Tile<T, Ts...> load(detail::index_t<Ts>... i) const {
    return detail::load_box<Tile<T, Ts...>>(data_, extent_, stride_, Coords{(i * Ts)...});
  }

 private:
  template <class, int...>
  friend class Tensor;
  friend struct detail::TensorAccess;
  using Coords = std::array<int64_t, sizeof...(Ts)>;
  TiledView(const T* data, const Coords& extent, const Coords& stride)
      : data_(data), extent_(extent), stride_(stride) {}

  const T* data_;
  Coords extent_;
  Coords stride_;
};

/// Mutable tiled view of an exclusive view. Move-only, like the exclusive view it comes from.
template <class T, int... Ts>
class TiledViewMut {
 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Ts));
  static constexpr std::array<int64_t, rank> tile_shape{Ts...};

  TiledViewMut(const TiledViewMut&) = delete;
  TiledViewMut& operator=(const TiledViewMut&) = delete;
  TiledViewMut(TiledViewMut&&) noexcept = default;
  TiledViewMut& operator=(TiledViewMut&&) = delete;

  /// Tile (i, j, ...); zeros past the view's valid extent.
  Tile<T, Ts...> load(detail::index_t<Ts>... i) const {
    return detail::load_box<Tile<T, Ts...>>(data_, extent_, stride_, Coords{(i * Ts)...});
  }

  /// Writes tile t at tile index (i, j, ...); elements past the valid extent are dropped.
  void store(const Tile<T, Ts...>& t, detail::index_t<Ts>... i) {
    detail::store_box(t, data_, extent_, stride_, Coords{(i * Ts)...});
  }

 private:
  template <class, int...>
  friend class Tensor;
  friend struct detail::TensorAccess;
  using Coords = std::array<int64_t, sizeof...(Ts)>;
  TiledViewMut(T* data, const Coords& extent, const Coords& stride)
      : data_(data), extent_(extent), stride_(stride) {}

  T* data_;
  Coords extent_;
  Coords stride_;
};

// ---- free forms of the members ---------------------------------------------------------------
// The same operations as free functions, for code where the view's type depends on a template
// parameter: `tile::partition<BM, BK>(a)` needs no `.template` where `a.template
// partition<BM, BK>()` does.

/// `t.partition<Ts...>()`.
template <int... Ts, class T, int... Dims>
TiledView<T, Ts...> partition(const Tensor<T, Dims...>& t) {
  return t.template partition<Ts...>();
}
/// `z.partition_mut<Ts...>()`: only an exclusive (non-const) view.
template <int... Ts, class T, int... Dims>
TiledViewMut<T, Ts...> partition_mut(Tensor<T, Dims...>& z) {
  return z.template partition_mut<Ts...>();
}
/// `t.load()`: the whole view as one tile.
template <class T, int... Dims>
auto load(const Tensor<T, Dims...>& t) {
  return t.load();
}
/// `v.load(i...)`: tile (i, j, ...) of a tiled view.
template <class T, int... Ts>
Tile<T, Ts...> load(const TiledView<T, Ts...>& v, detail::index_t<Ts>... i) {
  return v.load(i...);
}
template <class T, int... Ts>
Tile<T, Ts...> load(const TiledViewMut<T, Ts...>& v, detail::index_t<Ts>... i) {
  return v.load(i...);
}
/// `z.store(t)`: the whole (exclusive) view.
template <class T, int... Dims>
void store(Tensor<T, Dims...>& z, const Tile<T, Dims...>& t) {
  z.store(t);
}
/// `v.store(t, i...)`: tile (i, j, ...) of a mutable tiled view.
template <class T, int... Ts>
void store(TiledViewMut<T, Ts...>& v, const Tile<T, Ts...>& t, detail::index_t<Ts>... i) {
  v.store(t, i...);
}

/// Number of tiles along `axis`: ceil(extent / tile), counting the partial tile at the edge.
template <class T, int... Ts>
int64_t num_tiles(const TiledView<T, Ts...>& v, int axis) {
  const auto a = static_cast<std::size_t>(axis);
  return (detail::TensorAccess::extent(v)[a] + TiledView<T, Ts...>::tile_shape[a] - 1) /
         TiledView<T, Ts...>::tile_shape[a];
}
template <class T, int... Ts>
int64_t num_tiles(const TiledViewMut<T, Ts...>& v, int axis) {
  const auto a = static_cast<std::size_t>(axis);
  return (detail::TensorAccess::extent(v)[a] + TiledViewMut<T, Ts...>::tile_shape[a] - 1) /
         TiledViewMut<T, Ts...>::tile_shape[a];
}

/// The tile of x at z's position: z's origin taken in x's coordinates (z.origin - x.origin),
/// with the shape of z's (static) dimensions; zeros past x's valid extent.
/// Returns a Tile<T, B...> (deduced, so that misuse fails with the messages below only).
template <class T, int... A, class U, int... B>
auto load_tile_like(const Tensor<T, A...>& x, const Tensor<U, B...>& z) {
  static_assert(sizeof...(A) == sizeof...(B), "tile::load_tile_like(x, z): x and z must have the same rank");
  static_assert(((B != dyn) && ...), "tile::load_tile_like(x, z): every dimension of z must be static");
  if constexpr (sizeof...(A) == sizeof...(B) && ((B != dyn) && ...)) {
    using Acc = detail::TensorAccess;
    std::array<int64_t, sizeof...(B)> start{};
    for (std::size_t a = 0; a < start.size(); ++a) start[a] = Acc::origin(z)[a] - Acc::origin(x)[a];
    return detail::load_box<Tile<T, B...>>(Acc::data(x), Acc::extent(x), Acc::strides(x), start);
  }
}

/// This tile program's coordinate along grid axis `axis` (0 outside the grid's rank).
inline int64_t block_id(int axis = 0) {
  const auto& p = detail::current_program;
  return axis >= 0 && axis < p.rank ? p.id[static_cast<std::size_t>(axis)] : 0;
}

/// The number of tile programs along grid axis `axis` (1 outside the grid's rank).
inline int64_t num_blocks(int axis = 0) {
  const auto& p = detail::current_program;
  return axis >= 0 && axis < p.rank ? p.count[static_cast<std::size_t>(axis)] : 1;
}

// ---- unchecked access ------------------------------------------------------------------------

/// Tile loads and stores WITHOUT bounds handling, for code that has proved its indices itself.
/// Only a function marked TILE_UNSAFE or TILE_TRUSTED("why") may use them (tilecc rule
/// tile-unchecked-outside-unsafe). Tile (i, j, ...) of a tiled view must lie entirely inside
/// the view's valid extent: nothing is padded, clipped or dropped, on the CPU path as on the
/// GPU, and a tile reaching past the extent (or a negative index) reads or writes whatever
/// memory lies there: undefined behaviour, not a zero or a dropped element.
namespace unchecked {

namespace detail_unchecked {
/// Calls f(element pointer, flat tile position, inner stride) for each row of the tile box at
/// `start`, with no extent check.
template <class TileT, class T, std::size_t R, class F>
void for_each_tile_row(T* base, const std::array<int64_t, R>& stride, const std::array<int64_t, R>& start,
                       F&& f) {
  detail::for_each_row(TileT::shape, [&](const std::array<int64_t, R>& idx, int64_t flat) {
    int64_t off = 0;
    for (std::size_t a = 0; a < R; ++a) off += (start[a] + idx[a]) * stride[a];
    f(base + off, flat, stride[R - 1]);
  });
}
}  // namespace detail_unchecked

/// Tile (i, j, ...) of a tiled view, read without bounds handling.
template <class T, int... Ts>
Tile<T, Ts...> load(const TiledView<T, Ts...>& v, detail::index_t<Ts>... i) {
  using Acc = detail::TensorAccess;
  Tile<T, Ts...> t;
  auto& s = detail::TileAccess::storage(t);
  constexpr int64_t width = Tile<T, Ts...>::shape[sizeof...(Ts) - 1];
  detail_unchecked::for_each_tile_row<Tile<T, Ts...>>(
      Acc::data(v), Acc::strides(v), std::array<int64_t, sizeof...(Ts)>{(i * Ts)...},
      [&](const T* row, int64_t flat, int64_t inner) {
        for (int64_t k = 0; k < width; ++k) s[static_cast<std::size_t>(flat + k)] = row[k * inner];
      });
  return t;
}

/// Tile (i, j, ...) of a mutable tiled view, read without bounds handling.
template <class T, int... Ts>
Tile<T, Ts...> load(const TiledViewMut<T, Ts...>& v, detail::index_t<Ts>... i) {
  using Acc = detail::TensorAccess;
  Tile<T, Ts...> t;
  auto& s = detail::TileAccess::storage(t);
  constexpr int64_t width = Tile<T, Ts...>::shape[sizeof...(Ts) - 1];
  detail_unchecked::for_each_tile_row<Tile<T, Ts...>>(
      static_cast<const T*>(Acc::data(v)), Acc::strides(v), std::array<int64_t, sizeof...(Ts)>{(i * Ts)...},
      [&](const T* row, int64_t flat, int64_t inner) {
        for (int64_t k = 0; k < width; ++k) s[static_cast<std::size_t>(flat + k)] = row[k * inner];
      });
  return t;
}

/// Writes tile t at tile index (i, j, ...) of a mutable tiled view without bounds handling.
template <class T, int... Ts>
void store(TiledViewMut<T, Ts...>& v, const Tile<T, Ts...>& t, detail::index_t<Ts>... i) {
  using Acc = detail::TensorAccess;
  const auto& s = detail::TileAccess::storage(t);
  constexpr int64_t width = Tile<T, Ts...>::shape[sizeof...(Ts) - 1];
  detail_unchecked::for_each_tile_row<Tile<T, Ts...>>(
      Acc::data(v), Acc::strides(v), std::array<int64_t, sizeof...(Ts)>{(i * Ts)...},
      [&](T* row, int64_t flat, int64_t inner) {
        for (int64_t k = 0; k < width; ++k) row[k * inner] = s[static_cast<std::size_t>(flat + k)];
        if (detail::RaceLog* race = detail::current_program.race)
          for (int64_t k = 0; k < width; ++k) detail::race_log_record(race, &row[k * inner], detail::current_program.linear);
      });
}

}  // namespace unchecked

}  // namespace tile
