// RUN: tilecc check -verify %s
// Assigning a fresh array revives a moved-from variable.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto p = std::move(a).partition<128>();
  a = tile::zeros<float>({10});
  auto h = a.to_host();
}
