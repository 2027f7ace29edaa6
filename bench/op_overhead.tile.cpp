// The cost of executing ops, against the same kernel launched by hand through the CUDA runtime
// in the same run (the launcher tilecc generated, called directly: no checks, no loans):
//   sync      one small launch + wait, tile (`launch(...).sync()`) vs raw (launch + stream sync)
//   graph     a chain of K dependent launches captured once and replayed, tile::Graph vs a raw
//             CUDA graph captured from the same K raw launches
//   async     a chain of 100 dependent launches issued with `async()` and waited for once, vs
//             100 raw launches on a stream and one synchronize
//   alloc     making and dropping a 4 MiB array (`tile::empty`) in a loop, from the
//             stream-ordered pool, vs cudaMalloc + cudaFree of the same size
// Prints the median per iteration and the ratios. Needs a GPU and the CUDA build (nvcc compiles
// tilecc's output of this file); elsewhere it only checks that the ops compute the right thing.
// Usage: op_overhead [iterations = 2000]
#include <tile/tile.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
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

template <class F>
double median_seconds(int iterations, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < iterations + iterations / 10; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    if (i >= iterations / 10) t.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int64_t n = 4 * kBlock;  // four tile programs: launch cost dominates
  try {
    // tile: sync of one launch.
    auto z = tile::zeros<float>({n});
    const double tile_sync = median_seconds(iterations, [&] {
      z = tile::launch<increment<kBlock>>(std::move(z).partition<kBlock>()).sync().unpartition();
    });
    // tile: kAsyncChain dependent launches issued asynchronously, one wait.
    auto a = tile::zeros<float>({n}).partition<kBlock>();
    const double tile_async = median_seconds(iterations / 10, [&] {
      a = chain<kAsyncChain>(std::move(a)).async().get();
    });
    // tile: an array made and dropped.
    const double tile_alloc = median_seconds(iterations, [&] {
      auto e = tile::empty<float>({kAllocElements});
      (void)e;
    });
    // tile: a graph of kChain launches, replayed.
    auto g = chain<kChain>(tile::zeros<float>({n}).partition<kBlock>()).graph();
    const double tile_graph = median_seconds(iterations, [&] { g.sync(); });
    const int runs = iterations + iterations / 10;

    const int async_runs = iterations / 10 + iterations / 10 / 10;
    const std::vector<float> ha = std::move(a).unpartition().to_host();
    const std::vector<float> hz = z.to_host();
    const std::vector<float> hg = std::move(g).get().unpartition().to_host();
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      bad += hz[static_cast<std::size_t>(i)] != static_cast<float>(runs);
      bad += hg[static_cast<std::size_t>(i)] != static_cast<float>(runs * kChain);
      bad += ha[static_cast<std::size_t>(i)] != static_cast<float>(async_runs * kAsyncChain);
    }
    std::printf("tile sync:  %.2f us per launch+wait\n", tile_sync * 1e6);
    std::printf("tile graph: %.2f us per replay of %d kernels\n", tile_graph * 1e6, kChain);
    std::printf("tile async: %.2f us per chain of %d kernels, one wait\n", tile_async * 1e6, kAsyncChain);
    std::printf("tile alloc: %.2f us per 4 MiB array made and dropped\n", tile_alloc * 1e6);
    std::printf("results: %lld wrong of %lld on %s\n", (long long)bad, (long long)(3 * n),
                tile::default_device().name().c_str());
    if (bad) return 1;

#if defined(__CUDACC__)
    if (tile::default_device().is_gpu()) {
      // raw: the generated launcher of the same kernel on a stream of our own.
      auto w = tile::zeros<float>({n});
      auto entry = tile::detail::GpuKernel<increment<kBlock>>::entry;
      if (!entry) {
        std::printf("no generated kernel registered\n");
        return 1;
      }
      tile::detail::LaunchArgs la;
      la.grid_rank = 1;
      la.grid[0] = n / kBlock;
      la.num_args = 1;
      auto p = w.partition_mut<kBlock>();  // holds w exclusively while we write it by hand
      la.args[0].data = tile::detail::ArrayAccess::ref(p).data();
      la.args[0].rank = 1;
      la.args[0].dtype = tile::detail::DType::F32;
      la.args[0].shape[0] = n;
      la.args[0].strides[0] = 1;
      la.args[0].piece[0] = kBlock;
      cudaStream_t s;
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      const double raw_sync = median_seconds(iterations, [&] {
        entry(la, s);
        cudaStreamSynchronize(s);
      });
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
      for (int k = 0; k < kChain; ++k) entry(la, s);
      cudaStreamEndCapture(s, &graph);
      cudaGraphInstantiate(&exec, graph, 0);
      const double raw_graph = median_seconds(iterations, [&] {
        cudaGraphLaunch(exec, s);
        cudaStreamSynchronize(s);
      });
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
      const double raw_async = median_seconds(iterations / 10, [&] {
        for (int k = 0; k < kAsyncChain; ++k) entry(la, s);
        cudaStreamSynchronize(s);
      });
      const double raw_alloc = median_seconds(iterations, [&] {
        void* q = nullptr;
        cudaMalloc(&q, kAllocElements * sizeof(float));
        cudaFree(q);
      });
      cudaStreamDestroy(s);
      std::printf("raw sync:   %.2f us per launch+wait\n", raw_sync * 1e6);
      std::printf("raw graph:  %.2f us per replay of %d kernels\n", raw_graph * 1e6, kChain);
      std::printf("raw async:  %.2f us per %d launches, one synchronize\n", raw_async * 1e6, kAsyncChain);
      std::printf("raw alloc:  %.2f us per cudaMalloc + cudaFree of 4 MiB\n", raw_alloc * 1e6);
      std::printf("ratio sync %.3f, ratio graph %.3f, ratio async %.3f (tile / raw; target <= 1.1)\n",
                  tile_sync / raw_sync, tile_graph / raw_graph, tile_async / raw_async);
      std::printf("ratio alloc %.3f (tile pool / cudaMalloc + cudaFree)\n", tile_alloc / raw_alloc);
    }
#endif
    return 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "op_overhead: %s\n", e.what());
    return 1;
  }
}
