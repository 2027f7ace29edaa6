// REQUIRES: plugin
// RUN: not %clang-plugin %s 2>&1 | FileCheck %s
// The plugin runs the borrow checker inside an ordinary clang++ compile and reports through
// Clang's diagnostics, with the rule id and the note at the earlier loan.
#include <tile/tile.hpp>

TILE_KERNEL void inc(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }

void f() {
  auto a = tile::zeros<float>({1024});
  auto op = tile::launch<inc>(a.partition_mut<128>());
  auto again = tile::launch<inc>(a.partition_mut<128>());
  std::move(op).sync();
  std::move(again).sync();
}

// CHECK: plugin-borrow-error.cpp:12:36: error: 'a' is lent exclusively while the unfinished operation 'op' holds an exclusive loan on it [tile-borrow-conflict]
// CHECK: plugin-borrow-error.cpp:11:33: note: 'a' was lent exclusively here
// CHECK: plugin-borrow-error.cpp:13:17: note: the loan is still needed here
// CHECK: 1 error generated.
