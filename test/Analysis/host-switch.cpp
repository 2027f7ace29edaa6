// RUN: tilecc check -verify %s
// Ops synced in every case of a switch are finished after it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(int k) {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  switch (k) {
  case 0:
    std::move(op).sync();
    break;
  default:
    std::move(op).sync();
    break;
  }
  print(a);
}
