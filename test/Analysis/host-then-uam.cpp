// RUN: tilecc check -verify %s
// then() consumes the op it continues.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto op = tile::launch<inc>(make().partition<128>());
  auto next = std::move(op).then([](auto p) { return tile::launch<scale>(std::move(p), 2.0f); }); // expected-note {{'op' was consumed here}}
  std::move(op).sync(); // expected-error {{'op' is used after it was consumed by then()}}
  std::move(next).sync();
}
