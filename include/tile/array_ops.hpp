// tile/array_ops.hpp - array constructors and copies as ops (lazy counterparts of the factories
// of tile/array.hpp), composable with then / zip / shared / unzip and executed with sync(),
// sync_on(), async() or graph() like a launch (tile/op.hpp).
//
//   tile::ops::zeros<T>(shape[, device])          -> op yielding a tile::Array<T>
//   tile::ops::ones<T>(shape[, device]), full<T>(shape, value[, device]), arange<T>(n[, device]),
//   tile::ops::empty<T>(shape[, device]) (no work: unspecified contents)
//   tile::ops::from_host(std::vector<T>, shape[, device])  (the op owns the vector)
//   tile::ops::copy(src, dst)                      equal shapes, on one device or between two
//                                                  (GPU to GPU: compact views; no outputs)
//   tile::ops::to_host(a)                          -> op yielding a std::vector<T> (borrows a, or
//                                                     owns it when moved in)
// `copy` and `to_host` also take views (tile/array.hpp): `src` an Array or an ArrayView, `dst` an
// Array or an ArrayViewMut, `to_host` an ArrayView or an ArrayViewMut; elements are copied in
// the row-major order of their indices, whatever the strides on either side. The op takes its
// own loans on an Array or an ArrayView (so an ArrayView, even a temporary, may go before the
// op: `tile::ops::copy(a.slice(0, 0, 64), b)`; the array must outlive the op), while an
// ArrayViewMut, whose exclusive loan would refuse the op's, is moved into the op, which holds it
// (and its loan) until it has run: `tile::ops::copy(a, std::move(mv))`,
// `tile::ops::copy(a, b.slice_mut(0, 0, 64))`. Two views of one array may be copied between
// when their elements are disjoint (the loans of tile/array.hpp are per element); views that
// share elements cannot both be alive, and an array with a view of all of it is refused as
// "the same array". On the CPU backend a strided copy is an element loop (memcpy per row where
// both sides are contiguous); on a GPU a copy between compact sides is one cudaMemcpyAsync and
// a strided one tile_rt's strided-copy kernel (runtime/cuda/strided_copy.cu: a transpose
// through shared-memory tiles) or, where tile_rt was built without nvcc, the cudaMemcpy2DAsync
// blocks of detail::plan_strided_copy (rows where the innermost axis is contiguous on both
// sides, single-element columns elsewhere); all issued on the execution's stream and so
// captured by graph(); `to_host` of a strided view on a GPU makes
// at most 16 such copies into the vector, or copies the view's span and gathers on the host.
// Making an op allocates its array (and, for a GPU, page-locked host memory holding the values
// to write); nothing is written before the op is executed. Executing it issues the fill as a
// copy on the execution's stream (the CPU backend writes the elements when the op is issued),
// ordered like a launch after earlier users of the arrays (tile/detail/ordering.hpp).
// In a graph the constructor ops fill the arrays that the graph owns (its outputs, see
// tile::Graph::get) again at every replay, so work after them in the graph sees fresh values
// each time. `copy` borrows `dst` exclusively and `src` shared until it has run, `to_host`
// borrows its array shared: conflicting uses meanwhile are refused (tile/array.hpp, loans).
// On a GPU `to_host` copies into pageable memory: it returns once the copy is done (also under
// async()) and cannot be captured into a graph; a constructor op on a GPU cannot be made while
// a graph is being captured (in a `then` step of the captured op): make it before capturing.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tile/array.hpp"
#include "tile/op.hpp"

