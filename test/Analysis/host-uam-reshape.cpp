// RUN: tilecc check -verify %s
// reshape() consumes the array: the old name is moved from, the new one is usable.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  Arr m = std::move(a).reshape({10, 100}); // expected-note {{'a' was consumed here}}
  print(m);
  print(a); // expected-error {{'a' is used after it was consumed by reshape()}}
}
