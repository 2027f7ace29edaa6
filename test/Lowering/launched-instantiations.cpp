// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// Every instantiation the file launches is compiled, once; templates nobody uses are not.
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void copy(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

template <int B>
TILE_KERNEL void unused(tile::Tensor<float, B>& z) { z.store(z.load()); }

void run(tile::Array<float>& x) {
  auto a = tile::zeros<float>({100});
  auto b = tile::zeros<float>({100});
  auto a2 = tile::launch<copy<64>>(std::move(a).partition<64>(), x).sync().unpartition();
  auto b2 = tile::launch<copy<32>>(std::move(b).partition<32>(), x).sync().unpartition();
  auto c = tile::launch<copy<64>>(std::move(a2).partition<64>(), x).sync().unpartition();
}

// CHECK-DAG: func.func @copy_64(%arg0: !tile.view<64xf32, exclusive>
// CHECK-DAG: func.func @copy_32(%arg0: !tile.view<32xf32, exclusive>
// CHECK-NOT: func.func @copy_64
// CHECK-NOT: unused
