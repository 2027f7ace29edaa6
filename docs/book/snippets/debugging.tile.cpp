// tile::check and tile::print in a kernel run on the CPU backend.
#include <cstdio>
#include <tile/tile.hpp>
#include <vector>

TILE_KERNEL void normalize(tile::Tensor<float, 8>& y, const tile::Tensor<float, tile::dyn>& x) {
  auto t = tile::load_tile_like(x, y);
  tile::check(t >= 0.0f, "inputs are not negative");
  const float total = tile::sum(t);
  if (tile::block_id(0) == 0) tile::print("total of piece 0", total);
  y.store(t / total);
}

int main() {
  std::vector<float> h(16, 1.0f);
  auto y = tile::zeros<float>({16});
  tile::launch<normalize>(y.partition_mut<8>(), tile::from_host(h)).sync();  // prints 8
  h[11] = -1.0f;
  try {
    tile::launch<normalize>(y.partition_mut<8>(), tile::from_host(h)).sync();
    return 1;  // the check must fail
  } catch (const tile::Error& e) {
    std::printf("caught: %s\n", e.what());  // names normalize, the line, program (1) and the message
  }
  return 0;
}
