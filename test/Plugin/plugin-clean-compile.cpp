// REQUIRES: plugin
// RUN: %clang-plugin -Werror %s
// A program that tilecc accepts compiles with the plugin loaded without a diagnostic.
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x,
                     const tile::Tensor<float, tile::dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}

int main() {
  auto x = tile::zeros<float>({1000}), y = tile::ones<float>({1000});
  auto z = tile::zeros<float>({1000});
  tile::launch<add<128>>(z.partition_mut<128>(), x, y).sync();
}
