// RUN: tilecc check -verify %s
// A thread whose lambda launches on an array it captured by reference, and waits for the work
// itself, holds that array exclusively until it is joined, and no longer: its own launch does
// not conflict with the thread's loan, and a lambda that returns nothing hands no loan to the
// thread object.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <thread>

void joined() {
  Arr a = make();
  std::thread t([&] { tile::launch<inc>(a.partition_mut<128>()).sync(); });
  t.join();
  print(a);
}

void read_before_join() {
  Arr a = make();
  std::thread t([&] { tile::launch<inc>(a.partition_mut<128>()).sync(); }); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 't' runs (not joined or waited for) holds an exclusive loan on it}}
  t.join(); // expected-note {{the loan is still needed here}}
}