namespace tile {

namespace detail {

/// `ops::empty`: nothing to write.
struct NoElements {};

/// `ops::from_host`: the op owns the values.
template <class T>
struct OwnedHostElements {
  std::vector<T> values;
  T operator()(std::size_t i) const { return values[i]; }
};

/// A loan an op holds until it has run (or is dropped).
struct OpLoan {
  Buffer* buffer = nullptr;
  uint64_t id = 0;
  OpLoan() = default;
  OpLoan(Buffer* b, uint64_t i) : buffer(b), id(i) {}
  OpLoan(OpLoan&& o) noexcept : buffer(o.buffer), id(std::exchange(o.id, 0)) {}
  OpLoan& operator=(OpLoan&& o) noexcept {
    if (this != &o) {
      release();
      buffer = o.buffer;
      id = std::exchange(o.id, 0);
    }
    return *this;
  }
  ~OpLoan() { release(); }
  void release() noexcept {
    release_loan(buffer, id);
    id = 0;
  }
};

/// Runs CPU work now, or records it in the graph being captured (replayed with the graph).
template <class F>
void run_on_cpu(ExecContext& ctx, F work) {
  if (ctx.capturing())
    ctx.cpu_work()->push_back(std::move(work));
  else
    work();
}

template <class T>
const ArrayRef<T>& require_array(const ArrayRef<T>& r, const char* what, const char* which) {
  if (!r.buffer)
    throw Error(std::string(what) + ": " + which + " has no storage (it was moved from)");
  return r;
}

/// The axes of a copy between two strided boxes of one shape, after dropping extents of 1 and
/// merging each axis into the next inner one where both sides are contiguous across them
/// (outer stride == inner stride * inner extent on both sides); outermost first.
struct CopyAxes {
  int rank = 0;
  std::array<int64_t, Shape::max_rank> extent{}, dst{}, src{};
};

inline CopyAxes collapse_copy_axes(const Shape& shape, const Shape& dst_strides, const Shape& src_strides) {
  CopyAxes c;
  for (int a = 0; a < shape.rank(); ++a) {
    const int64_t n = shape[a], ds = dst_strides[a], ss = src_strides[a];
    if (n == 1) continue;
    if (c.rank > 0) {
      const auto i = static_cast<std::size_t>(c.rank - 1);
      if (c.dst[i] == ds * n && c.src[i] == ss * n) {
        c.extent[i] *= n;
        c.dst[i] = ds;
        c.src[i] = ss;
        continue;
      }
    }
    const auto i = static_cast<std::size_t>(c.rank++);
    c.extent[i] = n;
    c.dst[i] = ds;
    c.src[i] = ss;
  }
  return c;
}

/// Calls f(dst_offset, src_offset) for the first element of every index of the axes [0, n) of
/// `c`, in row-major order (offsets in elements).
template <class F>
void for_each_outer_offset(const CopyAxes& c, int n, F&& f) {
  std::array<int64_t, Shape::max_rank> idx{};
  int64_t doff = 0, soff = 0;
  for (;;) {
    f(doff, soff);
    int a = n - 1;
    for (; a >= 0; --a) {
      const auto ua = static_cast<std::size_t>(a);
      if (++idx[ua] < c.extent[ua]) {
        doff += c.dst[ua];
        soff += c.src[ua];
        break;
      }
      doff -= (c.extent[ua] - 1) * c.dst[ua];
      soff -= (c.extent[ua] - 1) * c.src[ua];
      idx[ua] = 0;
    }
    if (a < 0) return;
  }
}

/// One block of a strided copy: `height` rows of `width` elements, row r at
/// dst_offset + r * dpitch in the destination and src_offset + r * spitch in the source (in
/// elements from each side's first element): one cudaMemcpy2DAsync (a plain copy when height 1).
struct Copy2D {
  int64_t dst_offset = 0, src_offset = 0;
  int64_t dpitch = 0, spitch = 0;
  int64_t width = 0, height = 0;
  bool operator==(const Copy2D&) const = default;
};

/// The blocks that copy the elements of `shape` from a box with `src_strides` to one with
/// `dst_strides` (in elements), in row-major order of the outer indices. After collapsing the
/// axes (collapse_copy_axes): when the innermost axis has stride 1 on both sides, rows of its
/// extent, one block per index of the axes outside the second innermost, whose strides are the
/// pitches (a single block for two compact boxes); otherwise columns of single elements (width
/// 1, the innermost strides as pitches, its extent as height), one block per outer index. A
/// pitch must lie in [width, max_pitch] (cudaMemcpy2D's limits): where it does not, the axis
/// becomes an outer loop of blocks of height 1.
inline std::vector<Copy2D> plan_strided_copy(const Shape& shape, const Shape& dst_strides, const Shape& src_strides,
                                             int64_t max_pitch = std::numeric_limits<int64_t>::max()) {
  std::vector<Copy2D> plan;
  if (shape.numel() == 0) return plan;
  const CopyAxes c = collapse_copy_axes(shape, dst_strides, src_strides);
  if (c.rank == 0) {  // a single element
    plan.push_back(Copy2D{0, 0, 1, 1, 1, 1});
    return plan;
  }
  const auto inner = static_cast<std::size_t>(c.rank - 1);
  auto pitch_ok = [&](std::size_t a, int64_t width) {
    return c.dst[a] >= width && c.src[a] >= width && c.dst[a] <= max_pitch && c.src[a] <= max_pitch;
  };
  Copy2D block;
  int outer = 0;  // the axes [0, outer) are looped over
  if (c.dst[inner] == 1 && c.src[inner] == 1) {
    block.width = c.extent[inner];
    if (c.rank >= 2 && pitch_ok(inner - 1, block.width)) {
      block.height = c.extent[inner - 1];
      block.dpitch = c.dst[inner - 1];
      block.spitch = c.src[inner - 1];
      outer = c.rank - 2;
    } else {
      block.height = 1;
      block.dpitch = block.spitch = block.width;
      outer = c.rank - 1;
    }
  } else {
    block.width = 1;
    if (pitch_ok(inner, 1)) {
      block.height = c.extent[inner];
      block.dpitch = c.dst[inner];
      block.spitch = c.src[inner];
      outer = c.rank - 1;
    } else {
      block.height = block.dpitch = block.spitch = 1;
      outer = c.rank;
    }
  }
  for_each_outer_offset(c, outer, [&](int64_t doff, int64_t soff) {
    block.dst_offset = doff;
    block.src_offset = soff;
    plan.push_back(block);
  });
  return plan;
}

/// Copies the elements of `shape` between two strided boxes in host memory, row-major.
template <class T>
void copy_strided_host(T* dst, const Shape& dst_strides, const T* src, const Shape& src_strides, const Shape& shape) {
  if (shape.numel() == 0) return;
  const CopyAxes c = collapse_copy_axes(shape, dst_strides, src_strides);
  if (c.rank == 0) {
    *dst = *src;
    return;
  }
  const auto inner = static_cast<std::size_t>(c.rank - 1);
  const int64_t n = c.extent[inner], ds = c.dst[inner], ss = c.src[inner];
  for_each_outer_offset(c, c.rank - 1, [&](int64_t doff, int64_t soff) {
    T* d = dst + doff;
    const T* s = src + soff;
    if (ds == 1 && ss == 1) {
      std::memcpy(static_cast<void*>(d), static_cast<const void*>(s), static_cast<std::size_t>(n) * sizeof(T));
    } else {
      for (int64_t k = 0; k < n; ++k) d[k * ds] = s[k * ss];
    }
  });
}

/// Issues `plan` (plan_strided_copy) on `stream`: a plain copy for each block of height 1.
inline void copy_plan_on_stream(const Device& device, void* stream, char* dst, const char* src,
                                const std::vector<Copy2D>& plan, std::size_t elem, CopyKind kind) {
  for (const Copy2D& b : plan) {
    char* d = dst + static_cast<std::size_t>(b.dst_offset) * elem;
    const char* s = src + static_cast<std::size_t>(b.src_offset) * elem;
    const auto width = static_cast<std::size_t>(b.width) * elem;
    if (b.height == 1)
      copy_on_stream(device, stream, d, s, width, kind);
    else
      copy_2d_on_stream(device, stream, d, static_cast<std::size_t>(b.dpitch) * elem, s,
                        static_cast<std::size_t>(b.spitch) * elem, width, static_cast<std::size_t>(b.height), kind);
  }
}

/// cudaMemcpy2D's largest pitch (cudaDeviceProp::memPitch is 2^31 - 1 bytes), in elements.
template <class T>
constexpr int64_t max_copy_pitch() {
  return std::numeric_limits<int32_t>::max() / static_cast<int64_t>(sizeof(T));
}

}  // namespace detail

/// A constructor op (`ops::zeros`, `ops::full`, ...): its outputs are the new array.
template <class T, class Elements>
class [[nodiscard]] FillOp : public OpBase<FillOp<T, Elements>> {
  static constexpr bool writes = !std::is_same_v<Elements, detail::NoElements>;

