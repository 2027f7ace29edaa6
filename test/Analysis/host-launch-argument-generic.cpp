// RUN: tilecc check -verify %s
// Launches in templates are checked in each instantiation; a fitting one is accepted.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
template <class A>
void launch_with(A& z, const A& x) {
  tile::launch<copy>(z.template partition_mut<128>(), x).sync(); // expected-error {{the partition holds double but the parameter is a tensor of float}} expected-error {{the array holds double but the parameter is a tensor of float}}
}

void f() {
  Arr a = make();
  Arr b = make();
  launch_with(a, b);
  auto c = tile::zeros<double>({1000});
  auto d = tile::zeros<double>({1000});
  launch_with(c, d);
}
// expected-note@Inputs/host-kernels.h:* 2 {{the parameter is declared here}}
