// tile/array.hpp - owning device arrays and their partitions (host side).
//
//  * `Shape`: up to four non-negative extents, written `{1000}` or `{rows, cols}`.
//  * `Array<T>`: a move-only, row-major, contiguous n-d array (rank 1..4) on a device, made by
//    `zeros/ones/full/empty<T>(shape)`, `arange<T>(n)` or `from_host(vector, shape)`, read back
//    with `to_host()`. Each factory takes an optional last argument, the `tile::Device` to put
//    the array on (default_device() otherwise); a launch runs on its arrays' device.
//  * `Partition<T, Ts...>`: `std::move(a).partition<Ts...>()` consumes the array and cuts it into
//    Ts-shaped tiles, one per tile program; `std::move(p).unpartition()` gives the array back.
//  * `PartitionRef<T, Ts...>`: `a.partition_mut<Ts...>()` borrows the array exclusively until the
//    PartitionRef (or the op it was moved into) is gone.
//  * `std::move(p).map(f)` (either kind) gives program `c` of the grid the tile `f(c, grid)`
//    instead of tile `c` (swizzled schedules: tile/schedule.hpp). The map is evaluated for every
//    program at once and must send them to distinct tiles inside the grid, else tile::Error.
// Borrowing is checked at run time: an array cannot be borrowed exclusively while it is lent,
// read with `to_host()` while it is lent exclusively, or destroyed while lent (that aborts).
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tile/core.hpp"
#include "tile/detail/runtime.hpp"
#include "tile/device.hpp"
#include "tile/error.hpp"

namespace tile {

// ---- Shape -----------------------------------------------------------------------------------

class Shape {
 public:
  static constexpr int max_rank = 4;

  /// The empty shape (rank 0): "no shape given".
  Shape() = default;

  /// Shape{1000}, Shape{rows, cols}, ...; throws tile::Error for a negative extent or rank > 4.
  template <std::integral... I>
  requires(sizeof...(I) >= 1 && (!std::is_same_v<I, bool> && ...))
      Shape(I... dims) {  // NOLINT(google-explicit-constructor): `{rows, cols}` is the intended spelling
    const int64_t d[] = {static_cast<int64_t>(dims)...};
    assign(d, sizeof...(I));
  }

  static Shape from_dims(std::span<const int64_t> dims) {
    Shape s;
    s.assign(dims.data(), dims.size());
    return s;
  }

  int rank() const { return rank_; }
  int64_t operator[](int axis) const { return dims_[static_cast<std::size_t>(axis)]; }
  /// The number of elements (1 for the empty shape).
  int64_t numel() const {
    int64_t n = 1;
    for (int a = 0; a < rank_; ++a) n *= dims_[static_cast<std::size_t>(a)];
    return n;
  }
  const int64_t* begin() const { return dims_.data(); }
  const int64_t* end() const { return dims_.data() + rank_; }

  friend bool operator==(const Shape& a, const Shape& b) { return a.rank_ == b.rank_ && a.dims_ == b.dims_; }

  /// "[1000, 3]"
  std::string str() const {
    std::string s = "[";
    for (int a = 0; a < rank_; ++a) s += (a ? ", " : "") + std::to_string(dims_[static_cast<std::size_t>(a)]);
    return s + "]";
  }

 private:
  void assign(const int64_t* d, std::size_t n) {
    if (n > static_cast<std::size_t>(max_rank))
      throw Error("tile::Shape: rank " + std::to_string(n) + " exceeds the maximum rank 4");
    for (std::size_t a = 0; a < n; ++a) {
      if (d[a] < 0)
        throw Error("tile::Shape: extent " + std::to_string(a) + " is negative (" + std::to_string(d[a]) +
                    ")");
      dims_[a] = d[a];
    }
    rank_ = static_cast<int>(n);
  }

