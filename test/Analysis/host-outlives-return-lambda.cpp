// RUN: tilecc check -verify %s
// The same holds for an op returned from a lambda.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto start = [] {
    Arr local = make();
    return tile::launch<inc>(local.partition_mut<128>()); // expected-error {{the operation returned here may outlive the array 'local' it borrows}} expected-note {{'local' was lent exclusively here}}
  };
  auto op = start();
  std::move(op).sync();
}
