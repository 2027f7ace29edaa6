// A reset of the device between ops (tile/detail/runtime.hpp: device_epoch,
// inject_device_reset): arrays made before it have lost their memory, so every use of one
// (a launch, a copy, a view, to_host, an op composed before the reset and run after it)
// throws tile::Error saying so and touches nothing; dropping them leaks nothing; arrays made
// after it work as before. On a GPU the reset is cudaDeviceReset (bench/gpu/run.sh runs
// bench/gpu/device_reset.tile.cpp there); here it is the CPU backend's injected one.
#include <gtest/gtest.h>

#include <vector>

#include "tile/dlpack.hpp"
#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

using tile::Tensor;

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

template <int B>
TILE_KERNEL void add_to(Tensor<float, B>& z, const Tensor<float, tile::dyn>& x) {
  z.store(z.load() + tile::load_tile_like(x, z));
}

const tile::Device& cpu() { return tile::cpu_device(); }

/// The message of a refusal for an array a reset took.
constexpr const char* kLost = "was reset";

TEST(DeviceReset, AnArrayMadeBeforeTheResetCannotBeLaunchedOn) {
  auto z = tile::zeros<float>({128}, cpu());
  tile::detail::inject_device_reset(cpu());
  EXPECT_HAS(error_of([&] { tile::launch<increment<64>>(z.partition_mut<64>()).sync(); }), kLost);
}

TEST(DeviceReset, AnArrayMadeBeforeTheResetCannotBeRead) {
  auto z = tile::zeros<float>({16}, cpu());
  tile::detail::inject_device_reset(cpu());
  EXPECT_HAS(error_of([&] { (void)z.to_host(); }), kLost);
  EXPECT_HAS(error_of([&] { (void)z.view(); }), kLost);
  EXPECT_HAS(error_of([&] { (void)tile::to_dlpack(std::move(z)); }), kLost);
}

TEST(DeviceReset, AnOpComposedBeforeTheResetAndRunAfterItRunsNothing) {
  auto z = tile::zeros<float>({128}, cpu());
  auto x = tile::full<float>({128}, 2.0f, cpu());
  auto op = tile::launch<add_to<64>>(z.partition_mut<64>(), x);
  tile::detail::inject_device_reset(cpu());
  EXPECT_HAS(error_of([&] { std::move(op).sync(); }), kLost);
}

TEST(DeviceReset, ACopyComposedBeforeTheResetRunsNothing) {
  auto src = tile::full<float>({32}, 1.0f, cpu());
  auto dst = tile::zeros<float>({32}, cpu());
  auto op = tile::ops::copy(src, dst.view_mut());
  tile::detail::inject_device_reset(cpu());
  EXPECT_HAS(error_of([&] { std::move(op).sync(); }), kLost);
}

TEST(DeviceReset, ArraysMadeAfterTheResetWork) {
  auto before = tile::zeros<float>({128}, cpu());
  tile::detail::inject_device_reset(cpu());
  auto z = tile::zeros<float>({128}, cpu());
  auto x = tile::full<float>({128}, 3.0f, cpu());
  tile::launch<add_to<64>>(z.partition_mut<64>(), x).sync();
  EXPECT_EQ(z.to_host(), std::vector<float>(128, 3.0f));
  // A lost array in the same launch as live ones is still refused.
  EXPECT_HAS(error_of([&] { tile::launch<add_to<64>>(z.partition_mut<64>(), before).sync(); }), kLost);
  EXPECT_EQ(z.to_host(), std::vector<float>(128, 3.0f));  // and z was not touched
}

TEST(DeviceReset, LostArraysAreFreedWithoutLeaks) {
  const int64_t before = tile::detail::live_buffers();
  {
    auto a = tile::zeros<float>({64}, cpu());
    auto b = tile::full<float>({64}, 1.0f, cpu());
    tile::detail::inject_device_reset(cpu());
  }
  EXPECT_EQ(tile::detail::live_buffers(), before);
}

TEST(DeviceReset, TheLoansOfARefusedOpComeBack) {
  auto lost = tile::zeros<float>({128}, cpu());
  tile::detail::inject_device_reset(cpu());
  auto x = tile::full<float>({128}, 1.0f, cpu());
  EXPECT_HAS(error_of([&] { tile::launch<add_to<64>>(x.partition_mut<64>(), lost).sync(); }), kLost);
  tile::launch<increment<64>>(x.partition_mut<64>()).sync();  // x is lent again; add_to never ran
  EXPECT_EQ(x.to_host(), std::vector<float>(128, 2.0f));
}

}  // namespace