 public:
  using result_type = Array<T>;

  FillOp(const char* name, const Shape& shape, const Device& device, Elements elements)
      : name_(name), elements_(std::move(elements)), device_(&device) {
    if (device.is_gpu() && detail::capturing_graph)
      throw Error(std::string(name) + ": an array op on a GPU cannot be made while a graph is captured (in a "
                  "then step of the captured op); make it before capturing");
    array_ = detail::ArrayAccess::allocate<T>(shape, device);
    n_ = static_cast<std::size_t>(array_.size());
    if constexpr (writes) {
      if (device.is_gpu() && n_) {
        staging_ = detail::staging_alloc(device, n_ * sizeof(T));
        detail::fill_host(static_cast<T*>(staging_), n_, elements_);
      }
    }
  }
  FillOp(FillOp&& o) noexcept
      : name_(o.name_),
        elements_(std::move(o.elements_)),
        device_(o.device_),
        array_(std::move(o.array_)),
        n_(o.n_),
        staging_(std::exchange(o.staging_, nullptr)) {}
  FillOp& operator=(FillOp&&) = delete;
  ~FillOp() { detail::staging_free(*device_, staging_); }

  void start(detail::ExecContext& ctx) {
    if (!array_.valid()) throw Error(std::string(name_) + ": the op has already run");
    if constexpr (writes) {
      detail::check_not_lost(detail::ArrayAccess::ref(array_).buffer, name_);
      T* data = array_.data();
      if (n_ == 0) return;
      if (!device_->is_gpu()) {
        detail::run_on_cpu(ctx, [this, data] { detail::fill_host(data, n_, elements_); });
        return;
      }
      void* stream = ctx.stream_for(*device_);
      ctx.use(*device_, detail::ArrayAccess::ref(array_).buffer, true);
      detail::copy_on_stream(*device_, stream, data, staging_, n_ * sizeof(T), detail::CopyKind::HostToDevice);
      ctx.issued(name_, "");
    }
  }
  result_type take() { return std::move(array_); }
  void release() noexcept {}

