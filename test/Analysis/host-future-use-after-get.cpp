// RUN: tilecc check -verify %s
// get() consumes the future.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto fut = tile::launch<inc>(make().partition<128>()).async();
  auto p = std::move(fut).get(); // expected-note {{'fut' was consumed here}}
  (void)std::move(fut).get(); // expected-error {{'fut' is used after it was consumed by get()}}
}
