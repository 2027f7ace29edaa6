// Ordering follows the data: the rules of tile/detail/ordering.hpp over fake events (which
// waits a stream issues, what a buffer remembers, that every event reference is given back),
// the bookkeeping of an execution (tile::detail::ExecContext's list of used buffers), the side
// streams' rotation in the CUDA backend, and, on the default device, futures of ops that share
// or hand on arrays finishing with the right results.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tile/tile.hpp"

#if defined(TILE_RT_HAS_CUDA)
#include "cuda/cuda_backend.hpp"
#endif

namespace {

using tile::detail::BufferOrder;
using tile::detail::kMaxReadEvents;

// ---- the rules, over fake events -------------------------------------------------------------

/// Events are ints; streams are the addresses of ints. Records every call.
struct FakeEvents {
  static inline std::vector<std::pair<void*, void*>> waits;  // (stream, event)
  static inline std::vector<void*> host_waits;
  static inline std::map<void*, int> refs;
  static void reset() {
    waits.clear();
    host_waits.clear();
    refs.clear();
  }
  static void wait(void* stream, void* event) { waits.emplace_back(stream, event); }
  static void host_wait(void* event) noexcept { host_waits.push_back(event); }
  static void retain(void* event) { ++refs[event]; }
  static void release(void* event) noexcept { --refs[event]; }
  static int held() {
    int n = 0;
    for (const auto& [event, count] : refs) n += count;
    return n;
  }
};
using Rules = tile::detail::Ordering<FakeEvents>;

int stream_ids[8];
int event_ids[32];
void* S(int i) { return &stream_ids[i]; }
void* E(int i) { return &event_ids[i]; }

class OrderingRules : public ::testing::Test {
 protected:
  void SetUp() override { FakeEvents::reset(); }
  void TearDown() override {
    Rules::clear(o);
    EXPECT_EQ(FakeEvents::held(), 0) << "an event reference was not given back";
  }
  BufferOrder o;
};

TEST_F(OrderingRules, AFreshBufferHasNothingToWaitFor) {
  EXPECT_TRUE(o.empty());
  EXPECT_FALSE(o.pending_for(true));
  Rules::before_use(o, S(0), true);
  EXPECT_TRUE(FakeEvents::waits.empty());
}

TEST_F(OrderingRules, AReadWaitsForTheLastWriteOnAnotherStream) {
  Rules::after_use(o, S(0), true, E(1));
  EXPECT_TRUE(o.pending_for(false));
  Rules::before_use(o, S(1), false);
  ASSERT_EQ(FakeEvents::waits.size(), 1u);
  EXPECT_EQ(FakeEvents::waits[0], std::make_pair(S(1), E(1)));
  // The writer's own stream is already in order.
  FakeEvents::waits.clear();
  Rules::before_use(o, S(0), false);
  EXPECT_TRUE(FakeEvents::waits.empty());
}

TEST_F(OrderingRules, ReadsDoNotWaitForEachOther) {
  Rules::after_use(o, S(0), false, E(1));
  Rules::after_use(o, S(1), false, E(2));
  EXPECT_FALSE(o.pending_for(false));
  Rules::before_use(o, S(2), false);
  EXPECT_TRUE(FakeEvents::waits.empty());
}

TEST_F(OrderingRules, AWriteWaitsForTheLastWriteAndEveryReadSince) {
  Rules::after_use(o, S(0), true, E(1));
  Rules::after_use(o, S(1), false, E(2));
  Rules::after_use(o, S(2), false, E(3));
  Rules::before_use(o, S(3), true);
  const std::vector<std::pair<void*, void*>> want = {{S(3), E(1)}, {S(3), E(2)}, {S(3), E(3)}};
  EXPECT_EQ(FakeEvents::waits, want);
  // On the stream of one of the reads, that read is not waited for.
  FakeEvents::waits.clear();
  Rules::before_use(o, S(2), true);
  const std::vector<std::pair<void*, void*>> want2 = {{S(2), E(1)}, {S(2), E(2)}};
  EXPECT_EQ(FakeEvents::waits, want2);
}

TEST_F(OrderingRules, AWriteReplacesEverythingItWaitedFor) {
  Rules::after_use(o, S(0), true, E(1));
  Rules::after_use(o, S(1), false, E(2));
  Rules::after_use(o, S(2), true, E(3));
  EXPECT_EQ(o.write, E(3));
  EXPECT_EQ(o.write_stream, S(2));
  EXPECT_FALSE(o.has_reads());
  EXPECT_EQ(FakeEvents::refs[E(1)], 0);
  EXPECT_EQ(FakeEvents::refs[E(2)], 0);
  EXPECT_EQ(FakeEvents::refs[E(3)], 1);
}

TEST_F(OrderingRules, AReadReplacesTheEarlierReadOfItsStream) {
  Rules::after_use(o, S(1), false, E(1));
  Rules::after_use(o, S(1), false, E(2));
  EXPECT_EQ(FakeEvents::refs[E(1)], 0);
  EXPECT_EQ(FakeEvents::refs[E(2)], 1);
  int reads = 0;
  for (void* r : o.reads) reads += r != nullptr;
  EXPECT_EQ(reads, 1);
}

TEST_F(OrderingRules, ReadsOfMoreStreamsThanSlotsWaitForTheOldestOnTheHost) {
  for (int i = 0; i < kMaxReadEvents; ++i) Rules::after_use(o, S(i % 8), false, E(i));
  EXPECT_TRUE(FakeEvents::host_waits.empty());
  // One stream more: the oldest read is waited for and dropped, the others stay.
  int extra_stream = 0;
  Rules::after_use(o, &extra_stream, false, E(20));
  ASSERT_EQ(FakeEvents::host_waits.size(), 1u);
  EXPECT_EQ(FakeEvents::host_waits[0], E(0));
  EXPECT_EQ(FakeEvents::refs[E(0)], 0);
  Rules::before_use(o, S(7), true);
  EXPECT_EQ(FakeEvents::waits.size(), static_cast<std::size_t>(kMaxReadEvents));
}

TEST_F(OrderingRules, AfterTheHostWaitedAReadForgetsTheWriteAndAWriteForgetsAll) {
  Rules::after_use(o, S(0), true, E(1));
  Rules::after_use(o, S(1), false, E(2));
  Rules::after_waited_use(o, false);
  EXPECT_EQ(o.write, nullptr);
  EXPECT_TRUE(o.has_reads());  // other reads may still run
  Rules::after_waited_use(o, true);
  EXPECT_TRUE(o.empty());
}

TEST_F(OrderingRules, AFreeWaitsForEveryUse) {
  Rules::after_use(o, S(0), true, E(1));
  Rules::after_use(o, S(1), false, E(2));
  Rules::after_use(o, S(2), false, E(3));
  Rules::before_free(o, S(4));
  EXPECT_EQ(FakeEvents::waits.size(), 3u);
  EXPECT_TRUE(o.empty());
  Rules::after_use(o, S(1), false, E(4));
  Rules::after_use(o, S(0), true, E(5));
  Rules::after_use(o, S(2), false, E(6));
  Rules::before_host_free(o);
  const std::vector<void*> want = {E(5), E(6)};
  EXPECT_EQ(FakeEvents::host_waits, want);
  EXPECT_TRUE(o.empty());
}

TEST_F(OrderingRules, AnEventSharedByBuffersIsHeldOncePerBuffer) {
  BufferOrder other;
  Rules::after_use(o, S(0), true, E(1));
  Rules::after_use(other, S(0), false, E(1));
  EXPECT_EQ(FakeEvents::refs[E(1)], 2);
  Rules::clear(other);
  EXPECT_EQ(FakeEvents::refs[E(1)], 1);
}

// ---- an execution's list of used buffers -----------------------------------------------------

TEST(ExecContextUses, AreListedOncePerBufferAndChainedWhileOpen) {
  tile::detail::Buffer a, b;
  a.device = b.device = &tile::cpu_device();
  const tile::detail::UseList* before = tile::detail::open_use_lists;
  {
    tile::detail::ExecContext outer;
    outer.use(tile::cpu_device(), &a, false);
    outer.use(tile::cpu_device(), &a, true);  // the second use upgrades the first to a write
    outer.use(tile::cpu_device(), &b, false);
    const tile::detail::UseList* open = tile::detail::open_use_lists;
    ASSERT_NE(open, before);
    ASSERT_EQ(open->count, 2);
    EXPECT_EQ(open->uses[0].buffer, &a);
    EXPECT_TRUE(open->uses[0].write);
    EXPECT_EQ(open->uses[1].buffer, &b);
    EXPECT_FALSE(open->uses[1].write);
    {
      tile::detail::ExecContext inner;
      inner.use(tile::cpu_device(), &b, false);
      ASSERT_NE(tile::detail::open_use_lists, open);
      EXPECT_EQ(tile::detail::open_use_lists->outer, open);
    }
    EXPECT_EQ(tile::detail::open_use_lists, open);  // the inner execution ended
  }
  EXPECT_EQ(tile::detail::open_use_lists, before);
}

TEST(ExecContextUses, MoreBuffersThanAListHoldsAreSettledOnTheWay) {
  std::vector<tile::detail::Buffer> buffers(tile::detail::UseList::kMax + 3);
  for (auto& b : buffers) b.device = &tile::cpu_device();
  tile::detail::ExecContext ctx;
  for (auto& b : buffers) ctx.use(tile::cpu_device(), &b, true);
  ASSERT_NE(tile::detail::open_use_lists, nullptr);
  EXPECT_EQ(tile::detail::open_use_lists->count, 3);
  EXPECT_EQ(tile::detail::open_use_lists->uses[2].buffer, &buffers.back());
}

// ---- the CUDA backend's side streams ---------------------------------------------------------

#if defined(TILE_RT_HAS_CUDA)
TEST(SideStreams, AreTakenInTurn) {
  // Picking an index touches no GPU (this also runs where there is none).
  const int first = tile::cuda::pick_side_stream(0);
  ASSERT_GE(first, 0);
  ASSERT_LT(first, tile::detail::kSideStreams);
  for (int k = 1; k <= 2 * tile::detail::kSideStreams; ++k)
    EXPECT_EQ(tile::cuda::pick_side_stream(0), (first + k) % tile::detail::kSideStreams);
}
#endif

// ---- futures on the default device -----------------------------------------------------------

using tile::dyn;
using tile::Tensor;

template <int B>
TILE_KERNEL void twice(Tensor<float, B>& z, const Tensor<float, dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 2.0f);
}