 private:
  const char* name_;
  Elements elements_;
  const Device* device_;
  Array<T> array_;
  std::size_t n_ = 0;
  void* staging_ = nullptr;  // a GPU's values, page-locked
};

/// `ops::copy(src, dst)`: no outputs. The source is an Array or an ArrayView, on which the op
/// takes its own shared loan; the destination an Array, on which it takes an exclusive loan, or
/// an ArrayViewMut moved into the op, whose exclusive loan the op holds (and returns with it).
template <class T>
class [[nodiscard]] CopyOp : public OpBase<CopyOp<T>> {
  static constexpr const char* what = "tile::ops::copy";

 public:
  using result_type = void;

  CopyOp(const Array<T>& src, Array<T>& dst) {
    init(detail::ArrayAccess::ref(src), detail::ArrayAccess::ref(dst), true);
  }
  CopyOp(const ArrayView<T>& src, Array<T>& dst) {
    init(detail::ArrayAccess::ref(src), detail::ArrayAccess::ref(dst), true);
  }
  CopyOp(const Array<T>& src, ArrayViewMut<T>&& dst) : dst_view_(std::move(dst)) {
    init(detail::ArrayAccess::ref(src), detail::ArrayAccess::ref(dst_view_), false);
  }
  CopyOp(const ArrayView<T>& src, ArrayViewMut<T>&& dst) : dst_view_(std::move(dst)) {
    init(detail::ArrayAccess::ref(src), detail::ArrayAccess::ref(dst_view_), false);
  }
  CopyOp(CopyOp&&) noexcept = default;
  CopyOp& operator=(CopyOp&&) = delete;

  void start(detail::ExecContext& ctx) {
    if (!src_loan_.id) throw Error("tile::ops::copy: the op has already run");
    detail::check_not_lost(src_.buffer, "tile::ops::copy (src)");
    detail::check_not_lost(dst_.buffer, "tile::ops::copy (dst)");
    const Device& device = *dst_.buffer->device;
    if (dst_.shape.numel() == 0) return;
    T* dst = dst_.data();
    const T* src = src_.data();
    if (!device.is_gpu()) {
      detail::run_on_cpu(ctx, [dst, src, shape = dst_.shape, ds = dst_.strides, ss = src_.strides] {
        detail::copy_strided_host(dst, ds, src, ss, shape);
      });
      return;
    }
    void* stream = ctx.stream_for(device);
    ctx.use(device, src_.buffer, false);
    ctx.use(device, dst_.buffer, true);
    if (detail::is_row_major(src_.shape, src_.strides) && detail::is_row_major(dst_.shape, dst_.strides)) {
      const bool across = !(*src_.buffer->device == device);
      detail::copy_on_stream(device, stream, dst, src, static_cast<std::size_t>(dst_.shape.numel()) * sizeof(T),
                             across ? detail::CopyKind::BetweenDevices : detail::CopyKind::DeviceToDevice);
    } else {
      // tile_rt's kernel where it has one, else cudaMemcpy2DAsync blocks.
      const detail::CopyAxes c = detail::collapse_copy_axes(dst_.shape, dst_.strides, src_.strides);
      if (!detail::strided_copy_on_stream(device, stream, dst, c.dst.data(), src, c.src.data(), c.extent.data(),
                                          c.rank, sizeof(T)))
        detail::copy_plan_on_stream(device, stream, reinterpret_cast<char*>(dst), reinterpret_cast<const char*>(src),
                                    detail::plan_strided_copy(dst_.shape, dst_.strides, src_.strides,
                                                              detail::max_copy_pitch<T>()),
                                    sizeof(T), detail::CopyKind::DeviceToDevice);
    }
    ctx.issued("tile::ops::copy", "");
  }
  void take() {}
  void release() noexcept {
    src_loan_.release();
    dst_loan_.release();
    dst_view_ = ArrayViewMut<T>();  // returns the view's loan
  }

