// RUN: tilecc check -verify %s
// unpartition() consumes the partition.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto p = std::move(a).partition<128>();
  Arr b = std::move(p).unpartition(); // expected-note {{'p' was consumed here}}
  Arr c = std::move(p).unpartition(); // expected-error {{'p' is used after it was consumed by unpartition()}}
}
