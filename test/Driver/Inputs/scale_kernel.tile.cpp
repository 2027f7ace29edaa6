#include "scale_kernel.h"

template <int B>
TILE_KERNEL void scale(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x, float a) {
  z.store(tile::load_tile_like(x, z) * a);
}
template void scale<256>(tile::Tensor<float, 256>&, const tile::Tensor<float, tile::dyn>&, float);
