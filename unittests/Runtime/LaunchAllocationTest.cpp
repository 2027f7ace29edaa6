// The launch path allocates nothing on the heap: composing ops (each combinator a new type),
// checking and lending the arguments, and executing them with sync() or async() count no
// operator new once the arrays and the runtime's pools exist. A separate program, since it
// replaces the global operator new to count calls. On the CPU backend: these kernels have no
// GPU code, and on a GPU such a launch runs on host copies (bench/op_overhead.tile.cpp counts
// the GPU path's allocations with generated kernels).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <utility>

#include "tile/tile.hpp"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using tile::Tensor;

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

template <int B>
TILE_KERNEL void axpy(Tensor<float, B>& y, const Tensor<float, tile::dyn>& x, float a) {
  y.store(y.load() + tile::load_tile_like(x, y) * a);
}

/// Heap allocations made by f on any thread.
template <class F>
long allocations_in(F&& f) {
  allocations = 0;
  counting = true;
  f();
  counting = false;
  return allocations.load();
}

using Piece = tile::Partition<float, 128>;

TEST(LaunchAllocation, SyncOfABorrowedLaunchAllocatesNothing) {
  auto y = tile::zeros<float>({1024}, tile::cpu_device());
  const auto x = tile::ones<float>({1024}, tile::cpu_device());
  auto run = [&] { tile::launch<axpy<128>>(y.partition_mut<128>(), x, 2.0f).sync(); };
  run();  // first use: pools, loan lists and the thread pool come to exist
  EXPECT_EQ(allocations_in(run), 0);
  EXPECT_EQ(y.to_host()[1023], 4.0f);
}

TEST(LaunchAllocation, AThenChainOfOwnedPartitionsAllocatesNothing) {
  Piece p = tile::zeros<float>({1024}, tile::cpu_device()).partition<128>();
  auto run = [&] {
    p = tile::launch<increment<128>>(std::move(p))
            .then([](Piece q) { return tile::launch<increment<128>>(std::move(q)); })
            .then([](Piece q) { return tile::launch<increment<128>>(std::move(q)); })
            .sync();
  };
  run();
  EXPECT_EQ(allocations_in(run), 0);
  EXPECT_EQ(std::move(p).unpartition().to_host()[5], 6.0f);
}

TEST(LaunchAllocation, AsyncAndGetAllocateNothing) {
  Piece p = tile::zeros<float>({1024}, tile::cpu_device()).partition<128>();
  auto run = [&] { p = tile::launch<increment<128>>(std::move(p)).async().get(); };
  run();
  EXPECT_EQ(allocations_in(run), 0);
  EXPECT_EQ(std::move(p).unpartition().to_host()[0], 2.0f);
}

TEST(LaunchAllocation, AGraphReplayAllocatesNothing) {
  auto g = tile::launch<increment<128>>(tile::zeros<float>({1024}, tile::cpu_device()).partition<128>())
               .then([](Piece q) { return tile::launch<increment<128>>(std::move(q)); })
               .graph();
  g.sync();
  EXPECT_EQ(allocations_in([&] { g.sync(); }), 0);
  EXPECT_EQ(std::move(g).get().unpartition().to_host()[7], 4.0f);
}

TEST(LaunchAllocation, TheCounterSeesAllocations) {  // the measurement itself can fail
  EXPECT_GT(allocations_in([] { auto a = tile::zeros<float>({16}, tile::cpu_device()); }), 0);
}

}  // namespace
