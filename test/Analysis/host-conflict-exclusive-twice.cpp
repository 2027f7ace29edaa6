// RUN: tilecc check -verify %s
// One launch cannot take an array exclusively twice.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<both>(a.partition_mut<128>(), // expected-note {{'a' was lent exclusively here}}
                               a.partition_mut<128>()); // expected-error {{'a' is lent exclusively while another argument of this launch holds an exclusive loan on it}}
  std::move(op).sync();
}