  std::array<int64_t, max_rank> dims_{};
  int rank_ = 0;
};

template <class T>
class Array;
template <class T, int64_t... Ts>
class Partition;
template <class T, int64_t... Ts>
class PartitionRef;

namespace detail {

inline Shape row_major_strides(const Shape& shape) {
  std::array<int64_t, Shape::max_rank> s{};
  int64_t step = 1;
  for (int a = shape.rank() - 1; a >= 0; --a) {
    s[static_cast<std::size_t>(a)] = step;
    step *= shape[a];
  }
  return Shape::from_dims(std::span<const int64_t>(s.data(), static_cast<std::size_t>(shape.rank())));
}

/// ceil(shape / tile) per axis.
template <std::size_t R>
std::array<int64_t, R> grid_of(const Shape& shape, const std::array<int64_t, R>& tile) {
  std::array<int64_t, R> g{};
  for (std::size_t a = 0; a < R; ++a) g[a] = (shape[static_cast<int>(a)] + tile[a] - 1) / tile[a];
  return g;
}

/// The tiles of a mapped partition: for program p (row-major over the grid), its tile's
/// coordinates at tiles[p * rank + axis].
struct ProgramMap {
  int rank = 0;
  std::vector<int32_t> tiles;
  bool operator==(const ProgramMap&) const = default;
};

template <std::size_t R>
std::string coords_str(const std::array<int64_t, R>& c) {
  std::string s = "(";
  for (std::size_t a = 0; a < R; ++a) s += (a ? ", " : "") + std::to_string(c[a]);
  return s + ")";
}

/// Evaluates `f(program, grid)` for every program of `grid` and checks that the tiles are
/// inside the grid and distinct: the runtime check of a map's injectivity.
template <std::size_t R, class F>
std::shared_ptr<const ProgramMap> make_program_map(const std::array<int64_t, R>& grid, F& f,
                                                   const char* what) {
  int64_t n = 1;
  for (int64_t g : grid) n *= g;
  if (n > (int64_t{1} << 31) / static_cast<int64_t>(R))
    throw Error(std::string(what) + ": the grid is too large for a mapped partition");
  auto map = std::make_shared<ProgramMap>();
  map->rank = static_cast<int>(R);
  map->tiles.resize(static_cast<std::size_t>(n) * R);
  std::vector<int64_t> owner(static_cast<std::size_t>(n), -1);
  auto coords_of = [&](int64_t linear) {
    std::array<int64_t, R> c{};
    for (std::size_t a = R; a-- > 0;) {
      c[a] = linear % grid[a];
      linear /= grid[a];
    }
    return c;
  };
  for (int64_t p = 0; p < n; ++p) {
    const std::array<int64_t, R> program = coords_of(p);
    const std::array<int64_t, R> t = f(program, grid);
    int64_t linear = 0;
    for (std::size_t a = 0; a < R; ++a) {
      if (t[a] < 0 || t[a] >= grid[a])
        throw Error(std::string(what) + ": the map sends program " + coords_str(program) + " to tile " +
                    coords_str(t) + ", outside the grid " + coords_str(grid));
      linear = linear * grid[a] + t[a];
      map->tiles[static_cast<std::size_t>(p) * R + a] = static_cast<int32_t>(t[a]);
    }
    int64_t& first = owner[static_cast<std::size_t>(linear)];
    if (first >= 0)
      throw Error(std::string(what) + ": the map sends programs " + coords_str(coords_of(first)) + " and " +
                  coords_str(program) + " to the same tile " + coords_str(t) +
                  "; a mapped partition must give every program its own tile");
    first = p;
  }
  return map;
}

template <class F, std::size_t R>
concept ProgramMapFn = requires(F& f, const std::array<int64_t, R>& c) {
  { f(c, c) } -> std::convertible_to<std::array<int64_t, R>>;
};

/// A non-owning reference to an array's storage.
template <class T>
struct ArrayRef {
  Buffer* buffer = nullptr;
  Shape shape;
  Shape strides;
  T* data() const { return buffer ? static_cast<T*>(buffer->data) : nullptr; }
};

inline void acquire_exclusive(Buffer* b, const std::string& what) {
  if (b->exclusive_loan)
    throw Error(what + ": the array is already borrowed exclusively (by a PartitionRef or a pending op)");
  if (b->shared_loans > 0)
    throw Error(what + ": the array is borrowed by a pending op (as a shared argument); sync the op first");
  b->exclusive_loan = true;
}

inline void acquire_shared(Buffer* b, const std::string& what) {
  if (b->exclusive_loan)
    throw Error(what + ": the array is borrowed exclusively (by a PartitionRef or a pending op)");
  ++b->shared_loans;
}

/// Private access to arrays and partitions for the factories and the launcher.
struct ArrayAccess {
  template <class T>
  static Array<T> allocate(const Shape& shape, const Device& device);
  /// An array over memory tile_rt does not own (see Buffer::external).
  template <class T>
  static Array<T> external(T* data, const Shape& shape, const Shape& strides, const Device& device,
                           void (*release)(void*), void* release_ctx, const char* what);
  template <class T>
  static ArrayRef<T> ref(const Array<T>& a) {
    return {a.buf_.get(), a.shape_, a.strides_};
  }
  template <class P>
  static auto ref(const P& p) {
    return p.ref();
  }
  template <class P>
  static void release(P& p) noexcept {
    p.release();
  }
  template <class P>
  static const ProgramMap* map(const P& p) {
    return p.map_.get();
  }
};

}  // namespace detail

// ---- Array -----------------------------------------------------------------------------------

template <class T>
class Array {
  static_assert(element_type<T>,
                "tile::Array: the element type must be bool, a fixed-width integer, f16, bf16, "
                "f8e4m3, f8e5m2, float, double or complex<float>");

