// The cost of executing ops, against the same kernel launched by hand through the CUDA runtime
// in the same run (the launcher tilecc generated, called directly: no checks, no loans):
//   sync      one small launch + wait, tile (`launch(...).sync()`) vs raw (launch + stream sync)
//   graph     a chain of K dependent launches captured once and replayed, tile::Graph vs a raw
//             CUDA graph captured from the same K raw launches
//   async     a chain of 100 dependent launches issued with `async()` and waited for once, vs
//             100 raw launches on a stream and one synchronize
//   issue     the async chain's host time until async() returns, vs the 100 raw launches' host
//             time (the difference over 100 is tile's host cost per launch)
//   alloc     making and dropping a 4 MiB array (`tile::empty`) in a loop, from the
//             stream-ordered pool, vs cudaMalloc + cudaFree of the same size
// Each tile measurement alternates with its raw counterpart call by call, so that drift during
// the run affects both alike. Prints the median per iteration and the ratios. Needs a GPU and the CUDA build (nvcc compiles
// tilecc's output of this file); elsewhere it only checks that the ops compute the right thing.
// Usage: op_overhead [iterations = 2000]
#include <tile/tile.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <vector>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

// Heap allocations made while a tile measurement runs (the launch path should make none).
// Host code only: nvcc's device pass does not see the replacement.
static std::atomic<bool> counting{false};
static std::atomic<long> allocations{0};
#if !defined(__CUDA_ARCH__)
void* operator new(std::size_t n) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

template <int B>
TILE_KERNEL void increment(tile::Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

constexpr int kBlock = 256;
constexpr int kChain = 20;
constexpr int kAsyncChain = 100;
constexpr int64_t kAllocElements = int64_t(1) << 20;
using Piece = tile::Partition<float, kBlock>;

/// kChain launches of `increment`, each continuing the previous one's output.
template <int N>
auto chain(Piece p) {
  if constexpr (N == 1)
    return tile::launch<increment<kBlock>>(std::move(p));
  else
    return tile::launch<increment<kBlock>>(std::move(p)).then([](Piece q) { return chain<N - 1>(std::move(q)); });
}

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// Median seconds per call of each of `fs`, measured in alternation (one call of each in turn,
/// after `iterations / 10` warm-up rounds), so that drift in clocks or host load during the
/// run affects all of them alike.
std::vector<double> interleaved_medians(int iterations, const std::vector<std::function<void()>>& fs) {
  std::vector<std::vector<double>> t(fs.size());
  for (int i = 0; i < iterations + iterations / 10; ++i)
    for (std::size_t k = 0; k < fs.size(); ++k) {
      const double s = seconds(fs[k]);
      if (i >= iterations / 10) t[k].push_back(s);
    }
  std::vector<double> m;
  for (auto& v : t) m.push_back(median(std::move(v)));
  return m;
}

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int async_iterations = std::max(1, iterations / 4);
  const int64_t n = 4 * kBlock;  // four tile programs: launch cost dominates
  try {
    // tile: sync of one launch.
    auto z = tile::zeros<float>({n});
    const std::function<void()> tile_sync = [&] {
      z = tile::launch<increment<kBlock>>(std::move(z).partition<kBlock>()).sync().unpartition();
    };
    // tile: kAsyncChain dependent launches issued asynchronously, one wait.
    auto a = tile::zeros<float>({n}).partition<kBlock>();
    const std::function<void()> tile_async = [&] { a = chain<kAsyncChain>(std::move(a)).async().get(); };
    // The same, timing only the issue (host time until async() returns), then waiting.
    std::vector<double> tile_issue_t, raw_issue_t;
    const std::function<void()> tile_issue = [&] {
      const auto t0 = std::chrono::steady_clock::now();
      auto f = chain<kAsyncChain>(std::move(a)).async();
      tile_issue_t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      a = std::move(f).get();
    };
    // tile: an array made and dropped.
    const std::function<void()> tile_alloc = [&] {
      auto e = tile::empty<float>({kAllocElements});
      (void)e;
    };
    // tile: a graph of kChain launches, replayed.
    auto g = chain<kChain>(tile::zeros<float>({n}).partition<kBlock>()).graph();
    const std::function<void()> tile_graph = [&] { g.sync(); };

    // The raw counterparts, on a GPU: the generated launcher of the same kernel on a stream of
    // our own (elsewhere the tile ops are only checked for their results).
    std::vector<std::function<void()>> raw(5);
    std::function<void()> raw_cleanup = [] {};
#if defined(__CUDACC__)
    auto w = tile::zeros<float>({n});
    auto p = w.partition_mut<kBlock>();  // holds w exclusively while we write it by hand
    tile::detail::LaunchArgs la;
    cudaStream_t s = nullptr;
    cudaGraphExec_t exec = nullptr;
    if (tile::default_device().is_gpu()) {
      auto entry = tile::detail::GpuKernel<increment<kBlock>>::entry;
      if (!entry) {
        std::printf("no generated kernel registered\n");
        return 1;
      }
      la.grid_rank = 1;
      la.grid[0] = n / kBlock;
      la.num_args = 1;
      la.args[0].data = tile::detail::ArrayAccess::ref(p).data();
      la.args[0].rank = 1;
      la.args[0].dtype = tile::detail::DType::F32;
      la.args[0].shape[0] = n;
      la.args[0].strides[0] = 1;
      la.args[0].piece[0] = kBlock;
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      cudaGraph_t graph;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      for (int k = 0; k < kChain; ++k) entry(la, s);
      cudaStreamEndCapture(s, &graph);
      cudaGraphInstantiate(&exec, graph, 0);
      cudaGraphDestroy(graph);
      raw[0] = [&, entry] {
        entry(la, s);
        cudaStreamSynchronize(s);
      };
      raw[1] = [&, entry] {
        for (int k = 0; k < kAsyncChain; ++k) entry(la, s);
        cudaStreamSynchronize(s);
      };
      raw[2] = [] {
        void* q = nullptr;
        cudaMalloc(&q, kAllocElements * sizeof(float));
        cudaFree(q);
      };
      raw[3] = [&] {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s);
      };
      raw[4] = [&, entry] {
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < kAsyncChain; ++k) entry(la, s);
        raw_issue_t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        cudaStreamSynchronize(s);
      };
      raw_cleanup = [&] {
        cudaGraphExecDestroy(exec);
        cudaStreamDestroy(s);
      };
    }
