// RUN: tilecc check -verify %s
// A partition ref destroyed at the end of its scope gives the array back.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  {
    auto ref = a.partition_mut<128>();
    auto g = ref.grid();
  }
  print(a);
}
