// RUN: tilecc check -verify %s
// Waiting on every path (get() on one, wait() on the other) finishes the work before the access.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(bool c) {
  Arr a = make();
  auto fut = tile::launch<inc>(a.partition_mut<128>()).async();
  if (c)
    std::move(fut).get();
  else
    fut.wait();
  fill(a);
}
