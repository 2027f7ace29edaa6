// RUN: tilecc check -verify %s
// A reference to an array is that array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  Arr& r = a;
  const Arr& c = r;
  auto op = tile::launch<inc>(r.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto h = c.to_host(); // expected-error {{read (to_host) of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
