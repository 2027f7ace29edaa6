// RUN: tilecc check %s 2>&1 | count 0
// RUN: tilecc check %s
// A clean file: nothing printed, exit 0.
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z) + 1.0f);
}

int main() {
  auto x = tile::ones<float>({1000});
  auto z = tile::zeros<float>({1000});
  auto op = tile::launch<add<128>>(std::move(z).partition<128>(), x);
  auto done = std::move(op).sync().unpartition();
  return done.to_host()[0] == 2.0f ? 0 : 1;
}
