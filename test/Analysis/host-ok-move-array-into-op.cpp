// RUN: tilecc check -verify %s
// An input moved into an op is owned by it; the rest stays usable.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr z = make();
  auto op = tile::launch<add>(z.partition_mut<128>(), tile::ones<float>({1000}), make());
  std::move(op).sync();
  print(z);
}
