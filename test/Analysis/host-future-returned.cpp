// RUN: tilecc check -verify %s
// A future returned from a function must not borrow the function's own array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
auto start() {
  Arr a = make();
  auto fut = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  return fut; // expected-error {{the future returned here may outlive the array 'a' it borrows}}
}
