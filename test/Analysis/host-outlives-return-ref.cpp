// RUN: tilecc check -verify %s
// A partition ref returned from a function must not borrow a local.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
tile::PartitionRef<float, 128> borrow() {
  Arr a = make();
  return a.partition_mut<128>(); // expected-error {{the partition ref returned here may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
}
