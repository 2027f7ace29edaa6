// RUN: tilecc check -verify %s
// An array moved into a launch as a shared argument belongs to the op.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::launch<copy>(z.partition_mut<128>(), std::move(x)); // expected-note {{'x' was moved here}}
  std::move(op).sync();
  auto n = x.shape(); // expected-error {{'x' is used after it was moved into an operation}}
}
