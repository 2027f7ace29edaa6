// RUN: tilecc check -verify %s
// An exclusive Tensor& takes a partition; a const Tensor& takes an array or a shared view; a
// scalar takes a value.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  Arr b = make();
  tile::launch<copy>(a, b).sync(); // expected-error {{tile::launch<copy>: argument 1 cannot bind to parameter 'z' (tile::Tensor<float, 128> &): an exclusive parameter (Tensor&) takes a partition, array.partition_mut<...>() or std::move(array).partition<...>(), but was given an Array<float>}}
  tile::launch<copy>(a.partition_mut<128>(), b.partition_mut<128>()).sync(); // expected-error {{argument 2 cannot bind to parameter 'x' (const tile::Tensor<float, tile::dyn> &): a shared parameter (const Tensor&) takes an array or a shared view, but was given a PartitionRef<float, 128>}}
  tile::launch<scale>(a.partition_mut<128>(), b).sync(); // expected-error {{argument 2 cannot bind to parameter 's' (float): a scalar parameter takes a value, but was given an Array<float>}}
}
// expected-note@Inputs/host-kernels.h:* 3 {{the parameter is declared here}}
