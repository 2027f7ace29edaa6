// RUN: tilecc check -verify %s
// A launch gives the kernel exactly as many arguments as it has parameters.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  tile::launch<copy>(a.partition_mut<128>()).sync(); // expected-error {{tile::launch<copy>: the kernel takes 2 arguments but 1 was given}}
}
