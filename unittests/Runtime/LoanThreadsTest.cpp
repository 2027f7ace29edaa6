// Loans taken and returned from several threads at once: views of one array (const methods,
// so callable concurrently as the standard library's are) and loans of arrays over one memory.
// Under ThreadSanitizer (tile_runtime_tests_tsan) any unsynchronised bookkeeping is a report.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

TEST(LoanThreads, SharedViewsFromSeveralThreadsLeaveNoLoanBehind) {
  auto a = tile::arange<float>(1024);
  const tile::Array<float>& shared = a;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&shared, t] {
      for (int i = 0; i < 2000; ++i) {
        auto whole = shared.view();
        auto part = shared.slice(0, (t * 64 + i) % 960, (t * 64 + i) % 960 + 64);
        (void)whole, (void)part;
      }
    });
  for (std::thread& t : threads) t.join();
  auto b = std::move(a).partition<256>();  // consuming needs no loan left
  (void)b;
}

TEST(LoanThreads, ArraysOverOneMemoryLendFromSeveralThreads) {
  std::vector<float> host(512, 1.0f);
  std::vector<tile::Array<float>> arrays;
  for (int t = 0; t < 4; ++t)
    arrays.push_back(tile::unchecked::borrow_external<float>(host.data(), {512}, {}, tile::cpu_device()));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&arrays, t] {
      for (int i = 0; i < 1000; ++i) {
        auto v = arrays[static_cast<std::size_t>(t)].slice(0, 0, 128);
        (void)v;
      }
    });
  for (std::thread& t : threads) t.join();
  auto exclusive = arrays[0].view_mut();  // every shared loan was returned
  EXPECT_HAS(error_of([&] { (void)arrays[1].view(); }), "through another array over the same memory");
}

}  // namespace
