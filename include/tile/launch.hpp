// tile/launch.hpp - `tile::launch<K>(args...)` and the lazy `tile::DeviceOp` it returns.
//
// Arguments map one-to-one to the kernel's parameters:
//   Tensor<T, D...>&        exclusive: a Partition (moved in) or a PartitionRef (also of a
//                           mutable view: std::move(v).partition<...>()); one tile program per
//                           tile of the partition, each given its own piece
//   const Tensor<T, D...>&  shared: an Array<T>, borrowed (lvalue) or moved in (rvalue), or an
//                           ArrayView<T> (a.view(), a.slice(...)), which the op borrows again
//   Atomic<T, D...>&        atomic: an Array<T> lvalue (not const), lent exclusively to the op
//                           (nothing else may read or write it until the op has run), whole to
//                           every tile program, which update it with atomic_* only; the
//                           runtime's checks count it as a writer
//   scalar                  a value, converted to the parameter type
// `launch` checks everything it can see (argument kinds, element types, ranks, static shapes,
// grids, aliasing, loans) and throws tile::Error naming the kernel, the argument and the rule.
// Aliasing: an exclusive argument may share no element with any other argument. Views of one
// array are compared exactly, in the array's own axis order whatever the views' (two slices or
// transposed views are disjoint when, on some axis of the array, their index progressions are);
// arguments over different arrays (external memory may alias) by their byte ranges [first
// byte, last byte], which is conservative: interleaved but disjoint elements of two different
// arrays are refused too.
// Nothing runs until `std::move(op).sync()`, which runs the tile programs and returns what the op
// owned: the Partition passed to it (a std::tuple of them if several, void if none).
//
// Execution: on the CPU backend each tile program is a call of K on a thread-pool worker. On a
// GPU, K runs as the kernel tilecc generated and registered in detail::GpuKernel<K>; when the
// program was compiled by a plain C++ compiler (no registration), the op copies its arrays to the
// host, runs the CPU implementation and copies the results back: correct, but slow.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tile/array.hpp"
#include "tile/atomic.hpp"
#include "tile/core.hpp"
#include "tile/detail/abi.hpp"
#include "tile/detail/runtime.hpp"
#include "tile/error.hpp"
#include "tile/op.hpp"
#include "tile/tensor.hpp"

namespace tile {

template <auto K, class... Slots>
class DeviceOp;

namespace detail {

// ---- the kernel's signature ------------------------------------------------------------------

template <class F>
struct kernel_signature {
  static constexpr bool valid = false;
};
template <class R, class... P>
struct kernel_signature<R (*)(P...)> {
  static constexpr bool valid = std::is_void_v<R>;
  using params = std::tuple<P...>;
  static constexpr std::size_t arity = sizeof...(P);
};
template <class R, class... P>
struct kernel_signature<R (*)(P...) noexcept> : kernel_signature<R (*)(P...)> {};

enum class ParamKind { Exclusive, Shared, Atomic, Scalar, Invalid };

template <class P>
struct param_traits {
  static constexpr ParamKind kind = scalar_operand<P> ? ParamKind::Scalar : ParamKind::Invalid;
};
template <class T, int... D>
struct param_traits<Tensor<T, D...>&> {
  static constexpr ParamKind kind = ParamKind::Exclusive;
  using element = T;
  using tensor = Tensor<T, D...>;
  static constexpr std::array<int64_t, sizeof...(D)> dims{D...};
};
template <class T, int... D>
struct param_traits<const Tensor<T, D...>&> {
  static constexpr ParamKind kind = ParamKind::Shared;
  using element = T;
  using tensor = Tensor<T, D...>;
  static constexpr std::array<int64_t, sizeof...(D)> dims{D...};
};
/// Shared by all programs like a const Tensor&, but written (atomically): the op holds the
/// array's exclusive loan, and each program gets the whole array.
template <class T, int... D>
struct param_traits<Atomic<T, D...>&> {
  static constexpr ParamKind kind = ParamKind::Atomic;
  using element = T;
  using tensor = Atomic<T, D...>;
  static constexpr std::array<int64_t, sizeof...(D)> dims{D...};
};

template <std::size_t R>
std::string dims_str(const std::array<int64_t, R>& d, bool brackets) {
  std::string s = brackets ? "[" : "";
  for (std::size_t a = 0; a < R; ++a)
    s += (a ? ", " : "") + (d[a] == dyn ? std::string("dyn") : std::to_string(d[a]));
  return brackets ? s + "]" : s;
}

/// The parameter as written in the kernel: "Tensor<float, 128>&", "const Tensor<float, dyn>&", "float".
template <class P>
std::string param_name() {
  using PT = param_traits<P>;
  if constexpr (PT::kind == ParamKind::Exclusive || PT::kind == ParamKind::Shared ||
                PT::kind == ParamKind::Atomic) {
    return std::string(PT::kind == ParamKind::Shared ? "const " : "") +
           (PT::kind == ParamKind::Atomic ? "Atomic<" : "Tensor<") +
           std::string(type_name<typename PT::element>()) + ", " + dims_str(PT::dims, false) + ">&";
  } else {
    return std::string(type_name<std::remove_cvref_t<P>>());
  }
}

// ---- what an op holds for each argument ------------------------------------------------------

/// A borrow of an array passed as an lvalue: shared, or exclusive for a tile::Atomic parameter.
/// The loan is taken when the launch is accepted and returned when the op has run or is destroyed.
template <class T>
class ArrayBorrow {
 public:
  explicit ArrayBorrow(const Array<T>& a) : ref_(ArrayAccess::ref(a)) {}
  /// A view's elements; the op takes a shared loan of its own.
  explicit ArrayBorrow(const ArrayView<T>& v) : ref_(ArrayAccess::ref(v)) {}
  ArrayBorrow(ArrayBorrow&& o) noexcept : ref_(o.ref_), loan_(std::exchange(o.loan_, 0)) {}
  ArrayBorrow& operator=(ArrayBorrow&&) = delete;
  ~ArrayBorrow() { release(); }

