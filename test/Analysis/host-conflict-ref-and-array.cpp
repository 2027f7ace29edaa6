// RUN: tilecc check -verify %s
// A partition ref and its array passed to the same launch conflict.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto ref = a.partition_mut<128>(); // expected-note {{'a' was lent exclusively here}}
  auto op = tile::launch<copy>(std::move(ref), a); // expected-error {{'a' is lent shared while another argument of this launch holds an exclusive loan on it}}
  std::move(op).sync();
}
