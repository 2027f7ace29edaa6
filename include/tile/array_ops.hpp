// tile/array_ops.hpp - array constructors and copies as ops (lazy counterparts of the factories
// of tile/array.hpp), composable with then / zip / shared / unzip and executed with sync(),
// sync_on(), async() or graph() like a launch (tile/op.hpp).
//
//   tile::ops::zeros<T>(shape[, device])          -> op yielding a tile::Array<T>
//   tile::ops::ones<T>(shape[, device]), full<T>(shape, value[, device]), arange<T>(n[, device]),
//   tile::ops::empty<T>(shape[, device]) (no work: unspecified contents)
//   tile::ops::from_host(std::vector<T>, shape[, device])  (the op owns the vector)
//   tile::ops::copy(src, dst)                      device to device, equal shapes; no outputs
//   tile::ops::to_host(a)                          -> op yielding a std::vector<T> (borrows a, or
//                                                     owns it when moved in)
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

#include <cstring>
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

/// `ops::copy(src, dst)`: no outputs.
template <class T>
class [[nodiscard]] CopyOp : public OpBase<CopyOp<T>> {
 public:
  using result_type = void;

  CopyOp(const Array<T>& src, Array<T>& dst) {
    static constexpr const char* what = "tile::ops::copy";
    src_ = detail::require_array(detail::ArrayAccess::ref(src), what, "src");
    dst_ = detail::require_array(detail::ArrayAccess::ref(dst), what, "dst");
    if (src_.buffer == dst_.buffer)
      throw Error(std::string(what) + ": src and dst are the same array; a copy needs two arrays");
    if (!(*src_.buffer->device == *dst_.buffer->device))
      throw Error(std::string(what) + ": src is on " + src_.buffer->device->name() + " but dst on " +
                  dst_.buffer->device->name() + "; a copy stays on one device (go through to_host / from_host)");
    if (!(src_.shape == dst_.shape))
      throw Error(std::string(what) + ": the shapes differ (src " + src_.shape.str() + ", dst " + dst_.shape.str() +
                  "); a copy needs equal shapes");
    src_loan_ = detail::OpLoan(src_.buffer, detail::acquire_loan(src_, false, "tile::ops::copy (src)"));
    dst_loan_ = detail::OpLoan(dst_.buffer, detail::acquire_loan(dst_, true, "tile::ops::copy (dst)"));
  }
  CopyOp(CopyOp&&) noexcept = default;
  CopyOp& operator=(CopyOp&&) = delete;

  void start(detail::ExecContext& ctx) {
    if (!dst_loan_.id) throw Error("tile::ops::copy: the op has already run");
    const Device& device = *dst_.buffer->device;
    const auto bytes = static_cast<std::size_t>(dst_.shape.numel()) * sizeof(T);
    if (bytes == 0) return;
    T* dst = dst_.data();
    const T* src = src_.data();
    if (!device.is_gpu()) {
      detail::run_on_cpu(ctx, [dst, src, bytes] { std::memcpy(dst, src, bytes); });
      return;
    }
    void* stream = ctx.stream_for(device);
    ctx.use(device, src_.buffer, false);
    ctx.use(device, dst_.buffer, true);
    detail::copy_on_stream(device, stream, dst, src, bytes, detail::CopyKind::DeviceToDevice);
    ctx.issued("tile::ops::copy", "");
  }
  void take() {}
  void release() noexcept {
    src_loan_.release();
    dst_loan_.release();
  }

 private:
  detail::ArrayRef<T> src_, dst_;
  detail::OpLoan src_loan_, dst_loan_;
};

/// `ops::to_host(a)`: the elements as a std::vector, row-major.
template <class T>
class [[nodiscard]] ToHostOp : public OpBase<ToHostOp<T>> {
  static_assert(!std::is_same_v<T, bool>,
                "tile::ops::to_host: std::vector<bool> packs its bits; read an Array<bool> with a.to_host()");

 public:
  using result_type = std::vector<T>;

  explicit ToHostOp(const Array<T>& a) { borrow(a); }
  /// The op owns the array (the last step of a chain).
  explicit ToHostOp(Array<T>&& a) : owned_(std::move(a)) { borrow(owned_); }
  ToHostOp(ToHostOp&&) noexcept = default;
  ToHostOp& operator=(ToHostOp&&) = delete;

  void start(detail::ExecContext& ctx) {
    if (!loan_.id) throw Error("tile::ops::to_host: the op has already run");
    const Device& device = *src_.buffer->device;
    const std::size_t bytes = out_.size() * sizeof(T);
    if (bytes == 0) return;
    T* dst = out_.data();
    const T* src = src_.data();
    if (!device.is_gpu()) {
      detail::run_on_cpu(ctx, [dst, src, bytes] { std::memcpy(dst, src, bytes); });
      return;
    }
    if (ctx.capturing())
      throw Error("tile::ops::to_host: the op cannot be captured into a graph on a GPU (it copies into "
                  "pageable host memory, a std::vector); run it after the graph");
    void* stream = ctx.stream_for(device);
    ctx.use(device, src_.buffer, false);
    detail::copy_on_stream(device, stream, dst, src, bytes, detail::CopyKind::DeviceToHost);
    ctx.issued("tile::ops::to_host", "");
  }
  result_type take() { return std::move(out_); }
  void release() noexcept { loan_.release(); }

 private:
  void borrow(const Array<T>& a) {
    src_ = detail::require_array(detail::ArrayAccess::ref(a), "tile::ops::to_host", "the array");
    loan_ = detail::OpLoan(src_.buffer, detail::acquire_loan(src_, false, "tile::ops::to_host"));
    out_.resize(static_cast<std::size_t>(src_.shape.numel()));
  }

  Array<T> owned_;  // before loan_: the loan ends first
  detail::ArrayRef<T> src_;
  detail::OpLoan loan_;
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

/// An op that copies `src` into `dst` (same device, same shape). Both must outlive the op.
template <class T>
CopyOp<T> copy(const Array<T>& src, Array<T>& dst) {
  return CopyOp<T>(src, dst);
}
template <class T>
void copy(Array<T>&&, Array<T>&) = delete;  // the source would be gone before the op runs

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

}  // namespace ops
}  // namespace tile
