// tile/array.hpp - owning device arrays and their partitions (host side).
//
//  * `Shape`: up to four non-negative extents, written `{1000}` or `{rows, cols}`.
//  * `Array<T>`: a move-only n-d array (rank 1..4) on a device, made by
//    `zeros/ones/full/empty<T>(shape)`, `arange<T>(n)`, `rand/randn<T>(shape, seed)` (uniform in
//    [0, 1) / standard normal, the same values on every device) or `from_host(vector, shape)`, read back
//    with `to_host()`. Each factory takes an optional last argument, the `tile::Device` to put
//    the array on (default_device() otherwise); a launch runs on its arrays' device. Arrays
//    tile_rt makes are compact row-major; one over external memory (`Array::borrow_external`,
//    `from_dlpack` in tile/dlpack.hpp) keeps that memory's strides, which may be any that address
//    every element once (column-major, padded rows, ...): to_host gathers, launches and views
//    use them, and only reshape needs compact row-major data.
//  * `Partition<T, Ts...>`: `std::move(a).partition<Ts...>()` consumes the array and cuts it into
//    Ts-shaped tiles, one per tile program; `std::move(p).unpartition()` gives the array back.
//  * `PartitionRef<T, Ts...>`: `a.partition_mut<Ts...>()` borrows the array exclusively until the
//    PartitionRef (or the op it was moved into) is gone.
//  * `std::move(p).map(f)` (either kind) gives program `c` of the grid the tile `f(c, grid)`
//    instead of tile `c` (swizzled schedules: tile/schedule.hpp). The map is evaluated for every
//    program at once and must send them to distinct tiles inside the grid, else tile::Error.
//  * `ArrayView<T>` / `ArrayViewMut<T>`: borrowed views, `a.view()`, `a.slice(axis, begin, end,
//    step)` or `a.slice({{0, 128}, {}})` shared and `view_mut()` / `slice_mut(...)` exclusive;
//    strided, and transposed with `permute({...})` / `transpose()`; nothing copied (see "views").
// Borrowing is checked at run time, per element: every borrower holds a loan on the elements it
// uses (detail::acquire_loan). Elements cannot be borrowed exclusively while any loan covers
// them, nor shared while an exclusive loan does; the array cannot be read with `to_host()` while
// any of it is lent exclusively, consumed or reshaped while lent, or destroyed while lent (that
// aborts).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
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

/// Strides in elements as `Array::borrow_external` takes them, written `{1, rows}` or from a
/// Shape. Unlike a Shape a negative value is kept, so that borrow_external can refuse it with
/// its own rule; up to four values.
class Strides {
 public:
  /// No strides given: compact row-major.
  Strides() = default;
  template <std::integral... I>
  requires(sizeof...(I) >= 1 && (!std::is_same_v<I, bool> && ...))
      Strides(I... s) {  // NOLINT(google-explicit-constructor): `{1, rows}` is the intended spelling
    const int64_t v[] = {static_cast<int64_t>(s)...};
    *this = from_values(v);
  }
  Strides(const Shape& s) : rank_(s.rank()) {  // NOLINT(google-explicit-constructor)
    for (int a = 0; a < rank_; ++a) v_[static_cast<std::size_t>(a)] = s[a];
  }
  /// Up to four values (a DLPack tensor's strides); throws tile::Error for more.
  static Strides from_values(std::span<const int64_t> v) {
    if (v.size() > static_cast<std::size_t>(Shape::max_rank))
      throw Error("tile::Strides: rank " + std::to_string(v.size()) + " exceeds the maximum rank 4");
    Strides s;
    for (std::size_t a = 0; a < v.size(); ++a) s.v_[a] = v[a];
    s.rank_ = static_cast<int>(v.size());
    return s;
  }

  int rank() const { return rank_; }
  int64_t operator[](int axis) const { return v_[static_cast<std::size_t>(axis)]; }
  /// "[1, 8]"
  std::string str() const {
    std::string s = "[";
    for (int a = 0; a < rank_; ++a) s += (a ? ", " : "") + std::to_string(v_[static_cast<std::size_t>(a)]);
    return s + "]";
  }

 private:
  std::array<int64_t, Shape::max_rank> v_{};
  int rank_ = 0;
};

template <class T>
class Array;
template <class T, int... Ts>
class Partition;
template <class T, int... Ts>
class PartitionRef;
template <class T>
class ArrayView;
template <class T>
class ArrayViewMut;

/// One axis of a slice: the indices begin, begin + step, ... below end. `{}` is the whole axis
/// and `{b, e}` has step 1; `end` may stay Range::end_of_axis.
struct Range {
  static constexpr int64_t end_of_axis = std::numeric_limits<int64_t>::max();
  int64_t begin = 0;
  int64_t end = end_of_axis;
  int64_t step = 1;
};

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

/// Whether `strides` are the compact row-major strides of `shape` (axes of extent 1 may carry
/// any stride; an empty shape is compact whatever its strides).
inline bool is_row_major(const Shape& shape, const Shape& strides) {
  if (shape.numel() == 0) return true;
  const Shape compact = row_major_strides(shape);
  for (int a = 0; a < shape.rank(); ++a)
    if (shape[a] != 1 && strides[a] != compact[a]) return false;
  return true;
}

