// RUN: tilecc check -verify %s
// A parameter taken by value is the function's own array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
IncOp start(Arr a) {
  return tile::launch<inc>(a.partition_mut<128>()); // expected-error {{the operation returned here may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
}
