// RUN: tilecc check -verify %s
// The element types of a launch's partitions and arrays are the kernel's.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto ints = tile::zeros<int32_t>({1000});
  tile::launch<copy>(a.partition_mut<128>(), ints).sync(); // expected-error {{argument 2 cannot bind to parameter 'x' (const tile::Tensor<float, tile::dyn> &): the array holds int but the parameter is a tensor of float}}
  tile::launch<inc>(ints.partition_mut<128>()).sync(); // expected-error {{argument 1 cannot bind to parameter 'z' (tile::Tensor<float, 128> &): the partition holds int but the parameter is a tensor of float}}
}
// expected-note@Inputs/host-kernels.h:* 2 {{the parameter is declared here}}
