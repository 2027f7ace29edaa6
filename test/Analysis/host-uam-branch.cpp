// RUN: tilecc check -verify %s
// A move on one branch makes a later use an error.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(bool c) {
  Arr a = make();
  if (c)
    consume(std::move(a)); // expected-note {{'a' was moved here}}
  auto h = a.to_host(); // expected-error {{'a' is used after it was moved into a call to 'consume'}}
}
