// tile/benchmark.hpp - timing an op the way a benchmark should.
//
//   tile::BenchmarkResult t = tile::benchmark([&] { return tile::launch<add>(z, x, y); });
//   std::printf("%.3f ms (%d runs)\n", t.median_ms, t.runs);
//
// `make_op` is called once per run and returns the op to run (an op is consumed when it runs).
// On a GPU each run is timed with CUDA events on the stream the op's work goes to: the start
// event after an L2 flush (a memset of a buffer twice the cache's size) and before the op's
// first launch, the stop event when the op's work has been issued, so the time is the device's
// alone (no host launch overhead, no wait). On the CPU backend a run is the wall time of
// `sync()`. As Triton's do_bench does, runs repeat for `warmup_ms` without being kept (at least
// one, two unless `warmup_ms` is 0), then for `rep_ms` at the pace of the fastest warm-up run
// after the first (at least `min_runs`, at most `max_runs`), and the statistics are over the
// kept runs. For an op on several GPUs the time is that of the first GPU's stream.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

#include "tile/detail/runtime.hpp"
#include "tile/op.hpp"

namespace tile {

struct BenchmarkOptions {
  double warmup_ms = 25;  ///< run (untimed) for this long first; at least one run, two unless 0
  double rep_ms = 100;    ///< then keep runs for about this long
  int min_runs = 5;
  int max_runs = 10000;
  bool flush_l2 = true;   ///< on a GPU: flush the L2 cache before each run
};

struct BenchmarkResult {
  std::vector<double> times_ms;  ///< every kept run, in milliseconds, sorted
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0;
  int runs = 0;
  /// The q-quantile of the kept runs (q in [0, 1], nearest rank).
  double quantile(double q) const {
    if (times_ms.empty()) return 0;
    const double clamped = std::clamp(q, 0.0, 1.0);
    return times_ms[static_cast<std::size_t>(clamped * double(times_ms.size() - 1) + 0.5)];
  }
};

namespace detail {

/// Runs `op` once and returns its time in milliseconds (see tile/benchmark.hpp).
template <class Op>
double timed_run(Op&& op, bool flush_l2) {
  Stopwatch watch;
  watch.flush_l2 = flush_l2;
  struct Activate {
    Stopwatch* outer;
    explicit Activate(Stopwatch* w) : outer(std::exchange(active_stopwatch, w)) {}
    ~Activate() { active_stopwatch = outer; }
  };
  struct Events {
    Stopwatch& w;
    ~Events() {
      if (w.start) gpu_timing_event_destroy(*w.device, w.start);
      if (w.stop) gpu_timing_event_destroy(*w.device, w.stop);
    }
  } events{watch};
  const auto t0 = std::chrono::steady_clock::now();
  {
    Activate active(&watch);
    std::forward<Op>(op).sync();
  }
  const auto t1 = std::chrono::steady_clock::now();
  if (watch.start && watch.stop) return gpu_timing_elapsed_ms(*watch.device, watch.start, watch.stop);
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

}  // namespace detail

/// Times the op that `make_op()` returns (see the top of this header).
template <class MakeOp>
BenchmarkResult benchmark(MakeOp&& make_op, const BenchmarkOptions& options = {}) {
  static_assert(is_op_v<decltype(make_op())>, "tile::benchmark: make_op must return an op (a tile::launch, ...)");
  // Warm-up: at least one run, two where warmup_ms is not 0. The first pays one-time costs (a
  // kernel's first launch, a cold cache, the thread pool's start), so a run's time is estimated
  // by the fastest warm-up run after it, where there is one.
  double warm = 0, estimate = 0;
  int warm_runs = 0;
  do {
    const double t = detail::timed_run(make_op(), options.flush_l2);
    warm += t;
    ++warm_runs;
    estimate = warm_runs <= 2 ? t : std::min(estimate, t);
  } while ((warm < options.warmup_ms || (options.warmup_ms > 0 && warm_runs < 2)) &&
           warm_runs < options.max_runs);
  estimate = std::max(estimate, 1e-6);
  const double wanted = options.rep_ms / estimate;
  const int runs = std::clamp(wanted > double(options.max_runs) ? options.max_runs : int(wanted),
                              std::max(options.min_runs, 1), std::max(options.max_runs, 1));
  BenchmarkResult r;
  r.times_ms.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) r.times_ms.push_back(detail::timed_run(make_op(), options.flush_l2));
  std::sort(r.times_ms.begin(), r.times_ms.end());
  r.runs = runs;
  r.min_ms = r.times_ms.front();
  r.max_ms = r.times_ms.back();
  r.median_ms = r.quantile(0.5);
  double sum = 0;
  for (double t : r.times_ms) sum += t;
  r.mean_ms = sum / runs;
  return r;
}

}  // namespace tile
