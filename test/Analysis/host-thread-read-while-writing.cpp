// RUN: tilecc check -verify %s
// Work started on another thread holds what its lambda touches until the thread is joined: the
// thread writes the array, so reading it before the join races.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <thread>

void f() {
  Arr a = make();
  std::thread t([&] { fill(a); }); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 't' runs (not joined or waited for) holds an exclusive loan on it}}
  t.join(); // expected-note {{the loan is still needed here}}
}
