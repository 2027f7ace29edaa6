// RUN: tilecc check -verify %s
// A partition moved into a launch is gone.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto p = std::move(a).partition<128>();
  auto op = tile::launch<inc>(std::move(p)); // expected-note {{'p' was moved here}}
  auto g = p.grid(); // expected-error {{'p' is used after it was moved into an operation}}
  auto b = std::move(op).sync().unpartition();
}