 private:
  /// Checks the arguments and borrows them (dst only when `borrow_dst`: a view lends its own).
  void init(const detail::ArrayRef<T>& src, const detail::ArrayRef<T>& dst, bool borrow_dst) {
    src_ = detail::require_array(src, what, "src");
    dst_ = detail::require_array(dst, what, "dst");
    const Device &from = *src_.buffer->device, &to = *dst_.buffer->device;
    if (!(from == to)) {
      if (from.is_gpu() != to.is_gpu())
        throw Error(std::string(what) + ": src is on " + from.name() + " but dst on " + to.name() +
                    "; between the CPU and a GPU go through to_host / from_host");
      if (from.is_gpu() && !(detail::is_row_major(src_.shape, src_.strides) &&
                             detail::is_row_major(dst_.shape, dst_.strides)))
        throw Error(std::string(what) + ": a copy from " + from.name() + " to " + to.name() +
                    " needs compact row-major views on both sides; copy a strided view into a compact "
                    "array on its own device first");
    }
    if (!(src_.shape == dst_.shape))
      throw Error(std::string(what) + ": the shapes differ (src " + src_.shape.str() + ", dst " + dst_.shape.str() +
                  "); a copy needs equal shapes");
    if (src_.buffer == dst_.buffer) {
      detail::Loan s, d;
      detail::set_loan_elements(s, src_);
      detail::set_loan_elements(d, dst_);
      if (s.whole && d.whole)
        throw Error(std::string(what) + ": src and dst are the same array; a copy needs two arrays");
      if (detail::loans_overlap(s, d))
        throw Error(std::string(what) + ": src and dst overlap (views of one array that share elements); a copy "
                    "within one array needs disjoint elements");
    }
    src_loan_ = detail::OpLoan(src_.buffer, detail::acquire_loan(src_, false, "tile::ops::copy (src)"));
    if (borrow_dst)
      dst_loan_ = detail::OpLoan(dst_.buffer, detail::acquire_loan(dst_, true, "tile::ops::copy (dst)"));
  }

  ArrayViewMut<T> dst_view_;  // a destination view moved into the op (empty for an Array)
  detail::ArrayRef<T> src_, dst_;
  detail::OpLoan src_loan_, dst_loan_;
};

/// `ops::to_host(a)`: the elements as a std::vector, row-major. The source is an Array (borrowed
/// or owned), an ArrayView (the op takes its own shared loan) or an ArrayViewMut moved into the
/// op (which reads under the view's exclusive loan).
template <class T>
class [[nodiscard]] ToHostOp : public OpBase<ToHostOp<T>> {
  static_assert(!std::is_same_v<T, bool>,
                "tile::ops::to_host: std::vector<bool> packs its bits; read an Array<bool> with a.to_host()");
  static constexpr const char* what = "tile::ops::to_host";
  /// A strided source is copied from the GPU with at most this many 2D copies straight into the
  /// vector; with more, its span is copied into a temporary and gathered.
  static constexpr std::size_t kMaxDirectCopies = 16;

 public:
  using result_type = std::vector<T>;