#endif
    const bool with_raw = static_cast<bool>(raw[0]);
    // Heap allocations of tile calls after the warm-up rounds, per call.
    std::vector<double> heap;
    auto measure = [&](int iters, const std::function<void()>& tile_f, const std::function<void()>& raw_f) {
      long calls = 0;
      const std::function<void()> counted = [&] {
        if (++calls > iters / 10) counting = true;
        tile_f();
        counting = false;
      };
      allocations = 0;
      auto t = with_raw ? interleaved_medians(iters, {counted, raw_f}) : interleaved_medians(iters, {counted});
      heap.push_back(static_cast<double>(allocations.load()) / iters);
      return t;
    };
    const auto sync_t = measure(iterations, tile_sync, raw[0]);
    const auto async_t = measure(async_iterations, tile_async, raw[1]);
    const auto alloc_t = measure(iterations, tile_alloc, raw[2]);
    const auto graph_t = measure(iterations, tile_graph, raw[3]);
    (void)measure(async_iterations, tile_issue, raw[4]);
    raw_cleanup();

    const int runs = iterations + iterations / 10;
    const int async_runs = async_iterations + async_iterations / 10;
    const std::vector<float> ha = std::move(a).unpartition().to_host();
    const std::vector<float> hz = z.to_host();
    const std::vector<float> hg = std::move(g).get().unpartition().to_host();
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      bad += hz[static_cast<std::size_t>(i)] != static_cast<float>(runs);
      bad += hg[static_cast<std::size_t>(i)] != static_cast<float>(runs * kChain);
      bad += ha[static_cast<std::size_t>(i)] != static_cast<float>(2 * async_runs * kAsyncChain);
    }
    std::printf("tile sync:  %.2f us per launch+wait\n", sync_t[0] * 1e6);
    std::printf("tile graph: %.2f us per replay of %d kernels\n", graph_t[0] * 1e6, kChain);
    std::printf("tile async: %.2f us per chain of %d kernels, one wait\n", async_t[0] * 1e6, kAsyncChain);
    std::printf("tile alloc: %.2f us per 4 MiB array made and dropped\n", alloc_t[0] * 1e6);
    std::printf("heap allocations per call: sync %.2f, async chain %.2f, graph replay %.2f (array made: %.2f)\n",
                heap[0], heap[1], heap[3], heap[2]);
    std::printf("results: %lld wrong of %lld on %s\n", (long long)bad, (long long)(3 * n),
                tile::default_device().name().c_str());
    if (bad) return 1;
    if (with_raw) {
      std::printf("raw sync:   %.2f us per launch+wait\n", sync_t[1] * 1e6);
      std::printf("raw graph:  %.2f us per replay of %d kernels\n", graph_t[1] * 1e6, kChain);
      std::printf("raw async:  %.2f us per %d launches, one synchronize\n", async_t[1] * 1e6, kAsyncChain);
      std::printf("raw alloc:  %.2f us per cudaMalloc + cudaFree of 4 MiB\n", alloc_t[1] * 1e6);
      std::printf("ratio sync %.3f, ratio graph %.3f, ratio async %.3f (tile / raw; target <= 1.1)\n",
                  sync_t[0] / sync_t[1], graph_t[0] / graph_t[1], async_t[0] / async_t[1]);
      std::printf("ratio alloc %.3f (tile pool / cudaMalloc + cudaFree)\n", alloc_t[0] / alloc_t[1]);
      const double ti = median(tile_issue_t), ri = median(raw_issue_t);
      std::printf("issue only, chain of %d: tile %.2f us, raw %.2f us: tile's host cost %.3f us per launch\n",
                  kAsyncChain, ti * 1e6, ri * 1e6, (ti - ri) * 1e6 / kAsyncChain);
    }
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "op_overhead: %s\n", e.what());
    return 1;
  }
}
