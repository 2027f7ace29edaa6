// RUN: tilecc check -verify %s
// Borrowed partitions are mapped the same way.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(Arr& a) {
  auto ok = tile::launch<inc>(a.partition_mut<128>().map(tile::reversed{}));
  std::move(ok).sync();
  auto bad = tile::launch<inc>(a.partition_mut<128>().map( // expected-error {{not provably injective}}
      [](std::array<int64_t, 1> c, std::array<int64_t, 1>) { return std::array<int64_t, 1>{c[0] * c[0]}; }));
  std::move(bad).sync();
}