  explicit ToHostOp(const Array<T>& a) { borrow(detail::ArrayAccess::ref(a), "the array", true); }
  /// The op owns the array (the last step of a chain).
  explicit ToHostOp(Array<T>&& a) : owned_(std::move(a)) { borrow(detail::ArrayAccess::ref(owned_), "the array", true); }
  explicit ToHostOp(const ArrayView<T>& v) { borrow(detail::ArrayAccess::ref(v), "the view", true); }
  /// The op holds the view and its loan.
  explicit ToHostOp(ArrayViewMut<T>&& v) : owned_view_(std::move(v)) {
    borrow(detail::ArrayAccess::ref(owned_view_), "the view", false);
  }
  ToHostOp(ToHostOp&&) noexcept = default;
  ToHostOp& operator=(ToHostOp&&) = delete;

  void start(detail::ExecContext& ctx) {
    if (!borrowed_) throw Error("tile::ops::to_host: the op has already run");
    detail::check_not_lost(src_.buffer, "tile::ops::to_host");
    const Device& device = *src_.buffer->device;
    if (out_.empty()) return;
    T* dst = out_.data();
    const T* src = src_.data();
        if (!device.is_gpu()) {
      detail::run_on_cpu(ctx, [dst, src, shape = src_.shape, ss = src_.strides] {
        detail::copy_strided_host(dst, detail::row_major_strides(shape), src, ss, shape);
      });
      return;
    }
    if (ctx.capturing())
      throw Error("tile::ops::to_host: the op cannot be captured into a graph on a GPU (it copies into "
                  "pageable host memory, a std::vector); run it after the graph");
    void* stream = ctx.stream_for(device);
    ctx.use(device, src_.buffer, false);
    const std::size_t bytes = out_.size() * sizeof(T);
    if (detail::is_row_major(src_.shape, src_.strides)) {
      detail::copy_on_stream(device, stream, dst, src, bytes, detail::CopyKind::DeviceToHost);
    } else {
      const auto plan = detail::plan_strided_copy(src_.shape, detail::row_major_strides(src_.shape), src_.strides,
                                                  detail::max_copy_pitch<T>());
      if (plan.size() <= kMaxDirectCopies) {
        detail::copy_plan_on_stream(device, stream, reinterpret_cast<char*>(dst), reinterpret_cast<const char*>(src),
                                    plan, sizeof(T), detail::CopyKind::DeviceToHost);
      } else {
        // The span from the first element to the last, then gathered on the host.
        std::unique_ptr<T[]> span(new T[static_cast<std::size_t>(src_.span_bytes()) / sizeof(T)]);
        detail::copy_on_stream(device, stream, span.get(), src, static_cast<std::size_t>(src_.span_bytes()),
                               detail::CopyKind::DeviceToHost);
        detail::gpu_stream_synchronize(device, stream, what, "");
        detail::copy_strided_host(dst, detail::row_major_strides(src_.shape), span.get(), src_.strides, src_.shape);
      }
    }
    ctx.issued("tile::ops::to_host", "");
  }
  result_type take() { return std::move(out_); }
  void release() noexcept {
    loan_.release();
    owned_view_ = ArrayViewMut<T>();
    borrowed_ = false;
  }

 private:
  void borrow(const detail::ArrayRef<T>& r, const char* which, bool take_loan) {
    src_ = detail::require_array(r, what, which);
    if (take_loan) loan_ = detail::OpLoan(src_.buffer, detail::acquire_loan(src_, false, what));
    borrowed_ = true;
    out_.resize(static_cast<std::size_t>(src_.shape.numel()));
  }

