// tile/autotune.hpp - `tile::autotune<K1, K2, ...>(args...)`: the fastest of kernels that
// compute the same result with different tiles.
//
//   auto op = tile::autotune<gemm<bf16, 128, 128, 64>, gemm<bf16, 128, 256, 64>>(c, a, b);
//   std::move(op).sync();
//
// The candidates are kernels whose parameters differ only in the piece shapes of their
// exclusive outputs. The arguments are those of tile::launch, except that an exclusive output
// is its whole Array<T> (an lvalue): each candidate partitions it into the pieces its
// parameter takes (`c.partition_mut<128, 256>()`). The op is the chosen candidate's launch,
// with its loans and its result.
//
// The choice is made when the op is made, once per key: the device and the shape and strides
// of every array argument (a transposed view is another key). The first time, every candidate
// runs on the arguments, its exclusive outputs replaced by zeroed arrays of their shapes (the
// op's own outputs are written only when it runs): once to warm up, then five times, timed by
// tile::benchmark (device time on a GPU, after an L2 flush); the candidate with the least median time is remembered for the key. Later ops of
// the same key launch it directly. With the environment variable TILE_AUTOTUNE_LOG=1 each
// timing and each choice is printed to stderr.
#pragma once

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tile/array.hpp"
#include "tile/benchmark.hpp"
#include "tile/launch.hpp"
#include "tile/op.hpp"

namespace tile {

namespace detail {

template <class A>
inline constexpr bool is_array_lvalue_v = false;
template <class T>
inline constexpr bool is_array_lvalue_v<Array<T>&> = true;

/// The argument a candidate's parameter P gets from `a`: the partition of the whole array
/// into P's pieces for an exclusive parameter, else `a` itself.
template <class P, class A>
decltype(auto) candidate_arg(A& a) {
  using PT = param_traits<P>;
  if constexpr (PT::kind == ParamKind::Exclusive) {
    static_assert(is_array_lvalue_v<A&>,
                  "tile::autotune: an exclusive Tensor& parameter takes the whole output array (an "
                  "Array<T> lvalue), which each candidate partitions into its own pieces");
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return a.template partition_mut<PT::dims[I]...>();
    }(std::make_index_sequence<PT::dims.size()>{});
  } else {
    return (a);
  }
}

/// Candidate K launched on `args` (see candidate_arg).
template <auto K, class... Args>
auto launch_candidate(Args&... args) {
  using Params = typename kernel_signature<decltype(K)>::params;
  static_assert(std::tuple_size_v<Params> == sizeof...(Args),
                "tile::autotune: every candidate takes one argument per parameter");
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return launch<K>(candidate_arg<std::tuple_element_t<I, Params>>(args)...);
  }(std::index_sequence_for<Args...>{});
}

/// What a candidate runs on while it is timed: the argument, or for an exclusive output a
/// zeroed array of its shape on its device.
template <class P, class A>
struct TuningArg {
  explicit TuningArg(A& a) : ref(a) {}
  A& get() { return ref; }
  A& ref;
};
template <class P, class T>
  requires(param_traits<P>::kind == ParamKind::Exclusive)
struct TuningArg<P, Array<T>> {
  explicit TuningArg(Array<T>& a) : scratch(zeros<T>(a.shape(), a.device())) {}
  Array<T>& get() { return scratch; }
  Array<T> scratch;
};

/// Median seconds of candidate K over five runs after one, on stand-ins for its outputs
/// (tile::benchmark: device time on a GPU).
template <auto K, class... Args>
double time_candidate(Args&... args) {
  using Params = typename kernel_signature<decltype(K)>::params;
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    std::tuple<TuningArg<std::tuple_element_t<I, Params>, Args>...> stand_ins{
        TuningArg<std::tuple_element_t<I, Params>, Args>(args)...};
    BenchmarkOptions options;
    options.warmup_ms = 0;
    options.rep_ms = 0;
    options.min_runs = options.max_runs = 5;
    return benchmark([&] { return launch_candidate<K>(std::get<I>(stand_ins).get()...); }, options)
               .median_ms / 1e3;
  }(std::index_sequence_for<Args...>{});
}

