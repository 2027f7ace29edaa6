// tile/atomic.hpp - `tile::Atomic<T, Dims...>`: an array every tile program may update at once.
//
//  * A kernel parameter `tile::Atomic<T, Dims...>&` is the whole array (each dim static or
//    `tile::dyn`), shared by all tile programs of the launch like a `const Tensor&`, but
//    writable through atomic read-modify-write updates only. It has no load or store: a plain
//    access would race with the other programs' updates (tilecc rule tile-atomic-only).
//  * Tile updates, indexed like a tiled view's load/store: `a.atomic_add(t, i, j, ...)` updates
//    the t-shaped tile (i, j, ...), i.e. elements [i*T0, (i+1)*T0) x [j*T1, (j+1)*T1) ..., and
//    returns the old values as a Tile. Elements past the array's extent are dropped exactly like
//    stores (their old values read as zero). `atomic_add`, `atomic_max`, `atomic_min` (for
//    floating types a NaN operand yields the other one, like tile::max/min), `atomic_exchange`
//    and `atomic_cas(expected, desired, i, ...)` (compares bit patterns, like CUDA's atomicCAS;
//    the old value equals `expected` exactly where the swap happened).
//  * Element updates: `a.atomic_add(v, i, j, ...)` with a scalar v updates element (i, j, ...)
//    and returns its old value (T{} when the element is out of range and the update dropped).
//  * `a.shape(axis)` is the array's extent.
//  * Element types: those of Tensor except f8e4m3, f8e5m2 and complex<float> (rejected at
//    compile time), and atomic_add/max/min also reject bool.
// Every element update is atomic on its own; a tile update is not atomic as a whole (the order
// in which two programs' updates of one tile interleave is unspecified). On the CPU each element
// update is a std::atomic_ref operation (a compare-and-swap loop where there is no direct one);
// on the GPU a native atomic or a compare-and-swap loop with the same rule.
#pragma once

#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "tile/core.hpp"
#include "tile/tensor.hpp"
#include "tile/tile_value.hpp"