  /// Takes the loan; a refusal names the argument, `what()` (built only then: the launch path
  /// allocates nothing).
  template <class What>
  void lend(bool exclusive, const What& what) {
    try {
      loan_ = acquire_loan(ref_, exclusive, {});
    } catch (const Error& e) {
      throw Error(what() + e.what());
    }
  }
  void release() noexcept {
    release_loan(ref_.buffer, loan_);
    loan_ = 0;
  }
  const ArrayRef<T>& ref() const { return ref_; }

 private:
  ArrayRef<T> ref_;
  uint64_t loan_ = 0;
};

enum class SlotKind { Partition, PartitionRef, Array, ArrayBorrow, Value };

template <class S>
struct slot_traits {
  static constexpr SlotKind kind = SlotKind::Value;
};
template <class T, int... Ts>
struct slot_traits<Partition<T, Ts...>> {
  static constexpr SlotKind kind = SlotKind::Partition;
  using element = T;
  static constexpr std::array<int64_t, sizeof...(Ts)> tile{Ts...};
  static ArrayRef<T> ref(const Partition<T, Ts...>& p) { return ArrayAccess::ref(p); }
};
template <class T, int... Ts>
struct slot_traits<PartitionRef<T, Ts...>> {
  static constexpr SlotKind kind = SlotKind::PartitionRef;
  using element = T;
  static constexpr std::array<int64_t, sizeof...(Ts)> tile{Ts...};
  static ArrayRef<T> ref(const PartitionRef<T, Ts...>& p) { return ArrayAccess::ref(p); }
};
template <class T>
struct slot_traits<Array<T>> {
  static constexpr SlotKind kind = SlotKind::Array;
  using element = T;
  static ArrayRef<T> ref(const Array<T>& a) { return ArrayAccess::ref(a); }
};
template <class T>
struct slot_traits<ArrayBorrow<T>> {
  static constexpr SlotKind kind = SlotKind::ArrayBorrow;
  using element = T;
  static ArrayRef<T> ref(const ArrayBorrow<T>& a) { return a.ref(); }
};

template <class S>
inline constexpr bool is_partition_slot =
    slot_traits<S>::kind == SlotKind::Partition || slot_traits<S>::kind == SlotKind::PartitionRef;
template <class S>
inline constexpr bool is_array_slot =
    slot_traits<S>::kind == SlotKind::Array || slot_traits<S>::kind == SlotKind::ArrayBorrow;
template <class S>
inline constexpr bool is_tensor_slot = is_partition_slot<S> || is_array_slot<S>;

/// How an argument is held: lvalue arrays are borrowed, everything else is moved (or copied) in.
template <class A>
struct slot_of {
  using type = std::decay_t<A>;
};
template <class T>
struct slot_of<Array<T>&> {
  using type = ArrayBorrow<T>;
};
template <class T>
struct slot_of<const Array<T>&> {
  using type = ArrayBorrow<T>;
};
template <class T>
struct slot_of<const Array<T>> {
  using type = ArrayBorrow<T>;
};
/// A shared view, passed either way, is borrowed again by the op.
template <class T>
struct slot_of<ArrayView<T>> {
  using type = ArrayBorrow<T>;
};
template <class T>
struct slot_of<ArrayView<T>&> : slot_of<ArrayView<T>> {};
template <class T>
struct slot_of<const ArrayView<T>&> : slot_of<ArrayView<T>> {};
template <class T>
struct slot_of<const ArrayView<T>> : slot_of<ArrayView<T>> {};
/// Stands in for an argument rejected at compile time, so that only the static_assert reports.
struct RejectedSlot {
  template <class A>
  explicit RejectedSlot(A&&) {}
};
template <class T, int... Ts>
struct slot_of<Partition<T, Ts...>&> {
  static_assert(false_for_types<T>, "tile::launch: a Partition is consumed by the launch: pass std::move(p)");
  using type = RejectedSlot;
};
template <class T, int... Ts>
struct slot_of<const Partition<T, Ts...>&> : slot_of<Partition<T, Ts...>&> {};
template <class T, int... Ts>
struct slot_of<PartitionRef<T, Ts...>&> {
  static_assert(false_for_types<T>,
                "tile::launch: pass the PartitionRef as a temporary (a.partition_mut<...>()) "
                "or with std::move(ref)");
  using type = RejectedSlot;
};
template <class T, int... Ts>
struct slot_of<const PartitionRef<T, Ts...>&> : slot_of<PartitionRef<T, Ts...>&> {};
template <class T>
struct slot_of<ArrayViewMut<T>> {
  static_assert(false_for_types<T>,
                "tile::launch: a mutable view is not an argument by itself: pass std::move(v).partition<...>() "
                "to an exclusive parameter, or a shared view (a.view(), a.slice(...)) to a shared one");
  using type = RejectedSlot;
};
template <class T>
struct slot_of<ArrayViewMut<T>&> : slot_of<ArrayViewMut<T>> {};
template <class T>
struct slot_of<const ArrayViewMut<T>&> : slot_of<ArrayViewMut<T>> {};
template <class T>
struct slot_of<const ArrayViewMut<T>> : slot_of<ArrayViewMut<T>> {};
template <class A>
using slot_t = typename slot_of<A>::type;

/// "a Partition<float, 128>", "an Array<float>", ... for messages.
template <class S>
std::string describe_slot() {
  using ST = slot_traits<S>;
  if constexpr (ST::kind == SlotKind::Partition || ST::kind == SlotKind::PartitionRef) {
    return std::string(ST::kind == SlotKind::Partition ? "a Partition<" : "a PartitionRef<") +
           std::string(type_name<typename ST::element>()) + ", " + dims_str(ST::tile, false) + ">";
  } else if constexpr (ST::kind == SlotKind::Array || ST::kind == SlotKind::ArrayBorrow) {
    return "an Array<" + std::string(type_name<typename ST::element>()) + ">";
  } else if constexpr (scalar_operand<S>) {
    return "a value of type " + std::string(type_name<S>());
  } else {
    return "a value that is neither an array, a partition nor a scalar";
  }
}

/// Whether a slot can be bound to a parameter at all (types only; shapes are checked at run time).
template <class P, class S>
constexpr bool binds() {
  using PT = param_traits<P>;
  using ST = slot_traits<S>;
  if constexpr (PT::kind == ParamKind::Exclusive) {
    if constexpr (is_partition_slot<S>)
      return std::is_same_v<typename PT::element, typename ST::element> && PT::dims.size() == ST::tile.size();
    else
      return false;
  } else if constexpr (PT::kind == ParamKind::Shared || PT::kind == ParamKind::Atomic) {
    if constexpr (is_array_slot<S>)
      return std::is_same_v<typename PT::element, typename ST::element>;
    else
      return false;
  } else if constexpr (PT::kind == ParamKind::Scalar) {
    // A complex value would lose its imaginary part in a real parameter.
    return scalar_operand<S> && (!is_complex_v<S> || is_complex_v<std::remove_cvref_t<P>>);
  } else {
    return false;
  }
}

template <class A>
inline constexpr bool is_tile_array_v = false;
template <class T>
inline constexpr bool is_tile_array_v<Array<T>> = true;
template <class A>
inline constexpr bool is_array_view_v = false;
template <class T>
inline constexpr bool is_array_view_v<ArrayView<T>> = true;

/// An Atomic parameter takes a non-const Array lvalue: the op borrows it exclusively and the array
/// holds the updates once the op has run (a moved-in array would be dropped with them).
template <class P, class A>
constexpr bool atomic_argument_ok() {
  if constexpr (param_traits<P>::kind == ParamKind::Atomic && is_tile_array_v<std::remove_cvref_t<A>>)
    return std::is_lvalue_reference_v<A> && !std::is_const_v<std::remove_reference_t<A>>;
  else if constexpr (param_traits<P>::kind == ParamKind::Atomic)
    return !is_array_view_v<std::remove_cvref_t<A>>;  // a shared view cannot be written
  else
    return true;
}
template <class F, class... A>
constexpr bool atomic_arguments_ok() {
  if constexpr (kernel_signature<F>::valid && kernel_signature<F>::arity == sizeof...(A))
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (atomic_argument_ok<std::tuple_element_t<I, typename kernel_signature<F>::params>, A>() && ...);
    }(std::index_sequence_for<A...>{});
  else
    return true;
}

/// The rule argument slot `s` breaks for parameter P, or "" when it fits.
template <class P, class S>
std::string check_argument(const S& s) {
  using PT = param_traits<P>;
  using ST = slot_traits<S>;
  if constexpr (PT::kind == ParamKind::Exclusive) {
    if constexpr (!is_partition_slot<S>) {
      return "an exclusive parameter (Tensor&) takes a partition, std::move(array).partition<...>() or "
             "array.partition_mut<...>(), but was given " +
             describe_slot<S>();
    } else if constexpr (!std::is_same_v<typename PT::element, typename ST::element>) {
      return "element type mismatch: the partition holds " + std::string(type_name<typename ST::element>()) +
             " but the parameter is a tensor of " + std::string(type_name<typename PT::element>());
    } else if constexpr (PT::dims.size() != ST::tile.size()) {
      return "rank mismatch: the partition has rank " + std::to_string(ST::tile.size()) +
             " but the parameter has rank " + std::to_string(PT::dims.size());
    } else {
      if (!ST::ref(s).buffer) return "the partition holds no array (it was moved from)";
      for (std::size_t a = 0; a < PT::dims.size(); ++a)
        if (PT::dims[a] != dyn && PT::dims[a] != ST::tile[a])
          return "the partition's tile shape " + dims_str(ST::tile, true) +
                 " differs from the parameter's static shape " + dims_str(PT::dims, true);
      return "";
    }
  } else if constexpr (PT::kind == ParamKind::Shared || PT::kind == ParamKind::Atomic) {
    constexpr bool atomic = PT::kind == ParamKind::Atomic;
    if constexpr (!is_array_slot<S>) {
      return std::string(atomic ? "an atomic parameter (Atomic&) takes an array lvalue, which the op borrows "
                                  "exclusively"
                                : "a shared parameter (const Tensor&) takes an array") +
             ", but was given " + describe_slot<S>();
    } else if constexpr (!std::is_same_v<typename PT::element, typename ST::element>) {
      return "element type mismatch: the array holds " + std::string(type_name<typename ST::element>()) +
             " but the parameter is " + (atomic ? "an atomic array" : "a tensor") + " of " +
             std::string(type_name<typename PT::element>());
    } else {
      const auto r = ST::ref(s);
      if (!r.buffer) return "the array has no storage (it was moved from)";
      if (r.shape.rank() != static_cast<int>(PT::dims.size()))
        return "rank mismatch: the array " + r.shape.str() + " has rank " + std::to_string(r.shape.rank()) +
               " but the parameter has rank " + std::to_string(PT::dims.size());
      for (std::size_t a = 0; a < PT::dims.size(); ++a)
        if (PT::dims[a] != dyn && PT::dims[a] != r.shape[static_cast<int>(a)])
          return "static dimension " + std::to_string(a) + " of the parameter is " +
                 std::to_string(PT::dims[a]) + " but the array's extent is " +
                 std::to_string(r.shape[static_cast<int>(a)]) + " (array shape " + r.shape.str() + ")";
      return "";
    }
  } else {
    if constexpr (!scalar_operand<S>)
      return "a scalar parameter takes a value convertible to " + param_name<P>() + ", but was given " +
             describe_slot<S>();
    else if constexpr (is_complex_v<S> && !is_complex_v<std::remove_cvref_t<P>>)
      return "a " + param_name<P>() + " parameter cannot take " + describe_slot<S>() +
             " (its imaginary part would be lost); pass tile::real(z)";
    else
      return "";
  }
}

/// The kernel as written in the launch ("add<128>"). GCC's __PRETTY_FUNCTION__ spells the
/// template argument K in full; clang's omits a function template's arguments, so under clang
/// the name is recovered from the mangled name of a type that carries K (when RTTI is on).
template <auto K>
struct KernelTag {};
template <auto K>
const char* pretty_function() {
  return __PRETTY_FUNCTION__;
}

template <auto K>
const std::string& kernel_name() {
#if defined(__clang__) && defined(__GXX_RTTI)
  static const std::string name = kernel_display_name(pretty_function<K>(), typeid(KernelTag<K>).name());
#else
  static const std::string name = kernel_display_name(pretty_function<K>(), nullptr);
#endif
  return name;
}

/// An array or partition argument as the launch checks see it: `data` is its first element,
/// `bytes` the span to the end of its last one, `shape`/`strides` in the argument's axis order,
/// and `buffer`/`first`/`step`/`count` its place in its array, indexed by the array's axes (see
/// ArrayRef), so that a transposed view compares with a slice axis by axis.
struct TensorUse {
  std::size_t arg;  // 0-based argument index
  void* data;
  Shape shape;
  Shape strides;
  bool exclusive;
  int64_t bytes;
  int64_t elem_size;
  const Buffer* buffer;
  std::array<int64_t, kMaxRank> first;
  std::array<int64_t, kMaxRank> step;
  std::array<int64_t, kMaxRank> count;
  bool whole;  // the whole array, not a narrower view
};

/// Whether two arguments may share an element: exactly for views of one array (their element
/// sets are products of progressions along the array's axes), else by byte ranges (conservative).
inline bool may_overlap(const TensorUse& a, const TensorUse& b) {
  if (a.buffer == b.buffer && a.shape.rank() == b.shape.rank()) {
    for (int d = 0; d < a.shape.rank(); ++d) {
      const auto u = static_cast<std::size_t>(d);
      if (!progressions_meet(a.first[u], a.step[u], a.count[u], b.first[u], b.step[u], b.count[u])) return false;
    }
    return true;
  }
  const char* pa = static_cast<const char*>(a.data);
  const char* pb = static_cast<const char*>(b.data);
  return pa < pb + b.bytes && pb < pa + a.bytes;
}

/// A tensor argument resolved for execution: host-visible base pointer and layout.
struct ResolvedTensor {
  void* base = nullptr;
  Shape shape;
  Shape strides;
  std::array<int64_t, kMaxRank> tile{};
};

struct LaunchAccess;

}  // namespace detail

