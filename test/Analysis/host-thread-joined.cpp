// RUN: tilecc check -verify %s
// expected-no-diagnostics
// Joining the thread returns what its work borrowed; two threads that only read one array may
// run together.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <thread>

void f() {
  Arr a = make();
  std::thread t([&] { fill(a); });
  t.join();
  print(a);
  auto op = tile::launch<inc>(a.partition_mut<128>());
  std::move(op).sync();
  std::thread r1([&] { print(a); }), r2([&] { print(a); });
  print(a);
  r1.join();
  r2.join();
  fill(a);
}
