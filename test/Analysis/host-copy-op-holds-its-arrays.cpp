// RUN: tilecc check -verify %s
// tile::ops::copy borrows its destination exclusively and its source shared until it has run,
// as a launch does.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  Arr b = make();
  auto copy = tile::ops::copy(a, b); // expected-note {{'b' was lent exclusively here}}
  auto h = a.to_host();              // reading the source is fine
  tile::launch<inc>(b.partition_mut<128>()).sync(); // expected-error {{'b' is lent exclusively while the unfinished operation 'copy' holds an exclusive loan on it}}
  std::move(copy).sync(); // expected-note {{the loan is still needed here}}
}
