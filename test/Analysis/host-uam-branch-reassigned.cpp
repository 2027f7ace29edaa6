// RUN: tilecc check -verify %s
// A move followed by a reassignment on the same branch is fine.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(bool c) {
  Arr a = make();
  if (c) {
    consume(std::move(a));
    a = make();
  }
  auto h = a.to_host();
}