namespace tile {

namespace detail {

/// Atomic read-modify-write of one element: stores f(old) and returns old.
template <class T, class F>
T atomic_update(T& element, F f) {
  std::atomic_ref<T> ref(element);
  T old = ref.load();
  for (;;) {
    const T desired = f(old);
    // Nothing to write (max/min that keep the old value): the load was the atomic step.
    if (std::memcmp(&desired, &old, sizeof(T)) == 0) return old;
    if (ref.compare_exchange_weak(old, desired)) return old;
  }
}

template <class T>
T atomic_add_element(T& element, T v) {
  if constexpr (std::is_integral_v<T>) {
    return std::atomic_ref<T>(element).fetch_add(v);  // wraps, as on the GPU
  } else {
    return atomic_update(element, [v](T old) { return static_cast<T>(old + v); });
  }
}

template <class T>
T atomic_exchange_element(T& element, T v) {
  return std::atomic_ref<T>(element).exchange(v);
}

template <class T>
T atomic_cas_element(T& element, T expected, T desired) {
  std::atomic_ref<T>(element).compare_exchange_strong(expected, desired);
  return expected;  // the old value: unchanged on success, the element's value on failure
}

}  // namespace detail

template <class T, int... Dims>
class Atomic {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 4,
                "tile::Atomic: the rank must be between 1 and 4");
  static_assert(((Dims > 0 || Dims == dyn) && ...),
                "tile::Atomic: every dimension must be positive or tile::dyn");
  static_assert(element_type<T>,
                "tile::Atomic: the element type must be bool, a fixed-width integer, f16, bf16, "
                "f8e4m3, f8e5m2, float, double or complex<float>");
  static_assert(!std::is_same_v<T, f8e4m3> && !std::is_same_v<T, f8e5m2> && !complex_element<T>,
                "tile::Atomic: f8e4m3, f8e5m2 and complex<float> elements have no atomic updates; "
                "accumulate into a float array (for complex, one for each part)");

 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Dims));
  /// The declared dimensions (tile::dyn for run-time ones).
  static constexpr std::array<int64_t, rank> static_shape{Dims...};

  Atomic(const Atomic&) = delete;
  Atomic& operator=(const Atomic&) = delete;
  Atomic(Atomic&&) noexcept = default;
  Atomic& operator=(Atomic&&) = delete;

  /// The array's extent along `axis`.
  int64_t shape(int axis) const { return extent_[static_cast<std::size_t>(axis)]; }

  // ---- tile updates: the Ts-shaped tile (i, j, ...); returns the old values ----

  /// Adds t elementwise.
  template <int... Ts>
  Tile<T, Ts...> atomic_add(const Tile<T, Ts...>& t, detail::index_t<Ts>... i) {
    static_assert(arithmetic_element<T>, "tile::Atomic::atomic_add: the element type cannot be bool");
    return update_tile(t, std::array<int64_t, sizeof...(Ts)>{(i * Ts)...}, [](T& e, T v) { return detail::atomic_add_element(e, v); });
  }
  /// Elementwise maximum (a NaN operand yields the other one).
  template <int... Ts>
  Tile<T, Ts...> atomic_max(const Tile<T, Ts...>& t, detail::index_t<Ts>... i) {
    static_assert(arithmetic_element<T>, "tile::Atomic::atomic_max: the element type cannot be bool");
    return update_tile(t, std::array<int64_t, sizeof...(Ts)>{(i * Ts)...}, [](T& e, T v) {
      return detail::atomic_update(e, [v](T old) { return detail::max_value(old, v); });
    });
  }
  /// Elementwise minimum (a NaN operand yields the other one).
  template <int... Ts>
  Tile<T, Ts...> atomic_min(const Tile<T, Ts...>& t, detail::index_t<Ts>... i) {
    static_assert(arithmetic_element<T>, "tile::Atomic::atomic_min: the element type cannot be bool");
    return update_tile(t, std::array<int64_t, sizeof...(Ts)>{(i * Ts)...}, [](T& e, T v) {
      return detail::atomic_update(e, [v](T old) { return detail::min_value(old, v); });
    });
  }
  /// Replaces the elements with t's.
  template <int... Ts>
  Tile<T, Ts...> atomic_exchange(const Tile<T, Ts...>& t, detail::index_t<Ts>... i) {
    return update_tile(t, std::array<int64_t, sizeof...(Ts)>{(i * Ts)...}, [](T& e, T v) { return detail::atomic_exchange_element(e, v); });
  }
  /// Where an element's bits equal `expected`'s, replaces it with `desired`'s.
  template <int... Ts>
  Tile<T, Ts...> atomic_cas(const Tile<T, Ts...>& expected, const Tile<T, Ts...>& desired,
                            detail::index_t<Ts>... i) {
    static_assert(sizeof...(Ts) == sizeof...(Dims), "tile::Atomic: the tile rank must equal the array's rank");
    Tile<T, Ts...> old;
    if constexpr (sizeof...(Ts) == sizeof...(Dims)) {
      auto& o = detail::TileAccess::storage(old);
      const auto& x = detail::TileAccess::storage(expected);
      const auto& d = detail::TileAccess::storage(desired);
      for_each_element<Tile<T, Ts...>>(Coords{(i * Ts)...}, [&](std::size_t k, T& e) {
        o[k] = detail::atomic_cas_element(e, x[k], d[k]);
      });
    }
    return old;
  }

  // ---- element updates: element (i, j, ...); returns its old value ----

  T atomic_add(T v, detail::index_t<Dims>... i) {
    static_assert(arithmetic_element<T>, "tile::Atomic::atomic_add: the element type cannot be bool");
    T* e = element(Coords{i...});
    return e ? detail::atomic_add_element(*e, v) : T{};
  }
  T atomic_max(T v, detail::index_t<Dims>... i) {
    static_assert(arithmetic_element<T>, "tile::Atomic::atomic_max: the element type cannot be bool");
    T* e = element(Coords{i...});
    return e ? detail::atomic_update(*e, [v](T old) { return detail::max_value(old, v); }) : T{};
  }
  T atomic_min(T v, detail::index_t<Dims>... i) {
    static_assert(arithmetic_element<T>, "tile::Atomic::atomic_min: the element type cannot be bool");
    T* e = element(Coords{i...});
    return e ? detail::atomic_update(*e, [v](T old) { return detail::min_value(old, v); }) : T{};
  }
  T atomic_exchange(T v, detail::index_t<Dims>... i) {
    T* e = element(Coords{i...});
    return e ? detail::atomic_exchange_element(*e, v) : T{};
  }
  T atomic_cas(T expected, T desired, detail::index_t<Dims>... i) {
    T* e = element(Coords{i...});
    return e ? detail::atomic_cas_element(*e, expected, desired) : T{};
  }

 private:
  friend struct detail::TensorAccess;
  using Coords = std::array<int64_t, sizeof...(Dims)>;
  Atomic(T* data, const Coords& extent, const Coords& stride, const Coords& origin, const Coords& array_shape)
      : data_(data), extent_(extent), stride_(stride), origin_(origin), array_shape_(array_shape) {}

  /// The element at `idx`, or null outside the extent.
  T* element(const Coords& idx) const {
    int64_t off = 0;
    for (std::size_t a = 0; a < idx.size(); ++a) {
      if (idx[a] < 0 || idx[a] >= extent_[a]) return nullptr;
      off += idx[a] * stride_[a];
    }
    return data_ + off;
  }

  /// Calls f(flat tile position, element) for each in-range element of the TileT box at `start`.
  template <class TileT, class F>
  void for_each_element(const Coords& start, F&& f) const {
    const int64_t inner = stride_[sizeof...(Dims) - 1];
    detail::for_each_box_run(TileT::shape, extent_, stride_, start, [&](int64_t flat, int64_t off, int64_t n) {
      for (int64_t k = 0; k < n; ++k) f(static_cast<std::size_t>(flat + k), data_[off + k * inner]);
    });
  }

  /// old[k] = op(element, t[k]) over the tile at `start`.
  template <int... Ts, class Op>
  Tile<T, Ts...> update_tile(const Tile<T, Ts...>& t, const std::array<int64_t, sizeof...(Ts)>& start, Op op) {
    static_assert(sizeof...(Ts) == sizeof...(Dims), "tile::Atomic: the tile rank must equal the array's rank");
    Tile<T, Ts...> old;
    if constexpr (sizeof...(Ts) == sizeof...(Dims)) {
      auto& o = detail::TileAccess::storage(old);
      const auto& v = detail::TileAccess::storage(t);
      for_each_element<Tile<T, Ts...>>(start, [&](std::size_t k, T& e) { o[k] = op(e, v[k]); });
    }
    return old;
  }

  T* data_ = nullptr;
  Coords extent_{};
  Coords stride_{};
  Coords origin_{};
  Coords array_shape_{};
};

}  // namespace tile
