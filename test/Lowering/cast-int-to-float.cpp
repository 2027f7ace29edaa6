// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// tile::cast follows C++ conversions elementwise; iota counts along the tile.
#include <tile/tile.hpp>

TILE_KERNEL void ramp(tile::Tensor<float, 128>& z) {
  auto i = tile::iota<int32_t, 128>() + int32_t(tile::block_id(0) * 128);
  z.store(tile::cast<float>(i) * 0.5f);
}

// CHECK-LABEL: func.func @ramp(
// CHECK: tile.iota : tensor<128xi32>
// CHECK: arith.addi {{.*}} : tensor<128xi32>
// CHECK: arith.sitofp {{.*}} : tensor<128xi32> to tensor<128xf32>
