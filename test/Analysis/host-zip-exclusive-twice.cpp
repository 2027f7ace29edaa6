// RUN: tilecc check -verify %s
// Two ops zipped together run together: one array cannot be lent exclusively to both.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto both = tile::zip(tile::launch<inc>(a.partition_mut<128>()), // expected-note {{'a' was lent exclusively here}}
                        tile::launch<scale>(a.partition_mut<128>(), 2.0f)); // expected-error {{while an unfinished operation holds an exclusive loan on it}}
  std::move(both).sync();
}
