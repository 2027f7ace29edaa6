// RUN: tilecc check -verify %s
// A partition's tile shape is the exclusive parameter's static shape, of the same rank.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
TILE_KERNEL void rows(tile::Tensor<float, 4, tile::dyn>& z) {} // expected-note 2 {{the parameter is declared here}}

void f() {
  Arr a = make();
  tile::launch<inc>(a.partition_mut<64>()).sync(); // expected-error {{argument 1 cannot bind to parameter 'z' (tile::Tensor<float, 128> &): the partition's tile shape [64] differs from the parameter's static shape [128]}}
  tile::launch<rows>(a.partition_mut<128>()).sync(); // expected-error {{the partition has rank 1 but the parameter has rank 2}}
  auto m = tile::zeros<float>({32, 32});
  tile::launch<rows>(m.partition_mut<8, 32>()).sync(); // expected-error {{the partition's tile shape [8, 32] differs from the parameter's static shape [4, dyn]}}
  tile::launch<rows>(m.partition_mut<4, 32>()).sync();  // fits: dyn takes any extent
}
// expected-note@Inputs/host-kernels.h:* {{the parameter is declared here}}
