// RUN: tilecc check -verify %s
// Defining a lambda that reads an array is not a read; calling it after the sync is fine.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto peek = [&] { return a.to_host(); };
  auto op = tile::launch<inc>(a.partition_mut<128>());
  std::move(op).sync();
  auto h = peek();
}
