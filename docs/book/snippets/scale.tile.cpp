// y = a * x, one 256-element piece of y per tile program.
#include <cstdio>
#include <tile/tile.hpp>
#include <vector>

TILE_KERNEL void scale(tile::Tensor<float, 256>& y, const tile::Tensor<float, tile::dyn>& x, float a) {
  y.store(a * tile::load_tile_like(x, y));  // the tile of x at y's position
}

int main() {
  auto x = tile::from_host(std::vector<float>(1000, 2.0f));
  auto y = tile::zeros<float>({1000});
  tile::launch<scale>(y.partition_mut<256>(), x, 3.0f).sync();  // 4 programs; the last piece is cut
  std::printf("y[999] = %g on %s\n", y.to_host()[999], tile::default_device().name().c_str());
  return y.to_host()[999] == 6.0f ? 0 : 1;
}
