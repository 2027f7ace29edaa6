// RUN: tilecc check -verify %s
// A temporary partition ref lives to the end of its full-expression only.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto g = a.partition_mut<128>().grid();
  print(a);
  fill(a);
}
