// RUN: tilecc check -verify %s
// Passing an array by value to a function moves it there.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  consume(std::move(a)); // expected-note {{'a' was moved here}}
  print(a); // expected-error {{'a' is used after it was moved into a call to 'consume'}}
}