// ---- DeviceOp --------------------------------------------------------------------------------

namespace detail {
/// Calls f(std::integral_constant<std::size_t, I>{}) for I = 0, 1, ..., N-1.
template <class F, std::size_t... I>
constexpr void static_for_each(F& f, std::index_sequence<I...>) {
  (f(std::integral_constant<std::size_t, I>{}), ...);
}
template <std::size_t N, class F>
constexpr void static_for(F&& f) {
  static_for_each(f, std::make_index_sequence<N>{});
}
}  // namespace detail

namespace detail {
/// An op's outputs: void for none, the value for one, the tuple for several.
template <class Tuple>
struct outputs_of {
  using type = Tuple;
};
template <>
struct outputs_of<std::tuple<>> {
  using type = void;
};
template <class T>
struct outputs_of<std::tuple<T>> {
  using type = T;
};
}  // namespace detail

/// A launch that has been checked but not run: an op (tile/op.hpp). Move-only; run it with
/// `std::move(op).sync()`, `.async()` or `.graph()`. Its outputs are the Partitions passed to it
/// (a std::tuple of them if several, void if none). Dropping an op without running it runs
/// nothing and returns its loans.
template <auto K, class... Slots>
class [[nodiscard]] DeviceOp : public OpBase<DeviceOp<K, Slots...>> {
  using Sig = detail::kernel_signature<decltype(K)>;
  static_assert(Sig::valid, "tile::launch<K>: K must be a function returning void (a TILE_KERNEL)");
  using Params = typename Sig::params;
  static constexpr std::size_t N = sizeof...(Slots);
  static_assert(N <= static_cast<std::size_t>(detail::kMaxArgs), "tile::launch: too many kernel arguments");

