// RUN: tilecc check -verify %s
// Returning the launch itself is the same.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
IncOp start() {
  Arr a = make();
  return tile::launch<inc>(a.partition_mut<128>()); // expected-error {{the operation returned here may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
}
