// RUN: tilecc check -verify %s
// A future of an op that owns its arrays (moved in) may be returned.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
auto start() {
  Arr a = make();
  auto fut = tile::launch<inc>(std::move(a).partition<128>()).async();
  return fut;
}