  template <std::size_t I>
  using P = std::tuple_element_t<I, Params>;  // the kernel's I-th parameter
  template <std::size_t I>
  using S = std::tuple_element_t<I, std::tuple<Slots...>>;  // what the op holds for argument I
  template <std::size_t I>
  using PT = detail::param_traits<P<I>>;
  template <std::size_t I>
  using ST = detail::slot_traits<S<I>>;

  template <std::size_t... I>
  static constexpr bool all_bind(std::index_sequence<I...>) {
    return (detail::binds<P<I>, S<I>>() && ...);
  }
  static constexpr bool arity_ok = Sig::arity == N;
  static constexpr bool types_ok = [] {
    if constexpr (arity_ok)
      return all_bind(std::make_index_sequence<N>{});
    else
      return false;
  }();

  // The owned partitions, returned by sync().
  static constexpr std::size_t num_owned =
      (std::size_t{0} + ... + (detail::slot_traits<Slots>::kind == detail::SlotKind::Partition ? 1 : 0));
  static constexpr std::array<std::size_t, num_owned> owned_index = [] {
    std::array<std::size_t, num_owned> r{};
    std::size_t k = 0;
    detail::static_for<N>([&](auto i) {
      if constexpr (ST<i>::kind == detail::SlotKind::Partition) r[k++] = i;
    });
    return r;
  }();
  template <std::size_t... J>
  static auto owned_types(std::index_sequence<J...>) -> std::tuple<S<owned_index[J]>...>;

 public:
  DeviceOp(DeviceOp&&) noexcept = default;
  DeviceOp& operator=(DeviceOp&&) = delete;
  DeviceOp(const DeviceOp&) = delete;

  using result_type = typename detail::outputs_of<
      decltype(owned_types(std::make_index_sequence<num_owned>{}))>::type;

  /// Issues the tile programs (tile/op.hpp). On the CPU backend they run now.
  void start(detail::ExecContext& ctx) { run(ctx); }
  /// The owned partitions.
  result_type take() { return take_owned(); }
  /// Returns the loans of borrowed arrays and partition refs.
  void release() noexcept { release_loans(); }

  /// The kernel's name as written in the launch, e.g. "add<128>".
  static const std::string& kernel_name() { return detail::kernel_name<K>(); }

