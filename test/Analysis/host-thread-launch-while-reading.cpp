// RUN: tilecc check -verify %s
// A thread that reads an array holds a shared loan on it: lending it exclusively to a launch
// before the thread is joined is refused.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <thread>

void f() {
  Arr a = make();
  std::thread t([&] { print(a); }); // expected-note {{'a' was lent shared here}}
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-error {{'a' is lent exclusively while the work on another thread that 't' runs (not joined or waited for) holds a shared loan on it}}
  std::move(op).sync();
  t.join(); // expected-note {{the loan is still needed here}}
}
