// Faults while ops run (tile/op.hpp on the CPU backend): an exception from a `then` callback
// or a failed tile::check reaches the caller, every loan is returned, and the runtime and the
// arrays stay usable; the steps that ran before the fault keep their results.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tile/tile.hpp"

namespace {

using tile::Tensor;

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

template <int B>
TILE_KERNEL void stays_below(Tensor<float, B>& z, float limit) {
  tile::check(z.load() < limit, "values stay below the limit");
  z.store(z.load() + 1.0f);
}

TEST(Fault, AnExceptionFromAThenCallbackReachesSync) {
  auto z = tile::zeros<float>({64});
  auto op = tile::launch<increment<64>>(z.partition_mut<64>()).then([] {
    throw std::runtime_error("callback failed");
  });
  EXPECT_THROW(std::move(op).sync(), std::runtime_error);
}

TEST(Fault, AThrowingCallbackReturnsTheLoansAndKeepsWhatRanBefore) {
  auto z = tile::zeros<float>({64});
  try {
    tile::launch<increment<64>>(z.partition_mut<64>())
        .then([] { throw std::runtime_error("callback failed"); })
        .sync();
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(z.to_host()[0], 1.0f);  // the launch before the callback ran
  tile::launch<increment<64>>(z.partition_mut<64>()).sync();  // z is lent again
  EXPECT_EQ(z.to_host()[63], 2.0f);
}

// A callback is host code: it runs when the op is issued, so its exception leaves async().
TEST(Fault, AnExceptionFromAThenCallbackLeavesAsyncAndReturnsTheLoans) {
  auto z = tile::zeros<float>({64});
  auto op = tile::launch<increment<64>>(z.partition_mut<64>()).then([] {
    throw std::runtime_error("callback failed");
  });
  EXPECT_THROW((void)std::move(op).async(), std::runtime_error);
  EXPECT_EQ(z.to_host()[0], 1.0f);
}

// A failed check of an async op surfaces where a GPU reports it, at get(), although the CPU
// ran the programs while the op was issued; the loans come back with it.
TEST(Fault, AFailedCheckOfAnAsyncOpSurfacesAtGet) {
  auto z = tile::full<float>({256}, 5.0f);
  auto future = tile::launch<stays_below<64>>(z.partition_mut<64>(), 2.0f).async();
  EXPECT_TRUE(future.ready());
  EXPECT_THROW(std::move(future).get(), tile::Error);
  tile::launch<increment<64>>(z.partition_mut<64>()).sync();
  for (float v : z.to_host()) EXPECT_GE(v, 6.0f);
}

// The host code after a failed launch runs when the op is issued, as it would on a GPU (where
// the failure is not known until the work is waited for); wait() reports the failure.
TEST(Fault, AFailedCheckOfAnAsyncOpLetsLaterStepsRunAndWaitReportsIt) {
  auto z = tile::full<float>({64}, 5.0f);
  bool ran = false;
  auto future = tile::launch<stays_below<64>>(z.partition_mut<64>(), 2.0f)
                    .then([&] { ran = true; })
                    .async();
  EXPECT_TRUE(ran);
  EXPECT_THROW(future.wait(), tile::Error);
  EXPECT_NO_THROW(future.wait());  // reported once
}

// A future dropped without get() reports the failure on stderr and returns the loans.
TEST(Fault, AFailedCheckOfADroppedFutureIsReportedAndTheLoansReturn) {
  auto z = tile::full<float>({64}, 5.0f);
  testing::internal::CaptureStderr();
  { auto future = tile::launch<stays_below<64>>(z.partition_mut<64>(), 2.0f).async(); }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("values stay below the limit"), std::string::npos) << err;
  EXPECT_NO_THROW(tile::launch<increment<64>>(z.partition_mut<64>()).sync());
}

TEST(Fault, AFailedCheckLeavesTheRuntimeUsable) {
  auto z = tile::full<float>({256}, 5.0f);
  EXPECT_THROW(tile::launch<stays_below<64>>(z.partition_mut<64>(), 2.0f).sync(), tile::Error);
  tile::launch<stays_below<64>>(z.partition_mut<64>(), 100.0f).sync();
  for (float v : z.to_host()) EXPECT_GE(v, 6.0f);  // the programs that ran before the check
}

// A graph runs its host code once, at capture: the exception leaves graph().
TEST(Fault, AGraphWhoseCallbackThrowsAtCaptureReturnsTheLoans) {
  auto z = tile::zeros<float>({64});
  auto op = tile::launch<increment<64>>(z.partition_mut<64>()).then([] {
    throw std::runtime_error("callback failed");
  });
  EXPECT_THROW((void)std::move(op).graph(), std::runtime_error);
  EXPECT_NO_THROW((void)z.to_host());
}

}  // namespace