  /// The grid of tile programs: `grid_rank` axes of `grid`.
  int grid_rank() const { return grid_rank_; }
  const std::array<int64_t, detail::kMaxRank>& grid() const { return grid_; }

 private:
  friend struct detail::LaunchAccess;

  template <class... Args>
  explicit DeviceOp(Args&&... args) : slots_(std::forward<Args>(args)...) {}

  auto take_owned() {
    if constexpr (num_owned == 0)
      return;
    else if constexpr (num_owned == 1)
      return std::move(std::get<owned_index[0]>(slots_));
    else
      return take_owned(std::make_index_sequence<num_owned>{});
  }
  template <std::size_t... J>
  auto take_owned(std::index_sequence<J...>) {
    return std::tuple<S<owned_index[J]>...>(std::move(std::get<owned_index[J]>(slots_))...);
  }

  // ---- checks ----

  /// "tile::launch<add<128>>: argument 1 (Tensor<float, 128>&)"
  static std::string arg_context(std::size_t i) {
    return "tile::launch<" + kernel_name() + ">: argument " + std::to_string(i + 1) + " (" + parameter(i) +
           ")";
  }
  static std::string parameter(std::size_t i) {
    std::string name = "?";
    if constexpr (arity_ok)
      detail::static_for<N>([&](auto k) {
        if (k == i) name = detail::param_name<P<k>>();
      });
    return name;
  }

  /// Everything `launch` checks, in order: arity, each argument, devices, grids, aliasing, loans.
  void check_and_lend() {
    if constexpr (!arity_ok) {
      throw Error("tile::launch<" + kernel_name() + ">: the kernel takes " + std::to_string(Sig::arity) +
                  " argument" + (Sig::arity == 1 ? "" : "s") + " but " + std::to_string(N) + " were given");
    } else {
      detail::static_for<N>([&](auto i) { check_argument<i>(); });
      check_devices_and_grid();
      check_aliasing();
      lend();
    }
  }

  /// Before anything is moved into the op: an array or partition moved in must not be lent (to a
  /// view, a PartitionRef or another op), since the op owns it from then on and may free it.
  /// Refused here, the argument stays with the caller.
  template <class... Args>
  static void check_moved_in(const Args&... args) {
    const auto given = std::forward_as_tuple(args...);
    detail::static_for<N>([&](auto i) {
      if constexpr (ST<i>::kind == detail::SlotKind::Array || ST<i>::kind == detail::SlotKind::Partition) {
        const detail::Buffer* b = ST<i>::ref(std::get<i>(given)).buffer;
        if (b && !b->loans.empty())
          throw Error(arg_context(i) + ": the " +
                      (ST<i>::kind == detail::SlotKind::Array ? "array" : "partition's array") +
                      " moved into the op is borrowed (by a view, a PartitionRef or a pending op); the op "
                      "would free it while it is lent: pass an array the launch can borrow instead");
      }
    });
  }

  template <std::size_t I>
  void check_argument() {
    static_assert(PT<I>::kind != detail::ParamKind::Invalid,
                  "tile::launch: every kernel parameter must be Tensor<T, ...>& (exclusive), "
                  "const Tensor<T, ...>& (shared), Atomic<T, ...>& (atomic) or a scalar taken by value");
    const std::string rule = detail::check_argument<P<I>>(std::get<I>(slots_));
    if (!rule.empty()) throw Error(arg_context(I) + ": " + rule);
  }

  /// Calls f(const detail::TensorUse&) for every array or partition argument.
  template <class F>
  void for_each_tensor(F&& f) const {
    detail::static_for<N>([&](auto i) {
      if constexpr (detail::is_tensor_slot<S<i>>) {
        const auto r = ST<i>::ref(std::get<i>(slots_));
        constexpr auto size = static_cast<int64_t>(sizeof(typename ST<i>::element));
        // An Atomic argument is written: it counts as exclusive (aliasing, copies back).
        constexpr bool writes = detail::is_partition_slot<S<i>> || PT<i>::kind == detail::ParamKind::Atomic;
        f(detail::TensorUse{i, r.data(), r.shape, r.strides, writes, r.span_bytes(), size, r.buffer, r.first,
                            r.step, r.counts(), r.whole()});
      }
    });
  }

  void check_devices_and_grid() {
    const Device* dev = nullptr;
    std::size_t dev_arg = 0;
    bool have_grid = false;
    std::size_t grid_arg = 0;
    detail::static_for<N>([&](auto i) {
      if constexpr (detail::is_tensor_slot<S<i>>) {
        const Device& d = *ST<i>::ref(std::get<i>(slots_)).buffer->device;
        if (!dev) {
          dev = &d;
          dev_arg = i;
        } else if (!(d == *dev)) {
          throw Error(arg_context(i) + ": the array is on " + d.name() + " but argument " +
                      std::to_string(dev_arg + 1) + " is on " + dev->name() +
                      "; all arrays of a launch must be on one device");
        }
      }
      if constexpr (detail::is_partition_slot<S<i>>) {
        if (const detail::ProgramMap* m = detail::ArrayAccess::map(std::get<i>(slots_))) {
          if (!program_map_)
            program_map_ = m;
          else if (!(*m == *program_map_))
            throw Error(arg_context(i) + ": the partition is mapped differently from another exclusive "
                        "argument; the programs of a launch follow one map");
        }
        const auto g = detail::grid_of(ST<i>::ref(std::get<i>(slots_)).shape, ST<i>::tile);
        std::array<int64_t, detail::kMaxRank> padded{1, 1, 1, 1};
        std::copy(g.begin(), g.end(), padded.begin());
        if (!have_grid) {
          have_grid = true;
          grid_arg = i;
          grid_rank_ = static_cast<int>(g.size());
          grid_ = padded;
        } else if (grid_rank_ != static_cast<int>(g.size()) || grid_ != padded) {
          throw Error(arg_context(i) + ": the partition grid " + detail::dims_str(g, true) +
                      " differs from the grid " + grid_str() + " of argument " +
                      std::to_string(grid_arg + 1) + "; every exclusive argument must have the same grid");
        }
      }
    });
    device_ = dev ? dev : &default_device();
    if (program_map_ && device_->is_gpu() && detail::GpuKernel<K>::entry) {
      // The generated kernel reads its tile coordinates from a copy of the map on the device.
      const auto& tiles = program_map_->tiles;
      map_on_device_.emplace(
          detail::ArrayAccess::allocate<int32_t>(Shape(static_cast<int64_t>(tiles.size())), *device_));
      detail::copy_to_device(*device_, detail::ArrayAccess::ref(*map_on_device_).data(), tiles.data(),
                             tiles.size() * sizeof(int32_t));
    }
  }

