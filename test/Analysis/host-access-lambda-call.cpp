// RUN: tilecc check -verify %s
// Calling a lambda that reads a captured array counts as reading it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto peek = [&] { return a.to_host(); }; // expected-note {{the lambda uses 'a' here}}
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto h = peek(); // expected-error {{read (to_host, in the lambda called here) of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