 public:
  using value_type = T;

  /// An array without storage (what a moved-from array becomes).
  Array() = default;
  Array(Array&& o) noexcept
      : buf_(std::move(o.buf_)),
        shape_(std::exchange(o.shape_, Shape())),
        strides_(std::exchange(o.strides_, Shape())) {}
  Array& operator=(Array&& o) noexcept {
    if (this != &o) {
      buf_ = std::move(o.buf_);
      shape_ = std::exchange(o.shape_, Shape());
      strides_ = std::exchange(o.strides_, Shape());
    }
    return *this;
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;

  const Shape& shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  /// Number of elements (0 for an array without storage).
  int64_t size() const { return buf_ ? shape_.numel() : 0; }
  /// Strides in elements (row-major).
  const Shape& strides() const { return strides_; }
  /// Device pointer to the first element.
  T* data() const { return buf_ ? static_cast<T*>(buf_->data) : nullptr; }
  /// False for an array without storage (moved from or default-constructed).
  bool valid() const { return buf_ != nullptr; }
  const Device& device() const {
    require_valid("tile::Array::device");
    return *buf_->device;
  }

  /// Copies the elements to the host, row-major.
  std::vector<T> to_host() const {
    require_valid("tile::Array::to_host");
    if (buf_->exclusive_loan)
      throw Error(
          "tile::Array::to_host: the array is borrowed exclusively (by a PartitionRef or a pending op)");
    const auto n = static_cast<std::size_t>(size());
    if constexpr (std::is_same_v<T, bool>) {
      std::unique_ptr<bool[]> tmp(new bool[n ? n : 1]);
      if (n) detail::copy_to_host(device(), tmp.get(), data(), n * sizeof(bool));
      return std::vector<bool>(tmp.get(), tmp.get() + n);
    } else {
      std::vector<T> v(n);
      if (n) detail::copy_to_host(device(), v.data(), data(), n * sizeof(T));
      return v;
    }
  }

  /// The same elements under another shape with as many of them (row-major order is kept;
  /// nothing is copied): `auto m = std::move(v).reshape({rows, cols})`. Consumes the array.
  Array reshape(Shape shape) && {
    require_valid("tile::Array::reshape");
    if (shape.rank() < 1 || shape.numel() != shape_.numel())
      throw Error("tile::Array::reshape: the shape " + shape.str() + " does not hold the " +
                  std::to_string(shape_.numel()) + " elements of the shape " + shape_.str());
    if (buf_->exclusive_loan || buf_->shared_loans > 0)
      throw Error("tile::Array::reshape: the array is borrowed (by a PartitionRef or a pending op)");
    Array a = std::move(*this);
    a.shape_ = shape;
    a.strides_ = detail::row_major_strides(shape);
    return a;
  }
  void reshape(Shape) & {
    static_assert(detail::false_for_types<T>,
                  "tile::Array::reshape() consumes the array: write std::move(a).reshape(shape)");
  }

  /// Consumes the array into a partition of Ts-shaped tiles: `std::move(a).partition<128>()`.
  template <int64_t... Ts>
  Partition<T, Ts...> partition() && {
    check_partition<Ts...>("tile::Array::partition");
    if (buf_->exclusive_loan || buf_->shared_loans > 0)
      throw Error("tile::Array::partition: the array is borrowed (by a PartitionRef or a pending op)");
    return Partition<T, Ts...>(std::move(*this));
  }
  template <int64_t... Ts>
  void partition() & {
    static_assert(detail::false_for_values<Ts...>,
                  "tile::Array::partition() consumes the array: write std::move(a).partition<...>(), "
                  "or borrow it with a.partition_mut<...>()");
  }

  /// An array over memory the caller owns and keeps alive longer than the array (and every op
  /// that uses it): nothing is copied, and nothing is freed when the array goes. `strides` (in
  /// elements) must be row-major and compact, or omitted.
  static Array borrow_external(T* data, Shape shape, Shape strides = Shape(),
                               const Device& device = default_device()) {
    return detail::ArrayAccess::external<T>(data, shape, strides, device, nullptr, nullptr,
                                            "tile::Array::borrow_external");
  }

  /// Borrows the array exclusively as a partition of Ts-shaped tiles.
  template <int64_t... Ts>
  PartitionRef<T, Ts...> partition_mut() & {
    check_partition<Ts...>("tile::Array::partition_mut");
    return PartitionRef<T, Ts...>(detail::ArrayAccess::ref(*this));
  }

 private:
  friend struct detail::ArrayAccess;

  void require_valid(const char* what) const {
    if (!buf_) throw Error(std::string(what) + ": the array has no storage (it was moved from)");
  }

  template <int64_t... Ts>
  void check_partition(const char* what) const {
    static_assert(sizeof...(Ts) >= 1 && sizeof...(Ts) <= 4,
                  "tile::Array::partition: a tile shape has 1 to 4 dimensions");
    static_assert(((Ts > 0) && ...), "tile::Array::partition: every tile dimension must be positive");
    require_valid(what);
    if (static_cast<int>(sizeof...(Ts)) != rank())
      throw Error(std::string(what) + ": the tile shape has rank " + std::to_string(sizeof...(Ts)) +
                  " but the array " + shape_.str() + " has rank " + std::to_string(rank()));
  }

  std::unique_ptr<detail::Buffer, detail::BufferDeleter> buf_;
  Shape shape_;
  Shape strides_;
};

template <class T>
Array<T> detail::ArrayAccess::allocate(const Shape& shape, const Device& device) {
  if (shape.rank() < 1 || shape.rank() > Shape::max_rank)
    throw Error("tile::Array: the rank must be between 1 and 4 (got shape " + shape.str() + ")");
  Array<T> a;
  a.buf_.reset(buffer_alloc(device, static_cast<std::size_t>(shape.numel()) * sizeof(T)));
  a.shape_ = shape;
  a.strides_ = row_major_strides(shape);
  return a;
}

template <class T>
Array<T> detail::ArrayAccess::external(T* data, const Shape& shape, const Shape& strides, const Device& device,
                                       void (*release)(void*), void* release_ctx, const char* what) {
  auto fail = [&](const std::string& rule) {
    if (release) release(release_ctx);  // the array owned it from the start: give it back
    throw Error(std::string(what) + ": " + rule);
  };
  if (shape.rank() < 1 || shape.rank() > Shape::max_rank)
    fail("the rank must be between 1 and 4 (got shape " + shape.str() + ")");
  if (strides.rank() != 0 && !(strides == row_major_strides(shape))) {
    // Extents of 1 may carry any stride.
    const Shape compact = row_major_strides(shape);
    for (int a = 0; a < shape.rank(); ++a)
      if (strides.rank() != shape.rank() || (shape[a] != 1 && strides[a] != compact[a]))
        fail("the strides " + strides.str() + " are not the row-major strides " + compact.str() +
             " of the shape " + shape.str() + "; tile::Array holds compact row-major data");
  }
  if (shape.numel() > 0 && data == nullptr) fail("the data pointer is null");
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(T) != 0)
    fail("the data pointer is not aligned to the element type");
  Array<T> a;
  a.buf_.reset(buffer_external(device, data, static_cast<std::size_t>(shape.numel()) * sizeof(T), release,
                               release_ctx));
  a.shape_ = shape;
  a.strides_ = row_major_strides(shape);
  return a;
}

// ---- partitions --------------------------------------------------------------------------------

/// An array owned by its partition into Ts-shaped tiles.
template <class T, int64_t... Ts>
class Partition {
 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Ts));
  static constexpr std::array<int64_t, rank> tile_shape{Ts...};

  Partition(Partition&&) noexcept = default;
  Partition& operator=(Partition&&) noexcept = default;

  /// Tiles per axis: ceil(shape / tile).
  std::array<int64_t, rank> grid() const { return detail::grid_of(array_.shape(), tile_shape); }
  /// The partitioned array (read-only access to shape, device, ...).
  const Array<T>& array() const { return array_; }

  /// Program c gets tile f(c, grid) (`std::array<int64_t, rank>` both); see the file comment.
  template <detail::ProgramMapFn<sizeof...(Ts)> F>
  Partition map(F f) && {
    map_ = detail::make_program_map(grid(), f, "tile::Partition::map");
    return std::move(*this);
  }

  /// Gives the array back: `std::move(p).unpartition()`.
  Array<T> unpartition() && { return std::move(array_); }
  void unpartition() & {
    static_assert(detail::false_for_types<T>,
                  "tile::Partition::unpartition() consumes the partition: write std::move(p).unpartition()");
  }

 private:
  friend class Array<T>;
  friend struct detail::ArrayAccess;
  explicit Partition(Array<T>&& a) : array_(std::move(a)) {}
  detail::ArrayRef<T> ref() const { return detail::ArrayAccess::ref(array_); }
  void release() noexcept {}

  Array<T> array_;
  std::shared_ptr<const detail::ProgramMap> map_;
};