  Array<T> owned_;  // before loan_: the loan ends first
  ArrayViewMut<T> owned_view_;
  detail::ArrayRef<T> src_;
  detail::OpLoan loan_;
  bool borrowed_ = false;
  std::vector<T> out_;
};

namespace ops {

/// An op that makes an array with unspecified contents (it issues no work).
template <class T>
FillOp<T, detail::NoElements> empty(Shape shape, const Device& device = default_device()) {
  return {"tile::ops::empty", shape, device, detail::NoElements{}};
}

/// An op that makes an array of `value`s.
template <class T>
FillOp<T, detail::FullElements<T>> full(Shape shape, T value, const Device& device = default_device()) {
  return {"tile::ops::full", shape, device, detail::FullElements<T>{value}};
}

template <class T>
FillOp<T, detail::FullElements<T>> zeros(Shape shape, const Device& device = default_device()) {
  return {"tile::ops::zeros", shape, device, detail::FullElements<T>{T{}}};
}

template <class T>
FillOp<T, detail::FullElements<T>> ones(Shape shape, const Device& device = default_device()) {
  return {"tile::ops::ones", shape, device, detail::FullElements<T>{detail::convert<T>(1)}};
}

/// An op that makes the 1-D array 0, 1, ..., n-1.
template <class T>
FillOp<T, detail::ArangeElements<T>> arange(int64_t n, const Device& device = default_device()) {
  return {"tile::ops::arange", Shape(n), device, detail::ArangeElements<T>{}};
}

/// `tile::rand` as an op (the same values for the same seed).
template <floating_element T>
FillOp<T, detail::UniformElements<T>> rand(Shape shape, uint64_t seed = 0,
                                           const Device& device = default_device()) {
  return {"tile::ops::rand", shape, device, detail::UniformElements<T>{seed}};
}

/// `tile::randn` as an op.
template <floating_element T>
FillOp<T, detail::NormalElements<T>> randn(Shape shape, uint64_t seed = 0,
                                           const Device& device = default_device()) {
  return {"tile::ops::randn", shape, device, detail::NormalElements<T>{seed}};
}

/// An op that makes an array holding `values` (which the op keeps); 1-D unless a shape with as
/// many elements is given.
template <class T>
FillOp<T, detail::OwnedHostElements<T>> from_host(std::vector<T> values, Shape shape = Shape(),
                                                 const Device& device = default_device()) {
  shape = detail::host_shape(values.size(), shape, "tile::ops::from_host");
  return {"tile::ops::from_host", shape, device, detail::OwnedHostElements<T>{std::move(values)}};
}

/// An op that copies the elements of `src` into `dst` (same device, same shape), in row-major
/// order of their indices: `src` an Array or an ArrayView, `dst` an Array or an ArrayViewMut
/// moved into the op (`tile::ops::copy(a.slice(0, 0, 64), std::move(mv))`), which holds the view
/// until it has run. The arrays must outlive the op; an ArrayView source may go before it (the op
/// borrows the elements itself). Two views of one array may be copied when their elements are
/// disjoint.
template <class T>
CopyOp<T> copy(const Array<T>& src, Array<T>& dst) {
  return CopyOp<T>(src, dst);
}
template <class T>
CopyOp<T> copy(const ArrayView<T>& src, Array<T>& dst) {
  return CopyOp<T>(src, dst);
}
template <class T>
CopyOp<T> copy(const Array<T>& src, ArrayViewMut<T>&& dst) {
  return CopyOp<T>(src, std::move(dst));
}
template <class T>
CopyOp<T> copy(const ArrayView<T>& src, ArrayViewMut<T>&& dst) {
  return CopyOp<T>(src, std::move(dst));
}
template <class T>
void copy(Array<T>&&, Array<T>&) = delete;  // the source would be gone before the op runs
template <class T>
void copy(Array<T>&&, ArrayViewMut<T>&&) = delete;
template <class T>
void copy(const Array<T>&, ArrayViewMut<T>&) {
  static_assert(detail::false_for_types<T>,
                "tile::ops::copy holds a destination view until it has run: write tile::ops::copy(src, std::move(v))");
}
template <class T>
void copy(const ArrayView<T>&, ArrayViewMut<T>&) {
  static_assert(detail::false_for_types<T>,
                "tile::ops::copy holds a destination view until it has run: write tile::ops::copy(src, std::move(v))");
}

/// An op whose outputs are the elements of `a` on the host: it borrows `a` (which must outlive
/// the op), or owns it when `a` is moved in (`.then([](tile::Array<T> a) { return
/// tile::ops::to_host(std::move(a)); })`).
template <class T>
ToHostOp<T> to_host(const Array<T>& a) {
  return ToHostOp<T>(a);
}
template <class T>
ToHostOp<T> to_host(Array<T>&& a) {
  return ToHostOp<T>(std::move(a));
}
/// The elements of a view, row-major: an ArrayView is borrowed by the op (its array must outlive
/// the op, the view need not), an ArrayViewMut is moved into the op, which holds it until it has run.
template <class T>
ToHostOp<T> to_host(const ArrayView<T>& v) {
  return ToHostOp<T>(v);
}
template <class T>
ToHostOp<T> to_host(ArrayViewMut<T>&& v) {
  return ToHostOp<T>(std::move(v));
}
template <class T>
void to_host(const ArrayViewMut<T>&) {
  static_assert(detail::false_for_types<T>,
                "tile::ops::to_host holds a mutable view until it has run: write tile::ops::to_host(std::move(v))");
}

}  // namespace ops
}  // namespace tile
