// RUN: tilecc check -verify %s
// An array written by one zipped op cannot be read by the other.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  Arr b = make();
  auto both = tile::zip(tile::launch<inc>(a.partition_mut<128>()), // expected-note {{'a' was lent exclusively here}}
                        tile::launch<copy>(b.partition_mut<128>(), a)); // expected-error {{'a' is lent shared while an unfinished operation holds an exclusive loan on it}}
  std::move(both).sync();
}
