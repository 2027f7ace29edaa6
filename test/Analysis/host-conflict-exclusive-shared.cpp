// RUN: tilecc check -verify %s
// One launch cannot take an array exclusively and shared.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<copy>(a.partition_mut<128>(), a); // expected-error {{'a' is lent shared while another argument of this launch holds an exclusive loan on it}} expected-note {{'a' was lent exclusively here}}
  std::move(op).sync();
}
