// RUN: tilecc check -verify %s
// An op returned from a function must not borrow the function's own array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
IncOp start() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  return op; // expected-error {{the operation returned here may outlive the array 'a' it borrows}}
}
