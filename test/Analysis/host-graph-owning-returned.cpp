// RUN: tilecc check -verify %s
// A graph of an op that owns its arrays may be returned and replayed by the caller.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
auto capture() {
  return tile::launch<inc>(make().partition<128>()).graph();
}
void f() {
  auto g = capture();
  g.sync();
  g.sync();
}