/// An exclusive borrow of an array as a partition into Ts-shaped tiles.
template <class T, int64_t... Ts>
class PartitionRef {
 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Ts));
  static constexpr std::array<int64_t, rank> tile_shape{Ts...};

  PartitionRef(PartitionRef&& o) noexcept
      : ref_(o.ref_), held_(std::exchange(o.held_, false)), map_(std::move(o.map_)) {}
  PartitionRef& operator=(PartitionRef&&) = delete;
  PartitionRef(const PartitionRef&) = delete;
  ~PartitionRef() { release(); }

  std::array<int64_t, rank> grid() const { return detail::grid_of(ref_.shape, tile_shape); }
  /// The borrowed array's shape.
  const Shape& shape() const { return ref_.shape; }

  /// Program c gets tile f(c, grid); see the file comment.
  template <detail::ProgramMapFn<sizeof...(Ts)> F>
  PartitionRef map(F f) && {
    map_ = detail::make_program_map(grid(), f, "tile::PartitionRef::map");
    return std::move(*this);
  }

 private:
  friend class Array<T>;
  friend struct detail::ArrayAccess;
  explicit PartitionRef(detail::ArrayRef<T> r) : ref_(std::move(r)) {
    detail::acquire_exclusive(ref_.buffer, "tile::Array::partition_mut");
    held_ = true;
  }
  detail::ArrayRef<T> ref() const { return held_ ? ref_ : detail::ArrayRef<T>{}; }
  void release() noexcept {
    if (held_) ref_.buffer->exclusive_loan = false;
    held_ = false;
  }

  detail::ArrayRef<T> ref_;
  bool held_ = false;
  std::shared_ptr<const detail::ProgramMap> map_;
};

