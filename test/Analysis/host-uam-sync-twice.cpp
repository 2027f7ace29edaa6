// RUN: tilecc check -verify %s
// sync() consumes the op: it cannot run twice.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  auto op = tile::launch<inc>(z.partition_mut<128>());
  std::move(op).sync(); // expected-note {{'op' was consumed here}}
  std::move(op).sync(); // expected-error {{'op' is used after it was consumed by sync()}}
}