  std::string grid_str() const {
    std::string s = "[";
    for (int a = 0; a < grid_rank_; ++a)
      s += (a ? ", " : "") + std::to_string(grid_[static_cast<std::size_t>(a)]);
    return s + "]";
  }

  /// Refuses an exclusive argument that may share an element with another argument (see the
  /// file comment: exact for views of one array, byte ranges otherwise).
  void check_aliasing() const {
    std::array<detail::TensorUse, N> uses{};
    std::size_t n = 0;
    for_each_tensor([&](const detail::TensorUse& t) {
      if (t.data && t.bytes > 0) uses[n++] = t;
    });
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) {
        if (!(uses[a].exclusive || uses[b].exclusive) || !detail::may_overlap(uses[a], uses[b])) continue;
        const detail::TensorUse& ex = uses[a].exclusive ? uses[a] : uses[b];
        const detail::TensorUse& other = uses[a].exclusive ? uses[b] : uses[a];
        const std::string lent = "argument " + std::to_string(ex.arg + 1) + " (" + parameter(ex.arg) + ")";
        if (ex.buffer == other.buffer && ex.whole && other.whole)
          throw Error(arg_context(other.arg) + ": the same array is lent exclusively as " + lent +
                      "; an array lent exclusively cannot be passed to the launch again");
        throw Error(arg_context(other.arg) + ": its elements overlap those of " + lent +
                    ", which is lent exclusively; an exclusive argument may share no memory with another "
                    "argument" +
                    (ex.buffer == other.buffer ? "" : " (arrays over distinct storage are compared by byte ranges)"));
      }
  }

  /// Takes the loans of borrowed arrays: shared ones, or exclusive for Atomic parameters (the
  /// partitions' exclusive loans are held by the PartitionRefs).
  void lend() {
    detail::static_for<N>([&](auto i) {
      if constexpr (ST<i>::kind == detail::SlotKind::ArrayBorrow) {
        std::get<i>(slots_).lend(PT<i>::kind == detail::ParamKind::Atomic, [&] { return arg_context(i); });
      }
    });
  }

  void release_loans() noexcept {
    detail::static_for<N>([&](auto i) {
      if constexpr (ST<i>::kind == detail::SlotKind::ArrayBorrow)
        std::get<i>(slots_).release();
      else if constexpr (ST<i>::kind == detail::SlotKind::PartitionRef)
        detail::ArrayAccess::release(std::get<i>(slots_));
    });
  }

  // ---- execution ----

  void run(detail::ExecContext& ctx) {
    if (ran_) throw Error("tile::DeviceOp<" + kernel_name() + ">: the op has already run");
    ran_ = true;
    if constexpr (!(arity_ok && types_ok)) {
      throw Error("tile::DeviceOp<" + kernel_name() + ">: the launch was not accepted");  // unreachable
    } else {
      if (detail::launch_fails_now())
        throw Error("tile::launch<" + kernel_name() + ">: the launch failed (injected fault)");
      std::array<detail::ResolvedTensor, N> args{};
      // An array made before a reset of the device (the op composed before it) has lost its
      // memory. Every array of a launch is on its device: one look at the device's epoch.
      const uint64_t epoch = detail::device_epoch(*device_);
      for_each_tensor([&](const detail::TensorUse& t) {
        if (t.buffer && t.buffer->bytes > 0 && t.buffer->epoch != epoch)
          detail::throw_lost(t.buffer, arg_context(t.arg));
        args[t.arg].base = t.data;
        args[t.arg].shape = t.shape;
        args[t.arg].strides = t.strides;
      });
      detail::static_for<N>([&](auto i) {
        if constexpr (detail::is_partition_slot<S<i>>)
          std::copy(ST<i>::tile.begin(), ST<i>::tile.end(), args[i].tile.begin());
      });

      if (!device_->is_gpu()) {
        if (ctx.capturing()) {
          ctx.cpu_work()->push_back([this, args] { run_cpu(args); });
        } else if (std::optional<Error> failure = run_cpu_programs(args)) {
          if (!ctx.defers_failures()) throw *failure;
          ctx.defer_failure(std::make_exception_ptr(*failure));
        }
      } else if (detail::GpuKernel<K>::entry) {
        run_gpu(args, ctx);
      } else {
        if (ctx.capturing())
          throw Error("tile::DeviceOp<" + kernel_name() +
                      ">::graph: the kernel has no GPU code (the program was not compiled with tilecc), "
                      "so it runs on host copies and cannot be captured into a graph");
        ctx.wait();  // earlier work on the stream may write the arrays copied here
        if (std::optional<Error> failure = run_cpu_on_host_copies(args)) {
          if (!ctx.defers_failures()) throw *failure;
          ctx.defer_failure(std::make_exception_ptr(*failure));
        }
      }
    }
  }

  int64_t num_programs() const {
    int64_t n = 1;
    for (int a = 0; a < grid_rank_; ++a) n *= grid_[static_cast<std::size_t>(a)];
    return n;
  }

  /// The argument for parameter I of the program at grid coordinates `coords`: the scalar, the
  /// whole array as a shared view, or the program's piece of the partition (origin coords * tile,
  /// extent clipped to the array).
  template <std::size_t I>
  auto program_arg(const detail::ResolvedTensor& r,
                   const std::array<int64_t, detail::kMaxRank>& coords) const {
    if constexpr (PT<I>::kind == detail::ParamKind::Scalar) {
      return detail::convert<std::remove_cvref_t<P<I>>>(std::get<I>(slots_));
    } else {
      using T = typename PT<I>::element;
      constexpr std::size_t R = PT<I>::dims.size();
      std::array<int64_t, R> extent{}, stride{}, origin{}, shape{};
      T* data = static_cast<T*>(r.base);
      for (std::size_t a = 0; a < R; ++a) {
        shape[a] = r.shape[static_cast<int>(a)];
        stride[a] = r.strides[static_cast<int>(a)];
        if constexpr (PT<I>::kind == detail::ParamKind::Exclusive) {
          origin[a] = coords[a] * r.tile[a];
          extent[a] = std::min(r.tile[a], shape[a] - origin[a]);
          data += origin[a] * stride[a];
        } else {
          extent[a] = shape[a];
        }
      }
      return detail::TensorAccess::make<typename PT<I>::tensor>(data, extent, stride, origin, shape);
    }
  }

  template <std::size_t... I>
  void call_kernel(const std::array<detail::ResolvedTensor, N>& args,
                   const std::array<int64_t, detail::kMaxRank>& coords, std::index_sequence<I...>) const {
    std::tuple<decltype(program_arg<I>(args[I], coords))...> a(program_arg<I>(args[I], coords)...);
    K(std::get<I>(a)...);
  }

  /// One tile program: linear id -> row-major grid coordinates, then K(pieces, arrays, scalars).
  void run_program(const std::array<detail::ResolvedTensor, N>& args, int64_t program) const {
    detail::ProgramContext ctx;
    ctx.rank = grid_rank_;
    ctx.count = grid_;
    ctx.linear = program;
    ctx.race = race_;
    ctx.checks = checks_;
    if (program_map_) {
      for (int a = 0; a < grid_rank_; ++a)
        ctx.id[static_cast<std::size_t>(a)] =
            program_map_->tiles[static_cast<std::size_t>(program * grid_rank_ + a)];
    } else {
      for (int a = grid_rank_ - 1; a >= 0; --a) {
        const auto ua = static_cast<std::size_t>(a);
        ctx.id[ua] = program % grid_[ua];
        program /= grid_[ua];
      }
    }
    struct Restore {
      ~Restore() { detail::current_program = detail::ProgramContext{}; }
    } restore;
    detail::current_program = ctx;
    call_kernel(args, ctx.id, std::make_index_sequence<N>{});
  }

  void run_cpu(const std::array<detail::ResolvedTensor, N>& args) const {
    if (std::optional<Error> failure = run_cpu_programs(args)) throw *failure;
  }
  /// Runs the programs on the host; a failed tile::check is returned (the race check's finding
  /// is thrown).
  std::optional<Error> run_cpu_programs(const std::array<detail::ResolvedTensor, N>& args) const {
    struct Ctx {
      const DeviceOp* op;
      const std::array<detail::ResolvedTensor, N>* args;
    } ctx{this, &args};
    struct Log {
      detail::RaceLog*& race;
      ~Log() {
        detail::race_log_destroy(race);
        race = nullptr;
      }
    } log{race_};
    if (detail::racecheck_enabled()) race_ = detail::race_log_create();
    detail::CheckSlot slot;
    struct Checks {
      detail::CheckSlot*& checks;
      ~Checks() { checks = nullptr; }
    } checks{checks_};
    checks_ = &slot;
    detail::cpu_parallel_for(
        num_programs(),
        [](void* c, int64_t program) {
          auto* x = static_cast<Ctx*>(c);
          x->op->run_program(*x->args, program);
        },
        &ctx);
    if (slot.state.load(std::memory_order_acquire) == 2)
      return Error("tile::launch<" + kernel_name() + ">: " + slot.text);
    if (race_) report_race(detail::race_log_conflict(race_));
    return std::nullopt;
  }

  /// TILE_CPU_RACECHECK found an element written by two programs: name both and the argument.
  void report_race(const detail::RaceConflict& c) const {
    if (!c.element) return;
    auto coords = [&](int64_t program) {
      std::string s = "(";
      for (int a = grid_rank_ - 1; a >= 0; --a) {
        const auto ua = static_cast<std::size_t>(a);
        s.insert(1, std::to_string(program % grid_[ua]) + (a == grid_rank_ - 1 ? "" : ", "));
        program /= grid_[ua];
      }
      return s + ")";
    };
    std::string where = "an element";
    for_each_tensor([&](const detail::TensorUse& t) {
      const char* p = static_cast<const char*>(t.data);
      const char* e = static_cast<const char*>(c.element);
      if (!p || e < p || e >= p + t.bytes || (e - p) % t.elem_size != 0) return;
      // The element's indices: its offset split along the axes of extent > 1 from the largest
      // stride down, whatever their order in the argument (column-major, transposed views).
      // Distinct indices address distinct elements (see Array::borrow_external), and then each
      // such axis's stride exceeds what the smaller ones span, so the split is exact.
      const int rank = t.shape.rank();
      std::array<int, detail::kMaxRank> order{};
      const int n = detail::axes_by_stride(t.shape, t.strides, order);
      std::array<int64_t, detail::kMaxRank> idx{};
      int64_t off = (e - p) / t.elem_size;
      for (int k = n - 1; k >= 0; --k) {
        const int a = order[static_cast<std::size_t>(k)];
        const int64_t i = t.strides[a] > 0 ? off / t.strides[a] : 0;
        if (i >= t.shape[a]) return;
        off -= i * t.strides[a];
        idx[static_cast<std::size_t>(a)] = i;
      }
      int64_t index = 0;
      for (int a = 0; a < rank; ++a) index = index * t.shape[a] + idx[static_cast<std::size_t>(a)];
      if (off == 0)
        where = "element " + std::to_string(index) + " (row-major) of argument " + std::to_string(t.arg + 1) +
                " (" + parameter(t.arg) + ")";
    });
    throw Error("tile::launch<" + kernel_name() + ">: TILE_CPU_RACECHECK: " + where +
                " was written by tile programs " + coords(c.first) + " and " + coords(c.second));
  }

  /// A GPU op without a generated kernel: run the CPU implementation on host copies of the
  /// arrays (each argument's byte span) and copy the exclusive ones back, also after a failed
  /// tile::check (returned, as run_cpu_programs does: the other programs' writes land, as on a
  /// GPU). A strided exclusive view is merged into a fresh copy of its span, so that the
  /// elements between its own (which may be another argument's) keep their values.
  std::optional<Error> run_cpu_on_host_copies(std::array<detail::ResolvedTensor, N> args) const {
    std::array<std::unique_ptr<unsigned char[]>, N> copies;
    std::array<std::optional<detail::TensorUse>, N> uses;
    for_each_tensor([&](const detail::TensorUse& t) {
      const std::size_t i = t.arg;
      const auto bytes = static_cast<std::size_t>(t.bytes);
      uses[i] = t;
      copies[i].reset(new unsigned char[bytes ? bytes : 1]);
      if (bytes) detail::copy_to_host(*device_, copies[i].get(), t.data, bytes);
      args[i].base = copies[i].get();
    });
    std::optional<Error> failure = run_cpu_programs(args);
    for (std::size_t i = 0; i < N; ++i) {
      if (!uses[i] || !uses[i]->exclusive || uses[i]->bytes == 0) continue;
      const detail::TensorUse& t = *uses[i];
      const auto bytes = static_cast<std::size_t>(t.bytes);
      const unsigned char* out = copies[i].get();
      std::unique_ptr<unsigned char[]> merged;
      if (t.shape.numel() * t.elem_size != t.bytes) {
        merged.reset(new unsigned char[bytes]);
        detail::copy_to_host(*device_, merged.get(), t.data, bytes);
        detail::for_each_offset(t.shape, t.strides, [&](int64_t off) {
          std::memcpy(merged.get() + off * t.elem_size, out + off * t.elem_size, static_cast<std::size_t>(t.elem_size));
        });
        out = merged.get();
      }
      detail::copy_to_device(*device_, t.data, out, bytes);
    }
    return failure;
  }

  /// The generated kernel: one ArgDesc per parameter (whole arrays; `piece` for exclusive ones,
  /// scalars bit-copied), the partition grid, then the registered entry on the device's stream.
  void run_gpu(const std::array<detail::ResolvedTensor, N>& args, detail::ExecContext& ctx) const {
    detail::LaunchArgs la;
    la.grid_rank = grid_rank_;
    for (int a = 0; a < detail::kMaxRank; ++a) la.grid[a] = grid_[static_cast<std::size_t>(a)];
    la.num_args = static_cast<int32_t>(N);
    if (map_on_device_) la.program_map = detail::ArrayAccess::ref(*map_on_device_).data();
    la.checks = detail::gpu_check_record(*device_);
    detail::static_for<N>([&](auto i) {
      detail::ArgDesc& d = la.args[i];
      if constexpr (PT<i>::kind == detail::ParamKind::Scalar) {
        const auto v = program_arg<i>(args[i], {});
        static_assert(sizeof(v) <= sizeof(d.scalar), "tile::launch: scalar argument too large");
        std::memcpy(d.scalar, &v, sizeof(v));
      } else {
        d.data = args[i].base;
        d.rank = static_cast<int32_t>(PT<i>::dims.size());
        d.dtype = detail::dtype_of<typename PT<i>::element>();
        for (int a = 0; a < d.rank; ++a) {
          d.shape[a] = args[i].shape[a];
          d.strides[a] = args[i].strides[a];
          if constexpr (PT<i>::kind == detail::ParamKind::Exclusive)
            d.piece[a] = args[i].tile[static_cast<std::size_t>(a)];
          else
            d.piece[a] = 0;
        }
      }
    });
    const auto& info = detail::GpuKernel<K>::info;
    const char* name = *info.name ? info.name : kernel_name().c_str();
    void* stream = ctx.stream_for(*device_);
    // The stream waits for what the arguments' buffers still wait for (tile/op.hpp, ExecContext).
    detail::static_for<N>([&](auto i) {
      if constexpr (detail::is_tensor_slot<S<i>>) {
        constexpr bool writes = detail::is_partition_slot<S<i>> || PT<i>::kind == detail::ParamKind::Atomic;
        ctx.use(*device_, ST<i>::ref(std::get<i>(slots_)).buffer, writes);
      }
    });
    if (map_on_device_) ctx.use(*device_, detail::ArrayAccess::ref(*map_on_device_).buffer, false);
    const int err = detail::GpuKernel<K>::entry(la, stream);
    detail::gpu_check(*device_, err, name, info.source);
    ctx.issued(name, info.source);
  }

  std::tuple<Slots...> slots_;
  const Device* device_ = nullptr;
  int grid_rank_ = 1;
  std::array<int64_t, detail::kMaxRank> grid_{1, 1, 1, 1};
  bool ran_ = false;
  // A mapped partition's program -> tile table (owned by the partition), and its device copy.
  const detail::ProgramMap* program_map_ = nullptr;
  mutable detail::RaceLog* race_ = nullptr;  // while TILE_CPU_RACECHECK records a CPU run
  mutable detail::CheckSlot* checks_ = nullptr;  // during a CPU run: the first failed tile::check
  std::optional<Array<int32_t>> map_on_device_;
};

namespace detail {
struct LaunchAccess {
  template <class Op, class... Args>
  static Op make(Args&&... args) {
    Op::check_moved_in(args...);
    Op op(std::forward<Args>(args)...);
    op.check_and_lend();
    return op;
  }
};
}  // namespace detail

/// Checks a launch of kernel K and returns it as a lazy op:
/// `tile::launch<add<128>>(std::move(z).partition<128>(), x, y)`.
template <auto K, class... Args>
[[nodiscard]] DeviceOp<K, detail::slot_t<Args>...> launch(Args&&... args) {
  static_assert(detail::atomic_arguments_ok<decltype(K), Args...>(),
                "tile::launch: an Atomic<T, ...>& parameter takes a non-const Array<T> lvalue: the op borrows "
                "it exclusively and the array holds the updates once the op has run");
  return detail::LaunchAccess::make<DeviceOp<K, detail::slot_t<Args>...>>(std::forward<Args>(args)...);
}

}  // namespace tile