// ---- factories -------------------------------------------------------------------------------

namespace detail {
/// Writes n host elements into a new array (directly on the CPU backend).
template <class T, class F>
Array<T> make_array(const Shape& shape, const Device& device, F&& element) {
  Array<T> a = ArrayAccess::allocate<T>(shape, device);
  const auto n = static_cast<std::size_t>(a.size());
  if (n == 0) return a;
  if (!a.device().is_gpu()) {
    for (std::size_t i = 0; i < n; ++i) a.data()[i] = element(i);
  } else {
    std::unique_ptr<T[]> host(new T[n]);
    for (std::size_t i = 0; i < n; ++i) host[i] = element(i);
    copy_to_device(a.device(), a.data(), host.get(), n * sizeof(T));
  }
  return a;
}
}  // namespace detail

/// An array with unspecified contents.
template <class T>
Array<T> empty(Shape shape, const Device& device = default_device()) {
  return detail::ArrayAccess::allocate<T>(shape, device);
}

template <class T>
Array<T> full(Shape shape, T value, const Device& device = default_device()) {
  return detail::make_array<T>(shape, device, [&](std::size_t) { return value; });
}

template <class T>
Array<T> zeros(Shape shape, const Device& device = default_device()) {
  return full<T>(shape, T{}, device);
}

template <class T>
Array<T> ones(Shape shape, const Device& device = default_device()) {
  return full<T>(shape, detail::convert<T>(1), device);
}

/// The 1-D array 0, 1, ..., n-1.
template <class T>
Array<T> arange(int64_t n, const Device& device = default_device()) {
  return detail::make_array<T>(Shape(n), device,
                               [](std::size_t i) { return detail::convert<T>(static_cast<int64_t>(i)); });
}

/// An array holding a copy of `values`; 1-D unless a shape with as many elements is given.
template <class T>
Array<T> from_host(const std::vector<T>& values, Shape shape = Shape(),
                   const Device& device = default_device()) {
  if (shape.rank() == 0) shape = Shape(values.size());
  if (static_cast<std::size_t>(shape.numel()) != values.size())
    throw Error("tile::from_host: the shape " + shape.str() + " holds " + std::to_string(shape.numel()) +
                " elements but the vector has " + std::to_string(values.size()));
  return detail::make_array<T>(shape, device, [&](std::size_t i) -> T { return values[i]; });
}

}  // namespace tile
