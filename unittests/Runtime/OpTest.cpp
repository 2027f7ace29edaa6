// Composing and executing ops (tile/op.hpp) on the default device (the CPU backend here):
// then, zip, shared, unzip, sync_on, async futures (get, destruction, co_await) and graphs.
#include <gtest/gtest.h>

#include <coroutine>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "tile/tile.hpp"

namespace {

using tile::dyn;
using tile::Tensor;

template <int B>
TILE_KERNEL void add(Tensor<float, B>& z, const Tensor<float, dyn>& x, const Tensor<float, dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

template <int B>
TILE_KERNEL void scale(Tensor<float, B>& z, float a) {
  z.store(z.load() * a);
}

std::vector<float> host(const tile::Array<float>& a) { return a.to_host(); }

TEST(Op, ThenChainsTheNextOpOnTheOutputs) {
  auto x = tile::full<float>({300}, 2.0f);
  auto op = tile::launch<increment<128>>(tile::zeros<float>({300}).partition<128>())
                .then([](auto p) { return tile::launch<scale<128>>(std::move(p), 5.0f); })
                .then([](auto p) { return std::move(p).unpartition(); });
  static_assert(std::is_same_v<decltype(op)::result_type, tile::Array<float>>);
  const auto h = host(std::move(op).sync());
  ASSERT_EQ(h.size(), 300u);
  for (float v : h) EXPECT_EQ(v, 5.0f);
}

TEST(Op, ThenOfAnOpWithoutOutputs) {
  auto z = tile::zeros<float>({64});
  int calls = 0;
  {
    auto op = tile::launch<increment<64>>(z.partition_mut<64>()).then([&] { ++calls; });
    static_assert(std::is_void_v<decltype(op)::result_type>);
    EXPECT_EQ(calls, 0);  // nothing runs before execution
    std::move(op).sync();
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(host(z)[0], 1.0f);
}

TEST(Op, ZipRunsEveryOpAndTuplesTheOutputs) {
  auto x = tile::full<float>({256}, 1.0f);
  auto y = tile::full<float>({256}, 2.0f);
  auto side = tile::zeros<float>({100});
  auto [a, none, b] =
      tile::zip(tile::launch<add<128>>(tile::zeros<float>({256}).partition<128>(), x, y),
                tile::launch<increment<64>>(side.partition_mut<64>()),
                tile::launch<add<64>>(tile::zeros<float>({256}).partition<64>(), y, y))
          .sync();
  static_assert(std::is_same_v<decltype(none), std::monostate>);
  EXPECT_EQ(host(std::move(a).unpartition())[255], 3.0f);
  EXPECT_EQ(host(std::move(b).unpartition())[0], 4.0f);
  EXPECT_EQ(host(side)[99], 1.0f);
}

TEST(Op, SharedRunsOnceForAllCopies) {
  auto z = tile::zeros<float>({128});
  {
    auto once = tile::launch<increment<128>>(z.partition_mut<128>()).shared();
    auto copy = once;
    std::move(once).sync();
    std::move(copy).sync();
  }
  EXPECT_EQ(host(z)[7], 1.0f);
}

TEST(Op, UnzipGivesOneOpPerOutput) {
  auto x = tile::full<float>({32}, 1.0f);
  auto both = tile::zip(tile::launch<add<32>>(tile::zeros<float>({32}).partition<32>(), x, x),
                        tile::launch<add<16>>(tile::zeros<float>({32}).partition<16>(), x, x));
  auto [first, second] = std::move(both).unzip();
  auto p2 = std::move(second).sync();  // runs the zip once
  auto p1 = std::move(first).sync();
  EXPECT_EQ(host(std::move(p1).unpartition())[31], 2.0f);
  EXPECT_EQ(host(std::move(p2).unpartition())[0], 2.0f);
}

TEST(Op, SyncOnAStreamRunsOnTheCpuToo) {
  auto p = tile::launch<increment<8>>(tile::zeros<float>({8}).partition<8>()).sync_on(nullptr);
  EXPECT_EQ(host(std::move(p).unpartition())[3], 1.0f);
}

TEST(Future, GetReturnsTheOutputs) {
  auto x = tile::full<float>({100}, 1.5f);
  tile::Future<tile::Partition<float, 32>> f =
      tile::launch<add<32>>(tile::zeros<float>({100}).partition<32>(), x, x).async();
  auto a = std::move(f).get().unpartition();
  EXPECT_EQ(host(a)[99], 3.0f);
  EXPECT_THROW((void)std::move(f).get(), tile::Error);  // consumed
}

TEST(Future, HoldsItsLoansUntilFinished) {
  auto z = tile::zeros<float>({16});
  auto f = tile::launch<increment<16>>(z.partition_mut<16>()).async();
  // The future holds z exclusively: reading it now is refused, not a race.
  EXPECT_THROW((void)z.to_host(), tile::Error);
  EXPECT_THROW((void)z.partition_mut<16>(), tile::Error);
  f.wait();
  EXPECT_EQ(host(z)[0], 1.0f);
}

TEST(Future, DestroyingAnUnfinishedFutureWaitsAndReturnsTheLoans) {
  auto z = tile::zeros<float>({16});
  { auto f = tile::launch<increment<16>>(z.partition_mut<16>()).async(); }
  EXPECT_EQ(host(z)[15], 1.0f);
  auto again = tile::launch<increment<16>>(z.partition_mut<16>()).async();
  std::move(again).get();
  EXPECT_EQ(host(z)[15], 2.0f);
}

TEST(Future, AFutureAssignedAfterItsWaitWaitsForTheNewWork) {
  auto z = tile::zeros<float>({16});
  auto f = tile::launch<increment<16>>(z.partition_mut<16>()).async();
  f.wait();
  f = tile::launch<increment<16>>(z.partition_mut<16>()).async();
  f.wait();  // waits for the second op and returns its loan of z
  EXPECT_EQ(host(z)[0], 2.0f);
  EXPECT_NO_THROW((void)z.partition_mut<16>());
}

TEST(Future, AMovedFutureKeepsWhetherItWaited) {
  auto y = tile::zeros<float>({16});
  auto z = tile::zeros<float>({16});
  auto f = tile::launch<increment<16>>(y.partition_mut<16>()).async();
  auto g = std::move(f);
  g = tile::launch<increment<16>>(z.partition_mut<16>()).async();  // waits for y's op first
  EXPECT_NO_THROW((void)y.partition_mut<16>());
  auto h = std::move(g);
  h.wait();  // waits for z's op and returns its loan
  EXPECT_EQ(host(y)[0], 1.0f);
  EXPECT_EQ(host(z)[0], 1.0f);
  EXPECT_NO_THROW((void)z.partition_mut<16>());
}

TEST(Future, ReadyOnceFinished) {
  auto z = tile::zeros<float>({4});
  auto f = tile::launch<increment<4>>(z.partition_mut<4>()).async();
  f.wait();
  EXPECT_TRUE(f.ready());
}

// A minimal eager coroutine type: enough to co_await futures in a test.
struct Task {
  struct promise_type {
    Task get_return_object() { return Task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }
    std::exception_ptr error;
  };
  std::coroutine_handle<promise_type> handle;
  ~Task() {
    if (handle) handle.destroy();
  }
};

Task add_twice(const tile::Array<float>& x, std::vector<float>& out) {
  auto p = co_await tile::launch<add<64>>(tile::zeros<float>({64}).partition<64>(), x, x).async();
  auto q = co_await tile::launch<increment<64>>(std::move(p)).async();
  out = std::move(q).unpartition().to_host();
}

TEST(Future, CoAwaitResumesWithTheOutputs) {
  auto x = tile::full<float>({64}, 2.0f);
  std::vector<float> out;
  {
    Task t = add_twice(x, out);
    // CPU futures are ready when issued, so the coroutine never suspends on them.
    ASSERT_TRUE(t.handle.done());
    EXPECT_FALSE(t.handle.promise().error);
  }
  ASSERT_EQ(out.size(), 64u);
  EXPECT_EQ(out[0], 5.0f);
}

// The kernels of these tests have no GPU code (a plain C++ compiler built them), so on a GPU
// they run on host copies, which a graph cannot capture: the graph tests use the CPU backend.
const tile::Device& cpu = tile::cpu_device();

TEST(Graph, ReplaysTheCapturedWork) {
  auto g = tile::launch<increment<32>>(tile::zeros<float>({100}, cpu).partition<32>()).graph();
  for (int i = 0; i < 5; ++i) g.sync();
  auto f = g.async();
  f.wait();
  const auto h = host(std::move(g).get().unpartition());
  EXPECT_EQ(h[0], 6.0f);
  EXPECT_EQ(h[99], 6.0f);
}

TEST(Graph, CaptureRunsNothing) {
  auto z = tile::zeros<float>({8}, cpu);
  {
    auto g = tile::launch<increment<8>>(z.partition_mut<8>()).graph();
    EXPECT_THROW((void)z.to_host(), tile::Error);  // the graph holds z for its whole life
  }
  EXPECT_EQ(host(z)[0], 0.0f);
}

TEST(Graph, HostCodeInThenRunsOnceAtCapture) {
  int calls = 0;
  auto g = tile::launch<increment<8>>(tile::zeros<float>({8}, cpu).partition<8>())
               .then([&](auto p) {
                 ++calls;
                 return tile::launch<scale<8>>(std::move(p), 2.0f);
               })
               .graph();
  g.sync();
  g.sync();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(host(std::move(g).get().unpartition())[0], 6.0f);  // ((0+1)*2+1)*2
}

TEST(Graph, ReadingAnArrayWhileCapturingIsRefused) {
  auto x = tile::ones<float>({8});
  auto op = tile::launch<increment<8>>(tile::zeros<float>({8}).partition<8>()).then([&](auto p) {
    (void)x.to_host();
    return p;
  });
  try {
    (void)std::move(op).graph();
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    EXPECT_NE(std::string(e.what()).find("captured into a graph"), std::string::npos) << e.what();
  }
}

TEST(Op, AnOpRunsOnlyOnce) {
  auto x = tile::ones<float>({8});
  auto shared = tile::launch<add<8>>(tile::zeros<float>({8}).partition<8>(), x, x).shared();
  auto out = std::move(shared).sync();
  EXPECT_EQ(host(std::move(*out).unpartition())[0], 2.0f);
}

}  // namespace
