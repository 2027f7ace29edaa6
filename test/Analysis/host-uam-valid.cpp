// RUN: tilecc check -verify %s
// valid() may be asked of a moved-from array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  consume(std::move(a));
  bool stillThere = a.valid(); // asking is fine
  a = make();
  print(a);
}
