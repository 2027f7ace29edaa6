// RUN: tilecc check -verify %s
// std::async's future holds what the work borrowed until get() or wait(): writing the array
// the work reads is refused before, allowed after.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <future>

void f() {
  Arr a = make();
  auto done = std::async(std::launch::async, [&] { print(a); }); // expected-note {{'a' was lent shared here}}
  fill(a); // expected-error {{write (passed to 'fill' by non-const reference) of 'a' while the work on another thread that 'done' runs (not joined or waited for) holds a shared loan on it}}
  done.get(); // expected-note {{the loan is still needed here}}
  fill(a);
}