/// The key part of one argument: " [shape]/[strides]" of an array or view, " [shape]" of a
/// partition, nothing for a scalar.
template <class A>
void append_key(std::string& key, const A& a) {
  if constexpr (requires { a.shape(); a.strides(); })
    key += " " + a.shape().str() + "/" + a.strides().str();
  else if constexpr (requires { a.shape(); })
    key += " " + a.shape().str();
}

inline bool autotune_log() {
  const char* v = std::getenv("TILE_AUTOTUNE_LOG");
  return v && v[0] == '1';
}

}  // namespace detail

/// The launch tile::autotune chose: one of its candidates' ops, run and consumed like it.
template <class Variant>
class [[nodiscard]] AutotunedOp : public OpBase<AutotunedOp<Variant>> {
  template <class V>
  struct same_results;
  template <class... Ops>
  struct same_results<std::variant<Ops...>> {
    using first = typename std::variant_alternative_t<0, std::variant<Ops...>>::result_type;
    static constexpr bool value = (std::is_same_v<first, typename Ops::result_type> && ...);
  };
  static_assert(same_results<Variant>::value,
                "tile::autotune: the candidates' ops must return the same outputs");

 public:
  using result_type = typename same_results<Variant>::first;

  explicit AutotunedOp(Variant op) : op_(std::move(op)) {}
  AutotunedOp(AutotunedOp&&) noexcept = default;

  void start(detail::ExecContext& ctx) {
    std::visit([&](auto& op) { op.start(ctx); }, op_);
  }
  result_type take() {
    return std::visit([](auto& op) -> result_type { return op.take(); }, op_);
  }
  void release() noexcept {
    std::visit([](auto& op) { op.release(); }, op_);
  }

 private:
  Variant op_;
};

/// The op of the fastest candidate among Ks for these arguments (see the file comment).
template <auto... Ks, class... Args>
[[nodiscard]] auto autotune(Args&&... args) {
  static_assert(sizeof...(Ks) >= 1, "tile::autotune: name at least one candidate kernel");
  static_assert(((std::is_lvalue_reference_v<Args> || detail::scalar_operand<std::remove_cvref_t<Args>>) && ...),
                "tile::autotune: pass the arrays as lvalues: the candidates are timed on them "
                "before one of them is launched");
  using Op = std::variant<decltype(detail::launch_candidate<Ks>(args...))...>;
  static std::mutex mutex;
  static std::map<std::string, std::size_t> chosen;  // key -> candidate

  std::string key = default_device().name();
  (detail::append_key(key, args), ...);
  std::size_t pick = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = chosen.find(key); it != chosen.end()) {
      pick = it->second;
    } else {
      const std::array<double, sizeof...(Ks)> seconds{detail::time_candidate<Ks>(args...)...};
      const std::array<const std::string*, sizeof...(Ks)> names{&detail::kernel_name<Ks>()...};
      pick = std::size_t(std::min_element(seconds.begin(), seconds.end()) - seconds.begin());
      chosen.emplace(key, pick);
      if (detail::autotune_log()) {
        for (std::size_t i = 0; i < seconds.size(); ++i)
          std::fprintf(stderr, "tile::autotune: %s: %.3f ms\n", names[i]->c_str(), seconds[i] * 1e3);
        std::fprintf(stderr, "tile::autotune: chose %s for %s\n", names[pick]->c_str(), key.c_str());
      }
    }
  }
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    std::optional<AutotunedOp<Op>> op;
    ((pick == I ? (void)op.emplace(Op(std::in_place_index<I>, detail::launch_candidate<Ks>(args...)))
                : (void)0),
     ...);
    return std::move(*op);
  }(std::make_index_sequence<sizeof...(Ks)>{});
}

}  // namespace tile