TEST(DataOrder, IndependentFuturesShareTheirInput) {
  auto x = tile::arange<float>(1000);
  auto f1 = tile::launch<twice<128>>(tile::zeros<float>({1000}).partition<128>(), x).async();
  auto f2 = tile::launch<twice<256>>(tile::zeros<float>({1000}).partition<256>(), x).async();
  // Both hold x shared: reading it is fine, writing it is refused until they finished.
  EXPECT_EQ(x.to_host()[999], 999.0f);
  EXPECT_THROW((void)x.partition_mut<128>(), tile::Error);
  const auto h2 = std::move(f2).get().unpartition().to_host();
  const auto h1 = std::move(f1).get().unpartition().to_host();
  EXPECT_EQ(h1[999], 1998.0f);
  EXPECT_EQ(h2[500], 1000.0f);
  EXPECT_NO_THROW((void)x.partition_mut<128>());
}

TEST(DataOrder, AStepReadsWhatThePreviousOneWrote) {
  auto x = tile::full<float>({300}, 1.5f);
  auto f = tile::launch<twice<128>>(tile::zeros<float>({300}).partition<128>(), x)
               .then([](auto p) {
                 return tile::launch<twice<64>>(tile::zeros<float>({300}).partition<64>(),
                                                std::move(p).unpartition());
               })
               .async();
  const auto h = std::move(f).get().unpartition().to_host();
  for (float v : h) ASSERT_EQ(v, 6.0f);
}

TEST(DataOrder, AStepMayDropWhatThePreviousOneWrote) {
  // The first output is freed while the execution is still being issued: on a GPU the free
  // waits for the work issued for it.
  auto x = tile::full<float>({256}, 2.0f);
  auto f = tile::launch<twice<128>>(tile::zeros<float>({256}).partition<128>(), x)
               .then([&](auto p) {
                 { auto dropped = std::move(p).unpartition(); }
                 return tile::launch<twice<128>>(tile::zeros<float>({256}).partition<128>(), x);
               })
               .async();
  EXPECT_EQ(std::move(f).get().unpartition().to_host()[255], 4.0f);
}

TEST(DataOrder, SyncAfterAsyncReadersOfTheSameArray) {
  auto x = tile::full<float>({512}, 3.0f);
  auto f = tile::launch<twice<128>>(tile::zeros<float>({512}).partition<128>(), x).async();
  auto z = tile::launch<twice<128>>(tile::zeros<float>({512}).partition<128>(), x).sync().unpartition();
  EXPECT_EQ(z.to_host()[0], 6.0f);
  EXPECT_EQ(std::move(f).get().unpartition().to_host()[511], 6.0f);
}

}  // namespace
