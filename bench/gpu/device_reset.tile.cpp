// A reset of the GPU between ops (cudaDeviceReset, as a library the program calls may do):
// every use of an array made before it (a launch, an op composed before it, to_host, a graph
// captured before it, a future of work in flight) throws tile::Error naming the reset, instead
// of reading or writing memory that new allocations may now hold; arrays, ops, futures and
// graphs made after it work; no buffer leaks. Run by bench/gpu/run.sh; prints "device reset:
// 0 failures". The CPU backend's injected reset is tested in unittests/Runtime/DeviceResetTest.cpp.
#include <tile/tile.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

using tile::Tensor;

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

namespace {

int failures = 0;

template <class F>
void expect_lost(const char* what, F&& f) {
  try {
    f();
    std::printf("FAIL %s: no error\n", what);
    ++failures;
  } catch (const tile::Error& e) {
    const bool named = std::strstr(e.what(), "reset") != nullptr;
    std::printf("%s %s: %s\n", named ? "ok" : "FAIL", what, e.what());
    failures += named ? 0 : 1;
  }
}

void expect_all(const char* what, const tile::Array<float>& a, float value) {
  const std::vector<float> v = a.to_host();
  int64_t bad = 0;
  for (float x : v) bad += x != value;
  std::printf("%s %s: %lld of %zu elements differ from %g\n", bad ? "FAIL" : "ok", what,
              static_cast<long long>(bad), v.size(), double(value));
  failures += bad ? 1 : 0;
}

}  // namespace

int main() {
  if (!tile::default_device().is_gpu()) {
    std::printf("device reset: needs a GPU\n");
    return 1;
  }
  constexpr int64_t n = int64_t(1) << 22;
  const int64_t live = tile::detail::live_buffers();
  {
    auto a = tile::zeros<float>({n});
    tile::launch<increment<1024>>(a.partition_mut<1024>()).sync();
    auto b = tile::zeros<float>({n});
    auto graph = tile::launch<increment<1024>>(b.partition_mut<1024>()).graph();
    graph.sync();
    auto c = tile::zeros<float>({n});
    auto composed = tile::launch<increment<1024>>(c.partition_mut<1024>());
    auto d = tile::zeros<float>({n});
    auto in_flight = tile::launch<increment<1024>>(d.partition_mut<1024>()).async();

    if (cudaError_t e = cudaDeviceReset(); e != cudaSuccess) {
      std::printf("cudaDeviceReset: %s\n", cudaGetErrorString(e));
      return 1;
    }

    expect_lost("a launch on an array made before the reset",
                [&] { tile::launch<increment<1024>>(a.partition_mut<1024>()).sync(); });
    expect_lost("to_host of it", [&] { (void)a.to_host(); });
    expect_lost("an op composed before the reset", [&] { std::move(composed).sync(); });
    expect_lost("a graph captured before the reset", [&] { graph.sync(); });
    expect_lost("a future of work in flight at the reset", [&] { std::move(in_flight).get(); });

    // Everything made afterwards works: the main stream, the side streams and their events, the
    // memory pool, graphs.
    auto x = tile::zeros<float>({n});
    tile::launch<increment<1024>>(x.partition_mut<1024>()).sync();
    tile::launch<increment<1024>>(x.partition_mut<1024>()).async().get();
    auto g = tile::launch<increment<1024>>(x.partition_mut<1024>()).graph();
    g.sync();
    g.sync();
    std::move(g).get();
    expect_all("an array made after the reset, through sync, async and a graph", x, 4.0f);
    auto y = tile::full<float>({n}, 5.0f);
    tile::ops::copy(x, y).sync();
    expect_all("a copy between arrays made after the reset", y, 4.0f);
  }
  const int64_t leaked = tile::detail::live_buffers() - live;
  std::printf("%s buffers left after the arrays were dropped: %lld\n", leaked ? "FAIL" : "ok",
              static_cast<long long>(leaked));
  failures += leaked ? 1 : 0;
  std::printf("device reset: %d failures\n", failures);
  return failures ? 1 : 0;
}
