// RUN: tilecc check -verify %s
// A lambda that moves a captured array leaves it moved after the call.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto sink = [&] { consume(std::move(a)); }; // expected-note {{inside the lambda, here}}
  sink(); // expected-note {{'a' was moved here}}
  print(a); // expected-error {{'a' is used after it was moved into a call to 'consume' (in the lambda called here)}}
}
