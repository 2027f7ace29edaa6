// RUN: tilecc check -verify %s
// An array moved into a partition cannot be read afterwards.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto p = std::move(a).partition<128>(); // expected-note {{'a' was moved here}}
  auto h = a.to_host(); // expected-error {{'a' is used after it was moved into a partition}}
}
