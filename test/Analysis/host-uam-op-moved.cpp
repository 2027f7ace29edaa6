// RUN: tilecc check -verify %s
// Moving an op into another variable moves its loans too.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  auto op2 = std::move(op); // expected-note {{'op' was moved here}}
  std::move(op2).sync();
  std::move(op).sync(); // expected-error {{'op' is used after it was moved into 'op2'}}
}