/// The axes of `shape` with extent > 1, by increasing stride (ties keep the axis order), in
/// `order`; returns how many. `S` is a Shape or Strides.
template <class S>
int axes_by_stride(const Shape& shape, const S& strides, std::array<int, Shape::max_rank>& order) {
  int n = 0;
  for (int a = 0; a < shape.rank(); ++a)
    if (shape[a] > 1) order[static_cast<std::size_t>(n++)] = a;
  std::stable_sort(order.begin(), order.begin() + n, [&](int x, int y) { return strides[x] < strides[y]; });
  return n;
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

/// A non-owning reference to elements of an array's storage: the whole array, or a view of it.
/// `shape` and `strides` (elements) are the view's, in its own axis order, and `offset`
/// (elements) locates its first element in the buffer. Where the elements lie in the array's
/// own coordinates does not depend on that order: view axis v is axis `axis[v]` of the array,
/// and array axis a holds the indices first[a] + k * step[a] (`first`/`step` are indexed by the
/// array's axes, so a transposed view keeps them), which loans and the launch use to tell
/// disjoint views of one array apart.
template <class T>
struct ArrayRef {
  Buffer* buffer = nullptr;
  Shape shape;
  Shape strides;
  int64_t offset = 0;
  std::array<int64_t, Shape::max_rank> first{};
  std::array<int64_t, Shape::max_rank> step{1, 1, 1, 1};
  std::array<int, Shape::max_rank> axis{0, 1, 2, 3};
  T* data() const { return buffer ? static_cast<T*>(buffer->data) + offset : nullptr; }
  /// Bytes from the first element to the end of the last one (0 without elements); strides
  /// are never negative.
  int64_t span_bytes() const {
    if (!buffer || shape.numel() == 0) return 0;
    int64_t last = 0;
    for (int a = 0; a < shape.rank(); ++a) last += (shape[a] - 1) * strides[a];
    return (last + 1) * static_cast<int64_t>(sizeof(T));
  }
  /// The number of indices along each axis of the array (count[a] goes with first[a], step[a]).
  std::array<int64_t, Shape::max_rank> counts() const {
    std::array<int64_t, Shape::max_rank> c{};
    for (int v = 0; v < shape.rank(); ++v) c[static_cast<std::size_t>(axis[static_cast<std::size_t>(v)])] = shape[v];
    return c;
  }
  /// Whether these are all the array's elements (in any axis order).
  bool whole() const {
    if (!buffer || offset != 0 || span_bytes() != static_cast<int64_t>(buffer->bytes)) return false;
    for (int a = 0; a < shape.rank(); ++a)
      if (first[static_cast<std::size_t>(a)] != 0 || step[static_cast<std::size_t>(a)] != 1) return false;
    return true;
  }
};

template <class T>
std::vector<T> gather(const ArrayRef<T>& r);

/// Calls f(offset) for every element of a strided box, in row-major order of its indices
/// (offsets in elements from the first element).
template <class F>
void for_each_offset(const Shape& shape, const Shape& strides, F&& f) {
  const int r = shape.rank();
  if (shape.numel() == 0) return;
  std::array<int64_t, Shape::max_rank> idx{};
  int64_t off = 0;
  for (;;) {
    f(off);
    int a = r - 1;
    for (; a >= 0; --a) {
      const auto ua = static_cast<std::size_t>(a);
      if (++idx[ua] < shape[a]) {
        off += strides[a];
        break;
      }
      off -= (shape[a] - 1) * strides[a];
      idx[ua] = 0;
    }
    if (a < 0) return;
  }
}

/// Whether the progressions {f1 + k*s1 : 0 <= k < n1} and {f2 + j*s2 : 0 <= j < n2} share a value
/// (s1, s2 >= 1).
inline bool progressions_meet(int64_t f1, int64_t s1, int64_t n1, int64_t f2, int64_t s2, int64_t n2) {
  if (n1 <= 0 || n2 <= 0) return false;
  if (n1 == 1) s1 = 1;
  if (n2 == 1) s2 = 1;
  if (s2 > s1) {  // the search below takes s2 / gcd steps: let s2 be the smaller step
    std::swap(f1, f2);
    std::swap(s1, s2);
    std::swap(n1, n2);
  }
  const int64_t last = std::min(f1 + (n1 - 1) * s1, f2 + (n2 - 1) * s2);
  const int64_t lo = std::max(f1, f2);
  if (lo > last) return false;
  // The common values are x0 + t * lcm(s1, s2) for the x0 = f1 + k * s1 with x0 = f2 (mod s2).
  const int64_t g = std::gcd(s1, s2);
  if ((f2 - f1) % g != 0) return false;
  const int64_t period = s1 / g * s2;
  for (int64_t k = 0; k < s2 / g; ++k) {
    const int64_t x0 = f1 + k * s1;
    if (((x0 - f2) % s2 + s2) % s2 != 0) continue;
    const int64_t x = x0 >= lo ? x0 : x0 + (lo - x0 + period - 1) / period * period;
    return x <= last;
  }
  return false;
}

/// Whether two loans of one buffer share an element: on every axis their indices meet.
inline bool loans_overlap(const Loan& a, const Loan& b) {
  if (a.rank != b.rank) return true;  // cannot happen (the array's shape is fixed while lent)
  for (int d = 0; d < a.rank; ++d)
    if (!progressions_meet(a.first[d], a.step[d], a.count[d], b.first[d], b.step[d], b.count[d])) return false;
  return true;
}

/// The loan's elements are those of `r`, in the array's axis order (whatever the view's).
template <class T>
void set_loan_elements(Loan& loan, const ArrayRef<T>& r) {
  loan.rank = r.shape.rank();
  loan.whole = r.whole();
  const auto count = r.counts();
  for (int a = 0; a < loan.rank; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    loan.first[a] = r.first[ua];
    loan.step[a] = r.step[ua];
    loan.count[a] = count[ua];
  }
  loan.begin = reinterpret_cast<uintptr_t>(r.data());
  loan.end = loan.begin + static_cast<uintptr_t>(r.span_bytes());
}

/// Whether a loan of another buffer over the same memory conflicts with `loan` (one of them
/// exclusive, their byte ranges meeting); then the first such loan.
inline const Loan* alias_conflict(const Buffer* b, const Loan& loan) {
  const Loan* found = nullptr;
  for_each_alias(b, [&](const Buffer* a) {
    for (const Loan& l : a->loans)
      if (!found && (loan.exclusive || l.exclusive) && l.begin < loan.end && loan.begin < l.end) found = &l;
  });
  return found;
}

/// Borrows the elements of `r` from its buffer, shared or exclusively, and returns the loan's id
/// (for release_loan). Throws tile::Error naming `what` when the elements overlap a loan that
/// is exclusive, or when an exclusive loan would overlap any loan.
template <class T>
uint64_t acquire_loan(const ArrayRef<T>& r, bool exclusive, std::string_view what) {
  Buffer* b = r.buffer;
  if (b && b->bytes > 0 && b->epoch != seen_epoch(*b->device)) throw_lost(b, what);
  LoanLock lock;
  Loan loan;
  loan.exclusive = exclusive;
  set_loan_elements(loan, r);
  for (const Loan& l : b->loans) {
    if (!(exclusive || l.exclusive) || !loans_overlap(l, loan)) continue;
    const std::string elements = l.whole && loan.whole ? "the array" : "the array's elements";
    const std::string where = l.whole && loan.whole ? "" : " (the borrowed elements overlap)";
    if (l.exclusive && exclusive)
      throw Error(std::string(what) + ": the array is already borrowed exclusively (by a mutable view, a " +
                  "PartitionRef or a pending op)" + where + "; " + elements +
                  " cannot be borrowed again until that borrow ends");
    if (l.exclusive)
      throw Error(std::string(what) + ": the array is borrowed exclusively (by a mutable view, a PartitionRef " +
                  "or a pending op)" + where + "; " + elements + " cannot be shared until that borrow ends");
    throw Error(std::string(what) + ": the array is borrowed by a pending op (as a shared argument) or by a " +
                "view" + where + "; " + elements +
                " cannot be borrowed exclusively while borrowed shared (sync the op, drop the view)");
  }
  if (const Loan* l = alias_conflict(b, loan))
    throw Error(std::string(what) + ": its memory is also borrowed " + (l->exclusive ? "exclusively " : "") +
                "through another array over the same memory (borrow_external, from_dlpack) and the bytes " +
                "overlap; it cannot be " + (exclusive ? "borrowed exclusively" : "shared") +
                " until that borrow ends");
  loan.id = b->next_loan++;
  b->loans.push_back(loan);
  return loan.id;
}

/// Returns loan `id` of `b` (no-op for id 0, "no loan").
inline void release_loan(Buffer* b, uint64_t id) noexcept {
  if (!id || !b) return;
  LoanLock lock;
  for (auto it = b->loans.begin(); it != b->loans.end(); ++it)
    if (it->id == id) {
      b->loans.erase(it);
      return;
    }
}

/// Narrows loan `id` to the elements of `r` (a slice of what it covered).
template <class T>
void narrow_loan(const ArrayRef<T>& r, uint64_t id) noexcept {
  LoanLock lock;
  for (Loan& l : r.buffer->loans)
    if (l.id == id) set_loan_elements(l, r);
}

/// Whether any loan of `b`, or of another buffer over its memory, is exclusive (then the
/// array cannot be read as a whole).
inline bool lent_exclusively(const Buffer* b) {
  LoanLock lock;
  if (std::any_of(b->loans.begin(), b->loans.end(), [](const Loan& l) { return l.exclusive; })) return true;
  Loan all;
  all.begin = reinterpret_cast<uintptr_t>(b->data);
  all.end = all.begin + b->bytes;
  const Loan* l = alias_conflict(b, all);
  return l && l->exclusive;
}

/// Private access to arrays and partitions for the factories and the launcher.
struct ArrayAccess {
  template <class T>
  static Array<T> allocate(const Shape& shape, const Device& device);
  /// An array over memory tile_rt does not own (see Buffer::external).
  template <class T>
  static Array<T> external(T* data, const Shape& shape, const Strides& strides, const Device& device,
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
  /// Strides in elements: row-major for the arrays tile_rt makes, whatever the memory has for
  /// one over external memory (borrow_external, from_dlpack), e.g. column-major.
  const Shape& strides() const { return strides_; }
  /// Device pointer to the first element.
  T* data() const { return buf_ ? static_cast<T*>(buf_->data) : nullptr; }
  /// False for an array without storage (moved from or default-constructed).
  bool valid() const { return buf_ != nullptr; }
  const Device& device() const {
    require_valid("tile::Array::device");
    return *buf_->device;
  }

  /// Copies the elements to the host in row-major order of their indices (gathered from
  /// non-compact strides).
  std::vector<T> to_host() const;

  /// The same elements under another shape with as many of them (row-major order is kept;
  /// nothing is copied): `auto m = std::move(v).reshape({rows, cols})`. Consumes the array,
  /// which must be compact row-major (not so an external array with other strides).
  Array reshape(Shape shape) && {
    require_valid("tile::Array::reshape");
    if (shape.rank() < 1 || shape.numel() != shape_.numel())
      throw Error("tile::Array::reshape: the shape " + shape.str() + " does not hold the " +
                  std::to_string(shape_.numel()) + " elements of the shape " + shape_.str());
    if (!detail::is_row_major(shape_, strides_))
      throw Error("tile::Array::reshape: the array's strides " + strides_.str() + " are not the compact "
                  "row-major strides " + detail::row_major_strides(shape_).str() + " of its shape " +
                  shape_.str() + "; only compact row-major data can be reshaped without copying: copy it "
                  "into a new array first");
    if (!buf_->loans.empty())
      throw Error("tile::Array::reshape: the array is borrowed (by a view, a PartitionRef or a pending op); "
                  "a borrowed array cannot be reshaped");
    Array a = std::move(*this);
    a.shape_ = shape;
    a.strides_ = detail::row_major_strides(shape);
    return a;
  }
  Array reshape(Shape shape) & {
    static_assert(detail::false_for_types<T>,
                  "tile::Array::reshape() consumes the array: write std::move(a).reshape(shape)");
    return std::move(*this).reshape(shape);
  }

  /// Consumes the array into a partition of Ts-shaped tiles: `std::move(a).partition<128>()`.
  template <int... Ts>
  Partition<T, Ts...> partition() && {
    check_partition<Ts...>("tile::Array::partition");
    if (!buf_->loans.empty())
      throw Error("tile::Array::partition: the array is borrowed (by a view, a PartitionRef or a pending op); "
                  "a borrowed array cannot be consumed");
    return Partition<T, Ts...>(std::move(*this));
  }
  /// (On an lvalue: the hint below, the only error, since the declared type is what the caller
  /// expects.)
  template <int... Ts>
  Partition<T, Ts...> partition() & {
    static_assert(detail::false_for_values<Ts...>,
                  "tile::Array::partition() consumes the array: write std::move(a).partition<...>(), "
                  "or borrow it with a.partition_mut<...>()");
    return std::move(*this).template partition<Ts...>();
  }

  /// An array over memory that `owner` keeps alive (whatever holds it: a buffer, a mapped
  /// file, another library's tensor), without a copy: the array holds `owner` until it goes,
  /// and no op can use the array after that. `strides` (in elements; empty: compact row-major)
  /// may be any non-negative ones under which distinct indices address distinct elements, e.g.
  /// `{1, rows}` for column-major memory: sorted by stride, every axis of extent > 1 needs a
  /// stride of at least the previous stride times the previous extent (at least 1 for the
  /// first). The array keeps them (`strides()`). Arrays over overlapping memory check their
  /// loans against each other. Memory behind a raw pointer: `tile::unchecked::borrow_external`.
  template <class U>
  static Array borrow_external(T* data, Shape shape, Strides strides, const Device& device,
                               std::shared_ptr<U> owner) {
    if (!owner) throw Error("tile::Array::borrow_external: the owner is empty; it must hold the memory");
    auto* held = new std::shared_ptr<void>(std::move(owner));
    return detail::ArrayAccess::external<T>(
        data, shape, strides, device, [](void* p) { delete static_cast<std::shared_ptr<void>*>(p); }, held,
        "tile::Array::borrow_external");
  }

  /// Borrows the array exclusively as a partition of Ts-shaped tiles.
  template <int... Ts>
  PartitionRef<T, Ts...> partition_mut() & {
    check_partition<Ts...>("tile::Array::partition_mut");
    return PartitionRef<T, Ts...>(detail::ArrayAccess::ref(*this));
  }

  /// Borrowed views (see "views" below). A shared view of the whole array, or of a slice:
  /// `a.slice(axis, begin, end[, step])`, `a.slice({{0, 128}, {64, 256}})`.
  ArrayView<T> view() const&;
  ArrayView<T> slice(int axis, int64_t begin, int64_t end, int64_t step = 1) const&;
  ArrayView<T> slice(std::initializer_list<Range> ranges) const&;
  /// The same as exclusive (mutable) views.
  ArrayViewMut<T> view_mut() &;
  ArrayViewMut<T> slice_mut(int axis, int64_t begin, int64_t end, int64_t step = 1) &;
  ArrayViewMut<T> slice_mut(std::initializer_list<Range> ranges) &;
  // A view of a temporary array would outlive it.
  void view() const&& = delete;
  void slice(int, int64_t, int64_t, int64_t = 1) const&& = delete;
  void slice(std::initializer_list<Range>) const&& = delete;
  void view_mut() && = delete;
  void slice_mut(int, int64_t, int64_t, int64_t = 1) && = delete;
  void slice_mut(std::initializer_list<Range>) && = delete;

 private:
  friend struct detail::ArrayAccess;

  void require_valid(const char* what) const {
    if (!buf_) throw Error(std::string(what) + ": the array has no storage (it was moved from)");
  }

  /// to_host of compact row-major elements: one copy.
  std::vector<T> copy_compact_to_host() const {
    const auto n = static_cast<std::size_t>(size());
    detail::order_copy(buf_.get(), false);  // after the last write issued asynchronously
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

  template <int... Ts>
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
std::vector<T> Array<T>::to_host() const {
  require_valid("tile::Array::to_host");
  detail::check_not_lost(buf_.get(), "tile::Array::to_host");
  if (detail::lent_exclusively(buf_.get()))
    throw Error(
        "tile::Array::to_host: the array is borrowed exclusively (by a mutable view, a PartitionRef or a "
        "pending op); it cannot be read until that borrow ends");
  if (detail::is_row_major(shape_, strides_)) return copy_compact_to_host();
  return detail::gather(detail::ArrayAccess::ref(*this));
}

namespace detail {
/// The rule `strides` break as the strides of an array of `shape` (see Array::borrow_external),
/// or "" when distinct indices address distinct elements; `span` is then the number of elements
/// from the first to the last one (0 without elements).
inline std::string stride_rule(const Shape& shape, const Strides& strides, int64_t& span) {
  const int rank = shape.rank();
  if (strides.rank() != rank)
    return "the strides " + strides.str() + " have rank " + std::to_string(strides.rank()) + " but the shape " +
           shape.str() + " has rank " + std::to_string(rank) + "; give one stride per axis";
  for (int a = 0; a < rank; ++a)
    if (strides[a] < 0)
      return "axis " + std::to_string(a) + " has the negative stride " + std::to_string(strides[a]) +
             " (strides " + strides.str() + "); tile::Array takes non-negative strides only (a reversed axis "
             "cannot be borrowed)";
  // The axes that step at all, by increasing stride: each must step over everything the ones
  // before it span (a sufficient test that no element is addressed twice).
  std::array<int, Shape::max_rank> order{};
  const int n = axes_by_stride(shape, strides, order);
  int64_t need = 1;
  int prev = -1;
  for (int k = 0; k < n; ++k) {
    const int a = order[static_cast<std::size_t>(k)];
    if (strides[a] == 0)
      return "axis " + std::to_string(a) + " has extent " + std::to_string(shape[a]) +
             " but stride 0 (strides " + strides.str() + ", shape " + shape.str() +
             "): its indices would all address one element; tile::Array holds no broadcast axes (an axis of "
             "extent > 1 needs a stride of at least 1)";
    if (strides[a] < need)
      return "the strides " + strides.str() + " of the shape " + shape.str() + " address some elements twice: axis " +
             std::to_string(prev) + " spans " + std::to_string(need) + " elements (stride " +
             std::to_string(strides[prev]) + " times extent " + std::to_string(shape[prev]) + ") but axis " +
             std::to_string(a) + " steps by " + std::to_string(strides[a]) +
             "; sorted by stride, each axis of extent > 1 needs a stride of at least the previous stride times "
             "the previous extent";
    if (__builtin_mul_overflow(strides[a], shape[a], &need))
      return "the strides " + strides.str() + " of the shape " + shape.str() + " span more than 2^63 elements";
    prev = a;
  }
  span = 0;
  if (shape.numel() == 0) return "";
  for (int a = 0; a < rank; ++a) span += (shape[a] - 1) * strides[a];  // below `need`: no overflow
  span += 1;
  return "";
}
}  // namespace detail

template <class T>
Array<T> detail::ArrayAccess::external(T* data, const Shape& shape, const Strides& strides, const Device& device,
                                       void (*release)(void*), void* release_ctx, const char* what) {
  auto fail = [&](const std::string& rule) {
    if (release) release(release_ctx);  // the array owned it from the start: give it back
    throw Error(std::string(what) + ": " + rule);
  };
  if (shape.rank() < 1 || shape.rank() > Shape::max_rank)
    fail("the rank must be between 1 and 4 (got shape " + shape.str() + ")");
  const Strides given = strides.rank() == 0 ? Strides(row_major_strides(shape)) : strides;
  int64_t span = 0;
  if (const std::string rule = stride_rule(shape, given, span); !rule.empty()) fail(rule);
  if (span > std::numeric_limits<int64_t>::max() / static_cast<int64_t>(sizeof(T)))
    fail("the strides " + given.str() + " of the shape " + shape.str() + " span more bytes than an int64_t holds");
  if (shape.numel() > 0 && data == nullptr) fail("the data pointer is null");
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(T) != 0)
    fail("the data pointer is not aligned to the element type");
  std::array<int64_t, Shape::max_rank> kept{};
  for (int a = 0; a < shape.rank(); ++a) kept[static_cast<std::size_t>(a)] = given[a];
  Array<T> a;
  a.buf_.reset(buffer_external(device, data, static_cast<std::size_t>(span) * sizeof(T), release, release_ctx));
  a.shape_ = shape;
  a.strides_ = Shape::from_dims(std::span<const int64_t>(kept.data(), static_cast<std::size_t>(shape.rank())));
  return a;
}

namespace unchecked {

/// An array over memory behind a raw pointer that the caller keeps alive longer than the array
/// and every op that uses it: nothing is copied, nothing is freed when the array goes. The
/// runtime cannot see that lifetime, so only a function marked TILE_UNSAFE or
/// TILE_TRUSTED("why") may call this (tilecc rule tile-unchecked-outside-unsafe); the safe
/// form is `Array<T>::borrow_external(data, shape, strides, device, owner)`. Strides as there.
template <class T>
Array<T> borrow_external(T* data, Shape shape, Strides strides = Strides(),
                         const Device& device = default_device()) {
  return detail::ArrayAccess::external<T>(data, shape, strides, device, nullptr, nullptr,
                                          "tile::unchecked::borrow_external");
}

}  // namespace unchecked

// ---- partitions --------------------------------------------------------------------------------

/// An array owned by its partition into Ts-shaped tiles.
template <class T, int... Ts>
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
  Array<T> unpartition() & {
    static_assert(detail::false_for_types<T>,
                  "tile::Partition::unpartition() consumes the partition: write std::move(p).unpartition()");
    return std::move(*this).unpartition();
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
template <class T, int... Ts>
class PartitionRef {
 public:
  using value_type = T;
  static constexpr int rank = static_cast<int>(sizeof...(Ts));
  static constexpr std::array<int64_t, rank> tile_shape{Ts...};

  PartitionRef(PartitionRef&& o) noexcept
      : ref_(o.ref_), loan_(std::exchange(o.loan_, 0)), map_(std::move(o.map_)) {}
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
  friend class ArrayViewMut<T>;
  friend struct detail::ArrayAccess;
  explicit PartitionRef(detail::ArrayRef<T> r)
      : ref_(std::move(r)), loan_(detail::acquire_loan(ref_, true, "tile::Array::partition_mut")) {}
  /// Takes over the exclusive loan `loan` of a mutable view.
  PartitionRef(detail::ArrayRef<T> r, uint64_t loan) : ref_(std::move(r)), loan_(loan) {}
  detail::ArrayRef<T> ref() const { return loan_ ? ref_ : detail::ArrayRef<T>{}; }
  void release() noexcept {
    detail::release_loan(ref_.buffer, loan_);
    loan_ = 0;
  }

  detail::ArrayRef<T> ref_;
  uint64_t loan_ = 0;
  std::shared_ptr<const detail::ProgramMap> map_;
};


// ---- views -------------------------------------------------------------------------------------
//
// Borrowed views of an array's elements; nothing is copied and the array stays the owner.
//  * `a.view()` / `a.slice(...)`: an `ArrayView<T>`, a shared (read-only) borrow. Any number may
//    be alive together; the array can still be read and passed as a shared argument, but not
//    borrowed exclusively.
//  * `a.view_mut()` / `a.slice_mut(...)`: an `ArrayViewMut<T>`, an exclusive borrow. While it
//    is alive nothing else may use the array: to_host, another view, a partition, a launch.
//  * `slice(axis, begin, end[, step])` keeps the indices begin, begin + step, ... below end of
//    one axis; `slice({{0, 128}, {}, {0, 64, 2}})` takes one `tile::Range` per leading axis (`{}`
//    is the whole axis). Ranges must lie inside the extent, and steps be at least 1. A view
//    records its first element, shape and strides in elements (a step multiplies the stride);
//    `to_host()` gathers its elements in row-major order of the view's indices. Views can be
//    sliced again.
//  * `v.permute({2, 0, 1})` reorders the axes (axis k of the result is axis perm[k] of v),
//    `v.transpose()` reverses them and `v.transpose(a, b)` swaps two; nothing is copied, the
//    strides move with their axes. A shared view's permute gives a new shared view; a mutable
//    one keeps its loan: `std::move(mv).transpose()`. Loans and the launch's overlap check
//    describe the elements in the array's own axis order (ArrayRef::axis), so a transposed view
//    and a slice are compared exactly. Not built: broadcast (stride 0) and reshaped views.
//  * In a launch an ArrayView is a shared argument (`const Tensor&`), and
//    `std::move(mv).partition<Ts...>()` turns a mutable view into a PartitionRef for an exclusive
//    one. The kernel's tensors carry the view's strides; both backends take any view (the GPU
//    kernels move vectors where the innermost stride is 1 and single elements elsewhere).
// Views are move-only and return their loan when destroyed. They borrow the array's storage,
// not the Array object: moving the array leaves them valid, while whatever would change or free
// the storage (reshape, partition, to_dlpack, moving the array into a launch) throws tile::Error
// as long as a view is alive; destroying a lent array aborts (see detail::Buffer).

namespace detail {

/// `r` narrowed to `ranges`, one per leading axis; throws tile::Error naming `what`.
template <class T>
ArrayRef<T> slice_ref(ArrayRef<T> r, std::span<const Range> ranges, const std::string& what) {
  const int rank = r.shape.rank();
  if (static_cast<int>(ranges.size()) > rank)
    throw Error(what + ": " + std::to_string(ranges.size()) + " ranges given for an array of rank " +
                std::to_string(rank) + " " + r.shape.str() + "; a slice takes at most one range per axis");
  std::array<int64_t, Shape::max_rank> dims{}, strides{};
  for (int a = 0; a < rank; ++a) {
    const auto ua = static_cast<std::size_t>(a);
    dims[ua] = r.shape[a];
    strides[ua] = r.strides[a];
    if (ua >= ranges.size()) continue;
    const Range& g = ranges[ua];
    const int64_t end = g.end == Range::end_of_axis ? dims[ua] : g.end;
    if (g.step < 1)
      throw Error(what + ": axis " + std::to_string(a) + ": the step " + std::to_string(g.step) +
                  " is not positive; a slice's step must be at least 1");
    if (g.begin < 0 || g.begin > end || end > dims[ua])
      throw Error(what + ": axis " + std::to_string(a) + ": the range [" + std::to_string(g.begin) + ", " +
                  std::to_string(end) + ") does not lie inside the extent " + std::to_string(dims[ua]) +
                  "; a slice needs 0 <= begin <= end <= extent");
    const auto ax = static_cast<std::size_t>(r.axis[ua]);  // first/step follow the array's axes
    r.offset += g.begin * strides[ua];
    r.first[ax] += g.begin * r.step[ax];
    r.step[ax] *= g.step;
    strides[ua] *= g.step;
    dims[ua] = (end - g.begin + g.step - 1) / g.step;
  }
  const auto n = static_cast<std::size_t>(rank);
  r.shape = Shape::from_dims(std::span<const int64_t>(dims.data(), n));
  r.strides = Shape::from_dims(std::span<const int64_t>(strides.data(), n));
  return r;
}

/// `r` with its axes reordered: axis v of the result is axis perm[v] of `r`. Throws tile::Error
/// naming `what` unless `perm` lists every axis once.
template <class T>
ArrayRef<T> permute_ref(ArrayRef<T> r, std::span<const int> perm, const std::string& what) {
  const int rank = r.shape.rank();
  auto list = [&] {
    std::string s = "{";
    for (std::size_t k = 0; k < perm.size(); ++k) s += (k ? ", " : "") + std::to_string(perm[k]);
    return s + "}";
  };
  if (static_cast<int>(perm.size()) != rank)
    throw Error(what + ": the axes " + list() + " name " + std::to_string(perm.size()) + " axes but the view " +
                r.shape.str() + " has rank " + std::to_string(rank) + "; a permutation lists every axis once");
  std::array<bool, Shape::max_rank> seen{};
  std::array<int64_t, Shape::max_rank> dims{}, strides{};
  std::array<int, Shape::max_rank> axis{0, 1, 2, 3};
  for (int v = 0; v < rank; ++v) {
    const int from = perm[static_cast<std::size_t>(v)];
    if (from < 0 || from >= rank || seen[static_cast<std::size_t>(from)])
      throw Error(what + ": the axes " + list() + " are not a permutation of the " + std::to_string(rank) +
                  " axes of the view " + r.shape.str() + " (axis " + std::to_string(from) +
                  (from < 0 || from >= rank ? " does not exist" : " is named twice") +
                  "); a permutation lists every axis once");
    seen[static_cast<std::size_t>(from)] = true;
    dims[static_cast<std::size_t>(v)] = r.shape[from];
    strides[static_cast<std::size_t>(v)] = r.strides[from];
    axis[static_cast<std::size_t>(v)] = r.axis[static_cast<std::size_t>(from)];
  }
  const auto n = static_cast<std::size_t>(rank);
  r.shape = Shape::from_dims(std::span<const int64_t>(dims.data(), n));
  r.strides = Shape::from_dims(std::span<const int64_t>(strides.data(), n));
  r.axis = axis;
  return r;
}

/// The permutation that reverses `rank` axes.
inline std::array<int, Shape::max_rank> reversed_axes(int rank) {
  std::array<int, Shape::max_rank> p{};
  for (int v = 0; v < rank; ++v) p[static_cast<std::size_t>(v)] = rank - 1 - v;
  return p;
}

/// The permutation that swaps axes x and y of `rank`; throws tile::Error naming `what` for an
/// axis that does not exist.
inline std::array<int, Shape::max_rank> swapped_axes(int rank, int x, int y, const std::string& what) {
  for (int a : {x, y})
    if (a < 0 || a >= rank)
      throw Error(what + ": axis " + std::to_string(a) + " does not exist in a view of rank " + std::to_string(rank));
  std::array<int, Shape::max_rank> p{};
  for (int v = 0; v < rank; ++v) p[static_cast<std::size_t>(v)] = v;
  std::swap(p[static_cast<std::size_t>(x)], p[static_cast<std::size_t>(y)]);
  return p;
}

/// One axis as a range list: whole axes before it.
inline std::array<Range, Shape::max_rank> axis_ranges(int axis, int rank, int64_t begin, int64_t end,
                                                      int64_t step, const std::string& what) {
  if (axis < 0 || axis >= rank)
    throw Error(what + ": axis " + std::to_string(axis) + " does not exist in an array of rank " +
                std::to_string(rank));
  std::array<Range, Shape::max_rank> r{};
  r[static_cast<std::size_t>(axis)] = Range{begin, end, step};
  return r;
}

/// The elements of `r`, row-major (copied from the device first when it is a GPU).
template <class T>
std::vector<T> gather(const ArrayRef<T>& r) {
  const auto n = static_cast<std::size_t>(r.shape.numel());
  std::vector<T> out;
  if (n == 0) return out;
  out.reserve(n);
  const T* src = r.data();
  std::unique_ptr<T[]> host;
  if (r.buffer->device->is_gpu()) {
    const auto bytes = static_cast<std::size_t>(r.span_bytes());
    host.reset(new T[bytes / sizeof(T)]);
    order_copy(r.buffer, false);
    copy_to_host(*r.buffer->device, host.get(), r.data(), bytes);
    src = host.get();
  }
  for_each_offset(r.shape, r.strides, [&](int64_t off) { out.push_back(src[off]); });
  return out;
}

/// What ArrayView (Mut = false: a shared loan) and ArrayViewMut (an exclusive one) share.
template <class T, bool Mut>
class ViewBase {
 public:
  using value_type = T;

  const Shape& shape() const { return ref_.shape; }
  int rank() const { return ref_.shape.rank(); }
  /// Strides in elements (a slice's step multiplies its axis's stride).
  const Shape& strides() const { return ref_.strides; }
  /// Number of elements (0 for a view that was moved from).
  int64_t size() const { return loan_ ? ref_.shape.numel() : 0; }
  /// The position of the first element in the array's storage, in elements.
  int64_t offset() const { return ref_.offset; }
  /// False for a view that was moved from (or turned into a partition).
  bool valid() const { return loan_ != 0; }
  const Device& device() const {
    require_valid("device");
    return *ref_.buffer->device;
  }
  /// Copies the view's elements to the host, row-major.
  std::vector<T> to_host() const {
    require_valid("to_host");
    check_not_lost(ref_.buffer, "tile::ArrayView::to_host");
    return gather(ref_);
  }

  ViewBase(const ViewBase&) = delete;
  ViewBase& operator=(const ViewBase&) = delete;

 protected:
  static constexpr const char* kind = Mut ? "tile::ArrayViewMut" : "tile::ArrayView";

  ViewBase() = default;
  /// Borrows `r` (shared, or exclusively when Mut); throws tile::Error naming `what`.
  ViewBase(ArrayRef<T> r, const std::string& what) : ref_(std::move(r)), loan_(acquire_loan(ref_, Mut, what)) {}
  ViewBase(ViewBase&& o) noexcept : ref_(std::exchange(o.ref_, {})), loan_(std::exchange(o.loan_, 0)) {}
  ViewBase& operator=(ViewBase&& o) noexcept {
    if (this != &o) {
      release();
      ref_ = std::exchange(o.ref_, {});
      loan_ = std::exchange(o.loan_, 0);
    }
    return *this;
  }
  ~ViewBase() { release(); }

  void release() noexcept {
    release_loan(ref_.buffer, loan_);
    loan_ = 0;
  }
  void require_valid(const char* op) const {
    if (!loan_)
      throw Error(std::string(kind) + "::" + op + ": the view holds no borrow (it was moved from)");
  }
  std::string context(const char* op) const { return std::string(kind) + "::" + op; }

  ArrayRef<T> ref_;
  uint64_t loan_ = 0;
};

}  // namespace detail

/// A shared, read-only borrow of elements of an Array (see "views" above).
template <class T>
class ArrayView : public detail::ViewBase<T, false> {
  using Base = detail::ViewBase<T, false>;

 public:
  /// A view of nothing (what a moved-from view becomes).
  ArrayView() = default;
  ArrayView(ArrayView&&) noexcept = default;
  ArrayView& operator=(ArrayView&&) noexcept = default;

  /// Device pointer to the first element.
  const T* data() const { return this->loan_ ? this->ref_.data() : nullptr; }

  /// A narrower shared view (another loan on the same array); see "views" above.
  ArrayView slice(int axis, int64_t begin, int64_t end, int64_t step = 1) const {
    const auto r = detail::axis_ranges(axis, this->rank(), begin, end, step, this->context("slice"));
    return slice_of(std::span<const Range>(r.data(), static_cast<std::size_t>(axis) + 1));
  }
  ArrayView slice(std::initializer_list<Range> ranges) const {
    return slice_of(std::span<const Range>(ranges.begin(), ranges.size()));
  }

  /// The same elements with the axes reordered (another shared loan): axis v of the result is
  /// axis axes[v] of this view, e.g. `v.permute({1, 0})`. Nothing is copied.
  ArrayView permute(std::initializer_list<int> axes) const {
    return permute_of(std::span<const int>(axes.begin(), axes.size()), "permute");
  }
  /// The axes reversed (a matrix's transpose).
  ArrayView transpose() const {
    const auto p = detail::reversed_axes(this->rank());
    return permute_of(std::span<const int>(p.data(), static_cast<std::size_t>(this->rank())), "transpose");
  }
  /// Axes a and b swapped.
  ArrayView transpose(int a, int b) const {
    const auto p = detail::swapped_axes(this->rank(), a, b, this->context("transpose"));
    return permute_of(std::span<const int>(p.data(), static_cast<std::size_t>(this->rank())), "transpose");
  }

 private:
  friend class Array<T>;
  friend struct detail::ArrayAccess;
  ArrayView(detail::ArrayRef<T> r, const std::string& what) : Base(std::move(r), what) {}
  ArrayView slice_of(std::span<const Range> ranges) const {
    this->require_valid("slice");
    return ArrayView(detail::slice_ref(this->ref_, ranges, this->context("slice")), this->context("slice"));
  }
  ArrayView permute_of(std::span<const int> axes, const char* op) const {
    this->require_valid(op);
    return ArrayView(detail::permute_ref(this->ref_, axes, this->context(op)), this->context(op));
  }
  detail::ArrayRef<T> ref() const { return this->loan_ ? this->ref_ : detail::ArrayRef<T>{}; }
};

/// An exclusive borrow of elements of an Array (see "views" above).
template <class T>
class ArrayViewMut : public detail::ViewBase<T, true> {
  using Base = detail::ViewBase<T, true>;

 public:
  /// A view of nothing (what a moved-from view becomes).
  ArrayViewMut() = default;
  ArrayViewMut(ArrayViewMut&&) noexcept = default;
  ArrayViewMut& operator=(ArrayViewMut&&) noexcept = default;

  /// Device pointer to the first element.
  T* data() const { return this->loan_ ? this->ref_.data() : nullptr; }

  /// Narrows the view, which keeps its loan: `std::move(v).slice(...)`.
  ArrayViewMut slice(int axis, int64_t begin, int64_t end, int64_t step = 1) && {
    const auto r = detail::axis_ranges(axis, this->rank(), begin, end, step, this->context("slice"));
    return std::move(*this).slice_of(std::span<const Range>(r.data(), static_cast<std::size_t>(axis) + 1));
  }
  ArrayViewMut slice(std::initializer_list<Range> ranges) && {
    return std::move(*this).slice_of(std::span<const Range>(ranges.begin(), ranges.size()));
  }
  ArrayViewMut slice(int axis, int64_t begin, int64_t end, int64_t step = 1) & {
    static_assert(detail::false_for_types<T>,
                  "tile::ArrayViewMut::slice() narrows the exclusive borrow: write std::move(v).slice(...)");
    return std::move(*this).slice(axis, begin, end, step);
  }
  ArrayViewMut slice(std::initializer_list<Range> ranges) & {
    static_assert(detail::false_for_types<T>,
                  "tile::ArrayViewMut::slice() narrows the exclusive borrow: write std::move(v).slice(...)");
    return std::move(*this).slice(ranges);
  }

  /// The same elements with the axes reordered; the view keeps its loan:
  /// `std::move(v).permute({1, 0})`. Axis v of the result is axis axes[v] of this view.
  ArrayViewMut permute(std::initializer_list<int> axes) && {
    return std::move(*this).permute_of(std::span<const int>(axes.begin(), axes.size()), "permute");
  }
  /// The axes reversed: `std::move(v).transpose()`.
  ArrayViewMut transpose() && {
    const auto p = detail::reversed_axes(this->rank());
    return std::move(*this).permute_of(std::span<const int>(p.data(), static_cast<std::size_t>(this->rank())),
                                       "transpose");
  }
  /// Axes a and b swapped: `std::move(v).transpose(a, b)`.
  ArrayViewMut transpose(int a, int b) && {
    const auto p = detail::swapped_axes(this->rank(), a, b, this->context("transpose"));
    return std::move(*this).permute_of(std::span<const int>(p.data(), static_cast<std::size_t>(this->rank())),
                                       "transpose");
  }
  ArrayViewMut permute(std::initializer_list<int> axes) & {
    static_assert(detail::false_for_types<T>,
                  "tile::ArrayViewMut::permute() moves the exclusive borrow: write std::move(v).permute(...)");
    return std::move(*this).permute(axes);
  }
  ArrayViewMut transpose() & {
    static_assert(detail::false_for_types<T>,
                  "tile::ArrayViewMut::transpose() moves the exclusive borrow: write std::move(v).transpose()");
    return std::move(*this).transpose();
  }
  ArrayViewMut transpose(int a, int b) & {
    static_assert(detail::false_for_types<T>,
                  "tile::ArrayViewMut::transpose() moves the exclusive borrow: write std::move(v).transpose()");
    return std::move(*this).transpose(a, b);
  }

  /// The view as an exclusive partition into Ts-shaped tiles, which takes over the loan:
  /// `tile::launch<k>(std::move(v).partition<128>(), ...)`.
  template <int... Ts>
  PartitionRef<T, Ts...> partition() && {
    static_assert(sizeof...(Ts) >= 1 && sizeof...(Ts) <= 4,
                  "tile::ArrayViewMut::partition: a tile shape has 1 to 4 dimensions");
    static_assert(((Ts > 0) && ...), "tile::ArrayViewMut::partition: every tile dimension must be positive");
    this->require_valid("partition");
    if (static_cast<int>(sizeof...(Ts)) != this->rank())
      throw Error(this->context("partition") + ": the tile shape has rank " + std::to_string(sizeof...(Ts)) +
                  " but the view " + this->shape().str() + " has rank " + std::to_string(this->rank()));
    detail::ArrayRef<T> r = std::exchange(this->ref_, {});
    return PartitionRef<T, Ts...>(std::move(r), std::exchange(this->loan_, 0));
  }
  template <int... Ts>
  PartitionRef<T, Ts...> partition() & {
    static_assert(detail::false_for_values<Ts...>,
                  "tile::ArrayViewMut::partition() hands the exclusive borrow to the partition: write "
                  "std::move(v).partition<...>()");
    return std::move(*this).template partition<Ts...>();
  }

 private:
  friend class Array<T>;
  friend struct detail::ArrayAccess;
  ArrayViewMut(detail::ArrayRef<T> r, const std::string& what) : Base(std::move(r), what) {}
  ArrayViewMut slice_of(std::span<const Range> ranges) && {
    this->require_valid("slice");
    detail::ArrayRef<T> r = detail::slice_ref(this->ref_, ranges, this->context("slice"));
    ArrayViewMut v(std::move(*this));  // the loan moves to v and covers only the slice now
    v.ref_ = std::move(r);
    detail::narrow_loan(v.ref_, v.loan_);
    return v;
  }
  ArrayViewMut permute_of(std::span<const int> axes, const char* op) && {
    this->require_valid(op);
    detail::ArrayRef<T> r = detail::permute_ref(this->ref_, axes, this->context(op));
    ArrayViewMut v(std::move(*this));  // the loan moves to v: the same elements (in the array's axis order)
    v.ref_ = std::move(r);
    return v;
  }
  detail::ArrayRef<T> ref() const { return this->loan_ ? this->ref_ : detail::ArrayRef<T>{}; }
};

template <class T>
ArrayView<T> Array<T>::view() const& {
  require_valid("tile::Array::view");
  return ArrayView<T>(detail::ArrayAccess::ref(*this), "tile::Array::view");
}
template <class T>
ArrayView<T> Array<T>::slice(int axis, int64_t begin, int64_t end, int64_t step) const& {
  require_valid("tile::Array::slice");
  const auto r = detail::axis_ranges(axis, rank(), begin, end, step, "tile::Array::slice");
  return ArrayView<T>(detail::slice_ref(detail::ArrayAccess::ref(*this),
                                        std::span<const Range>(r.data(), static_cast<std::size_t>(axis) + 1),
                                        "tile::Array::slice"),
                      "tile::Array::slice");
}
template <class T>
ArrayView<T> Array<T>::slice(std::initializer_list<Range> ranges) const& {
  require_valid("tile::Array::slice");
  return ArrayView<T>(detail::slice_ref(detail::ArrayAccess::ref(*this),
                                        std::span<const Range>(ranges.begin(), ranges.size()), "tile::Array::slice"),
                      "tile::Array::slice");
}
template <class T>
ArrayViewMut<T> Array<T>::view_mut() & {
  require_valid("tile::Array::view_mut");
  return ArrayViewMut<T>(detail::ArrayAccess::ref(*this), "tile::Array::view_mut");
}
template <class T>
ArrayViewMut<T> Array<T>::slice_mut(int axis, int64_t begin, int64_t end, int64_t step) & {
  require_valid("tile::Array::slice_mut");
  const auto r = detail::axis_ranges(axis, rank(), begin, end, step, "tile::Array::slice_mut");
  return ArrayViewMut<T>(detail::slice_ref(detail::ArrayAccess::ref(*this),
                                           std::span<const Range>(r.data(), static_cast<std::size_t>(axis) + 1),
                                           "tile::Array::slice_mut"),
                         "tile::Array::slice_mut");
}
template <class T>
ArrayViewMut<T> Array<T>::slice_mut(std::initializer_list<Range> ranges) & {
  require_valid("tile::Array::slice_mut");
  return ArrayViewMut<T>(detail::slice_ref(detail::ArrayAccess::ref(*this),
                                           std::span<const Range>(ranges.begin(), ranges.size()),
                                           "tile::Array::slice_mut"),
                         "tile::Array::slice_mut");
}

// ---- factories -------------------------------------------------------------------------------

namespace detail {
/// The elements the factories write, element i of the array in row-major order: shared by the
/// eager factories below and the array ops of tile/array_ops.hpp.
template <class T>
struct FullElements {
  T value;
  T operator()(std::size_t) const { return value; }
};
template <class T>
struct ArangeElements {
  T operator()(std::size_t i) const { return convert<T>(static_cast<int64_t>(i)); }
};
template <class T>
struct HostElements {
  const std::vector<T>* values;
  T operator()(std::size_t i) const { return (*values)[i]; }
};
/// Random elements: element i depends only on the seed and i (splitmix64 of a counter), so
/// an array's values are the same on every device and for every way it is made.
inline uint64_t random_bits(uint64_t seed, uint64_t i) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + (i + 1) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/// A double in [0, 1) with 53 random bits.
inline double random_unit(uint64_t seed, uint64_t i) {
  return static_cast<double>(random_bits(seed, i) >> 11) * 0x1.0p-53;
}
template <class T>
struct UniformElements {
  uint64_t seed;
  T operator()(std::size_t i) const { return convert<T>(random_unit(seed, 2 * i)); }
};
template <class T>
struct NormalElements {  // Box-Muller on two independent uniforms per element
  uint64_t seed;
  T operator()(std::size_t i) const {
    const double u1 = 1.0 - random_unit(seed, 2 * i), u2 = random_unit(seed, 2 * i + 1);
    return convert<T>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }
};
template <class T, class F>
void fill_host(T* dst, std::size_t n, const F& element) {
  for (std::size_t i = 0; i < n; ++i) dst[i] = element(i);
}
/// from_host's shape: 1-D when none is given; throws tile::Error naming `what` when the shape
/// does not hold n elements.
inline Shape host_shape(std::size_t n, Shape shape, const char* what) {
  if (shape.rank() == 0) shape = Shape(n);
  if (static_cast<std::size_t>(shape.numel()) != n)
    throw Error(std::string(what) + ": the shape " + shape.str() + " holds " + std::to_string(shape.numel()) +
                " elements but the vector has " + std::to_string(n));
  return shape;
}

/// Writes n host elements into a new array (directly on the CPU backend).
template <class T, class F>
Array<T> make_array(const Shape& shape, const Device& device, const F& element) {
  Array<T> a = ArrayAccess::allocate<T>(shape, device);
  const auto n = static_cast<std::size_t>(a.size());
  if (n == 0) return a;
  if (!a.device().is_gpu()) {
    fill_host(a.data(), n, element);
  } else {
    std::unique_ptr<T[]> host(new T[n]);
    fill_host(host.get(), n, element);
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
  return detail::make_array<T>(shape, device, detail::FullElements<T>{value});
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
  return detail::make_array<T>(Shape(n), device, detail::ArangeElements<T>{});
}

/// Uniform random values in [0, 1) (rounded to T, so a narrow float may round up to 1).
/// Deterministic: the same seed gives the same values on every device.
template <floating_element T>
Array<T> rand(Shape shape, uint64_t seed = 0, const Device& device = default_device()) {
  return detail::make_array<T>(shape, device, detail::UniformElements<T>{seed});
}

/// Standard normal random values (mean 0, variance 1), deterministic like `rand`.
template <floating_element T>
Array<T> randn(Shape shape, uint64_t seed = 0, const Device& device = default_device()) {
  return detail::make_array<T>(shape, device, detail::NormalElements<T>{seed});
}

/// An array holding a copy of `values`; 1-D unless a shape with as many elements is given.
template <class T>
Array<T> from_host(const std::vector<T>& values, Shape shape = Shape(),
                   const Device& device = default_device()) {
  shape = detail::host_shape(values.size(), shape, "tile::from_host");
  return detail::make_array<T>(shape, device, detail::HostElements<T>{&values});
}

}  // namespace tile
